"""Issue 19's solution checker for step-cycle mazes (``server/puzzles/step/check.py``): seed 003's
printed answer, the cells, the seed's state numbers and ``solve --json``; illegal moves named with the
rule they break; malformed answers refused naming where."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.judging import judge_solution
from server.puzzles.errors import PuzzleError
from server.puzzles.registry import get_family, load_puzzle
from server.puzzles.step.generate import random_step_maze
from server.solving import solve
from tests.helpers import ROOT

SEED_FILE = ROOT / "mazes" / "step-seed-003.txt"
FAMILY = get_family("step")

# Seed 003's answer exactly as its notebook prints it (Out[72]): (x, y) positions, x the column.
SEED_ANSWER = """[(0, 0),
 (0, 1),
 (0, 3),
 (0, 6),
 (0, 7),
 (0, 5),
 (0, 2),
 (0, 3),
 (0, 1),
 (3, 1),
 (2, 1),
 (2, 3),
 (5, 3),
 (5, 4),
 (5, 2),
 (5, 5)]"""
# The same walk as the notebook's state numbers (Out[68]): field n // 3, next move n % 3 + 1.
SEED_STATES = "[0, 4, 32, 60, 67, 56, 21, 31, 5, 12, 10, 35, 42, 52, 29, 57]"


@pytest.fixture(scope="module")
def maze() -> Any:
    return load_puzzle(SEED_FILE.read_bytes(), SEED_FILE.name)


def check(maze: Any, text: str, **options: Any) -> Any:
    return judge_solution(maze, text, FAMILY.run_options(options))


def seed_rows(answer: str) -> list[tuple[int, int]]:
    """The seed answer's positions as (row, col)."""
    pairs = [line.strip(" [](),\n").split(",") for line in answer.splitlines()]
    return [(int(y), int(x)) for x, y in pairs]


# ---- legal answers ----------------------------------------------------------------------------------
def test_seed_003s_printed_answer_is_legal_15_moves_and_optimal(maze: Any) -> None:
    result = check(maze, SEED_ANSWER)
    assert result.valid and result.moves == 15 and result.cost == 15
    assert result.optimum == 15 and result.optimal is True
    assert result.first_illegal_move is None and result.reason is None
    assert result.summary() == "legal, cost 15; the optimum is 15 (optimal)"
    # the path is the states walked, [row, col, phase], x the column of the seed's (x, y)
    assert [tuple(s[:2]) for s in result.path] == seed_rows(SEED_ANSWER)
    assert [s[2] for s in result.path] == [i % 3 for i in range(16)]
    assert result.to_json()["valid"] is True and result.to_json()["optimal"] is True


@pytest.mark.parametrize("variant", [
    "Out[72]:\n" + SEED_ANSWER,  # pasted with the notebook's prompt
    SEED_ANSWER.replace("\n", ""),  # on one line
    SEED_ANSWER.replace(", ", ",").replace("\n ", "\r\n"),  # Windows line ends, no spaces
    SEED_ANSWER[1:-1],  # without the brackets
    SEED_ANSWER[:-1] + ",]",  # a trailing comma, as Python allows
    "\ufeff" + SEED_ANSWER + "\n\n",
])
def test_the_seed_notation_as_pasted_in_other_ways(maze: Any, variant: str) -> None:
    result = check(maze, variant)
    assert result.valid and result.cost == 15 and result.optimal


def test_the_seeds_state_numbers_are_read(maze: Any) -> None:
    result = check(maze, SEED_STATES)
    assert result.valid and result.cost == 15 and result.optimal
    assert [tuple(s[:2]) for s in result.path] == seed_rows(SEED_ANSWER)


@pytest.mark.parametrize("algorithm", ["bfs", "dijkstra", "astar", "bidirectional", "idastar", "iddfs"])
def test_solve_json_of_every_optimal_algorithm_is_legal_and_optimal(maze: Any, algorithm: str) -> None:
    solved = solve(maze, algorithm, {}).json
    result = check(maze, json.dumps(solved))
    assert result.valid and result.cost == solved["cost"] == 15 and result.optimal
    assert result.path == solved["path"]
    # the replay is a result like solve's, with its moves in words
    assert result.replay["found"] and result.replay["moves"] == solved["moves"]
    assert result.replay["path"] == solved["path"] and result.replay["cycle"] == [1, 2, 3]
    # its path alone, as cells or states
    assert check(maze, json.dumps(solved["path"])).optimal
    assert check(maze, json.dumps([s[:2] for s in solved["path"]])).optimal


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
@pytest.mark.parametrize("cycle", [(1, 2, 3), (2, 1), (1, 1, 4)])
def test_generated_mazes_answers_of_optimal_and_other_searches(seed: int, cycle: tuple[int, ...]) -> None:
    maze = random_step_maze(12, 12, seed, cycle)
    for algorithm, optimal in (("bfs", True), ("dfs", False), ("greedy", False)):
        solved = solve(maze, algorithm, {}).json
        result = check(maze, json.dumps(solved))
        assert result.valid and result.cost == solved["cost"]
        assert result.optimum == solve(maze, "bfs", {}).json["cost"]
        assert result.optimal is (True if optimal else result.cost == result.optimum)


def test_a_detour_is_legal_and_not_optimal(maze: Any) -> None:
    """The seed's answer reaches Z, then goes 1 north, 2 north, 3 south: back on Z after 18 moves."""
    detour = SEED_ANSWER[:-1] + ",\n (5, 4),\n (5, 2),\n (5, 5)]"
    result = check(maze, detour)
    assert result.valid and result.cost == 18 and result.moves == 18
    assert result.optimum == 15 and result.optimal is False
    assert result.summary() == "legal, cost 18; the optimum is 15 (not optimal)"


def test_another_cycle_is_checked_under_its_own_rules(maze: Any) -> None:
    """With the cycle 1,2 the seed's answer breaks at its third move (3 cells where 1 is asked)."""
    result = check(maze, SEED_ANSWER, cycle=[1, 2])
    assert not result.valid and result.first_illegal_move == 3
    assert result.reason == "move 3 goes 3 cells south, but the cycle asks for 1"


# ---- illegal moves -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("answer", "number", "reason"), [
    ("[[0, 0], [1, 0], [3, 0], [3, 3]]", 3,
     "move 3 goes 3 east from (row 3, col 0) to (row 3, col 3) over the blank cell (row 3, col 1)"),
    ("[[0, 0], [1, 0], [3, 0], [3, 1]]", 3, "move 3 goes 1 cell east, but the cycle asks for 3"),
    ("[(0,0), (0,1), (0,3), (0,6), (0,4)]", 4, "move 4 goes 2 cells north, but the cycle asks for 1"),
    ("[[0, 0], [1, 0], [3, 0], [6, 0], [5, 0], [7, 0], [10, 0]]", 6,
     "move 6 goes 3 south from (row 7, col 0) off the board to (row 10, col 0) (the board is 8 x 6)"),
    ("[[0, 0], [1, 1]]", 1,
     "move 1 from (row 0, col 0) to (row 1, col 1) is diagonal: a move goes in one straight line, north, "
     "east, south or west"),
    ("[[0, 0], [0, 0]]", 1, "move 1 stays at (row 0, col 0): the cycle asks for a move of 1"),
    ("[[0, 0], [1, 0], [1, 2], [1, 5], [2, 5], [4, 5], [4, 2]]", 6,
     "move 6 goes 3 west from (row 4, col 5) to (row 4, col 2) over the blank cell (row 4, col 4)"),
    ("[[0, 0], [0, 1]]", 1,
     "move 1 goes 1 east from (row 0, col 0) and lands on the blank cell (row 0, col 1)"),
])
def test_an_illegal_move_is_reported_at_its_number_with_the_rule(maze: Any, answer: str, number: int,
                                                                 reason: str) -> None:
    result = check(maze, answer)
    assert not result.valid and result.cost is None and result.optimal is False
    assert result.first_illegal_move == number
    assert result.reason == reason
    assert len(result.path) == number  # the states walked before the illegal move
    assert result.replay["found"] is False and len(result.replay["path"]) == number
    assert result.to_json()["first_illegal_move"] == number
    cells = json.loads(answer.replace("(", "[").replace(")", "]")) if "(" not in answer else None
    if cells is not None:  # where the page marks the move: its cells as [row, col]
        assert result.illegal == {"from": cells[number - 1], "to": cells[number]}


def test_an_answer_that_stops_short_or_starts_elsewhere(maze: Any) -> None:
    short = check(maze, "[(0, 0), (0, 1), (0, 3)]")
    assert not short.valid and short.first_illegal_move is None
    assert short.reason == "the moves end at (row 3, col 0), not at the goal Z (row 5, col 5)"
    elsewhere = check(maze, "[[1, 0], [3, 0]]")
    assert not elsewhere.valid
    assert "starts at (row 1, col 0), not at the start S (row 0, col 0)" in elsewhere.reason


def test_a_state_in_the_wrong_phase_is_named(maze: Any) -> None:
    result = check(maze, "[[0, 0, 0], [1, 0, 2]]")
    assert not result.valid and result.first_illegal_move == 1
    assert "phase 1" in result.reason and "says phase 2" in result.reason


# ---- malformed answers ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "where", "message"), [
    ("", "file", "the solution is empty"),
    ("  \n ", "file", "the solution is empty"),
    ("[(0, 0),\n (0, 1)", "line 2, column 8", "the text ends where ',' or the closing ']'"),
    ("[(0, 0),\n (0 1)]", "line 2, column 5", "',' between x and y of position 2"),
    ("[(0, 0),\n (0, x)]", "line 2, column 6", "'x' where y (the row) of position 2"),
    ("[(0, 0) (0, 1)]", "line 1, column 9", "',' or the closing ']' after position 1"),
    ("[(0, 0)] extra", "line 1, column 10", "'e' after the end of the list"),
    ("[(0, 1234567890)]", "line 1, column 6", "too long"),
    ("S to Z", "line 1, column 1", "'S' begins no solution"),
    ("[[0, 0], [1]]", "item 2", "expected [row, col]"),
    ("[[0, 0], [1, true]]", "item 2", "expected [row, col]"),
    ("[]", "file", "the list of cells is empty"),
    ("[0, 4, 999]", "item 3", "state 999 is no state of this maze"),
    ('{"family": "zenji", "path": []}', "field 'family'", "not of a step maze"),
    ('{"family": "step", "found": false, "path": []}', "field 'found'", "found no solution"),
    ('{"family": "step"}', "file", "expected a 'path' field"),
    ('{"family": "step", "cycle": [1, 2], "path": [[0, 0, 0]]}', "field 'cycle'", "cycle [1, 2]"),
    ("[[0, 0], ", "line 1", "JSON"),
])
def test_malformed_answers_are_refused_naming_where(maze: Any, text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        FAMILY.checker.check(maze, text, FAMILY.run_options({}))
    assert (err.value.where or "").startswith(where), err.value.where
    assert message.lower() in str(err.value).lower()
