"""Uniform-cost search backwards from every goal at once over an explicit graph of moves (arrays of
sources, destinations and costs), compiled: the heuristic lab's h* (``heuristic_lab.backward_costs``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .indexed_heap import SETTLED, lowered, pop_min, started


@njit(cache=True, nogil=True)
def backward_costs(count, src, dst, cost, goals):
    """Each state's cheapest cost to a goal: the moves into each state grouped
    (``into[starts[v]:starts[v + 1]]``), then Dijkstra with a heap that holds each state at most once
    (``slot``: its place, -1 never reached, -2 settled), so its memory is known before it runs."""
    starts = np.zeros(count + 1, dtype=np.int64)
    for m in range(dst.shape[0]):
        starts[dst[m] + 1] += 1
    for v in range(count):
        starts[v + 1] += starts[v]
    into = np.empty(dst.shape[0], dtype=np.int64)
    fill = np.empty(count, dtype=np.int64)
    for v in range(count):
        fill[v] = starts[v]
    for m in range(dst.shape[0]):
        v = dst[m]
        into[fill[v]] = m
        fill[v] += 1
    best = np.full(count, np.inf)
    slot = fill  # its room reused
    heap = np.empty(count, dtype=np.int64)
    size = started(heap, slot, best, goals)
    while size > 0:
        state, size = pop_min(heap, slot, best, size)
        g = best[state]
        for k in range(starts[state], starts[state + 1]):
            m = into[k]
            prev = src[m]
            if slot[prev] == SETTLED:
                continue
            through = g + cost[m]
            if through < best[prev]:
                best[prev] = through
                size = lowered(heap, slot, best, prev, size)
    return best
