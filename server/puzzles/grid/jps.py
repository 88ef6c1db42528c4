"""Jump point search (Harabor & Grabowski 2011) over a grid maze's own cells: the algorithm ``jps``.

JPS is A* that expands only *jump points*. From a cell it scans in a straight line (or diagonally)
until something interesting happens — the goal, a wall, or a *forced neighbour*: a cell that the
optimal path can reach only by turning here. Every cell in between is skipped, because some other
equally short path reaches it (the pruning rule), so the frontier holds a handful of cells where A*
would hold a whole wavefront.

It cannot be a generic algorithm over ``server.search.problem.Problem``: pruning and forced
neighbours are statements about *directions* and about *which cells beside a move are walls*, and a
``Problem`` offers only a list of successors with costs. So it reads ``GridMaze``'s flat cells (padded
with a wall border so that a scan needs no bounds checks) and yields the core's events itself.

The rules follow the grid's moves (``problem.py``): a diagonal step needs both cells beside it free,
so a diagonal move never has forced neighbours, and a straight move has one on a side where the cell
beside the previous cell is a wall and the cell beside this one is free (then the side step and the
diagonal past it are forced). Canonical paths go diagonally first; a diagonal scan looks straight
along both of its components at every cell. Without diagonal moves vertical steps take the place of
diagonal ones (a vertical scan looks left and right at every cell; a horizontal move has forced
neighbours as above). Costs: every free cell must cost the same (``c``); a straight step costs ``c``,
a diagonal one ``c * sqrt(2)``, so a run of ``n`` steps costs ``n`` times that.

Events: OPEN/UPDATE/CLOSE for jump points only, g their true cost; PATH for every cell of the path
(the jumps filled in), goal first, like every algorithm.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Generator

import numpy as np

from ...i18n import t
from ...search.events import CLOSE, OPEN, PATH, UPDATE, Event
from ...search.registry import Algorithm, SearchOptions, register_algorithm
from ..errors import PuzzleError
from .model import WALL
from .problem import SQRT2, GridProblem

Search = Generator[Event, None, tuple[list[int] | None, float]]


def uniform_cost(problem: GridProblem) -> float:
    """The one cost of every free cell; a PuzzleError naming option 'algorithm' when they differ."""
    cells = problem.maze.cells
    free = cells[cells != WALL]
    low, high = (int(free.min()), int(free.max())) if free.size else (1, 1)
    if low != high:
        raise PuzzleError(
            t("grid.jump_point_search_needs_every", low=low, high=high),
            t("grid.option_algorithm"),
        )
    return float(low)


class _Board:
    """The maze padded with a wall border, as bytes (fast to index), and its directions."""

    def __init__(self, problem: GridProblem) -> None:
        maze = problem.maze
        self.width = maze.width
        self.stride = maze.width + 2
        padded = np.zeros((maze.height + 2, maze.width + 2), np.uint8)
        padded[1:-1, 1:-1] = maze.cells != WALL
        self.free = padded.tobytes()
        self.goals = {self.inner_to_padded(int(g)) for g in maze.goals}
        self.diagonal = problem.diagonal
        s = self.stride
        self.north, self.south, self.east, self.west = -s, s, 1, -1

    def inner_to_padded(self, cell: int) -> int:
        r, c = divmod(cell, self.width)
        return (r + 1) * self.stride + c + 1

    def padded_to_inner(self, p: int) -> int:
        r, c = divmod(p, self.stride)
        return (r - 1) * self.width + c - 1

    def is_diagonal(self, d: int) -> bool:
        return d not in (self.north, self.south, self.east, self.west)

    def components(self, d: int) -> tuple[int, int]:
        """(vertical, horizontal) parts of a diagonal direction."""
        v = self.north if d < -1 else self.south  # diagonals: -s±1 (north) or s±1 (south)
        return v, d - v

    def sides(self, d: int) -> tuple[int, int]:
        """The two directions perpendicular to a straight direction."""
        return (self.north, self.south) if d in (self.east, self.west) else (self.west, self.east)

    # ---- scans -----------------------------------------------------------------------------------
    def jump(self, x: int, d: int) -> tuple[int, int]:
        """Scan from ``x`` in direction ``d``: (the jump point, steps to it), or (-1, 0) for none."""
        if self.is_diagonal(d):
            return self._jump_looking(x, d, *self.components(d), corners=True)
        if not self.diagonal and d in (self.north, self.south):
            # 4-connected: a vertical step plays a diagonal's part — look left and right at every cell.
            return self._jump_looking(x, d, self.east, self.west, corners=False)
        return self._jump_straight(x, d)

    def _jump_straight(self, x: int, d: int) -> tuple[int, int]:
        free, goals = self.free, self.goals
        a, b = self.sides(d)
        n = 0
        while True:
            nxt = x + d
            if not free[nxt]:
                return -1, 0
            n += 1
            if nxt in goals:
                return nxt, n
            # A forced neighbour: free beside this cell, a wall beside the previous one.
            if (free[nxt + a] and not free[x + a]) or (free[nxt + b] and not free[x + b]):
                return nxt, n
            x = nxt

    def _jump_looking(self, x: int, d: int, a: int, b: int, corners: bool) -> tuple[int, int]:
        """Scan in ``d``, stopping at a cell from which a straight scan along ``a`` or ``b`` finds a jump
        point; ``corners``: a step needs both cells beside it free (a diagonal, as the grid's moves)."""
        free, goals = self.free, self.goals
        n = 0
        while True:
            nxt = x + d
            if not free[nxt] or (corners and not (free[x + a] and free[x + b])):
                return -1, 0
            n += 1
            if nxt in goals:
                return nxt, n
            if self._jump_straight(nxt, a)[0] >= 0 or self._jump_straight(nxt, b)[0] >= 0:
                return nxt, n
            x = nxt

    # ---- which directions a jump point scans -------------------------------------------------------
    def all_directions(self) -> tuple[int, ...]:
        s = self.stride
        straight = (self.north, self.east, self.south, self.west)
        return (*straight, -s + 1, s + 1, s - 1, -s - 1) if self.diagonal else straight

    def directions(self, x: int, d: int) -> list[int]:
        """The directions to scan from ``x`` when it was reached moving in ``d`` (0: a start)."""
        if d == 0:
            return list(self.all_directions())
        free = self.free
        if self.is_diagonal(d):
            v, h = self.components(d)
            return [v, h, d]  # natural neighbours only: a diagonal move has no forced ones here
        if not self.diagonal and d in (self.north, self.south):
            return [d, self.east, self.west]  # the vertical move's natural neighbours
        out = [d]
        back = x - d
        for side in self.sides(d):
            if free[x + side] and not free[back + side]:
                out.append(side)
                if self.diagonal:
                    out.append(side + d)
        return out


def jump_point_search(problem: GridProblem, options: SearchOptions) -> Search:
    """A* over jump points; yields the core's events and returns (path of cells, cost)."""
    if not isinstance(problem, GridProblem):
        raise TypeError("jump point search reads a grid's cells: it needs a GridProblem")
    unit = uniform_cost(problem)
    heuristic = options.resolved_heuristic(problem)
    board = _Board(problem)
    diagonal_cost = unit * SQRT2

    def h_of(p: int) -> float:
        return problem.heuristic(board.padded_to_inner(p), heuristic)

    g_of: dict[int, float] = {}
    came: dict[int, tuple[int, int]] = {}  # jump point -> (previous jump point, direction of arrival)
    closed: set[int] = set()
    frontier: list[tuple[float, float, int, int]] = []
    order = 0
    for cell in problem.initial_states():
        p = board.inner_to_padded(cell)
        if p in g_of:
            continue
        g_of[p], came[p] = 0.0, (-1, 0)
        h = h_of(p)
        heapq.heappush(frontier, (h, h, order, p))
        order += 1
        yield Event(OPEN, cell, 0.0)

    while frontier:
        _f, _h, _order, x = heapq.heappop(frontier)
        if x in closed:
            continue  # a stale entry: x was pushed again cheaper
        closed.add(x)
        g = g_of[x]
        yield Event(CLOSE, board.padded_to_inner(x), g)
        if x in board.goals:
            return (yield from _emit_path(problem, board, came, x))
        for d in board.directions(x, came[x][1]):
            y, steps = board.jump(x, d)
            if y < 0 or y in closed:
                continue
            through = g + steps * (diagonal_cost if board.is_diagonal(d) else unit)
            known = g_of.get(y)
            if known is not None and through >= known:
                continue
            g_of[y], came[y] = through, (x, d)
            h = h_of(y)
            heapq.heappush(frontier, (through + h, h, order, y))
            order += 1
            yield Event(OPEN if known is None else UPDATE, board.padded_to_inner(y), through)
    return None, 0.0


def _emit_path(problem: GridProblem, board: _Board, came: dict[int, tuple[int, int]], goal: int) -> Search:
    """Every cell from the start to ``goal`` (the jumps filled in), as PATH events goal first."""
    padded: list[int] = [goal]
    x = goal
    while came[x][0] >= 0:
        prev, d = came[x]
        while x != prev:  # walk the jump back, one step at a time
            x -= d
            padded.append(x)
    cells = [board.padded_to_inner(p) for p in reversed(padded)]
    # Costs summed step by step from the start, as the other algorithms add them up.
    costs = [0.0]
    for a, b in itertools.pairwise(cells):
        step_of = dict(problem.successors(a))
        costs.append(costs[-1] + step_of[b])
    for cell, cost in zip(reversed(cells), reversed(costs), strict=True):
        yield Event(PATH, cell, cost)
    return cells, costs[-1]


def _jps_optimal(problem: GridProblem, options: SearchOptions) -> bool:
    return options.resolved_heuristic(problem) not in problem.inadmissible_heuristics


#: Jump point search as a menu entry of the grid family (registered with the search core on import).
JPS = Algorithm(
    "jps",
    "grid.jump_point_search",
    "grid.that_jumps_along_straight_and",
    lambda problem, options: jump_point_search(problem, options),  # type: ignore[arg-type]
    _jps_optimal,  # type: ignore[arg-type]
    uses_heuristic=True,
    rule="grid.it_takes_jump_point_with",
    key="f",
    short="JPS",
)
register_algorithm(JPS)
