"""The Zenji board: pipe tiles with four coded sides, a fixed source and a fixed drain.

Sides are indexed N=0, E=1, S=2, W=3 and coded 0 closed, 1 inlet, 2 outlet, 3 source, 4 drain. A
clockwise quarter turn moves each side's code one place on: [N, E, S, W] becomes [W, N, E, S], so a
tile turned ``rot`` times shows ``tile[(side - rot) % 4]`` on ``side``.
"""

from __future__ import annotations

from dataclasses import dataclass

Tile = tuple[int, int, int, int]

CLOSED, INLET, OUTLET, SOURCE, DRAIN = 0, 1, 2, 3, 4
SIDES = ("N", "E", "S", "W")
SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # the neighbour beyond each side
FLOWS = ("downhill", "free")


def turned(tile: Tile, rot: int) -> Tile:
    """The tile after ``rot`` clockwise quarter turns."""
    rot %= 4
    return tile[-rot:] + tile[:-rot] if rot else tile  # type: ignore[return-value]


@dataclass(frozen=True)
class ZenjiBoard:
    rows: int
    cols: int
    tiles: tuple[Tile, ...]  # row-major
    source: tuple[int, int]
    drain: tuple[int, int]
    flow: str = "downhill"
    name: str = "zenji"
    source_format: str = "text"

    def tile(self, row: int, col: int) -> Tile:
        return self.tiles[row * self.cols + col]

    def tile_rows(self) -> list[list[list[int]]]:
        return [[list(self.tiles[r * self.cols + c]) for c in range(self.cols)] for r in range(self.rows)]

    def is_fixed(self, cell: int) -> bool:
        return divmod(cell, self.cols) in (self.source, self.drain)
