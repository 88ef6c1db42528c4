"""A student's own search, replayed as ordinary search events (the hidden algorithm ``code``).

A student's program ran in the browser over the puzzle's walked space (``server.search.walk``) and
recorded which states it expanded (each call of ``successors``) and the path it returned, as ids of
that space. The run option ``code`` carries them: ``"<expanded ids>;<path ids>"``, comma-separated,
the path part empty when the program returned none. ``replay`` walks the same space again (the same
problem and options number the states the same way) and yields what the student's search did: each
expansion closes its state and opens (or updates, when cheaper) the states one move away, with g the
cheapest cost seen through the student's expansions; then the path, goal first, as every algorithm
emits it. The player, figures, explain mode and the comparison then show it like any run.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from itertools import pairwise

from server.puzzles.errors import PuzzleError  # a leaf module: the one error users see named
from server.search.events import CLOSE, OPEN, PATH, UPDATE, Event
from server.search.problem import Problem, State
from server.search.walk import walk

Search = Generator[Event, None, tuple[list[State] | None, float]]

# The walk goes as far as the run's largest id (the walk numbers states in the same order whatever its
# bound, so ids are a prefix), plus room for one state's moves; never past MAX_REPLAY_STATES.
MAX_REPLAY_STATES = 1_000_000
WALK_SLACK = 4_096


def parse_code(text: str) -> tuple[list[int], list[int] | None]:
    """``"<expanded ids>;<path ids>"`` → (expanded ids, path ids or None); ValueError naming the fault."""
    head, sep, tail = text.partition(";")
    if not sep:
        raise ValueError("expected '<expanded ids>;<path ids>' (a ';' between the two lists)")

    def ids(part: str, what: str) -> list[int]:
        if not part.strip():
            return []
        try:
            values = [int(v) for v in part.split(",")]
        except ValueError:
            raise ValueError(f"the {what} are not whole numbers separated by commas") from None
        if any(v < 0 for v in values):
            raise ValueError(f"the {what} hold a negative id")
        return values

    path = ids(tail, "path's ids")
    return ids(head, "expanded ids"), (path or None)


def replay(problem: Problem, code: str) -> Search:
    try:
        expanded_ids, path_ids = parse_code(code)
    except ValueError as err:
        raise PuzzleError(str(err), "option 'code'") from None
    largest = max([*expanded_ids, *(path_ids or [])], default=0)
    if largest >= MAX_REPLAY_STATES:
        raise PuzzleError(f"state id {largest:,} is beyond the {MAX_REPLAY_STATES:,} states a replay walks",
                          "option 'code'")
    space = walk(problem, largest + 1 + WALK_SLACK)
    count = len(space.states)
    bad = next((i for i in [*expanded_ids, *(path_ids or [])] if i >= count), None)
    if bad is not None:
        raise PuzzleError(f"state id {bad} is not one of this puzzle's {count:,} states (was the run "
                          "recorded under other options?)", "option 'code'")
    g: dict[State, float] = {}
    closed: set[State] = set()
    for start in problem.initial_states():
        if start not in g:
            g[start] = 0.0
            yield Event(OPEN, start, 0.0)
    for i in expanded_ids:
        state = space.states[i]
        here = g.get(state, math.inf)  # a state the student expanded without reaching it first
        if state not in g:
            g[state] = here
        closed.add(state)
        yield Event(CLOSE, state, 0.0 if here == math.inf else here)
        for nxt, step in problem.successors(state):
            through = here + step
            known = g.get(nxt)
            if known is None:
                g[nxt] = through
                yield Event(OPEN, nxt, through if through < math.inf else 0.0)
            elif through < known and nxt not in closed:
                g[nxt] = through
                yield Event(UPDATE, nxt, through)
    if not path_ids:
        return None, 0.0
    path = [space.states[i] for i in path_ids]
    costs = _costs_along(problem, path)
    if costs is None or not problem.is_goal(path[-1]) or path[0] not in problem.initial_states():
        return None, 0.0  # the verdict says why (server/code_verdict.py); nothing to draw as a path
    for state, at in zip(reversed(path), reversed(costs), strict=True):
        yield Event(PATH, state, at)
    return path, costs[-1]


def _step(problem: Problem, a: State, b: State) -> float | None:
    """The cheapest move a → b, or None when there is none."""
    costs = [c for nxt, c in problem.successors(a) if nxt == b]
    return min(costs) if costs else None


def _costs_along(problem: Problem, path: list[State]) -> list[float] | None:
    """The cost from the path's first state to each of its states, or None when a step is no move."""
    costs = [0.0]
    for a, b in pairwise(path):
        step = _step(problem, a, b)
        if step is None:
            return None
        costs.append(costs[-1] + step)
    return costs
