"""``solve_grid``: run a search algorithm on a GridMaze with the compiled kernels.

Same algorithms, same results, same events as ``server.search.runner.run_search`` on a
``GridProblem`` (tests/test_kernels.py pins it), at compiled speed and a few bytes per cell.
Importing this module is cheap: numba and the kernels are imported on the first solve.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from ...i18n import t
from ...search.registry import SearchOptions, get_algorithm
from ...search.stats import SearchResult
from ...search.trace import Trace
from .model import GridMaze
from .problem import GridProblem

#: The algorithms the kernels run (the grid family's others run in Python: ``Family.fast_algorithms``).
KERNEL_ALGORITHMS = ("bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional")
_CAPACITY = 4096  # first size of a kernel's frontier (its trace starts at 16 times that); tests shrink it


def solve_grid(
    maze: GridMaze,
    algorithm: str,
    *,
    diagonal: bool = False,
    heuristic: str = "",
    weight: float = 1.0,
    record_trace: bool = True,
    max_expanded: int | None = None,
    cancel: np.ndarray | None = None,
    progress: np.ndarray | None = None,
    closed_at: np.ndarray | None = None,
) -> tuple[SearchResult, Trace | None]:
    """Search ``maze`` with ``algorithm`` (a name of ``server.search.registry``).

    ``heuristic`` ("" = the problem's default) and ``weight`` apply as in ``SearchOptions``.
    ``cancel`` is a uint8[1] array that another thread may set to 1 (polled every 4096
    expansions: the result then says ``stopped="cancelled"``); ``progress`` an int64[1] array
    where the number of states expanded so far is written as often. ``max_expanded`` stops the
    search once more states than that were expanded. ``closed_at``: an int32 array of one entry per
    cell, filled by the caller (the int32 maximum), into which each expansion writes its number
    0, 1, ... (the board after any step, drawn as tiles: ``tiles.py``). The kernel releases the GIL
    while it runs.
    Returns the result (``path``: an int64 array of flat cell indices, start first; empty when no
    path was found) and, if ``record_trace``,
    the trace of OPEN/CLOSE/UPDATE/PATH records (cell, float32 g or BFS score).
    """
    algo = get_algorithm(algorithm)
    problem = GridProblem(maze, diagonal)  # checks that the maze has a start and a goal
    options = SearchOptions(heuristic, weight)
    optimal = algo.optimal(problem, options)
    cells = maze.cells.reshape(-1)
    if cells.shape[0] >= 2**31:
        raise ValueError(f"{maze.height} x {maze.width} is too many cells for the int32 kernels")
    if not cells.flags.writeable:
        cells = cells.copy()  # a read-only array would need (and compile) a second signature
    if max_expanded is not None and max_expanded < 0:
        raise ValueError(f"max_expanded must be >= 0, not {max_expanded}")
    cancel = _flag(cancel, np.uint8, "cancel")
    progress = _flag(progress, np.int64, "progress")
    if closed_at is None:
        closed_at = np.empty(0, np.int32)
    elif closed_at.dtype != np.int32 or closed_at.shape != cells.shape or not closed_at.flags.c_contiguous:
        raise TypeError(f"closed_at must be a contiguous int32[{cells.shape[0]}] array")
    starts = np.ascontiguousarray(maze.starts, dtype=np.int64)
    goals = np.ascontiguousarray(maze.goals, dtype=np.int64)
    common = (cells, int(maze.width), int(maze.height), starts, goals, bool(diagonal))
    limits = (-1 if max_expanded is None else int(max_expanded), cancel, progress, closed_at, int(_CAPACITY))
    record = bool(record_trace)

    kernels = _kernels()
    args: tuple[Any, ...]
    if algorithm == "bfs":
        kernel, args = kernels.breadth_first, (*common, record, *limits)
    elif algorithm == "dfs":
        kernel, args = kernels.depth_first, (*common, record, *limits)
    elif algorithm == "bidirectional":
        kernel, args = kernels.bidirectional, (*common, record, *limits)
    else:
        name = options.resolved_heuristic(problem) if algo.uses_heuristic else "manhattan"  # h unused
        mode = kernels.MODES[algorithm]
        args = (*common, mode, kernels.HEURISTICS[name], float(weight), record, *limits)
        kernel = kernels.best_first

    _compile(kernel, args)  # so that ``seconds`` is the search's time, not the JIT's
    t0 = time.perf_counter()
    stats, cost, path, (kinds, trace_cells, values) = kernel(*args)
    seconds = time.perf_counter() - t0

    outcome = stats[kernels.OUTCOME]
    found = bool(outcome == kernels.FOUND)
    stopped = None
    if outcome == kernels.CANCELLED:
        stopped = "cancelled"
    elif outcome == kernels.LIMIT:
        stopped = t("search.limit.expanded", count=max_expanded)  # the runner's words
    result = SearchResult(
        algorithm=algorithm,
        found=found,
        cost=float(cost) if found else None,
        # The kernel's own int64 array, never a list: the JSON writer (``json_arrays.CellPairs``) and
        # the solution's picture read it as it is (a list of 6.6 M ints and back cost 0.6 s and 240 MB).
        path=path if found else np.empty(0, np.int64),
        expanded=int(stats[kernels.EXPANDED]),
        generated=int(stats[kernels.GENERATED]),
        max_frontier=int(stats[kernels.MAX_FRONTIER]),
        seconds=seconds,
        optimal_guaranteed=optimal,
        stopped=stopped,
    )
    trace = None
    if record:
        n = int(stats[kernels.RECORDS])
        trace = Trace(kinds[:n].copy(), trace_cells[:n].copy(), values[:n].copy())
    return result, trace


def warm_up(algorithm: str, record_trace: bool = False) -> None:
    """Import numba and load (or compile) the kernel ``algorithm`` needs, on a 2 x 2 maze.

    The CLI runs this in a thread while it reads and decodes the image: most of the decoding
    releases the GIL, so numba's start-up cost mostly disappears behind it.
    """
    maze = GridMaze(np.ones((2, 2), np.uint8), np.array([0]), np.array([3]))
    solve_grid(maze, algorithm, record_trace=record_trace)


def _flag(array: np.ndarray | None, dtype: type, label: str) -> np.ndarray:
    """The caller's one-element array (checked), or a private one."""
    if array is None:
        return np.zeros(1, dtype)
    usable = array.flags.c_contiguous and array.flags.writeable
    if array.dtype != dtype or array.shape != (1,) or not usable:
        raise TypeError(f"{label} must be a writeable {np.dtype(dtype).name}[1] array")
    return array


def kernels_loaded() -> bool:
    """Whether this process has imported the kernels (and numba): a search then costs no loading."""
    return f"{__package__}.kernels" in sys.modules


def _kernels() -> Any:
    """The kernel module, imported (with numba) on first use."""
    from . import kernels as grid_kernels

    return grid_kernels


def _compile(kernel: Any, args: tuple[Any, ...]) -> None:
    """Compile (or load from numba's cache) ``kernel`` for these argument types, if not done yet."""
    import numba

    signature = tuple(numba.typeof(a) for a in args)
    if signature not in kernel.overloads:  # compile() itself would wait for numba's global compiler lock
        kernel.compile(signature)
