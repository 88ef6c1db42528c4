"""Grid mazes from text: ``#`` wall, ``.`` or space free, ``S`` start, ``G`` goal, ``1``-``9`` weight.

One character is one cell; a digit is a free cell that costs that much to enter (``.``, space,
``S`` and ``G`` cost 1). Every ``S`` is a start and every ``G`` a goal (the search begins at all
starts and stops at the nearest goal). Line ends may be ``\\n``, ``\\r\\n`` or ``\\r``. Blank lines
before and after the grid are ignored; lines shorter than the longest are padded with free cells
on the right (the same as trailing spaces). Tabs are an error: their width is a guess.
"""

from __future__ import annotations

import re

import numpy as np

from ...i18n import t
from ..errors import PuzzleError
from .model import GridMaze

# Cell value of each allowed character; every other byte maps to 255 (never a valid cell).
_CELL = np.full(256, 255, dtype=np.uint8)
_CELL[ord("#")] = 0
for _ch in ". SG":
    _CELL[ord(_ch)] = 1
for _d in range(1, 10):
    _CELL[ord(str(_d))] = _d
_INVALID = re.compile(r"[^#. SG1-9]")


DEFAULT_MAX_CELLS = 50_000_000


def parse_grid_text(text: str, name: str = "maze", max_cells: int = DEFAULT_MAX_CELLS) -> GridMaze:
    """Parse the text format into a ``GridMaze``; raise ``PuzzleError`` naming line and column.

    ``max_cells`` bounds rows x the longest line, checked before the grid is allocated (short
    lines are padded, so a small file can describe a huge grid).

    Missing ``S`` or ``G`` is not an error: the maze comes back with empty starts (goals) and
    ``endpoint_problem`` saying so, and the user picks the cell.
    """
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = 0
    while first < len(lines) and not lines[first].strip():
        first += 1
    last = len(lines)
    while last > first and not lines[last - 1].strip():
        last -= 1
    if first == last:
        raise PuzzleError(t("grid.file_empty_expected_rows_wall"), t("grid.file"))
    rows = lines[first:last]

    for number, line in enumerate(rows, start=first + 1):
        bad = _INVALID.search(line)
        if bad:
            raise PuzzleError(
                _unknown(bad.group()), t("grid.line_column", number=number, value=bad.start() + 1)
            )

    width = max(len(line) for line in rows)
    if width * len(rows) > max_cells:
        raise PuzzleError(
            t("grid.x_cells_more_than_this", width=width, n_rows=len(rows), max_cells=max_cells),
            t("grid.lines", value=first + 1, last=last),
        )
    grid = np.full((len(rows), width), ord("."), dtype=np.uint8)
    short = []
    for r, line in enumerate(rows):
        grid[r, : len(line)] = np.frombuffer(line.encode("ascii"), dtype=np.uint8)
        if len(line) < width:
            short.append(first + 1 + r)
    cells = _CELL[grid]
    if not cells.any():
        raise PuzzleError(
            t("grid.maze_has_no_free_cell", size=cells.size), t("grid.lines", value=first + 1, last=last)
        )

    starts = np.flatnonzero(grid == ord("S"))
    goals = np.flatnonzero(grid == ord("G"))
    notes = [t("grid.text_grid_x_cells", width=width, n_rows=len(rows))]
    if short:
        listed = ", ".join(map(str, short[:10])) + (", ..." if len(short) > 10 else "")
        notes.append(t("grid.line_shorter_than_characters_padded", listed=listed, width=width))
    if cells.max() > 1:
        notes.append(t("grid.weighted_digits_2_9_cost"))
    for label, letter, found in (("start", "S", starts), ("goal", "G", goals)):
        if len(found) > 1:
            notes.append(t("grid.end_cells", n=len(found), label=t(f"grid.word.{label}"), letter=letter))
    problems = [
        t("grid.no_cell_in_text", label=t(f"grid.word.{label}"), letter=letter)
        for label, letter, found in (("start", "S", starts), ("goal", "G", goals))
        if not len(found)
    ]
    problem = "; ".join(problems) or None
    return GridMaze(cells, starts, goals, name=name, source="text", notes=notes, endpoint_problem=problem)


def _unknown(char: str) -> str:
    if char == "\t":
        return t("grid.tab_character_use_spaces_or")
    if char in "sg":
        return t("grid.unknown_character_start_and_goal", char=char)
    if char == "0":
        return t("grid.unknown_character_0_weights_are")
    shown = char if char.isprintable() else f"U+{ord(char):04X}"
    return t("grid.unknown_character_allowed_wall_or", shown=shown)
