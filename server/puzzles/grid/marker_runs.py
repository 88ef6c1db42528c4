"""The image reader's union-find over marker runs, in plain Python over numpy arrays: ``image.py`` runs
it as it is for the few runs of an ordinary image, and ``image_kernels.py`` compiles the same source
with numba for the hostile images whose markers hold up to a million runs."""

from __future__ import annotations

import numpy as np


def label_runs(rows: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 8-connected blobs of runs (maximal, in reading order): each run's blob number, blobs
    numbered in the order of their first run, and each blob's first run.

    A union-find over runs (by size, with path halving), each row's runs swept against the row
    above's like a merge: linear in runs, however many pixels they cover. Plain Python that numba
    also compiles (``image_kernels``): one source for both."""
    n = rows.shape[0]
    parent = np.arange(n).astype(np.int32)
    size = np.ones(n, dtype=np.int32)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]  # path halving
            i = parent[i]
        return i

    above_lo = above_hi = 0  # the runs of the row before: [above_lo, above_hi)
    i = 0
    while i < n:
        j = i
        while j < n and rows[j] == rows[i]:
            j += 1
        if above_hi > above_lo and rows[above_lo] == rows[i] - 1:
            a, b = above_lo, i
            while a < above_hi and b < j:
                # Touching diagonally counts: the run above widened by one pixel on each side.
                if starts[a] <= ends[b] and starts[b] <= ends[a]:
                    ra, rb = root(a), root(b)
                    if ra != rb:
                        if size[ra] < size[rb]:
                            ra, rb = rb, ra
                        parent[rb] = ra
                        size[ra] += size[rb]
                if ends[a] < ends[b]:
                    a += 1
                else:
                    b += 1
        above_lo, above_hi, i = i, j, j
    number = size  # reused: a root's blob number (-1: none yet)
    number[:] = -1
    blob = np.empty(n, dtype=np.int32)
    first = np.empty(n, dtype=np.int32)
    count = 0
    for k in range(n):
        r = root(k)
        if number[r] < 0:
            number[r] = count
            first[count] = k
            count += 1
        blob[k] = number[r]
    return blob, first[:count].copy()
