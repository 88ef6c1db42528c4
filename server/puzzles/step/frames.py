"""A step maze's search as GIF frames (the export): the board of marked cells, each cell showing the
last record of any of its phases' states."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..animation import CellBoard, search_frames
from ..capabilities import Animation
from ..family import Solved
from .model import StepMaze

BLANK_RGB = (0x1F, 0x23, 0x28)  # a blank cell: dark, as a wall (no move lands there)
MARKED_RGB = (255, 255, 255)


class StepAnimation(Animation):
    """The search on the board (``animation.search_frames``), a state's cell its cell whatever its phase."""

    def frames(self, puzzle: StepMaze, solved: Solved, max_frames: int, max_side: int,
               progress: Callable[[int, int], None] | None = None) -> list[Any] | None:
        if solved.trace is None:
            return None
        base = np.frombuffer(puzzle.marked, np.uint8).reshape(puzzle.rows, puzzle.cols)  # 1 marked, 0 blank
        base_rgb = np.array([BLANK_RGB] + [MARKED_RGB] * 9, np.uint8)
        phases = len(solved.json.get("cycle") or puzzle.cycle)
        goals = [puzzle.index(r, c) for r, c in puzzle.goals]
        board = CellBoard(base, base_rgb, [puzzle.index(*puzzle.start)], goals, phases, path_line=True)
        return search_frames(board, solved.trace, max_frames, max_side, progress)
