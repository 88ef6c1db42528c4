"""One best-first engine; uniform-cost (Dijkstra), greedy and A* differ only in the priority.

The frontier is a binary heap ordered by (f, h, insertion order): ties go to the state nearer
the goal, then to the older one. Stale heap entries are skipped when popped (lazy deletion);
closed states are never reopened. Goal test on expansion, which is what makes A* optimal.
"""

from __future__ import annotations

import heapq
from collections.abc import Generator

from ..events import CLOSE, OPEN, UPDATE, Event
from ..problem import Problem, State
from .common import backtrace

Search = Generator[Event, None, tuple[list[State] | None, float]]

MODES = ("dijkstra", "greedy", "astar")


def priority(mode: str, g: float, h: float, weight: float) -> float:
    """f of a state: g for Dijkstra, h for greedy, g + weight * h for A*."""
    if mode == "dijkstra":
        return g
    if mode == "greedy":
        return h
    return g + weight * h


def best_first(problem: Problem, mode: str, heuristic: str = "", weight: float = 1.0) -> Search:
    if mode not in MODES:
        raise ValueError(f"unknown best-first mode {mode!r}")

    def h_of(state: State) -> float:
        return 0.0 if mode == "dijkstra" else problem.heuristic(state, heuristic)

    cost_so_far: dict[State, float] = {}
    came_from: dict[State, State | None] = {}
    closed: set[State] = set()
    frontier: list[tuple[float, float, int, float, State]] = []
    order = 0
    for start in problem.initial_states():
        if start in cost_so_far:
            continue
        cost_so_far[start], came_from[start] = 0.0, None
        h = h_of(start)
        heapq.heappush(frontier, (priority(mode, 0.0, h, weight), h, order, 0.0, start))
        order += 1
        yield Event(OPEN, start, 0.0)

    while frontier:
        _f, _h, _order, g, current = heapq.heappop(frontier)
        if current in closed or g > cost_so_far[current]:
            continue  # a stale entry: the state was closed or reached more cheaply since
        closed.add(current)
        yield Event(CLOSE, current, g)
        if problem.is_goal(current):
            return (yield from backtrace(came_from, cost_so_far, current)), g
        for nxt, step_cost in problem.successors(current):
            if nxt in closed:
                continue
            new_cost = g + step_cost
            known = cost_so_far.get(nxt)
            if known is not None and new_cost >= known:
                continue
            cost_so_far[nxt], came_from[nxt] = new_cost, current
            h = h_of(nxt)
            heapq.heappush(frontier, (priority(mode, new_cost, h, weight), h, order, new_cost, nxt))
            order += 1
            yield Event(OPEN if known is None else UPDATE, nxt, new_cost)
    return None, 0.0
