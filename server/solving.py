"""One place that turns (puzzle, algorithm, options) into a result and a trace, for any family.

The CLI, the JSON API and the live layer all call ``solve``; it asks the puzzle's family (from
``server.puzzles.registry``) to check the algorithm and the options and to run the search.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from server.puzzles.family import RunControl, Solved
from server.puzzles.options import Values
from server.puzzles.registry import family_of
from server.search.control import CancelFlag, deadline

__all__ = ["Solved", "check_run", "solve"]

# Finding the optimum to compare a non-optimal answer with: only when it is quick.
OPTIMUM_LIMITS = {True: 2_000_000, False: 100_000}  # states expanded, compiled / pure Python
OPTIMUM_SECONDS = 1.0


def check_run(puzzle: Any, algorithm: Any, raw_options: Any) -> Values:
    """Validate a run request before any work starts; raises PuzzleError naming the field."""
    family = family_of(puzzle)
    if not isinstance(algorithm, str):
        from server.puzzles.errors import PuzzleError

        raise PuzzleError(f"expected an algorithm name, got {type(algorithm).__name__}", "option 'algorithm'")
    family.check_algorithm(algorithm)
    return family.run_options(raw_options)


def solve(
    puzzle: Any,
    algorithm: str,
    options: Any = None,
    *,
    record_trace: bool = False,
    engine: str = "auto",
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    max_stored: int | None = None,
    cancel: CancelFlag | None = None,
    progress: np.ndarray | None = None,
) -> Solved:
    """Solve ``puzzle``; ``options`` is a JSON-like mapping of run options (checked against the
    family's schema). Raises PuzzleError for a bad algorithm or options, or a puzzle the options
    leave unsolvable as asked (e.g. no start).

    Every limit applies to the generic engine and a family's fast path alike: ``max_seconds`` arms
    ``cancel`` (a new flag when none is given) to be set when the time is up, and both poll it."""
    values = check_run(puzzle, algorithm, options)
    family = family_of(puzzle)
    flag = cancel if cancel is not None else CancelFlag()
    control = RunControl(max_expanded, max_seconds, flag, progress, record_trace, engine, max_stored)
    with deadline(flag, max_seconds):
        solved = family.solve(puzzle, algorithm, values, control)
    result = solved.json
    if result["found"] and not result["optimal_guaranteed"] and not flag.is_set():
        optimum = optimum_cost(puzzle, values, engine)
        if optimum is not None:
            result["optimum"] = optimum
    return solved


def optimum_cost(puzzle: Any, options: Values, engine: str = "auto") -> float | None:
    """The optimal cost under the same rules (A* with the family's default admissible heuristic, or
    Dijkstra), when that is found within a small limit; else None."""
    family = family_of(puzzle)
    reference = next((a for a in ("astar", "dijkstra") if a in family.algorithms), None)
    if reference is None:
        return None
    search_only = ("heuristic", "weight", "max_depth")  # the reference's own; the rules stay the user's
    rules = {name: value for name, value in options.items() if name not in search_only}
    values = family.run_options(rules)
    flag = CancelFlag()
    control = RunControl(OPTIMUM_LIMITS[family.compiled], OPTIMUM_SECONDS, flag, engine=engine)
    with deadline(flag, OPTIMUM_SECONDS):
        result = family.solve(puzzle, reference, values, control).json
    return result["cost"] if result["found"] and result["optimal_guaranteed"] else None
