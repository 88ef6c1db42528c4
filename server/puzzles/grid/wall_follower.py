"""The hand-on-the-wall rule: the algorithms ``wall_left`` and ``wall_right`` of grid mazes.

A walker keeps one hand on the wall. Its state is (cell, heading); each step it turns toward its
hand if that cell is free, else goes straight, else turns away, else turns back. It starts facing
its first free neighbour in the order N, E, S, W, and walks 4-connected only (diagonal moves are
refused in words). It needs no memory of the board, which is the point — and the flaw: it follows
the wall it started beside, so on a maze with loops (a braid) where the start or the goal is beside
an island of wall it can walk the same circuit for ever. A repeated (cell, heading) means exactly
that (the walker is deterministic), so the walk stops there: **not found**.

Events: each cell the walker steps on is CLOSEd in order (a cell may be closed again); the free
cells beside it are OPENed when first seen, and a cell stepped on again is OPENed again just before,
so the frontier (opened minus closed) stays the cells seen and never walked on. g is the walk's
cost so far. The path is **the walk as walked** (cells may repeat: the dead ends it went into and
out of are part of it) and its cost is the walk's cost; the result's ``message`` also gives the cost
with the walk's loops cut out. Never optimal.

Like jump point search (``jps.py``) it reads the grid's own cells: it needs headings and "the cell to
my left", which a generic ``Problem`` does not have.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from ...i18n import t
from ...search.events import CLOSE, OPEN, PATH, Event
from ...search.registry import Algorithm, register_algorithm
from ..errors import PuzzleError
from .model import WALL
from .problem import ORTHOGONAL, GridProblem

Search = Generator[Event, None, tuple[list[int] | None, float]]

LOOP_MESSAGE = ("grid.wall_follower_walked_in_loop")
WALLED_IN = "grid.wall_follower_cannot_move_start"


def wall_follower(problem: GridProblem, hand: str) -> Search:
    """Walk with the ``hand`` ("left" or "right") on the wall; returns (the walk, its cost) or None."""
    if not isinstance(problem, GridProblem):
        raise TypeError("the wall follower reads a grid's cells: it needs a GridProblem")
    if problem.diagonal:
        raise PuzzleError(t("grid.wall_follower_walks_4_connected"),
                          t("grid.option_diagonal"))
    maze = problem.maze
    cells = maze.cells.ravel()
    width, height = maze.width, maze.height
    goals = {int(g) for g in maze.goals}
    toward = 3 if hand == "left" else 1  # headings count clockwise: N 0, E 1, S 2, W 3
    turns = (toward, 0, (toward + 2) % 4, 2)  # toward the hand, straight, away, back

    def ahead(cell: int, heading: int) -> int:
        r, c = divmod(cell, width)
        dr, dc = ORTHOGONAL[heading]
        r, c = r + dr, c + dc
        if 0 <= r < height and 0 <= c < width and cells[r * width + c] != WALL:
            return r * width + c
        return -1

    here = int(maze.starts[0])
    walk, costs = [here], [0.0]
    heading = next((h for h in range(4) if ahead(here, h) >= 0), -1)
    yield Event(OPEN, here, 0.0)
    seen, pending = {here}, {here}
    states = {(here, heading)}
    while True:
        cost = costs[-1]
        pending.discard(here)
        yield Event(CLOSE, here, cost)
        if here in goals:
            for cell, at in zip(reversed(walk), reversed(costs), strict=True):
                yield Event(PATH, cell, at)
            return walk, cost
        if heading < 0:
            return None, 0.0  # walled in
        for h in range(4):
            beside = ahead(here, h)
            if beside >= 0 and beside not in seen:
                seen.add(beside)
                pending.add(beside)
                yield Event(OPEN, beside, cost + float(cells[beside]))
        for turn in turns:
            nxt = ahead(here, (heading + turn) % 4)
            if nxt >= 0:
                heading = (heading + turn) % 4
                break
        cost += float(cells[nxt])
        if nxt not in pending:  # stepping on a cell walked before: back on the frontier for one step
            pending.add(nxt)
            yield Event(OPEN, nxt, cost)
        if (nxt, heading) in states:
            return None, 0.0
        states.add((nxt, heading))
        here = nxt
        walk.append(here)
        costs.append(cost)


def without_loops(walk: list[int]) -> list[int]:
    """The walk with every loop cut out (back to where a cell was first left)."""
    out: list[int] = []
    at: dict[int, int] = {}
    for cell in walk:
        if cell in at:
            for dropped in out[at[cell] + 1:]:
                del at[dropped]
            del out[at[cell] + 1:]
        else:
            at[cell] = len(out)
            out.append(cell)
    return out


def result_message(problem: GridProblem, result: Any) -> str:
    """What a wall follower's result says: why it found nothing, or what its path is."""
    if not result.found:
        if result.stopped:
            return ""
        start = int(problem.maze.starts[0])
        return t(WALLED_IN) if not list(problem.successors(start)) else t(LOOP_MESSAGE)
    walk = [int(c) for c in result.path]
    cut = without_loops(walk)
    cells = problem.maze.cells.ravel()
    cut_cost = sum(float(cells[c]) for c in cut[1:])
    again = len(walk) - len(set(walk))
    return (t("grid.path_walk_as_walked_steps", value=len(walk) - 1, again=again, cut_cost=f"{cut_cost:g}"))


def _make(name: str, hand: str) -> Algorithm:
    return Algorithm(
        name,
        f"grid.{name}.label",
        f"grid.{name}.summary",
        lambda problem, options: wall_follower(problem, hand),  # type: ignore[arg-type]
        lambda problem, options: False,
        rule=f"grid.{name}.rule",
        short=f"grid.{name}.short",
    )


WALL_LEFT = _make("wall_left", "left")
WALL_RIGHT = _make("wall_right", "right")
for _algorithm in (WALL_LEFT, WALL_RIGHT):
    register_algorithm(_algorithm)

__all__ = ["LOOP_MESSAGE", "WALL_LEFT", "WALL_RIGHT", "result_message", "wall_follower"]
