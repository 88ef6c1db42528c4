"""The compiled grid kernels against the generic algorithms: same events, paths, costs and counts.

The generic algorithms (``server.search``) define what each algorithm does; ``server.puzzles.grid.kernels``
must do exactly the same at compiled speed. Here both run on many small random grids and their
traces are compared record by record. Most comparisons run with tiny first buffer sizes, so that
every kernel's queue, stack, heap and trace have to grow (and resume) many times.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.puzzles.errors import PuzzleError
from server.puzzles.grid import kernel_search as grid_search
from server.puzzles.grid.kernel_search import solve_grid
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.problem import HEURISTICS, GridProblem
from server.puzzles.registry import get_family
from server.search.events import Event
from server.search.registry import SearchOptions, get_algorithm
from server.search.runner import Limits, run_search
from server.search.stats import SearchResult
from server.search.trace import Trace, tally_trace

ALGORITHMS = get_family("grid").fast_algorithms or ()  # what the kernels implement
OPTIMAL = ("dijkstra", "bidirectional", "astar")  # always optimal here (admissible heuristics, weight 1)


@pytest.fixture(autouse=True)
def tiny_buffers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start every kernel buffer at (almost) nothing, so that growing and resuming is exercised."""
    monkeypatch.setattr(grid_search, "_CAPACITY", 1)


# --- helpers ------------------------------------------------------------------------------------


def generic(
    maze: GridMaze, algorithm: str, diagonal: bool, heuristic: str = "", weight: float = 1.0
) -> tuple[SearchResult, Trace]:
    """The generic run: its result and its events as a Trace (as the live layer records them)."""
    problem = GridProblem(maze, diagonal)
    kinds, cells, values = [], [], []

    def on_event(event: Event) -> None:
        kinds.append(event.kind)
        cells.append(problem.cell_of(event.state))
        values.append(event.g)

    result = run_search(problem, algorithm, SearchOptions(heuristic, weight), Limits(None, None), on_event)
    trace = Trace(np.array(kinds, np.uint8), np.array(cells, np.int32), np.array(values, np.float32))
    return result, trace


def assert_same(
    maze: GridMaze, algorithm: str, diagonal: bool, heuristic: str = "", weight: float = 1.0
) -> SearchResult:
    """Kernel and generic agree on every record, the path, the cost and the counts."""
    expected, expected_trace = generic(maze, algorithm, diagonal, heuristic, weight)
    result, trace = solve_grid(maze, algorithm, diagonal=diagonal, heuristic=heuristic, weight=weight)
    where = f"{algorithm} diagonal={diagonal} heuristic={heuristic!r} weight={weight}\n{maze.cells}"
    assert len(trace) == len(expected_trace), where
    np.testing.assert_array_equal(trace.kinds, expected_trace.kinds, err_msg=where)
    np.testing.assert_array_equal(trace.cells, expected_trace.cells, err_msg=where)
    np.testing.assert_array_equal(trace.values, expected_trace.values, err_msg=where)
    assert result.found == expected.found, where
    assert result.path.tolist() == expected.path, where  # the kernel's path is an int64 array
    assert result.cost == expected.cost, where  # exactly: the same sums in the same order
    counts = (result.expanded, result.generated, result.max_frontier)
    assert counts == (expected.expanded, expected.generated, expected.max_frontier), where
    assert counts == tally_trace(trace.kinds), where
    assert result.optimal_guaranteed == expected.optimal_guaranteed, where
    assert result.algorithm == algorithm and result.stopped is None
    return result


def random_maze(rng: np.random.Generator) -> GridMaze:
    """A small grid with random walls, sometimes weights 1..9; one to three starts and goals
    anywhere, or (for long paths) one start and one goal in opposite corners."""
    height, width = int(rng.integers(1, 16)), int(rng.integers(1, 16))
    cells = (rng.random((height, width)) >= rng.uniform(0.0, 0.4)).astype(np.uint8)
    if rng.random() < 0.4:
        cells *= rng.integers(1, 10, size=cells.shape).astype(np.uint8)
    free = np.flatnonzero(cells)
    if free.size == 0:
        cells[0, 0], free = 1, np.array([0])
    if rng.random() < 0.5:
        return GridMaze(cells, free[:1], free[-1:])
    starts = rng.choice(free, size=min(free.size, int(rng.integers(1, 4))), replace=False)
    goals = rng.choice(free, size=min(free.size, int(rng.integers(1, 4))), replace=False)
    return GridMaze(cells, starts, goals)


def runs(diagonal: bool) -> Iterator[tuple[str, str, float]]:
    """(algorithm, heuristic, weight) for every algorithm and heuristic; A* weights 1, 1.5 and the
    integral 3 and 50 (the bucket queue with a widely spread, growing ring of f levels)."""
    heuristics = GridProblem(GridMaze(np.ones((1, 1), np.uint8), [0], [0]), diagonal).heuristics
    for name in ALGORITHMS:
        if name == "greedy":
            yield from ((name, h, 1.0) for h in heuristics)
        elif name == "astar":
            yield from ((name, h, w) for h in heuristics for w in (1.0, 1.5, 3.0, 50.0))
        else:
            yield name, "", 1.0


def walk_cost(maze: GridMaze, path: list[int], diagonal: bool) -> float:
    """The cost of ``path``, checking every step against the move rules (GridProblem.successors)."""
    problem = GridProblem(maze, diagonal)
    assert path[0] in maze.starts and path[-1] in maze.goals
    cost = 0.0
    for prev, nxt in itertools.pairwise(path):
        steps = dict(problem.successors(prev))
        assert nxt in steps, f"{prev} -> {nxt} is not a move"
        cost += steps[nxt]
    return cost


# --- equivalence --------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_random_grids_match_the_generic_algorithms(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(12):
        maze = random_maze(rng)
        for diagonal in (False, True):
            for algorithm, heuristic, weight in runs(diagonal):
                assert_same(maze, algorithm, diagonal, heuristic, weight)


@pytest.mark.parametrize("diagonal", [False, True])
def test_optimal_algorithms_agree_and_the_others_walk_valid_paths(diagonal: bool) -> None:
    rng = np.random.default_rng(100 + diagonal)
    for _ in range(40):
        maze = random_maze(rng)
        optimal_costs = []
        for algorithm, heuristic, weight in runs(diagonal):
            result, _ = solve_grid(maze, algorithm, diagonal=diagonal, heuristic=heuristic, weight=weight)
            problem = GridProblem(maze, diagonal)
            if not result.found:
                assert result.cost is None and len(result.path) == 0
                continue
            assert math.isclose(walk_cost(maze, result.path, diagonal), result.cost, rel_tol=1e-12)
            admissible = weight == 1.0 and heuristic not in problem.inadmissible_heuristics
            if (algorithm in OPTIMAL and admissible) or (algorithm == "bfs" and problem.unit_costs):
                assert result.optimal_guaranteed
                optimal_costs.append(result.cost)
            elif algorithm == "astar":  # weighted A*: within its factor of the optimum
                assert result.cost <= weight * min(optimal_costs) + 1e-9 or not admissible
        found = [solve_grid(maze, a, diagonal=diagonal)[0].found for a in ALGORITHMS]
        assert len(set(found)) == 1, "an algorithm missed a reachable goal"
        if optimal_costs:
            assert all(math.isclose(c, optimal_costs[0], rel_tol=1e-12) for c in optimal_costs), optimal_costs


def test_unsolvable_grid() -> None:
    cells = np.ones((5, 7), np.uint8)
    cells[:, 3] = 0  # a wall cuts the grid in two
    maze = GridMaze(cells, [0], [6])
    for diagonal in (False, True):
        for algorithm, heuristic, weight in runs(diagonal):
            result = assert_same(maze, algorithm, diagonal, heuristic, weight)
            assert not result.found and result.cost is None and len(result.path) == 0


def test_start_is_goal() -> None:
    cells = np.ones((4, 4), np.uint8)
    for starts, goals in (([5], [5]), ([1, 5, 9], [9, 15]), ([0, 15], [0])):
        maze = GridMaze(cells, starts, goals)
        for diagonal in (False, True):
            for algorithm, heuristic, weight in runs(diagonal):
                result = assert_same(maze, algorithm, diagonal, heuristic, weight)
                assert result.found and result.cost == 0.0 and len(result.path) == 1


def test_weighted_diagonal_maze_with_corners() -> None:
    """Corner cutting is refused; diagonal steps cost weight * sqrt 2, so sums are not integers."""
    cells = np.array(
        [
            [1, 1, 0, 3, 1],
            [2, 0, 1, 9, 1],
            [1, 1, 5, 0, 1],
            [0, 4, 1, 1, 2],
        ],
        np.uint8,
    )
    maze = GridMaze(cells, [0], [19])
    for algorithm, heuristic, weight in runs(True):
        assert_same(maze, algorithm, True, heuristic, weight)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    height=st.integers(1, 7),
    width=st.integers(1, 7),
    diagonal=st.booleans(),
    algorithm=st.sampled_from(sorted(ALGORITHMS)),
)
def test_property_kernel_equals_generic(
    data: st.DataObject, height: int, width: int, diagonal: bool, algorithm: str
) -> None:
    n = height * width
    values = data.draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))
    cells = np.array(values, np.uint8).reshape(height, width)
    cells.flat[data.draw(st.integers(0, n - 1))] = 1  # at least one free cell
    free = [int(i) for i in np.flatnonzero(cells)]
    starts = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=3))
    goals = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=3))
    maze = GridMaze(cells, starts, goals)
    heuristic = data.draw(st.sampled_from(("", *HEURISTICS)))
    weight = data.draw(st.sampled_from((1.0, 1.5, 2.0)))
    assert_same(maze, algorithm, diagonal, heuristic, weight)


def test_default_buffers_on_a_larger_maze(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default first buffer sizes (the other tests shrink them to force growth)."""
    monkeypatch.setattr(grid_search, "_CAPACITY", 4096)
    rng = np.random.default_rng(7)
    cells = (rng.random((90, 90)) > 0.3).astype(np.uint8)
    cells[0, 0] = cells[-1, -1] = 1
    maze = GridMaze(cells, [0], [90 * 90 - 1])
    for algorithm in ALGORITHMS:
        assert_same(maze, algorithm, True, "", 1.0)


def test_bfs_ring_buffer_keeps_fifo_order_when_it_grows() -> None:
    """An open grid whose BFS frontier (a diamond) outgrows the queue many times: scores stay in order."""
    side = 401
    maze = GridMaze(np.ones((side, side), np.uint8), [side * side // 2], [0])
    result, trace = solve_grid(maze, "bfs")
    assert result.cost == 2 * (side // 2) and result.max_frontier > 700
    closes = trace.values[trace.kinds == 1]
    assert np.all(np.diff(closes) >= 0), "the queue lost its order"
    assert (result.expanded, result.generated, result.max_frontier) == tally_trace(trace.kinds)


# --- options, limits, cancelling ----------------------------------------------------------------


def test_read_only_maze_arrays() -> None:
    cells = np.ones((4, 5), np.uint8)
    cells.flags.writeable = False
    maze = GridMaze(cells, [0], [19])
    assert not maze.cells.flags.writeable
    assert solve_grid(maze, "bfs")[0].cost == 7


def test_without_trace_the_result_is_the_same() -> None:
    maze = random_maze(np.random.default_rng(3))
    for algorithm in ALGORITHMS:
        with_trace, trace = solve_grid(maze, algorithm, diagonal=True)
        without, none = solve_grid(maze, algorithm, diagonal=True, record_trace=False)
        assert none is None and trace is not None
        for field in ("found", "cost", "expanded", "generated", "max_frontier"):
            assert getattr(without, field) == getattr(with_trace, field)
        np.testing.assert_array_equal(without.path, with_trace.path)


def test_max_expanded_stops_after_one_more_expansion() -> None:
    maze = GridMaze(np.ones((30, 30), np.uint8), [0], [899])
    for algorithm in ALGORITHMS:
        full, full_trace = solve_grid(maze, algorithm)
        result, trace = solve_grid(maze, algorithm, max_expanded=50)
        assert result.stopped == "limit: more than 50 states expanded"
        assert not result.found and result.cost is None and len(result.path) == 0
        assert result.expanded == 51
        assert (result.expanded, result.generated, result.max_frontier) == tally_trace(trace.kinds)
        n = len(trace)  # a prefix of the full run
        np.testing.assert_array_equal(trace.cells, full_trace.cells[:n])
        assert solve_grid(maze, algorithm, max_expanded=full.expanded)[0].found


def test_cancel_flag_and_progress_counter() -> None:
    cells = np.ones((200, 201), np.uint8)
    cells[:, 100] = 0  # unsolvable: every algorithm expands thousands of cells
    maze = GridMaze(cells, [0], [200 * 201 - 1])
    for algorithm in ALGORITHMS:
        cancel, progress = np.ones(1, np.uint8), np.zeros(1, np.int64)
        result, _ = solve_grid(maze, algorithm, cancel=cancel, progress=progress)
        assert result.stopped == "cancelled" and result.found is False
        assert result.expanded == progress[0] == 4096  # the flag is read every 4096 expansions
        cancel[0] = 0
        result, _ = solve_grid(maze, algorithm, cancel=cancel, progress=progress)
        assert result.stopped is None and progress[0] == result.expanded > 4096


def test_cancel_from_another_thread() -> None:
    """The kernels release the GIL: this thread runs, and cancels, while a search is under way."""
    from server.puzzles.grid import kernels as grid_kernels

    for kernel in (grid_kernels.breadth_first, grid_kernels.depth_first, grid_kernels.best_first):
        assert kernel.targetoptions["nogil"]
    side = 3000
    maze = GridMaze(np.ones((side, side), np.uint8), [0], [side * side - 1])
    cancel, progress = np.zeros(1, np.uint8), np.zeros(1, np.int64)
    out = {}

    def run() -> None:
        out["result"], _ = solve_grid(maze, "dijkstra", record_trace=False, cancel=cancel, progress=progress)

    worker = threading.Thread(target=run)
    worker.start()
    while worker.is_alive() and progress[0] == 0:
        pass  # spins in Python: only possible while the kernel does not hold the GIL
    cancel[0] = 1
    worker.join()
    result = out["result"]
    assert result.stopped == "cancelled" and 0 < result.expanded < side * side // 2


def test_bad_arguments() -> None:
    maze = GridMaze(np.ones((3, 3), np.uint8), [0], [8])
    with pytest.raises(ValueError, match="unknown algorithm"):
        solve_grid(maze, "nope")
    with pytest.raises(ValueError, match="unknown heuristic"):
        solve_grid(maze, "astar", heuristic="taxicab")
    with pytest.raises(TypeError, match="cancel"):
        solve_grid(maze, "bfs", cancel=np.zeros(1, np.int64))
    with pytest.raises(ValueError, match="max_expanded"):
        solve_grid(maze, "bfs", max_expanded=-1)
    with pytest.raises(PuzzleError):
        solve_grid(GridMaze(np.ones((3, 3), np.uint8), [], [8]), "bfs")


def test_optimal_flag_follows_the_registry() -> None:
    weighted = GridMaze(np.full((3, 3), 2, np.uint8), [0], [8])
    for maze in (GridMaze(np.ones((3, 3), np.uint8), [0], [8]), weighted):
        for diagonal in (False, True):
            for algorithm, heuristic, weight in runs(diagonal):
                result, _ = solve_grid(maze, algorithm, diagonal=diagonal, heuristic=heuristic, weight=weight)
                rule = get_algorithm(algorithm).optimal
                options = SearchOptions(heuristic, weight)
                assert result.optimal_guaranteed == rule(GridProblem(maze, diagonal), options)
