"""The grid's heuristic lab part (``GridLab``): its features, and its space over every cell at once,
compiled in ``lab_kernels.py``, which (with numba) is imported only when a formula is judged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.puzzles.capabilities import Lab
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.problem import FEATURES, run_maze
from server.puzzles.options import Values
from server.search.control import CancelFlag

if TYPE_CHECKING:  # types only: the module imports numba
    from server.puzzles.grid.lab_kernels import GridSpace


class GridLab(Lab):
    """The grid's lab: every cell at once (``GridSpace``); the board's cells are bounded when it is
    loaded, so ``max_states`` does not bound it."""

    features = FEATURES

    def space(self, puzzle: GridMaze, options: Values, max_states: int, max_seconds: float | None = None,
              cancel: CancelFlag | None = None) -> GridSpace:
        from server.puzzles.grid.lab_kernels import GridSpace  # numba, loaded for a judgement only

        return GridSpace(run_maze(puzzle, options), options["diagonal"])

    def space_bytes(self, puzzle: GridMaze, max_states: int) -> int:
        """Every cell is judged, whatever ``max_states``: ~25 bytes a cell on an open board (h*, h, the
        cell and state numbers), the heat map's and the chunks' work."""
        from server.puzzles.grid.lab_kernels import lab_bytes

        return lab_bytes(puzzle)
