"""Counting, in one place for every algorithm: statistics are folded from the event stream.

- expanded: CLOSE events (states taken from the frontier and expanded);
- generated: OPEN and UPDATE events (states put on the frontier, or put back cheaper);
- max_frontier: the largest number of distinct states on the frontier at once (OPEN - CLOSE).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .costs import json_cost
from .events import CLOSES, OPENS, UPDATES


@dataclass
class Tally:
    expanded: int = 0
    generated: int = 0
    frontier: int = 0
    max_frontier: int = 0

    def add(self, kind: int) -> None:
        if kind in OPENS:
            self.generated += 1
            self.frontier += 1
            if self.frontier > self.max_frontier:
                self.max_frontier = self.frontier
        elif kind in CLOSES:
            self.expanded += 1
            self.frontier -= 1
        elif kind in UPDATES:
            self.generated += 1


@dataclass
class SearchResult:
    """What every search reports. ``path`` holds states (JSON form via the problem)."""

    algorithm: str
    found: bool
    cost: float | None
    path: list[Any]
    expanded: int
    generated: int
    max_frontier: int
    seconds: float
    optimal_guaranteed: bool
    stopped: str | None = None  # None, or why the search ended early ("limit: ...", "cancelled")
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self, path_json: list[Any] | None = None) -> dict[str, Any]:
        cost = json_cost(self.cost)
        # Plain Python types only (kernels hand back numpy scalars): msgpack and JSON need them.
        out: dict[str, Any] = {
            "algorithm": self.algorithm,
            "found": bool(self.found),
            "cost": cost,
            "path": self.path if path_json is None else path_json,
            "expanded": int(self.expanded),
            "generated": int(self.generated),
            "max_frontier": int(self.max_frontier),
            "seconds": round(float(self.seconds), 6),
            "optimal_guaranteed": bool(self.optimal_guaranteed),
        }
        if self.stopped:
            out["stopped"] = self.stopped
        out.update(self.extra)
        return out


class Stopwatch:
    def __init__(self) -> None:
        self.t0 = time.perf_counter()

    def seconds(self) -> float:
        return time.perf_counter() - self.t0
