"""Student mode's space: a puzzle's reachable states and moves, for a student's own search in the page.

The page runs the student's Python in the browser, so it needs the rules there. Rather than a second
implementation of each family's rules in the page, the server walks the family's own ``Problem``
(``server.search.walk``) and sends the result as an explicit graph: each state in its student form
(``Problem.student_state``), the moves out of each walked state in the server's order with their
costs, the goals and every heuristic's value. The page's ``problem`` object (static/js/code/harness.py)
answers from those tables, so a student's search sees exactly the server's rules.

Spaces are cached per puzzle and rules in each process (``SpaceCache``): the page asks for the space,
then for a verdict over the same space. A cache miss on another process only walks again.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .i18n import t
from .puzzles.capabilities import state_form
from .puzzles.errors import PuzzleError
from .puzzles.options import Values
from .search.control import CancelFlag
from .search.problem import Problem
from .search.walk import Walk, walk


@dataclass
class CodeSpace:
    """A walked space with what a student's search reads of each state."""

    problem: Problem
    walk: Walk
    forms: list[Any]  # id -> the state's student form (JSON)
    starts: list[int]
    goals: np.ndarray  # bool per state
    state_form: str

    @property
    def count(self) -> int:
        return len(self.walk.states)

    def moves_of(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """The targets and costs of the moves out of state ``i`` (which must have been walked)."""
        offsets = self._offsets
        lo, hi = offsets[i], offsets[i + 1]
        return self.walk.dst[lo:hi], self.walk.cost[lo:hi]

    @cached_property
    def _offsets(self) -> np.ndarray:
        return self.walk.offsets

    def show(self, i: int) -> str:
        """State ``i`` as a student's Python prints it: (3, 4)."""
        return show_form(self.forms[i])

    def optimum(self) -> float | None:
        """The cheapest cost from a start to a goal over the walked moves (uniform-cost search), or None
        when no goal is reached; exact when the walk was complete."""
        best = [math.inf] * self.count
        heap = []
        for s in self.starts:
            best[s] = 0.0
            heap.append((0.0, s))
        heapq.heapify(heap)
        walked = self.walk.expanded
        while heap:
            g, s = heapq.heappop(heap)
            if g > best[s]:
                continue
            if self.goals[s]:
                return g
            if s >= walked:
                continue
            targets, costs = self.moves_of(s)
            for nxt, c in zip(targets.tolist(), costs.tolist(), strict=True):
                if g + c < best[nxt]:
                    best[nxt] = g + c
                    heapq.heappush(heap, (g + c, nxt))
        return None

    def to_json(self, heuristic: Any = None) -> dict[str, Any]:
        """The space as docs/PROTOCOL.md ("Student mode") gives it to the page; ``heuristic``: the run's
        choice, which ``problem.heuristic`` then uses when it is one of the problem's (else the default)."""
        problem, done = self.problem, self.walk
        names = list(problem.heuristics)
        default = names[0] if names else ""
        chosen = heuristic if isinstance(heuristic, str) and heuristic in names else default
        heuristics = {name: [_number(problem.heuristic(s, name)) for s in done.states] for name in names}
        return {
            "count": self.count, "walked": done.expanded, "states": self.forms, "start": self.starts,
            "goal": np.flatnonzero(self.goals).tolist(), "offsets": self._offsets.tolist(),
            "targets": done.dst.tolist(), "costs": [_number(c) for c in done.cost.tolist()],
            "unit_costs": bool(problem.unit_costs), "heuristics": heuristics,
            "heuristic": chosen, "state_form": self.state_form,
            "complete": done.stopped is None, "stopped": done.stopped,
        }


def _number(value: float) -> float | int | None:
    """A JSON number (whole numbers as ints, so the page's Python sees 1, not 1.0); None for infinity."""
    if not math.isfinite(value):
        return None
    return int(value) if float(value).is_integer() else float(value)


def show_form(form: Any) -> str:
    """A student form as Python prints it: lists as tuples, long texts cut."""
    if isinstance(form, list):
        inner = ", ".join(show_form(v) for v in form)
        return f"({inner},)" if len(form) == 1 else f"({inner})"
    if isinstance(form, str):
        return repr(form if len(form) <= 24 else form[:21] + "...")
    return repr(form)


def build_space(family: Any, puzzle: Any, rules: Values, max_states: int, max_seconds: float | None = None,
                cancel: CancelFlag | None = None) -> CodeSpace:
    """The student's space of ``puzzle`` under the rule options ``rules`` (``judging.rule_options``)."""
    problem = family.problem(puzzle, rules)
    done = walk(problem, max_states, max_seconds, cancel)
    if done.stopped == "cancelled":
        raise PuzzleError(t("code.code_space.walk_this_puzzle_s_states"), "puzzle")
    forms = [problem.student_state(s) for s in done.states]
    goals = np.fromiter((problem.is_goal(s) for s in done.states), dtype=bool, count=len(done.states))
    starts = [done.index[s] for s in dict.fromkeys(problem.initial_states())]
    return CodeSpace(problem, done, forms, starts, goals, state_form(family.student))


class SpaceCache:
    """The last few spaces built in this process, by (puzzle id, rules), at most ``size`` of them and
    ``max_bytes`` in all (memory held between requests, outside the work budget: so it is capped);
    thread-safe."""

    def __init__(self, size: int = 4, max_bytes: int = 256 * 1024 * 1024) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self._spaces: OrderedDict[tuple[str, str], tuple[CodeSpace, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> CodeSpace | None:
        with self._lock:
            found = self._spaces.get(key)
            if found is None:
                return None
            self._spaces.move_to_end(key)
            return found[0]

    def put(self, key: tuple[str, str], space: CodeSpace, nbytes: int = 0) -> None:
        """Keep ``space`` (about ``nbytes``); one larger than the cap is not kept (it is walked again)."""
        if nbytes > self.max_bytes:
            return
        with self._lock:
            self._spaces[key] = (space, nbytes)
            self._spaces.move_to_end(key)
            while len(self._spaces) > self.size or sum(n for _, n in self._spaces.values()) > self.max_bytes:
                self._spaces.popitem(last=False)
