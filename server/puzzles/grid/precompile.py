"""Compile every grid kernel once, at set-up or deploy time (``scripts/setup.sh``), so that no user's
first search waits for numba's compiler: afterwards each process loads them from ``__pycache__``."""

from __future__ import annotations

import time

from . import tiles
from .kernel_search import warm_up


def compile_all() -> float:
    """Compile every kernel (or load it from numba's on-disk cache); returns the seconds it took. The
    first compile of the search kernels takes tens of seconds; a load, a fraction of a second."""
    t0 = time.perf_counter()
    for algorithm in ("bfs", "dfs", "astar", "bidirectional"):
        warm_up(algorithm)
    tiles.warm_up()  # the kernels that draw huge boards' tiles
    return time.perf_counter() - t0
