"""A step maze in the heuristic lab: the generic walk over (cell, phase) states, its memory known from
the board and the longest cycle the lab's rules allow."""

from __future__ import annotations

from ...heuristic_lab import explore_bytes
from ..capabilities import Lab
from .model import StepMaze
from .parse import MAX_CYCLE_LENGTH
from .problem import FEATURES


class StepLab(Lab):
    """The default space (``Lab.space``) over the step problem's features."""

    features = FEATURES

    def space_bytes(self, puzzle: StepMaze, max_states: int) -> int:
        """At most ``max_states`` states, at most a cell times a phase of the longest cycle: ~380 bytes a
        state walked (measured 345-365) and the problem's run tables, ~150 bytes a cell (lists of ints;
        measured 144 on a 1,000 x 1,000 board)."""
        cells = puzzle.rows * puzzle.cols
        return cells * 150 + explore_bytes(min(max_states, cells * MAX_CYCLE_LENGTH), 380, cells)
