"""The maze kinds on the cell lattice: compiled kernels and the drivers that draw their randomness.

Cell (i, j) of a ``rows`` x ``cols`` maze is pixel (2i + 1, 2j + 1) of a (2 rows + 1) x (2 cols + 1)
board; the pixel between two neighbouring cells is the wall or passage joining them. Every driver
returns the board (openings not cut yet) and its steps: ``(flat pixel, new value)`` rows in the
order the algorithm made them, so replaying them on a board of the initial fill gives the board.

All randomness is drawn with numpy's PCG64 *before* a kernel runs; the kernels only index into
the drawn arrays, so a seed gives the same maze on every machine and numba version. A kernel
writes a step only while there is room in ``steps`` (an empty array records nothing), so callers
that need no animation pay nothing for it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Cell neighbours in the order N, E, S, W.
DR = np.array([-1, 0, 1, 0], dtype=np.int64)
DC = np.array([0, 1, 0, -1], dtype=np.int64)

ROOM_CELLS = 5  # rooms: chambers at most this many cells each way are not divided further
ROOM_MIN_SIDE = 2  # rooms: a wall leaves at least this many cells each side (when there is room)


def _draws(rng: np.random.Generator, n: int, dtype: type = np.int64) -> np.ndarray:
    # The backtracker and braid keep int64 (their mazes are in the gallery); the newer kinds draw
    # int32, half the memory on the largest boards.
    return rng.integers(0, 2**31, size=n, dtype=dtype)


def _steps(capacity: int, record: bool) -> np.ndarray:
    return np.empty((capacity if record else 0, 2), dtype=np.int32)


def _trim(steps: np.ndarray, count: int) -> np.ndarray:
    if steps.shape[0] == 0:
        return steps
    assert count <= steps.shape[0], "a kernel made more steps than its bound"
    return steps[:count].copy()  # a copy, so the over-allocated buffer is freed


# --- drivers --------------------------------------------------------------------------------------


def backtracker(rows: int, cols: int, seed: int, record: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Recursive backtracker (randomised depth-first search); the draws of the original generator."""
    n = rows * cols
    rng = np.random.default_rng(seed)
    first = int(rng.integers(n))
    draws = _draws(rng, n)
    pixels = np.zeros((2 * rows + 1, 2 * cols + 1), dtype=np.uint8)
    steps = _steps(2 * n - 1, record)
    count = _carve_backtracker(pixels, steps, rows, cols, first, draws, DR, DC)
    return pixels, _trim(steps, count)


def braid(
    pixels: np.ndarray, steps: np.ndarray, rows: int, cols: int, seed: int, chance_open: float, record: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """Open dead ends of a perfect maze (in place) with probability ``chance_open``; steps appended."""
    n = rows * cols
    # A separate stream (seeded from the same seed) keeps the perfect maze identical for any braid.
    rng = np.random.default_rng([seed, 1])
    order = rng.permutation(n).astype(np.int64)
    chance = rng.random(n)
    draws = _draws(rng, n)
    more = _steps(n, record)
    opened = _remove_dead_ends(pixels, more, rows, cols, order, chance, draws, chance_open, DR, DC)
    return pixels, np.concatenate([steps, _trim(more, opened)]), opened


def prim(rows: int, cols: int, seed: int, record: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Randomised Prim: grow from one cell, adding a random frontier cell by a random wall each time."""
    n = rows * cols
    rng = np.random.default_rng([seed, 2])
    first = int(rng.integers(n))
    draws = _draws(rng, 2 * n, np.int32)
    pixels = np.zeros((2 * rows + 1, 2 * cols + 1), dtype=np.uint8)
    steps = _steps(2 * n - 1, record)
    count = _carve_prim(pixels, steps, rows, cols, first, draws, DR, DC)
    return pixels, _trim(steps, count)


def kruskal(rows: int, cols: int, seed: int, record: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Randomised Kruskal: walls in random order, each knocked down if it joins two separate trees.

    The animation shows every cell first (a lattice of isolated cells, Kruskal's starting forest),
    then the walls knocked down in the order the algorithm takes them.
    """
    n = rows * cols
    rng = np.random.default_rng([seed, 3])
    edges = rows * (cols - 1) + (rows - 1) * cols
    order = rng.permutation(edges).astype(np.int64)
    width = 2 * cols + 1
    pixels = np.zeros((2 * rows + 1, width), dtype=np.uint8)
    cells = ((2 * np.arange(rows) + 1)[:, None] * width + (2 * np.arange(cols) + 1)[None, :]).ravel()
    pixels.ravel()[cells] = 1
    steps = _steps(2 * n - 1, record)
    if record:
        steps[:n, 0] = cells
        steps[:n, 1] = 1
    count = _join_kruskal(pixels, steps, n, rows, cols, order)
    return pixels, _trim(steps, count)


def division(
    rows: int, cols: int, seed: int, rooms: bool, skip: tuple[int, ...], record: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Recursive division: walls added to an open board, the border first (but the ``skip`` pixels).

    ``rooms=False``: one gap per wall, down to corridors one cell wide: a perfect maze.
    ``rooms=True``: chambers of at most ROOM_CELLS x ROOM_CELLS cells stay open rooms, and a wall
    of L cells gets 1 + L / (2 ROOM_CELLS) doors on average (randomly rounded), spread along it, so
    neighbouring rooms are joined more than once and the maze has loops.
    """
    n = rows * cols
    rng = np.random.default_rng([seed, 5 if rooms else 4])
    # Bounds on the draws: division makes at most n - 1 walls of 3 draws; rooms make far fewer
    # walls (chambers stop at ROOM_CELLS) but more doors. The kernel wraps around, never overruns.
    draws = _draws(rng, 3 * n + 16 if not rooms else n + 64, np.int32)
    height, width = 2 * rows + 1, 2 * cols + 1
    pixels = np.ones((height, width), dtype=np.uint8)
    border = np.concatenate(
        [
            np.arange(width),  # top row, left to right
            np.arange(1, height) * width + width - 1,  # right column, down
            (height - 1) * width + np.arange(width - 2, -1, -1),  # bottom row, right to left
            np.arange(height - 2, 0, -1) * width,  # left column, up
        ]
    )
    border = border[~np.isin(border, skip)]
    pixels.ravel()[border] = 0
    steps = _steps(height * width, record)  # never more steps than pixels: each wall pixel set once
    if record:
        steps[: len(border), 0] = border
        steps[: len(border), 1] = 0
    room, side, door_span = (ROOM_CELLS, ROOM_MIN_SIDE, 2 * ROOM_CELLS) if rooms else (1, 1, 0)
    count = _divide(pixels, steps, len(border), rows, cols, draws, room, side, door_span)
    return pixels, _trim(steps, count)


# --- kernels --------------------------------------------------------------------------------------


@njit(cache=True)
def _put(pixels, steps, k, r, c, value):  # pragma: no cover - compiled
    """Set pixel (r, c) and record it as step ``k`` if there is room; returns k + 1."""
    pixels[r, c] = value
    if k < steps.shape[0]:
        steps[k, 0] = r * pixels.shape[1] + c
        steps[k, 1] = value
    return k + 1


@njit(cache=True)
def _carve_backtracker(pixels, steps, rows, cols, first, draws, dr, dc):  # pragma: no cover - compiled
    """Iterative recursive-backtracker: carve from the top of the stack into a random unvisited cell."""
    n = rows * cols
    visited = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    choices = np.empty(4, dtype=np.int64)
    stack[0] = first
    visited[first] = True
    k = _put(pixels, steps, 0, 2 * (first // cols) + 1, 2 * (first % cols) + 1, 1)
    depth = 1
    used = 0
    while depth > 0:
        cell = stack[depth - 1]
        r = cell // cols
        c = cell % cols
        m = 0
        for d in range(4):
            nr = r + dr[d]
            nc = c + dc[d]
            if 0 <= nr < rows and 0 <= nc < cols and not visited[nr * cols + nc]:
                choices[m] = d
                m += 1
        if m == 0:
            depth -= 1  # dead end: back up
            continue
        d = choices[draws[used] % m]
        used += 1
        nr = r + dr[d]
        nc = c + dc[d]
        nxt = nr * cols + nc
        visited[nxt] = True
        k = _put(pixels, steps, k, 2 * r + 1 + dr[d], 2 * c + 1 + dc[d], 1)  # the wall between them
        k = _put(pixels, steps, k, 2 * nr + 1, 2 * nc + 1, 1)
        stack[depth] = nxt
        depth += 1
    return k


@njit(cache=True)
def _carve_prim(pixels, steps, rows, cols, first, draws, dr, dc):  # pragma: no cover - compiled
    """Randomised Prim over cells: the frontier is an array with swap-removal, so a pick is O(1)."""
    n = rows * cols
    in_maze = np.zeros(n, dtype=np.bool_)
    queued = np.zeros(n, dtype=np.bool_)
    frontier = np.empty(n, dtype=np.int64)
    choices = np.empty(4, dtype=np.int64)
    size = 0
    used = 0
    cell = first
    in_maze[cell] = True
    k = _put(pixels, steps, 0, 2 * (cell // cols) + 1, 2 * (cell % cols) + 1, 1)
    while True:
        r = cell // cols
        c = cell % cols
        for d in range(4):
            nr = r + dr[d]
            nc = c + dc[d]
            if 0 <= nr < rows and 0 <= nc < cols:
                nxt = nr * cols + nc
                if not in_maze[nxt] and not queued[nxt]:
                    queued[nxt] = True
                    frontier[size] = nxt
                    size += 1
        if size == 0:
            break
        i = draws[used] % size
        used += 1
        cell = frontier[i]
        size -= 1
        frontier[i] = frontier[size]
        r = cell // cols
        c = cell % cols
        m = 0
        for d in range(4):  # the walls to the maze: one is knocked down
            nr = r + dr[d]
            nc = c + dc[d]
            if 0 <= nr < rows and 0 <= nc < cols and in_maze[nr * cols + nc]:
                choices[m] = d
                m += 1
        d = choices[draws[used] % m]
        used += 1
        in_maze[cell] = True
        k = _put(pixels, steps, k, 2 * r + 1 + dr[d], 2 * c + 1 + dc[d], 1)
        k = _put(pixels, steps, k, 2 * r + 1, 2 * c + 1, 1)
    return k


@njit(cache=True)
def _root(parent, a):  # pragma: no cover - compiled
    while parent[a] != a:
        parent[a] = parent[parent[a]]  # path halving
        a = parent[a]
    return a


@njit(cache=True)
def _join_kruskal(pixels, steps, k, rows, cols, order):  # pragma: no cover - compiled
    """Union-find by size over cells; edge e < rows*(cols-1) is east of a cell, the rest south."""
    n = rows * cols
    parent = np.arange(n).astype(np.int32)  # int32: half the cache misses of int64 on big boards
    size = np.ones(n, dtype=np.int32)
    across = rows * (cols - 1)
    joined = 0
    for i in range(order.shape[0]):
        if joined == n - 1:
            break  # a spanning tree: every later wall would close a loop
        e = order[i]
        if e < across:
            r = e // (cols - 1)
            c = e % (cols - 1)
            a = r * cols + c
            b = a + 1
            pr, pc = 2 * r + 1, 2 * c + 2
        else:
            e -= across
            r = e // cols
            c = e % cols
            a = r * cols + c
            b = a + cols
            pr, pc = 2 * r + 2, 2 * c + 1
        ra = _root(parent, a)
        rb = _root(parent, b)
        if ra == rb:
            continue
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        joined += 1
        k = _put(pixels, steps, k, pr, pc, 1)
    return k


@njit(cache=True)
def _divide(pixels, steps, k, rows, cols, draws, room, min_side, door_span):  # pragma: no cover
    """Recursive division with an explicit stack of chambers (row, col, height, width in cells).

    A wall runs on the even pixel line between two rows (columns) of cells, from one side of the
    chamber to the other; its doors are at cell positions (odd pixels), so a later wall, which
    ends on an even pixel of this one, never blocks a door. Depth first, so the animation finishes
    one part of the board before the next, as the recursive version would.
    """
    m = draws.shape[0]
    # Each division pops one chamber and pushes two, and a chamber is at least one cell lower or
    # narrower than its parent: the stack never holds more than rows + cols + 1 chambers.
    stack = np.empty((rows + cols + 2, 4), dtype=np.int64)
    door = np.zeros(max(rows, cols), dtype=np.bool_)
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = rows
    stack[0, 3] = cols
    sp = 1
    used = 0
    while sp > 0:
        sp -= 1
        r0 = stack[sp, 0]
        c0 = stack[sp, 1]
        h = stack[sp, 2]
        w = stack[sp, 3]
        if h < 2 or w < 2 or (h <= room and w <= room):
            continue  # a corridor one cell wide (its walls would be all gap) or a finished room
        if h > w:
            horizontal = True
        elif w > h:
            horizontal = False
        else:
            horizontal = draws[used % m] % 2 == 0
            used += 1
        span = h if horizontal else w  # cells across the wall
        length = w if horizontal else h  # cells along the wall
        side = min_side if span >= 2 * min_side else 1
        # The wall follows cell a (counted from the chamber's first row or column).
        a = side - 1 + draws[used % m] % (span - 2 * side + 1)
        used += 1
        doors = 1
        if door_span > 0:
            doors += (length + draws[used % m] % door_span) // door_span  # randomly rounded
            used += 1
            doors = min(doors, length)
        for s in range(doors):  # one door in each of ``doors`` equal stretches of the wall
            lo = s * length // doors
            hi = (s + 1) * length // doors
            door[lo + draws[used % m] % (hi - lo)] = True
            used += 1
        for t in range(2 * length - 1):  # pixels along the wall; even t is beside cell t // 2
            if t % 2 == 0 and door[t // 2]:
                continue
            if horizontal:
                k = _put(pixels, steps, k, 2 * (r0 + a) + 2, 2 * c0 + 1 + t, 0)
            else:
                k = _put(pixels, steps, k, 2 * r0 + 1 + t, 2 * (c0 + a) + 2, 0)
        door[:length] = False
        # Push the second part first, so the first is divided next.
        if horizontal:
            stack[sp, 0] = r0 + a + 1
            stack[sp, 1] = c0
            stack[sp, 2] = h - a - 1
            stack[sp, 3] = w
            stack[sp + 1, 0] = r0
            stack[sp + 1, 1] = c0
            stack[sp + 1, 2] = a + 1
            stack[sp + 1, 3] = w
        else:
            stack[sp, 0] = r0
            stack[sp, 1] = c0 + a + 1
            stack[sp, 2] = h
            stack[sp, 3] = w - a - 1
            stack[sp + 1, 0] = r0
            stack[sp + 1, 1] = c0
            stack[sp + 1, 2] = h
            stack[sp + 1, 3] = a + 1
        sp += 2
    return k


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
def _remove_dead_ends(pixels, steps, rows, cols, order, chance, draws, braid, dr, dc):  # pragma: no cover
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
        opened = _put(pixels, steps, opened, 2 * r + 1 + dr[d], 2 * c + 1 + dc[d], 1)
    return opened
