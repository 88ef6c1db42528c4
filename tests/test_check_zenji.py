"""Issue 19's solution checker for Zenji (``server/puzzles/zenji/check.py``): quarter turns per tile as
text lines, the CLI's words, JSON and ``solve --json``; the water replayed under the board's flow;
illegal turns and water that stops named with the rule; malformed answers refused naming where."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.judging import judge_solution
from server.puzzles.errors import PuzzleError
from server.puzzles.registry import get_family, load_puzzle
from server.puzzles.zenji.generate import random_board
from server.solving import solve
from tests.helpers import ROOT
from tests.helpers import run_cli as cli

SEED_FILE = ROOT / "mazes" / "zenji-seed-001.txt"
FREE_FILE = ROOT / "mazes" / "zenji-free-5x5.json"
FAMILY = get_family("zenji")
# Seed 001's board needs 7 quarter turns (PUZZLES.md §4; tests/test_zenji.py checks it independently).
SEED_TURNS = "0 1 1\n1 2 3\n2 3 3"


@pytest.fixture(scope="module")
def board() -> Any:
    return load_puzzle(SEED_FILE.read_bytes(), SEED_FILE.name)


def check(board: Any, text: str, **options: Any) -> Any:
    return judge_solution(board, text, FAMILY.run_options(options))


# ---- legal answers ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    SEED_TURNS,
    "# my answer\n(0, 1) 1\n1, 2, 3\n\n2 3: 3\n",
    "turn (0, 1) once clockwise\nturn (1, 2) three times clockwise\nturn (2, 3) 3 times",
    "  1. turn (0, 1) once clockwise\n  2. turn (1, 2) three times clockwise\n  3. turn (2, 3) three times",
    "[[0, 1, 1], [1, 2, 3], [2, 3, 3]]",
    '[{"tile": [0, 1], "turns": 1}, {"tile": [1, 2], "turns": 3}, {"tile": [2, 3], "turns": 3}]',
    '{"turns": [[0, 1, 1], [1, 2, 3], [2, 3, 3]]}',
])
def test_the_seeds_optimal_turns_in_every_notation(board: Any, text: str) -> None:
    result = check(board, text)
    assert result.valid and result.cost == 7 and result.moves == 3
    assert result.optimum == 7 and result.optimal is True
    assert result.summary() == "legal, cost 7; the optimum is 7 (optimal)"
    # the water's way, as the search's states [row, col, turns]
    assert [s[:2] for s in result.path] == [[0, 0], [0, 1], [0, 2], [1, 2], [1, 3], [2, 3], [3, 3]]
    assert result.replay["found"] and result.replay["cost"] == 7 and result.replay["tiles"] == 7
    assert [m["tile"] for m in result.replay["moves"]] == [[0, 1], [1, 2], [2, 3]]


@pytest.mark.parametrize("algorithm", ["dijkstra", "astar", "idastar", "bidirectional"])
def test_solve_json_and_the_cli_answer_are_legal_and_optimal(board: Any, algorithm: str) -> None:
    solved = solve(board, algorithm, {}).json
    result = check(board, json.dumps(solved))
    assert result.valid and result.cost == solved["cost"] == 7 and result.optimal
    assert result.replay["path"] == solved["path"] and result.replay["water"] == solved["water"]
    assert check(board, json.dumps(solved["moves"])).optimal
    printed = cli("solve", str(SEED_FILE), "--algorithm", algorithm).stdout
    assert check(board, printed).optimal  # headline skipped, its water line followed


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("kind", ["zenji-downhill", "zenji-free"])
def test_generated_boards_answers_of_every_search(kind: str, seed: int) -> None:
    board = random_board(5, 5, seed, kind.removeprefix("zenji-"))
    best = solve(board, "dijkstra", {}).json["cost"]
    for algorithm in ("dijkstra", "astar", "dfs", "greedy", "bfs"):
        solved = solve(board, algorithm, {}).json
        result = check(board, json.dumps(solved))
        assert result.valid and result.cost == solved["cost"], (algorithm, result.reason)
        assert result.optimum == best and result.optimal is (solved["cost"] == best)


def test_the_free_flow_example_board() -> None:
    board = load_puzzle(FREE_FILE.read_bytes(), FREE_FILE.name)
    solved = solve(board, "dijkstra", {}).json
    assert solved["flow"] == "free"
    result = check(board, json.dumps(solved))
    assert result.valid and result.optimal and result.cost == solved["cost"]
    with pytest.raises(PuzzleError) as err:  # found under free flow, checked downhill
        check(board, json.dumps(solved), flow="downhill")
    assert err.value.where == "field 'flow'"


def test_extra_turns_are_legal_and_not_optimal(board: Any) -> None:
    result = check(board, SEED_TURNS + "\n1 1 2\n0 1 4")  # a tile off the water's way; a full circle
    assert result.valid and result.cost == 13 and result.moves == 5
    assert result.optimum == 7 and result.optimal is False
    assert result.summary() == "legal, cost 13; the optimum is 7 (not optimal)"
    assert len(result.replay["moves"]) == 5  # every turn made is replayed, on the way or not


# ---- illegal answers ---------------------------------------------------------------------------------
def test_turning_the_source_or_drain_is_illegal_at_its_number(board: Any) -> None:
    result = check(board, "0 1 1\n3 3 1\n1 2 3")
    assert not result.valid and result.first_illegal_move == 2 and result.cost is None
    assert result.reason == "turn 2 turns the drain (3, 3): the source and the drain are fixed"
    assert result.illegal == {"from": [3, 3], "to": None}
    source = check(board, "0 0 2")
    assert source.reason == "turn 1 turns the source (0, 0): the source and the drain are fixed"
    assert check(board, SEED_TURNS + "\n0 0 0").valid  # no turn at all is no turn


def test_a_tile_off_the_board_is_illegal(board: Any) -> None:
    result = check(board, "0 1 1\n4 0 1")
    assert not result.valid and result.first_illegal_move == 2
    assert result.reason == "turn 2 names the tile (4, 0), off the 4 x 4 board"


def test_water_that_stops_says_where_and_why(board: Any) -> None:
    result = check(board, "0 1 1\n1 2 3")
    assert not result.valid and result.first_illegal_move is None
    assert result.reason == (
        "the water does not reach the drain (3, 3): it flows (0, 0) → (0, 1) → (0, 2) → (1, 2) → (1, 3) and "
        "stops there: at (1, 3) its south outlet faces (2, 3), which has no inlet on its north side")
    assert [s[:2] for s in result.path] == [[0, 0], [0, 1], [0, 2], [1, 2], [1, 3]]
    assert result.replay["found"] is False and result.replay["path"][-1] == [1, 3]
    untouched = check(board, "[]")
    assert not untouched.valid and "it flows (0, 0) and stops there" in untouched.reason


def test_a_given_water_path_is_followed_step_by_step(board: Any) -> None:
    wrong = check(board, SEED_TURNS + "\nwater: (0, 0) → (0, 1) → (1, 1)")
    assert not wrong.valid
    assert wrong.reason == "water step 2, (0, 1) → (1, 1): (0, 1) has no outlet on its south side"
    assert wrong.illegal == {"from": [0, 1], "to": [1, 1]}
    uphill = check(board, json.dumps({"moves": [], "path": [[0, 0], [0, 1], [0, 0]]}))
    assert not uphill.valid and "no inlet on its west side" in uphill.reason
    jump = check(board, SEED_TURNS + "\nwater: (0, 0) -> (0, 2)")
    assert jump.reason == "water step 1, (0, 0) → (0, 2): not a neighbouring tile"


def test_downhill_water_never_flows_north_or_west() -> None:
    """The free-flow example's optimal water climbs north at its 4th step: checked downhill, that step
    is refused with the rule."""
    board = load_puzzle(FREE_FILE.read_bytes(), FREE_FILE.name)
    solved = solve(board, "dijkstra", {}).json
    del solved["flow"]  # as if it had been handed in without saying its flow
    result = check(board, json.dumps(solved), flow="downhill")
    assert not result.valid and result.first_illegal_move is None
    assert result.reason == ("water step 4, (1, 2) → (0, 2): the water would flow north, and under downhill "
                             "flow it leaves a tile by the east or the south side only")
    assert [s[:2] for s in result.path] == solved["path"][:4]


# ---- malformed answers -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "where", "message"), [
    ("", "file", "the solution is empty"),
    ("# only a comment\n", "file", "no turns in the text"),
    ("0 1", "line 1", "expected a turn such as '0 1 2'"),
    ("0 1 1\nturn it", "line 2", "expected a turn"),
    ("0 1 -1", "line 1", "turns are clockwise quarter turns"),
    ("0 1 99999", "line 1", "turns are clockwise quarter turns"),
    ("[[0, 1, -1]]", "item 1", "turns are clockwise quarter turns"),
    ("[[0, 1]]", "item 1", "expected [row, col, turns]"),
    ('[{"tile": [0], "turns": 1}]', "item 1", "expected 'tile': [row, col]"),
    ('[{"tile": [0, 1], "turns": true}]', "item 1, field 'turns'", "turns are clockwise"),
    ('{"family": "step", "moves": []}', "field 'family'", "not of a Zenji board"),
    ('{"found": false, "moves": []}', "field 'found'", "found no solution"),
    ('{"cost": 7}', "file", "expected a 'moves' field"),
    ('{"moves": [], "path": "down"}', "field 'path'", "the water's tiles"),
    ("0 1 1\nwater: (0, 0) → (0 1)", "line 2, tile 2", "the water's tiles"),
    ('{"moves": 3}', "file", "expected a list of turns"),
])
def test_malformed_answers_are_refused_naming_where(board: Any, text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        FAMILY.checker.check(board, text, FAMILY.run_options({}))
    assert (err.value.where or "") == where, err.value.where
    assert message.lower() in str(err.value).lower()
