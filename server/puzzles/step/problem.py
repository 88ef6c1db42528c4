"""The search view of a step maze: states are (cell, phase), packed as ``cell * P + phase``.

Phase p means the next move has length ``cycle[p]``; a move in phase p leads to phase (p + 1) % P.
Legal moves are read from ``reach``: for each direction, how many marked cells follow a cell in a
straight line, so a move of k cells is legal exactly when ``reach[d][cell] >= k`` (every cell it
passes over and lands on is marked).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ...search.problem import Problem
from .model import DIRECTIONS, StepMaze

if TYPE_CHECKING:  # types only: the rules run without numpy in the page (``student_rules``)
    import numpy as np

HEURISTICS = ("manhattan", "zero")

#: The heuristic lab's names (``Lab.features``), in the order the page lists them.
FEATURES = (
    ("row", "step.player_row"),
    ("col", "step.player_column"),
    ("goal_row", "step.row_nearest_goal_nearest_as"),
    ("goal_col", "step.column_that_goal"),
    ("dr", "step.row_goal_row_rows_go"),
    ("dc", "step.col_goal_col_columns_go"),
    ("phase", "step.next_move_length_cycle_entry"),
    ("longest", "step.cycle_longest_move_built_in"),
)


def reach_table(maze: StepMaze) -> list[list[int]]:
    """[4][cells]: marked cells in a straight run beyond each cell, for N, E, S, W (lists: faster to
    index one by one than numpy). Without numpy (the page's Python): ``reach_lists``."""
    try:
        import numpy as np
    except ImportError:
        return reach_lists(maze)
    rows, cols = maze.rows, maze.cols
    marked = np.frombuffer(maze.marked, np.uint8).reshape(rows, cols).astype(bool)
    reach = np.zeros((4, rows, cols), np.int32)
    for r in range(1, rows):  # N: runs counted downwards from the top
        reach[0, r] = np.where(marked[r - 1], reach[0, r - 1] + 1, 0)
    for r in range(rows - 2, -1, -1):  # S
        reach[2, r] = np.where(marked[r + 1], reach[2, r + 1] + 1, 0)
    for c in range(cols - 2, -1, -1):  # E
        reach[1, :, c] = np.where(marked[:, c + 1], reach[1, :, c + 1] + 1, 0)
    for c in range(1, cols):  # W
        reach[3, :, c] = np.where(marked[:, c - 1], reach[3, :, c - 1] + 1, 0)
    return reach.reshape(4, rows * cols).tolist()


def reach_lists(maze: StepMaze) -> list[list[int]]:
    """``reach_table`` in plain Python, a cell at a time (the tests pin the two together)."""
    rows, cols, marked = maze.rows, maze.cols, maze.marked
    reach = [[0] * (rows * cols) for _ in range(4)]
    north, east, south, west = reach
    for r in range(1, rows):
        for c in range(cols):
            above = (r - 1) * cols + c
            north[r * cols + c] = north[above] + 1 if marked[above] else 0
    for r in range(rows - 2, -1, -1):
        for c in range(cols):
            below = (r + 1) * cols + c
            south[r * cols + c] = south[below] + 1 if marked[below] else 0
    for r in range(rows):
        base = r * cols
        for c in range(cols - 2, -1, -1):
            east[base + c] = east[base + c + 1] + 1 if marked[base + c + 1] else 0
        for c in range(1, cols):
            west[base + c] = west[base + c - 1] + 1 if marked[base + c - 1] else 0
    return reach


class StepProblem(Problem):
    """Moves of ``cycle[phase]`` cells in one straight line over marked cells; every move costs 1."""

    unit_costs = True
    heuristics = HEURISTICS

    def __init__(self, maze: StepMaze, cycle: tuple[int, ...]) -> None:
        self.maze = maze
        self.cycle = cycle
        self.phases = len(cycle)
        self.longest = max(cycle)
        self.reach = reach_table(maze)
        self.offsets = [dr * maze.cols + dc for _, dr, dc in DIRECTIONS]
        self.goal_cells = frozenset(maze.index(r, c) for r, c in maze.goals)
        self._h: dict[int, float] = {}

    def initial_states(self) -> list[int]:
        return [self.maze.index(*self.maze.start) * self.phases]

    def is_goal(self, state: int) -> bool:
        return state // self.phases in self.goal_cells

    def successors(self, state: int) -> Iterator[tuple[int, float]]:
        cell, phase = divmod(state, self.phases)
        k = self.cycle[phase]
        after = (phase + 1) % self.phases
        for d in range(4):
            if self.reach[d][cell] >= k:
                yield (cell + k * self.offsets[d]) * self.phases + after, 1.0

    def goal_states(self) -> list[int]:
        return [cell * self.phases + p for cell in sorted(self.goal_cells) for p in range(self.phases)]

    def predecessors(self, state: int) -> Iterator[tuple[int, float]]:
        cell, phase = divmod(state, self.phases)
        before = (phase - 1) % self.phases
        k = self.cycle[before]
        for d in range(4):
            back = (d + 2) % 4  # the move went in direction d, so it came from the opposite side
            if self.reach[back][cell] >= k:
                yield (cell - k * self.offsets[d]) * self.phases + before, 1.0

    def heuristic(self, state: int, name: str) -> float:
        """``manhattan``: ceil(|rows apart| / longest step) + ceil(|columns apart| / longest step) to
        the nearest goal. Admissible: a move changes one coordinate by at most the longest step."""
        if name != "manhattan":
            return 0.0
        cell = state // self.phases
        h = self._h.get(cell)
        if h is None:
            r, c = divmod(cell, self.maze.cols)
            k = self.longest
            h = float(
                min(math.ceil(abs(r - gr) / k) + math.ceil(abs(c - gc) / k) for gr, gc in self.maze.goals)
            )
            self._h[cell] = h
        return h

    def features(self, states: Sequence[int]) -> dict[str, np.ndarray]:
        """The lab's features of ``states`` (see ``FEATURES``), vectorised over the states."""
        import numpy as np  # here only: the rules run without numpy in the page

        packed = np.asarray(states, dtype=np.int64).reshape(-1)
        cell, phase = np.divmod(packed, self.phases)
        row, col = np.divmod(cell, self.maze.cols)
        k = self.longest
        # The goal the built-in heuristic measures to: the smallest ceil(|dr|/k) + ceil(|dc|/k), the
        # first goal on ties (a strict < keeps the earlier one).
        best = np.full(packed.shape, np.inf)
        goal_row = np.zeros(packed.shape, dtype=np.int64)
        goal_col = np.zeros(packed.shape, dtype=np.int64)
        for gr, gc in self.maze.goals:
            moves = -(-np.abs(row - gr) // k) - (-np.abs(col - gc) // k)  # ceil division
            nearer = moves < best
            best = np.where(nearer, moves, best)
            goal_row = np.where(nearer, gr, goal_row)
            goal_col = np.where(nearer, gc, goal_col)
        lengths = np.asarray(self.cycle, dtype=np.float64)
        return {
            "row": row.astype(np.float64), "col": col.astype(np.float64),
            "goal_row": goal_row.astype(np.float64), "goal_col": goal_col.astype(np.float64),
            "dr": np.abs(row - goal_row).astype(np.float64), "dc": np.abs(col - goal_col).astype(np.float64),
            "phase": lengths[phase], "longest": np.full(packed.shape, float(k)),
        }

    def board_cell(self, state: int) -> int:
        return state // self.phases  # the lab's heat map: all phases of a cell on that cell

    def cell_of(self, state: int) -> int:
        return state  # the page decodes (cell, phase) itself: docs/PROTOCOL.md

    def state_to_json(self, state: int) -> list[int]:
        cell, phase = divmod(state, self.phases)
        return [*divmod(cell, self.maze.cols), phase]

    def describe(self) -> dict[str, Any]:
        return {"cycle": list(self.cycle)}

    # ---- student mode: these rules rebuilt in the page (server/code_rules.py) -----------------------
    def student_rules(self) -> dict[str, Any]:
        """The plain data ``from_student_rules`` rebuilds this problem from (JSON): the marks as one
        digit per cell, row by row, and the run's step cycle."""
        maze = self.maze
        marked = "".join("1" if m else "0" for m in maze.marked)
        return {"rows": maze.rows, "cols": maze.cols, "marked": marked,
                "start": list(maze.start), "goals": [list(g) for g in maze.goals], "cycle": list(self.cycle)}


def from_student_rules(data: dict[str, Any]) -> StepProblem:
    """The problem of ``StepProblem.student_rules``' data, built without numpy (student mode runs it in
    the page's Python)."""
    marked = bytes(1 if ch == "1" else 0 for ch in str(data["marked"]))
    start = (int(data["start"][0]), int(data["start"][1]))
    goals = tuple((int(r), int(c)) for r, c in data["goals"])
    cycle = tuple(int(k) for k in data["cycle"])
    return StepProblem(StepMaze(int(data["rows"]), int(data["cols"]), marked, start, goals, cycle), cycle)
