"""The sliding-tile board (docs/SLIDING.md): n x n cells, tiles 1..n²-1 and the blank 0, a goal
arrangement, and the parity test that tells at once whether the goal can be reached.

Why parity decides it (``../shared/PUZZLES.md`` §5): relabel every tile by its cell in the goal; then
count inversions, pairs of tiles (the blank ignored) read in the other order than in the goal. A
horizontal move changes no order. A vertical move carries one tile past the n - 1 others between its
old and new cell, changing the count by an amount of n - 1's parity, and moves the blank one row. So
for odd n the count's parity never changes, and for even n the parity of the count plus the blank's
row distance from its goal row never changes; the goal has 0 for both. The other half of the boards
(the ones keeping the goal's parity) are all reachable (Johnson & Story 1879).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import t

SIZES = (3, 4, 5)
# Moves named by where the blank goes, in successor order: name, row step, column step.
MOVES = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
# What the tile that slides does when the blank goes U/D/L/R: it moves the other way.
TILE_WORDS = {"U": "down", "D": "up", "L": "right", "R": "left"}


@dataclass(frozen=True)
class SlidingBoard:
    """An n x n board: ``tiles`` and ``goal`` are row-major bytes of length n², 0 the blank."""

    n: int
    tiles: bytes
    goal: bytes
    name: str = "sliding"
    notes: tuple[str, ...] = ()
    source_format: str = "text"

    @property
    def cells(self) -> int:
        return self.n * self.n


def default_goal(n: int) -> bytes:
    """1 .. n²-1, then the blank (the usual goal; Korf's instances put the blank first)."""
    return bytes([*range(1, n * n), 0])


def inversions(tiles: bytes, goal: bytes) -> int:
    """Pairs of tiles (the blank ignored) whose order on the board differs from their order in the goal."""
    where = {tile: cell for cell, tile in enumerate(goal)}
    order = [where[tile] for tile in tiles if tile]
    count = 0
    for i, a in enumerate(order):  # n² ≤ 25: the quadratic count is instant
        count += sum(1 for b in order[i + 1 :] if b < a)
    return count


def blank_row_distance(tiles: bytes, goal: bytes, n: int) -> int:
    """Rows between the blank on the board and the blank in the goal."""
    return abs(tiles.index(0) // n - goal.index(0) // n)


def unsolvable_reason(tiles: bytes, goal: bytes, n: int) -> str | None:
    """Why the goal cannot be reached from ``tiles``, in words (the parity test), or None if it can."""
    count = inversions(tiles, goal)
    if n % 2:
        if count % 2 == 0:
            return None
        return t(
            "sliding.unsolvable_by_parity_board_has_2",
            count_=count,
            value=t("sliding.plural.inversion", count=count),
            n=n,
        )
    rows = blank_row_distance(tiles, goal, n)
    if (count + rows) % 2 == 0:
        return None
    return t(
        "sliding.unsolvable_by_parity_board_has",
        count_=count,
        value=t("sliding.plural.inversion", count=count),
        rows=rows,
        value2=t("sliding.plural.row", count=rows),
        value3=count + rows,
        n=n,
    )


def is_solvable(tiles: bytes, goal: bytes, n: int) -> bool:
    return unsolvable_reason(tiles, goal, n) is None


def rows_text(tiles: bytes, n: int) -> list[str]:
    """The board as n text rows, numbers right-aligned (the text form's rows)."""
    width = len(str(n * n - 1))
    return [" ".join(str(t).rjust(width) for t in tiles[r * n : (r + 1) * n]) for r in range(n)]
