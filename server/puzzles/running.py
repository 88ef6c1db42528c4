"""What a family's search and load are given and give back: the limits of a load (``LoadLimits``),
what bounds and observes a search (``RunControl``) and a finished search (``Solved``). Below both the
family interface (``family.py``, which re-exports them) and its optional parts (``capabilities.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..search.control import CancelFlag
from ..search.runner import Limits
from ..search.stats import SearchResult
from ..search.trace import Trace

# Boards of expanded states sent with one run (docs/PROTOCOL.md): enough for every one of the
# 8-puzzle's 181,440 reachable boards (a breadth-first search lights its whole state space); their
# memory is counted against the work budget (``solving.held_bytes``).
MAX_SNAPSHOTS = 200_000
SNAPSHOT_BYTES = 200  # a snapshot's dict and its lists, besides its board (``solving.held_bytes``)


#: ``progress(phase, fraction)``: how far a load is ("decode", "cells", "lattice"; fraction in [0, 1],
#: or None where the phase has no measure). It may raise (a PuzzleError) to stop the load.
LoadProgress = Callable[[str, float | None], None]


@dataclass(frozen=True)
class LoadLimits:
    """How large a file's puzzle may be; a family checks these before it allocates the model.

    ``progress`` (optional) hears how a long load goes; ``memory`` (optional) is told the bytes the
    load will need, once the file's header says its size and before the family allocates: it may
    wait for them or raise (the server reserves them from its work budget). A family may ignore
    both (small files), the grid's images use them."""

    max_pixels: int = 50_000_000  # image pixels
    max_cells: int = 50_000_000  # cells of any board
    progress: LoadProgress | None = None
    memory: Callable[[int], None] | None = None


@dataclass
class RunControl:
    """What bounds and observes one search: limits, a cancel flag, a progress counter."""

    max_expanded: int | None = None
    max_seconds: float | None = None  # solving.solve arms ``cancel`` to be set when time is up
    cancel: CancelFlag = field(default_factory=CancelFlag)
    progress: np.ndarray | None = None  # int64[1]: states expanded so far (fast paths write it)
    record_trace: bool = False
    engine: str = "auto"  # "generic" forces the pure-Python algorithms where a fast path exists
    max_stored: int | None = None  # states generated: bounds a generic search's memory

    def limits(self) -> Limits:
        return Limits(self.max_expanded, self.max_seconds, self.max_stored)


class NamedStates:
    """The names of a recorded trace's states, where its cells do not name them (docs/PROTOCOL.md,
    frames' ``named``): each distinct state numbered 0, 1, 2… in the order it first appears in the
    trace, one number per record (-1 past ``MAX_SNAPSHOTS`` states), and of each numbered state its
    h under the run's heuristic (when the algorithm uses one) and, for families that draw states from
    snapshots, the state itself (made a snapshot only when it is sent: ``frame``)."""

    def __init__(self, snapshot: Callable[[Any], dict[str, Any]] | None,
                 h_of: Callable[[Any], float] | None) -> None:
        self.snapshot = snapshot
        self.h_of = h_of
        self.number: dict[Any, int] = {}
        self.states: list[Any] = []  # by number
        self.h: list[float] = []
        self._numbers = np.empty(1024, np.int32)
        self._n = 0

    def see(self, state: Any) -> None:
        """The next record is of ``state``: its number (a new one when first seen)."""
        found = self.number.get(state)
        if found is None:
            if len(self.states) < MAX_SNAPSHOTS:
                found = self.number[state] = len(self.states)
                self.states.append(state if self.snapshot is not None else None)
                if self.h_of is not None:
                    self.h.append(float(self.h_of(state)))
            else:
                found = -1
        if self._n == self._numbers.shape[0]:
            self._numbers = np.resize(self._numbers, self._n * 2)
        self._numbers[self._n] = found
        self._n += 1

    def finish(self) -> None:
        """The search is over: the lookup goes (the numbers and the states stay)."""
        self.number = {}
        self._numbers = self._numbers[: self._n].copy()

    @property
    def numbers(self) -> np.ndarray:
        return self._numbers[: self._n]

    @property
    def nbytes(self) -> int:
        return int(self._numbers.nbytes) + len(self.states) * (SNAPSHOT_BYTES // 2) + 8 * len(self.h)

    def frame(self, start: int, stop: int, first: int) -> tuple[dict[str, Any], int]:
        """The ``named`` field of the frame of records [start, stop), whose states numbered from ``first``
        on are new to the page; and the first number the next frame sends."""
        numbers = self.numbers[start:stop]
        upto = max(first, int(numbers.max()) + 1) if len(numbers) else first
        out: dict[str, Any] = {"states": numbers.astype("<i4", copy=False).tobytes(), "first": first}
        if self.h_of is not None:
            out["h"] = np.asarray(self.h[first:upto], dtype="<f4").tobytes()
        if self.snapshot is not None:
            out["boards"] = [self.snapshot(state) for state in self.states[first:upto]]
        return out, upto


@dataclass
class Solved:
    """A finished search: the result JSON and, when recorded, its trace and snapshots (and, where the
    trace's cells do not name its states, their names: ``named``)."""

    json: dict[str, Any]
    trace: Trace | None = None
    result: SearchResult | None = None
    snapshots: list[dict[str, Any]] | None = None
    drawn: Any = None  # the puzzle as the run saw it (e.g. with the run's start), for images
    named: NamedStates | None = None
