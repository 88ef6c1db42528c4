"""The heuristic lab on a grid maze, over every cell at once (a 4,000 x 4,000 maze in seconds).

States are the free cells reachable from a start (a compiled flood fill); h* is uniform-cost search
backwards from the goals over every cell (a compiled Dijkstra: entering a cell costs its weight,
times sqrt 2 diagonally, so backwards a step from v to u costs v's entry cost); features and
consistency are numpy over the reachable cells, a chunk of them at a time, one shift per move
direction. The rules are ``GridProblem``'s own (no corner cutting), so the lab, the checker and the
searches agree.

Memory is known from the board before the work starts (``space_bytes``; issue 28): per cell the
float64 h* (the reachable cells' values gathered in place to the front), the int32 state number of
each cell, and, while they are built, the Dijkstra's int32 heap and positions, or the flood fill's
byte and int32 queue; per state its int32 cell and goal flag. Features are never held: each chunk's
are made from the cell number (``feature_chunk``), and the moves are checked a chunk at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from ...heuristic_lab import CHUNK, LabSpace, Violations, WorstMoves, judge_bytes
from ...search.indexed_heap import SETTLED, lowered, pop_min, started
from .kernels import MOVE_COL, MOVE_ROW, SQRT2, corner_free, entry_cost, step
from .model import WALL, GridMaze
from .problem import FEATURES  # the names the lab's chunks are made of

# Bytes per cell and per state of the space's arrays at their peak (see the module docstring).
BUILD_BYTES_PER_CELL = 8 + 4 + 4  # h*, the heap positions, the heap
HELD_BYTES_PER_CELL = 8 + 4  # h*, the state of each cell
HELD_BYTES_PER_STATE = 4 + 1  # the cell of each state, whether it is a goal
NUMBERING_BYTES_PER_CELL = HELD_BYTES_PER_CELL + 1  # and the flood fill's reached flags


def index_type(cells: int) -> type:
    """The integer type of a cell or state number: int32 up to 2**31 cells (4 bytes, not 8)."""
    return np.int32 if cells < 2**31 else np.int64


@njit(cache=True, nogil=True)
def reachable_cells(cells, width, height, starts, moves, queue):
    """True for every free cell reachable from a start with the first ``moves`` directions;
    ``queue``: room for every cell (int32 or int64; only the reached cells' entries are touched)."""
    seen = np.zeros(cells.shape[0], dtype=np.bool_)
    head = tail = 0
    for s in starts:
        if not seen[s]:
            seen[s] = True
            queue[tail] = s
            tail += 1
    while head < tail:
        cell = np.int64(queue[head])
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
def cost_to_go(cells, width, height, goals, moves, slot, heap):
    """Each cell's cheapest cost to a goal (inf where none is reachable): Dijkstra from the goals.

    The heap holds each cell at most once (a decrease-key heap of cell numbers ordered by their cost
    so far), so its memory is bounded before it runs: ``slot`` (a cell's place in the heap, -1 never
    reached, ``SETTLED`` settled) and ``heap``, each with room for every cell (int32 or int64)."""
    best = np.full(cells.shape[0], np.inf)
    size = started(heap, slot, best, goals)
    while size > 0:
        top, size = pop_min(heap, slot, best, size)
        cell = np.int64(top)
        g = best[cell]
        r = cell // width
        c = cell - r * width
        for d in range(moves):
            prev = step(width, height, r, c, d)  # the move prev -> cell is the reverse of d
            if prev < 0 or slot[prev] == SETTLED or cells[prev] == WALL:
                continue
            if not corner_free(cells, width, prev, d):
                continue
            through = g + entry_cost(cells, cell, d >= 4)
            if through < best[prev]:
                best[prev] = through
                size = lowered(heap, slot, best, prev, size)
    return best


@njit(cache=True, nogil=True)
def number_states(seen, best, index, state_of):
    """State i is the i-th reached cell: ``index[i]`` its cell, ``state_of[cell]`` its number (-1: not
    reached); ``best[i]`` becomes the state's cost-to-go, gathered in place (a cell's number is never
    above the cell's)."""
    k = 0
    for cell in range(seen.shape[0]):
        if seen[cell]:
            index[k] = cell
            state_of[cell] = k
            best[k] = best[cell]
            k += 1
        else:
            state_of[cell] = -1


def space_bytes(cells: int, states: int) -> int:
    """The peak of ``GridSpace``'s own arrays on a board of ``cells`` cells with at most ``states``
    reachable ones (before any judgement): the larger of building h* and numbering the states."""
    return max(cells * BUILD_BYTES_PER_CELL, cells * NUMBERING_BYTES_PER_CELL + states * HELD_BYTES_PER_STATE)


def lab_bytes(maze: GridMaze) -> int:
    """At most what judging a formula on ``maze`` holds (``GridLab.space_bytes``): the space's arrays
    while it is built, or once built with ``judge``'s (its states: at most the free cells; the moves
    are checked a chunk of states at a time, whatever the directions)."""
    cells = maze.width * maze.height
    states = int(np.count_nonzero(maze.cells))  # WALL is 0: the free cells
    held = cells * HELD_BYTES_PER_CELL + states * HELD_BYTES_PER_STATE
    return max(space_bytes(cells, states), held + judge_bytes(states, cells, moves=states))


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
        kind = index_type(flat.size)
        slot, heap = np.empty(flat.size, kind), np.empty(flat.size, kind)
        best = cost_to_go(flat, width, height, goals, moves, slot, heap)
        del slot, heap
        reach = reachable_cells(flat, width, height, starts, moves, np.empty(flat.size, kind))
        self.count = int(np.count_nonzero(reach))
        self.index = np.empty(self.count, dtype=kind)
        self.state_of = np.empty(flat.size, dtype=kind)
        number_states(reach, best, self.index, self.state_of)
        del reach
        self.h_star = best[: self.count]  # a view: the cells' buffer, its front the states'
        goal_states = self.state_of[goals]
        self.goal = np.zeros(self.count, dtype=bool)
        self.goal[goal_states[goal_states >= 0]] = True
        self.cell = self.index
        self.judged = np.broadcast_to(np.True_, (self.count,))  # every state: no array of them
        self.complete, self.stopped = True, None
        self._flat = flat
        r0, r1 = int(goals.min() // width), int(goals.max() // width)
        goal_cols = goals % width
        self._goal_box = (r0, r1, int(goal_cols.min()), int(goal_cols.max()))

    @property
    def features(self) -> dict[str, np.ndarray]:  # type: ignore[override]
        """Every feature of every state at once (tests, small boards); ``judge`` asks by chunk."""
        return self.feature_chunk(0, self.count, [name for name, _ in FEATURES])

    def feature_chunk(self, lo: int, hi: int, names: Sequence[str]) -> dict[str, np.ndarray]:
        """The features ``names`` of states lo..hi-1, made from their cell numbers."""
        want = set(names)
        rows, cols = np.divmod(self.index[lo:hi], self.maze.width)
        r0, r1, c0, c1 = self._goal_box
        out: dict[str, np.ndarray] = {}
        for name, at, first, last in (("row", rows, r0, r1), ("col", cols, c0, c1)):
            goal_name, delta_name = f"goal_{name}", "dr" if name == "row" else "dc"
            if name in want:
                out[name] = at.astype(np.float64)
            if goal_name in want or delta_name in want:
                goal_at = np.clip(at, first, last)
                if goal_name in want:
                    out[goal_name] = goal_at.astype(np.float64)
                if delta_name in want:
                    goal_at -= at
                    out[delta_name] = np.abs(goal_at).astype(np.float64)
        return out

    def violations(self, h: np.ndarray) -> Violations:
        """Each direction's moves between reachable cells, a chunk of states at a time (the worst kept)."""
        maze, flat = self.maze, self._flat
        width, height = maze.width, maze.height
        tally = WorstMoves()
        for d in range(8 if self.diagonal else 4):
            dr, dc = int(MOVE_ROW[d]), int(MOVE_COL[d])
            scale = SQRT2 if d >= 4 else 1.0
            for lo in range(0, self.count, CHUNK):
                cells = self.index[lo:lo + CHUNK].astype(np.int64)
                rows, cols = np.divmod(cells, width)
                rows += dr
                cols += dc
                inside = np.flatnonzero((rows >= 0) & (rows < height) & (cols >= 0) & (cols < width))
                del rows, cols
                cells = cells[inside]
                target = cells + (dr * width + dc)
                ok = flat[target] != WALL
                if d >= 4:  # no corner cutting: both side cells free
                    ok &= (flat[cells + dc] != WALL) & (flat[cells + dr * width] != WALL)
                del cells
                src = inside[ok] + lo
                target = target[ok]
                del inside, ok
                cost = flat[target].astype(np.float64)
                cost *= scale
                tally.add(src, self.state_of[target], cost, h)
        return tally.result()

    def state_json(self, index: int) -> list[int]:
        return [int(x) for x in divmod(int(self.index[index]), self.maze.width)]
