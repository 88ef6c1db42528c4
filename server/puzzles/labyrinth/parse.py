"""Parsers for the shifting-tile labyrinth: seed 000's CSV, seed 002's padded JSON, the project's JSON.

Every value can come from three places; the first that has it wins: an explicit option
(``LabyrinthOptions``, from the UI or the command line), the file, the defaults of ``PUZZLES.md``
(start below column 0, goal above the last column, rows 0, 2, 4, … pushed from the left and rows
1, 3, … from the right, combined moves, no column pushes, no turning of the free tile).
Every error is a ``PuzzleError`` whose ``where`` names the line, field or option at fault.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...i18n import t
from ..capabilities import Saver
from ..errors import PuzzleError, show_value
from ..jsonfile import read_json
from .model import BOARD_CODES, LabyrinthPuzzle, insertion_points

MOVE_MODELS = ("combined", "separate")
MAX_SIDE = 64  # tiles per side; the search is exponential long before that


@dataclass(frozen=True)
class LabyrinthOptions:
    """What a user may set; ``None`` means "take it from the file, else the default"."""

    moves: str | None = None  # "combined" or "separate"
    start_col: int | None = None  # the player starts below this column
    goal_col: int | None = None  # and leaves above this one
    left_rows: Sequence[int] | None = None  # rows the free tile is pushed into from the left
    right_rows: Sequence[int] | None = None  # ... from the right
    push_columns: bool | None = None  # the board game's column pushes
    top_cols: Sequence[int] | None = None  # columns pushed from the top (push_columns: even ones)
    bottom_cols: Sequence[int] | None = None  # ... from the bottom (push_columns: odd ones)
    rotate_free: bool | None = None  # the free tile may be turned before it is pushed in


@dataclass
class _FileValues:
    """What a file said, before options and defaults are applied."""

    board: list[list[int]]
    free: int
    start_col: int | None = None
    goal_col: int | None = None
    left_rows: list[int] | None = None
    right_rows: list[int] | None = None
    top_cols: list[int] | None = None
    bottom_cols: list[int] | None = None
    moves: str | None = None
    rotate_free: bool | None = None
    name: str | None = None
    where_start: str = "labyrinth.start_column_2"
    where_goal: str = "labyrinth.goal_column_2"
    where_rows: tuple[str, str] = ("labyrinth.left_rows", "labyrinth.right_rows")
    where_cols: tuple[str, str] = ("labyrinth.top_columns", "labyrinth.bottom_columns")


# ------------------------------------------------------------------------------------------------ CSV
def parse_labyrinth_csv(
    text: str, options: LabyrinthOptions | None = None, name: str = "labyrinth"
) -> LabyrinthPuzzle:
    """Seed 000's CSV: one line per board row (codes separated by ``;``), the free tile last (``2;;;``)."""
    lines = [(n, line.strip()) for n, line in enumerate(text.lstrip("\ufeff").splitlines(), start=1)]
    while lines and not lines[-1][1]:
        lines.pop()
    if not lines:
        raise PuzzleError(t("labyrinth.file_empty"), t("labyrinth.line_1"))
    for n, line in lines:
        if not line:
            raise PuzzleError(t("labyrinth.empty_line_inside_board"), t("labyrinth.line_4", n=n))
    delimiter = ";" if ";" in lines[0][1] or "," not in lines[0][1] else ","
    split = [(n, [field.strip() for field in line.split(delimiter)]) for n, line in lines]
    width = len(split[0][1])
    if len(split) < 2:
        raise PuzzleError(
            t("labyrinth.free_tile_missing_last_line"),
            t("labyrinth.line_2", value=split[0][0] + 1),
        )
    *board_lines, (free_line, free_fields) = split
    if width > 1 and len(free_fields) == width and all(free_fields):
        raise PuzzleError(
            t("labyrinth.free_tile_missing_last_line_2", width=width),
            t("labyrinth.line_2", value=free_line + 1),
        )
    board = []
    for n, fields in board_lines:
        if len(fields) != width:
            raise PuzzleError(
                t(
                    "labyrinth.expected_tile_codes_like_line",
                    width=width,
                    split=split[0][0],
                    n_fields=len(fields),
                ),
                t("labyrinth.line_4", n=n),
            )
        board.append([_csv_code(value, n, k) for k, value in enumerate(fields, start=1)])
    if not free_fields[0]:
        raise PuzzleError(
            t("labyrinth.free_tile_missing_first_field"),
            t("labyrinth.line_field_1", free_line=free_line),
        )
    free = _csv_code(free_fields[0], free_line, 1)
    extra = [value for value in free_fields[1:] if value]
    if extra:
        raise PuzzleError(
            t("labyrinth.free_tile_line_holds_only", free_fields=show_value(';'.join(free_fields))),
            t("labyrinth.line_3", free_line=free_line),
        )
    values = _FileValues(board=board, free=free)
    return _build(values, options or LabyrinthOptions(), name, "csv")


def _csv_code(value: str, line: int, field: int) -> int:
    where = t("labyrinth.line_field", line=line, field=field)
    if not value:
        raise PuzzleError(t("labyrinth.empty_field_where_tile_code"), where)
    try:
        code = int(value)
    except ValueError:
        raise PuzzleError(
            t("labyrinth.unknown_tile_code_codes_are_2", value=show_value(value)), where
        ) from None
    if code not in BOARD_CODES:
        raise PuzzleError(t("labyrinth.unknown_tile_code_codes_are", code=code), where)
    return code


# ----------------------------------------------------------------------------------------------- JSON
def parse_labyrinth_json(
    text: str, options: LabyrinthOptions | None = None, name: str = "labyrinth"
) -> LabyrinthPuzzle:
    """Seed 002's padded JSON (``tiles`` + ``freeTile``) or the project's own (``board``): by content."""
    data = read_json(text)
    if not isinstance(data, dict):
        raise PuzzleError(t("labyrinth.labyrinth_json_file_must_hold"), t("labyrinth.file"))
    options = options or LabyrinthOptions()
    if "board" in data:
        return _build(_project_values(data), options, _name(data.get("name"), name), "project")
    if "tiles" in data:
        return _build(_seed002_values(data), options, name, "seed002")
    raise PuzzleError(
        t("labyrinth.not_labyrinth_expected_field_board"),
        t("labyrinth.file"),
    )


def _seed002_values(data: dict[str, Any]) -> _FileValues:
    """Seed 002: the board padded by one row above (goal) and below (start); positions count it."""
    tiles = data["tiles"]
    for r, code, where in _codes(tiles, "tiles", 3, t("labyrinth.list_at_least_3_rows")):
        padding = r in (0, len(tiles) - 1)
        if not isinstance(code, int) or isinstance(code, bool):
            raise PuzzleError(t("labyrinth.tile_code_must_be_integer", code=show_value(code)), where)
        if padding and code not in (10, 11):
            raise PuzzleError(t("labyrinth.padding_rows_hold_only_10", code=code), where)
        if not padding and code not in BOARD_CODES:
            raise PuzzleError(t("labyrinth.unknown_tile_code_board_codes", code=code), where)
    width = len(tiles[0])
    if "freeTile" not in data:
        raise PuzzleError(t("labyrinth.free_tile_missing"), t("labyrinth.field_freetile"))
    free = _int_code(data["freeTile"], t("labyrinth.field_freetile"))
    last = len(tiles) - 1
    start_row, start_col = _seed002_position(data, "startingPosition", width)
    goal_row, goal_col = _seed002_position(data, "goalPosition", width)
    if start_row != last:
        raise PuzzleError(
            t("labyrinth.start_must_be_in_bottom", last=last, start_row=start_row),
            t("labyrinth.field_startingposition_row"),
        )
    if goal_row != 0:
        raise PuzzleError(
            t("labyrinth.goal_must_be_in_top", goal_row=goal_row), t("labyrinth.field_goalposition_row")
        )
    left = right = None
    inputs = data.get("rowsWithTileInput")
    if inputs is not None:
        if not isinstance(inputs, dict):
            raise PuzzleError(
                t("labyrinth.must_be_object_left_right"), t("labyrinth.field_rowswithtileinput")
            )
        # Padded row numbers: board row = padded row - 1; the padding rows cannot be pushed.
        left = [r - 1 for r in _int_list(inputs.get("left", []), t("labyrinth.field_rowswithtileinput_left"))]
        right = [
            r - 1 for r in _int_list(inputs.get("right", []), t("labyrinth.field_rowswithtileinput_right"))
        ]
    return _FileValues(
        board=tiles[1:-1],
        free=free,
        start_col=start_col,
        goal_col=goal_col,
        left_rows=left,
        right_rows=right,
        where_start=t("labyrinth.field_startingposition_column"),
        where_goal=t("labyrinth.field_goalposition_column"),
        where_rows=(
            t("labyrinth.field_rowswithtileinput_left"),
            t("labyrinth.field_rowswithtileinput_right"),
        ),
    )


def _codes(rows: Any, key: str, min_rows: int, shape: str) -> Iterator[tuple[int, Any, str]]:
    """Each code of the field ``key``, a list of at least ``min_rows`` rows of one width (``shape``
    says so when it is not), as (row, code, where); a row of another width is refused when reached."""
    if not isinstance(rows, list) or len(rows) < min_rows or not all(isinstance(r, list) for r in rows):
        raise PuzzleError(t("labyrinth.must_be", shape=shape), t("labyrinth.field", key_=key))
    width = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != width:
            raise PuzzleError(t("labyrinth.expected_codes_like_row_0", width=width, n_row=len(row)),
                              t("labyrinth.field_row_2", key_=key, r=r))
        for c, code in enumerate(row):
            yield r, code, t("labyrinth.field_row_column", key_=key, r=r, c=c)


def _seed002_position(data: dict[str, Any], key: str, width: int) -> tuple[int, int]:
    value = data.get(key)
    if not isinstance(value, dict) or "row" not in value or "column" not in value:
        raise PuzzleError(t("labyrinth.missing_or_not_row_r"), t("labyrinth.field", key_=key))
    return _int(value["row"], t("labyrinth.field_row", key_=key)), _int(
        value["column"], t("labyrinth.field_column", key_=key)
    )


def _project_values(data: dict[str, Any]) -> _FileValues:
    """The project's JSON: every name spelled out (example in ``docs/LABYRINTH.md``)."""
    known = {
        "family",
        "format",
        "version",
        "name",
        "board",
        "free_tile",
        "start_column",
        "goal_column",
        "insert_rows",
        "insert_columns",
        "moves",
        "rotate_free_tile",
    }
    unknown = sorted(set(data) - known)
    if unknown:
        shown = ", ".join(
            key if len(key) <= 40 and key.isprintable() else show_value(key) for key in unknown[:5]
        )
        shown += ", ..." if len(unknown) > 5 else ""
        raise PuzzleError(
            t("labyrinth.unknown_field_known", shown=shown, known=", ".join(sorted(known))),
            t("labyrinth.file"),
        )
    family = data.get("family", "labyrinth")
    if family != "labyrinth":
        raise PuzzleError(
            t("labyrinth.expected_labyrinth_found", family=show_value(family)), t("labyrinth.field_family")
        )
    board = data["board"]
    for _r, code, where in _codes(board, "board", 1, t("labyrinth.non_empty_list_rows_tile")):
        if not isinstance(code, int) or isinstance(code, bool) or code not in BOARD_CODES:
            raise PuzzleError(t("labyrinth.unknown_tile_code_codes_are", code=show_value(code)), where)
    if "free_tile" not in data:
        raise PuzzleError(t("labyrinth.free_tile_missing"), t("labyrinth.field_free_tile"))
    values = _FileValues(board=board, free=_int_code(data["free_tile"], t("labyrinth.field_free_tile")))
    values.where_start, values.where_goal = (
        t("labyrinth.field_start_column"),
        t("labyrinth.field_goal_column"),
    )
    if "start_column" in data:
        values.start_col = _int(data["start_column"], t("labyrinth.field_start_column"))
    if "goal_column" in data:
        values.goal_col = _int(data["goal_column"], t("labyrinth.field_goal_column"))
    rows = _sides(data, "insert_rows", ("left", "right"))
    if rows is not None:
        values.left_rows, values.right_rows = rows
        values.where_rows = (t("labyrinth.field_insert_rows_left"), t("labyrinth.field_insert_rows_right"))
    cols = _sides(data, "insert_columns", ("top", "bottom"))
    if cols is not None:
        values.top_cols, values.bottom_cols = cols
        values.where_cols = (
            t("labyrinth.field_insert_columns_top"),
            t("labyrinth.field_insert_columns_bottom"),
        )
    if "moves" in data:
        values.moves = data["moves"]
        if values.moves not in MOVE_MODELS:
            raise PuzzleError(
                t(
                    "labyrinth.expected_one_found_2",
                    move_models=", ".join(MOVE_MODELS),
                    moves=show_value(values.moves),
                ),
                t("labyrinth.field_moves"),
            )
    if "rotate_free_tile" in data:
        if not isinstance(data["rotate_free_tile"], bool):
            raise PuzzleError(t("labyrinth.expected_true_or_false"), t("labyrinth.field_rotate_free_tile"))
        values.rotate_free = data["rotate_free_tile"]
    return values


def _sides(data: dict[str, Any], key: str, sides: tuple[str, str]) -> tuple[list[int], list[int]] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - set(sides):
        raise PuzzleError(
            t("labyrinth.expected", sides=sides[0], sides2=sides[1]), t("labyrinth.field", key_=key)
        )
    return (
        _int_list(value.get(sides[0], []), t("labyrinth.field_2", key_=key, sides=sides[0])),
        _int_list(value.get(sides[1], []), t("labyrinth.field_2", key_=key, sides=sides[1])),
    )


def puzzle_to_json(puzzle: LabyrinthPuzzle) -> dict[str, Any]:
    """The project's JSON for ``puzzle`` (``parse_labyrinth_json`` reads it back to an equal puzzle)."""
    rows = {"left": [], "right": []}
    cols = {"top": [], "bottom": []}
    for point in puzzle.insertions:
        (rows if point.axis == "row" else cols)[point.side].append(point.index)
    out: dict[str, Any] = {
        "family": "labyrinth",
        "name": puzzle.name,
        "board": puzzle.board_rows(),
        "free_tile": puzzle.free,
        "start_column": puzzle.start_col,
        "goal_column": puzzle.goal_col,
        "insert_rows": rows,
        "moves": puzzle.moves,
        "rotate_free_tile": puzzle.rotate_free,
    }
    if cols["top"] or cols["bottom"]:
        out["insert_columns"] = cols
    return out


def run_variant(puzzle: LabyrinthPuzzle, options: Mapping[str, Any]) -> LabyrinthPuzzle:
    """The puzzle with the run's start/goal column (options ``start_col``, ``goal_col``: checked like
    the file's own values)."""
    start_col, goal_col = options.get("start_col"), options.get("goal_col")
    if start_col is None and goal_col is None:
        return puzzle
    labyrinth = LabyrinthOptions(start_col=start_col, goal_col=goal_col)
    return parse_labyrinth_json(json.dumps(puzzle_to_json(puzzle)), labyrinth, puzzle.name)


class LabyrinthSaver(Saver):
    """The project's JSON (everything), or seed 000's CSV (tiles and free tile only: refused when the
    board sets anything else the CSV would lose)."""

    formats = ("json", "csv")

    def save(self, puzzle: LabyrinthPuzzle, fmt: str | None = None) -> bytes:
        if self.check_format(fmt, puzzle) == "json":
            return self.json_file(puzzle_to_json(puzzle))
        rows = [";".join(str(code) for code in row) for row in puzzle.board_rows()]
        text = "\n".join([*rows, str(puzzle.free) + ";" * (puzzle.cols - 1)]) + "\n"
        again = parse_labyrinth_csv(text, LabyrinthOptions(), puzzle.name)
        lost = [what for what, same in (
            (t("labyrinth.start_column_3", start_col=puzzle.start_col), again.start_col == puzzle.start_col),
            (t("labyrinth.goal_column_3", goal_col=puzzle.goal_col), again.goal_col == puzzle.goal_col),
            (t("labyrinth.its_insertion_points"), again.insertions == puzzle.insertions),
            (t("labyrinth.moves_model", moves=puzzle.moves), again.moves == puzzle.moves),
            (t("labyrinth.turning_free_tile"), again.rotate_free == puzzle.rotate_free),
        ) if not same]
        if lost:
            raise PuzzleError(
                t("labyrinth.csv_holds_tiles_and_free", lost=', '.join(lost)), t("labyrinth.format"),
            )
        return text.encode()


# ------------------------------------------------------------------------------------ shared checks
def _name(value: Any, fallback: str) -> str:
    """The file's ``name`` when it is a string or a number, else the file name's."""
    if not value or isinstance(value, bool) or not isinstance(value, str | int | float):
        return fallback
    return value if isinstance(value, str) else show_value(value)


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PuzzleError(t("labyrinth.expected_integer_found", value=show_value(value)), where)
    return value


def _int_code(value: Any, where: str) -> int:
    code = _int(value, where)
    if code not in BOARD_CODES:
        raise PuzzleError(t("labyrinth.unknown_tile_code_codes_are", code=code), where)
    return code


def _int_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list | tuple):
        raise PuzzleError(t("labyrinth.expected_list_integers_found", value=show_value(value)), where)
    return [_int(v, where) for v in value]


def _build(values: _FileValues, options: LabyrinthOptions, name: str, source: str) -> LabyrinthPuzzle:
    """Apply options over file values over defaults, check them all, and make the puzzle."""
    board = values.board
    rows, cols = len(board), len(board[0])
    if rows < 1 or cols < 1:
        raise PuzzleError(t("labyrinth.board_has_no_tiles"), t("labyrinth.board"))
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise PuzzleError(
            t("labyrinth.board_x_at_most_x", rows=rows, cols=cols, max_side=MAX_SIDE), t("labyrinth.board")
        )

    def pick(
        option: Any, file_value: Any, where_file: str, where_option: str, default: Any
    ) -> tuple[Any, str]:
        if option is not None:
            return option, where_option
        if file_value is not None:
            return file_value, where_file
        return default, where_option

    start_col, where = pick(
        options.start_col, values.start_col, values.where_start, t("labyrinth.option_start_col"), 0
    )
    _check_index(start_col, cols, "column", where)
    goal_col, where = pick(
        options.goal_col, values.goal_col, values.where_goal, t("labyrinth.option_goal_col"), cols - 1
    )
    _check_index(goal_col, cols, "column", where)

    left, where_left = pick(
        options.left_rows,
        values.left_rows,
        values.where_rows[0],
        t("labyrinth.option_left_rows"),
        range(0, rows, 2),
    )
    right, where_right = pick(
        options.right_rows,
        values.right_rows,
        values.where_rows[1],
        t("labyrinth.option_right_rows"),
        range(1, rows, 2),
    )
    for r in left:  # seed 002 counts the padding row: report its numbers back in its terms
        _check_index(r, rows, "row", where_left, 1 if "rowsWithTileInput" in where_left else 0)
    for r in right:
        _check_index(r, rows, "row", where_right, 1 if "rowsWithTileInput" in where_right else 0)

    top: Sequence[int] = ()
    bottom: Sequence[int] = ()
    if options.push_columns is not False:
        top_default = bottom_default = ()
        if options.push_columns:  # mirror the task's row layout: even columns from the top
            top_default, bottom_default = range(0, cols, 2), range(1, cols, 2)
        top, where_top = pick(
            options.top_cols,
            values.top_cols,
            values.where_cols[0],
            t("labyrinth.option_top_cols"),
            top_default,
        )
        bottom, where_bottom = pick(
            options.bottom_cols,
            values.bottom_cols,
            values.where_cols[1],
            t("labyrinth.option_bottom_cols"),
            bottom_default,
        )
        for c in top:
            _check_index(c, cols, "column", where_top)
        for c in bottom:
            _check_index(c, cols, "column", where_bottom)

    moves = options.moves or values.moves or "combined"
    if moves not in MOVE_MODELS:
        expected = ", ".join(MOVE_MODELS)
        raise PuzzleError(
            t("labyrinth.expected_one_found", expected=expected, moves=show_value(moves)),
            t("labyrinth.option_moves"),
        )
    rotate_free = bool(options.rotate_free if options.rotate_free is not None else values.rotate_free)
    return LabyrinthPuzzle(
        rows=rows,
        cols=cols,
        board=bytes(code for row in board for code in row),
        free=values.free,
        start_col=start_col,
        goal_col=goal_col,
        insertions=insertion_points(left, right, top, bottom),
        moves=moves,
        rotate_free=rotate_free,
        name=name,
        source_format=source,
    )


def _check_index(value: Any, size: int, what: str, where: str, shift: int = 0) -> None:
    """``value`` must be a row/column index of the board (``shift``: the file counts padding rows)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise PuzzleError(t("labyrinth.expected_number_found", what=what, value=show_value(value)), where)
    if not 0 <= value < size:
        plural = "rows" if what == "row" else "columns"
        raise PuzzleError(
            t(
                "labyrinth.does_not_exist_board_are",
                what=what,
                value=value + shift,
                plural=plural,
                shift=shift,
                value2=size - 1 + shift,
            )
            + (t("labyrinth.seed_002_counts_padding_row") if shift else ""),
            where,
        )
