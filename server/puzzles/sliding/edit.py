"""Editing a sliding-tile board: the operations of docs/SLIDING.md ("Editing"), the page's editor sends them.

``{"op": "slide", "cell": i}``        slide the tile at cell i (or ``[row, col]``) into the blank next to it
``{"op": "set", "tiles": [n²]}``      a new board (9, 16 or 25 numbers: the size may change, and the goal
                                      then becomes that size's default)
``{"op": "set_goal", "tiles": [n²]}`` a new goal of the board's size

Each operation must leave a board that can reach its goal; one that cannot is refused by parity, in
words, naming the operation (``edit N``). A slide never changes that (it is a move).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...i18n import t
from ..capabilities import Editor
from ..errors import PuzzleError, show_value
from ..making import cell_of, whole
from .model import SlidingBoard, default_goal, unsolvable_reason
from .parse import COUNTS, COUNTS_TEXT
from .problem import neighbours

OPS = ("slide", "set", "set_goal")


def edit_sliding(board: SlidingBoard, edits: list[dict[str, Any]]) -> SlidingBoard:
    """``board`` with ``edits`` applied in order (a new board; ``board`` is unchanged)."""
    n, tiles, goal = board.n, bytearray(board.tiles), board.goal
    for number, op in enumerate(edits, start=1):
        where = t("sliding.edit_where", number=number, op=str(op.get('op'))[:20])
        kind = op["op"]
        if kind == "slide":
            _slide(tiles, n, op.get("cell"), where)
            continue  # a move keeps the board solvable
        if kind == "set":
            values = _numbers(op.get("tiles"), None, where)
            if len(values) != n * n:  # another size: its default goal
                n, goal = COUNTS[len(values)], default_goal(COUNTS[len(values)])
            tiles = bytearray(values)
        elif kind == "set_goal":
            goal = bytes(_numbers(op.get("tiles"), n, where))
        else:
            raise PuzzleError(
                t("sliding.unknown_operation_sliding_tile_board", kind=show_value(kind), ops=", ".join(OPS)),
                where,
            )
        reason = unsolvable_reason(bytes(tiles), goal, n)
        if reason:
            raise PuzzleError(reason, where)
    return replace(board, n=n, tiles=bytes(tiles), goal=goal)


def _slide(tiles: bytearray, n: int, value: Any, where: str) -> None:
    if isinstance(value, list | tuple):
        row, col = cell_of(value, n, n, where)
        cell = row * n + col
    else:
        cell = whole(value, 0, n * n - 1, where, t("sliding.cell_0_or_row_col", value=n * n - 1))
    blank = tiles.index(0)
    if cell == blank:
        raise PuzzleError(t("sliding.cell_blank_slide_tile_next", cell=cell), where)
    move = next((name for name, to in neighbours(n)[blank] if to == cell), None)
    if move is None:
        r, c = divmod(cell, n)
        br, bc = divmod(blank, n)
        raise PuzzleError(t("sliding.tile_at_row_col_not", tiles=tiles[cell], r=r, c=c, br=br, bc=bc), where)
    tiles[blank], tiles[cell] = tiles[cell], 0


def _numbers(value: Any, n: int | None, where: str) -> list[int]:
    """n² whole numbers (n given) or 9, 16 or 25, each of 0 .. n²-1 once."""
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise PuzzleError(t("sliding.expected_tiles_list_whole_numbers", value=show_value(value)), where)
    if n is not None and len(value) != n * n:
        raise PuzzleError(t("sliding.numbers_x_board_needs", n_value=len(value), n=n, value=n * n), where)
    if len(value) not in COUNTS:
        raise PuzzleError(t("sliding.numbers_expected", n_value=len(value), counts_text=COUNTS_TEXT), where)
    last = len(value) - 1
    seen: set[int] = set()
    for v in value:
        if not 0 <= v <= last:
            raise PuzzleError(t("sliding.out_range_0_blank", v=v, last=last), where)
        if v in seen:
            raise PuzzleError(t("sliding.appears_twice_each_number_0", v=v, last=last), where)
        seen.add(v)
    return value


class SlidingEditor(Editor):
    """The page's sliding-tile editor: the operations above (``edit_sliding``)."""

    def edit(self, puzzle: SlidingBoard, edits: list[dict[str, Any]]) -> SlidingBoard:
        return edit_sliding(puzzle, edits)
