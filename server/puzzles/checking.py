"""Checking a solution handed in for a puzzle: is it legal, what does it cost, is it optimal?

A family reads its own notations and replays the moves under its own rules (its ``checker`` part:
``Checker.check`` → ``CheckResult``); ``server.judging.judge_solution`` adds the optimum, found by the
family's optimal search within the caller's limits (``CheckResult.compare_with``), so every family
answers the same questions the same way ("legal, cost 54; the optimum is 52 (not optimal)"). Pure:
the families import it, it imports nothing above the family interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import t
from ..search.costs import cost_text, json_cost
from ..search.problem import Problem, State
from ..search.stats import SearchResult
from .errors import PuzzleError, show_value
from .options import Values


@dataclass
class CheckResult:
    """The verdict on one solution. ``cost`` is in the units the family's ``solve --json`` reports
    (None when illegal); ``replay``: a result object like ``solve --json``'s for the states walked up
    to the first illegal move, which the page replays with the family's own animation."""

    valid: bool
    cost: float | None
    moves: int
    first_illegal_move: int | None = None
    reason: str | None = None
    path: list[Any] = field(default_factory=list)
    optimum: float | None = None
    optimal: bool | None = None
    optimum_note: str | None = None
    replay: dict[str, Any] | None = None
    # Where the first illegal move was: {"from": place, "to": place or None}, places as the family's
    # results show them (grids: [row, col]); None when every move is legal or the family does not say.
    illegal: dict[str, Any] | None = None

    @classmethod
    def walked(cls, why: str | None, cost: float, moves: int, path: list[Any], replay: dict[str, Any],
               bad: int | None = None, illegal: dict[str, Any] | None = None) -> CheckResult:
        """The verdict of a replayed answer: illegal when ``why`` says why (``bad``: the move, ``illegal``:
        where), else legal at ``cost``."""
        if why is not None:
            return cls(False, None, moves, bad, why, path, replay=replay, illegal=illegal)
        return cls(True, cost, moves, None, None, path, replay=replay)

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``--json`` object and the API's answer (costs as ``solve --json`` prints them)."""
        out = {
            "valid": self.valid,
            "cost": json_cost(self.cost),
            "optimum": json_cost(self.optimum),
            "optimal": self.optimal,
            "first_illegal_move": self.first_illegal_move,
            "reason": self.reason,
            "moves": self.moves,
            "summary": self.summary(),
        }
        if self.optimum_note:
            out["optimum_note"] = self.optimum_note
        if self.illegal is not None:
            out["illegal"] = self.illegal
        return out

    def compare_with(self, optimum: float | None, note: str | None = None) -> None:
        """Record the optimum under the same rules (None: not known, ``note`` says why) and whether this
        solution reaches it: ``optimal`` is None when the optimum is not known, False when illegal."""
        self.optimum, self.optimum_note = optimum, note
        if self.valid and self.cost is not None and optimum is not None:
            self.optimal = abs(self.cost - optimum) <= 1e-6 * max(1.0, abs(optimum))
        else:
            self.optimal = False if not self.valid else None

    def summary(self) -> str:
        """One line: "legal, cost 54; the optimum is 52 (not optimal)", or the reason it is not legal."""
        if not self.valid:
            return self.reason or t("core.check.not_legal")
        line = t("core.check.legal_cost", cost=cost_text(self.cost))
        if self.optimum is None:
            note = t("core.check.note", note=self.optimum_note) if self.optimum_note else ""
            return t("core.check.optimum_unknown", line=line, note=note)
        verdict = t("core.check.optimal") if self.optimal else t("core.check.not_optimal")
        return t("core.check.optimum_is", line=line, optimum=cost_text(self.optimum), verdict=verdict)


def replay_json(family: Any, puzzle: Any, problem: Problem, states: list[State], raw_cost: float | None,
                options: Values, reached_goal: bool) -> dict[str, Any]:
    """The walked states as the family's own result object (``Family.result_json``), for the page's
    replay: ``found`` when the solution reached a goal legally; ``algorithm`` "check"."""
    result = SearchResult("check", reached_goal, raw_cost if reached_goal else None, list(states),
                          0, 0, 0, 0.0, False)
    out = family.result_json(puzzle, problem, result, options)
    out["checked"] = True
    return out




# ---- reading answers: what every family's notations share ------------------------------------------
def where(text: str, offset: int) -> str:
    """"line L, column C" (1-based) of ``offset`` in ``text``: an error's place in a typed answer."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return f"line {line}, column {column}"


def solve_json(value: dict[str, Any], family: str, noun: str, key: str | None = "path") -> Any:
    """``run.py solve --json``'s object handed in as an answer: its ``key`` field (the path or the
    moves; None: the caller reads its own fields); PuzzleError when it is another family's (``noun``
    names this one: "a step maze"), found nothing, or lacks ``key``."""
    if value.get("family", family) != family:
        raise PuzzleError(t("core.checking.solution_puzzle_not", value=show_value(value['family']),
                            noun=t(noun)),
                          "field 'family'")
    if value.get("found") is False:
        raise PuzzleError(t("core.checking.this_search_found_no_solution"), "field 'found'")
    if key is None:
        return None
    if key not in value:
        raise PuzzleError(t("core.checking.expected_field_as_run_py", key_name=key), "file")
    return value[key]
