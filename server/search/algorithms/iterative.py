"""Iterative deepening: IDA* (bounded by f = g + w·h) and depth-first iterative deepening (by depth).

Each iteration is a depth-first search that refuses to go past a bound; the next bound is the
smallest value that was refused. Memory is the current path, not the whole frontier.

Events: a state is OPENed when the search steps onto it (it joins the current path) and CLOSEd
when the search steps back off it (its subtree is done), so ``stats.Tally``'s frontier is the
length of the current path and ``max_frontier`` the deepest path. Every iteration opens the start
again: regenerating states is what iterative deepening pays for its small memory.

Cycles: a state already on the current path is skipped. ``transpositions=True`` (the default)
adds a table, per iteration, of the smallest g at which each state was stepped onto; a state
reached again no cheaper is skipped, because its earlier visit had at least as much of the bound
left. That keeps both algorithms optimal (an optimal path's states are always first stepped onto at
their optimal g) and makes them usable on puzzles with many transpositions. It is capped at
``TABLE_LIMIT`` states; past that the table stops growing and only prunes what it holds.

The goal test is made when a state is stepped onto: within bound b a goal costs at most b, and
b never exceeds the optimum (the first refused state of an optimal path sets the next bound).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Iterator

from ..events import CLOSE, OPEN, PATH, Event
from ..problem import Problem, State

Search = Generator[Event, None, tuple[list[State] | None, float]]

TABLE_LIMIT = 2_000_000


def idastar(
    problem: Problem,
    heuristic: str = "",
    weight: float = 1.0,
    max_cost: float | None = None,
    transpositions: bool = True,
) -> Search:
    """IDA*: optimal with an admissible heuristic and ``weight`` 1 (like A*), in path-sized memory."""
    name = heuristic or (problem.heuristics[0] if problem.heuristics else "")

    def f_of(state: State, g: float, _depth: int) -> float:
        return g + weight * problem.heuristic(state, name)

    return (yield from _deepen(problem, f_of, max_cost, transpositions))


def iddfs(problem: Problem, max_depth: int | None = None, transpositions: bool = True) -> Search:
    """Depth-first iterative deepening: the fewest steps, so optimal when every step costs the same."""

    def depth_of(_state: State, _g: float, depth: int) -> float:
        return float(depth)

    return (yield from _deepen(problem, depth_of, max_depth, transpositions))


def _deepen(
    problem: Problem,
    measure: Callable[[State, float, int], float],
    limit: float | None,
    transpositions: bool,
) -> Search:
    """Run bounded depth-first searches with growing bounds until a goal or a proof of none."""
    starts = list(dict.fromkeys(problem.initial_states()))
    if not starts:
        return None, 0.0
    bound = min(measure(s, 0.0, 0) for s in starts)
    while True:
        if limit is not None and bound > limit:
            return None, 0.0
        refused = math.inf
        table: dict[State, float] | None = {} if transpositions else None
        for start in starts:
            found, cost, start_refused = yield from _bounded(problem, start, bound, measure, table)
            if found is not None:
                return found, cost
            refused = min(refused, start_refused)
        if math.isinf(refused):
            return None, 0.0  # nothing was cut off: the whole space was searched
        bound = refused


def _bounded(
    problem: Problem,
    start: State,
    bound: float,
    measure: Callable[[State, float, int], float],
    table: dict[State, float] | None,
) -> Generator[Event, None, tuple[list[State] | None, float, float]]:
    """One depth-first pass from ``start`` within ``bound``: (path, cost, smallest refused measure)."""
    refused = math.inf
    if table is not None:
        seen = table.get(start)
        if seen is not None and seen <= 0.0:
            return None, 0.0, refused  # another start that is the same state
        table[start] = 0.0
    yield Event(OPEN, start, 0.0)
    if problem.is_goal(start):
        yield Event(PATH, start, 0.0)
        return [start], 0.0, refused
    path: list[State] = [start]
    costs: list[float] = [0.0]
    on_path = {start}
    children: list[Iterator[tuple[State, float]]] = [iter(problem.successors(start))]
    while children:
        step = next(children[-1], None)
        if step is None:  # every successor done: step back off this state
            children.pop()
            state = path.pop()
            on_path.discard(state)
            yield Event(CLOSE, state, costs.pop())
            continue
        nxt, step_cost = step
        if nxt in on_path:
            continue  # a cycle
        g = costs[-1] + step_cost
        value = measure(nxt, g, len(path))
        if value > bound:
            refused = min(refused, value)
            continue
        if table is not None:
            seen = table.get(nxt)
            if seen is not None and seen <= g:
                continue  # already stepped onto with at least as much of the bound left
            if seen is not None or len(table) < TABLE_LIMIT:
                table[nxt] = g
        yield Event(OPEN, nxt, g)
        if problem.is_goal(nxt):
            found = [*path, nxt]
            for state, cost in zip(reversed(found), [g, *reversed(costs)], strict=True):
                yield Event(PATH, state, cost)
            return found, g, refused
        path.append(nxt)
        costs.append(g)
        on_path.add(nxt)
        children.append(iter(problem.successors(nxt)))
    return None, 0.0, refused
