"""The heuristic "yours": a student's formula (``server/formula.py``) as a search heuristic.

``with_formula`` gives a family's ``Problem`` one more heuristic, "yours", so that A*, greedy search
and IDA* can use the run's ``formula``: each state's features come from ``Problem.features`` and
the value is cached per state. The problem keeps its class (a subclass of it with ``YoursMixin``
first), so a family's code that checks ``isinstance`` still sees its own problem. "yours" is listed
as not known to be admissible: a run with it never claims a guaranteed optimum (the heuristic lab
is where a formula is judged).
"""

from __future__ import annotations

import math
from functools import cache

from ..formula import Formula
from ..i18n import t
from ..search.problem import Problem, State
from .errors import PuzzleError
from .options import YOURS


class YoursMixin:
    """``heuristic(state, "yours")`` = the formula over the state's features; other names as before."""

    formula: Formula
    _yours: dict[State, float]

    def heuristic(self, state: State, name: str) -> float:
        if name != YOURS:
            return super().heuristic(state, name)  # type: ignore[misc]
        value = self._yours.get(state)
        if value is None:
            problem: Problem = self  # type: ignore[assignment]
            value = float(self.formula.evaluate(problem.features([state]))[0])
            if math.isnan(value):
                where = problem.state_to_json(state)
                raise PuzzleError(t("core.yours.your_heuristic_not_number_at",
                                    where=where), "option 'formula'")
            self._yours[state] = value
        return value


@cache
def _with_mixin(cls: type) -> type:
    return type(f"Yours{cls.__name__}", (YoursMixin, cls), {})


def with_formula(problem: Problem, formula: Formula | None) -> Problem:
    """``problem`` itself, given the heuristic "yours" when the run has a formula."""
    if formula is None:
        return problem
    problem.__class__ = _with_mixin(type(problem))
    problem.heuristics = (*problem.heuristics, YOURS)
    problem.inadmissible_heuristics = frozenset(problem.inadmissible_heuristics) | {YOURS}
    problem.formula = formula  # type: ignore[attr-defined]
    problem._yours = {}  # type: ignore[attr-defined]
    return problem
