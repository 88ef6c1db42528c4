"""A picture of a grid maze with a path on it (the CLI's solution image, exports); its cell colours
are the search animation's too.

Colours are from the Okabe-Ito palette, which stays distinct for the common colour-vision
deficiencies: the path vermillion, the start bluish green, the goal reddish purple. None of them
passes for a start or goal marker of ``parse_grid_image`` (their weak channels are above 90), so a
rendered solution read back as a maze gives the same walls, not a goal along the path.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image

from server.puzzles.grid.model import GridMaze

WALL_RGB = (34, 34, 34)
FREE_RGB = (255, 255, 255)
PATH_RGB = (0xD5, 0x5E, 0x00)  # vermillion
START_RGB = (0x00, 0x9E, 0x73)  # bluish green
GOAL_RGB = (0xCC, 0x79, 0xA7)  # reddish purple
TARGET_CELL_PX = 8  # small mazes are scaled up until a cell is about this many pixels
MAX_SIDE_PX = 4000  # ... but not beyond this; larger mazes are drawn at one pixel per cell


def render_solution(
    maze: GridMaze, path_cells: Sequence[int] | np.ndarray, scale: int | None = None
) -> Image.Image:
    """An RGB image of ``maze`` with ``path_cells`` (flat indices), its starts and its goals.

    Walls are dark, free cells white, weighted cells lighter greys (heavier is darker, but every
    grey stays above the wall threshold of 128). ``scale`` is the size of a cell in pixels; by
    default about 8 for small mazes and 1 once a side would exceed 4000 pixels.
    """
    if scale is None:
        scale = max(1, min(TARGET_CELL_PX, MAX_SIDE_PX // max(maze.height, maze.width)))
    if scale < 1:
        raise ValueError(f"scale must be >= 1, not {scale}")

    rgb = cell_colours()[maze.cells]  # (height, width, 3), a new array

    flat = rgb.reshape(-1, 3)
    path = np.asarray(path_cells, dtype=np.int64).reshape(-1)
    if path.size and (path.min() < 0 or path.max() >= maze.cells.size):
        raise ValueError(f"path cell index out of range 0..{maze.cells.size - 1}")
    flat[path] = PATH_RGB
    flat[maze.starts] = START_RGB
    flat[maze.goals] = GOAL_RGB

    if scale > 1:
        rgb = np.repeat(np.repeat(rgb, scale, axis=0), scale, axis=1)
    return Image.fromarray(rgb, "RGB")


def cell_colours() -> np.ndarray:
    """RGB (uint8, 256 x 3) of each cell byte: walls dark, free cells white, weighted cells lighter
    greys (heavier is darker, every grey above the wall threshold of 128). The search animation
    (``server.puzzles.animation``) draws its boards with the same colours."""
    colours = np.empty((256, 3), dtype=np.uint8)
    colours[:] = FREE_RGB
    colours[0] = WALL_RGB
    for weight in range(2, 10):
        colours[weight] = 255 - 12 * (weight - 1)  # 243 for weight 2 down to 159 for weight 9
    return colours
