"""Step-maze files: seed 003's text grid, its printed Python list and the project's JSON, with errors
naming line and column.

Text: one board row per line; 'S' start, 'Z' goal, 'X' marked; '.' or a space is a blank cell.
Short lines are padded with blank cells (editors strip trailing spaces); trailing empty lines are
dropped. The same maze as seed 003 prints it, a Python list of rows (with or without its index row
and column, or as the notebook's cell ``name = [...]``), is read by ``pylist.py``.
JSON: ``{"maze": ["S.....", …], "cycle": [1, 2, 3], "name": "…"}`` (``cycle`` and
``name`` optional).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...i18n import t
from ..capabilities import TextOrJsonSaver
from ..errors import PuzzleError, show_value
from ..jsonfile import read_json
from .model import DEFAULT_CYCLE, StepMaze
from .pylist import looks_like_list, read_list

MAX_SIDE = 1_000  # rows or columns
MAX_FILE_BYTES = 2_000_000  # a 1,000 x 1,000 board is ~1 MB of text
MAX_CYCLE_LENGTH = 16  # moves in one cycle
MAX_STEP = 1_000  # cells in one move
MARKED = {"S", "X", "Z"}
BLANK = {".", " "}
ALLOWED = "step.start_z_goal_x_marked"


def check_cycle(values: Sequence[Any], where: str) -> tuple[int, ...]:
    """A step cycle: 1 to MAX_CYCLE_LENGTH whole numbers, each from 1 to MAX_STEP."""
    if not isinstance(values, list | tuple) or not values:
        raise PuzzleError(t("step.expected_non_empty_list_step", values=show_value(values)), where)
    if len(values) > MAX_CYCLE_LENGTH:
        raise PuzzleError(
            t("step.cycle_moves_too_long_at", n_values=len(values), max_cycle_length=MAX_CYCLE_LENGTH), where
        )
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_STEP:
            raise PuzzleError(
                t("step.step_lengths_are_whole_numbers", max_step=MAX_STEP, value=show_value(value)), where
            )
    return tuple(values)


def parse_step_text(text: str, name: str, max_cells: int) -> StepMaze:
    """Seed 003's grid as text: rows of marks, or the Python list the seed prints."""
    if looks_like_list(text):
        listed = read_list(text)
        return _build(listed.rows, name, DEFAULT_CYCLE, max_cells, listed.describe(), listed.where)
    lines = text.removeprefix("\ufeff").splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise PuzzleError(t("step.file_has_no_rows"), t("step.file"))
    return _build([line.rstrip("\r") for line in lines], name, DEFAULT_CYCLE, max_cells, "text", _line_where)


def parse_step_json(text: str, name: str, max_cells: int) -> StepMaze:
    """The project's JSON: ``maze`` (rows of text), optional ``cycle`` and ``name``."""
    data = read_json(text)
    if not isinstance(data, dict):
        raise PuzzleError(t("step.expected_object_with_maze_got", name=type(data).__name__), t("step.file"))
    rows = data.get("maze")
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        raise PuzzleError(t("step.expected_list_text_rows_such"), t("step.field_maze"))
    cycle = check_cycle(data["cycle"], t("step.field_cycle")) if "cycle" in data else DEFAULT_CYCLE
    given = data.get("name")
    if given is not None and not isinstance(given, str):
        raise PuzzleError(t("step.expected_text_got", given=show_value(given)), t("step.field_name"))
    return _build(rows, (given or name)[:80], cycle, max_cells, "json", _row_where)


def _line_where(row: int, col: int | None = None) -> str:
    return t("step.line", value=row + 1) + ("" if col is None else t("step.where_column", column=col + 1))


def _row_where(row: int, col: int | None = None) -> str:
    return t("step.field_maze_row", row=row) + ("" if col is None else t("step.where_column", column=col))


def _build(
    rows: list[str], name: str, cycle: tuple[int, ...], max_cells: int, source: str, where
) -> StepMaze:
    height = len(rows)
    width = max(len(row) for row in rows)
    if height > MAX_SIDE or width > MAX_SIDE or height * width > max_cells:
        raise PuzzleError(
            t(
                "step.board_x_cells_too_large",
                height=height,
                width=width,
                max_side=MAX_SIDE,
                max_cells=max_cells,
            ),
            t("step.file"),
        )
    if width == 0:
        raise PuzzleError(t("step.every_row_empty"), t("step.file"))
    marked = bytearray(height * width)
    start: tuple[int, int] | None = None
    goals: list[tuple[int, int]] = []
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char in BLANK:
                continue
            if char not in MARKED:
                raise PuzzleError(
                    t("step.unknown_character_allowed", char=repr(char), allowed=t(ALLOWED)), where(r, c)
                )
            marked[r * width + c] = 1
            if char == "S":
                if start is not None:
                    raise PuzzleError(t("step.second_start_first_at", where=where(*start)), where(r, c))
                start = (r, c)
            elif char == "Z":
                goals.append((r, c))
    if start is None:
        raise PuzzleError(t("step.no_start_mark_one_cell"), t("step.file"))
    if not goals:
        raise PuzzleError(t("step.no_goal_mark_at_least"), t("step.file"))
    return StepMaze(height, width, bytes(marked), start, tuple(goals), cycle, name, source)


def maze_to_text(maze: StepMaze) -> str:
    """Seed 003's text form (blank cells as '.')."""
    return "\n".join(maze.mark_rows()) + "\n"


def maze_to_json(maze: StepMaze) -> dict[str, Any]:
    return {"name": maze.name, "maze": maze.mark_rows(), "cycle": list(maze.cycle)}


def cycle_text(cycle: tuple[int, ...]) -> str:
    """A step cycle as typed: "1,2,3"."""
    return ",".join(str(k) for k in cycle)


class StepSaver(TextOrJsonSaver):
    """Text (seed 003's form: the cycle 1,2,3 only) or JSON (any cycle)."""

    json_indent = 1

    def default_format(self, puzzle: StepMaze) -> str:
        """Text, unless the maze has its own cycle, which only the JSON can hold."""
        return "txt" if puzzle.cycle == DEFAULT_CYCLE else "json"

    def to_text(self, puzzle: StepMaze) -> str:
        if puzzle.cycle != DEFAULT_CYCLE:
            raise PuzzleError(
                t("step.text_form_has_no_step", cycle_text=cycle_text(puzzle.cycle)), t("step.format")
            )
        return maze_to_text(puzzle)

    def to_json(self, puzzle: StepMaze) -> dict[str, Any]:
        return maze_to_json(puzzle)
