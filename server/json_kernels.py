"""The compiled loop behind ``server.json_arrays``: flat cell indices as the JSON text of their
``[[row, col], ...]`` pairs. Imported on first use (numba's import is not free); cached by numba."""

from __future__ import annotations

import numba
import numpy as np

_OPEN, _CLOSE, _COMMA, _SPACE, _ZERO = 91, 93, 44, 32, 48  # [ ] , space 0


@numba.njit(cache=True, nogil=True)
def _digits(value: int) -> int:
    count = 1
    while value >= 10:
        value //= 10
        count += 1
    return count


@numba.njit(cache=True, nogil=True)
def _put(out: np.ndarray, pos: int, value: int) -> int:
    """Write ``value`` (>= 0) in decimal at ``pos``; returns the position after it."""
    end = pos + _digits(value)
    at = end - 1
    while True:
        out[at] = _ZERO + value % 10
        value //= 10
        at -= 1
        if value == 0:
            break
    return end


@numba.njit(cache=True, nogil=True)
def pairs_text(cells: np.ndarray, width: int, spaced: bool) -> np.ndarray:
    """ASCII bytes of ``[[r, c], ...]`` for ``cells`` (int64, >= 0) on a board ``width`` wide: what
    ``json.dumps`` writes with separators "," (or ", " when ``spaced``)."""
    n = cells.shape[0]
    sep = 2 if spaced else 1
    total = 2
    for i in range(n):
        row = cells[i] // width
        total += 2 + sep + _digits(row) + _digits(cells[i] - row * width)
    if n > 1:
        total += (n - 1) * sep
    out = np.empty(total, np.uint8)
    out[0] = _OPEN
    pos = 1
    for i in range(n):
        if i > 0:
            out[pos] = _COMMA
            pos += 1
            if spaced:
                out[pos] = _SPACE
                pos += 1
        row = cells[i] // width
        out[pos] = _OPEN
        pos = _put(out, pos + 1, row)
        out[pos] = _COMMA
        pos += 1
        if spaced:
            out[pos] = _SPACE
            pos += 1
        pos = _put(out, pos, cells[i] - row * width)
        out[pos] = _CLOSE
        pos += 1
    out[pos] = _CLOSE
    return out
