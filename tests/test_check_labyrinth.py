"""Issue 19's solution checker for the shifting-tile labyrinth (``server/puzzles/labyrinth/check.py``):
``solve --json``, its ``moves`` list and the CLI's moves in words, on the course's boards under both move
models and on board-game boards (column pushes, the free tile turned); illegal moves named with the rule;
malformed answers refused naming where."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from server.judging import judge_solution
from server.puzzles.errors import PuzzleError
from server.puzzles.labyrinth.generate import solvable_board
from server.puzzles.registry import get_family, load_puzzle
from server.solving import solve
from tests.helpers import run_cli as cli

FAMILY = get_family("labyrinth")
#: The shared boards (cases/README.md) with their start and goal columns.
BOARDS = {
    "Puzzle_6.csv": {"start_col": 1, "goal_col": 2},
    "Puzzle_6_padded.json": {},
    "Puzzle_3.csv": {},
    "Puzzle_easy_3.csv": {},
    "Puzzle_middle_3.csv": {},
}


def board(shared_cases: Path, name: str) -> Any:
    return load_puzzle((shared_cases / "labyrinth" / name).read_bytes(), name, options=BOARDS[name] or None)


@pytest.fixture(scope="module")
def puzzle_6(shared_cases: Path) -> Any:
    return board(shared_cases, "Puzzle_6.csv")


def check(puzzle: Any, text: str, **options: Any) -> Any:
    return judge_solution(puzzle, text, FAMILY.run_options(options))


def in_words(result: dict[str, Any], numbered: bool = False) -> str:
    lines = [(f"  {i}. " if numbered else "") + m["text"] for i, m in enumerate(result["moves"], start=1)]
    return "\n".join(lines)


# ---- legal answers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(BOARDS))
@pytest.mark.parametrize("moves", ["combined", "separate"])
def test_every_notation_of_an_optimal_answer_on_the_course_boards(shared_cases: Path, name: str,
                                                                   moves: str) -> None:
    puzzle = board(shared_cases, name)
    solved = solve(puzzle, "astar", {"moves": moves}).json
    assert solved["found"] and solved["optimal_guaranteed"]
    for text in (json.dumps(solved), json.dumps(solved["moves"]), in_words(solved), in_words(solved, True)):
        result = check(puzzle, text, moves=moves)
        assert result.valid and result.cost == solved["cost"] == result.moves, result.reason
        assert result.optimum == solved["cost"] and result.optimal is True
        assert result.path == solved["path"]
        assert result.replay["found"] and result.replay["moves"] == solved["moves"]
        assert result.replay["insertions"] == solved["insertions"]


def test_seed_002s_answer_for_puzzle_6_in_the_clis_words(puzzle_6: Any, shared_cases: Path) -> None:
    """Three combined moves (seed 002), as ``run.py solve`` prints them, headline and all."""
    printed = cli("solve", str(shared_cases / "labyrinth" / "Puzzle_6.csv"), "--algorithm", "bfs",
                  "--start-col", "1", "--goal-col", "2").stdout
    assert "solved it in 3 moves" in printed.splitlines()[0]
    result = check(puzzle_6, printed)
    assert result.valid and result.cost == 3 and result.optimal
    assert result.summary() == "legal, cost 3; the optimum is 3 (optimal)"


def test_the_words_without_shapes_or_capitals(puzzle_6: Any) -> None:
    text = ("push the free tile (2) into row 3 from the right\n"
            "push into row 4 from the left, then enter the board below column 1 onto (4,1) and walk from "
            "(4,1) to (0,1)\n"
            "push the free tile (3) into row 0 from the left, then leave the board above column 2.")
    result = check(puzzle_6, text)
    assert result.valid and result.cost == 3 and result.optimal


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_board_game_boards_with_column_pushes_and_turns(seed: int) -> None:
    puzzle = solvable_board("labyrinth-game", 7, 7, seed).puzzle
    assert puzzle.rotate_free and any(p.axis == "col" for p in puzzle.insertions)
    solved = solve(puzzle, "greedy", {}).json
    for text in (json.dumps(solved), in_words(solved)):
        result = FAMILY.checker.check(puzzle, text, FAMILY.run_options({}))
        assert result.valid and result.cost == solved["cost"], result.reason


def test_a_detour_is_legal_and_not_optimal(shared_cases: Path) -> None:
    """Greedy search needs 6 moves on Puzzle_3 (combined), A* proves 5."""
    puzzle = board(shared_cases, "Puzzle_3.csv")
    solved = solve(puzzle, "greedy", {}).json
    result = check(puzzle, in_words(solved))
    assert result.valid and result.cost == solved["cost"] == 6
    assert result.optimum == 5 and result.optimal is False
    assert result.summary() == "legal, cost 6; the optimum is 5 (not optimal)"


# ---- illegal moves -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def words(puzzle_6: Any) -> list[str]:
    return in_words(solve(puzzle_6, "bfs", {}).json).splitlines()


@pytest.mark.parametrize(("change", "number", "reason"), [
    (("row 3 from the right", "row 2 from the right"), 1,
     "move 1 pushes into row 2 from the right, which is no insertion point of this board (they are: row 0 "
     "from the left, row 1 from the right, row 2 from the left, row 3 from the right, row 4 from the left)"),
    (("row 3 from the right", "row 1 from the right"), 2,
     "move 2 pushes the free tile ┘ (3), but the free tile is ┬ (4)"),
    (("walk from (4,1) to (0,1)", "walk from (4,1) to (0,3)"), 2,
     "move 2 walks from (4,1) to (0,3), but no open way joins them on the board as it is then"),
    (("carried to column 2", "carried to column 3"), 3,
     "move 3 says the player is carried to column 3, but the push carries them to (0,2)"),
    (("leave the board above column 2", "leave the board above column 1"), 3,
     "move 3 leaves above column 1: the way out is above column 2"),
    (("onto (4,1)", "onto (3,1)"), 2,
     "move 2 steps from below the board onto (3,1): the player enters onto the bottom tile of column 1"),
])
def test_an_illegal_move_is_reported_at_its_number_with_the_rule(puzzle_6: Any, words: list[str],
                                                                 change: tuple[str, str], number: int,
                                                                 reason: str) -> None:
    text = "\n".join(words).replace(*change)
    result = check(puzzle_6, text)
    assert not result.valid and result.cost is None and result.optimal is False
    assert result.first_illegal_move == number
    assert result.reason == reason
    assert result.illegal is not None and len(result.illegal["from"]) == 2  # [row, col] the page marks
    assert len(result.path) == number  # the states before the illegal move
    assert result.replay["found"] is False and len(result.replay["moves"]) == number - 1


def test_json_walks_are_checked_step_by_step(puzzle_6: Any) -> None:
    moves = solve(puzzle_6, "bfs", {}).json["moves"]
    skipping = json.loads(json.dumps(moves))
    del skipping[1]["walk"][2]  # (4,1) straight to (2,1)
    result = check(puzzle_6, json.dumps(skipping))
    assert result.first_illegal_move == 2
    assert result.reason == "move 2 steps from (4,1) to (2,1), which are not neighbours"
    closed = [{"push": None, "walk": [[5, 1], [4, 1], [3, 1]]}]  # (4,1) is ┐: open left and bottom
    result = check(puzzle_6, json.dumps(closed))
    assert result.first_illegal_move == 1
    assert result.reason == "move 1 steps from (4,1) to (3,1), but ┐ (1) at (4,1) is closed on the top"
    assert result.illegal == {"from": [4, 1], "to": [3, 1]}
    elsewhere = check(puzzle_6, json.dumps([{"push": None, "walk": [[4, 1], [4, 0]]}]))
    assert elsewhere.reason == ("move 1's walk starts at (4,1), but the player is still below the board "
                                "(under column 1)")
    wrong_tile = json.loads(json.dumps(moves))
    wrong_tile[0]["push"]["falls_out"] = 9
    result = check(puzzle_6, json.dumps(wrong_tile))
    assert result.reason == "move 1 says ─ (9) falls out of row 3 from the right, but ┘ (3) does"


def test_separate_moves_do_not_push_and_walk_at_once(puzzle_6: Any, words: list[str]) -> None:
    result = check(puzzle_6, "\n".join(words), moves="separate")
    assert result.first_illegal_move == 2
    assert result.reason == "move 2 pushes and walks, and under separate moves a move is one push or one walk"


def test_turning_the_free_tile_where_the_rules_do_not(puzzle_6: Any) -> None:
    result = check(puzzle_6, "turn the free tile └ (2) into ┌ (0) and push it into row 3 from the right")
    assert result.first_illegal_move == 1 and "do not turn the free tile" in result.reason


def test_moves_that_stop_short_or_do_nothing(puzzle_6: Any, words: list[str]) -> None:
    short = check(puzzle_6, "\n".join(words[:2]))
    assert not short.valid and short.first_illegal_move is None
    assert short.reason == "the moves end with the player at (0,1), not out above column 2"
    idle = check(puzzle_6, '[{"push": null, "walk": null}]')
    assert idle.first_illegal_move == 1 and idle.reason == "move 1 neither pushes nor walks"


# ---- malformed answers ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "where", "message"), [
    ("", "file", "the solution is empty"),
    ("# nothing\n\n", "file", "no moves in the text"),
    ("jump over the wall", "line 1", "expected a push"),
    ("push the free tile (2) into row 3 from the right\nfly away", "line 2", "expected a push"),
    ("push the free tile (2) into row 3 from the right; then walk", "line 1", "after the push expected"),
    ("push the free tile (2) into row 3 from the top", "line 1", "a row is pushed from the left or the"),
    ("push the free tile (12) into row 3 from the right", "line 1", "tile codes are 0 to 9"),
    ("enter the board below column 1 onto (4,1) or so", "line 1", "between the parts of a walk"),
    ('[{"push": {"axis": "diagonal", "index": 1, "side": "left"}}]', "item 1, field 'push'", "'axis'"),
    ('[{"push": {"axis": "row", "index": "3", "side": "left"}}]', "item 1, field 'push'", "'index'"),
    ('[{"push": {"axis": "row", "index": 3, "side": "left", "tile": 12}}]', "item 1, field 'push'", "'tile'"),
    ('[{"walk": [[4, 1], [3]]}]', "item 1, field 'walk'", "the walk's positions"),
    ('[{"jump": true}]', "item 1", "unknown field 'jump'"),
    ("[3]", "item 1", "expected a move"),
    ('{"family": "zenji", "moves": []}', "field 'family'", "not of a labyrinth"),
    ('{"found": false, "moves": []}', "field 'found'", "found no solution"),
    ('{"cost": 3}', "file", "expected a 'moves' field"),
    ('{"options": {"moves": "separate"}, "moves": []}', "field 'options.moves'", "--moves 'separate'"),
    ('{"options": {"goal_col": 3}, "moves": []}', "field 'options.goal_col'", "--goal-col 3"),
    ('[{"push": ', "line 1, column 11", "not valid JSON"),
])
def test_malformed_answers_are_refused_naming_where(puzzle_6: Any, text: str, where: str,
                                                    message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        FAMILY.checker.check(puzzle_6, text, FAMILY.run_options({}))
    assert (err.value.where or "").startswith(where), err.value.where
    assert message.lower() in str(err.value).lower()
