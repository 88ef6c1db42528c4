"""Student mode over HTTP (docs/PROTOCOL.md, "Student mode"): ``POST /api/puzzles/<id>/code/space`` gives
the puzzle's reachable states and moves for a student's own search in the page, ``POST
/api/puzzles/<id>/code/verdict`` judges what that search did. Both are rate-limited per client and paid
from the shared ``WorkBudget`` like a search, under the config's ``code_*`` limits."""

from __future__ import annotations

import gzip
import json
from typing import Any

from flask import Blueprint, Response, jsonify, request

from server.code_space import CodeSpace, SpaceCache, build_space
from server.code_verdict import judge_code_run
from server.judging import rule_options
from server.puzzles.errors import PuzzleError
from server.puzzles.options import whole_list
from server.puzzles.registry import family_of
from server.search.control import CancelFlag, deadline
from server.services import services
from server.web.common import answer_errors, json_object, stored_puzzle, take, working

code = Blueprint("code", __name__)
answer_errors(code)

STATE_BYTES = 400  # a walked state, its moves, its forms and heuristic values, in Python and in JSON
MIN_STATES = 1_000  # a space smaller than this is refused rather than walked
_spaces = SpaceCache()  # per process: a miss on another process only walks again


def _plan(puzzle: Any) -> tuple[int, int]:
    """(the states a space walks, bytes it holds per state): ``code_max_states``, or fewer where their
    size (``STATE_BYTES`` and the family's ``state_bytes``: a state may hold a whole board) would
    not fit half of one client's share of the work budget (the other half: the verdict's own search)."""
    shared = services()
    family = family_of(puzzle)
    per_state = STATE_BYTES + family.state_bytes(puzzle)
    states = min(shared.config.code_max_states, shared.budget.memory_share // 2 // per_state,
                 family.state_bound(puzzle, {}) or shared.config.code_max_states)
    if states < MIN_STATES:
        shared.budget.check_fits(MIN_STATES * per_state, "walking this puzzle's states for your code", "")
    return max(states, MIN_STATES), per_state


def _space(pid: str, puzzle: Any, raw_options: Any) -> CodeSpace:
    family = family_of(puzzle)
    rules = rule_options(family, raw_options)
    key = (pid, json.dumps(rules, sort_keys=True, default=str))
    space = _spaces.get(key)
    if space is None:
        config = services().config
        states, per_state = _plan(puzzle)
        flag = CancelFlag()
        with deadline(flag, config.code_max_seconds):
            space = build_space(family, puzzle, rules, states, config.code_max_seconds, flag)
        _spaces.put(key, space, space.count * per_state)
    return space


def _ids(value: Any, what: str, count: int, limit: int) -> list[int]:
    return whole_list(value, 0, count - 1, f"field '{what}'", "a state id", limit,
                      f"0..{count - 1:,}, the ids of this puzzle's {count:,} states")


@code.post("/puzzles/<pid>/code/space")
def space(pid: str) -> Response:
    puzzle = stored_puzzle(pid)
    body = json_object("options")
    config = services().config
    take("code", config.code_runs_per_minute)
    options = body.get("options")
    states, per_state = _plan(puzzle)
    with working(states * per_state, "walking this puzzle's states for your code"):
        # problem.heuristic(s) in the page: the run's heuristic, as the server's search uses it.
        chosen = options.get("heuristic") if isinstance(options, dict) else None
        answer = _space(pid, puzzle, options).to_json(chosen)
    return _compressed(json.dumps(answer, separators=(",", ":")).encode())


def _compressed(data: bytes) -> Response:
    """JSON, gzipped when the client takes it: a space of 200,000 states is ~15 MB of JSON, ~2 MB gzipped."""
    response = Response(data, mimetype="application/json")
    if "gzip" in request.headers.get("Accept-Encoding", "") and len(data) > 4096:
        response.set_data(gzip.compress(data, compresslevel=5))
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response


@code.post("/puzzles/<pid>/code/verdict")
def verdict(pid: str) -> Response:
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    body = json_object("algorithm", "expanded", "path")
    config = services().config
    algorithm = body.get("algorithm")
    if not isinstance(algorithm, str) or algorithm not in family.algorithms:
        raise PuzzleError(f"expected one of this puzzle's algorithms to compare with: "
                          f"{', '.join(family.algorithms)}", "field 'algorithm'")
    options = family.run_options(body.get("options") or {})
    stopped = body.get("stopped")
    if stopped is not None and not isinstance(stopped, str):
        raise PuzzleError("expected why the program stopped, as text, or null", "field 'stopped'")
    take("code", config.code_runs_per_minute)
    states, per_state = _plan(puzzle)
    with working(2 * states * per_state, "judging your code's run on this puzzle"):
        student = _space(pid, puzzle, body.get("options"))
        expanded = _ids(body.get("expanded"), "expanded", student.count, 10_000_000)
        path = None if body.get("path") is None else _ids(body.get("path"), "path", student.count, 10_000_000)
        flag = CancelFlag()
        with deadline(flag, config.code_max_seconds):
            answer = judge_code_run(student, family, puzzle, algorithm, options, expanded, path,
                                    (stopped or None) and stopped[:200], config.code_max_animated,
                                    config.code_max_seconds, flag)
    return jsonify(answer)
