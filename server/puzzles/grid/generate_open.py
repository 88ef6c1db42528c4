"""The board kinds without a cell lattice: ``random`` (scattered walls) and ``terrain`` (weighted noise).

A ``rows`` x ``cols`` board, one cell per square, start at the top-left corner, goal at the
bottom-right one. Both are free and joined by a path, whatever the density. All randomness is
drawn with numpy's PCG64 before any compiled kernel runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...i18n import t

RANDOM_DENSITY = 0.3  # random: chance that a cell is a wall
TERRAIN_DENSITY = 0.1  # terrain: share of the board, the highest ground, that is impassable rock
FEATURE_CELLS = 64  # terrain: the widest hills are about this many cells across (or a quarter board)


def random_board(rows: int, cols: int, seed: int, density: float, record: bool = True):
    """Each cell a wall with probability ``density``; start and goal joined by a guaranteed path.

    The walls are drawn first. If they cut the start off from the goal (likely above a density of
    about 0.4, where the free cells stop percolating), the walls on a random monotone staircase from
    start to goal (each step down or right, in shuffled order) are taken away again. So a solvable
    draw is kept exactly as drawn, and an unsolvable one changes only along that one path.
    Steps: the walls, in random order (each cell's uniform draw orders them), on a board of 1s.
    """
    rng = np.random.default_rng([seed, 6])
    u = rng.random((rows, cols))
    moves = rng.permutation(np.repeat(np.array([0, 1], dtype=np.int64), [rows - 1, cols - 1]))
    walls = u < density
    goal = rows * cols - 1
    walls.ravel()[[0, goal]] = False
    cleared = 0
    if not _joined(np.ascontiguousarray(~walls).ravel(), rows, cols, 0, goal):
        path_r = np.concatenate([[0], np.cumsum(moves == 0)])
        path_c = np.concatenate([[0], np.cumsum(moves == 1)])
        cleared = int(walls[path_r, path_c].sum())
        walls[path_r, path_c] = False
    cells = (~walls).astype(np.uint8)
    where = np.flatnonzero(walls)
    steps = np.empty((0, 2), dtype=np.int32)
    if record:
        order = where[np.argsort(u.ravel()[where], kind="stable")]
        steps = np.column_stack([order, np.zeros_like(order)]).astype(np.int32)
    note = t("grid.walls_share", walls=len(where), share=f"{len(where) / cells.size:.0%}")
    if cleared:
        note += t("grid.walls_taken_off_staircase_path", cleared=cleared)
    return cells, steps, note


def terrain_board(rows: int, cols: int, seed: int, density: float, record: bool = True):
    """Costs 1..9 from smooth value noise; the highest ``density`` of the board is rock (walls).

    Value noise: octaves of random values on ever finer lattices (each half the spacing and half
    the amplitude of the last), smoothly interpolated and summed. Costs are the noise's ninths by
    rank among the free cells, so each cost from 1 to 9 covers about a ninth of the ground. If the
    rock cuts the start off from the goal, the rock line is raised to the lowest saddle between
    them (the smallest height a path from start to goal must climb), so there are fewer walls than
    asked but the goal can be reached. Start and goal cost 1.
    Steps: on a board of 1s, the cells in order of height, so the land rises; rock comes last.
    """
    rng = np.random.default_rng([seed, 7])
    height = _value_noise(rng, rows, cols)
    flat = height.ravel()
    goal = rows * cols - 1
    flat[[0, goal]] = -np.inf  # the ends are the lowest ground: always free, cost 1
    inner = flat[np.isfinite(flat)]  # all but the ends (empty on a 1 x 1 or 1 x 2 board)
    walls = np.zeros(flat.shape, dtype=bool)
    raised = False
    if density > 0 and inner.size:
        walls = flat > np.quantile(inner, 1.0 - density)
        if not _joined(~walls, rows, cols, 0, goal):
            saddle = _saddle(flat, np.argsort(flat, kind="stable"), rows, cols, 0, goal)
            walls = flat > saddle
            raised = True
    ground = inner[~walls[np.isfinite(flat)]]
    levels = np.quantile(ground, np.arange(1, 9) / 9) if ground.size else np.zeros(0, dtype=np.float32)
    cells = (1 + np.searchsorted(levels, flat, side="left")).astype(np.uint8)
    cells[walls] = 0
    cells = cells.reshape(rows, cols)
    steps = np.empty((0, 2), dtype=np.int32)
    if record:
        order = np.argsort(flat, kind="stable")
        order = order[cells.ravel()[order] != 1]
        steps = np.column_stack([order, cells.ravel()[order]]).astype(np.int32)
    costs = np.bincount(cells.ravel(), minlength=10)
    note = t("grid.rock_cells", costs=int(costs[0]), value=f"{costs[0] / cells.size:.0%}")
    if raised:
        note += t("grid.rock_line_raised_lowest_pass")
    return cells, steps, note


def _value_noise(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """Octaves of smoothly interpolated lattice noise, float32 (rows, cols)."""
    total = np.zeros((rows, cols), dtype=np.float32)
    spacing = float(min(FEATURE_CELLS, max(2, max(rows, cols) // 4)))
    amplitude = 1.0
    while True:
        lattice = rng.random((int(rows / spacing) + 2, int(cols / spacing) + 2), dtype=np.float32)
        r0, tr = _weights(rows, spacing, rng)
        c0, tc = _weights(cols, spacing, rng)
        # Separable interpolation: along the rows first (a small array), then along the columns.
        band = lattice[r0] * (1 - tr)[:, None] + lattice[r0 + 1] * tr[:, None]
        total += amplitude * (band[:, c0] * (1 - tc) + band[:, c0 + 1] * tc)
        if spacing <= 2:
            return total
        spacing /= 2
        amplitude /= 2


def _weights(n: int, spacing: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Lattice index and smoothstep weight of each of ``n`` positions; a random shift per octave, so
    the lattices of the octaves do not line up."""
    x = (np.arange(n, dtype=np.float32) + np.float32(rng.random())) / np.float32(spacing)
    i = x.astype(np.int64)
    t = x - i
    return i, (t * t * (3 - 2 * t)).astype(np.float32)


@njit(cache=True)
def _joined(free, rows, cols, start, goal):  # pragma: no cover - compiled
    """Breadth-first search over free cells: is ``goal`` reachable from ``start``?"""
    seen = np.zeros(rows * cols, dtype=np.bool_)
    queue = np.empty(rows * cols, dtype=np.int64)
    queue[0] = start
    seen[start] = True
    head = 0
    tail = 1
    while head < tail:
        cell = queue[head]
        head += 1
        if cell == goal:
            return True
        r = cell // cols
        c = cell % cols
        for d in range(4):
            nr = r + (d == 2) - (d == 0)
            nc = c + (d == 1) - (d == 3)
            if 0 <= nr < rows and 0 <= nc < cols:
                nxt = nr * cols + nc
                if free[nxt] and not seen[nxt]:
                    seen[nxt] = True
                    queue[tail] = nxt
                    tail += 1
    return False


@njit(cache=True)
def _saddle(height, order, rows, cols, start, goal):  # pragma: no cover - compiled
    """The lowest height h such that cells no higher than h join start and goal (union-find, cells
    added from the lowest)."""
    parent = np.arange(rows * cols)
    added = np.zeros(rows * cols, dtype=np.bool_)
    for i in range(order.shape[0]):
        cell = order[i]
        added[cell] = True
        r = cell // cols
        c = cell % cols
        for d in range(4):
            nr = r + (d == 2) - (d == 0)
            nc = c + (d == 1) - (d == 3)
            if 0 <= nr < rows and 0 <= nc < cols and added[nr * cols + nc]:
                a = _root(parent, cell)
                b = _root(parent, nr * cols + nc)
                if a != b:
                    parent[a] = b
        if added[start] and added[goal] and _root(parent, start) == _root(parent, goal):
            return height[cell]
    return height[order[order.shape[0] - 1]]


@njit(cache=True)
def _root(parent, a):  # pragma: no cover - compiled
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a
