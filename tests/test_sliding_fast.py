"""The sliding-tile family's compiled fast path (``fast.py``) and pattern databases (``pdb.py``).

Exact distances come from this file's own breadth-first search over all 181,440 solvable 8-puzzles;
the pattern databases are checked on the 8-puzzle's 4-4 split (every board, and one table entry by
entry against a plain Dijkstra in the abstract space), and the 15-puzzle's 6-6-3 tables, when they
are on disk or can be built into a session folder, against exact distances near the goal and on
Korf's instances.
"""

from __future__ import annotations

import heapq
import os
import random
import threading
import time
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from server.puzzles.sliding import fast, pdb
from server.puzzles.sliding.sliding_kernels import CHECK_EVERY

BLANK_LAST = bytes([1, 2, 3, 4, 5, 6, 7, 8, 0])
BLANK_FIRST = bytes(range(9))
KORF_GOAL = bytes(range(16))
HEURISTICS = ("misplaced", "manhattan", "linear_conflict", "pdb")


def neighbours(state: bytes, n: int) -> list[bytes]:
    out = []
    b = state.index(0)
    r, c = divmod(b, n)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            nb = (r + dr) * n + c + dc
            s = bytearray(state)
            s[b], s[nb] = s[nb], 0
            out.append(bytes(s))
    return out


def bfs(goal: bytes, n: int = 3) -> dict[bytes, int]:
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        d = dist[s] + 1
        for t in neighbours(s, n):
            if t not in dist:
                dist[t] = d
                queue.append(t)
    return dist


@pytest.fixture(scope="module")
def distances() -> dict[bytes, dict[bytes, int]]:
    return {BLANK_LAST: bfs(BLANK_LAST), BLANK_FIRST: bfs(BLANK_FIRST)}


@pytest.fixture()
def pdb_dir(tmp_path, monkeypatch) -> Path:
    """A fresh pattern-database folder (the 8-puzzle's tables build in milliseconds)."""
    folder = tmp_path / "pdb"
    monkeypatch.setenv("MAZE_PDB_DIR", str(folder))
    return folder


def check_solution(tiles: bytes, goal: bytes, n: int, result: fast.FastResult) -> None:
    assert result.found and result.stopped is None
    assert len(result.moves) == result.cost
    assert fast.apply_moves(tiles, n, result.moves) == goal


def test_the_space_and_the_hardest_boards(distances) -> None:
    dist = distances[BLANK_LAST]
    assert len(dist) == 181_440
    assert max(dist.values()) == 31
    hardest = sorted(s for s, d in dist.items() if d == 31)
    assert hardest == sorted([bytes([8, 6, 7, 2, 5, 4, 3, 0, 1]), bytes([6, 4, 7, 8, 5, 0, 3, 2, 1])])


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_optimal_on_random_8_puzzles(distances, pdb_dir, heuristic) -> None:
    """The fast path's cost equals the exact BFS distance, for both goals, whatever the heuristic."""
    rng = random.Random(20)
    for goal in (BLANK_LAST, BLANK_FIRST):
        dist = distances[goal]
        states = sorted(dist)
        boards = rng.sample(states, 25) + [s for s, d in dist.items() if d in (0, 1, 31)][:6]
        for tiles in boards:
            result = fast.solve_fast(tiles, goal, 3, "idastar", heuristic)
            check_solution(tiles, goal, 3, result)
            assert result.cost == dist[tiles], (tiles, heuristic)
            if heuristic == "pdb":  # without the mirror image's lookup too
                plain = fast.solve_fast(tiles, goal, 3, "idastar", heuristic, reflect=False)
                assert plain.cost == result.cost and plain.generated >= result.generated


@pytest.mark.parametrize("heuristic", ["misplaced", "manhattan", "linear_conflict"])
def test_compiled_astar_equals_the_generic_one(distances, heuristic) -> None:
    """The 8-puzzle's compiled A* transcribes the generic best-first search: same cost, same counts."""
    from server.puzzles.sliding.model import SlidingBoard
    from server.puzzles.sliding.problem import SlidingProblem
    from server.search.registry import SearchOptions
    from server.search.runner import Limits, run_search

    rng = random.Random(7)
    for goal in (BLANK_LAST, BLANK_FIRST):
        dist = distances[goal]
        for tiles in rng.sample(sorted(dist), 8):
            result = fast.solve_fast(tiles, goal, 3, "astar", heuristic)
            check_solution(tiles, goal, 3, result)
            assert result.cost == dist[tiles]
            problem = SlidingProblem(SlidingBoard(3, tiles, goal))
            generic = run_search(problem, "astar", SearchOptions(heuristic=heuristic), Limits(None, None))
            assert (generic.expanded, generic.generated, generic.max_frontier) == (
                result.expanded,
                result.generated,
                result.max_frontier,
            )


def test_counts_follow_the_projects_rules(distances) -> None:
    """expanded = nodes whose successors were generated (the goal is not); generated = successors
    produced, never the parent's move undone: on a board one move away, the root is expanded once
    and its 2-4 children are generated."""
    goal = BLANK_LAST
    one = [s for s, d in distances[goal].items() if d == 1]
    for tiles in one:
        result = fast.solve_fast(tiles, goal, 3, "idastar", "manhattan")
        blank = tiles.index(0)
        r, c = divmod(blank, 3)
        moves = (r > 0) + (r < 2) + (c > 0) + (c < 2)
        assert (result.cost, result.expanded, result.generated) == (1, 1, moves)
    done = fast.solve_fast(goal, goal, 3, "idastar", "manhattan")
    assert (done.found, done.moves, done.cost, done.expanded, done.generated) == (True, "", 0, 0, 0)


def test_pdb_symmetry_for_corner_goals() -> None:
    """Goals with the blank in a corner read the blank-first tables through a flip of the square."""
    assert pdb.symmetry(3, 0) == tuple(range(9))
    assert pdb.symmetry(3, 4) == tuple(range(9))
    assert pdb.symmetry(3, 8) == tuple(range(8, -1, -1))
    assert pdb.symmetry(4, 3)[:4] == (3, 2, 1, 0)
    for n in (3, 4):
        for corner in (0, n - 1, n * n - n, n * n - 1):
            sigma = pdb.symmetry(n, corner)
            assert sigma[corner] == 0 and all(sigma[sigma[c]] == c for c in range(n * n))


def test_tree_ids_counter_for_the_aima_table(distances) -> None:
    """The book's IDS (a tree search: nothing pruned) counts every node created, each iteration's root
    included: one move from the goal, 1 (depth 0) + 1 + the blank's 2-4 moves (depth 1)."""
    from server.puzzles.sliding.sliding_kernels import tree_ids_count

    for tiles in (s for s, d in distances[BLANK_LAST].items() if d == 1):
        board, _ = fast.relabel(tiles, BLANK_LAST, 3)
        depth, generated, expanded = tree_ids_count(board, np.int64(3), np.int64(5))
        r, c = divmod(tiles.index(0), 3)
        assert (depth, generated, expanded) == (1, 2 + (r > 0) + (r < 2) + (c > 0) + (c < 2), 1)
    board, _ = fast.relabel(bytes([8, 6, 7, 2, 5, 4, 3, 0, 1]), BLANK_LAST, 3)
    assert tree_ids_count(board, np.int64(3), np.int64(4))[0] == -1


def test_relabelling_for_a_blank_first_goal(distances) -> None:
    """AIMA's figure 3.28 board needs 26 moves to the blank-first goal; any goal works."""
    board = bytes([7, 2, 4, 5, 0, 6, 8, 3, 1])
    for heuristic in ("manhattan", "linear_conflict"):
        result = fast.solve_fast(board, BLANK_FIRST, 3, "idastar", heuristic)
        check_solution(board, BLANK_FIRST, 3, result)
        assert result.cost == 26 == distances[BLANK_FIRST][board]
    # an odd goal: tiles in reverse order, the blank in the centre (solvable from its own scramble)
    rng = random.Random(3)
    odd_goal = bytes([8, 7, 6, 5, 0, 4, 3, 2, 1])
    tiles = odd_goal
    for _ in range(40):
        tiles = rng.choice(neighbours(tiles, 3))
    exact = bfs(odd_goal)[tiles]
    result = fast.solve_fast(tiles, odd_goal, 3, "idastar", "manhattan")
    check_solution(tiles, odd_goal, 3, result)
    assert result.cost == exact


def test_unsolvable_board_is_not_searched() -> None:
    swapped = bytes([2, 1, 3, 4, 5, 6, 7, 8, 0])
    assert not fast.solvable(swapped, BLANK_LAST, 3)
    result = fast.solve_fast(swapped, BLANK_LAST, 3, "idastar", "manhattan")
    assert (result.found, result.cost, result.expanded) == (False, None, 0)
    assert fast.solvable(bytes([1, 2, 3, 4, 5, 6, 7, 0, 8]), BLANK_LAST, 3)


def test_available() -> None:
    assert fast.available(4, "idastar", "pdb") and fast.available(3, "idastar", "pdb")
    assert fast.available(5, "idastar", "linear_conflict")
    assert not fast.available(5, "idastar", "pdb")
    assert not fast.available(4, "astar", "manhattan") and fast.available(3, "astar", "pdb")
    assert not fast.available(4, "idastar", "yours")


# --- pattern databases -----------------------------------------------------------------------------


def abstract_distances(n: int, group: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Plain Dijkstra over (cells of the group's tiles, blank) from the goal placement with the blank
    anywhere else: a group tile's move costs 1, the blank's other moves 0; minimised over the blank."""
    cells = n * n
    frontier = [(0, tuple(group), b) for b in range(cells) if b not in group]
    best: dict[tuple[tuple[int, ...], int], int] = {}
    for _, p, b in frontier:
        best[(p, b)] = 0
    heapq.heapify(frontier)
    while frontier:
        d, p, b = heapq.heappop(frontier)
        if best.get((p, b), 1 << 30) < d:
            continue
        r, c = divmod(b, n)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if not (0 <= r + dr < n and 0 <= c + dc < n):
                continue
            nb = (r + dr) * n + c + dc
            if nb in p:
                q = tuple(b if x == nb else x for x in p)
                cost = d + 1
            else:
                q, cost = p, d
            if cost < best.get((q, nb), 1 << 30):
                best[(q, nb)] = cost
                heapq.heappush(frontier, (cost, q, nb))
    out: dict[tuple[int, ...], int] = {}
    for (p, _), d in best.items():
        out[p] = min(out.get(p, 1 << 30), d)
    return out


def test_a_table_equals_the_abstract_distances(pdb_dir) -> None:
    group = pdb.groups_for(3, 8)[0]
    table, note = pdb.load_table(3, group)
    expected = abstract_distances(3, group)
    assert len(expected) == 9 * 8 * 7 * 6 == note["placements"]
    for placement, d in expected.items():
        index = sum(c * 9**j for j, c in enumerate(placement))
        assert table[index] == d
    assert int((table != 255).sum()) == len(expected)


@pytest.mark.parametrize("goal", [BLANK_LAST, BLANK_FIRST])
def test_8_puzzle_pdb_admissible_everywhere(distances, pdb_dir, goal) -> None:
    """Each table alone and their sum never exceed the exact distance, over every solvable board."""
    dist = distances[goal]
    h = pdb.heuristic(goal, 3)
    db = pdb.database(3, goal.index(0))
    tables = [(int(off), [goal[c] for c in cells]) for off, cells in zip(db.offsets, db.groups, strict=True)]
    for tiles, d in dist.items():
        value = h(tiles)
        # a group's moves include each of its tiles' Manhattan distance: the sum is at least Manhattan
        assert fast_manhattan(tiles, goal) <= value <= d, (tiles, value, d)
        for off, group_tiles in tables:
            index = sum(tiles.index(t) * 9**j for j, t in enumerate(group_tiles))
            assert db.table[off + index] <= d
    assert len(db.groups) == 2 and sorted(c for g in db.groups for c in g) == [
        c for c in range(9) if c != goal.index(0)
    ]


def fast_manhattan(tiles: bytes, goal: bytes, n: int = 3) -> int:
    where = {t: divmod(c, n) for c, t in enumerate(goal)}
    return sum(abs(c // n - where[t][0]) + abs(c % n - where[t][1]) for c, t in enumerate(tiles) if t)


def test_cache_written_atomically_and_reused(pdb_dir, monkeypatch) -> None:
    group = pdb.groups_for(3, 8)[1]
    table, note = pdb.load_table(3, group)
    assert note["built_now"] and note["bytes"] == 9**4
    files = sorted(p.name for p in pdb_dir.iterdir())
    assert files == [
        f"sliding-pdb-v{pdb.VERSION}-3x3-04-05-06-07.json",
        f"sliding-pdb-v{pdb.VERSION}-3x3-04-05-06-07.u8",
    ]
    path = pdb_dir / files[1]
    assert np.array_equal(np.fromfile(path, np.uint8), table)
    pdb._tables.clear()
    again, note = pdb.load_table(3, group)
    assert not note["built_now"] and np.array_equal(again, table)
    assert note["build_seconds"] >= 0

    # a half-written file at the final name (a crash of a non-atomic writer) is rebuilt, not read
    path.write_bytes(table.tobytes()[:1000])
    pdb._tables.clear()
    rebuilt, note = pdb.load_table(3, group)
    assert note["built_now"] and np.array_equal(rebuilt, table) and path.stat().st_size == 9**4

    # a writer interrupted before its rename leaves no file at the final name, and no temporary file
    path.unlink()
    pdb._tables.clear()

    def crash(src, dst):
        raise OSError("disk gone")

    monkeypatch.setattr(pdb.os, "replace", crash)
    with pytest.raises(OSError, match="disk gone"):
        pdb.load_table(3, group)
    assert not path.exists()
    assert not [p for p in pdb_dir.iterdir() if p.name.endswith(".tmp")]


def test_cache_dir_from_the_environment(pdb_dir) -> None:
    assert pdb.pdb_dir() == pdb_dir
    assert not pdb.cached(3, 8)
    pdb.database(3, 8)
    assert pdb.cached(3, 8)
    info = pdb.stats(3, 8)
    assert info["split"] == "4-4" and info["bytes"] == 2 * 9**4
    assert "4-4" in pdb.describe(info)


# --- cancel, progress, limits ----------------------------------------------------------------------

HARD_15 = bytes([14, 7, 8, 2, 13, 11, 10, 4, 9, 12, 5, 0, 3, 6, 1, 15])  # Korf's #3: 59 moves, 566 M nodes


def test_cancel_before_and_during_a_search() -> None:
    cancel = np.ones(1, np.uint8)
    progress = np.zeros(1, np.int64)
    result = fast.solve_fast(HARD_15, KORF_GOAL, 4, "idastar", "manhattan", cancel=cancel, progress=progress)
    assert not result.found and result.stopped == "cancelled"
    assert result.expanded == CHECK_EVERY == progress[0]

    cancel[0] = 0
    timer = threading.Timer(0.3, lambda: cancel.__setitem__(0, 1))
    started = time.perf_counter()
    timer.start()
    result = fast.solve_fast(HARD_15, KORF_GOAL, 4, "idastar", "manhattan", cancel=cancel, progress=progress)
    seconds = time.perf_counter() - started
    assert not result.found and result.stopped == "cancelled"
    assert seconds < 5
    assert progress[0] == result.expanded > CHECK_EVERY


def test_a_cancel_flag_says_why() -> None:
    from server.search.control import CancelFlag

    flag = CancelFlag()
    flag.expire("limit: more than 1 s of search")
    result = fast.solve_fast(HARD_15, KORF_GOAL, 4, "idastar", "linear_conflict", cancel=flag)
    assert result.stopped == "limit: more than 1 s of search"


def test_max_expanded() -> None:
    result = fast.solve_fast(HARD_15, KORF_GOAL, 4, "idastar", "manhattan", max_expanded=1000)
    assert not result.found and result.expanded == 1001
    assert result.stopped == "limit: more than 1,000 states expanded"


# --- the 15-puzzle: Korf's instances ---------------------------------------------------------------


def korf(shared_cases: Path) -> dict[int, tuple[int, int, bytes]]:
    out = {}
    for line in (shared_cases / "sliding" / "korf100.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            nums = [int(x) for x in line.split()]
            out[nums[0]] = (nums[1], nums[2], bytes(nums[3:]))
    return out


@pytest.mark.parametrize("number", [12, 79, 42, 55])
def test_easy_korf_instances_with_linear_conflict(shared_cases, number) -> None:
    length, _, tiles = korf(shared_cases)[number]
    result = fast.solve_fast(tiles, KORF_GOAL, 4, "idastar", "linear_conflict")
    check_solution(tiles, KORF_GOAL, 4, result)
    assert result.cost == length


def test_korf_12_with_manhattan_near_korfs_count(shared_cases) -> None:
    """Korf's IDA*/Manhattan generated 546,344 nodes on #12; ours generates the same order (the
    move order and the last iteration's luck differ)."""
    length, nodes, tiles = korf(shared_cases)[12]
    result = fast.solve_fast(tiles, KORF_GOAL, 4, "idastar", "manhattan")
    check_solution(tiles, KORF_GOAL, 4, result)
    assert result.cost == length == 45
    assert nodes / 4 < result.generated < nodes * 4


@pytest.fixture(scope="session")
def pdb15(tmp_path_factory) -> Path:
    """A folder holding the 15-puzzle's 6-6-3 tables for Korf's goal: the project's cache when it
    has them (``var/pdb``, or ``$MAZE_PDB_DIR``), else built once into a session folder (about a
    minute; see docs/BENCHMARKS.md)."""
    folder = pdb.pdb_dir()
    if not pdb.cached(4, 0, folder):
        folder = tmp_path_factory.mktemp("pdb15")
        pdb.database(4, 0, folder)
    return folder


@pytest.mark.slow
def test_15_puzzle_pdb_admissible_near_the_goal(pdb15, monkeypatch) -> None:
    """On boards a random walk of up to 30 moves from the goal (Korf's, and the blank-last one, which
    reads the same tables through a symmetry): h ≤ the exact distance (the linear-conflict IDA*'s
    optimum) and h ≥ Manhattan; the pdb IDA* finds that optimum."""
    monkeypatch.setenv("MAZE_PDB_DIR", str(pdb15))
    rng = random.Random(15)
    for goal in (KORF_GOAL, bytes([*range(1, 16), 0])):
        h = pdb.heuristic(goal, 4)
        for walk in range(40):
            tiles = goal
            for _ in range(walk * 3 // 4):
                tiles = rng.choice(neighbours(tiles, 4))
            exact = fast.solve_fast(tiles, goal, 4, "idastar", "linear_conflict").cost
            assert fast_manhattan(tiles, goal, 4) <= h(tiles) <= exact
            result = fast.solve_fast(tiles, goal, 4, "idastar", "pdb")
            check_solution(tiles, goal, 4, result)
            assert result.cost == exact


@pytest.mark.slow
def test_korf_instances_with_pdb(pdb15, shared_cases, monkeypatch) -> None:
    """Korf's first ten at their published lengths with the pattern databases, a few seconds in all."""
    monkeypatch.setenv("MAZE_PDB_DIR", str(pdb15))
    cases = korf(shared_cases)
    started = time.perf_counter()
    for number in range(1, 11):
        length, _, tiles = cases[number]
        result = fast.solve_fast(tiles, KORF_GOAL, 4, "idastar", "pdb")
        check_solution(tiles, KORF_GOAL, 4, result)
        assert result.cost == length, number
    assert time.perf_counter() - started < 60


def test_pdb_build_cancelled(tmp_path) -> None:
    """A build in progress stops when its flag is set (the 15-puzzle's 3-tile table is tiny, so set it
    before: the build returns at its first look)."""
    cancel = np.ones(1, np.uint8)
    with pytest.raises(InterruptedError):
        pdb.build_table(4, pdb.groups_for(4, 0)[0], cancel)
    assert not os.listdir(tmp_path)
