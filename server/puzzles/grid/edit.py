"""Editing a grid maze: the operations the page's editor sends (docs/PROTOCOL.md, "Generate and edit").

``{"op": "paint", "value": V, "cells": [i, ...]}``  cells (flat indices) become V: 0 wall, 1-9 cost
``{"op": "start", "cell": [r, c]}``                  the one start (a free cell)
``{"op": "goal", "cell": [r, c]}``                   the one goal (a free cell)
``{"op": "clear"}``                                   every cell free (cost 1); start and goal stay
``{"op": "resize", "rows": R, "cols": C}``           keep the top-left part, new cells free
``{"op": "cells", "rows": R, "cols": C, "values": B}``  the whole board: B is base64 of R x C bytes 0-9

Every operation keeps the board valid: the start and goal stay on free cells inside the board
(a paint that would wall them is refused, a resize moves them inside), or the edit is refused
with the operation's number.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

import numpy as np

from ...i18n import t
from ..capabilities import Editor
from ..errors import PuzzleError, show_value
from ..making import cell_of, whole
from ..options import whole_list
from .model import WALL, GridMaze

MAX_SIDE = 5_000  # rows or columns a resize may ask for
# Cells of a board the editor changes (a generated 1000 x 1000-cell maze is 2001 x 2001): each edit
# copies the board and saves it to hash it, and a client keeps 20 puzzles, so a far larger upload is
# searched and shown but not edited (docs: README "Limits").
MAX_EDIT_CELLS = 5_000_000


def edit_grid(maze: GridMaze, edits: list[dict[str, Any]]) -> GridMaze:
    """``maze`` with ``edits`` applied in order (a new maze; ``maze`` is unchanged)."""
    if maze.cells.size > MAX_EDIT_CELLS:
        raise PuzzleError(
            t("grid.this_board_has_cells_boards", size=maze.cells.size, max_edit_cells=MAX_EDIT_CELLS),
            t("grid.edits"),
        )
    cells = maze.cells.copy()
    starts, goals = maze.starts.copy(), maze.goals.copy()
    for number, op in enumerate(edits, start=1):
        where = t("grid.edit_where", number=number, op=str(op.get('op'))[:20])
        kind = op["op"]
        if kind == "paint":
            _paint(cells, op, starts, goals, where)
        elif kind in ("start", "goal"):
            row, col = cell_of(op.get("cell"), *cells.shape, where)
            if cells[row, col] == WALL:
                raise PuzzleError(
                    t("grid.cannot_be_on_wall", kind=t(f"grid.end.{kind}"), row=row, col=col), where
                )
            point = np.array([row * cells.shape[1] + col], dtype=np.int64)
            starts, goals = (point, goals) if kind == "start" else (starts, point)
        elif kind == "clear":
            cells[:] = 1
        elif kind == "resize":
            cells, starts, goals = _resize(cells, op, starts, goals, where)
        elif kind == "cells":
            cells, starts, goals = _whole_board(op, starts, goals, cells.shape, where)
        else:
            raise PuzzleError(
                t("grid.unknown_operation_grid_maze_takes", kind=show_value(kind)),
                where,
            )
    notes = [n for n in maze.notes if not n.startswith("edited")] + [t("grid.edited_in_page")]
    problem = None if (len(starts) and len(goals)) else (maze.endpoint_problem or t("grid.no_start_or_goal"))
    return GridMaze(cells, starts, goals, maze.name, maze.source, notes, problem)


def _paint(cells: np.ndarray, op: dict[str, Any], starts: np.ndarray, goals: np.ndarray, where: str) -> None:
    value = whole(op.get("value"), 0, 9, where, t("grid.cell_value_0_wall_9"))
    raw = op.get("cells")
    if isinstance(raw, list) and len(raw) > cells.size:  # more than the board has: not a stroke
        raise PuzzleError(t("grid.cells_more_than_board", n_raw=len(raw), size=cells.size), where)
    flat = cells.reshape(-1)
    # Each a cell index on the board, checked as Python ints before numpy sees them (2**64 overflowed it)
    index = np.asarray(whole_list(raw, 0, flat.size - 1, f"{where}, 'cells'", t("grid.cell_index"), flat.size,
                                  t("grid.board_cells", size=flat.size)), dtype=np.int64)
    if value == WALL:
        for label, ends in (("start", starts), ("goal", goals)):
            hit = np.intersect1d(index, ends)
            if hit.size:
                row, col = divmod(int(hit[0]), cells.shape[1])
                raise PuzzleError(
                    t("grid.move_it_before_putting_wall", row=row, col=col, label=t(f"grid.end.{label}")),
                    where,
                )
    flat[index] = value


def _resize(
    cells: np.ndarray, op: dict[str, Any], starts: np.ndarray, goals: np.ndarray, where: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = whole(op.get("rows"), 1, MAX_SIDE, where, t("grid.number_rows"))
    cols = whole(op.get("cols"), 1, MAX_SIDE, where, t("grid.number_columns"))
    if rows * cols > MAX_EDIT_CELLS:
        raise PuzzleError(
            t("grid.x_cells_over_editor_limit", rows=rows, cols=cols, max_edit_cells=MAX_EDIT_CELLS), where
        )
    if rows * cols < 2:
        raise PuzzleError(t("grid.board_needs_at_least_2"), where)
    old_rows, old_cols = cells.shape
    grown = np.ones((rows, cols), dtype=np.uint8)
    keep_r, keep_c = min(rows, old_rows), min(cols, old_cols)
    grown[:keep_r, :keep_c] = cells[:keep_r, :keep_c]

    def moved(ends: np.ndarray) -> np.ndarray:
        out = set()
        for index in ends.tolist():
            r, c = divmod(index, old_cols)
            r, c = min(r, rows - 1), min(c, cols - 1)
            grown[r, c] = max(int(grown[r, c]), 1)  # clamped onto a wall: open it
            out.add(r * cols + c)
        return np.array(sorted(out), dtype=np.int64)

    new_starts, new_goals = moved(starts), moved(goals)
    if len(new_starts) and len(new_goals) and set(new_starts.tolist()) == set(new_goals.tolist()):
        goals_left = [i for i in range(rows * cols - 1, -1, -1) if i not in set(new_starts.tolist())]
        new_goals = np.array(goals_left[:1], dtype=np.int64)
        grown.reshape(-1)[new_goals] = np.maximum(grown.reshape(-1)[new_goals], 1)
    return grown, new_starts, new_goals


def _whole_board(
    op: dict[str, Any], starts: np.ndarray, goals: np.ndarray, shape: tuple[int, int], where: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board given whole (what an undo of a clear or a resize sends); the start and goal stay
    where they are when they fit on it, else the operations after this one must set them."""
    rows = whole(op.get("rows"), 1, MAX_SIDE, where, t("grid.number_rows"))
    cols = whole(op.get("cols"), 1, MAX_SIDE, where, t("grid.number_columns"))
    if rows * cols > MAX_EDIT_CELLS:
        raise PuzzleError(
            t("grid.x_cells_over_editor_limit", rows=rows, cols=cols, max_edit_cells=MAX_EDIT_CELLS), where
        )
    values = op.get("values")
    if not isinstance(values, str) or len(values) > 4 * (rows * cols + 2) // 3 + 4:
        raise PuzzleError(t("grid.expected_values_base64_one_byte"), where)
    try:
        data = base64.b64decode(values, validate=True)
    except (binascii.Error, ValueError):
        raise PuzzleError(t("grid.values_not_base64"), where) from None
    if len(data) != rows * cols:
        raise PuzzleError(
            t("grid.values_holds_cells_not_x", n_data=len(data), rows=rows, cols=cols, value=rows * cols),
            where,
        )
    cells = np.frombuffer(data, dtype=np.uint8).reshape(rows, cols).copy()
    if cells.max(initial=0) > 9:
        raise PuzzleError(t("grid.cell_values_are_0_wall"), where)
    old_cols = shape[1]

    def kept(ends: np.ndarray) -> np.ndarray:
        out = []
        for index in ends.tolist():
            r, c = divmod(index, old_cols)
            if r < rows and c < cols and cells[r, c] != WALL:
                out.append(r * cols + c)
        return np.array(out, dtype=np.int64)

    return cells, kept(starts), kept(goals)


class GridEditor(Editor):
    """The page's grid editor: the operations above (``edit_grid``)."""

    def edit(self, puzzle: GridMaze, edits: list[dict[str, Any]]) -> GridMaze:
        return edit_grid(puzzle, edits)
