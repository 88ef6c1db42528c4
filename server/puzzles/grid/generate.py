"""Maze generators on the pixel lattice of the mikepound mazes, and writers for images and text.

A maze of ``rows`` x ``cols`` cells is a (2 rows + 1) x (2 cols + 1) pixel grid: cell (i, j) is the
pixel (2i + 1, 2j + 1), walls and corridors are one pixel wide, and the outer border is wall except
two openings: the start above the first cell of the top row, the goal below the last cell of the
bottom row.

Randomness comes from numpy's PCG64 seeded with ``seed`` and is drawn *before* the compiled
kernels run, so a seed gives the same maze on every machine and numba version.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from PIL import Image

from server.puzzles.errors import PuzzleError
from server.puzzles.grid.model import WALL, GridMaze

MAX_CELLS = 100_000_000  # 20001 x 20001 pixels: beyond that the image alone is over 400 MB

# Cell neighbours in the order N, E, S, W.
_DR = np.array([-1, 0, 1, 0], dtype=np.int64)
_DC = np.array([0, 1, 0, -1], dtype=np.int64)


def generate_perfect(rows: int, cols: int, seed: int = 0) -> GridMaze:
    """A perfect maze (exactly one path between any two cells): randomised depth-first search.

    The recursive backtracker, written with an explicit stack: long winding corridors, few
    junctions. 2000 x 2000 cells take well under a second once the kernel is compiled (cached).
    """
    _check_size(rows, cols)
    rng = np.random.default_rng(seed)
    first = int(rng.integers(rows * cols))
    draws = rng.integers(0, 2**31, size=rows * cols, dtype=np.int64)
    pixels = np.zeros((2 * rows + 1, 2 * cols + 1), dtype=np.uint8)
    _carve_backtracker(pixels, rows, cols, first, draws, _DR, _DC)
    return _with_openings(pixels, f"perfect-{rows}x{cols}-seed{seed}", [f"perfect maze, seed {seed}"])


def generate_braid(rows: int, cols: int, seed: int = 0, braid: float = 1.0) -> GridMaze:
    """A perfect maze whose dead ends are opened with probability ``braid`` (1.0: no dead end left).

    Each dead end (a cell with one passage, counting passages inside the maze only) knocks down
    one more of its walls, preferring a neighbour that is a dead end too, which removes two at
    once. With ``braid=1`` no dead end remains unless a dimension is 1 cell.
    """
    if not 0.0 <= braid <= 1.0:
        raise PuzzleError(f"braid must be between 0 and 1, not {braid}", "option 'braid'")
    maze = generate_perfect(rows, cols, seed)
    # A separate stream (seeded from the same seed) keeps the perfect maze identical for any braid.
    rng = np.random.default_rng([seed, 1])
    order = rng.permutation(rows * cols).astype(np.int64)
    chance = rng.random(rows * cols)
    draws = rng.integers(0, 2**31, size=rows * cols, dtype=np.int64)
    pixels = maze.cells.copy()
    opened = _remove_dead_ends(pixels, rows, cols, order, chance, draws, braid, _DR, _DC)
    return _with_openings(
        pixels,
        f"braid-{rows}x{cols}-seed{seed}",
        [f"braid maze, seed {seed}, braid {braid:g}: {opened} dead ends opened"],
    )


def maze_to_image(maze: GridMaze) -> Image.Image:
    """A two-colour palette image (index 0 black = wall, 1 white = free), like the mikepound PNGs.

    Weights are not kept: every free cell is white. Openings in the border are free, so white.
    """
    index = (maze.cells != WALL).astype(np.uint8)
    image = Image.frombytes("P", (maze.width, maze.height), index.tobytes())
    image.putpalette([0, 0, 0, 255, 255, 255])
    return image


def maze_to_text(maze: GridMaze) -> str:
    """The text format: ``#`` wall, ``.`` free, digits for weights 2-9, ``S`` starts, ``G`` goals."""
    chars = np.frombuffer(b"#.23456789", dtype=np.uint8)[np.minimum(maze.cells, 9)]
    flat = chars.reshape(-1)
    flat[maze.starts] = ord("S")
    flat[maze.goals] = ord("G")
    lines = np.concatenate([chars, np.full((maze.height, 1), ord("\n"), dtype=np.uint8)], axis=1)
    return lines.tobytes().decode("ascii")


# --- helpers ------------------------------------------------------------------------------------


def _check_size(rows: int, cols: int) -> None:
    if int(rows) != rows or int(cols) != cols or rows < 1 or cols < 1:
        raise PuzzleError(f"a maze needs at least 1 x 1 cells, not {rows} x {cols}", "option 'size'")
    if rows * cols > MAX_CELLS:
        raise PuzzleError(f"{rows} x {cols} cells is over the limit of {MAX_CELLS:,} cells", "option 'size'")


def _with_openings(pixels: np.ndarray, name: str, notes: list[str]) -> GridMaze:
    """Open the border above the first top cell (start) and below the last bottom cell (goal)."""
    height, width = pixels.shape
    pixels[0, 1] = 1
    pixels[height - 1, width - 2] = 1
    start = 1
    goal = (height - 1) * width + width - 2
    notes = [*notes, "start: the opening in the top border row", "goal: the opening in the bottom border row"]
    return GridMaze(pixels, [start], [goal], name=name, source="generated", notes=notes)


@njit(cache=True)
def _carve_backtracker(pixels, rows, cols, first, draws, dr, dc):  # pragma: no cover - compiled
    """Iterative recursive-backtracker: carve from the top of the stack into a random unvisited cell."""
    n = rows * cols
    visited = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    choices = np.empty(4, dtype=np.int64)
    stack[0] = first
    visited[first] = True
    pixels[2 * (first // cols) + 1, 2 * (first % cols) + 1] = 1
    depth = 1
    used = 0
    while depth > 0:
        cell = stack[depth - 1]
        r = cell // cols
        c = cell % cols
        k = 0
        for d in range(4):
            nr = r + dr[d]
            nc = c + dc[d]
            if 0 <= nr < rows and 0 <= nc < cols and not visited[nr * cols + nc]:
                choices[k] = d
                k += 1
        if k == 0:
            depth -= 1  # dead end: back up
            continue
        d = choices[draws[used] % k]
        used += 1
        nr = r + dr[d]
        nc = c + dc[d]
        nxt = nr * cols + nc
        visited[nxt] = True
        pixels[2 * r + 1 + dr[d], 2 * c + 1 + dc[d]] = 1  # the wall between the two cells
        pixels[2 * nr + 1, 2 * nc + 1] = 1
        stack[depth] = nxt
        depth += 1


@njit(cache=True)
def _passages(pixels, rows, cols, r, c, dr, dc):  # pragma: no cover - compiled
    count = 0
    for d in range(4):
        nr = r + dr[d]
        nc = c + dc[d]
        if 0 <= nr < rows and 0 <= nc < cols and pixels[2 * r + 1 + dr[d], 2 * c + 1 + dc[d]] != 0:
            count += 1
    return count


@njit(cache=True)
def _remove_dead_ends(pixels, rows, cols, order, chance, draws, braid, dr, dc):  # pragma: no cover
    """Visit cells in random order; open one more wall of each dead end with probability ``braid``."""
    preferred = np.empty(4, dtype=np.int64)
    others = np.empty(4, dtype=np.int64)
    opened = 0
    for i in range(order.shape[0]):
        cell = order[i]
        r = cell // cols
        c = cell % cols
        if _passages(pixels, rows, cols, r, c, dr, dc) != 1 or chance[i] >= braid:
            continue
        n_pref = 0
        n_other = 0
        for d in range(4):
            nr = r + dr[d]
            nc = c + dc[d]
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            if pixels[2 * r + 1 + dr[d], 2 * c + 1 + dc[d]] != 0:
                continue  # already open
            if _passages(pixels, rows, cols, nr, nc, dr, dc) == 1:
                preferred[n_pref] = d
                n_pref += 1
            else:
                others[n_other] = d
                n_other += 1
        if n_pref > 0:
            d = preferred[draws[i] % n_pref]
        elif n_other > 0:
            d = others[draws[i] % n_other]
        else:
            continue  # a 1-wide maze: nowhere to open
        pixels[2 * r + 1 + dr[d], 2 * c + 1 + dc[d]] = 1
        opened += 1
    return opened
