"""Issue 19's solution checker on sliding-tile puzzles (``server/puzzles/sliding/check.py``): the blank's
moves, the tiles' moves or numbers, JSON lists of boards or moves, ``solve --json``; the first illegal
move named by its number with the rule; malformed answers refused naming where."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.judging import judge_solution
from server.puzzles.errors import PuzzleError
from server.puzzles.registry import get_family, load_puzzle
from server.solving import solve
from tests.helpers import run_cli as cli

FAMILY = get_family("sliding")
AIMA = "7 2 4\n5 0 6\n8 3 1\ngoal: 0 1 2 3 4 5 6 7 8\n"
# The 26 moves of the blank that the compiled IDA* finds for AIMA's board (checked below against solve;
# "auto" solves an 8-puzzle with the generic IDA*, whose equally short path differs).
AIMA_MOVES = "L U R D D L U R R U L L D R R D L L U R R U L D L U"
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


@pytest.fixture(scope="module")
def board() -> Any:
    return load_puzzle(AIMA.encode(), "aima.txt")


def check(board: Any, text: str) -> Any:
    return judge_solution(board, text, FAMILY.run_options({}))


def test_the_optimal_moves_of_the_blank_are_legal_and_optimal(board: Any) -> None:
    solved = solve(board, "idastar", {}, engine="compiled").json
    assert " ".join(m["blank"] for m in solved["moves"]) == AIMA_MOVES
    for text in (AIMA_MOVES, AIMA_MOVES.replace(" ", ""), "blank: " + AIMA_MOVES.replace(" ", ", "),
                 "# my answer\n" + AIMA_MOVES.lower().replace(" ", "\n")):
        result = check(board, text)
        assert result.valid and result.cost == 26 and result.optimum == 26 and result.optimal, text
        assert result.summary() == "legal, cost 26; the optimum is 26 (optimal)"
        assert result.replay["found"] and result.replay["path"][-1] == list(range(9))


def test_moves_of_the_tiles_by_direction_and_by_number(board: Any) -> None:
    solved = solve(board, "idastar", {}, engine="compiled").json
    tiles_dirs = " ".join(OPPOSITE[m] for m in AIMA_MOVES.split())
    numbers = " ".join(str(m["tile"]) for m in solved["moves"])
    words = ", ".join({"U": "up", "D": "down", "L": "left", "R": "right"}[m] for m in tiles_dirs.split())
    for text in ("tiles: " + tiles_dirs, "tiles: " + numbers, "Tiles:\n" + words, "tile " + numbers):
        result = check(board, text)
        assert result.valid and result.cost == 26 and result.optimal, (text, result.reason)


def test_json_lists_and_solve_json(board: Any) -> None:
    solved = solve(board, "astar", {"heuristic": "manhattan"}).json
    for text in (json.dumps(solved), json.dumps(solved["path"]), json.dumps(AIMA_MOVES.split()),
                 json.dumps([[b[0:3], b[3:6], b[6:9]] for b in solved["path"]])):
        result = check(board, text)
        assert result.valid and result.cost == 26 and result.optimal, text[:80]


def test_python_lists_as_students_print_them(board: Any) -> None:
    solved = solve(board, "astar", {"heuristic": "manhattan"}).json
    boards = [tuple(b) for b in solved["path"]]
    for text in (str(AIMA_MOVES.split()), str(boards), str([tuple(map(tuple, (b[0:3], b[3:6], b[6:9])))
                                                            for b in solved["path"]])):
        result = check(board, text)
        assert result.valid and result.cost == 26 and result.optimal, text[:80]


def test_a_detour_is_legal_and_not_optimal(board: Any) -> None:
    result = check(board, "L R " + AIMA_MOVES)
    assert result.valid and result.cost == 28 and result.optimal is False
    assert result.summary() == "legal, cost 28; the optimum is 26 (not optimal)"


@pytest.mark.parametrize("answer, number, words, illegal", [
    ("L L", 2, "move 2 (L): the blank moves left, but it is at (row 1, col 0) and would leave the 3 x 3 "
     "board",
     {"from": [1, 0], "to": None, "off_board": [1, -1]}),
    ("U U", 2, "move 2 (U): the blank moves up, but it is at (row 0, col 1) and would leave", None),
    ("tiles: D D", 2, "a tile slides down into the blank, so the blank moves up, but it is at (row 0, col 1) "
     "and would leave the 3 x 3 board", None),
    ("tiles: 5 1", 2, "move 2: tile 1 at (row 2, col 2) is not next to the blank at (row 1, col 0)",
     {"from": [1, 0], "to": [2, 2]}),
    ("tiles: 5 9", 2, "move 2: there is no tile 9 on a 3 x 3 board", None),
])
def test_the_first_illegal_move_is_named_with_its_rule(board: Any, answer: str, number: int, words: str,
                                                       illegal: dict | None) -> None:
    result = check(board, answer)
    assert not result.valid and result.first_illegal_move == number
    assert words in result.reason, result.reason
    if illegal is not None:
        assert result.illegal == illegal
    assert result.to_json()["first_illegal_move"] == number
    assert result.replay["path"][-1] != list(range(9)) and len(result.replay["path"]) == number


def test_boards_that_jump_or_start_elsewhere(board: Any) -> None:
    path = solve(board, "idastar", {}).json["path"]
    jump = check(board, json.dumps([path[0], path[2]]))
    assert not jump.valid and jump.first_illegal_move == 1
    # Boards are written in the family's one notation: rows, "_" the blank.
    assert ("board 1 (_ 2 4 / 7 5 6 / 8 3 1) is not one move from board 0 (7 2 4 / 5 _ 6 / 8 3 1)"
            in jump.reason), jump.reason
    assert jump.illegal == {"from": [1, 1], "to": [0, 0]}
    elsewhere = check(board, json.dumps(path[1:]))
    assert not elsewhere.valid and "not with the puzzle's 7 2 4 / 5 _ 6 / 8 3 1" in elsewhere.reason
    short = check(board, "L U")
    assert not short.valid and short.first_illegal_move is None and "not the goal" in short.reason


@pytest.mark.parametrize("text, where, message", [
    ("", "file", "the solution is empty"),
    ("L U X", "line 1, column 5", "'X' is no move"),
    ("L U\n 3", "line 2, column 2", "a number names a tile, after a first word 'tiles:'"),
    ('["U", "Q"]', "item 1", "'Q' is no move"),
    ("[[1, 2, 3]]", "item 0", "expected a board of 3 x 3"),
    ('{"family": "grid", "path": []}', "field 'family'", "not of a sliding-tile puzzle"),
    ('{"family": "sliding"}', "file", "expected a 'path' field"),
    ("[1, 2", "line 1, column 6", "not valid JSON"),
])
def test_malformed_answers_are_refused_naming_where(board: Any, text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        check(board, text)
    assert err.value.where == where and message in err.value.message, str(err.value)


def test_the_cli_checks_a_file(tmp_path: Path) -> None:
    puzzle = tmp_path / "aima.txt"
    puzzle.write_text(AIMA)
    answer = tmp_path / "answer.txt"
    answer.write_text(AIMA_MOVES + "\n")
    done = cli("check", str(puzzle), "--solution", str(answer), "--json")
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["valid"] and verdict["cost"] == 26 and verdict["optimal"]


def test_a_15_puzzle_answer_is_judged_against_the_optimum() -> None:
    """Korf's instance 79 (42 moves): the optimum comes from the family's default, IDA*."""
    board = load_puzzle(b"0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15\ngoal: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
                        "korf79.txt")
    solved = solve(board, "idastar", {"heuristic": "linear_conflict"}).json
    moves = " ".join(m["blank"] for m in solved["moves"])
    result = judge_solution(board, moves, FAMILY.run_options({}), max_expanded=2_000_000,
                            max_seconds=60)
    assert result.valid and result.cost == 42 and result.optimum == 42 and result.optimal
