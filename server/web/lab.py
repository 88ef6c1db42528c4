"""The teacher's lab over HTTP (docs/PROTOCOL.md): ``POST /api/puzzles/<id>/heuristic`` judges a
formula against the true cost-to-go, ``POST /api/puzzles/<id>/check`` checks a solution. Each is
rate-limited per client and runs like a search: a compute slot and its memory from the shared
``WorkBudget``, under the config's limits (``lab_*``, ``max_solution_bytes``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Blueprint, Response, jsonify

from server.formula import FormulaError
from server.heuristic_lab import judge_formula, rule_options
from server.puzzles.checking import judge_solution
from server.puzzles.errors import PuzzleError
from server.puzzles.registry import family_of
from server.search.control import CancelFlag, deadline
from server.services import services
from server.web.common import answer_errors, json_body, stored_puzzle, take

lab = Blueprint("lab", __name__)
answer_errors(lab)


def _body(*required: str) -> dict[str, Any]:
    body = json_body()
    if not isinstance(body, dict):
        fields = f" with {', '.join(required)}" if required else ""
        raise PuzzleError(f"expected a JSON object{fields}", "body")
    return body


@contextmanager
def _working(nbytes: int) -> Iterator[None]:
    """A compute slot and ``nbytes`` of the budget for the block (503 when none frees in time)."""
    shared = services()
    held = shared.budget.reserve(nbytes, wait=shared.config.solve_wait)
    try:
        with shared.budget.computing(wait=shared.config.solve_wait):
            yield
    finally:
        shared.budget.release(held)


@lab.post("/puzzles/<pid>/heuristic")
def heuristic(pid: str) -> Response:
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    body = _body("formula")
    text = body.get("formula")
    if not isinstance(text, str):
        raise PuzzleError("expected the formula as text, e.g. \"dr + dc\"", "field 'formula'")
    options = rule_options(family, body.get("options"))
    config = services().config
    take("lab", config.labs_per_minute)
    flag = CancelFlag()
    try:
        nbytes = family.lab_bytes(puzzle, config.lab_max_states)
        with _working(nbytes), deadline(flag, config.lab_max_seconds):
            verdict = judge_formula(puzzle, text, options, max_states=config.lab_max_states,
                                    max_seconds=config.lab_max_seconds, cancel=flag,
                                    heat_cells=config.lab_heat_cells)
    except FormulaError as err:
        raise PuzzleError(str(err), "field 'formula'") from None  # its text names the column
    return jsonify(verdict.to_json())


@lab.post("/puzzles/<pid>/check")
def check(pid: str) -> Response:
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    body = _body("solution")
    text = body.get("solution")
    config = services().config
    if not isinstance(text, str):
        raise PuzzleError("expected the solution as text (what you would paste)", "field 'solution'")
    if len(text.encode("utf-8", "surrogatepass")) > config.max_solution_bytes:
        raise PuzzleError(f"the solution is longer than {config.max_solution_bytes:,} bytes",
                          "field 'solution'")
    options = rule_options(family, body.get("options"))
    take("check", config.checks_per_minute)
    limits = config.search_limits(family.compiled)
    with _working(family.trace_estimate(puzzle) // 4):
        result = judge_solution(family, puzzle, text, options, max_expanded=limits["max_expanded"],
                                max_seconds=limits["max_seconds"], max_stored=limits["max_stored"])
    return jsonify({**result.to_json(), "replay": result.replay})
