"""Small pieces the algorithms share: the backtrace through ``came_from``."""

from __future__ import annotations

from collections.abc import Generator

from ..events import PATH, Event
from ..problem import State


def backtrace(
    came_from: dict[State, State | None], g: dict[State, float], goal: State
) -> Generator[Event, None, list[State]]:
    """Follow ``came_from`` from the goal to a start; yield PATH events goal-first, return start-first."""
    path = []
    state: State | None = goal
    while state is not None:
        path.append(state)
        yield Event(PATH, state, g[state])
        state = came_from[state]
    path.reverse()
    return path
