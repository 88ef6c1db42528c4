"""Zenji, the rotating pipes (seed 001): the parsers and their errors, detection by content, the seed's
answer, every algorithm against an independent water checker and a brute force on random boards
(random tiles and the family's generator, downhill and free flow), the heuristics against the true
cost-to-go, the command line, the API and the socket.

The checker (``check_water``) and the brute force (``brute_force``) are written here from PUZZLES.md
§4 alone: they share no code with ``server.puzzles.zenji`` (their own turning, their own flow). The
brute force tries every rotation of every turnable tile, fewest turns first, and every simple water
path on the turned board. ``ZenjiProblem`` is imported only to test its heuristics.
"""

from __future__ import annotations

import heapq
import itertools
import json
import math
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server import socketio
from server.i18n import t
from server.puzzles import registry
from server.puzzles.errors import PuzzleError
from server.puzzles.zenji.generate import random_board
from server.puzzles.zenji.parse import board_to_text, parse_zenji_json, parse_zenji_text
from server.puzzles.zenji.problem import ZenjiProblem
from server.solving import solve
from tests.helpers import ROOT, make_app, pump, records, upload
from tests.helpers import run_cli as cli

SEED_FILE = ROOT / "mazes" / "zenji-seed-001.txt"
# The seed's table as PUZZLES.md §4 prints it: rows of [N, E, S, W].
SEED_TABLE = """\
[3,2,2,3] [2,0,1,0] [1,2,2,1] [0,0,0,0]
[0,0,0,0] [0,0,1,2] [0,1,2,2] [0,0,2,1]
[0,0,2,1] [1,0,2,0] [1,2,1,2] [0,1,0,2]
[1,2,0,0] [1,2,0,1] [1,2,0,0] [1,4,4,1]
"""
SEED_TILES = [[[int(v) for v in group.split(",")] for group in line.strip("[]").split("] [")]
              for line in SEED_TABLE.splitlines()]
FLOWS = ("downhill", "free")
# Optimal runs: (algorithm, run options); bidirectional only under downhill flow.
OPTIMAL = (("dijkstra", {}), ("astar", {}), ("astar", {"heuristic": "relaxed"}),
           ("astar", {"heuristic": "distance"}), ("astar", {"heuristic": "zero"}), ("idastar", {}),
           ("idastar", {"heuristic": "distance"}), ("bidirectional", {}))
NOT_OPTIMAL = (("dfs", {}), ("greedy", {}), ("greedy", {"heuristic": "seed"}), ("bfs", {}), ("iddfs", {}),
               ("astar", {"heuristic": "seed"}), ("astar", {"weight": 3.0}), ("idastar", {"weight": 2.0}))
# PUZZLE_EXAMPLES_SCALE=10 runs ten times the examples (a longer hunt than CI's).
SCALE = float(os.environ.get("PUZZLE_EXAMPLES_SCALE", "1"))


def examples(count: int) -> settings:
    return settings(max_examples=max(1, round(count * SCALE)), deadline=None,
                    suppress_health_check=list(HealthCheck))


RANDOM = examples(30)

# --------------------------------------------------------------------------- the independent checker
CLOSED, INLET, OUTLET, SOURCE, DRAIN = 0, 1, 2, 3, 4
NAMES = "NESW"
MOVES = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}  # the neighbour beyond N, E, S, W
DOWNHILL = (1, 2)  # water runs east or south only


def turn(tile: list[int], rot: int) -> list[int]:
    """``rot`` clockwise quarter turns, one at a time: [N, E, S, W] becomes [W, N, E, S]."""
    tile = list(tile)
    for _ in range(rot):
        tile = [tile[3], tile[0], tile[1], tile[2]]
    return tile


def find(tiles: list[list[list[int]]], code: int) -> tuple[int, int]:
    (found,) = [(r, c) for r, row in enumerate(tiles) for c, tile in enumerate(row) if code in tile]
    return found


def check_water(tiles: list[list[list[int]]], result: dict[str, Any], flow: str) -> tuple[int, int]:
    """Turn the original tiles as the result says, then follow the water from the source to the drain;
    returns (quarter turns, tiles on the path)."""
    assert result["found"], result
    assert result["flow"] == flow
    source, drain = find(tiles, SOURCE), find(tiles, DRAIN)
    path = [tuple(cell) for cell in result["path"]]
    water = result["water"]
    assert [tuple(step["tile"]) for step in water] == path
    rots = {tuple(step["tile"]): step["rot"] for step in water}
    assert all(isinstance(rot, int) and 0 <= rot <= 3 for rot in rots.values()), rots
    assert rots[source] == 0 and rots[drain] == 0, "the source and the drain never turn"
    turned = [[list(tile) for tile in row] for row in tiles]
    for (r, c), rot in rots.items():
        turned[r][c] = turn(tiles[r][c], rot)
    assert result["turned"] == turned
    turns_made = [(tuple(move["tile"]), move["turns"]) for move in result["moves"]]
    assert turns_made == [(tile, rots[tile]) for tile in path if rots[tile]]
    assert path[0] == source and path[-1] == drain
    assert len(set(path)) == len(path), "a tile used twice"
    assert water[0]["enter"] is None and water[-1]["leave"] is None
    for index, (a, b) in enumerate(itertools.pairwise(path)):
        side = next((s for s, (dr, dc) in MOVES.items() if (a[0] + dr, a[1] + dc) == b), None)
        assert side is not None, f"{a} and {b} are not neighbours"
        if flow == "downhill":
            assert side in DOWNHILL, f"the water runs {NAMES[side]} from {a} under downhill flow"
        assert turned[a[0]][a[1]][side] == OUTLET, f"{a} has no outlet on its {NAMES[side]} side"
        facing = (side + 2) % 4
        assert turned[b[0]][b[1]][facing] == INLET, f"{b} has no inlet on its {NAMES[facing]} side"
        assert water[index]["leave"] == NAMES[side] and water[index + 1]["enter"] == NAMES[facing]
    turns = sum(rots.values())
    assert result["cost"] == turns and result["tiles"] == len(path)
    return turns, len(path)


# --------------------------------------------------------------------------- the brute force
def rotations(count: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every way to give ``count`` tiles 0 to 3 quarter turns each, ``total`` in all."""
    if count == 0:
        if total == 0:
            yield ()
        return
    for first in range(min(3, total) + 1):
        for rest in rotations(count - 1, total - first):
            yield (first, *rest)


def shortest_water(board: list[list[list[int]]], source: tuple[int, int], drain: tuple[int, int],
                   flow: str) -> int | None:
    """The fewest tiles on any simple water path from the source to the drain of this turned board."""
    height, width = len(board), len(board[0])
    sides = DOWNHILL if flow == "downhill" else (0, 1, 2, 3)
    best = None
    stack = [(source, (source,))]
    while stack:
        (r, c), path = stack.pop()
        if (r, c) == drain:
            best = len(path) if best is None else min(best, len(path))
            continue
        for side in sides:
            dr, dc = MOVES[side]
            nr, nc = r + dr, c + dc
            if (board[r][c][side] == OUTLET and 0 <= nr < height and 0 <= nc < width
                    and (nr, nc) not in path and board[nr][nc][(side + 2) % 4] == INLET):
                stack.append(((nr, nc), (*path, (nr, nc))))
    return best


def brute_force(tiles: list[list[list[int]]], flow: str) -> tuple[int, int] | None:
    """(fewest quarter turns, then fewest tiles), trying every rotation of every turnable tile."""
    source, drain = find(tiles, SOURCE), find(tiles, DRAIN)
    cells = [(r, c) for r in range(len(tiles)) for c in range(len(tiles[0])) if (r, c) not in (source, drain)]
    for total in range(3 * len(cells) + 1):
        best = None
        for rots in rotations(len(cells), total):
            board = [list(row) for row in tiles]
            for (r, c), rot in zip(cells, rots, strict=True):
                board[r][c] = turn(tiles[r][c], rot)
            length = shortest_water(board, source, drain, flow)
            if length is not None and (best is None or length < best):
                best = length
        if best is not None:
            return total, best
    return None


# --------------------------------------------------------------------------- boards
def text_of(tiles: list[list[list[int]]]) -> str:
    return "".join(" ".join("".join(map(str, tile)) for tile in row) + "\n" for row in tiles)


def load(tiles: list[list[list[int]]], flow: str = "downhill") -> Any:
    board = registry.load_puzzle(text_of(tiles).encode(), "z.txt", "zenji")
    return board if flow == "downhill" else registry.load_puzzle(
        json.dumps({"pipes": tiles, "flow": flow}).encode(), "z.json", "zenji")


@st.composite
def boards(draw: st.DrawFn, max_rows: int = 3, max_cols: int = 3, anywhere: bool = True) -> list:
    """Random tiles (each side closed, an inlet or an outlet), a source and a drain; now and then the
    source and the drain away from the corners. The sides come from a seeded generator: hypothesis's
    own draws favour closed sides, and boards where no water can flow test little."""
    height = draw(st.integers(1, max_rows))
    width = draw(st.integers(2 if height == 1 else 1, max_cols))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    codes = rng.choice([(CLOSED, INLET, OUTLET), (CLOSED, INLET, INLET, OUTLET, OUTLET), (INLET, OUTLET)])
    tiles = [[[rng.choice(codes) for _ in range(4)] for _ in range(width)] for _ in range(height)]
    source, drain = (0, 0), (height - 1, width - 1)
    if anywhere and rng.random() < 0.25:
        source, drain = (divmod(cell, width) for cell in rng.sample(range(height * width), 2))
    for (r, c), code, other in ((source, SOURCE, OUTLET), (drain, DRAIN, INLET)):
        tile = [other if rng.random() < 0.75 else rng.choice((CLOSED, code)) for _ in range(4)]
        tile[rng.randrange(4)] = code
        tiles[r][c] = tile
    return tiles


def generated(rows: int, cols: int, seed: int, flow: str) -> list[list[list[int]]]:
    return random_board(rows, cols, seed, flow).tile_rows()


def run(tiles: list[list[list[int]]], flow: str, algorithm: str, options: dict[str, Any]) -> dict[str, Any]:
    return solve(load(tiles, flow), algorithm, {**options, "flow": flow}).json


def check_optimal_runs(tiles: list[list[list[int]]], flow: str, expected: tuple[int, int] | None) -> None:
    for algorithm, options in OPTIMAL:
        if algorithm == "bidirectional" and flow == "free":
            continue
        result = run(tiles, flow, algorithm, options)
        label = f"{algorithm} {options}, {flow} flow, on {text_of(tiles)!r}"
        assert result["optimal_guaranteed"] is True, label
        assert result["found"] is (expected is not None), label
        if expected is not None:
            assert check_water(tiles, result, flow) == expected, label


# --------------------------------------------------------------------------- optimal answers
@RANDOM
@given(tiles=boards(max_rows=2, max_cols=3), flow=st.sampled_from(FLOWS))
def test_optimal_algorithms_match_the_brute_force_on_tiny_boards(tiles: list, flow: str) -> None:
    check_optimal_runs(tiles, flow, brute_force(tiles, flow))


@examples(12)
@given(tiles=boards(max_rows=3, max_cols=3, anywhere=False), flow=st.sampled_from(FLOWS))
def test_optimal_algorithms_match_the_brute_force_on_3x3_boards(tiles: list, flow: str) -> None:
    check_optimal_runs(tiles, flow, brute_force(tiles, flow))


@examples(16)
@given(rows=st.integers(1, 3), cols=st.integers(2, 3), seed=st.integers(0, 10**6),
       flow=st.sampled_from(FLOWS))
def test_generated_boards_match_the_brute_force(rows: int, cols: int, seed: int, flow: str) -> None:
    tiles = generated(rows, cols, seed, flow)
    expected = brute_force(tiles, flow)
    assert expected is not None, "the generator promises a solvable board"
    check_optimal_runs(tiles, flow, expected)


@examples(20)
@given(rows=st.integers(2, 5), cols=st.integers(2, 5), seed=st.integers(0, 10**6),
       flow=st.sampled_from(FLOWS), random_tiles=st.booleans(), data=st.data())
def test_optimal_algorithms_agree_on_larger_boards(rows: int, cols: int, seed: int, flow: str,
                                                   random_tiles: bool, data: st.DataObject) -> None:
    if flow == "free":
        rows, cols = min(rows, 4), min(cols, 4)
    if random_tiles:
        tiles = data.draw(boards(max_rows=rows, max_cols=cols))
    else:
        tiles = generated(rows, cols, seed, flow)
    reference = run(tiles, flow, "dijkstra", {})
    if not random_tiles:
        assert reference["found"], "the generator promises a solvable board"
    expected = check_water(tiles, reference, flow) if reference["found"] else None
    check_optimal_runs(tiles, flow, expected)


def test_the_seed_board_takes_seven_quarter_turns() -> None:
    board = registry.load_puzzle(SEED_FILE.read_bytes(), SEED_FILE.name)
    assert board.tile_rows() == SEED_TILES and board.source == (0, 0) and board.drain == (3, 3)
    assert board.flow == "downhill"
    for flow in FLOWS:
        assert brute_force(SEED_TILES, flow) == (7, 7), flow
        check_optimal_runs(SEED_TILES, flow, (7, 7))
    result = solve(board, "astar").json
    assert result["family"] == "zenji" and result["cost"] == 7 and result["tiles"] == 7
    assert [m["text"] for m in result["moves"]] == [
        "turn (0, 1) once clockwise", "turn (1, 2) three times clockwise",
        "turn (2, 3) three times clockwise"]
    assert result["water"][1]["text"] == "(0, 1) in from the west out to the east"


# --------------------------------------------------------------------------- answers without guarantees
@RANDOM
@given(tiles=boards(max_rows=3, max_cols=3), flow=st.sampled_from(FLOWS))
def test_algorithms_that_guarantee_nothing_still_make_the_water_flow(tiles: list, flow: str) -> None:
    optimum = run(tiles, flow, "dijkstra", {})
    for algorithm, options in NOT_OPTIMAL:
        result = run(tiles, flow, algorithm, options)
        label = f"{algorithm} {options}, {flow} flow, on {text_of(tiles)!r}"
        assert result["optimal_guaranteed"] is False, label
        assert result["found"] is optimum["found"], label
        if optimum["found"]:
            turns, length = check_water(tiles, result, flow)
            assert (turns, length) >= (optimum["cost"], optimum["tiles"]), label
            assert result.get("optimum", optimum["cost"]) == optimum["cost"], label


def test_non_optimal_answers_on_the_seed_board_name_the_optimum() -> None:
    for flow in FLOWS:
        for algorithm, options in NOT_OPTIMAL:
            result = run(SEED_TILES, flow, algorithm, options)
            assert result["optimal_guaranteed"] is False and result["optimum"] == 7, (algorithm, options)
            assert check_water(SEED_TILES, result, flow)[0] >= 7


# --------------------------------------------------------------------------- heuristics
def state_space(problem: ZenjiProblem) -> tuple[set[int], list[tuple[int, int, float]]]:
    """The states reachable from the start and the edges (state, next, cost) between them."""
    start = problem.initial_states()[0]
    seen, edges, todo = {start}, [], [start]
    while todo:
        state = todo.pop()
        for nxt, cost in problem.successors(state):
            edges.append((state, nxt, cost))
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen, edges


def cost_to_go(
    problem: ZenjiProblem, states: set[int], edges: list[tuple[int, int, float]]
) -> dict[int, float]:
    """The true cost from every state to the drain: Dijkstra backwards from the goal states."""
    back: dict[int, list[tuple[int, float]]] = {}
    for state, nxt, cost in edges:
        back.setdefault(nxt, []).append((state, cost))
    best = {s: math.inf for s in states}
    heap = [(0.0, s) for s in states if problem.is_goal(s)]
    for _, s in heap:
        best[s] = 0.0
    while heap:
        d, state = heapq.heappop(heap)
        if d > best[state]:
            continue
        for prev, cost in back.get(state, ()):
            if d + cost < best[prev]:
                best[prev] = d + cost
                heapq.heappush(heap, (d + cost, prev))
    return best


@examples(40)
@given(tiles=boards(max_rows=3, max_cols=4), flow=st.sampled_from(FLOWS), generate=st.booleans(),
       seed=st.integers(0, 10**6))
def test_heuristics_are_admissible_and_relaxed_is_consistent(tiles: list, flow: str, generate: bool,
                                                               seed: int) -> None:
    if generate:
        tiles = generated(len(tiles), max(2, len(tiles[0])), seed, flow)
    problem = ZenjiProblem(load(tiles), flow)
    states, edges = state_space(problem)
    to_go = cost_to_go(problem, states, edges)
    start = problem.initial_states()[0]
    solved = run(tiles, flow, "dijkstra", {})
    if solved["found"]:  # the packed optimum: turns * scale + tiles entered after the source
        assert to_go[start] == solved["cost"] * problem.scale + solved["tiles"] - 1
    else:
        assert math.isinf(to_go[start])
    for state in states:
        for name in ("relaxed", "distance", "zero"):
            h = problem.heuristic(state, name)
            assert 0 <= h <= to_go[state], f"{name}: h = {h} > {to_go[state]} at {problem.unpack(state)}"
            if problem.is_goal(state):
                assert h == 0
    for state, nxt, cost in edges:
        for name in ("relaxed", "distance"):
            h, h_next = problem.heuristic(state, name), problem.heuristic(nxt, name)
            edge = f"{problem.unpack(state)} -> {problem.unpack(nxt)}"
            assert h <= cost + h_next, f"{name} is not consistent on {edge}"


def test_the_seed_heuristic_overestimates_on_the_seed_board() -> None:
    for flow in FLOWS:
        problem = ZenjiProblem(load(SEED_TILES), flow)
        states, edges = state_space(problem)
        to_go = cost_to_go(problem, states, edges)
        start = problem.initial_states()[0]
        assert to_go[start] == 7 * problem.scale + 6  # 7 quarter turns, 6 tiles after the source
        assert problem.heuristic(start, "seed") > to_go[start]  # 2 x 6 turns: inadmissible
        assert problem.heuristic(start, "relaxed") <= to_go[start]
        assert "seed" in problem.inadmissible_heuristics
        assert {"relaxed", "distance", "zero"}.isdisjoint(problem.inadmissible_heuristics)


# --------------------------------------------------------------------------- reading files
def test_the_bracket_form_of_the_seed_table_is_the_same_board() -> None:
    bracket = parse_zenji_text(SEED_TABLE, "seed")
    digits = parse_zenji_text(SEED_FILE.read_text(), "seed")
    assert bracket.tile_rows() == digits.tile_rows() == SEED_TILES
    assert (bracket.source, bracket.drain) == ((0, 0), (3, 3))
    spaced = SEED_TABLE.replace(",", ", ").replace("] [", "]  [")
    assert parse_zenji_text(spaced, "seed").tile_rows() == SEED_TILES
    assert parse_zenji_text(board_to_text(digits), "seed").tile_rows() == SEED_TILES


GOOD_TEXT = [
    # (text, tiles)
    ("3223 1441\n", [[[3, 2, 2, 3], [1, 4, 4, 1]]]),
    ("3223  1441   \n", [[[3, 2, 2, 3], [1, 4, 4, 1]]]),  # trailing spaces stripped
    ("  3223\t1441\r\n", [[[3, 2, 2, 3], [1, 4, 4, 1]]]),
    ("\ufeff# a comment\n#\n\n3223\n\n1441\n\n", [[[3, 2, 2, 3]], [[1, 4, 4, 1]]]),
    ("[3,2,2,3] [1,4,4,1]", [[[3, 2, 2, 3], [1, 4, 4, 1]]]),
    ("[3, 2, 2, 3],[1, 4, 4, 1]", [[[3, 2, 2, 3], [1, 4, 4, 1]]]),
    ("3,2,2,3 1,4,4,1", [[[3, 2, 2, 3], [1, 4, 4, 1]]]),
    ("#\n  # an indented comment\n3223 1441\n#\n", [[[3, 2, 2, 3], [1, 4, 4, 1]]]),
]


@pytest.mark.parametrize("text, tiles", GOOD_TEXT)
def test_text_forms_are_read(text: str, tiles: list) -> None:
    assert parse_zenji_text(text, "z").tile_rows() == tiles


BAD_TEXT = [
    # (text, where, a fragment of the message)
    ("3223 2010\n1221\n", "line 2", "1 tiles, but line 1 has 2"),
    ("# c\n3223 2010\n\n1221 1441 0000\n", "line 4", "3 tiles, but line 2 has 2"),
    ("3225 1441\n", "line 1, tile 1", "side code 5 is not one of"),
    ("3223 1449\n", "line 1, tile 2", "side code 9"),
    ("3223 3223\n1441 0000\n", "line 1, tile 2", "a second source (code 3); the first is at line 1, tile 1"),
    ("# c\n0000 3223\n\n1441 0400\n", "line 4, tile 2",
     "a second drain (code 4); the first is at line 4, tile 1"),
    ("3223 0000\n1221 0000\n", "file", "no drain"),
    ("4441 0000\n1221 0000\n", "file", "no source"),
    ("3224 0000\n", "line 1, tile 1", "both the source (3) and the drain (4)"),
    ("322 1441\n", "line 1, tile 1", "expected four side codes"),
    ("3223 32a3\n", "line 1, tile 2", "expected four side codes"),
    ("32233 1441\n", "line 1, tile 1", "expected four side codes"),
    ("[3,2,2,3] [1,4,4]\n", "line 1, tile 2", "expected four side codes"),
    # Text outside the brackets was once dropped without a word: "3223 [1,4,4,1]" was one tile.
    ("3223 [1,4,4,1]\n", "line 1, tile 1",
     "expected bracketed tiles such as [3,2,2,3] on this line, got '3223'"),
    ("[3,2,2,3] [1,4,4,1\n", "line 1, tile 2", "got '[1,4,4,1'"),
    ("[3,2,2,3] 0000 [1,4,4,1]\n", "line 1, tile 2", "got '0000'"),
    ("[3,2,2,3] [1,4,4,1] x\n", "line 1, tile 3", "got 'x'"),
    ("3223 1441\n#comment\n", "line 2, tile 1", "expected four side codes"),
    ("3223\n", "file", "at least two tiles"),
    ("", "file", "no tiles"),
    ("# only a comment\n\n", "file", "no tiles"),
]


@pytest.mark.parametrize("text, where, message", BAD_TEXT)
def test_bad_text_names_the_line_and_tile(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        parse_zenji_text(text, "z")
    assert err.value.where == where and message in err.value.message, str(err.value)


PIPES = [[[3, 2, 2, 3], [1, 4, 4, 1]]]
BAD_JSON = [
    ({"pipes": PIPES, "flow": "sideways"}, "field 'flow'", "'sideways' is not one of: downhill, free"),
    ({"pipes": PIPES, "flow": None}, "field 'flow'", "None is not one of"),
    ({"pipes": [[[3, 2, 2, 3], [1, 4, 4, 5]]]}, "field 'pipes', row 0, tile 1", "side code 5"),
    ({"pipes": [[[3, 2, 2, 3], [1, 4, 4, -1]]]}, "field 'pipes', row 0, tile 1", "side code -1"),
    ({"pipes": [[[3, 2, 2, 3], [1, 4, 4]]]}, "field 'pipes', row 0, tile 1", "expected [N, E, S, W]"),
    ({"pipes": [[[3, 2, 2, 3], [1, 4, 4, True]]]}, "field 'pipes', row 0, tile 1", "expected [N, E, S, W]"),
    ({"pipes": [[[3, 2, 2, 3], [1, 4, 4, 1.0]]]}, "field 'pipes', row 0, tile 1", "expected [N, E, S, W]"),
    ({"pipes": [[[3, 2, 2, 3], "1441"]]}, "field 'pipes', row 0, tile 1", "expected [N, E, S, W]"),
    ({"pipes": [[[3, 2, 2, 3], [1, 4, 4, 1]], [[0, 0, 0, 0]]]}, "field 'pipes', row 1",
     "1 tiles, but row 0 has 2"),
    ({"pipes": [[[3, 2, 2, 4], [0, 0, 0, 0]]]}, "field 'pipes', row 0, tile 0", "source (3) and the drain"),
    ({"pipes": [[[3, 2, 2, 3], [1, 2, 2, 1]], [[3, 0, 0, 0], [1, 4, 4, 1]]]}, "field 'pipes', row 1, tile 0",
     "a second source (code 3); the first is at field 'pipes', row 0, tile 0"),
    ({"pipes": [[[3, 2, 2, 3], [1, 0, 0, 1]]]}, "file", "no drain"),
    ({"pipes": []}, "field 'pipes'", "a list of rows"),
    ({"pipes": [[3, 2, 2, 3]]}, "field 'pipes', row 0, tile 0", "side codes, got 3"),
    ({"pipes": "3223 1441"}, "field 'pipes'", "a list of rows"),
    ({"pipes": [[[0, 0, 0, 0]] * 33]}, "field 'pipes'", "more than 32 tiles a side"),
    ({"pipes": PIPES, "name": 3}, "field 'name'", "expected text"),
    ({"tiles": PIPES}, "file", "an object with 'pipes'"),
    ([PIPES], "file", "an object with 'pipes'"),
]


@pytest.mark.parametrize("document, where, message", BAD_JSON)
def test_bad_json_names_the_field(document: Any, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        parse_zenji_json(json.dumps(document), "z")
    assert err.value.where == where and message in err.value.message, str(err.value)


def test_json_syntax_errors_name_the_line() -> None:
    with pytest.raises(PuzzleError) as err:
        parse_zenji_json('{"pipes": [[[3,2,2,3],\n [1,4,4,1]]', "z")
    assert err.value.where == "line 2, column 12" and "not valid JSON" in err.value.message


def test_a_json_board_keeps_its_flow_and_name() -> None:
    document = {"pipes": SEED_TILES, "flow": "free", "name": "s"}
    board = registry.load_puzzle(json.dumps(document).encode(), "z.json")
    assert board.flow == "free" and board.name == "s" and board.tile_rows() == SEED_TILES
    result = solve(board, "astar").json
    assert result["flow"] == "free" and check_water(SEED_TILES, result, "free") == (7, 7)
    forced = registry.load_puzzle(SEED_FILE.read_bytes(), "z.txt", options={"flow": "free"})
    assert forced.flow == "free"
    with pytest.raises(PuzzleError, match="flow"):
        registry.load_puzzle(SEED_FILE.read_bytes(), "z.txt", options={"flow": "sideways"})


def test_size_limits_hold_before_the_board_is_allocated() -> None:
    row = " ".join(["3223", *["0000"] * 31, "1441"])  # 33 tiles
    with pytest.raises(PuzzleError) as err:
        parse_zenji_text(row + "\n", "z")
    assert err.value.where == "line 1" and "more than 32 tiles in a row" in err.value.message
    tall = "3223 0000\n" + "0000 0000\n" * 31 + "0000 1441\n"  # 33 rows
    with pytest.raises(PuzzleError) as err:
        parse_zenji_text("# 33 rows\n" + tall, "z")
    assert err.value.where == "line 34" and "more than 32 rows of tiles" in err.value.message
    huge_line = "0000 " * 1_000_000  # 5 MB in one line
    with pytest.raises(PuzzleError, match="too large for a Zenji board"):
        registry.load_puzzle(huge_line.encode(), "z.txt", "zenji")
    with pytest.raises(PuzzleError, match="more than 32 tiles in a row"):
        parse_zenji_text(huge_line[:190_000], "z")
    biggest = "3223 " + "0000 " * 30 + "0000\n" + ("0000 " * 31 + "0000\n") * 30 + "0000 " * 31 + "1441\n"
    board = parse_zenji_text(biggest, "z")
    assert (board.rows, board.cols, board.drain) == (32, 32, (31, 31))


def test_a_line_of_open_brackets_is_refused_at_once() -> None:
    """The bracket pattern once scanned from every '[' to the end of its line: this 190 KB file (Zenji by
    its first rows) held the parser for minutes."""
    text = "[3,2,2,3] [1,4,4,1]\n" * 10 + "[" * 190_000 + "\n"
    assert registry.detect_family("z.txt", text.encode()).name == "zenji"
    started = time.perf_counter()
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(text.encode(), "z.txt")
    assert err.value.where == "line 11, tile 1" and "expected bracketed tiles" in err.value.message
    assert time.perf_counter() - started < 10  # it was quadratic: minutes, not a slow machine's second


# --------------------------------------------------------------------------- detection by content
def cut_comment() -> bytes:
    """The seed board, then a long comment of 'é' that the sniff's sample of 4,096 bytes cuts in the
    middle of a character."""
    head = SEED_FILE.read_bytes() + b"# "
    if (4_096 - len(head)) % 2 == 0:
        head += b"x"
    data = head + "\u00e9".encode() * 3_000 + b"\n"
    with pytest.raises(UnicodeDecodeError):
        data[:4_096].decode()
    return data


@pytest.mark.parametrize("data, name", [
    (SEED_FILE.read_bytes(), "zenji-seed-001.txt"),  # once read as a grid maze
    (SEED_FILE.read_bytes(), "seed"),
    (SEED_TABLE.encode(), "seed.txt"),  # the bracket form
    (json.dumps({"pipes": SEED_TILES}).encode(), "seed.json"),
    (json.dumps({"flow": "downhill", "pipes": SEED_TILES}, indent=1).encode(), "seed.txt"),
    (json.dumps({"name": "maze", "pipes": SEED_TILES}).encode(), "seed.json"),
    # Comment lines the parser skips were once read by the sniff as rows: a grid maze ('#' walls).
    (b"#\n" + SEED_FILE.read_bytes(), "seed.txt"),
    (b"   # indented\n" + SEED_FILE.read_bytes(), "seed.txt"),
    (cut_comment(), "seed.txt"),
])
def test_zenji_boards_are_detected_by_content(data: bytes, name: str) -> None:
    assert registry.detect_family(name, data).name == "zenji"
    assert registry.load_puzzle(data, name).tile_rows() == SEED_TILES


def test_other_files_stay_theirs(shared_cases: Path) -> None:
    assert registry.detect_family("m.txt", b"#######\n#S....#\n#.###.#\n#....G#\n#######\n").name == "grid"
    assert registry.detect_family("m.txt", b"S.X\nXXZ\n").name == "step"
    assert registry.detect_family("m.json", b'{"maze": ["SXZ"]}').name == "step"
    # A key, not a value, says what a JSON file is: "pipes" as a name once made these Zenji boards.
    assert registry.detect_family("m.json", b'{"maze": ["SXZ"], "name": "pipes"}').name == "step"
    labyrinth = (shared_cases / "labyrinth" / "Puzzle_6_padded.json").read_text()
    for name in ("pipes", "maze"):
        named = json.dumps({**json.loads(labyrinth), "name": name}).encode()
        assert registry.detect_family("b.json", named).name == "labyrinth", name
        assert registry.load_puzzle(named, "b.json").rows == 5
    for path in sorted((shared_cases / "labyrinth").iterdir()):
        assert registry.detect_family(path.name, path.read_bytes()).name == "labyrinth", path.name


@pytest.mark.parametrize("data, name", [(b"hello world\n", "notes.dat"), (b"\x00\x01\x02", "blob"),
                                        (b"S.X\nXQZ\n", "m.dat")])
def test_a_file_no_family_reads_is_refused_saying_what_each_expects(data: bytes, name: str) -> None:
    with pytest.raises(PuzzleError) as err:
        registry.detect_family(name, data)
    message = err.value.message
    assert err.value.where == "file" and message.startswith("no puzzle family reads this file")
    for title in ("Grid maze", "Shifting-tile labyrinth", "Step-cycle maze", "Zenji pipes"):
        assert title in message
    assert all(t(family.title) in message and t(family.expects) in message
               for family in registry.FAMILIES.values())
    assert "'pipes'" in message and "'maze'" in message


# --------------------------------------------------------------------------- command line
def test_cli_solves_the_seed_board() -> None:
    done = cli("solve", str(SEED_FILE), "--algorithm", "astar", "--flow", "free", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["family"] == "zenji" and result["optimal_guaranteed"]
    assert check_water(SEED_TILES, result, "free") == (7, 7)
    words = cli("solve", str(SEED_FILE), "-a", "dijkstra")
    assert words.returncode == 0
    assert "made the water flow with 7 quarter turns (optimal) through 7 tiles, downhill flow" in words.stdout
    assert "turn (1, 2) three times clockwise" in words.stdout and "water: (0, 0) → (0, 1)" in words.stdout


def test_cli_refuses_bad_flows_and_foreign_options() -> None:
    sideways = cli("solve", str(SEED_FILE), "--flow", "sideways")
    assert sideways.returncode != 0 and sideways.stdout == ""
    # argparse prints its usage, then the refusal in one line
    assert "argument --flow: invalid choice: 'sideways'" in sideways.stderr.strip().splitlines()[-1]
    cycle = cli("solve", str(SEED_FILE), "--cycle", "1,2,3")
    assert cycle.returncode == 1 and cycle.stdout == ""
    (line,) = cycle.stderr.strip().splitlines()
    assert "--cycle is an option of the step family" in line and "zenji" in line
    both = cli("solve", str(SEED_FILE), "-a", "bidirectional", "--flow", "free")
    assert both.returncode == 1 and len(both.stderr.strip().splitlines()) == 1
    assert "option 'algorithm'" in both.stderr and "bidirectional" in both.stderr


@pytest.mark.parametrize("kind, flow", [("zenji-downhill", "downhill"), ("zenji-free", "free")])
def test_cli_generates_boards_it_can_solve(tmp_path: Path, kind: str, flow: str) -> None:
    out = tmp_path / "X.txt"
    made = cli("generate", kind, "6", "6", "--seed", "3", "--out", str(out))
    assert made.returncode == 0, made.stderr
    tiles = parse_zenji_text(out.read_text(), "X").tile_rows()
    assert len(tiles) == 6 and len(tiles[0]) == 6
    done = cli("solve", str(out), "-a", "astar", "--flow", flow, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    check_water(tiles, result, flow)
    assert result["optimal_guaranteed"]
    as_json = tmp_path / "X.json"
    assert cli("generate", kind, "3", "4", "--seed", "5", "--out", str(as_json)).returncode == 0
    assert json.loads(as_json.read_text())["flow"] == flow
    too_big = cli("generate", kind, "17", "3", "--out", str(tmp_path / "big.txt"))
    assert too_big.returncode == 1 and "option 'rows': 17 is outside 1..16" in too_big.stderr


# --------------------------------------------------------------------------- API and socket
INFO_KEYS = {"family", "id", "algorithms", "name", "rows", "cols", "width", "height", "tiles", "source",
             "drain", "flow", "cost_scale", "options", "notes"}


@pytest.fixture
def app():
    return make_app(frame_records=20, frame_window=2, ack_timeout=5)


def test_the_api_describes_and_solves_the_seed_board(app) -> None:
    info = upload(app, SEED_FILE.read_bytes(), "zenji-seed-001.txt")
    assert info["family"] == "zenji" and set(info) >= INFO_KEYS
    assert info["tiles"] == SEED_TILES and info["source"] == [0, 0] and info["drain"] == [3, 3]
    assert (info["rows"], info["cols"], info["width"], info["height"]) == (4, 4, 4, 4)
    assert info["flow"] == "downhill" and info["cost_scale"] == 17
    assert info["options"] == {"flow": {"default": "downhill"}}
    client = app.test_client()
    url = f"/api/puzzles/{info['id']}/solve"
    free = client.post(url, json={"algorithm": "astar", "flow": "free"})  # run options sit beside 'algorithm'
    assert free.status_code == 200
    assert check_water(SEED_TILES, free.get_json(), "free") == (7, 7)
    downhill = client.post(url, json={"algorithm": "bidirectional"}).get_json()
    assert check_water(SEED_TILES, downhill, "downhill") == (7, 7)
    refused = client.post(url, json={"algorithm": "bidirectional", "flow": "free"})
    assert 400 <= refused.status_code < 500 and "option 'algorithm'" in refused.get_json()["error"]
    sideways = client.post(url, json={"algorithm": "astar", "flow": "sideways"})
    assert sideways.status_code == 400 and "flow" in sideways.get_json()["error"]
    families = {f["name"]: f for f in client.get("/api/families").get_json()}
    assert {o["name"] for o in families["zenji"]["options"]} >= {"heuristic", "weight", "flow"}


def test_bidirectional_is_refused_on_a_board_whose_file_says_free(app) -> None:
    info = upload(app, json.dumps({"pipes": SEED_TILES, "flow": "free"}).encode(), "free.json")
    assert info["flow"] == "free"
    refused = app.test_client().post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bidirectional"})
    assert 400 <= refused.status_code < 500 and "option 'algorithm'" in refused.get_json()["error"]
    downhill = app.test_client().post(f"/api/puzzles/{info['id']}/solve",
                                      json={"algorithm": "bidirectional", "flow": "downhill"})
    assert downhill.status_code == 200 and downhill.get_json()["cost"] == 7


@pytest.mark.parametrize("flow", FLOWS)
def test_a_socket_run_records_states_that_decode_to_tile_and_turns(app, flow: str) -> None:
    info = upload(app, SEED_FILE.read_bytes(), "zenji-seed-001.txt")
    client = socketio.test_client(app)
    ack = client.emit("run_start", {"run": "z1", "puzzle": info["id"], "algorithm": "dijkstra",
                                    "options": {"flow": flow}}, callback=True)
    assert ack == {"ok": True}
    seen = pump(client, "run_done", "z1")
    done = seen[-1]
    frames = [s for s in seen if s["name"] == "run_frame"]
    kinds, cells, values = records(frames)
    assert len(kinds) == done["records"] > 20
    decoded = [divmod(int(state), 4) for state in cells]
    assert all(0 <= cell < 16 and 0 <= rot < 4 for cell, rot in decoded)
    scale = info["cost_scale"]
    turns, tiles = divmod(int(values[kinds == 3].max()), scale)
    assert (turns, tiles + 1) == (7, 7)  # g packed as turns * scale + tiles after the source
    result = done["result"]
    assert check_water(SEED_TILES, result, flow) == (7, 7)
    on_path = [(divmod(int(state) // 4, info["cols"]), int(state) % 4) for state in cells[kinds == 3]]
    assert on_path[::-1] == [(tuple(step["tile"]), step["rot"]) for step in result["water"]]  # drain first
    snapshots = [s for f in frames for s in f.get("snapshots", [])]
    if flow == "free":
        assert snapshots and all(set(s) == {"i", "used"} for s in snapshots)
        assert all(0 in s["used"] and all(0 <= u < 16 for u in s["used"]) for s in snapshots)
    else:
        assert snapshots == []
    client.disconnect()
