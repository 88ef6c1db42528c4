"""Writing a grid maze as a file ``GridFamily.load`` reads back unchanged: text keeps everything, a
PNG only walls, free cells and the start and goal as openings in the border."""

from __future__ import annotations

import io

import numpy as np

from ...i18n import t
from ..capabilities import Saver
from ..errors import PuzzleError
from .generate import maze_to_image, maze_to_text
from .image import parse_grid_image
from .model import GridMaze

OPTIMIZED_PIXELS = 4_000_000  # larger PNGs are written without Pillow's slow optimisation pass


class GridSaver(Saver):
    """Text (``txt``: weights, any start and goal) or ``png``, refused where it would lose something."""

    formats = ("txt", "png")

    def save(self, puzzle: GridMaze, fmt: str | None = None) -> bytes:
        fmt = self.check_format(fmt, puzzle)
        if fmt == "txt":
            return maze_to_text(puzzle).encode("ascii")
        if puzzle.weighted:
            raise PuzzleError(t("grid.png_keeps_walls_and_free"), t("grid.format"))
        buffer = io.BytesIO()
        maze_to_image(puzzle).save(buffer, "PNG", optimize=puzzle.width * puzzle.height <= OPTIMIZED_PIXELS)
        data = buffer.getvalue()
        again = parse_grid_image(data, puzzle.name)
        if again.lattice is not None:  # its cells happen to form a lattice of their own
            raise PuzzleError(t("grid.this_board_png_would_read"),
                              t("grid.format"))
        same = np.array_equal(again.starts, puzzle.starts) and np.array_equal(again.goals, puzzle.goals)
        if not same:  # an image's start and goal are the openings in its border
            raise PuzzleError(t("grid.png_marks_start_and_goal"), t("grid.format"))
        return data
