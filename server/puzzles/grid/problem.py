"""Grid mazes as a search ``Problem``: states are flat cell indices.

Moves: N, E, S, W, then (with ``diagonal``) NE, SE, SW, NW; a diagonal move needs both cells it
passes beside to be free (no corner cutting). Entering a cell costs its weight, times sqrt(2)
diagonally. Heuristics measure the distance to the bounding box of the goal cells, which is never
more than the distance to the nearest goal, so they stay admissible (weights are >= 1).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...search.problem import Problem
from .model import WALL

if TYPE_CHECKING:  # types only: the rules run without numpy in the page (``student_rules``)
    import numpy as np

    from .model import GridMaze

SQRT2 = math.sqrt(2.0)
ORTHOGONAL = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W
DIAGONAL = ((-1, 1), (1, 1), (1, -1), (-1, -1))  # NE, SE, SW, NW
HEURISTICS = ("manhattan", "euclidean", "octile", "chebyshev")
# The heuristic lab's formula names, (name, meaning): ``features`` below, ``lab.py`` over every cell at once.
FEATURES = (
    ("row", "grid.cell_row_0_at_top"),
    ("col", "grid.cell_column_0_at_left"),
    ("goal_row", "grid.goal_row_several_goals_nearest"),
    ("goal_col", "grid.goal_column_several_goals_nearest"),
    ("dr", "grid.row_goal_row_rows_still"),
    ("dc", "grid.col_goal_col_columns_still"),
)


def run_maze(maze: GridMaze, options: Mapping[str, Any]) -> GridMaze:
    """The maze with the run's start and goal (options ``start``, ``goal``: checked), which must then
    have both: what a search, a checker, the lab and a tiled run of this run see."""
    run = maze.with_endpoints(options.get("start"), options.get("goal"))
    run.require_endpoints()
    return run


def heuristic_value(name: str, dr: float, dc: float) -> float:
    """A distance for an offset of (dr, dc) >= 0 cells."""
    if name == "manhattan":
        return dr + dc
    if name == "euclidean":
        return math.sqrt(dr * dr + dc * dc)
    if name == "octile":
        return max(dr, dc) + (SQRT2 - 1.0) * min(dr, dc)
    if name == "chebyshev":
        return max(dr, dc)
    raise ValueError(f"unknown heuristic {name!r}")


class GridProblem(Problem):
    """The generic (pure Python) view of a grid maze; ``kernel_search`` is the fast one."""

    def __init__(self, maze: GridMaze, diagonal: bool = False) -> None:
        maze.require_endpoints()
        self.maze = maze
        self.diagonal = diagonal
        self.unit_costs = not maze.weighted and not diagonal
        # Octile is the exact distance on an open 8-grid; Manhattan is the one for 4 moves.
        self.heuristics = ("octile", "chebyshev", "euclidean", "manhattan") if diagonal else HEURISTICS
        self.inadmissible_heuristics = frozenset({"manhattan"}) if diagonal else frozenset()
        self._cells = maze.cells.ravel()
        self._width = maze.width
        self._height = maze.height
        self._goals = {int(g) for g in maze.goals}
        if isinstance(maze.goals, list):  # a PlainGrid's (student mode): no numpy
            rows, cols = [g // maze.width for g in maze.goals], [g % maze.width for g in maze.goals]
            self.goal_box = (min(rows), max(rows), min(cols), max(cols))
        else:
            rows, cols = divmod(maze.goals, maze.width)
            self.goal_box = (int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max()))

    def initial_states(self) -> list[int]:
        return [int(s) for s in self.maze.starts]

    def goal_states(self) -> list[int]:
        return sorted(self._goals)

    def is_goal(self, state: int) -> bool:
        return state in self._goals

    def _moves(self, state: int) -> Iterator[tuple[int, int, bool]]:
        """Neighbouring free cells as (index, its weight, diagonal?)."""
        cells, width, height = self._cells, self._width, self._height
        r, c = divmod(state, width)
        for dr, dc in ORTHOGONAL:
            nr, nc = r + dr, c + dc
            if 0 <= nr < height and 0 <= nc < width and cells[nr * width + nc] != WALL:
                yield nr * width + nc, int(cells[nr * width + nc]), False
        if not self.diagonal:
            return
        for dr, dc in DIAGONAL:
            nr, nc = r + dr, c + dc
            if (
                0 <= nr < height
                and 0 <= nc < width
                and cells[nr * width + nc] != WALL
                and cells[nr * width + c] != WALL
                and cells[r * width + nc] != WALL
            ):
                yield nr * width + nc, int(cells[nr * width + nc]), True

    def successors(self, state: int) -> Iterator[tuple[int, float]]:
        for nxt, weight, diag in self._moves(state):
            yield nxt, weight * SQRT2 if diag else float(weight)

    def predecessors(self, state: int) -> Iterator[tuple[int, float]]:
        # Moves are symmetric; the cost is that of entering ``state``.
        weight = float(self._cells[state])
        for prev, _w, diag in self._moves(state):
            yield prev, weight * SQRT2 if diag else weight

    def heuristic(self, state: int, name: str) -> float:
        r, c = divmod(state, self._width)
        r0, r1, c0, c1 = self.goal_box
        dr = max(r0 - r, 0, r - r1)
        dc = max(c0 - c, 0, c - c1)
        return heuristic_value(name, float(dr), float(dc))

    def features(self, states: Sequence[int]) -> dict[str, np.ndarray]:
        """The heuristic lab's features (``FEATURES``) of these cells."""
        import numpy as np  # here only: the rules run without numpy in the page

        cells = np.asarray(states, dtype=np.int64)
        rows, cols = np.divmod(cells, self._width)
        r0, r1, c0, c1 = self.goal_box
        goal_row, goal_col = np.clip(rows, r0, r1), np.clip(cols, c0, c1)
        return {
            "row": rows.astype(np.float64), "col": cols.astype(np.float64),
            "goal_row": goal_row.astype(np.float64), "goal_col": goal_col.astype(np.float64),
            "dr": np.abs(rows - goal_row).astype(np.float64),
            "dc": np.abs(cols - goal_col).astype(np.float64),
        }

    def cell_of(self, state: int) -> int:
        return state

    def state_to_json(self, state: int) -> list[int]:
        return list(divmod(int(state), self._width))

    # ---- student mode: these rules rebuilt in the page (server/code_rules.py) -----------------------
    def student_rules(self) -> dict[str, Any]:
        """The plain data ``from_student_rules`` rebuilds this problem from (JSON): the cells as one
        digit each, row by row (0 a wall, 1..9 the cost of entering), the run's starts and goals."""
        return {"width": self._width, "height": self._height,
                "cells": bytes(self._cells).translate(_DIGITS).decode("ascii"),
                "starts": self.initial_states(), "goals": self.goal_states(), "diagonal": self.diagonal}


_DIGITS = bytes.maketrans(bytes(range(10)), b"0123456789")


class FlatCells(bytes):
    """A plain grid's cells, one byte each, row by row: ``ravel`` as a numpy array's (``GridProblem``)."""

    def ravel(self) -> FlatCells:
        return self


class PlainGrid:
    """What ``GridProblem`` reads of a ``GridMaze``, from plain data and without numpy (student mode)."""

    def __init__(self, width: int, height: int, cells: bytes, starts: list[int], goals: list[int]) -> None:
        if len(cells) != width * height:
            raise ValueError(f"expected {width} x {height} cells, got {len(cells)}")
        self.width, self.height = width, height
        self.cells = FlatCells(cells)
        self.starts, self.goals = sorted(set(starts)), sorted(set(goals))
        self.weighted = max(cells, default=0) > 1

    def require_endpoints(self) -> None:
        if not (self.starts and self.goals):
            raise ValueError("a grid maze needs a start and a goal")


def from_student_rules(data: dict[str, Any]) -> GridProblem:
    """The problem of ``GridProblem.student_rules``' data, built without numpy (student mode runs it in
    the page's Python)."""
    cells = str(data["cells"]).encode("ascii").translate(bytes.maketrans(b"0123456789", bytes(range(10))))
    maze = PlainGrid(int(data["width"]), int(data["height"]), cells, [int(s) for s in data["starts"]],
                     [int(g) for g in data["goals"]])
    return GridProblem(maze, bool(data["diagonal"]))  # type: ignore[arg-type]
