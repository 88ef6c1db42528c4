"""The heuristic lab on a grid maze, over every cell at once (a 4,000 x 4,000 maze in seconds).

States are the free cells reachable from a start (a compiled flood fill); h* is uniform-cost search
backwards from the goals over every cell (a compiled Dijkstra: entering a cell costs its weight,
times sqrt 2 diagonally, so backwards a step from v to u costs v's entry cost); features and
consistency are numpy over the reachable cells, one shift per move direction. The rules are
``GridProblem``'s own (no corner cutting), so the lab, the checker and the searches agree.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

from server.heuristic_lab import LabSpace, Violations, worst_moves
from server.puzzles.grid.kernels import MOVE_COL, MOVE_ROW, SQRT2, corner_free, entry_cost, step
from server.puzzles.grid.model import WALL, GridMaze


@njit(cache=True, nogil=True)
def reachable_cells(cells, width, height, starts, moves):
    """True for every free cell reachable from a start with the first ``moves`` directions."""
    seen = np.zeros(cells.shape[0], dtype=np.bool_)
    queue = np.empty(cells.shape[0], dtype=np.int64)
    head = tail = 0
    for s in starts:
        if not seen[s]:
            seen[s] = True
            queue[tail] = s
            tail += 1
    while head < tail:
        cell = queue[head]
        head += 1
        r = cell // width
        c = cell - r * width
        for d in range(moves):
            nxt = step(width, height, r, c, d)
            if nxt < 0 or seen[nxt] or cells[nxt] == WALL or not corner_free(cells, width, nxt, d):
                continue
            seen[nxt] = True
            queue[tail] = nxt
            tail += 1
    return seen


@njit(cache=True, nogil=True)
def cost_to_go(cells, width, height, goals, moves):
    """Each cell's cheapest cost to a goal (inf where none is reachable): Dijkstra from the goals."""
    best = np.full(cells.shape[0], np.inf)
    done = np.zeros(cells.shape[0], dtype=np.bool_)
    heap = [(0.0, np.int64(0))]
    heap.pop()
    for g in goals:
        best[g] = 0.0
        heap.append((0.0, np.int64(g)))
    heapq.heapify(heap)
    while len(heap) > 0:
        g, cell = heapq.heappop(heap)
        if done[cell]:
            continue
        done[cell] = True
        r = cell // width
        c = cell - r * width
        for d in range(moves):
            prev = step(width, height, r, c, d)  # the move prev -> cell is the reverse of d
            if prev < 0 or done[prev] or cells[prev] == WALL or not corner_free(cells, width, prev, d):
                continue
            through = g + entry_cost(cells, cell, d >= 4)
            if through < best[prev]:
                best[prev] = through
                heapq.heappush(heap, (through, prev))
    return best


class GridSpace(LabSpace):
    """The reachable free cells of a maze (state i is cell ``index[i]``)."""

    def __init__(self, maze: GridMaze, diagonal: bool) -> None:
        self.maze = maze
        self.diagonal = diagonal
        moves = 8 if diagonal else 4
        flat = np.ascontiguousarray(maze.cells.ravel())
        width, height = maze.width, maze.height
        starts = np.asarray(maze.starts, dtype=np.int64)
        goals = np.asarray(maze.goals, dtype=np.int64)
        reach = reachable_cells(flat, width, height, starts, moves)
        self.index = np.flatnonzero(reach)
        self.count = int(self.index.size)
        self.state_of = np.full(flat.size, -1, dtype=np.int64)
        self.state_of[self.index] = np.arange(self.count)
        self.h_star = cost_to_go(flat, width, height, goals, moves)[self.index]
        rows, cols = np.divmod(self.index, width)
        r0, r1 = int(goals.min() // width), int(goals.max() // width)
        goal_cols = goals % width
        c0, c1 = int(goal_cols.min()), int(goal_cols.max())
        goal_row, goal_col = np.clip(rows, r0, r1), np.clip(cols, c0, c1)
        self.features = {
            "row": rows.astype(np.float64), "col": cols.astype(np.float64),
            "goal_row": goal_row.astype(np.float64), "goal_col": goal_col.astype(np.float64),
            "dr": np.abs(rows - goal_row).astype(np.float64),
            "dc": np.abs(cols - goal_col).astype(np.float64),
        }
        self.goal = np.isin(self.index, goals)
        self.cell = self.index
        self.judged = np.ones(self.count, dtype=bool)
        self.complete, self.stopped = True, None
        self._flat, self._rows, self._cols = flat, rows, cols

    def violations(self, h: np.ndarray) -> Violations:
        """Each direction's moves between reachable cells, checked as one array (the worst kept)."""
        maze, flat = self.maze, self._flat
        found: list[Violations] = []
        total = 0
        for d in range(8 if self.diagonal else 4):
            dr, dc = int(MOVE_ROW[d]), int(MOVE_COL[d])
            nr, nc = self._rows + dr, self._cols + dc
            inside = (nr >= 0) & (nr < maze.height) & (nc >= 0) & (nc < maze.width)
            src = np.flatnonzero(inside)
            target = (nr * maze.width + nc)[src]
            ok = flat[target] != WALL
            if d >= 4:  # no corner cutting: both side cells free
                ok &= (flat[self.index[src] + dc] != WALL) & (flat[self.index[src] + dr * maze.width] != WALL)
            src, target = src[ok], target[ok]
            dst = self.state_of[target]
            cost = flat[target].astype(np.float64) * (SQRT2 if d >= 4 else 1.0)
            part = worst_moves(src, dst, cost, h)
            total += part.count
            found.append(part)
        src = np.concatenate([v.src for v in found])
        dst = np.concatenate([v.dst for v in found])
        cost = np.concatenate([v.cost for v in found])
        merged = worst_moves(src, dst, cost, h)  # the worst of each direction's worst
        return Violations(total, merged.src, merged.dst, merged.cost)

    def state_json(self, index: int) -> list[int]:
        return [int(self._rows[index]), int(self._cols[index])]


FEATURES = (
    ("row", "the cell's row (0 at the top)"),
    ("col", "the cell's column (0 at the left)"),
    ("goal_row", "the goal's row (several goals: the nearest row of their bounding box)"),
    ("goal_col", "the goal's column (several goals: the nearest column of their bounding box)"),
    ("dr", "|row - goal_row|: rows still to go"),
    ("dc", "|col - goal_col|: columns still to go"),
)
