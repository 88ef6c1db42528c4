"""The grid's heuristic lab part (``GridLab``): its features, and its space over every cell at once,
compiled in ``lab_kernels.py``, which (with numba) is imported only when a formula is judged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...search.control import CancelFlag
from ..capabilities import Lab
from ..options import Values
from .model import GridMaze
from .problem import FEATURES, run_maze

if TYPE_CHECKING:  # types only: the module imports numba
    from .lab_kernels import GridSpace


class GridLab(Lab):
    """The grid's lab: every cell at once (``GridSpace``); the board's cells are bounded when it is
    loaded, so ``max_states`` does not bound it."""

    features = FEATURES

    def space(self, puzzle: GridMaze, options: Values, max_states: int, max_seconds: float | None = None,
              cancel: CancelFlag | None = None) -> GridSpace:
        from .lab_kernels import GridSpace  # numba, loaded for a judgement only

        return GridSpace(run_maze(puzzle, options), options["diagonal"])

    def space_bytes(self, puzzle: GridMaze, max_states: int) -> int:
        """Every cell is judged, whatever ``max_states``: ~25 bytes a cell on an open board (h*, h, the
        cell and state numbers), the heat map's and the chunks' work."""
        from .lab_kernels import lab_bytes

        return lab_bytes(puzzle)
