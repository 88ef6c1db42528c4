"""Step-cycle ("1-2-3") mazes, seed 003: the parsers and their errors, detection by content, known
answers, every algorithm against an independent replay and an independent BFS on random boards, the
``manhattan`` heuristic against the true cost-to-go, the command line, the API and the socket.

The checker (``replay``) and the reference search (``Board.fewest_moves``) are written here from
PUZZLES.md §2 alone: they share no code with ``server.puzzles.step`` (their own reading of the rows,
their own moves). ``StepProblem`` is imported only to test its heuristic and its successors.
"""

from __future__ import annotations

import io
import itertools
import json
import os
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server import socketio
from server.puzzles import registry
from server.puzzles.errors import PuzzleError
from server.puzzles.family import LoadLimits
from server.puzzles.step.generate import random_step_maze
from server.puzzles.step.parse import maze_to_text, parse_step_json, parse_step_text
from server.puzzles.step.problem import StepProblem
from server.solving import solve
from tests.helpers import ROOT, make_app, pump, records, upload
from tests.helpers import run_cli as cli

SEED_FILE = ROOT / "mazes" / "step-seed-003.txt"
SEED_ROWS = SEED_FILE.read_text().splitlines()
OPTIMAL = ("bfs", "dijkstra", "astar", "bidirectional", "idastar", "iddfs")
# (algorithm, run options) that guarantee nothing: their answers must still replay.
NOT_OPTIMAL = (("dfs", {}), ("greedy", {}), ("greedy", {"heuristic": "zero"}),
               ("astar", {"weight": 2.5}), ("idastar", {"weight": 3.0}))
SPECIAL_CYCLES = ((1, 2, 3), (2,), (1, 3), (2, 2, 1), (1,), (3, 1), (1, 1, 4))
# PUZZLE_EXAMPLES_SCALE=10 runs ten times the examples (a longer hunt than CI's).
SCALE = float(os.environ.get("PUZZLE_EXAMPLES_SCALE", "1"))


def examples(count: int) -> settings:
    return settings(max_examples=max(1, round(count * SCALE)), deadline=None,
                    suppress_health_check=list(HealthCheck))


RANDOM = examples(40)

# --------------------------------------------------------------------------- the independent checker
STEPS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


@dataclass(frozen=True)
class Board:
    """A step maze as the test reads its rows: 'S', 'X', 'Z' marked; '.', ' ' (or nothing) blank."""

    rows: tuple[str, ...]

    @cached_property
    def height(self) -> int:
        return len(self.rows)

    @cached_property
    def width(self) -> int:
        return max(len(row) for row in self.rows)

    def char(self, r: int, c: int) -> str:
        return self.rows[r][c] if 0 <= r < self.height and 0 <= c < len(self.rows[r]) else "."

    def marked(self, r: int, c: int) -> bool:
        return 0 <= r < self.height and 0 <= c < self.width and self.char(r, c) in "SXZ"

    @cached_property
    def start(self) -> tuple[int, int]:
        (found,) = [(r, c) for r in range(self.height) for c in range(self.width) if self.char(r, c) == "S"]
        return found

    @cached_property
    def goals(self) -> frozenset[tuple[int, int]]:
        cells = itertools.product(range(self.height), range(self.width))
        return frozenset((r, c) for r, c in cells if self.char(r, c) == "Z")

    def jumps(self, r: int, c: int, k: int):
        """(direction, landing cell) of each legal move of ``k`` cells from (r, c)."""
        for name, (dr, dc) in STEPS.items():
            if all(self.marked(r + dr * j, c + dc * j) for j in range(1, k + 1)):
                yield name, (r + dr * k, c + dc * k)

    def fewest_moves(self, cycle: tuple[int, ...], start: tuple[int, int, int] | None = None) -> int | None:
        """Breadth-first over (row, col, phase) from ``start`` (default: S in phase 0) to any Z."""
        first = start or (*self.start, 0)
        depth = {first: 0}
        queue = deque([first])
        while queue:
            r, c, p = state = queue.popleft()
            if (r, c) in self.goals:
                return depth[state]
            for _, (nr, nc) in self.jumps(r, c, cycle[p]):
                nxt = (nr, nc, (p + 1) % len(cycle))
                if nxt not in depth:
                    depth[nxt] = depth[state] + 1
                    queue.append(nxt)
        return None

    def text(self, blank: str = ".") -> str:
        return "".join(row.replace(".", blank) + "\n" for row in self.rows)


def replay(board: Board, cycle: tuple[int, ...], result: dict[str, Any]) -> None:
    """Replay ``result["moves"]`` and ``result["path"]``: every move as long as the cycle says, straight,
    over marked cells only, from S to a Z, as many as the cost."""
    assert result["found"], result
    moves, path, period = result["moves"], result["path"], len(cycle)
    assert result["cycle"] == list(cycle)
    position = board.start
    assert path[0] == [*position, 0]
    assert len(path) == len(moves) + 1
    for i, move in enumerate(moves):
        where = f"move {i + 1} ({move.get('text')})"
        k = cycle[i % period]
        assert move["length"] == k, where
        assert move["phase"] == i % period, where
        assert move["from"] == list(position), where
        dr, dc = STEPS[move["direction"]]
        origin = position
        over = [(position[0] + dr * j, position[1] + dc * j) for j in range(1, k + 1)]
        assert all(board.marked(*cell) for cell in over), f"{where}: passes a blank cell or leaves the board"
        assert [tuple(cell) for cell in move["over"]] == over, where
        position = over[-1]
        assert move["to"] == list(position), where
        assert path[i + 1] == [*position, (i + 1) % period], where
        words = f"{k} {WORDS[move['direction']]}: ({origin[0]}, {origin[1]}) → ({position[0]}, {position[1]})"
        assert move["text"] == words, where
    assert position in board.goals, f"the last move ends on {position}, not on a Z"
    assert result["cost"] == len(moves)


def load(board: Board, name: str = "m.txt") -> Any:
    return registry.load_puzzle(board.text().encode(), name, "step")


# --------------------------------------------------------------------------- random boards
@st.composite
def boards(draw: st.DrawFn, max_side: int = 7, goals: int = 2) -> Board:
    """Small boards of marked ('X') and blank cells, one S and one or two Z on marked cells."""
    height, width = draw(st.integers(1, max_side)), draw(st.integers(2, max_side))
    fill = draw(st.sampled_from(["X.", "XX.", "XXX.", "XXXX."]))
    grid = [[draw(st.sampled_from(fill)) for _ in range(width)] for _ in range(height)]
    cells = draw(st.lists(st.integers(0, height * width - 1), min_size=2, max_size=1 + goals, unique=True))
    for index, cell in enumerate(cells):
        grid[cell // width][cell % width] = "S" if index == 0 else "Z"
    return Board(tuple("".join(row) for row in grid))


def cycles() -> st.SearchStrategy[tuple[int, ...]]:
    return st.sampled_from(SPECIAL_CYCLES) | st.lists(st.integers(1, 4), min_size=1, max_size=4).map(tuple)


@RANDOM
@given(board=boards(), cycle=cycles())
def test_every_optimal_algorithm_finds_the_fewest_moves(board: Board, cycle: tuple[int, ...]) -> None:
    maze = load(board)
    expected = board.fewest_moves(cycle)
    runs = [(name, {}) for name in OPTIMAL]
    runs += [("astar", {"heuristic": "zero"}), ("idastar", {"heuristic": "zero"})]
    for algorithm, options in runs:
        result = solve(maze, algorithm, {**options, "cycle": list(cycle)}).json
        label = f"{algorithm} {options} on {board.rows} cycle {cycle}"
        assert result["optimal_guaranteed"] is True, label
        if expected is None:
            assert not result["found"] and result["moves"] == [], label
            continue
        assert result["cost"] == expected, label
        replay(board, cycle, result)


@RANDOM
@given(board=boards(), cycle=cycles())
def test_algorithms_that_guarantee_nothing_still_give_valid_moves(
    board: Board, cycle: tuple[int, ...]
) -> None:
    maze = load(board)
    expected = board.fewest_moves(cycle)
    for algorithm, options in NOT_OPTIMAL:
        result = solve(maze, algorithm, {**options, "cycle": list(cycle)}).json
        label = f"{algorithm} {options} on {board.rows} cycle {cycle}"
        assert result["optimal_guaranteed"] is False, label
        assert result["found"] is (expected is not None), label
        if expected is not None:
            replay(board, cycle, result)
            assert result["cost"] >= expected, label
            assert result.get("optimum", expected) == expected, label  # the optimum, when it is given


@RANDOM
@given(board=boards(), cycle=cycles())
def test_manhattan_is_admissible_and_consistent(board: Board, cycle: tuple[int, ...]) -> None:
    problem = StepProblem(load(board), cycle)
    period = len(cycle)
    start = problem.initial_states()[0]
    seen, queue = {start}, deque([start])
    while queue:  # every state reachable from the start
        state = queue.popleft()
        cell, phase = divmod(state, period)
        r, c = divmod(cell, board.width)
        # The problem's moves are the rules' moves (a cross-check of the successors themselves).
        ours = sorted(((nr * board.width + nc) * period + (phase + 1) % period, 1.0)
                      for _, (nr, nc) in board.jumps(r, c, cycle[phase]))
        assert sorted(problem.successors(state)) == ours, (r, c, phase)
        h = problem.heuristic(state, "manhattan")
        assert problem.heuristic(state, "zero") == 0
        to_go = board.fewest_moves(cycle, (r, c, phase))
        if to_go is not None:
            assert h <= to_go, f"h = {h} > {to_go} moves to go from {(r, c, phase)}"
        if (r, c) in board.goals:
            assert h == 0
        for nxt, step in problem.successors(state):
            assert h <= step + problem.heuristic(nxt, "manhattan"), (state, nxt)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)


@pytest.mark.parametrize("cycle", [(1, 2, 3), (2,), (1, 3), (2, 2, 1)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_mazes_are_solvable_and_agree(cycle: tuple[int, ...], seed: int) -> None:
    maze = random_step_maze(9, 11, seed)
    board = Board(tuple(maze_to_text(maze).splitlines()))
    assert maze.rows == 9 and maze.cols == 11 and board.fewest_moves((1, 2, 3)) is not None
    expected = board.fewest_moves(cycle)
    costs = {a: solve(maze, a, {"cycle": list(cycle)}).json for a in OPTIMAL}
    for algorithm, result in costs.items():
        if expected is None:
            assert not result["found"], algorithm
        else:
            assert result["cost"] == expected, algorithm
            replay(board, cycle, result)


# --------------------------------------------------------------------------- seed 003
def test_seed_maze_takes_fifteen_moves() -> None:
    board = Board(tuple(SEED_ROWS))
    maze = registry.load_puzzle(SEED_FILE.read_bytes(), SEED_FILE.name)
    assert (maze.rows, maze.cols, maze.start, maze.goals, maze.cycle) == (8, 6, (0, 0), ((5, 5),), (1, 2, 3))
    assert board.fewest_moves((1, 2, 3)) == 15
    for algorithm in OPTIMAL:
        result = solve(maze, algorithm).json
        assert result["family"] == "step" and result["cost"] == 15, algorithm
        assert result["optimal_guaranteed"] is True
        replay(board, (1, 2, 3), result)
    astar = solve(maze, "astar").json
    assert astar["moves"][0]["text"] == "1 south: (0, 0) → (1, 0)"
    assert [m["length"] for m in astar["moves"]] == [1, 2, 3] * 5
    cells = [tuple(state[:2]) for state in astar["path"]]
    assert len(cells) > len(set(cells))  # the same cell again, in another phase


def test_the_seed_with_space_blanks_and_stripped_lines_is_the_same_maze() -> None:
    dotted = parse_step_text(SEED_FILE.read_text(), "seed", 10**6)
    spaced = "\n".join(row.replace(".", " ").rstrip() for row in SEED_ROWS) + "\n"
    assert spaced.splitlines()[0] == "S"  # the editor stripped the trailing blanks
    again = parse_step_text(spaced, "seed", 10**6)
    assert (again.rows, again.cols, again.marked, again.start, again.goals) == (
        dotted.rows, dotted.cols, dotted.marked, dotted.start, dotted.goals)
    assert again.mark_rows() == SEED_ROWS
    assert solve(again, "bfs").json["cost"] == 15
    crlf = parse_step_text("\ufeff" + SEED_FILE.read_text().replace("\n", "\r\n"), "seed", 10**6)
    assert crlf.marked == dotted.marked and crlf.mark_rows() == SEED_ROWS


def test_json_form_and_its_cycle() -> None:
    document = {"name": "seed", "maze": SEED_ROWS, "cycle": [1, 2, 3]}
    maze = parse_step_json(json.dumps(document), "file", 10**6)
    assert maze.name == "seed" and maze.cycle == (1, 2, 3) and maze.mark_rows() == SEED_ROWS
    assert solve(maze, "bfs").json["cost"] == 15
    two = parse_step_json(json.dumps({**document, "cycle": [2]}), "file", 10**6)
    assert two.cycle == (2,) and solve(two, "bfs").json["cycle"] == [2]
    assert solve(two, "bfs").json["found"] is (Board(tuple(SEED_ROWS)).fewest_moves((2,)) is not None)
    assert parse_step_json(json.dumps({"maze": ["SXZ"]}), "file", 10**6).cycle == (1, 2, 3)


# --------------------------------------------------------------------------- reading files
TEXT_ROWS = [
    # (text, rows, cols, marks)
    ("S\nXXXZ\n", 2, 4, ["S...", "XXXZ"]),  # a short line is padded with blanks
    ("SX  \nXZ  \n", 2, 4, ["SX..", "XZ.."]),  # trailing spaces are blank cells
    ("SX\nXZ   \n", 2, 5, ["SX...", "XZ..."]),
    ("SXZ\n\nXXX\n", 3, 3, ["SXZ", "...", "XXX"]),  # a blank line inside is a row of blanks
    ("SXZ\n\n\n  \n", 1, 3, ["SXZ"]),  # trailing empty lines are dropped
    ("S X Z", 1, 5, ["S.X.Z"]),
    ("SXZ\r\nXXX\r\n", 2, 3, ["SXZ", "XXX"]),
]


@pytest.mark.parametrize("text, rows, cols, marks", TEXT_ROWS)
def test_text_rows_are_read_as_documented(text: str, rows: int, cols: int, marks: list[str]) -> None:
    maze = parse_step_text(text, "m", 10**6)
    assert (maze.rows, maze.cols, maze.mark_rows()) == (rows, cols, marks)


def test_a_blank_line_inside_the_maze_cannot_be_passed() -> None:
    assert Board(("S", "X", "Z")).fewest_moves((2,)) == 1
    passable = parse_step_text("S\nX\nZ\n", "m", 10**6)
    assert solve(passable, "bfs", {"cycle": [2]}).json["cost"] == 1
    blank = parse_step_text("S\n\nZ\n", "m", 10**6)
    assert blank.rows == 3 and not solve(blank, "bfs", {"cycle": [2]}).json["found"]


BAD_TEXT = [
    # (text, where, a fragment of the message)
    ("S.X\nXQZ\n", "line 2, column 2", "unknown character 'Q'"),
    ("S.X\nX#Z\n", "line 2, column 2", "unknown character '#'"),
    ("S\tZ\n", "line 1, column 2", "unknown character '\\t'"),
    ("SXZ\nXXXXXXXXs\n", "line 2, column 9", "unknown character 's'"),
    ("S.S\nXZX\n", "line 1, column 3", "a second start 'S' (the first is at line 1, column 1)"),
    ("XXZ\nXSX\nXXS\n", "line 3, column 3", "a second start 'S' (the first is at line 2, column 2)"),
    ("S.X\nXXX\n", "file", "no goal"),
    ("X.X\nXZX\n", "file", "no start"),
    ("", "file", "no rows"),
    ("\n \n\n", "file", "no rows"),
]


@pytest.mark.parametrize("text, where, message", BAD_TEXT)
def test_bad_text_names_the_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        parse_step_text(text, "m", 10**6)
    assert err.value.where == where and message in err.value.message, str(err.value)


BAD_JSON = [
    ('{"maze": ["SXZ"], "cycle": []}', "field 'cycle'", "non-empty list"),
    ('{"maze": ["SXZ"], "cycle": [0]}', "field 'cycle'", "from 1 to 1000, got 0"),
    ('{"maze": ["SXZ"], "cycle": [-2]}', "field 'cycle'", "got -2"),
    ('{"maze": ["SXZ"], "cycle": [1001]}', "field 'cycle'", "got 1001"),
    ('{"maze": ["SXZ"], "cycle": [1.5]}', "field 'cycle'", "got 1.5"),
    ('{"maze": ["SXZ"], "cycle": [true]}', "field 'cycle'", "got True"),
    ('{"maze": ["SXZ"], "cycle": "1,2,3"}', "field 'cycle'", "non-empty list"),
    ('{"maze": ["SXZ"], "cycle": ' + json.dumps([1] * 17) + "}", "field 'cycle'", "17 moves is too long"),
    ('{"maze": "SXZ"}', "field 'maze'", "list of text rows"),
    ('{"maze": []}', "field 'maze'", "list of text rows"),
    ('{"maze": ["SX", 3]}', "field 'maze'", "list of text rows"),
    ('{"maze": ["SX", "QZ"]}', "field 'maze', row 1, column 0", "unknown character 'Q'"),
    ('{"maze": ["SX", "SZ"]}', "field 'maze', row 1, column 0",
     "the first is at field 'maze', row 0, column 0"),
    ('{"maze": ["SX", "XX"]}', "file", "no goal"),
    ('{"maze": ["SXZ"], "name": 5}', "field 'name'", "expected text"),
    ("[1, 2]", "file", "an object with 'maze'"),
    ('{"maze": ["SXZ",', "line 1, column 17", "not valid JSON"),
]


@pytest.mark.parametrize("text, where, message", BAD_JSON)
def test_bad_json_names_the_field(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        parse_step_json(text, "m", 10**6)
    assert err.value.where == where and message in err.value.message, str(err.value)


def test_a_json_file_has_its_cycle_and_name() -> None:
    maze = registry.load_puzzle(b'{"maze": ["SXXZ"], "cycle": [3], "name": "jump"}', "j.json")
    assert maze.cycle == (3,) and maze.name == "jump" and maze.source_format == "json"
    assert solve(maze, "bfs").json["cost"] == 1


@pytest.mark.parametrize("value, message", [
    ([], "non-empty list"), ([0], "0 is outside 1..1000"), ([1] * 17, "17 moves is too long"),
    ([2, 1001], "1001 is outside"), ("1,2", "list of whole numbers"), ([1.5], "list of whole numbers"),
])
def test_a_bad_cycle_option_is_refused_naming_it(value: Any, message: str) -> None:
    maze = load(Board(("SXZ",)))
    for refuse in (lambda: solve(maze, "bfs", {"cycle": value}),
                   lambda: registry.load_puzzle(b"SXZ\n", "m.txt", "step", options={"cycle": value})):
        with pytest.raises(PuzzleError) as err:
            refuse()
        assert err.value.where == "option 'cycle'" and message in err.value.message, str(err.value)


def test_size_limits_hold_before_the_board_is_allocated() -> None:
    tall = "S\n" + "X\n" * 1_998 + "Z\n"  # 2,000 lines
    with pytest.raises(PuzzleError) as err:
        parse_step_text(tall, "m", 50_000_000)
    assert err.value.where == "file" and "2,000 x 1 cells is too large" in err.value.message
    wide = "S" + "X" * 1_998 + "Z\n"  # 2,000 columns
    with pytest.raises(PuzzleError, match="1 x 2,000 cells is too large"):
        parse_step_text(wide, "m", 50_000_000)
    with pytest.raises(PuzzleError, match="too large"):
        parse_step_json(json.dumps({"maze": ["S", *["X"] * 1_998, "Z"]}), "m", 50_000_000)
    square = ("S" + "X" * 1_999 + "\n") + ("X" * 2_000 + "\n") * 1_998 + ("X" * 1_999 + "Z\n")
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(square.encode(), "big.txt")  # 4 MB: refused by its size in bytes
    assert err.value.where == "file" and "too large for a step maze" in err.value.message
    eleven_rows = "S" + "X" * 9 + "\n" + ("X" * 10 + "\n") * 9 + "X" * 9 + "Z\n"  # 110 cells
    with pytest.raises(PuzzleError, match=r"11 x 10 cells is too large \(at most 1,000 a side and 100 cells"):
        registry.load_puzzle(eleven_rows.encode(), "m.txt", "step", limits=LoadLimits(max_cells=100))


# --------------------------------------------------------------------------- detection by content
@pytest.mark.parametrize("data, name", [
    (SEED_FILE.read_bytes(), "step-seed-003.txt"),
    (SEED_FILE.read_bytes().replace(b".", b" "), "seed.txt"),  # the seed's own blanks: spaces
    ("\n".join(r.replace(".", " ").rstrip() for r in SEED_ROWS).encode(), "seed.txt"),
    (SEED_FILE.read_bytes(), "seed"),  # no extension
    (json.dumps({"maze": SEED_ROWS, "cycle": [1, 2, 3]}).encode(), "seed.json"),
    (json.dumps({"cycle": [2], "maze": SEED_ROWS}, indent=2).encode(), "seed.txt"),
])
def test_step_mazes_are_detected_by_content(data: bytes, name: str) -> None:
    assert registry.detect_family(name, data).name == "step"
    maze = registry.load_puzzle(data, name)
    assert maze.mark_rows() == SEED_ROWS


def test_grid_mazes_and_labyrinths_stay_theirs(shared_cases: Path) -> None:
    grid = b"#######\n#S....#\n#.###.#\n#....G#\n#######\n"
    assert registry.detect_family("m.txt", grid).name == "grid"
    assert registry.detect_family("m.txt", b"#####\n#S.Z#\n#####\n").name == "grid"  # walls: a grid maze
    for path in sorted((shared_cases / "labyrinth").iterdir()):
        assert registry.detect_family(path.name, path.read_bytes()).name == "labyrinth", path.name


# --------------------------------------------------------------------------- command line
def test_cli_solves_the_seed_maze_in_fifteen_moves() -> None:
    done = cli("solve", str(SEED_FILE), "--algorithm", "astar", "--cycle", "1,2,3", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["family"] == "step" and result["cost"] == 15 and result["optimal_guaranteed"]
    replay(Board(tuple(SEED_ROWS)), (1, 2, 3), result)
    assert result["moves"][0]["text"] == "1 south: (0, 0) → (1, 0)"
    words = cli("solve", str(SEED_FILE), "-a", "bfs")
    assert words.returncode == 0
    assert "reached the goal in 15 moves (optimal), cycle 1,2,3" in words.stdout
    assert "  15. " in words.stdout and " east: " in words.stdout


def test_cli_cycle_two_gives_another_answer_or_none() -> None:
    done = cli("solve", str(SEED_FILE), "--algorithm", "astar", "--cycle", "2", "--json")
    result = json.loads(done.stdout)
    assert result["cycle"] == [2]
    expected = Board(tuple(SEED_ROWS)).fewest_moves((2,))
    if expected is None:
        assert done.returncode == 2 and not result["found"] and result["moves"] == []
    else:
        assert result["cost"] == expected != 15
    bad = cli("solve", str(SEED_FILE), "--cycle", "0,2")
    assert bad.returncode == 1 and len(bad.stderr.strip().splitlines()) == 1 and "cycle" in bad.stderr


def test_cli_refuses_a_zenji_option_on_a_step_maze() -> None:
    done = cli("solve", str(SEED_FILE), "--flow", "free")
    assert done.returncode == 1 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert "--flow is an option of the zenji family" in line and "step" in line


def test_cli_generates_a_step_maze_it_can_solve(tmp_path: Path) -> None:
    out = tmp_path / "g.txt"
    made = cli("generate", "step", "10", "10", "--seed", "4", "--out", str(out))
    assert made.returncode == 0, made.stderr
    board = Board(tuple(out.read_text().splitlines()))
    assert (board.height, board.width) == (10, 10)
    done = cli("solve", str(out), "-a", "bidirectional", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["cost"] == board.fewest_moves((1, 2, 3))
    replay(board, (1, 2, 3), result)
    as_json = tmp_path / "g.json"
    assert cli("generate", "step", "6", "8", "--out", str(as_json)).returncode == 0
    assert json.loads(as_json.read_text())["cycle"] == [1, 2, 3]


# --------------------------------------------------------------------------- API and socket
INFO_KEYS = {"family", "id", "algorithms", "name", "rows", "cols", "width", "height", "marks", "start",
             "goals", "cycle", "max_cycle_length", "max_step", "options", "notes"}


@pytest.fixture
def app():
    return make_app(frame_records=50, frame_window=2, ack_timeout=5)


def test_the_api_describes_and_solves_the_seed_maze(app) -> None:
    info = upload(app, SEED_FILE.read_bytes(), "step-seed-003.txt")
    assert info["family"] == "step" and set(info) >= INFO_KEYS
    assert info["marks"] == SEED_ROWS and info["start"] == [0, 0] and info["goals"] == [[5, 5]]
    assert (info["rows"], info["cols"], info["width"], info["height"]) == (8, 6, 6, 8)
    assert info["cycle"] == [1, 2, 3] and info["options"] == {"cycle": {"default": [1, 2, 3]}}
    client = app.test_client()
    url = f"/api/puzzles/{info['id']}/solve"
    result = client.post(url, json={"algorithm": "astar", "cycle": [1, 2, 3]}).get_json()
    assert result["cost"] == 15
    replay(Board(tuple(SEED_ROWS)), (1, 2, 3), result)
    other = client.post(url, json={"algorithm": "bfs", "cycle": [1, 3]}).get_json()
    assert other["cycle"] == [1, 3]
    assert other["found"] is (Board(tuple(SEED_ROWS)).fewest_moves((1, 3)) is not None)
    refused = client.post(url, json={"algorithm": "bfs", "cycle": [0]})
    assert refused.status_code == 400 and "cycle" in refused.get_json()["error"]
    wrong = client.post(url, json={"algorithm": "bfs", "flow": "free"})
    assert wrong.status_code == 400 and "flow" in wrong.get_json()["error"]
    bad = app.test_client().post("/api/puzzles", data={"file": (io.BytesIO(b"S.S\nXZX\n"), "two.txt")})
    assert bad.status_code == 400
    assert bad.get_json()["error"].startswith("two.txt, line 1, column 3: a second start 'S'")
    families = {f["name"]: f for f in client.get("/api/families").get_json()}
    step_options = {o["name"] for o in families["step"]["options"]}
    assert step_options == {"heuristic", "weight", "formula", "code", "cycle"}


@pytest.mark.parametrize("cycle", [[1, 2, 3], [2, 2, 1]])
def test_a_socket_run_records_states_that_decode_to_cell_and_phase(app, cycle: list[int]) -> None:
    info = upload(app, SEED_FILE.read_bytes(), "step-seed-003.txt")
    client = socketio.test_client(app)
    ack = client.emit("run_start", {"run": "s1", "puzzle": info["id"], "algorithm": "bfs",
                                    "options": {"cycle": cycle}}, callback=True)
    assert ack == {"ok": True}
    seen = pump(client, "run_done", "s1")
    done = seen[-1]
    frames = [s for s in seen if s["name"] == "run_frame"]
    kinds, cells, values = records(frames)
    assert len(kinds) == done["records"] > 50
    period, size = len(cycle), info["rows"] * info["cols"]
    decoded = [divmod(int(state), period) for state in cells]
    assert all(0 <= cell < size and 0 <= phase < period for cell, phase in decoded)
    assert all(Board(tuple(SEED_ROWS)).marked(*divmod(cell, info["cols"])) for cell, _ in decoded)
    result = done["result"]
    expected = Board(tuple(SEED_ROWS)).fewest_moves(tuple(cycle))
    assert result["cost"] == expected and result["cycle"] == cycle
    on_path = [[*divmod(cell, info["cols"]), phase] for cell, phase in (decoded[i] for i in
               range(len(kinds)) if kinds[i] == 3)]
    assert on_path[::-1] == result["path"]  # Lee's backtrace: goal first
    assert values[kinds == 3][0] == expected
    client.disconnect()
