"""What a family's search and load are given and give back: the limits of a load (``LoadLimits``),
what bounds and observes a search (``RunControl``) and a finished search (``Solved``). Below both the
family interface (``family.py``, which re-exports them) and its optional parts (``capabilities.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from server.search.control import CancelFlag
from server.search.runner import Limits
from server.search.stats import SearchResult
from server.search.trace import Trace

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


@dataclass
class Solved:
    """A finished search: the result JSON and, when recorded, its trace and snapshots."""

    json: dict[str, Any]
    trace: Trace | None = None
    result: SearchResult | None = None
    snapshots: list[dict[str, Any]] | None = None
    drawn: Any = None  # the puzzle as the run saw it (e.g. with the run's start), for images
