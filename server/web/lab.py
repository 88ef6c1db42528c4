"""The teacher's lab over HTTP (docs/PROTOCOL.md): ``POST /api/puzzles/<id>/heuristic`` judges a
formula against the true cost-to-go, ``POST /api/puzzles/<id>/check`` checks a solution. Each is
rate-limited per client and runs like a search: a compute slot and its memory from the shared
``WorkBudget``, under the config's limits (``lab_*``, ``max_solution_bytes``)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from ..formula import FormulaError
from ..i18n import t
from ..judging import judge_formula, judge_solution, rule_options
from ..puzzles.errors import PuzzleError
from ..puzzles.options import Values
from ..puzzles.registry import family_of
from ..search.control import CancelFlag, deadline
from ..services import services
from ..solving import search_plan
from .common import answer_errors, json_object, stored_puzzle, take, working

lab = Blueprint("lab", __name__)
MIN_LAB_STATES = 1_000  # a judgement fitted to a client's memory walks at least this many states
answer_errors(lab)


@lab.post("/puzzles/<pid>/heuristic")
def heuristic(pid: str) -> Response:
    puzzle, family, text, options = _text_and_rules(pid, "formula", "lab.what.formula")
    config = services().config
    take("lab", config.labs_per_minute)
    flag = CancelFlag()
    try:
        states, nbytes = _lab_plan(family, puzzle)
        with working(nbytes, "judging a heuristic on this puzzle"), deadline(flag, config.lab_max_seconds):
            verdict = judge_formula(puzzle, text, options, max_states=states,
                                    max_seconds=config.lab_max_seconds, cancel=flag,
                                    heat_cells=config.lab_heat_cells)
    except FormulaError as err:
        raise PuzzleError(str(err), "field 'formula'") from None  # its text names the column
    return jsonify(verdict.to_json())


@lab.post("/puzzles/<pid>/check")
def check(pid: str) -> Response:
    puzzle, family, text, options = _text_and_rules(pid, "solution",
                                                    "lab.what.solution")
    config = services().config
    if len(text.encode("utf-8", "surrogatepass")) > config.max_solution_bytes:
        raise PuzzleError(t("web.lab.solution_longer_than_bytes",
                            max_solution_bytes=config.max_solution_bytes),
                          "field 'solution'")
    owner = take("check", config.checks_per_minute)
    shared = services()
    limits, need = search_plan(shared.budget, config, puzzle, family.default_algorithm, options, owner)
    room = max(0, shared.budget.limit_for(owner) - need)
    with working(need + min(family.trace_estimate(puzzle) // 4, room), "checking a solution of this puzzle"):
        result = judge_solution(puzzle, text, options, max_expanded=limits["max_expanded"],
                                max_seconds=limits["max_seconds"], max_stored=limits["max_stored"])
    return jsonify({**result.to_json(), "replay": result.replay})


def _text_and_rules(pid: str, field: str, expected: str) -> tuple[Any, Any, str, Values]:
    """A lab request's stored puzzle, its family, the body's text ``field`` (refused, saying
    ``expected``, when it is not text) and the rule options it is judged under."""
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    body = json_object(field)
    text = body.get(field)
    if not isinstance(text, str):
        raise PuzzleError(t("web.lab.expected", expected=t(expected)), f"field '{field}'")
    return puzzle, family, text, rule_options(family, body.get("options"))


def _lab_plan(family: Any, puzzle: Any) -> tuple[int, int]:
    """(the states a judgement walks, the memory it reserves): ``lab_max_states``, or fewer where
    ``Lab.space_bytes`` says they would not fit one client's share (a walk stopped by its limit says
    so in the verdict); refused in words when even a small walk does not fit."""
    shared = services()
    lab = family.need("lab")
    states = shared.config.lab_max_states
    nbytes = lab.space_bytes(puzzle, states)
    room = shared.budget.memory_share
    if nbytes > room:
        per_state = max(1, lab.space_bytes(puzzle, states) - lab.space_bytes(puzzle, 0)) / states
        fitted = int((room - lab.space_bytes(puzzle, 0)) / per_state)
        if fitted >= MIN_LAB_STATES:
            states, nbytes = fitted, lab.space_bytes(puzzle, fitted)
    return states, nbytes
