"""Breadth-first search as Lee's wavefront (seed 004).

The wave gives every reached state its score: the number of steps from the nearest start. When
the wave reaches a goal, the path is traced back from the goal by always stepping to a
predecessor whose score is one lower. Goal test on generation, as in Lee's algorithm.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator

from ..events import CLOSE, OPEN, PATH, Event
from ..problem import Problem, State

Search = Generator[Event, None, tuple[list[State] | None, float]]


def breadth_first(problem: Problem) -> Search:
    score: dict[State, int] = {}  # the wave: steps from the nearest start
    frontier: deque[State] = deque()
    for start in problem.initial_states():
        if start in score:
            continue
        score[start] = 0
        yield Event(OPEN, start, 0)
        if problem.is_goal(start):
            return (yield from lee_backtrace(problem, score, start))
        frontier.append(start)

    while frontier:
        current = frontier.popleft()
        yield Event(CLOSE, current, score[current])
        for nxt, _step_cost in problem.successors(current):
            if nxt in score:
                continue
            score[nxt] = score[current] + 1
            yield Event(OPEN, nxt, score[nxt])
            if problem.is_goal(nxt):  # the wave reached the goal
                return (yield from lee_backtrace(problem, score, nxt))
            frontier.append(nxt)
    return None, 0.0


def lee_backtrace(problem: Problem, score: dict[State, int], goal: State) -> Search:
    """From the goal, step to the first predecessor whose score is one lower, down to score 0."""
    path = [goal]
    cost = 0.0
    current = goal
    yield Event(PATH, current, score[current])
    while score[current] > 0:
        for prev, step_cost in problem.predecessors(current):
            if score.get(prev) == score[current] - 1:
                cost += step_cost
                current = prev
                break
        else:  # cannot happen for a consistent wave; guard against a bad successor function
            raise RuntimeError(f"backtrace stuck at {current!r}")
        path.append(current)
        yield Event(PATH, current, score[current])
    path.reverse()
    return path, cost
