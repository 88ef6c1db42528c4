"""Grid mazes as a search ``Problem``: states are flat cell indices.

Moves: N, E, S, W, then (with ``diagonal``) NE, SE, SW, NW; a diagonal move needs both cells it
passes beside to be free (no corner cutting). Entering a cell costs its weight, times sqrt(2)
diagonally. Heuristics measure the distance to the bounding box of the goal cells, which is never
more than the distance to the nearest goal, so they stay admissible (weights are >= 1).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from server.puzzles.grid.model import WALL, GridMaze
from server.search.problem import Problem

SQRT2 = math.sqrt(2.0)
ORTHOGONAL = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N, E, S, W
DIAGONAL = ((-1, 1), (1, 1), (1, -1), (-1, -1))  # NE, SE, SW, NW
HEURISTICS = ("manhattan", "euclidean", "octile", "chebyshev")
# The heuristic lab's formula names, (name, meaning): ``features`` below, ``lab.py`` over every cell at once.
FEATURES = (
    ("row", "the cell's row (0 at the top)"),
    ("col", "the cell's column (0 at the left)"),
    ("goal_row", "the goal's row (several goals: the nearest row of their bounding box)"),
    ("goal_col", "the goal's column (several goals: the nearest column of their bounding box)"),
    ("dr", "|row - goal_row|: rows still to go"),
    ("dc", "|col - goal_col|: columns still to go"),
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
        rows, cols = np.divmod(maze.goals, maze.width)
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
