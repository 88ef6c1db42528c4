"""Editing a shifting-tile labyrinth: the operations the page's editor sends (docs/PROTOCOL.md, "Generate
and edit").

``{"op": "tile", "cell": [r, c], "code": k}``        the tile there becomes code k (0-9, ``PUZZLES.md`` §3)
``{"op": "turn", "cell": [r, c], "times": k}``       that tile turned k quarter turns clockwise (k 0-3,
                                                      default 1): its code becomes the turned shape's
``{"op": "free", "code": k}``                         the free tile becomes code k (0-9)
``{"op": "turn_free", "times": k}``                   the free tile turned k quarter turns clockwise
``{"op": "columns", "start_col": a, "goal_col": b}``  where the player enters (below column a) and leaves
                                                      (above column b); either may be left out
``{"op": "insertions", "left_rows": [...], "right_rows": [...], "top_cols": [...], "bottom_cols": [...]}``
                                                      the insertion points (each list optional: left out,
                                                      it stays); ``"push_columns": true`` is the columns'
                                                      default layout (even from the top, odd from the
                                                      bottom), ``false`` none
``{"op": "rules", "moves": "combined"|"separate", "rotate_free": true|false}``  either may be left out
``{"op": "resize", "rows": R, "cols": C}``           keep the top-left part, new tiles straight │ (8)

Every operation keeps the board valid: codes 0-9 on the board and as the free tile, the start and goal
columns and every insertion point's row or column on the board (1 to 64 tiles a side). A resize keeps
the task's default layout when the board had it (rows 0, 2, ... from the left, 1, 3, ... from the right,
the goal above the last column) and otherwise drops the insertion points that fall off and moves a
start or goal column beyond the edge onto the last column. A board need not be solvable to be valid;
the search says when there is no way out. Anything else is refused with the operation's number.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...i18n import t
from ..capabilities import Editor
from ..errors import PuzzleError, show_value
from ..making import cell_of, whole
from .model import (
    BOARD_CODES,
    InsertionPoint,
    LabyrinthPuzzle,
    insertion_points,
    rotate,
)
from .parse import MAX_SIDE, MOVE_MODELS

OPS = ("tile", "turn", "free", "turn_free", "columns", "insertions", "rules", "resize")
NEW_TILE = 8  # │: what a resize fills new cells with
_LISTS = {"left_rows": ("row", "left"), "right_rows": ("row", "right"),
          "top_cols": ("col", "top"), "bottom_cols": ("col", "bottom")}


def edit_labyrinth(puzzle: LabyrinthPuzzle, edits: list[dict[str, Any]]) -> LabyrinthPuzzle:
    """``puzzle`` with ``edits`` applied in order (a new puzzle; ``puzzle`` is unchanged)."""
    for number, op in enumerate(edits, start=1):
        where = t("labyrinth.edit_where", number=number, op=str(op.get('op'))[:20])
        puzzle = _apply(puzzle, op, where)
    return puzzle


def _apply(puzzle: LabyrinthPuzzle, op: dict[str, Any], where: str) -> LabyrinthPuzzle:
    kind = op["op"]
    if kind in ("tile", "turn"):
        row, col = cell_of(op.get("cell"), puzzle.rows, puzzle.cols, where)
        index = row * puzzle.cols + col
        board = bytearray(puzzle.board)
        if kind == "tile":
            board[index] = _code(op.get("code"), where)
        else:
            board[index] = rotate(board[index], _times(op, where))
        return replace(puzzle, board=bytes(board))
    if kind == "free":
        return replace(puzzle, free=_code(op.get("code"), where))
    if kind == "turn_free":
        return replace(puzzle, free=rotate(puzzle.free, _times(op, where)))
    if kind == "columns":
        if "start_col" not in op and "goal_col" not in op:
            raise PuzzleError(t("labyrinth.name_start_col_goal_col"), where)
        last = puzzle.cols - 1
        start = whole(op.get("start_col", puzzle.start_col), 0, last, where, t("labyrinth.column_number"))
        goal = whole(op.get("goal_col", puzzle.goal_col), 0, last, where, t("labyrinth.column_number"))
        return replace(puzzle, start_col=start, goal_col=goal)
    if kind == "insertions":
        return replace(puzzle, insertions=_insertions(puzzle, op, where))
    if kind == "rules":
        moves = op.get("moves", puzzle.moves)
        if moves not in MOVE_MODELS:
            raise PuzzleError(
                t(
                    "labyrinth.expected_moves_got",
                    move_models=" or ".join(MOVE_MODELS),
                    moves=show_value(moves),
                ),
                where,
            )
        rotate_free = op.get("rotate_free", puzzle.rotate_free)
        if not isinstance(rotate_free, bool):
            raise PuzzleError(
                t("labyrinth.expected_rotate_free_true_or", rotate_free=show_value(rotate_free)), where
            )
        return replace(puzzle, moves=moves, rotate_free=rotate_free)
    if kind == "resize":
        return _resize(puzzle, op, where)
    raise PuzzleError(
        t("labyrinth.unknown_operation_labyrinth_takes", kind=show_value(kind), ops=", ".join(OPS)), where
    )


def _code(value: Any, where: str) -> int:
    return whole(value, BOARD_CODES.start, BOARD_CODES.stop - 1, where, t("labyrinth.tile_code_0_9"))


def _times(op: dict[str, Any], where: str) -> int:
    return whole(op.get("times", 1), 0, 3, where, t("labyrinth.number_quarter_turns_0_3"))


def _insertions(puzzle: LabyrinthPuzzle, op: dict[str, Any], where: str) -> tuple[InsertionPoint, ...]:
    lists = {key: [p.index for p in puzzle.insertions if (p.axis, p.side) == axis_side]
             for key, axis_side in _LISTS.items()}
    if "push_columns" in op:
        on = op["push_columns"]
        if not isinstance(on, bool):
            raise PuzzleError(t("labyrinth.expected_push_columns_true_or", on=show_value(on)), where)
        lists["top_cols"] = list(range(0, puzzle.cols, 2)) if on else []
        lists["bottom_cols"] = list(range(1, puzzle.cols, 2)) if on else []
    for key, (axis, _side) in _LISTS.items():
        if key not in op:
            continue
        raw = op[key]
        word = "row" if axis == "row" else "column"
        if not isinstance(raw, list) or len(raw) > MAX_SIDE:
            raise PuzzleError(
                t("labyrinth.expected_list_numbers_got", key_=key, word=word, raw=show_value(raw)), where
            )
        size = puzzle.rows if axis == "row" else puzzle.cols
        what = t("labyrinth.word_number", word=word)
        lists[key] = [whole(value, 0, size - 1, f"{where}, '{key}'", what) for value in raw]
    return insertion_points(lists["left_rows"], lists["right_rows"], lists["top_cols"], lists["bottom_cols"])


def _resize(puzzle: LabyrinthPuzzle, op: dict[str, Any], where: str) -> LabyrinthPuzzle:
    rows = whole(op.get("rows"), 1, MAX_SIDE, where, t("labyrinth.number_rows"))
    cols = whole(op.get("cols"), 1, MAX_SIDE, where, t("labyrinth.number_columns"))
    board = bytearray([NEW_TILE]) * (rows * cols)
    for r in range(min(rows, puzzle.rows)):
        keep = min(cols, puzzle.cols)
        board[r * cols : r * cols + keep] = puzzle.board[r * puzzle.cols : r * puzzle.cols + keep]
    task_layout = insertion_points(range(0, puzzle.rows, 2), range(1, puzzle.rows, 2))
    if puzzle.insertions == task_layout:  # the default layout grows and shrinks with the board
        points = insertion_points(range(0, rows, 2), range(1, rows, 2))
    else:
        points = tuple(p for p in puzzle.insertions if p.index < (rows if p.axis == "row" else cols))
    goal = cols - 1 if puzzle.goal_col == puzzle.cols - 1 else min(puzzle.goal_col, cols - 1)
    return replace(puzzle, rows=rows, cols=cols, board=bytes(board), insertions=points,
                   start_col=min(puzzle.start_col, cols - 1), goal_col=goal)


class LabyrinthEditor(Editor):
    """The page's labyrinth editor: the operations above (``edit_labyrinth``)."""

    def edit(self, puzzle: LabyrinthPuzzle, edits: list[dict[str, Any]]) -> LabyrinthPuzzle:
        return edit_labyrinth(puzzle, edits)
