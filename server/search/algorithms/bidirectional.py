"""Bidirectional uniform-cost search (bidirectional BFS when every step costs 1).

A forward search from the starts and a backward search from the goals take turns; each turn
expands one state of the side with the smaller frontier. Whenever a state gets a label from both
sides, ``best`` = min(g_forward + g_backward) is a candidate. The search must not stop at the
first meeting (PathFinding.js issue #28): it stops only when ``best`` is no larger than the sum
of the two frontiers' smallest g, at which point no unseen path can be cheaper.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Generator, Iterable

from ..events import CLOSE, CLOSE_B, OPEN, OPEN_B, PATH, UPDATE, UPDATE_B, Event
from ..problem import Problem, State

Search = Generator[Event, None, tuple[list[State] | None, float]]


class _Side:
    """One half of the search: its labels, parents, closed set and heap."""

    def __init__(
        self,
        kinds: tuple[int, int, int],
        neighbours: Callable[[State], Iterable[tuple[State, float]]],
    ) -> None:
        self.open_kind, self.close_kind, self.update_kind = kinds
        self.neighbours = neighbours
        self.cost_so_far: dict[State, float] = {}
        self.came_from: dict[State, State | None] = {}
        self.closed: set[State] = set()
        self.frontier: list[tuple[float, int, State]] = []
        self.live = 0  # distinct states on the frontier
        self.order = 0

    def push(self, state: State, g: float, parent: State | None) -> None:
        self.cost_so_far[state], self.came_from[state] = g, parent
        heapq.heappush(self.frontier, (g, self.order, state))
        self.order += 1

    def top(self) -> float:
        """The smallest g on the frontier (stale entries dropped), or infinity."""
        while self.frontier:
            g, _, state = self.frontier[0]
            if state in self.closed or g > self.cost_so_far[state]:
                heapq.heappop(self.frontier)
                continue
            return g
        return math.inf

    def chain(self, state: State) -> list[State]:
        """States from ``state`` back to this side's origin."""
        out = []
        current: State | None = state
        while current is not None:
            out.append(current)
            current = self.came_from[current]
        return out


def bidirectional(problem: Problem) -> Search:
    forward = _Side((OPEN, CLOSE, UPDATE), problem.successors)
    backward = _Side((OPEN_B, CLOSE_B, UPDATE_B), problem.predecessors)
    best, meet = math.inf, None

    for side, origins in ((forward, problem.initial_states()), (backward, problem.goal_states())):
        for state in origins:
            if state in side.cost_so_far:
                continue
            side.push(state, 0.0, None)
            side.live += 1
            yield Event(side.open_kind, state, 0.0)
    for state in forward.cost_so_far:
        if state in backward.cost_so_far:  # a start that is a goal
            best, meet = 0.0, state
            break

    while True:
        top_f, top_b = forward.top(), backward.top()
        if best <= top_f + top_b or math.isinf(top_f) or math.isinf(top_b):
            break  # stopping rule: nothing left on a frontier can lead to a cheaper path
        side, other = (forward, backward) if forward.live <= backward.live else (backward, forward)
        g, _, current = heapq.heappop(side.frontier)
        side.closed.add(current)
        side.live -= 1
        yield Event(side.close_kind, current, g)
        for nxt, step_cost in side.neighbours(current):
            if nxt in side.closed:
                continue
            new_cost = g + step_cost
            known = side.cost_so_far.get(nxt)
            if known is not None and new_cost >= known:
                continue
            side.push(nxt, new_cost, current)
            if known is None:
                side.live += 1
            yield Event(side.open_kind if known is None else side.update_kind, nxt, new_cost)
            other_cost = other.cost_so_far.get(nxt)
            if other_cost is not None and new_cost + other_cost < best:
                best, meet = new_cost + other_cost, nxt

    if meet is None:
        return None, 0.0
    head, tail = forward.chain(meet)[::-1], backward.chain(meet)[1:]
    g_along = [forward.cost_so_far[s] for s in head] + [best - backward.cost_so_far[s] for s in tail]
    path = head + tail
    for state, g in zip(reversed(path), reversed(g_along), strict=True):
        yield Event(PATH, state, g)
    return path, best
