"""A labyrinth in the heuristic lab: the generic walk over the search's states (boards, walked up to
the lab's limit: the space is too large to walk whole), its memory known from the board's size."""

from __future__ import annotations

from ...heuristic_lab import explore_bytes
from ..capabilities import Lab
from .model import LabyrinthPuzzle
from .problem import FEATURES


class LabyrinthLab(Lab):
    """The default space (``Lab.space``) over the labyrinth problem's features."""

    features = FEATURES

    def space_bytes(self, puzzle: LabyrinthPuzzle, max_states: int) -> int:
        """The walk: a state holds its board (two bytes a tile with its moves), its features and h*;
        and the search view's tables (the family's ``setup_bytes``)."""
        cells = puzzle.rows * puzzle.cols
        return explore_bytes(max_states, 400 + 2 * cells, cells) + self.family.setup_bytes(puzzle, {})
