"""Depth-first graph search: the frontier is a stack (last in, first out).

A state is pushed once (never if already reached); successors are pushed in reverse order so
the first successor is explored first. Goal test on generation. Not optimal.
"""

from __future__ import annotations

from collections.abc import Generator

from ..events import CLOSE, OPEN, Event
from ..problem import Problem, State
from .common import backtrace

Search = Generator[Event, None, tuple[list[State] | None, float]]


def depth_first(problem: Problem) -> Search:
    came_from: dict[State, State | None] = {}
    g: dict[State, float] = {}
    frontier: list[State] = []
    for start in reversed(problem.initial_states()):
        if start in g:
            continue
        came_from[start], g[start] = None, 0.0
        yield Event(OPEN, start, 0.0)
        if problem.is_goal(start):
            return (yield from backtrace(came_from, g, start)), 0.0
        frontier.append(start)

    while frontier:
        current = frontier.pop()
        yield Event(CLOSE, current, g[current])
        for nxt, step_cost in reversed(list(problem.successors(current))):
            if nxt in g:  # already reached: on the stack or expanded
                continue
            came_from[nxt], g[nxt] = current, g[current] + step_cost
            yield Event(OPEN, nxt, g[nxt])
            if problem.is_goal(nxt):
                return (yield from backtrace(came_from, g, nxt)), g[nxt]
            frontier.append(nxt)
    return None, 0.0
