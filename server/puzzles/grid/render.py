"""A picture of a grid maze with a path on it (the CLI's solution image, exports); its cell colours
are the search animation's too.

Colours are from the Okabe-Ito palette, which stays distinct for the common colour-vision
deficiencies: the path vermillion, the start bluish green, the goal reddish purple. None of them
passes for a start or goal marker of ``parse_grid_image`` (their weak channels are above 90), so a
rendered solution read back as a maze gives the same walls, not a goal along the path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PIL import Image

from ...json_arrays import CellPairs
from ..animation import CellBoard, search_frames
from ..capabilities import Animation, SolutionImage
from ..family import Solved
from .model import GridMaze

WALL_RGB = (34, 34, 34)
FREE_RGB = (255, 255, 255)
PATH_RGB = (0xD5, 0x5E, 0x00)  # vermillion
START_RGB = (0x00, 0x9E, 0x73)  # bluish green
GOAL_RGB = (0xCC, 0x79, 0xA7)  # reddish purple
TARGET_CELL_PX = 8  # small mazes are scaled up until a cell is about this many pixels
MAX_SIDE_PX = 4000  # ... but not beyond this; larger mazes are drawn at one pixel per cell
PATH_INDEX, START_INDEX, GOAL_INDEX = 10, 11, 12  # palette entries after the cells' own bytes 0-9
FAST_PNG_PIXELS = 4_000_000  # bigger solution images are written with zlib's fastest level


def render_solution(
    maze: GridMaze, path_cells: Sequence[int] | np.ndarray, scale: int | None = None
) -> Image.Image:
    """An RGB image of ``maze`` with ``path_cells`` (flat indices), its starts and its goals.

    Walls are dark, free cells white, weighted cells lighter greys (heavier is darker, but every
    grey stays above the wall threshold of 128). ``scale`` is the size of a cell in pixels; by
    default about 8 for small mazes and 1 once a side would exceed 4000 pixels. The same pixels as
    ``render_solution_indexed`` (which files are written from: a byte a pixel, not three).
    """
    return render_solution_indexed(maze, path_cells, scale).convert("RGB")


def render_solution_indexed(
    maze: GridMaze, path_cells: Sequence[int] | np.ndarray, scale: int | None = None
) -> Image.Image:
    """``render_solution`` as a palette ("P") image: a byte a pixel, the cell's own byte (0 wall,
    1-9 costs) or ``PATH_INDEX``/``START_INDEX``/``GOAL_INDEX``, built with numpy alone — a
    225 M-pixel maze in well under a second, and a PNG of it in a few (``save_png``)."""
    if scale is None:
        scale = max(1, min(TARGET_CELL_PX, MAX_SIDE_PX // max(maze.height, maze.width)))
    if scale < 1:
        raise ValueError(f"scale must be >= 1, not {scale}")
    path = np.asarray(path_cells, dtype=np.int64).reshape(-1)
    if path.size and (path.min() < 0 or path.max() >= maze.cells.size):
        raise ValueError(f"path cell index out of range 0..{maze.cells.size - 1}")
    index = maze.cells.copy()  # (height, width) uint8: 0-9 are their own palette entries
    flat = index.reshape(-1)
    flat[path] = PATH_INDEX
    flat[maze.starts] = START_INDEX
    flat[maze.goals] = GOAL_INDEX
    if scale > 1:
        index = np.repeat(np.repeat(index, scale, axis=0), scale, axis=1)
    image = Image.fromarray(index)  # mode "L"
    image.putpalette(solution_palette().tobytes(), "RGB")  # an "L" image given a palette becomes "P"
    return image


def solution_palette() -> np.ndarray:
    """RGB (uint8, 13 x 3) of ``render_solution_indexed``'s bytes: the cells' colours, then the
    path, start and goal."""
    return np.concatenate([cell_colours()[:10], np.array([PATH_RGB, START_RGB, GOAL_RGB], np.uint8)])


def save_png(image: Image.Image, target: Any) -> None:
    """Write ``image`` as a PNG (a path or a binary file): zlib's fastest level once it is big
    (``FAST_PNG_PIXELS``; a 225 M-pixel solution then takes seconds, not a minute), Pillow's default
    below it."""
    fast = image.width * image.height > FAST_PNG_PIXELS
    image.save(target, "PNG", compress_level=1 if fast else 6)


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


class GridSolutionImage(SolutionImage):
    """The solution on the maze as a palette image (a byte a pixel): a 225 M-pixel maze in seconds."""

    def draw(self, solved: Solved) -> Image.Image:
        path = solved.json.get("path")  # an array of cells where the caller writes it itself (compact)
        cells = path.cells if isinstance(path, CellPairs) else np.asarray(solved.result.path, dtype=np.int64)
        return render_solution_indexed(solved.drawn, cells)


class GridAnimation(Animation):
    """The search on the board in the cells' own colours (``animation.search_frames``)."""

    def frames(self, puzzle: GridMaze, solved: Solved, max_frames: int, max_side: int,
               progress: Callable[[int, int], None] | None = None) -> list[Any] | None:
        if solved.trace is None:
            return None
        maze = solved.drawn if isinstance(solved.drawn, GridMaze) else puzzle  # with the run's endpoints
        board = CellBoard(maze.cells, cell_colours()[:10], maze.starts.tolist(), maze.goals.tolist())
        return search_frames(board, solved.trace, max_frames, max_side, progress)
