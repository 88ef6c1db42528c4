"""A notebook's numpy array as a grid maze's text (``GridFamily.from_array``; ``mazeviz.show(array)``).

0 (or False) is a wall, as a 1-bit image's dark pixels; 1 a free cell; 2–9 a cell's weight (the text
format's digits). The start and the goal are the single openings of the top and the bottom row, as in an
image; otherwise the run is given ``start=(row, col)`` and ``goal=(row, col)``.
"""

from __future__ import annotations

from typing import Any


def maze_text(array: Any) -> bytes | None:
    """The text of a 2-D array of 0–9, or None for any other array."""
    if array.ndim != 2 or array.min() < 0 or array.max() > 9:
        return None
    chars = [["#" if v == 0 else "." if v == 1 else str(v) for v in row] for row in array.tolist()]
    for row, mark in ((0, "S"), (len(chars) - 1, "G")):
        runs = _openings(chars[row])
        if len(runs) == 1 and (row > 0 or len(chars) > 1):
            for col in runs[0]:
                chars[row][col] = mark
    return ("\n".join("".join(row) for row in chars) + "\n").encode()


def _openings(row: list[str]) -> list[list[int]]:
    """The runs of free cells in a row."""
    runs: list[list[int]] = []
    for col, char in enumerate(row):
        if char == "#":
            continue
        if runs and runs[-1][-1] == col - 1:
            runs[-1].append(col)
        else:
            runs.append([col])
    return runs
