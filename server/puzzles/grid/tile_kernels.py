"""Numba kernels that draw one tile of a huge grid maze at any step of a search (``tiles.py``).

A search on a board of hundreds of millions of cells is not streamed record by record: its
kernel writes each cell's expansion number into ``closed_at`` (``kernels.py``), and the board
after t expansions follows from that one array:

- a cell is **closed** at step t when ``closed_at[cell] < t``;
- a cell is **open** (on the frontier) at step t when it is not closed and one of its neighbours
  that may move into it was expanded before t (every kernel generates a cell when the first of
  its neighbours is expanded), or it is a *seed* (a start, or bidirectional search's goal: open
  before the first step). The few cells the formula would call open at the end but the search
  never generated (it stopped, or found the goal, within its last expansion) are *phantoms*.

A tile is ``size`` x ``size`` pixels; at level z one pixel covers 2**z x 2**z cells. Up to
``DIRECT_SCALE`` cells a side a pixel is the mean colour of its cells, drawn from the cells
themselves, except that a pixel holding a path cell is drawn as path and one holding a frontier
cell as frontier (a one-cell wavefront stays visible zoomed out). Coarser pixels are drawn from
8 x 8 block summaries (``block_summary``, ``maze_blocks``): per block its free cells, the sum of
their weights, how many were ever closed and the first and last expansion among them; a block
the wave is crossing at step t counts the share of its closed cells by linear interpolation
between those two. So a tile reads at most ~4 M cells or ~3.5 M blocks: tens of milliseconds.

Colours arrive as tables (``colours``: wall, free by weight, open, path; ``ramp``: 256 colours of
the expansion order), so that this file holds no palette.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BLOCK = 8  # the side of a summary block, in cells
DIRECT_SCALE = 8  # pixels covering at most this many cells a side are drawn from the cells
NEVER = np.iinfo(np.int32).max  # closed_at of a cell never expanded
BACK_BIT = 1 << 30  # closed_at of a cell bidirectional search's backward side expanded (kernels.py)
ORDER_MASK = BACK_BIT - 1

# Rows of the ``colours`` table: 0 wall, 1..9 free cells by weight, then these.
C_OPEN, C_PATH, C_OPEN_BACK, C_CLOSED_BACK = 10, 11, 12, 13
MOVE_ROW = np.array([-1, 0, 1, 0, -1, 1, 1, -1], np.int64)  # N, E, S, W, NE, SE, SW, NW (problem.py)
MOVE_COL = np.array([0, 1, 0, -1, 1, 1, -1, -1], np.int64)


@njit(cache=True, nogil=True)
def _first_reacher(cells, closed_at, width, height, r, c, moves):
    """``closed_at`` of the first-expanded neighbour that can move into (r, c): when the cell was
    reached (``& ORDER_MASK``; NEVER's is above every step) and by which side (``& BACK_BIT``)."""
    first = NEVER
    for d in range(moves):
        nr = r - MOVE_ROW[d]
        nc = c - MOVE_COL[d]
        if nr < 0 or nr >= height or nc < 0 or nc >= width:
            continue
        n = nr * width + nc
        value = closed_at[n]
        if cells[n] == 0 or (value & ORDER_MASK) >= (first & ORDER_MASK):
            continue
        if d >= 4 and (cells[nr * width + c] == 0 or cells[r * width + nc] == 0):
            continue  # a diagonal move never cuts a wall's corner
        first = value
    return first


@njit(cache=True, nogil=True)
def _opened_before(cells, closed_at, width, height, r, c, moves, t):
    """Whether a neighbour that can move into (r, c) was expanded before step t."""
    return (_first_reacher(cells, closed_at, width, height, r, c, moves) & ORDER_MASK) < t


@njit(cache=True, nogil=True)
def _path_mask(path_sorted, width, row0, rows, col0, cols):
    """A (rows, cols) uint8 mask of the path's cells inside the rectangle (rows of binary search)."""
    mask = np.zeros((rows, cols), np.uint8)
    if path_sorted.shape[0] == 0:
        return mask
    for i in range(rows):
        first = (row0 + i) * width + col0
        k = np.searchsorted(path_sorted, first)
        while k < path_sorted.shape[0] and path_sorted[k] < first + cols:
            mask[i, path_sorted[k] - first] = 1
            k += 1
    return mask


@njit(cache=True, nogil=True)
def draw_direct(cells, closed_at, width, height, row0, col0, scale, size, t, last, moves, seeds,
                back_seeds, phantoms, path_sorted, show_path, colours, ramp):
    """The tile whose top-left cell is (row0, col0), ``scale`` <= DIRECT_SCALE cells a pixel side.

    ``closed_at`` may be empty (the board without a search: ``t`` is then ignored). ``last`` is the
    largest expansion number (the ramp's end); ``phantoms`` are not open at ``t`` > ``last``.
    """
    rows = min(size * scale, height - row0)
    cols = min(size * scale, width - col0)
    out_h = (rows + scale - 1) // scale
    out_w = (cols + scale - 1) // scale
    out = np.empty((out_h, out_w, 3), np.uint8)
    searched = closed_at.shape[0] > 0
    path = _path_mask(path_sorted, width, row0, rows, col0, cols) if show_path else np.zeros((0, 0), np.uint8)
    to_ramp = 255.0 / max(1, last)
    for py in range(out_h):
        for px in range(out_w):
            red = 0
            green = 0
            blue = 0
            count = 0
            special = -1
            for dy in range(scale):
                i = py * scale + dy
                if i >= rows:
                    break
                r = row0 + i
                for dx in range(scale):
                    j = px * scale + dx
                    if j >= cols:
                        break
                    c = col0 + j
                    cell = r * width + c
                    weight = cells[cell]
                    count += 1
                    if show_path and path[i, j]:
                        special = C_PATH
                        continue
                    if weight == 0 or not searched:
                        red += colours[weight, 0]
                        green += colours[weight, 1]
                        blue += colours[weight, 2]
                        continue
                    value = closed_at[cell]
                    if value != NEVER and (value & ORDER_MASK) < t:
                        if value & BACK_BIT:
                            red += colours[C_CLOSED_BACK, 0]
                            green += colours[C_CLOSED_BACK, 1]
                            blue += colours[C_CLOSED_BACK, 2]
                        else:
                            k = int((value & ORDER_MASK) * to_ramp)
                            red += ramp[k, 0]
                            green += ramp[k, 1]
                            blue += ramp[k, 2]
                        continue
                    reacher = _first_reacher(cells, closed_at, width, height, r, c, moves)
                    back = (reacher & BACK_BIT) != 0
                    is_open = (reacher & ORDER_MASK) < t
                    if not is_open:
                        for s in seeds:
                            if s == cell:
                                is_open = True
                                back = False
                        for s in back_seeds:
                            if s == cell:
                                is_open = True
                                back = True
                    if is_open and t > last:
                        for s in phantoms:
                            if s == cell:
                                is_open = False
                    if is_open:
                        if special < 0 or (special == C_OPEN_BACK and not back):
                            special = C_OPEN_BACK if back else C_OPEN
                        continue
                    red += colours[weight, 0]
                    green += colours[weight, 1]
                    blue += colours[weight, 2]
            if special >= 0:
                out[py, px, 0] = colours[special, 0]
                out[py, px, 1] = colours[special, 1]
                out[py, px, 2] = colours[special, 2]
            else:
                out[py, px, 0] = red // count
                out[py, px, 1] = green // count
                out[py, px, 2] = blue // count
    return out


@njit(cache=True, nogil=True)
def maze_blocks(cells, width, height):
    """Per 8 x 8 block: its cells, its free cells, and the sum of their weights."""
    brows = (height + BLOCK - 1) // BLOCK
    bcols = (width + BLOCK - 1) // BLOCK
    total = np.zeros(brows * bcols, np.uint8)
    free = np.zeros(brows * bcols, np.uint8)
    weights = np.zeros(brows * bcols, np.uint16)
    for r in range(height):
        base = (r // BLOCK) * bcols
        for c in range(width):
            b = base + c // BLOCK
            total[b] += 1
            w = cells[r * width + c]
            if w != 0:
                free[b] += 1
                weights[b] += w
    return total, free, weights


@njit(cache=True, nogil=True)
def block_summary(closed_at, width, height):
    """Per 8 x 8 block: how many of its cells were ever expanded, and the first and last number;
    and the cell expanded last (-1: none)."""
    brows = (height + BLOCK - 1) // BLOCK
    bcols = (width + BLOCK - 1) // BLOCK
    closed = np.zeros(brows * bcols, np.uint8)
    first = np.full(brows * bcols, NEVER, np.int32)
    latest = np.full(brows * bcols, -1, np.int32)
    last_cell = -1
    last_order = -1
    for r in range(height):
        base = (r // BLOCK) * bcols
        for c in range(width):
            order = closed_at[r * width + c]
            if order == NEVER:
                continue
            order &= ORDER_MASK
            b = base + c // BLOCK
            closed[b] += 1
            if order < first[b]:
                first[b] = order
            if order > latest[b]:
                latest[b] = order
            if order > last_order:
                last_order = order
                last_cell = r * width + c
    return closed, first, latest, last_cell


@njit(cache=True, nogil=True)
def draw_blocks(total, free, weights, closed, first, latest, width, height, row0, col0, scale, size, t,
                last, path_sorted, show_path, colours, ramp):
    """The tile whose top-left cell is (row0, col0), ``scale`` (a multiple of 8) cells a pixel side,
    from the block summaries; ``closed`` may be empty (the board without a search)."""
    bcols = (width + BLOCK - 1) // BLOCK
    rows = min(size * scale, height - row0)
    cols = min(size * scale, width - col0)
    out_h = (rows + scale - 1) // scale
    out_w = (cols + scale - 1) // scale
    per = scale // BLOCK  # blocks a pixel side
    searched = closed.shape[0] > 0
    path_px = np.zeros((out_h, out_w), np.uint8)
    if show_path and path_sorted.shape[0] > 0:
        for i in range(rows):  # mark the pixels of the path's cells, row by row
            first_cell = (row0 + i) * width + col0
            k = np.searchsorted(path_sorted, first_cell)
            while k < path_sorted.shape[0] and path_sorted[k] < first_cell + cols:
                path_px[i // scale, (path_sorted[k] - first_cell) // scale] = 1
                k += 1
    to_ramp = 255.0 / max(1, last)
    b_row0 = row0 // BLOCK
    b_col0 = col0 // BLOCK
    b_rows = (height + BLOCK - 1) // BLOCK
    out = np.empty((out_h, out_w, 3), np.uint8)
    for py in range(out_h):
        for px in range(out_w):
            if path_px[py, px]:
                for k in range(3):
                    out[py, px, k] = colours[C_PATH, k]
                continue
            n_all = 0.0
            acc0 = 0.0
            acc1 = 0.0
            acc2 = 0.0
            for by in range(b_row0 + py * per, min(b_row0 + (py + 1) * per, b_rows)):
                for bx in range(b_col0 + px * per, min(b_col0 + (px + 1) * per, bcols)):
                    b = by * bcols + bx
                    n_free = float(free[b])
                    n_wall = float(total[b]) - n_free
                    n_all += total[b]
                    acc0 += n_wall * colours[0, 0]
                    acc1 += n_wall * colours[0, 1]
                    acc2 += n_wall * colours[0, 2]
                    if n_free == 0:
                        continue
                    n_closed = 0.0
                    if searched and closed[b] > 0 and t > first[b]:
                        if t > latest[b]:
                            n_closed = float(closed[b])
                        else:  # the wave is crossing the block: its share, interpolated
                            n_closed = closed[b] * (t - first[b]) / (latest[b] - first[b] + 1.0)
                        k = int((first[b] + min(t - 1, latest[b])) * 0.5 * to_ramp)
                        acc0 += n_closed * ramp[k, 0]
                        acc1 += n_closed * ramp[k, 1]
                        acc2 += n_closed * ramp[k, 2]
                    mean_weight = int(weights[b] / n_free + 0.5)
                    rest = n_free - n_closed
                    acc0 += rest * colours[mean_weight, 0]
                    acc1 += rest * colours[mean_weight, 1]
                    acc2 += rest * colours[mean_weight, 2]
            if n_all == 0:
                n_all = 1.0
            out[py, px, 0] = int(acc0 / n_all)
            out[py, px, 1] = int(acc1 / n_all)
            out[py, px, 2] = int(acc2 / n_all)
    return out


@njit(cache=True, nogil=True)
def phantom_cells(cells, closed_at, width, height, moves, last_cell, generated_moves):
    """Cells the open formula calls open after the last expansion (of ``last_cell``) that the search
    never generated: the last cell's neighbours first reached by that expansion, through a move
    other than ``generated_moves`` (the moves it did generate before it stopped)."""
    out = np.empty(8, np.int64)
    n = 0
    if last_cell < 0:
        return out[:0]
    best = closed_at[last_cell] & ORDER_MASK
    r0 = last_cell // width
    c0 = last_cell - r0 * width
    for d in range(moves):
        r = r0 + MOVE_ROW[d]
        c = c0 + MOVE_COL[d]
        if r < 0 or r >= height or c < 0 or c >= width:
            continue
        cell = r * width + c
        if cells[cell] == 0 or closed_at[cell] != NEVER:
            continue
        if _opened_before(cells, closed_at, width, height, r, c, moves, best):
            continue  # open before the last expansion already
        if not _opened_before(cells, closed_at, width, height, r, c, moves, best + 1):
            continue  # the move from the last cell is not legal (a cut corner)
        generated = False
        for g in generated_moves:
            if g == d:
                generated = True
        if not generated:
            out[n] = cell
            n += 1
    return out[:n]


@njit(cache=True, nogil=True)
def opened_counts(cells, closed_at, width, height, moves, seeds, every, samples):
    """How many cells were reached (open or closed) before step k * ``every``, k = 0 .. samples - 1,
    and by the end of the search. ``seeds``: every cell open before step 0 (both sides' of a
    bidirectional search).

    A cell is reached at the first expansion of a neighbour that can move into it (seeds before
    step 0); so the frontier at step t = k * every is ``counts[k] - t``.
    """
    per_sample = np.zeros(samples + 1, np.int64)
    reached = seeds.shape[0]
    for r in range(height):
        for c in range(width):
            cell = r * width + c
            if cells[cell] == 0:
                continue
            seed = False
            for s in seeds:
                if s == cell:
                    seed = True
            if seed:
                continue
            first = _first_reacher(cells, closed_at, width, height, r, c, moves) & ORDER_MASK
            if first == ORDER_MASK:  # never reached
                continue
            reached += 1
            k = first // every + 1  # reached before step k * every for every k above first / every
            if k <= samples:
                per_sample[k] += 1
    per_sample[0] += seeds.shape[0]
    counts = np.empty(samples, np.int64)
    total = 0
    for k in range(samples):
        total += per_sample[k]
        counts[k] = total
    return counts, reached
