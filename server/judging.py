"""Judging, for any family: a formula against the true cost-to-go, a solution against the rules and the
optimum, and the optimum itself.

The one service the teacher's lab (``server/web/lab.py``), student mode (``server/web/code.py``), the
CLI (``run.py heuristic``, ``check``, ``grade``) and ``solving.solve``'s "the optimum is 52" ask. It
sits on the floor of solving: it takes the puzzle's family from the registry and the pure parts from
below it (``heuristic_lab``: the lab space and ``judge``; ``puzzles.checking``: ``CheckResult``), which
never import it back.

* ``rule_options``: a run's options without the search's own (``SEARCH_ONLY``): the puzzle's rules,
  which decide its states, moves and costs, so what is judged under them.
* ``judge_formula``: a compiled formula judged over the family's lab space.
* ``judge_solution``: the family's checker plus the exact optimum under the same rules.
* ``exact_optimum``: the family's default algorithm, then ``REFERENCES``, within limits;
  ``optimum_cost``: the same, only when it is quick (``OPTIMUM_*``).
"""

from __future__ import annotations

from typing import Any

from .config import OPTIMUM_SECONDS
from .formula import compile_formula
from .heuristic_lab import Verdict, judge
from .i18n import t
from .puzzles.checking import CheckResult
from .puzzles.errors import PuzzleError
from .puzzles.family import RunControl
from .puzzles.options import Values
from .puzzles.registry import family_of
from .search.control import CancelFlag, deadline

__all__ = [
    "OPTIMUM_LIMITS", "OPTIMUM_SECONDS", "OPTIMUM_STORED", "REFERENCES", "SEARCH_ONLY", "exact_optimum",
    "judge_formula", "judge_solution", "optimum_cost", "rule_options",
]

#: Options that choose how to search, not what the puzzle is: never part of its rules.
SEARCH_ONLY = ("heuristic", "weight", "max_depth", "formula")

#: The searches that find an optimum, after the family's own default (its best optimal method, e.g.
#: a compiled IDA*): A* with the family's default admissible heuristic, then the rest.
REFERENCES = ("astar", "dijkstra", "bfs")

# Finding the optimum to compare a non-optimal answer with (``optimum_cost``): only when it is quick.
OPTIMUM_LIMITS = {True: 2_000_000, False: 100_000}  # states expanded, compiled / pure Python
# States its pure-Python search stores: fewer than a search's own ``max_stored``, and it runs once that
# search has ended, so it stays within the search's reservation.
OPTIMUM_STORED = 100_000


def rule_options(family: Any, options: Any) -> Values:
    """``options`` (a JSON-like mapping, or None) without the search's own (``SEARCH_ONLY``), checked
    as ``family``'s run options; raises PuzzleError naming the field."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise PuzzleError(t("judge.judging.options_must_be_object_got",
                            name=type(options).__name__), "options")
    return family.run_options({k: v for k, v in options.items() if k not in SEARCH_ONLY})


def exact_optimum(
    puzzle: Any, options: Values, *, max_expanded: int | None = None, max_seconds: float | None = None,
    max_stored: int | None = None, engine: str = "auto",
) -> tuple[float | None, str | None]:
    """(the optimal cost under ``options``' rules, None) or (None, why not): the family's default
    algorithm, then ``REFERENCES``, each with its own heuristic and weight 1, within the limits; a
    search whose answer is not guaranteed optimal on this puzzle falls through to the next."""
    family = family_of(puzzle)
    values = rule_options(family, options)
    order = dict.fromkeys((family.default_algorithm, *REFERENCES))
    for reference in (a for a in order if a in family.algorithms):
        flag = CancelFlag()
        control = RunControl(max_expanded, max_seconds, flag, engine=engine, max_stored=max_stored)
        with deadline(flag, max_seconds):
            result = family.solve(puzzle, reference, values, control).json
        if result["found"] and result["optimal_guaranteed"]:
            return result["cost"], None  # as results print it (an int when whole)
        if result.get("stopped"):
            return None, t("code.verdict.optimal_search_stopped", stopped=result["stopped"])
        if not result["found"]:
            return None, t("code.verdict.no_solution")
    return None, t("code.verdict.no_optimal_search")


def optimum_cost(puzzle: Any, options: Values, engine: str = "auto") -> float | None:
    """The optimal cost under the same rules when it is found quickly (``OPTIMUM_LIMITS``,
    ``OPTIMUM_SECONDS``), else None: for the "the optimum is 52" beside a non-optimal answer."""
    limit = OPTIMUM_LIMITS[family_of(puzzle).compiled]
    return exact_optimum(puzzle, options, max_expanded=limit, max_stored=OPTIMUM_STORED,
                         max_seconds=OPTIMUM_SECONDS, engine=engine)[0]


def judge_formula(puzzle: Any, text: Any, options: Values, *, max_states: int,
                  max_seconds: float | None = None, cancel: CancelFlag | None = None,
                  heat_cells: int | None = None) -> Verdict:
    """Compile ``text`` for the puzzle's family (``FormulaError`` names the column), build its lab
    space under ``options``' rules (``rule_options``) and judge it; a heat map when the board has at
    most ``heat_cells`` cells."""
    family = family_of(puzzle)
    lab = family.need("lab")
    formula = compile_formula(text, lab.feature_names)
    space = lab.space(puzzle, options, max_states, max_seconds, cancel)
    width, height = family.size(puzzle)
    cells = width * height if heat_cells is not None and width * height <= heat_cells else None
    verdict = judge(space, formula, cells)
    verdict.write_states(family.json_text)  # the family's one notation (Family.json_text)
    return verdict


def judge_solution(puzzle: Any, text: str, options: Values, *, max_expanded: int | None = None,
                   max_seconds: float | None = None, max_stored: int | None = None,
                   optimum: tuple[float | None, str | None] | None = None) -> CheckResult:
    """The family's checker (legal? what cost? the replay) plus the optimum under the same rules
    (``exact_optimum``) within the limits; ``optimum`` None (and ``optimum_note`` why) when no search
    finds it. A caller judging many solutions of one puzzle under the same rules passes ``optimum``
    (``exact_optimum``'s answer), found once. Raises PuzzleError for a family that checks no solutions."""
    checked = family_of(puzzle).need("checker").check(puzzle, text, options)
    if optimum is None:
        optimum = exact_optimum(puzzle, options, max_expanded=max_expanded, max_seconds=max_seconds,
                                max_stored=max_stored)
    checked.compare_with(*optimum)
    return checked
