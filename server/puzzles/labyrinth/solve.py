"""Solve a labyrinth with any algorithm and shape the result JSON (the grid result's keys plus
``moves``, ``insertions`` and ``walked_cells``).

Every algorithm comes from the core registry (``ALGORITHMS`` is this family's menu; seed 000's
method is registered by ``greedy``) and runs through ``server.search.runner``; a depth limit makes
a bounded variant of IDA* or iterative deepening.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ...i18n import t
from ...search.algorithms.iterative import idastar, iddfs
from ...search.events import Event
from ...search.registry import CODE, Algorithm, SearchOptions, get_algorithm
from ...search.runner import Limits, run_algorithm, run_search
from ...search.stats import SearchResult
from ..errors import PuzzleError
from .greedy import SEED_GREEDY
from .model import LabyrinthPuzzle
from .problem import LabState, LabyrinthProblem, LabyrinthSetProblem

VIEWS = ("states", "sets")
#: The menu, in order; bidirectional search needs goal states this family cannot list.
ALGORITHMS = ("bfs", "dfs", "dijkstra", "greedy", "astar", "idastar", "iddfs", SEED_GREEDY.name)
DEFAULT_MAX_EXPANDED = 2_000_000
DEFAULT_MAX_SECONDS = 60.0

def algorithm_names() -> list[str]:
    """Every algorithm this family offers (bidirectional needs goal states it cannot list)."""
    return list(ALGORITHMS)


def make_problem(puzzle: LabyrinthPuzzle, view: str = "states", moves: str | None = None):
    """The search view of ``puzzle``: one state per player position, or per set of places."""
    if view not in VIEWS:
        raise PuzzleError(
            t("labyrinth.unknown_view_choose_one", view=repr(view), views=", ".join(VIEWS)),
            t("labyrinth.option_view"),
        )
    if moves is not None and moves not in ("combined", "separate"):
        raise PuzzleError(
            t("labyrinth.unknown_move_model_choose_combined", moves=repr(moves)), t("labyrinth.option_moves")
        )
    return (LabyrinthProblem if view == "states" else LabyrinthSetProblem)(puzzle, moves)


def solve_labyrinth(
    puzzle: LabyrinthPuzzle,
    algorithm: str,
    heuristic: str = "",
    weight: float = 1.0,
    max_expanded: int | None = DEFAULT_MAX_EXPANDED,
    max_seconds: float | None = DEFAULT_MAX_SECONDS,
    cancel: threading.Event | None = None,
    on_event: Callable[[Event], None] | None = None,
    *,
    view: str = "states",
    moves: str | None = None,
    max_depth: int | None = None,
    max_stored: int | None = None,
    problem: LabyrinthProblem | LabyrinthSetProblem | None = None,
    code: str = "",
) -> dict[str, Any]:
    """Solve ``puzzle``; the result JSON of the CLI and the API. Raises PuzzleError for bad options.

    ``view``: "states" (one per player position) or "sets" (the merged view). ``moves``: overrides
    the puzzle's move model. ``max_depth``: idastar/iddfs only, look for plans of at most that many
    moves ("solved optimally to depth N"); none found means none exists within N. ``problem``: the
    search view to run on (the family's ``run_problem``, which adds the heuristic "yours"); by
    default ``make_problem(puzzle, view, moves)``. ``code``: a student's recorded run, for the
    hidden algorithm ``code`` (student mode).
    """
    if algorithm not in algorithm_names() and algorithm != CODE:
        raise PuzzleError(
            t(
                "labyrinth.unknown_algorithm_for_labyrinth_choose",
                algorithm=repr(algorithm),
                algorithm_names=", ".join(algorithm_names()),
            ),
            t("labyrinth.option_algorithm"),
        )
    if algorithm == "seed-greedy" and view != "states":
        raise PuzzleError(t("labyrinth.seed_greedy_follows_one_player"), t("labyrinth.option_view"))
    if algorithm == "bfs" and view == "sets":
        raise PuzzleError(
            t("labyrinth.bfs_traces_its_path_back"),
            t("labyrinth.option_view"),
        )
    if problem is None:
        problem = make_problem(puzzle, view, moves)
    options = SearchOptions(heuristic=heuristic, weight=weight, code=code)
    try:
        used_heuristic = options.resolved_heuristic(problem)
    except ValueError as err:
        raise PuzzleError(str(err), t("labyrinth.option_heuristic")) from None
    limits = Limits(max_expanded, max_seconds, max_stored)
    if max_depth is None:
        result = run_search(problem, algorithm, options, limits, on_event, cancel)
    else:
        entry = _depth_limited(algorithm, max_depth)
        result = run_algorithm(problem, entry, options, limits, on_event, cancel)
    out = result_json(problem, result, used_heuristic, weight, view, limits)
    if max_depth is not None:
        out["options"]["max_depth"] = max_depth
        if not result.found and not result.stopped:
            out["message"] = t(
                "labyrinth.no_solution_within_moves_searched",
                max_depth=max_depth,
                states=_states(result.expanded),
            )
    return out


def _depth_limited(algorithm: str, max_depth: int) -> Algorithm:
    """The idastar/iddfs entry, bounded to plans of at most ``max_depth`` moves (each move costs 1)."""
    if algorithm not in ("idastar", "iddfs"):
        raise PuzzleError(t("labyrinth.depth_limit_applies_idastar_and"), t("labyrinth.option_max_depth"))
    if not isinstance(max_depth, int) or max_depth < 0:
        raise PuzzleError(
            t("labyrinth.expected_number_moves_0_found", max_depth=repr(max_depth)),
            t("labyrinth.option_max_depth"),
        )
    base = get_algorithm(algorithm)
    if algorithm == "idastar":
        run = lambda p, o: idastar(p, o.resolved_heuristic(p), o.weight, max_cost=max_depth)  # noqa: E731
    else:
        run = lambda p, o: iddfs(p, max_depth=max_depth)  # noqa: E731
    return Algorithm(
        base.name, base.label, base.summary, run, base.optimal, base.uses_heuristic, base.uses_weight
    )


def player_states(problem: LabyrinthProblem | LabyrinthSetProblem, path: list[Any]) -> list[LabState]:
    """The solution as one player's states, whichever view found it."""
    if isinstance(problem, LabyrinthSetProblem):
        return problem.player_path(path) if path else []
    return list(path)


def result_json(
    problem: LabyrinthProblem | LabyrinthSetProblem,
    result: SearchResult,
    heuristic: str,
    weight: float,
    view: str,
    limits: Limits,
) -> dict[str, Any]:
    """The grid result's keys, plus the moves in words, insertions and cells walked."""
    single = (
        problem if isinstance(problem, LabyrinthProblem) else LabyrinthProblem(problem.puzzle, problem.moves)
    )
    states = player_states(problem, result.path) if result.found else []
    moves = single.moves_of(states)
    out: dict[str, Any] = {"family": "labyrinth", **result.to_json([single.state_to_json(s) for s in states])}
    out["moves"] = moves
    out["insertions"] = sum(1 for m in moves if m["push"] is not None)
    out["walked_cells"] = sum(len(m["walk"]) - 1 for m in moves if m["walk"] is not None)
    if not result.found:
        searched = t("labyrinth.searched", states=_states(result.expanded))
        if result.stopped == "cancelled":
            out["message"] = t("labyrinth.cancelled", searched=searched)
        elif result.stopped:
            out["message"] = t(
                "labyrinth.no_solution_found_within_search", searched=searched, stopped=result.stopped
            )
        elif result.algorithm == "seed-greedy":
            out["message"] = (
                t("labyrinth.no_solution_seed_000_greedy", searched=searched)
            )
        else:
            out["message"] = t("labyrinth.no_solution", searched=searched)
    out["options"] = {
        "moves": problem.moves,
        "view": view,
        "heuristic": heuristic,
        "weight": weight,
        "max_expanded": limits.max_expanded,
        "max_seconds": limits.max_seconds,
        **problem.describe(),
    }
    return out


def _states(count: int) -> str:
    return t("labyrinth.states_count", count=count)
