"""Issue 19's solution checker for grid mazes: ``server/puzzles/grid/check.py`` and ``run.py check``."""

from __future__ import annotations

import json
import math
from itertools import pairwise
from pathlib import Path

import pytest

from server.judging import judge_solution
from server.puzzles.checking import CheckResult
from server.puzzles.errors import PuzzleError
from server.puzzles.grid.check import check_grid_solution
from server.puzzles.grid.family import FAMILY
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.text import parse_grid_text
from server.puzzles.registry import detect_family
from server.solving import solve
from tests.helpers import run_cli as cli

NAMES = {(-1, 0): "U", (1, 0): "D", (0, -1): "L", (0, 1): "R"}
DELTAS = {name: delta for delta, name in NAMES.items()}


@pytest.fixture(scope="module")
def maze3_file(shared_cases: Path) -> Path:
    return shared_cases / "images/lee/maze3.png"


@pytest.fixture(scope="module")
def maze3(maze3_file: Path) -> GridMaze:
    from server.puzzles.family import LoadLimits

    data = maze3_file.read_bytes()
    family = detect_family(maze3_file.name, data)
    return family.load(data, maze3_file.name, {}, LoadLimits(max_pixels=10**7, max_cells=10**7))


@pytest.fixture(scope="module")
def best_path(maze3: GridMaze) -> list[tuple[int, int]]:
    """The optimal BFS path of maze3 as (row, col) cells."""
    solved = solve(maze3, "bfs", {})
    assert solved.json["cost"] == 52
    return [(r, c) for r, c in solved.json["path"]]


def judge(maze: GridMaze, text: str, diagonal: bool) -> CheckResult:
    """The grid family's checker plus the optimum (Dijkstra under the same rules)."""
    return judge_solution(maze, text, FAMILY.run_options({"diagonal": diagonal}))


def as_moves(path: list[tuple[int, int]]) -> str:
    return "".join(NAMES[(b[0] - a[0], b[1] - a[1])] for a, b in pairwise(path))


def test_the_optimal_path_as_moves_is_legal_and_optimal(maze3: GridMaze, best_path: list) -> None:
    result = judge(maze3, as_moves(best_path), diagonal=False)
    assert result.valid and result.cost == 52 and result.moves == 52
    assert result.optimum == 52 and result.optimal is True
    assert result.first_illegal_move is None and result.reason is None
    assert result.path == best_path
    # Case, spaces, commas and line ends do not matter.
    spaced = ", ".join(as_moves(best_path).lower())
    assert check_grid_solution(maze3, spaced[:40] + "\n" + spaced[40:], diagonal=False).cost == 52


def test_a_move_into_a_wall_is_named(maze3: GridMaze, best_path: list) -> None:
    moves = list(as_moves(best_path))
    for i, (r, c) in enumerate(best_path[:-1]):
        wall = next((n for n, (dr, dc) in DELTAS.items() if not maze3.is_free(r + dr, c + dc)
                     and 0 <= r + dr < maze3.height and 0 <= c + dc < maze3.width), None)
        if wall is not None and i >= 3:
            break
    else:
        pytest.fail("no wall beside the path")
    moves[i] = wall
    dr, dc = DELTAS[wall]
    result = judge(maze3, "".join(moves), diagonal=False)
    assert not result.valid and result.first_illegal_move == i + 1 and result.optimal is False
    assert result.reason == f"move {i + 1} ({wall}) from ({r}, {c}) enters a wall at ({r + dr}, {c + dc})"
    assert result.path == best_path[: i + 1] and result.cost is None


def test_a_legal_detour_is_not_optimal(maze3: GridMaze, best_path: list) -> None:
    on_path = set(best_path)
    i, aside = next((i, n) for i, (r, c) in enumerate(best_path) for n, (dr, dc) in DELTAS.items()
                    if maze3.is_free(r + dr, c + dc) and (r + dr, c + dc) not in on_path)
    back = NAMES[tuple(-x for x in DELTAS[aside])]
    moves = as_moves(best_path)
    result = judge(maze3, moves[:i] + aside + back + moves[i:], diagonal=False)
    assert result.valid and result.moves == 54 and result.cost > 52
    assert result.optimum == 52 and result.optimal is False
    assert "legal, cost" in result.summary() and "(not optimal)" in result.summary()


def test_the_json_of_solve_is_a_solution_file(maze3_file: Path, tmp_path: Path) -> None:
    solved = cli("solve", str(maze3_file), "--json")
    answer = tmp_path / "answer.json"
    answer.write_text(solved.stdout)
    done = cli("check", str(maze3_file), "--solution", str(answer))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "legal, cost 52; the optimum is 52 (optimal)"


def test_the_path_as_python_prints_it(maze3: GridMaze, best_path: list) -> None:
    """A student's ``print(path)``: a list (or tuple) of (row, col) tuples, read as a literal, never run."""
    for text in (str(best_path), str(tuple(best_path)), repr([list(cell) for cell in best_path])):
        result = judge(maze3, text, diagonal=False)
        assert result.valid and result.cost == 52 and result.optimal, text[:40]
    with pytest.raises(PuzzleError) as bad:
        check_grid_solution(maze3, "[(4, 1), (5, 1)", diagonal=False)
    assert "not valid JSON or a Python list" in str(bad.value) and "line 1" in str(bad.value)
    with pytest.raises(PuzzleError) as code:  # a call is no literal: refused, not evaluated
        check_grid_solution(maze3, "[__import__('os').getcwd()]", diagonal=False)
    assert "not a Python list" in str(code.value)


def test_a_json_list_of_cells(maze3: GridMaze, best_path: list) -> None:
    text = json.dumps([list(cell) for cell in best_path], indent=1)
    result = check_grid_solution(maze3, text, diagonal=False)
    assert result.valid and result.cost == 52 and result.moves == 52
    wrong_start = json.dumps([[0, 0], *[list(c) for c in best_path]])
    refused = check_grid_solution(maze3, wrong_start, diagonal=False)
    start = best_path[0]
    assert not refused.valid and refused.reason == f"the list starts at (0, 0), not at the start {start}"
    jump = json.dumps([list(best_path[0]), list(best_path[2])])
    assert "is not a step to a neighbouring cell" in check_grid_solution(maze3, jump, False).reason


def test_a_path_that_stops_short_is_refused(maze3: GridMaze, best_path: list) -> None:
    result = judge(maze3, as_moves(best_path)[:-3], diagonal=False)
    end, goal = best_path[-4], best_path[-1]
    assert not result.valid and result.first_illegal_move is None and result.optimal is False
    assert result.reason == f"the path ends at {end}, not at the goal {goal}"
    assert result.optimum == 52


@pytest.mark.parametrize(("text", "where"), [
    ("DDRR\nDDxD", "line 2, column 3"),
    ("DD R?", "line 1, column 5"),
    ("[[4, 1], [5, 1], [5]]", "item 3"),
    ('{"family": "grid", "path": [[4, 1], "x"]}', "path item 2"),
    ("[[4, 1],\n [5, 1]", "line 2"),
    ('{"family": "zenji", "path": []}', "field 'family'"),
])
def test_a_garbage_file_is_a_puzzle_error_naming_where(maze3: GridMaze, text: str, where: str) -> None:
    with pytest.raises(PuzzleError) as caught:
        check_grid_solution(maze3, text, diagonal=False)
    assert where in str(caught.value)


def test_the_cli(maze3_file: Path, tmp_path: Path, best_path: list) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text(as_moves(best_path)[:-1] + "\n")
    done = cli("check", str(maze3_file), "--solution", str(answer), "--json")
    assert done.returncode == 3, done.stderr  # checked, and not legal: the status says so
    result = json.loads(done.stdout)
    assert set(result) == {"valid", "cost", "optimum", "optimal", "first_illegal_move", "reason", "moves",
                           "summary"}
    assert result["valid"] is False and result["optimum"] == 52 and result["moves"] == 51
    assert result["reason"].startswith("the path ends at")
    answer.write_text("RR!")
    bad = cli("check", str(maze3_file), "--solution", str(answer))
    assert bad.returncode == 1 and "line 1, column 3" in bad.stderr and not bad.stdout
    assert len(bad.stderr.strip().splitlines()) == 1
    missing = cli("check", str(maze3_file), "--solution", str(tmp_path / "none.txt"))
    assert missing.returncode == 1 and "none.txt" in missing.stderr


def test_a_family_without_a_checker_says_so() -> None:
    from tests.toy_family import ToyFamily

    family = ToyFamily()
    assert family.checker is None
    with pytest.raises(PuzzleError, match=r"checking solutions of .* puzzles is not supported"):
        family.need("checker")


def test_the_cli_takes_the_family_options(maze3_file: Path, tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("UR")
    done = cli("check", str(maze3_file), "--solution", str(answer), "--diagonal")
    assert done.returncode == 3, done.stderr  # checked, not legal
    assert "move 1 (U)" in done.stdout or "move 1 (UR)" in done.stdout or "ends at" in done.stdout
    foreign = cli("check", str(maze3_file), "--solution", str(answer), "--flow", "free")
    assert foreign.returncode == 1 and "--flow is an option of the zenji family" in foreign.stderr


def test_diagonal_moves_and_corner_cutting() -> None:
    corner = parse_grid_text("S#.\n..G\n...\n")
    cut = judge(corner, "DR R", diagonal=True)
    assert not cut.valid and cut.first_illegal_move == 1
    assert cut.reason == ("move 1 (DR) from (0, 0) to (1, 1): a diagonal move cuts the corner at (0, 1) "
                          "(a wall)")
    legal = judge(corner, "D, DR, UR", diagonal=True)
    assert legal.valid and legal.cost == pytest.approx(1 + 2 * math.sqrt(2)) and legal.moves == 3
    assert legal.optimum == 3 and legal.optimal is False
    four_way = judge(corner, "d r\nr", diagonal=True)
    assert four_way.valid and four_way.cost == 3 and four_way.optimal is True
    # On an open board the diagonal path is the optimum, its cost summed as the search sums it.
    open_board = parse_grid_text("S..\n...\n..G\n")
    diagonal = judge(open_board, "DR,DR", diagonal=True)
    assert diagonal.valid and diagonal.optimal is True and diagonal.cost == 2 * math.sqrt(2)
    # Diagonal moves off: a listed diagonal step is refused; "DR" is read as D then R.
    off = check_grid_solution(corner, "[[0, 0], [1, 0], [2, 1]]", diagonal=False)
    assert not off.valid and "diagonal moves are off" in off.reason and off.first_illegal_move == 2
    assert check_grid_solution(corner, "DR R", diagonal=False).valid
    with pytest.raises(PuzzleError, match=r"line 1, column 1.*not one move"):
        check_grid_solution(corner, "DRR", diagonal=True)


def test_the_cli_with_diagonal(tmp_path: Path) -> None:
    maze = tmp_path / "corner.txt"
    maze.write_text("S#.\n..G\n...\n")
    answer = tmp_path / "answer.txt"
    answer.write_text("DR R")
    done = cli("check", str(maze), "--solution", str(answer), "--diagonal")
    assert done.returncode == 3 and "cuts the corner at (0, 1)" in done.stdout  # checked, not legal
    answer.write_text("D DR UR")
    done = cli("check", str(maze), "--solution", str(answer), "--diagonal", "--json")
    result = json.loads(done.stdout)
    assert result["valid"] is True and result["optimal"] is False and result["optimum"] == 3
    assert result["cost"] == round(1 + 2 * math.sqrt(2), 6)
