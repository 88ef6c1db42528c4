"""Lattice mazes: images drawn with k x k pixel blocks or with thin wall lines, read as their cells.

Two kinds are recognised on the wall/free pixels the image parser classified (markers already free):

- **blocks**: every horizontal and vertical run of equal pixels starts on a k-pixel grid (k >= 2)
  at some offset, so every k x k block is uniform; the maze is one cell per block, sampled at the
  block's centre. A partial block at the border (a cropped image, a 1-pixel frame) is uniform too,
  and becomes a cell of its own.
- **lines**: wall lines of ``t`` pixels at a period ``p = w + t`` in both directions, around
  corridors of ``w > t`` pixels, read as a (2m + 1) x (2n + 1) board: cell centres free, the cell
  between two centres a wall where the segment between them is drawn, crossings ("posts") walls.
  Free margins around the drawing are dropped.

Both are found from the *boundaries* along each axis (the columns where some row changes class,
the rows where some column does): one numpy pass over the image per axis, after a cheap look at a
strip that rejects 1-pixel mazes and noise at once. A candidate is then verified strictly (every
block uniform, every corridor square free, every wall segment uniform), so a 1-pixel maze or a
noisy photo is never read as a lattice.

"Pixel cost": the length of a path in pixels along the block or corridor centres. One step between
neighbouring cells is k pixels on a block lattice and p / 2 on a line lattice (a centre and the
wall cell beside it are half a period apart), so the pixel cost is the cost in cells times that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...i18n import t
from .model import sorted_unique

STRIP = 64  # rows (columns) of the quick rejection strip
MIN_CELLS = 3  # a lattice has at least this many blocks (corridors) along each axis
MIN_BOUNDARIES = 3  # ... and at least this many class changes along each axis


@dataclass(frozen=True)
class Lattice:
    """A lattice found in an image: how pixels become cells.

    ``row_starts``/``col_starts``: the first pixel of each lattice row/column (increasing);
    ``row_end``/``col_end``: one past the last pixel of the lattice (margins beyond are dropped).
    """

    kind: str  # "blocks" | "lines"
    size: int  # k (blocks) or the period p (lines)
    wall: int  # t (lines); 0 for blocks
    offset: tuple[int, int]  # (x, y) of the first full block / first wall line
    row_starts: np.ndarray
    col_starts: np.ndarray
    row_end: int
    col_end: int

    def to_json(self) -> dict[str, Any]:
        """What results and the page's info say about the lattice."""
        if self.kind == "blocks":
            return {"kind": "blocks", "k": self.size, "offset": list(self.offset)}
        return {"kind": "lines", "period": self.size, "wall": self.wall, "offset": list(self.offset)}

    def describe(self, height: int, width: int) -> str:
        """One note for the page and the CLI."""
        rows, cols = len(self.row_starts), len(self.col_starts)
        if self.kind == "blocks":
            what = t("grid.blocks_x_pixels", size=self.size)
        else:
            what = t(
                "grid.wall_lines_pixel_thick_every",
                wall=self.wall,
                value=t("grid.plural.pixel", count=self.wall),
                size=self.size,
                value2=self.size - self.wall,
            )
        return t("grid.lattice_read_as_x_cells", what=what, cols=cols, rows=rows, width=width, height=height)

    def cell_of(self, flat: np.ndarray, width: int) -> np.ndarray:
        """Flat pixel indices -> flat lattice cell indices; pixels in a dropped margin are left out."""
        y, x = np.divmod(np.asarray(flat, dtype=np.int64), width)
        inside = (y >= self.row_starts[0]) & (y < self.row_end)
        inside &= (x >= self.col_starts[0]) & (x < self.col_end)
        y, x = y[inside], x[inside]
        r = np.searchsorted(self.row_starts, y, side="right") - 1
        c = np.searchsorted(self.col_starts, x, side="right") - 1
        return sorted_unique(r * len(self.col_starts) + c)


def pixel_scale(lattice: dict[str, Any] | None) -> float | None:
    """Pixels along the centre line per step between neighbouring cells (None: no lattice)."""
    if not lattice:
        return None
    return float(lattice["k"]) if lattice["kind"] == "blocks" else lattice["period"] / 2


def detect_lattice(cells: np.ndarray) -> tuple[Lattice, np.ndarray] | None:
    """The lattice of a wall/free pixel array (0 wall, non-zero free) and its cells, or None."""
    height, width = cells.shape
    if min(height, width) < 2 * MIN_CELLS:
        return None
    # A lattice never has three changes within two pixels; a 1-pixel maze or noise does in its
    # first rows, so they cost a few microseconds here.
    if _crowded(_col_boundaries(cells[:STRIP])) or _crowded(_row_boundaries(cells[:, :STRIP])):
        return None
    bx, by = _col_boundaries(cells), _row_boundaries(cells)
    if len(bx) < MIN_BOUNDARIES or len(by) < MIN_BOUNDARIES or _crowded(bx) or _crowded(by):
        return None
    # Lines first: a line drawing whose walls and corridors share a factor is also a block
    # lattice (t = 2, w = 6 is uniform in 2 x 2 blocks), but its cells are the corridors.
    return _lines(cells, bx, by) or _blocks(cells, bx, by)


# --- boundaries -------------------------------------------------------------------------------------


def _col_boundaries(a: np.ndarray) -> np.ndarray:
    """Columns x (1..W-1) where some row changes class between x - 1 and x."""
    return np.flatnonzero((a[:, 1:] != a[:, :-1]).any(axis=0)) + 1


def _row_boundaries(a: np.ndarray) -> np.ndarray:
    """Rows y (1..H-1) where some column changes class between y - 1 and y."""
    return np.flatnonzero((a[1:] != a[:-1]).any(axis=1)) + 1


def _crowded(b: np.ndarray) -> bool:
    """Three boundaries within two pixels: no block (k >= 2) or line (p >= 3) lattice has that."""
    return len(b) >= 3 and bool((b[2:] - b[:-2] <= 2).any())


# --- blocks -----------------------------------------------------------------------------------------


def _blocks(cells: np.ndarray, bx: np.ndarray, by: np.ndarray) -> tuple[Lattice, np.ndarray] | None:
    """Every boundary on one k-grid (k >= 2): every block is then uniform (no change inside it)."""
    height, width = cells.shape
    k = int(np.gcd(np.gcd.reduce(np.diff(bx)), np.gcd.reduce(np.diff(by))))
    if k < 2:
        return None
    ox, oy = int(bx[0]) % k, int(by[0]) % k
    if (width - ox) // k < MIN_CELLS or (height - oy) // k < MIN_CELLS:
        return None
    col_starts = _block_starts(ox, k, width)
    row_starts = _block_starts(oy, k, height)
    lattice = Lattice("blocks", k, 0, (ox, oy), row_starts, col_starts, height, width)
    ys = (row_starts + np.append(row_starts[1:], height) - 1) // 2  # block centres
    xs = (col_starts + np.append(col_starts[1:], width) - 1) // 2
    return lattice, np.ascontiguousarray(cells[np.ix_(ys, xs)])


def _block_starts(offset: int, k: int, n: int) -> np.ndarray:
    """First pixel of each block along an axis: a partial block [0, offset) first when offset > 0."""
    starts = np.arange(offset, n, k, dtype=np.int64)
    return np.concatenate(([0], starts)) if offset else starts


# --- lines ------------------------------------------------------------------------------------------


def _line_axis(b: np.ndarray, n: int) -> tuple[int, int, int, int] | None:
    """(period, wall, first wall line, count of corridors) along one axis from its boundaries."""
    if len(b) < 2 * MIN_CELLS:
        return None
    # Boundaries come in pairs (a wall line's two edges), so every other one is a period apart.
    p = int(np.bincount(b[2:] - b[:-2]).argmax())
    if p < 3:
        return None
    residues = np.unique(b % p)
    if len(residues) != 2:
        return None
    d = int(residues[1] - residues[0])
    # The wall is the shorter of the two gaps: the residue it starts at is its line's first pixel.
    begin, t = (int(residues[0]), d) if d < p - d else (int(residues[1]), p - d)
    if not 1 <= t < p - t:
        return None
    at_begin = b % p == begin
    first = int(np.min(np.where(at_begin, b, b - t)))  # a line starting at the edge has no boundary there
    end = int(np.max(np.where(at_begin, b + t, b)))
    if first < 0 or end > n or (end - first - t) % p:
        return None
    count = (end - first - t) // p
    return (p, t, first, count) if count >= MIN_CELLS else None


def _lines(cells: np.ndarray, bx: np.ndarray, by: np.ndarray) -> tuple[Lattice, np.ndarray] | None:
    """Thin wall lines at one period in both directions, checked strictly on every square."""
    height, width = cells.shape
    across, down = _line_axis(bx, width), _line_axis(by, height)
    if across is None or down is None or across[:2] != down[:2]:
        return None
    p, t, x0, n = across
    _, _, y0, m = down
    x1, y1 = x0 + n * p + t, y0 + m * p + t
    # Margins around the drawing must be empty (free): anything drawn there is not this lattice.
    # Read from the cells as they are: no boolean copy of the whole image (the read's memory estimate
    # counts one byte a pixel here, the region's).
    if not (cells[:y0].all() and cells[y1:].all() and cells[y0:y1, :x0].all() and cells[y0:y1, x1:].all()):
        return None
    region = np.ones(((m + 1) * p, (n + 1) * p), dtype=bool)
    np.not_equal(cells[y0:y1, x0:x1], 0, out=region[: y1 - y0, : x1 - x0])
    sq = region.reshape(m + 1, p, n + 1, p)  # [lattice row, pixel row, lattice col, pixel col]
    if not sq[:m, t:, :n, t:].all():  # every corridor square free
        return None
    horizontal = sq[:, :t, :n, t:]  # (m + 1) x n segments between vertically adjacent cells
    vertical = sq[:m, t:, :, :t]  # m x (n + 1) segments between horizontally adjacent cells
    posts = sq[:, :t, :, :t]
    h_free, v_free = horizontal.all(axis=(1, 3)), vertical.all(axis=(1, 3))
    uniform = (
        (h_free | ~horizontal.any(axis=(1, 3))).all()
        and (v_free | ~vertical.any(axis=(1, 3))).all()
        and (posts.all(axis=(1, 3)) | ~posts.any(axis=(1, 3))).all()
    )
    if not uniform:
        return None
    grid = np.zeros((2 * m + 1, 2 * n + 1), dtype=np.uint8)  # posts stay walls
    grid[1::2, 1::2] = 1
    grid[0::2, 1::2] = h_free
    grid[1::2, 0::2] = v_free
    lattice = Lattice("lines", p, t, (x0, y0), _line_starts(y0, p, t, m), _line_starts(x0, p, t, n), y1, x1)
    return lattice, grid


def _line_starts(first: int, p: int, t: int, count: int) -> np.ndarray:
    """First pixel of each lattice row (column): wall line, corridor, wall line, ..., wall line."""
    lines = first + p * np.arange(count + 1, dtype=np.int64)
    starts = np.empty(2 * count + 1, dtype=np.int64)
    starts[0::2] = lines
    starts[1::2] = lines[:-1] + t
    return starts
