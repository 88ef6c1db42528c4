"""The shifting-tile labyrinth (seeds 000 and 002): tiles, board, insertions, pushing and walking.

Representation, chosen so that search states are hashable and cheap:

- a **tile** is a code 0..11 (``PUZZLES.md`` §3); its open sides are a bit mask
  (``LEFT | TOP | RIGHT | BOTTOM``);
- a **board** is ``bytes`` of ``rows * cols`` tile codes, row by row (cell ``i`` is at
  ``divmod(i, cols)``);
- a **position** of the player is a cell index, or ``OUTSIDE`` (standing below the start column,
  not yet on the board) or ``EXITED`` (has left the board above the goal column: solved).

Rules implemented here (the reasons are in ``docs/LABYRINTH.md``):

- A push inserts the free tile (optionally turned first) at an insertion point; the line shifts by
  one and the tile at the far end falls out and becomes the new free tile. A player in the line
  moves with it; a player on the tile that falls out is put onto the tile pushed in.
- A player ``OUTSIDE`` stands below a column *position*, not on a tile: pushes never move them.
- Walking follows connected openings. From ``OUTSIDE`` the player enters the bottom tile of the
  start column if it is open at the bottom; from the top tile of the goal column they leave the
  board if it is open at the top. Once on the board the player never steps back out below.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple

from ...i18n import t

LEFT, TOP, RIGHT, BOTTOM = 1, 2, 4, 8

#: Open sides per tile code, as given by the course: [left, top, right, bottom].
OPEN_SIDES: tuple[tuple[int, int, int, int], ...] = (
    (0, 0, 1, 1),  # 0 ┌
    (1, 0, 0, 1),  # 1 ┐
    (0, 1, 1, 0),  # 2 └
    (1, 1, 0, 0),  # 3 ┘
    (1, 0, 1, 1),  # 4 ┬
    (1, 1, 0, 1),  # 5 ┤
    (1, 1, 1, 0),  # 6 ┴
    (0, 1, 1, 1),  # 7 ├
    (0, 1, 0, 1),  # 8 │
    (1, 0, 1, 0),  # 9 ─
    (1, 1, 1, 1),  # 10 ┼ (seed 002's padding: start and goal cells)
    (0, 0, 0, 0),  # 11 (seed 002's padding: no way through)
)
SHAPES = "┌┐└┘┬┤┴├│─┼·"
BOARD_CODES = range(10)  # codes a board or free tile may hold; 10 and 11 are padding only


def _mask(sides: tuple[int, int, int, int]) -> int:
    left, top, right, bottom = sides
    return LEFT * left | TOP * top | RIGHT * right | BOTTOM * bottom


MASKS: tuple[int, ...] = tuple(_mask(s) for s in OPEN_SIDES)
_CODE_OF_MASK = {mask: code for code, mask in enumerate(MASKS)}


def _turn_mask(mask: int) -> int:
    """A quarter turn clockwise: what was open on the left is open on top, top -> right, ..."""
    out = 0
    if mask & LEFT:
        out |= TOP
    if mask & TOP:
        out |= RIGHT
    if mask & RIGHT:
        out |= BOTTOM
    if mask & BOTTOM:
        out |= LEFT
    return out


#: ``ROTATE_CW[code]`` is the code of that tile turned a quarter clockwise (0..9 stay in 0..9).
ROTATE_CW: tuple[int, ...] = tuple(_CODE_OF_MASK[_turn_mask(m)] for m in MASKS)


def rotate(code: int, quarter_turns: int = 1) -> int:
    """The code of tile ``code`` turned ``quarter_turns`` times clockwise (negative: anticlockwise)."""
    for _ in range(quarter_turns % 4):
        code = ROTATE_CW[code]
    return code


def orientations(code: int) -> tuple[int, ...]:
    """The distinct codes a tile can be turned into, itself first (4, 2 for straights, 1 for 10/11)."""
    out = [code]
    for _ in range(3):
        code = ROTATE_CW[code]
        if code not in out:
            out.append(code)
    return tuple(out)


def is_open(code: int, side: int) -> bool:
    return bool(MASKS[code] & side)


OUTSIDE = -1  # below the start column, not yet on the board
EXITED = -2  # left the board above the goal column: the puzzle is solved


class InsertionPoint(NamedTuple):
    """Where the free tile can be pushed in: a row from the left/right or a column from the top/bottom."""

    axis: str  # "row" or "col"
    index: int
    side: str  # "left"/"right" for rows, "top"/"bottom" for columns

    def text(self) -> str:
        line = "row" if self.axis == "row" else "column"
        return t(
            "labyrinth.from",
            line=t(f"labyrinth.line.{line}"),
            index=self.index,
            side=t(f"labyrinth.side.{self.side}"),
        )

    def to_json(self) -> dict[str, object]:
        return {"axis": self.axis, "index": self.index, "side": self.side}


def insertion_points(
    left_rows: Iterable[int] = (),
    right_rows: Iterable[int] = (),
    top_cols: Iterable[int] = (),
    bottom_cols: Iterable[int] = (),
) -> tuple[InsertionPoint, ...]:
    """Every insertion point, in a fixed order (rows first, by index, left before right)."""
    points = [InsertionPoint("row", r, "left") for r in left_rows]
    points += [InsertionPoint("row", r, "right") for r in right_rows]
    points += [InsertionPoint("col", c, "top") for c in top_cols]
    points += [InsertionPoint("col", c, "bottom") for c in bottom_cols]
    order = {"left": 0, "right": 1, "top": 0, "bottom": 1}
    return tuple(sorted(set(points), key=lambda p: (p.axis != "row", p.index, order[p.side])))


@dataclass(frozen=True)
class LabyrinthPuzzle:
    """A board, its free tile, where the player starts and leaves, and the rules in force."""

    rows: int
    cols: int
    board: bytes
    free: int
    start_col: int
    goal_col: int
    insertions: tuple[InsertionPoint, ...]
    moves: str = "combined"  # "combined" (push + walk per move) or "separate" (push or walk)
    rotate_free: bool = False
    name: str = "labyrinth"
    source_format: str = "project"  # "csv", "seed002" or "project"

    def tile(self, row: int, col: int) -> int:
        return self.board[row * self.cols + col]

    def board_rows(self) -> list[list[int]]:
        c = self.cols
        return [list(self.board[r * c : (r + 1) * c]) for r in range(self.rows)]

    @property
    def entry_cell(self) -> int:
        """The bottom tile of the start column: where the player steps onto the board."""
        return (self.rows - 1) * self.cols + self.start_col

    @property
    def exit_cell(self) -> int:
        """The top tile of the goal column: where the player leaves the board."""
        return self.goal_col


# --------------------------------------------------------------------------------------------- pushing
def push(board: bytes, cols: int, rows: int, point: InsertionPoint, tile: int) -> tuple[bytes, int]:
    """Push ``tile`` in at ``point``; return (new board, the tile that fell out)."""
    if point.axis == "row":
        start = point.index * cols
        line = board[start : start + cols]
        if point.side == "left":
            new_line, out = bytes((tile,)) + line[:-1], line[-1]
        else:
            new_line, out = line[1:] + bytes((tile,)), line[0]
        return board[:start] + new_line + board[start + cols :], out
    cells = bytearray(board)
    c = point.index
    column = board[c::cols]
    if point.side == "top":
        new_column, out = bytes((tile,)) + column[:-1], column[-1]
    else:
        new_column, out = column[1:] + bytes((tile,)), column[0]
    cells[c::cols] = new_column
    return bytes(cells), out


def unpush(board: bytes, cols: int, rows: int, point: InsertionPoint, free: int) -> tuple[bytes, int]:
    """The inverse of ``push``: given the board and free tile after a push at ``point``, return
    (the board before, the tile that was pushed in — the free tile before, up to its turn)."""
    opposite = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}[point.side]
    return push(board, cols, rows, InsertionPoint(point.axis, point.index, opposite), free)


def carry(player: int, cols: int, rows: int, point: InsertionPoint) -> int:
    """Where a push at ``point`` takes the player (off the far end: onto the tile pushed in)."""
    if player < 0:
        return player  # outside (below a column position) or exited: pushes do not touch them
    r, c = divmod(player, cols)
    if point.axis == "row":
        if r != point.index:
            return player
        c = (c + 1) % cols if point.side == "left" else (c - 1) % cols
    else:
        if c != point.index:
            return player
        r = (r + 1) % rows if point.side == "top" else (r - 1) % rows
    return r * cols + c


def uncarry(player: int, cols: int, rows: int, point: InsertionPoint) -> int:
    """The inverse of ``carry``: where the player stood before the push."""
    opposite = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}[point.side]
    return carry(player, cols, rows, InsertionPoint(point.axis, point.index, opposite))


# --------------------------------------------------------------------------------------------- walking
def _side_table(side: int) -> bytes:
    """A ``bytes.translate`` table: tile code -> 1 if the tile is open on ``side``, else 0."""
    return bytes(1 if code < len(MASKS) and MASKS[code] & side else 0 for code in range(256))


_OPEN_LEFT, _OPEN_TOP, _OPEN_RIGHT, _OPEN_BOTTOM = (_side_table(s) for s in (LEFT, TOP, RIGHT, BOTTOM))

#: What CPython spends on a small tuple (its header and up to four slots) and on one dict or set entry
#: beside its key and value objects (the entry, its index, a table kept at most 2/3 full, amortised).
TUPLE_BYTES = 72
DICT_ENTRY_BYTES = 100


class Walker:
    """Walking on boards of one size, with the start and goal columns, by bit-parallel flood fill.

    A *place mask* is an int with one bit per position, 8 bits apart (bit ``8*i`` = cell ``i``,
    then one bit for OUTSIDE and one for EXITED): with that stride a board's open sides become masks
    through ``bytes.translate`` and ``int.from_bytes`` at C speed, and one flood-fill round is a few
    shifts for all cells at once. This is ~25x faster than a cell-by-cell fill in Python.
    """

    CACHE_LIMIT = 50_000  # entries a cache of boards (or heuristic values) keeps at most per search
    CACHE_BYTES = 32 * 1024 * 1024  # ... and about this many bytes: fewer entries on large boards
    MIN_CACHE = 256  # but at least this many entries, whatever the board's size

    def __init__(self, rows: int, cols: int, start_col: int, goal_col: int) -> None:
        self.rows, self.cols = rows, cols
        self.size = rows * cols
        self.entry = (rows - 1) * cols + start_col
        self.exit = goal_col
        self.outside_bit = 1 << (8 * self.size)
        self.exited_bit = 1 << (8 * (self.size + 1))
        self.entry_bit = 1 << (8 * self.entry)
        self.exit_bit = 1 << (8 * self.exit)
        self._row_shift = 8 * cols
        self._not_last_col = sum(1 << (8 * i) for i in range(self.size) if i % cols != cols - 1)
        self.row_masks = tuple(sum(1 << (8 * (r * cols + c)) for c in range(cols)) for r in range(rows))
        self.col_masks = tuple(sum(1 << (8 * (r * cols + c)) for r in range(rows)) for c in range(cols))
        self._links: dict[bytes, tuple[int, int, tuple[int, int, int, int]]] = {}
        # Memory of one entry of each cache, at its largest: a board is ``bytes`` (its header and a
        # byte per tile), a place mask an int of up to 8 bits a position.
        self.board_bytes = sys.getsizeof(bytes(self.size))
        self.mask_bytes = sys.getsizeof(self.exited_bit)
        # a links entry: its board (kept alive by the cache), (H, V, the four sides) as 6 masks in 2 tuples
        self.links_entry_bytes = self.board_bytes + 6 * self.mask_bytes + 2 * TUPLE_BYTES + DICT_ENTRY_BYTES
        self.links_limit = self.cache_entries(self.links_entry_bytes)

    def cache_entries(self, entry_bytes: int, budget: int | None = None) -> int:
        """How many entries of ``entry_bytes`` each a cache over these boards keeps before it is
        cleared: ``CACHE_LIMIT``, fewer where that would pass ``budget`` bytes (``CACHE_BYTES``), never
        below ``MIN_CACHE``."""
        budget = self.CACHE_BYTES if budget is None else budget
        return max(self.MIN_CACHE, min(self.CACHE_LIMIT, budget // max(1, entry_bytes)))

    # -------------------------------------------------------------- masks
    def bit(self, position: int) -> int:
        if position == OUTSIDE:
            return self.outside_bit
        if position == EXITED:
            return self.exited_bit
        return 1 << (8 * position)

    def positions(self, mask: int) -> tuple[int, ...]:
        """The positions in ``mask``: EXITED first, then cells in order, then OUTSIDE."""
        n = self.size
        flags = mask.to_bytes(n + 2, "little")
        cells = tuple(compress(range(n), flags))
        head = (EXITED,) if flags[n + 1] else ()
        tail = (OUTSIDE,) if flags[n] else ()
        return head + cells + tail

    def open_sides(self, board: bytes) -> tuple[int, int, int, int]:
        """Cell masks of the tiles open on the left, top, right and bottom."""
        return (
            int.from_bytes(board.translate(_OPEN_LEFT), "little"),
            int.from_bytes(board.translate(_OPEN_TOP), "little"),
            int.from_bytes(board.translate(_OPEN_RIGHT), "little"),
            int.from_bytes(board.translate(_OPEN_BOTTOM), "little"),
        )

    def _join(self, left: int, top: int, right: int, bottom: int) -> tuple[int, int]:
        return right & (left >> 8) & self._not_last_col, bottom & (top >> self._row_shift)

    def links(self, board: bytes, wild: int = 0) -> tuple[int, int]:
        """(H, V): bit i of H joins cell i to its right neighbour, bit i of V to the one below.

        ``wild``: cells treated as open on every side (the relaxation of the "relaxed" heuristic).
        """
        found = self._links.get(board)
        if found is None:
            sides = self.open_sides(board)
            found = (*self._join(*sides), sides)
            if len(self._links) >= self.links_limit:
                self._links.clear()
            self._links[board] = found
        if not wild:
            return found[0], found[1]
        left, top, right, bottom = found[2]
        return self._join(left | wild, top | wild, right | wild, bottom | wild)

    def can_enter(self, board: bytes) -> bool:
        return bool(MASKS[board[self.entry]] & BOTTOM)

    def can_leave(self, board: bytes) -> bool:
        return bool(MASKS[board[self.exit]] & TOP)

    def flood(self, board: bytes, seeds: int, wild: int = 0) -> int:
        """Every place a walk can reach from the places in ``seeds`` (seeds included).

        ``wild``: cells treated as open on every side (see ``links``).
        """
        horizontal, vertical = self.links(board, wild)
        if seeds & self.outside_bit and (self.can_enter(board) or wild & self.entry_bit):
            seeds |= self.entry_bit
        reach, shift = seeds, self._row_shift
        while True:
            # The link masks hold board cells only, so OUTSIDE/EXITED bits never spread.
            grown = (
                reach
                | ((reach & horizontal) << 8)
                | ((reach >> 8) & horizontal)
                | ((reach & vertical) << shift)
                | ((reach >> shift) & vertical)
            )
            if grown == reach:
                break
            reach = grown
        if reach & self.exit_bit and (self.can_leave(board) or wild & self.exit_bit):
            reach |= self.exited_bit
        return reach

    def carry_places(self, places: int, point: InsertionPoint) -> int:
        """``carry`` for every place in a place mask at once."""
        cols, rows = self.cols, self.rows
        if point.axis == "row":
            line = self.row_masks[point.index]
            low = 8 * point.index * cols
            seg = (places & line) >> low
            if not seg:
                return places
            first = self.row_masks[0]
            if point.side == "left":
                seg = ((seg << 8) & first) | (seg >> (8 * (cols - 1)))
            else:
                seg = (seg >> 8) | ((seg & 1) << (8 * (cols - 1)))
            return (places & ~line) | (seg << low)
        line = self.col_masks[point.index]
        seg = places & line
        if not seg:
            return places
        step, span = 8 * cols, 8 * cols * (rows - 1)
        if point.side == "top":
            seg = ((seg << step) & line) | (seg >> span)
        else:
            seg = (seg >> step) | ((seg & (1 << (8 * point.index))) << span)
        return (places & ~line) | seg

    # -------------------------------------------------------------- positions
    def reach(self, board: bytes, player: int) -> tuple[int, ...]:
        """Every position a walk from ``player`` can end at, ``player`` itself included.

        Order: EXITED first, then cells top-down, then OUTSIDE (it decides tie-breaking).
        """
        if player == EXITED:
            return (EXITED,)
        return self.positions(self.flood(board, self.bit(player)))

    def came_from(self, board: bytes, player: int) -> tuple[int, ...]:
        """Every position from which a walk can end at ``player`` (``player`` itself included)."""
        if player == OUTSIDE:
            return (OUTSIDE,)  # nobody walks back out below
        if player == EXITED:
            if not self.can_leave(board):
                return (EXITED,)
            mask = self.flood(board, self.exit_bit)  # walking between cells is symmetric
        else:
            mask = self.flood(board, self.bit(player)) & ~self.exited_bit  # nobody comes back from above
        if mask & self.entry_bit and self.can_enter(board):
            mask |= self.outside_bit
        return self.positions(mask)

    def neighbours(self, board: bytes, position: int) -> Iterator[int]:
        """Positions one step from ``position`` (entering and leaving are steps)."""
        if position == OUTSIDE:
            if self.can_enter(board):
                yield self.entry
            return
        if position == EXITED:
            return
        if position == self.exit and self.can_leave(board):
            yield EXITED
        here = MASKS[board[position]]
        r, c = divmod(position, self.cols)
        for dr, dc, mine, theirs in (
            (-1, 0, TOP, BOTTOM),
            (0, 1, RIGHT, LEFT),
            (1, 0, BOTTOM, TOP),
            (0, -1, LEFT, RIGHT),
        ):
            nr, nc = r + dr, c + dc
            if 0 <= nr < self.rows and 0 <= nc < self.cols and here & mine:
                j = nr * self.cols + nc
                if MASKS[board[j]] & theirs:
                    yield j

    def route(self, board: bytes, source: int, target: int) -> list[int]:
        """A shortest walk from ``source`` to ``target`` (positions, both ends included)."""
        parent: dict[int, int] = {source: source}
        queue = deque([source])
        while queue:
            here = queue.popleft()
            if here == target:
                out = [here]
                while out[-1] != source:
                    out.append(parent[out[-1]])
                return out[::-1]
            for nxt in self.neighbours(board, here):
                if nxt not in parent:
                    parent[nxt] = here
                    queue.append(nxt)
        raise ValueError(f"no walk from {source} to {target} on this board")


def position_to_rc(position: int, cols: int, rows: int, start_col: int, goal_col: int) -> tuple[int, int]:
    """(row, col) of a position; outside is row ``rows`` (below the board), exited is row -1."""
    if position == OUTSIDE:
        return rows, start_col
    if position == EXITED:
        return -1, goal_col
    r, c = divmod(position, cols)
    return r, c
