"""The labyrinth's memory (issue 28): a board with many pushable lines builds its search view in
little memory (the relaxed bound lists line sets lazily and under a cap, its caches are bounded in
bytes), a search's measured peak stays within the family's estimate (``search_bytes``) on growing
boards, and the capped relaxed bound is still admissible and consistent.

Peaks are measured with ``tracemalloc`` (the search is pure Python, so it sees every allocation).
"""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from server.puzzles.labyrinth import problem as problem_module
from server.puzzles.labyrinth.generate import board_game
from server.puzzles.labyrinth.model import EXITED, Walker
from server.puzzles.labyrinth.problem import (
    LINE_SETS_BYTES,
    RELAXED_CACHE_BYTES,
    LabState,
    LabyrinthProblem,
    LabyrinthSetProblem,
    bound_entry_bytes,
    line_set_entry_bytes,
    relaxed_entry_bytes,
)
from server.puzzles.registry import get_family, load_puzzle
from server.search.registry import SearchOptions
from server.search.runner import Limits, run_search
from server.search.walk import walk
from server.solving import solve

FAMILY = get_family("labyrinth")
MB = 1024 * 1024
T = TypeVar("T")


def csv_board(rows: int, cols: int, seed: int) -> bytes:
    """Seed 000's CSV of random tiles: every row is pushable (even rows from the left, odd from the
    right), as the task's default layout says."""
    rng = random.Random(seed)
    lines = [";".join(str(rng.randrange(10)) for _ in range(cols)) for _ in range(rows)]
    lines.append(str(rng.randrange(10)) + ";" * (cols - 1))
    return ("\n".join(lines) + "\n").encode()


def lines_of(puzzle: Any) -> int:
    return len({(p.axis, p.index) for p in puzzle.insertions})


def peak_of(work: Callable[[], T]) -> tuple[T, int]:
    """``work()`` and the most memory it held at once (bytes allocated since it began)."""
    gc.collect()
    tracemalloc.start()
    try:
        out = work()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --------------------------------------------------------------------------- the hostile upload
def test_a_24_by_24_board_with_every_row_pushable_builds_its_problem_in_little_memory() -> None:
    data = csv_board(24, 24, seed=28)
    assert len(data) < 2_048  # the upload: 2 KB
    puzzle = load_puzzle(data, "hostile.csv")
    assert lines_of(puzzle) == 24
    options = FAMILY.run_options({})
    problem, peak = peak_of(lambda: FAMILY.problem(puzzle, options))
    # Every subset of the 24 lines was 2**24 place masks (~10 GB); now nothing is listed up front.
    assert peak < 1 * MB, peak
    assert isinstance(problem, LabyrinthProblem)
    assert not problem._line_sets
    # Sizes from 4 up are never listed: C(24, 4) = 10,626 sets would pass LINE_SETS_BYTES with the rest.
    assert problem._first_too_many == 4
    # What the search may add before its states: the line sets and every cache, each bounded in bytes.
    bounded = LINE_SETS_BYTES + 2 * Walker.CACHE_BYTES + RELAXED_CACHE_BYTES
    assert FAMILY.setup_bytes(puzzle, options) <= bounded


@pytest.mark.parametrize(("algorithm", "view"), [("bfs", "states"), ("dijkstra", "sets")])
def test_a_search_of_the_hostile_board_stops_at_its_limit_within_the_estimate(
    algorithm: str, view: str
) -> None:
    puzzle = load_puzzle(csv_board(24, 24, seed=28), "hostile.csv")
    options = {"view": view}
    solved, peak = peak_of(lambda: solve(puzzle, algorithm, options, max_stored=20_000, max_seconds=120))
    result = solved.json
    assert not result["found"]
    assert result["stopped"] == "limit: more than 20,000 states stored"
    estimate = FAMILY.search_bytes(puzzle, algorithm, FAMILY.run_options(options), 20_000)
    assert peak <= estimate <= 3 * peak, (peak, estimate)


def test_astar_with_the_capped_relaxed_bound_on_the_hostile_board_stays_within_the_estimate() -> None:
    """The relaxed bound in force with the cap: sizes 0..3 listed, its caches bounded; A* here is slow
    (every evaluation floods hundreds of line sets), so a time limit stops it."""
    puzzle = load_puzzle(csv_board(24, 24, seed=28), "hostile.csv")
    box: dict[str, Any] = {}

    def search() -> Any:
        problem = box["problem"] = FAMILY.problem(puzzle, FAMILY.run_options({}))
        return run_search(problem, "astar", SearchOptions(), Limits(None, 3.0, 20_000))

    result, peak = peak_of(search)
    problem = box["problem"]
    assert result.stopped
    assert problem._line_sets and set(problem._line_sets) <= {0, 1, 2, 3}  # the bound was evaluated
    listed = sum(len(sets) for sets in problem._line_sets.values())
    assert listed * line_set_entry_bytes(problem.walker) <= LINE_SETS_BYTES
    assert len(problem._relaxed_cache) <= problem._relaxed_limit
    estimate = FAMILY.search_bytes(puzzle, "astar", FAMILY.run_options({}), 20_000)
    assert peak <= estimate, (peak, estimate)


def test_every_cache_is_bounded_in_bytes_on_the_largest_board() -> None:
    walker = Walker(64, 64, 0, 63)
    assert walker.links_limit * walker.links_entry_bytes <= max(
        Walker.CACHE_BYTES, Walker.MIN_CACHE * walker.links_entry_bytes
    )
    assert walker.links_limit < Walker.CACHE_LIMIT  # a 64 x 64 board's links take ~30 kB each
    for entry, budget in ((bound_entry_bytes(walker), Walker.CACHE_BYTES),
                          (relaxed_entry_bytes(walker), RELAXED_CACHE_BYTES)):
        assert walker.cache_entries(entry, budget) * entry <= budget
    small = Walker(5, 4, 0, 3)
    assert small.links_limit == Walker.CACHE_LIMIT  # the course's boards keep the old bound


# --------------------------------------------------------------------------- estimates on growing boards
#: (side, seed): an n x n board with all n rows pushable, whose searches below stop at their limit.
GROWING = [(6, 3), (10, 1), (14, 1), (18, 1), (24, 1)]
RUNS = [  # (algorithm, options, max_stored)
    ("bfs", {"view": "states"}, 1_500),
    ("dijkstra", {"view": "sets", "moves": "separate"}, 1_500),
    ("astar", {"view": "states"}, 300),
]


@pytest.mark.parametrize(
    ("side", "seed", "algorithm", "options", "max_stored"),
    # A* with the relaxed bound takes ~40 ms a state on 24 x 24: that board has a test of its own.
    [(side, seed, *run) for side, seed in GROWING for run in RUNS if run[0] != "astar" or side < 24],
)
def test_the_estimate_follows_the_measured_peak_on_growing_boards(
    side: int, seed: int, algorithm: str, options: dict[str, Any], max_stored: int
) -> None:
    puzzle = load_puzzle(csv_board(side, side, seed), f"growing-{side}.csv")
    assert lines_of(puzzle) == side
    solved, peak = peak_of(lambda: solve(puzzle, algorithm, options, max_stored=max_stored, max_seconds=120))
    assert solved.json["stopped"] == f"limit: more than {max_stored:,} states stored", solved.json["stopped"]
    estimate = FAMILY.search_bytes(puzzle, algorithm, FAMILY.run_options(options), max_stored)
    reserved = FAMILY.trace_estimate(puzzle)
    assert peak <= estimate + reserved
    assert estimate <= 4 * peak + 4 * MB
    assert peak <= 1.5 * estimate and estimate <= 3 * peak + 2 * MB, (peak, estimate)  # the usual band


def test_state_and_setup_bytes_bound_the_search_bytes_of_astar() -> None:
    """``solving.search_plan`` fits a search's states as (room - setup_bytes) / state_bytes."""
    for side in (5, 12, 24, 64):
        puzzle = load_puzzle(csv_board(side, side, 1), "b.csv")
        options = FAMILY.run_options({})
        for stored in (1_000, 100_000, 2_000_000):
            bound = FAMILY.setup_bytes(puzzle, options) + (stored + 256) * FAMILY.state_bytes(puzzle)
            assert FAMILY.search_bytes(puzzle, "astar", options, stored) <= bound


def test_the_trace_reservation_grows_with_the_board_within_reason() -> None:
    small = FAMILY.trace_estimate(load_puzzle(csv_board(5, 4, 1), "b.csv"))
    large = FAMILY.trace_estimate(load_puzzle(csv_board(24, 24, 1), "b.csv"))
    huge = FAMILY.trace_estimate(load_puzzle(csv_board(64, 64, 1), "b.csv"))
    assert 16 * MB <= small <= 64 * MB
    assert small < large <= 256 * MB
    assert huge <= 256 * MB  # a large board expands slowly: fewer snapshots in the same time


# --------------------------------------------------------------------------- the capped bound
def relaxed(problem: Any, state: Any) -> float:
    return problem.heuristic(state, "relaxed")


def capped_and_free(puzzle: Any, cap: int, monkeypatch: pytest.MonkeyPatch, view: type = LabyrinthProblem):
    free = view(puzzle)
    monkeypatch.setattr(problem_module, "MAX_LINE_SETS", cap)
    capped = view(puzzle)
    monkeypatch.undo()
    return capped, free


def cost_to_go(space: Any, problem: Any) -> list[int | None]:
    """Each state's true cost to the exit over a whole walked space (unit moves), None when none."""
    back: list[list[int]] = [[] for _ in space.states]
    for a, b in zip(space.src.tolist(), space.dst.tolist(), strict=True):
        back[b].append(a)
    dist: list[int | None] = [None] * len(space.states)
    queue = deque(i for i, s in enumerate(space.states) if problem.is_goal(s))
    for i in queue:
        dist[i] = 0
    while queue:
        i = queue.popleft()
        for j in back[i]:
            if dist[j] is None:
                dist[j] = dist[i] + 1  # type: ignore[operator]
                queue.append(j)
    return dist


@pytest.mark.parametrize("moves", ["combined", "separate"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_capped_bound_never_overestimates_over_a_whole_space(
    seed: int, moves: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 3 x 2 board's every state (6-9 k): with at most 2 sets a size only size 0 is listed (S = 1),
    and h still never passes the true cost, nor the uncapped h, nor falls below the barriers."""
    puzzle = load_puzzle(csv_board(3, 2, seed), "small.csv", options={"moves": moves})
    capped, free = capped_and_free(puzzle, 2, monkeypatch)
    assert capped._first_too_many == 1 and free._first_too_many > lines_of(puzzle)
    space = walk(capped, 50_000)
    assert space.stopped is None
    true = cost_to_go(space, capped)
    lower = 0
    for state, cost in zip(space.states, true, strict=True):
        h = relaxed(capped, state)
        assert capped.heuristic(state, "barriers") <= h <= relaxed(free, state)
        assert cost is None or h <= cost, (state, h, cost)
        lower += h < relaxed(free, state)
    assert lower > 0  # the cap changed some values
    for a, b in zip(space.src.tolist(), space.dst.tolist(), strict=True):
        assert relaxed(capped, space.states[a]) <= 1 + relaxed(capped, space.states[b])


@pytest.mark.parametrize(
    ("make", "cap"),
    [
        (lambda: load_puzzle(csv_board(6, 6, 5), "six.csv"), 6),  # 6 rows: C(6, 2) = 15 > 6, S = 2
        (lambda: load_puzzle(csv_board(6, 6, 1), "six.csv", options={"moves": "separate"}), 6),
        (lambda: board_game(3), 6),  # rows and columns 1, 3, 5, the free tile turned: S = 2
    ],
)
@pytest.mark.parametrize("view", [LabyrinthProblem, LabyrinthSetProblem])
def test_the_capped_bound_is_consistent_on_every_move_of_an_explored_space(
    make: Callable[[], Any], cap: int, view: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = make()
    capped, free = capped_and_free(puzzle, cap, monkeypatch, view)
    assert capped._first_too_many == 2
    space = walk(capped, 3_000)
    values = [relaxed(capped, s) for s in space.states]
    lower = 0
    for state, h in zip(space.states, values, strict=True):
        assert capped.heuristic(state, "barriers") <= h <= relaxed(free, state)
        lower += h < relaxed(free, state)
    assert lower > 0  # the cap changed some values
    for a, b in zip(space.src.tolist(), space.dst.tolist(), strict=True):
        assert values[a] <= 1 + values[b], (space.states[a], space.states[b])


def test_the_capped_bound_never_overestimates_along_an_optimal_path(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_puzzle(csv_board(6, 6, 1), "six.csv")
    capped, _free = capped_and_free(puzzle, 6, monkeypatch)
    result = solve(puzzle, "bfs", {}, max_stored=200_000, max_seconds=60).json
    assert result["found"]
    path = path_states(capped, result)
    for remaining, state in zip(range(len(path) - 1, -1, -1), path, strict=True):
        assert relaxed(capped, state) <= remaining


def path_states(problem: LabyrinthProblem, result: dict[str, Any]) -> list[LabState]:
    """The states of a result's path, read back from its JSON."""
    out = []
    for step in result["path"]:
        (row, col), on = step["player"], step["on"]
        player = {"below": -1, "above": EXITED}.get(on, row * problem.cols + col)
        board = bytes(int(d) for d in step["board"].replace("/", ""))
        out.append(LabState(board, step["free"], player))
    return out
