"""Editing a Zenji board: the operations the page's editor sends (docs/PROTOCOL.md, "Generate and edit").

``{"op": "turn", "cell": [r, c], "times": k}``         the tile turned k quarter turns clockwise (k 0-3,
                                                        default 1; the source and drain too: the editor
                                                        sets how they lie, the solver never turns them)
``{"op": "tile", "cell": [r, c], "sides": [n, e, s, w]}``  the tile's side codes: 0 closed, 1 inlet,
                                                        2 outlet, 3 source, 4 drain
``{"op": "flow", "flow": "downhill"|"free"}``           how the water may flow
``{"op": "resize", "rows": R, "cols": C}``             keep the top-left part, new tiles closed (0000)

Every operation keeps the board valid (``PUZZLES.md`` §4, ``docs/ZENJI.md``): exactly one source
tile (a side coded 3) and one drain tile (a side coded 4), never the same tile. So a "tile" that puts a
3 on another tile *moves* the source there (the old source tile's 3 sides become closed), likewise a
4 the drain; a "tile" that would leave the board without a source or drain, or give one tile both, is
refused. A resize moves a source or drain that falls off the board (its whole tile) onto the nearest
tile inside, and is refused when both would land on one tile. Refusals name the operation's number.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...i18n import t
from ..capabilities import Editor
from ..errors import PuzzleError, show_value
from ..making import cell_of, whole
from .model import CLOSED, DRAIN, FLOWS, SOURCE, Tile, ZenjiBoard, turned
from .parse import CODES, MAX_SIDE

OPS = ("turn", "tile", "flow", "resize")
_ROLE = {SOURCE: "source", DRAIN: "drain"}


def edit_zenji(board: ZenjiBoard, edits: list[dict[str, Any]]) -> ZenjiBoard:
    """``board`` with ``edits`` applied in order (a new board; ``board`` is unchanged)."""
    rows, cols = board.rows, board.cols
    tiles: list[Tile] = list(board.tiles)
    source, drain, flow = board.source, board.drain, board.flow
    for number, op in enumerate(edits, start=1):
        where = t("zenji.edit_where", number=number, op=str(op.get('op'))[:20])
        kind = op["op"]
        if kind == "turn":
            row, col = cell_of(op.get("cell"), rows, cols, where)
            times = whole(op.get("times", 1), 0, 3, where, t("zenji.number_quarter_turns_0_3"))
            tiles[row * cols + col] = turned(tiles[row * cols + col], times)
        elif kind == "tile":
            source, drain = _set_tile(tiles, rows, cols, source, drain, op, where)
        elif kind == "flow":
            flow = op.get("flow")
            if flow not in FLOWS:
                raise PuzzleError(
                    t("zenji.expected_flow_got", flows=" or ".join(FLOWS), flow=show_value(flow)), where
                )
        elif kind == "resize":
            rows, cols, tiles, source, drain = _resize(rows, cols, tiles, source, drain, op, where)
        else:
            raise PuzzleError(
                t("zenji.unknown_operation_zenji_board_takes", kind=show_value(kind), ops=", ".join(OPS)),
                where,
            )
    return replace(board, rows=rows, cols=cols, tiles=tuple(tiles), source=source, drain=drain, flow=flow)


def _set_tile(
    tiles: list[Tile], rows: int, cols: int, source: tuple[int, int], drain: tuple[int, int],
    op: dict[str, Any], where: str,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Put the op's tile on the board; return the (maybe moved) source and drain."""
    row, col = cell_of(op.get("cell"), rows, cols, where)
    sides = op.get("sides")
    ok = isinstance(sides, list) and len(sides) == 4 and all(
        isinstance(v, int) and not isinstance(v, bool) and CLOSED <= v <= DRAIN for v in sides
    )
    if not ok:
        raise PuzzleError(
            t("zenji.expected_sides_n_e_w", codes=CODES, sides=show_value(sides)), where
        )
    tile: Tile = tuple(sides)  # type: ignore[assignment]
    if SOURCE in tile and DRAIN in tile:
        raise PuzzleError(t("zenji.one_tile_cannot_hold_both"), where)
    here = (row, col)
    ends = {SOURCE: source, DRAIN: drain}
    for code, name in _ROLE.items():
        other_code = DRAIN if code == SOURCE else SOURCE
        if code in tile and here == ends[other_code]:
            raise PuzzleError(
                t(
                    "zenji.there_would_leave_board_without",
                    row=row,
                    col=col,
                    role=t(f"zenji.word.{_ROLE[other_code]}"),
                    name=t(f"zenji.word.{name}"),
                ),
                where,
            )
        if code not in tile and here == ends[code]:
            raise PuzzleError(
                t("zenji.board_needs_one_so_put", row=row, col=col, name=t(f"zenji.word.{name}"), code=code),
                where,
            )
    for code in _ROLE:
        old = ends[code]
        if code in tile and old != here:  # the source (drain) moves here: its old tile keeps no 3 (4)
            index = old[0] * cols + old[1]
            tiles[index] = tuple(CLOSED if v == code else v for v in tiles[index])  # type: ignore[assignment]
            ends[code] = here
    tiles[row * cols + col] = tile
    return ends[SOURCE], ends[DRAIN]


def _resize(
    rows: int, cols: int, tiles: list[Tile], source: tuple[int, int], drain: tuple[int, int],
    op: dict[str, Any], where: str,
) -> tuple[int, int, list[Tile], tuple[int, int], tuple[int, int]]:
    new_rows = whole(op.get("rows"), 1, MAX_SIDE, where, t("zenji.number_rows"))
    new_cols = whole(op.get("cols"), 1, MAX_SIDE, where, t("zenji.number_columns"))
    if new_rows * new_cols < 2:
        raise PuzzleError(t("zenji.board_needs_at_least_two"), where)
    new_source = (min(source[0], new_rows - 1), min(source[1], new_cols - 1))
    new_drain = (min(drain[0], new_rows - 1), min(drain[1], new_cols - 1))
    if new_source == new_drain:
        raise PuzzleError(
            t("zenji.source_and_drain_would_both", new_source=new_source[0], new_source2=new_source[1]), where
        )
    closed: Tile = (CLOSED, CLOSED, CLOSED, CLOSED)
    grown = [closed] * (new_rows * new_cols)
    for r in range(min(rows, new_rows)):
        for c in range(min(cols, new_cols)):
            grown[r * new_cols + c] = tiles[r * cols + c]
    # The source and drain tiles travel whole onto the nearest tile inside (a no-op when they are inside).
    grown[new_source[0] * new_cols + new_source[1]] = tiles[source[0] * cols + source[1]]
    grown[new_drain[0] * new_cols + new_drain[1]] = tiles[drain[0] * cols + drain[1]]
    return new_rows, new_cols, grown, new_source, new_drain


class ZenjiEditor(Editor):
    """The page's Zenji editor: the operations above (``edit_zenji``)."""

    def edit(self, puzzle: ZenjiBoard, edits: list[dict[str, Any]]) -> ZenjiBoard:
        return edit_zenji(puzzle, edits)
