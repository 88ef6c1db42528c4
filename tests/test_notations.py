"""The course documents' own notations, each read by its own family (issue 30): seed 003's printed maze
(with and without its index row and column, and as the notebook's Python list), seed 001's board as its
README's Markdown table, and the 8-puzzle on one line with '/' between rows. Each parser's good inputs,
every error path with its place, detection (the grid never guesses at these), the registry's message when a
guess does not parse, and ``run.py solve`` on each notation cut from the seeds at run time.

The expected boards are the gallery's own transcriptions (``mazes/step-seed-003.txt``,
``mazes/zenji-seed-001.txt``), read here by the test's own few lines, not by the parsers under test.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.i18n import t
from server.puzzles import registry
from server.puzzles.errors import PuzzleError
from server.puzzles.family import LoadLimits
from server.puzzles.sliding.parse import parse_sliding_json, parse_sliding_text
from server.puzzles.step.parse import parse_step_text
from server.puzzles.step.pylist import looks_like_list, sniff_list
from server.puzzles.zenji.parse import parse_zenji_text
from server.solving import solve
from tests import notations
from tests.helpers import ROOT, browser, make_app, post_file
from tests.helpers import run_cli as cli

STEP_ROWS = (ROOT / "mazes" / "step-seed-003.txt").read_text().split()
ZENJI_TILES = [[[int(d) for d in group] for group in line.split()]
               for line in (ROOT / "mazes" / "zenji-seed-001.txt").read_text().splitlines()
               if line and not line.startswith("#")]
FAMILIES = {f.name: f for f in registry.families()}


def step(text: str):
    return parse_step_text(text, "m", 10**6)


def seed_list_rows() -> list[str]:
    """The seed's maze as rows of the notebook's Python list (no name, no numbers), one row a line."""
    rows = ["[" + ", ".join(f"'{' ' if ch == '.' else ch}'" for ch in row) + "]" for row in STEP_ROWS]
    return rows


# --------------------------------------------------------------------------- step: seed 003's list
def test_seed_003_as_printed_with_its_index_row_and_column() -> None:
    text = notations.seed003_printed()
    assert text.splitlines()[0].split() == ["0", "1", "2", "3", "4", "5"]  # the index row is really there
    maze = step(text)
    assert maze.mark_rows() == STEP_ROWS
    assert maze.source_format == "seed 003's printed list (with its index row and column)"
    assert solve(maze, "bfs").json["cost"] == 15


def test_seed_003_without_its_index_row_or_column() -> None:
    lines = notations.seed003_printed().splitlines()
    no_column = [re.sub(r"^\d", " ", line) for line in lines]
    for text, described in (("\n".join(lines[1:]), "(with its row numbers)"),
                            ("\n".join(no_column), "(with its index row)"),
                            ("\n".join(no_column[1:]), "a Python list")):
        maze = step(text)
        assert maze.mark_rows() == STEP_ROWS and described in maze.source_format, text


def test_the_notebooks_list_and_the_bare_list() -> None:
    cell = notations.seed003_notebook()
    assert cell.startswith("labyrinth = [")
    named = step(cell)
    assert named.mark_rows() == STEP_ROWS and named.source_format == "the Python list labyrinth = […]"
    bare = cell.split("=", 1)[1]
    assert step(bare).mark_rows() == STEP_ROWS
    # The whole notebook cell: its prompt and import lines are skipped.
    assert step("In [1]:\nfrom dict_helpers import peek\n\n\n" + cell).mark_rows() == STEP_ROWS


@pytest.mark.parametrize("text", [
    "[" + ", ".join(seed_list_rows()) + "]",  # print(labyrinth): one line
    "[" + ",\n ".join(seed_list_rows()) + "]",  # pprint
    "[\n" + "".join(f"  {row},\n" for row in seed_list_rows()) + "]  # trailing comma, a comment\n",
    "```python\n[" + ",\n ".join(seed_list_rows()) + "]\n```\n",  # a Markdown fence
    "### Ein 1-2-3-Labyrinth\n\n```python\nmaze = [" + ",\n ".join(seed_list_rows()) + "]\n ```\n",
    "(" + ", ".join(row.replace("[", "(").replace("]", ")") for row in seed_list_rows()) + ")",  # tuples
    "[" + ", ".join(row.replace("'", '"') for row in seed_list_rows()) + "]",  # double quotes
    json.dumps(STEP_ROWS),  # rows as strings: ["S.....", …]
    "[" + ", ".join(row.replace("' '", "''") for row in seed_list_rows()) + "]",  # '' blank
])
def test_every_way_a_student_prints_the_list(text: str) -> None:
    assert looks_like_list(text)
    maze = step(text)
    assert maze.mark_rows() == STEP_ROWS and maze.start == (0, 0) and maze.goals == ((5, 5),)


def test_the_whole_seed_003_document_reads_its_first_fenced_list() -> None:
    document = notations.seed(3)
    maze = step(document)
    assert maze.mark_rows() == STEP_ROWS
    first = document.splitlines().index("```python") + 2  # the block's first line, 1-based
    block = f"in the fenced block at lines {first}-{first + 8} (the rest not read)"
    assert maze.source_format.endswith(block)
    assert registry.detect_family("seed.md", document.encode()).name == "step"
    # A slip inside the block is still named where it is in the document.
    slipped = document.replace("5 ['X', ' ', ' ', ' ', ' ', 'Z'],", "5 ['X', ' ', ' ', ' ', ' ', 'Q'],")
    with pytest.raises(PuzzleError) as err:
        step(slipped)
    assert err.value.where == f"line {first + 6}, column 29" and "unknown cell 'Q'" in err.value.message


BAD_LISTS = [
    # (text, where, a fragment of the message)
    ("[['S', 'Q', 'Z']]", "line 1, column 8", "unknown cell 'Q'"),
    ("[['S', 'x', 'Z']]", "line 1, column 8", "the capitals 'S' and 'Z'"),
    ("[['S', 'X'],\n ['X']]", "line 2, column 2", "row 1 has 1 cells and row 0 has 2"),
    ("[['S', 'XX', 'Z']]", "line 1, column 8", "a cell holds one character, got 'XX'"),
    ("[['S', 1, 'Z']]", "line 1, column 8", "a number where a cell belongs"),
    ("[['S', ['X'], 'Z']]", "line 1, column 8", "a list inside a row where a cell belongs"),
    ("[['S' 'X', 'Z']]", "line 1, column 7", "expected ',' or ']' after a cell, got \"'X'\""),
    ("[['S', 'X', 'Z')]", "line 1, column 16", "expected ',' or ']' after a cell, got ')'"),
    ("[['S', 'X', 'Z'] ['X', 'X', 'X']]", "line 1, column 18", "expected ',' or ']' after row 0"),
    ("[['S', 'X', 'Z]]", "line 1, column 13", "a string that is not closed on its line"),
    ("[['S', '\\n', 'Z']]", "line 1, column 8", "not closed on its line (or holds a backslash escape"),
    ("labyrinth [['S', 'X', 'Z']]", "line 1, column 1", "a name and '=' may come first"),
    ("labyrinth =\n", "line 2, column 1", "expected '[' opening the maze's list of rows, got the end of"),
    ("[['S', 'X', 'Z']] x", "line 1, column 19", "'x' after the maze's list"),
    ("[['S', 'X', 'Z']]\nprint(labyrinth)", "line 2, column 1", "'print' after the maze's list"),
    ("[['S', 'X', 'Z'],\n", "line 2, column 1", "got the end of the text"),
    ("[]", "line 1, column 1", "the list has no rows"),
    ("[[]]", "line 1, column 2", "row 0 has no cells"),
    ("[['S', 'X', 'Z'] ; @]", "line 1, column 18", "unexpected ';' in a maze's list"),
    ("    0    1    2\n0[['S', 'Z']]", "line 1, column 5", "the index row reads '0 1 2', and the"),
    ("0[['S', 'X'],\n2 ['X', 'Z']]", "line 2, column 1", "row number 2 before row 1 (counting from 0)"),
    ("7[['S', 'X'],\n8 ['X', 'Z']]", "line 1, column 1", "row number 7 before row 0"),
    ("0 1 [['S', 'Z']]", "line 1, column 5", "after a row of numbers: an index row stands on a line of its"),
    ("[['S', 'X'], 3]", "line 1, column 14", "a number where a cell or row belongs"),
    ("[['S', 'X'],\n 5\n]", "line 3, column 1", "expected the row after its number 5"),
    ("[['S', 'X', 'X']]", "file", "no goal: mark at least one cell 'Z'"),
    ("[['X', 'X', 'Z']]", "file", "no start: mark one cell 'S'"),
    ("[['S', 'S', 'Z']]", "line 1, column 8", "a second start 'S' (the first is at line 1, column 3)"),
    ("[\n  ['S', 'X'],\n  ['S', 'Z'],\n]", "line 3, column 4", "(the first is at line 2, column 4)"),
    ("[" + ", ".join(["['S', 'Z']", *["['X', 'X']"] * 1_000]) + "]", "line 1, column 12_002",
     "more than 1,000 rows"),
]


@pytest.mark.parametrize("text, where, message", BAD_LISTS)
def test_a_bad_list_names_what_and_where(text: str, where: str, message: str) -> None:
    where = where.replace("_", "")
    with pytest.raises(PuzzleError) as err:
        step(text)
    assert err.value.where == where and message in err.value.message, str(err.value)


def test_a_list_is_held_to_the_board_limits() -> None:
    row = "[" + ", ".join(["'X'"] * 40) + "]"
    text = "[['S', " + ", ".join(["'X'"] * 38) + ", 'Z'], " + ", ".join([row] * 39) + "]"
    assert step(text).rows == 40
    with pytest.raises(PuzzleError, match=r"40 x 40 cells is too large \(at most 1,000 a side and 1,000"):
        registry.load_puzzle(text.encode(), "m.txt", "step", limits=LoadLimits(max_cells=1_000))
    wide = "[['S', " + ", ".join(["'X'"] * 1_000) + "]]"
    with pytest.raises(PuzzleError) as err:
        step(wide)
    assert "more than 1,000 cells in row 0" in err.value.message
    assert err.value.where.startswith("line 1, column")


def test_the_lists_detection_is_sure_and_the_grid_never_guesses_at_it() -> None:
    for name, text in (("seed.txt", notations.seed003_printed()), ("cell.py", notations.seed003_notebook()),
                       ("seed.md", "```python\n" + notations.seed003_printed() + "\n```\n")):
        data = text.encode()
        assert registry.detect_family(name, data).name == "step"
        assert FAMILIES["step"].sniff(name, data) == 0.96
        assert FAMILIES["grid"].sniff(name, data) == 0.0
        assert registry.load_puzzle(data, name).mark_rows() == STEP_ROWS
    # A list with a slip is still the step family's (its error is in its words), sure enough to say so.
    slip = b"[['S', 'X', 'Q', 'Z']]"
    assert FAMILIES["step"].sniff("m.txt", slip) == 0.85
    with pytest.raises(PuzzleError, match="unknown cell 'Q'") as err:
        registry.load_puzzle(slip, "m.txt")
    assert "The others read" not in str(err.value)
    # Not a step maze's list: no 'X' or 'Z' cell, or not a list at all.
    for text in ("[['a', 'b']]", "[1, 2, 3]", "x = 5", "S.X\nXXZ\n", "3223 2010\n1221 0004\n"):
        assert sniff_list(text, complete=True) == 0.0, text


def test_a_large_list_is_claimed_from_its_first_rows() -> None:
    row = "[" + ", ".join(["'X'"] * 200) + "]"
    text = "labyrinth = [\n  ['S', " + ", ".join(["'X'"] * 199) + "],\n" + f"  {row},\n" * 100 + \
        "  [" + ", ".join(["'X'"] * 199) + ", 'Z'],\n]\n"
    data = text.encode()
    assert len(data) > 4096 * 10  # the sniffer sees a sample: it ends inside the list
    assert FAMILIES["step"].sniff("big.py", data) == 0.96
    maze = registry.load_puzzle(data, "big.py")
    assert (maze.rows, maze.cols, maze.goals) == (102, 200, ((101, 199),))


# --------------------------------------------------------------------------- zenji: seed 001's table
def test_seed_001_board_table_alone_the_readme_section_and_the_whole_readme() -> None:
    for text, lines in ((notations.seed001_board_table(), "lines 3-6"),
                        (notations.seed001_section(), "lines 18-21"),
                        (notations.seed(1), "lines 29-32")):
        board = parse_zenji_text(text, "seed")
        assert board.tile_rows() == ZENJI_TILES
        assert (board.source, board.drain, board.flow) == ((0, 0), (3, 3), "downhill")
        assert board.source_format == f"a Markdown table (its rows of tiles at {lines})"
    assert solve(parse_zenji_text(notations.seed001_section(), "seed"), "dijkstra").json["cost"] == 7


def test_the_section_has_three_tables_and_only_the_board_is_read() -> None:
    section = notations.seed001_section()
    starts = [i for i, line in enumerate(section.splitlines())
              if line.startswith("|") and not section.splitlines()[i - 1].startswith("|")]
    assert len(starts) == 3  # the coordinate example, the board, the one-tile figure


def cells(rows: list[list[str]], number: bool = True) -> str:
    """A Markdown table of these cells (a header and separator first; row numbers when ``number``)."""
    width = len(rows[0])
    head = "| n x m | " + " | ".join(str(c) for c in range(width)) + " |\n"
    head += "|" + " --- |" * (width + 1) + "\n"
    return head + "".join(("| " + str(r) + " | " if number else "| ") + " | ".join(row) + " |\n"
                          for r, row in enumerate(rows))


SMALL = [["3, 2, 2, 3", "0, 0, 1, 2"], ["0, 0, 0, 0", "1, 4, 4, 1"]]


@pytest.mark.parametrize("text", [
    cells(SMALL),
    cells(SMALL, number=False),
    cells([["3223", "0012"], ["0000", "1441"]]),
    cells([["[3, 2, 2, 3]", "[0,0,1,2]"], ["3 2 2 3".replace("3", "0"), "1 4 4 1"]]),
    "| 3, 2, 2, 3 | 0, 0, 1, 2 |\n| 0, 0, 0, 0 | 1, 4, 4, 1 |\n",  # rows alone, no header
    "| 3, 2, 2, 3 | 0, 0, 1, 2\n| 0, 0, 0, 0 | 1, 4, 4, 1\n",  # without the closing pipes
    "   " + cells(SMALL).replace("\n|", "\n   |"),  # indented
])
def test_every_way_the_table_may_be_written(text: str) -> None:
    board = parse_zenji_text(text, "t")
    assert (board.rows, board.cols, board.source, board.drain) == (2, 2, (0, 0), (1, 1))


def test_two_boards_the_first_is_read_and_the_notes_say_so() -> None:
    other = cells([["3, 2, 2, 3", "4, 0, 0, 1"]])
    board = parse_zenji_text(cells(SMALL) + "\nand another:\n\n" + other + "# flow: free\n", "t")
    assert board.rows == 2 and board.flow == "free"
    assert board.source_format == ("a Markdown table (its rows of tiles at lines 3-4; 1 later table of tiles "
                                   "not read)")


BAD_TABLES = [
    (cells([["3, 2, 2", "0, 0, 1, 2"], ["0, 0, 0, 0", "1, 4, 4, 1"]]), "line 3, column 7",
     "expected four side codes N E S W such as '3, 2, 2, 3', got '3, 2, 2'"),
    (cells([["3, 2, 2, 3", "0, 0, 1, 2"], ["0, 0, 0, 0", "1, 4, 5, 1"]]), "line 4, column 20",
     "side code 5 is not one of 0 closed, 1 inlet, 2 outlet, 3 source, 4 drain"),
    (cells([["3, 2, 2, 3", " "], ["0, 0, 0, 0", "1, 4, 4, 1"]]), "line 3, column 19",
     "an empty cell where a tile belongs"),
    (cells([["3, 2, 2, 3", "0, 0, 1, 2"], ["0, 0, 0, 0"]]), "line 4", "1 tiles, but line 3 has 2: every row"),
    (cells(SMALL).replace("| 1 |", "| 1, 1, 1, 1 |"), "line 4, column 3",
     "expected the row's number in the table's first column"),
    (cells(SMALL).replace("| 1 | 0, 0, 0, 0 | 1, 4, 4, 1 |", "| 1 |"), "line 4",
     "a row of the table with no tiles"),
    (cells([["0, 0, 2, 2", "0, 0, 1, 2"], ["0, 0, 0, 0", "1, 4, 4, 1"]]), "file",
     "no source: one tile needs side code 3"),
    (cells([["3, 2, 2, 3", "0, 4, 1, 2"], ["0, 0, 0, 0", "1, 4, 4, 1"]]), "line 4, column 20",
     "a second drain (code 4); the first is at line 3, column 20"),
    ("| a | b |\n| --- | --- |\n| 0, 0 | 0, 1 |\n\n| w | e |\n|---|---|\n| 1 | 0 |\n", "file",
     "no board among the text's 2 Markdown tables: a board's cells are four side codes N E S W"),
    ("|" + " 3, 2, 2, 3 |" * 33 + "\n|" + " 1, 4, 4, 1 |" * 33 + "\n", "lines 1-2", "more than 32 tiles"),
    (cells(SMALL) + "# flow: uphill\n", "line 5", "'uphill' is not one of: downhill, free"),
]


@pytest.mark.parametrize("text, where, message", BAD_TABLES)
def test_a_bad_table_names_what_and_where(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        parse_zenji_text(text, "t")
    assert err.value.where == where and message in err.value.message, str(err.value)


def test_the_tables_detection() -> None:
    for name, text in (("README.md", notations.seed(1)), ("section.md", notations.seed001_section()),
                       ("board.txt", notations.seed001_board_table())):
        data = text.encode()
        assert registry.detect_family(name, data).name == "zenji", name
        assert FAMILIES["zenji"].sniff(name, data) == 0.97
        assert FAMILIES["grid"].sniff(name, data) == 0.0
    slip = BAD_TABLES[0][0].encode()
    assert registry.detect_family("t.md", slip).name == "zenji"
    assert FAMILIES["zenji"].sniff("t.md", slip) == 0.9
    # The board's table beyond the first 4 KB of a README: still found.
    long = ("A task from the C64 game. " * 200 + "\n\n| x | y |\n| --- | --- |\n| 1 | 2 |\n\n"
            + "more prose\n" * 300 + notations.seed001_board_table())
    assert len(long.encode()) > 8192
    assert registry.detect_family("README.md", long.encode()).name == "zenji"
    assert registry.load_puzzle(long.encode(), "README.md").tile_rows() == ZENJI_TILES


# --------------------------------------------------------------------------- sliding: '/' between rows
BLANK_FIRST = bytes(range(9))
AIMA_TILES = bytes([7, 2, 4, 5, 0, 6, 8, 3, 1])


@pytest.mark.parametrize("text", [
    notations.AIMA_WITH_GOAL,  # the goal on the next line
    f"{notations.AIMA_LINE} goal: {notations.AIMA_GOAL_LINE}",  # on the same line
    f"{notations.AIMA_LINE}\n{notations.AIMA_GOAL_LINE}\n",  # a second one-line board
    f"{notations.AIMA_LINE} -> {notations.AIMA_GOAL_LINE}",
    f"{notations.AIMA_LINE} => {notations.AIMA_GOAL_LINE}",
    f"{notations.AIMA_LINE} → {notations.AIMA_GOAL_LINE}",
    f"start: {notations.AIMA_LINE}\nZiel: {notations.AIMA_GOAL_LINE}\n",
    "7 2 4 / 5 _ 6 / 8 3 1\ngoal: _ 1 2 / 3 4 5 / 6 7 8\n",  # the blank as '_'
    f"```\n{notations.AIMA_LINE}\n{notations.AIMA_GOAL_LINE}\n```\n",  # a Markdown fence
    f"# AIMA figure 3.28\n{notations.AIMA_LINE}\ngoal:\n0 1 2\n3 4 5\n6 7 8\n",  # the goal in rows
    "7 2 4 5 0 6 8 3 1\n0 1 2 3 4 5 6 7 8\n",  # two of Korf's one-line boards
    "[[7, 2, 4], [5, 0, 6], [8, 3, 1]]\ngoal: (0, 1, 2, 3, 4, 5, 6, 7, 8)\n",  # as Python prints them
    "[[7, 2, 4],\n [5, 0, 6],\n [8, 3, 1]]\ngoal: [[0, 1, 2], [3, 4, 5], [6, 7, 8]]\n",
])
def test_the_8_puzzle_line_and_its_goal(text: str) -> None:
    board = parse_sliding_text(text, "aima")
    assert (board.tiles, board.goal) == (AIMA_TILES, BLANK_FIRST)
    assert "goal: the blank first, then 1 … 8 (Korf's)" in board.notes
    assert solve(board, "astar").json["cost"] == 26


def test_a_bare_slash_line_gets_the_textbooks_goal_and_says_so() -> None:
    """The one-line '/' form is AIMA's and Korf's notation: a bare line gets their goal, the blank first."""
    board = parse_sliding_text(notations.AIMA_LINE, "aima")
    assert board.goal == bytes(range(9))
    assert board.notes == ("read as text, one line, '/' between rows",
                           "goal: the blank first, then 1 … 8 (Korf's) (the one-line form's default, AIMA's: "
                           "no goal given)")
    assert solve(board, "astar").json["cost"] == 26  # AIMA's figure 3.28


def test_bare_rows_keep_the_familys_default_goal() -> None:
    """The same board in rows (PUZZLES.md's text form) keeps the spec's default, 1 … 8 then the blank."""
    board = parse_sliding_text("7 2 4\n5 0 6\n8 3 1\n", "aima")
    assert board.goal == bytes([1, 2, 3, 4, 5, 6, 7, 8, 0])
    assert "goal: 1 … 8, then the blank (the default: no goal given)" in board.notes
    assert solve(board, "astar").json["cost"] == 20


KORF_12 = "14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15"  # korf100.txt: 45 moves to the goal with the blank first


def test_a_default_goal_out_of_reach_by_parity_names_the_goal_in_reach() -> None:
    slashed = " / ".join(" ".join(KORF_12.split()[r * 4:r * 4 + 4]) for r in range(4))
    assert parse_sliding_text(slashed, "korf").goal == bytes(range(16))  # the '/' form's own goal
    for text in (KORF_12,):
        with pytest.raises(PuzzleError) as err:
            parse_sliding_text(text, "korf")
        message = err.value.message
        assert err.value.where == "board" and message.startswith("unsolvable by parity")
        assert ("That was the default, the goal 1 … 15, then the blank; this board does reach the goal "
                "with the blank first (0 1 … 15, Korf's): add the line "
                "'goal: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15'") in message
        fixed = parse_sliding_text(text + "\ngoal: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", "korf")
        assert fixed.goal == bytes(range(16))
    # The other way round: a board that reaches only the default goal, given the blank-first one.
    with pytest.raises(PuzzleError) as err:
        parse_sliding_text("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\ngoal: " + " ".join(map(str, range(16))),
                           "b")
    assert ("That was the goal with the blank first (0 1 … 15, Korf's); this board does reach the goal "
            "1 … 15, then the blank: add the line 'goal: 1 2 3") in err.value.message
    # JSON says it in JSON.
    with pytest.raises(PuzzleError) as err:
        parse_sliding_json(json.dumps({"tiles": [int(t) for t in KORF_12.split()]}), "k")
    assert 'give "goal": [0, 1, 2, 3' in err.value.message
    # On a 3 x 3 board both goals have the same parity: no other goal to name.
    with pytest.raises(PuzzleError) as err:
        parse_sliding_text("7 2 4 / 5 0 6 / 3 8 1", "swapped")
    assert "unsolvable by parity" in err.value.message and "That was" not in err.value.message


BAD_SLASHES = [
    ("7 2 4 // 5 0 6 / 8 3 1", "line 1, column 8", "no numbers between two '/'"),
    ("7 2 4 / 5 0 6 / 8 3 1 /", "line 1, column 24", "no numbers between two '/'"),
    ("7 2 4 / 5 0 6 8 / 3 1", "line 1, column 9", "a row of 4 numbers in the board: a 3 x 3 board's rows"),
    ("7 2 4 / 5 0 6 / 8 3", "line 1", "the board has 8 numbers: expected 9, 16 or 25"),
    ("7 2 x / 5 0 6 / 8 3 1", "line 1, column 5", "'x' is not a tile number"),
    ("7 2 4 / 5 0 6 / 8 3 1 -> 0 1 2 / 3 4 5 / 6 7", "line 1", "the goal has 8 numbers, and the board's"),
    ("7 2 4 / 5 0 6 / 8 3 1 -> 0 1 2 -> 3 4 5", "line 1, column 32", "a second '->' (a file has one goal)"),
    ("7 2 4 / 5 0 6 / 8 3 1\n0 1 2 / 3 4 5 / 6 7 7", "line 2, column 21", "7 appears twice in the goal"),
    ("7 2 4 / 5 _ 6 / 8 3 _", "line 1, column 21", "0 appears twice in the board"),
    ("7 2 4 / 5 0 6 / 8 3 1 goal: 0 1 2 / 3 4 5 6 / 7 8", "line 1, column 37", "a row of 4 numbers in the"),
]


@pytest.mark.parametrize("text, where, message", BAD_SLASHES)
def test_a_bad_line_names_what_and_where(text: str, where: str, message: str) -> None:
    with pytest.raises(PuzzleError) as err:
        parse_sliding_text(text, "b")
    assert err.value.where == where and message in err.value.message, str(err.value)


def test_the_lines_detection_is_sure_even_with_a_slip() -> None:
    sliding, grid = FAMILIES["sliding"], FAMILIES["grid"]
    for text in (notations.AIMA_LINE, notations.AIMA_WITH_GOAL):
        assert registry.detect_family("b.txt", text.encode()).name == "sliding"
        assert sliding.sniff("b.txt", text.encode()) == 0.96 and grid.sniff("b.txt", text.encode()) == 0.0
    for text, _, message in BAD_SLASHES:
        if "x" in text:
            continue  # a word among the numbers: a guess (below)
        data = text.encode()
        assert registry.detect_family("b.txt", data).name == "sliding", text
        assert sliding.sniff("b.txt", data) >= registry.SURE, text
        with pytest.raises(PuzzleError, match=re.escape(message)) as err:
            registry.load_puzzle(data, "b.txt")
        assert "The others read" not in str(err.value)  # the family was sure: its own words alone
    typo = b"7 2 x / 5 0 6 / 8 3 1"
    assert registry.detect_family("b.txt", typo).name == "sliding" and sliding.sniff("b.txt", typo) == 0.5
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(typo, "b.txt")
    assert "'x' is not a tile number" in str(err.value)
    assert "Not a sliding-tile puzzle? The others" in str(err.value)


# --------------------------------------------------------------------------- the registry's messages
def test_a_guess_that_does_not_parse_says_what_every_other_family_reads() -> None:
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(b"hello world\n", "notes.txt")
    message = err.value.message
    assert err.value.where == "line 1, column 1"  # the grid's place for its own complaint
    assert message.startswith("unknown character 'h'") and "Not a grid maze? The others read: " in message
    others = [f for f in FAMILIES.values() if f.name != "grid"]
    assert all(f"{t(f.title)}: {t(f.expects)}" in message for f in others)
    assert t(FAMILIES["grid"].expects) not in message
    # A sliding board's count of numbers is a guess too: its error, then the others.
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(b"1 2 3\n4 5 6\n7 8 8\n", "b.txt")
    assert "8 appears twice" in err.value.message
    assert "Not a sliding-tile puzzle? The others read" in err.value.message
    # A family forced by the caller is no guess.
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(b"hello world\n", "notes.txt", "grid")
    assert "The others read" not in err.value.message


def test_the_messages_stay_short_enough_for_the_banner() -> None:
    with pytest.raises(PuzzleError) as err:
        registry.load_puzzle(b"hello world\n", "notes.txt")
    assert len(str(err.value)) < 1_000
    with pytest.raises(PuzzleError) as err:
        registry.detect_family("x.bin", b"\x00\x01")
    assert len(str(err.value)) < 1_000
    assert all(len(t(f.expects)) <= 200 for f in FAMILIES.values())


def test_the_expects_name_the_new_notations() -> None:
    assert "seed 003's Python list" in t(FAMILIES["step"].expects)
    assert "name = [" in t(FAMILIES["step"].expects)
    assert "Markdown table" in t(FAMILIES["zenji"].expects)
    assert "7 2 4 / 5 0 6 / 8 3 1" in t(FAMILIES["sliding"].expects)


def test_an_upload_the_grid_guessed_at_answers_with_every_familys_words() -> None:
    app = make_app()
    answer = post_file(browser(app), b"hello world\n", "notes.txt")
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error.startswith("notes.txt, line 1, column 1: unknown character 'h'")
    assert "Not a grid maze? The others read: " in error and "Markdown table" in error
    forced = post_file(browser(app), b"hello world\n", "notes.txt", family="grid")
    assert forced.status_code == 400 and "The others read" not in forced.get_json()["error"]


# --------------------------------------------------------------------------- the command line
def test_run_py_solve_reads_each_notation_with_its_optimum(tmp_path: Path) -> None:
    files = [
        (notations.write(tmp_path, "seed003.txt", notations.seed003_printed()), "step", 15),
        (notations.write(tmp_path, "labyrinth.py", notations.seed003_notebook()), "step", 15),
        (notations.write(tmp_path, "bare.txt", notations.seed003_notebook().split("=", 1)[1]), "step", 15),
        (notations.write(tmp_path, "seed003.md", notations.seed(3)), "step", 15),
        (notations.write(tmp_path, "board.md", notations.seed001_board_table()), "zenji", 7),
        (notations.write(tmp_path, "karte.md", notations.seed001_section()), "zenji", 7),
        (notations.write(tmp_path, "README.md", notations.seed(1)), "zenji", 7),
        (notations.write(tmp_path, "aima.txt", notations.AIMA_WITH_GOAL), "sliding", 26),
        (notations.write(tmp_path, "arrow.txt", f"{notations.AIMA_LINE} -> {notations.AIMA_GOAL_LINE}\n"),
         "sliding", 26),
    ]
    for path, family, cost in files:
        done = cli("solve", str(path), "--json")
        assert done.returncode == 0, (path.name, done.stderr)
        result = json.loads(done.stdout)
        found = (result["family"], result["cost"], result["optimal_guaranteed"])
        assert found == (family, cost, True), path.name
    words = cli("solve", str(tmp_path / "seed003.txt"), "-a", "bfs")
    assert "seed003.txt: bfs reached the goal in 15 moves (optimal)" in words.stdout
    words = cli("solve", str(tmp_path / "karte.md"), "-a", "dijkstra")
    assert "made the water flow with 7 quarter turns (optimal)" in words.stdout


def test_run_py_solve_names_the_slip_in_the_familys_words(tmp_path: Path) -> None:
    slip = notations.seed003_printed().replace("'Z'", "'Q'")
    done = cli("solve", str(notations.write(tmp_path, "slip.txt", slip)))
    assert done.returncode != 0
    assert "slip.txt: line 7, column 29: unknown cell 'Q'" in done.stderr, done.stderr
    assert "weights are 1-9" not in done.stderr and "The others read" not in done.stderr
    done = cli("solve", str(notations.write(tmp_path, "notes.txt", "hello world\n")))
    assert done.returncode != 0 and "Not a grid maze? The others read: " in done.stderr


# --------------------------------------------------------------------------- hostile texts
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet="[](),'\" SXZ.xq019=ab#\n`", max_size=120))
def test_the_list_reader_refuses_anything_in_words(text: str) -> None:
    try:
        step(text)
    except PuzzleError as err:
        assert err.where and err.message
    assert sniff_list(text, complete=True) in (0.0, 0.85, 0.96)
    assert sniff_list(text, complete=False) in (0.0, 0.85, 0.96)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet="| -:0123456789,[]\nab#;", max_size=160))
def test_the_table_reader_refuses_anything_in_words(text: str) -> None:
    try:
        parse_zenji_text(text, "t")
    except PuzzleError as err:
        assert err.where and err.message
    assert FAMILIES["zenji"].sniff("t.md", text.encode()) in (0.0, 0.6, 0.9, 0.97)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(alphabet="0123456789 /_->→goalGOAL:start\n#x", max_size=120))
def test_the_slash_reader_refuses_anything_in_words(text: str) -> None:
    try:
        parse_sliding_text(text, "b")
    except PuzzleError as err:
        assert err.where and err.message


@pytest.mark.parametrize("text", [
    "| 1" + " " * 200_000 + "x |\n",  # a cell of spaces: a regular expression once backtracked for minutes
    "| " + "3, " * 60_000 + " |\n| 1, 4, 4, 1 |\n",
    "[" * 1_000_000,
    "[['X'" + ", 'X'" * 300_000 + "]]",
    "0 " * 500_000 + "\n[['S', 'Z']]",
    "7 2 4 / " * 12_000,
    "goal" + " " * 90_000 + ":",
])
def test_a_large_hostile_text_is_refused_quickly(text: str) -> None:
    data = text.encode()
    started = time.monotonic()
    for family in ("step", "zenji", "sliding"):
        FAMILIES[family].sniff("x.txt", data)
        try:
            registry.load_puzzle(data, "x.txt", family)
        except PuzzleError as err:
            assert err.message
    assert time.monotonic() - started < 5, "seconds, not minutes"
