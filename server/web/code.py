"""Student mode over HTTP (docs/PROTOCOL.md, "Student mode"): ``POST /api/puzzles/<id>/code/rules`` gives
the family's own rules (its modules and the puzzle's data) for a student's own search in the page, or,
for a family without them, ``…/code/space``'s explicit graph; ``…/code/runs`` takes a recorded run in
parts; ``…/code/verdict`` judges what that search did and keeps the run for its replay (``run:<id>``).
Rules, graphs and verdicts are rate-limited per client and paid from the shared ``WorkBudget`` like a
search, under the config's ``code_*`` limits."""

from __future__ import annotations

import gzip
import json
import logging
from typing import Any

from flask import Blueprint, Response, jsonify, request

from ..clients import client_id, shared_redis
from ..code_rules import problem_rules
from ..code_runs import PART_CHARS, RUNS
from ..code_space import CodeSpace, SpaceCache, build_space
from ..code_verdict import judge_code_run
from ..i18n import t
from ..judging import rule_options
from ..puzzles.errors import PuzzleError
from ..puzzles.options import whole, whole_list
from ..puzzles.registry import family_of
from ..redis_link import RedisUnavailable
from ..search.algorithms.replay import STORED, RecordedRun, unpack_ids, use_recorded_runs
from ..search.control import CancelFlag, deadline
from ..services import services
from .common import answer_errors, json_object, stored_puzzle, take, working

log = logging.getLogger(__name__)
code = Blueprint("code", __name__)
answer_errors(code)
use_recorded_runs(RUNS.judged)  # the replay (``run:<id>``) reads the runs kept here or in Redis


@code.record_once
def _share_runs(state: Any) -> None:
    """With ``redis_url``, the runs are kept in that Redis (any process finds them); else here."""
    try:
        RUNS.share(shared_redis(services(state.app).config.redis_url))
    except RedisUnavailable as err:
        log.warning("students' runs are kept in this process only: %s", err)
        RUNS.share(None)

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


def steps_of(puzzle: Any, rules: Any) -> dict[str, int]:
    """The calls of ``successors`` a program may make on ``puzzle``: ``default`` (at least
    ``code_steps``, and enough for every state where the family knows how many there are, up to the
    most) and ``max`` (``code_max_steps``: what the student may choose)."""
    config = services().config
    bound = family_of(puzzle).state_bound(puzzle, rules) or 0
    default = max(config.code_steps, min(bound, config.code_max_steps))
    return {"default": default, "max": max(config.code_max_steps, config.code_steps)}


@code.post("/puzzles/<pid>/code/rules")
def rules(pid: str) -> Response:
    """The rules a student's search runs over in the page: the family's modules and the puzzle's data,
    or the explicit graph (``kind`` "graph") for a family without them; with the step limits."""
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    body = json_object("options")
    config = services().config
    take("code", config.code_runs_per_minute)
    options = body.get("options")
    values = rule_options(family, options)
    chosen = options.get("heuristic") if isinstance(options, dict) else None
    problem, found = problem_rules(family, puzzle, values)
    if found is not None:
        answer = found.to_json(problem, family.student, chosen)
    else:
        states, per_state = _plan(puzzle)
        with working(states * per_state, "walking this puzzle's states for your code"):
            answer = {"kind": "graph", **_space(pid, puzzle, options).to_json(chosen)}
    answer["steps"] = steps_of(puzzle, values)
    return _compressed(json.dumps(answer, separators=(",", ":")).encode())


@code.post("/puzzles/<pid>/code/runs")
def upload_part(pid: str) -> Response:
    """One part of a recorded run's packed ids (``part`` of ``parts``; ``run``: its id after part 0)."""
    stored_puzzle(pid)
    body = json_object("part", "parts", "text")
    config = services().config
    most = config.code_max_steps * 12 // PART_CHARS + 1  # 12 characters an id at most (60 bits)
    parts = whole(body.get("parts"), 1, most, "field 'parts'")
    part = whole(body.get("part"), 0, parts - 1, "field 'part'")
    text, run = body.get("text"), body.get("run")
    if not isinstance(text, str):
        raise PuzzleError(t("web.code.expected_part_s_packed_ids"), "field 'text'")
    if part and not isinstance(run, str):
        raise PuzzleError(t("web.code.expected_id_run_parts_before"), "field 'run'")
    if part == 0:
        take("code", config.code_runs_per_minute)
    run_id = RUNS.add_part(run if part else None, client_id(), pid, part, parts, text)
    return jsonify({"run": run_id, "received": part + 1, "parts": parts})


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


def _expanded(body: dict[str, Any], pid: str, limit: int) -> tuple[list[int], str | None]:
    """The run's expanded ids: an uploaded run (``run``, its packed text), the packed text itself
    (``expanded`` a string, with ``count``), or a list of ids; and the uploaded run's id."""
    run, value = body.get("run"), body.get("expanded")
    count = body.get("count")
    if run is not None:
        if not isinstance(run, str):
            raise PuzzleError(t("web.code.expected_id_uploaded_run"), "field 'run'")
        value = RUNS.text(run, client_id(), pid)
    if isinstance(value, str):
        if count is None:
            raise PuzzleError(t("web.code.packed_ids_come_with_their"),
                              "field 'run'" if run else "field 'expanded'")
        count = whole(count, 0, limit, "field 'count'")
        try:
            return unpack_ids(value, count), run
        except ValueError as err:
            raise PuzzleError(str(err), "field 'run'" if run else "field 'expanded'") from None
    return whole_list(value, 0, 2**53, "field 'expanded'", "code.what.state_id", limit,
                      "code.what.expanded_ids"), run


@code.post("/puzzles/<pid>/code/verdict")
def verdict(pid: str) -> Response:
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    body = json_object("algorithm")
    config = services().config
    algorithm = body.get("algorithm")
    if not isinstance(algorithm, str) or algorithm not in family.algorithms:
        raise PuzzleError(t("web.code.expected_one_this_puzzle_s",
                            join=', '.join(family.algorithms)), "field 'algorithm'")
    options = family.run_options(body.get("options") or {})
    rules = rule_options(family, body.get("options"))
    stopped, illegal = body.get("stopped"), body.get("illegal")
    if stopped is not None and not isinstance(stopped, str):
        raise PuzzleError(t("web.code.expected_why_program_stopped_as"), "field 'stopped'")
    if illegal is not None and not isinstance(illegal, str):
        raise PuzzleError(t("web.code.expected_why_path_no_path"),
                          "field 'illegal'")
    take("code", config.code_runs_per_minute)
    limit = max(config.code_max_steps, config.code_steps)
    expanded, run = _expanded(body, pid, limit)
    path = None if body.get("path") is None else whole_list(
        body.get("path"), 0, 2**31, "field 'path'", "a move index", limit,
        "the path: [start index, move index, …]")
    per_state = STATE_BYTES + family.state_bytes(puzzle)
    with working(min(3 * (len(expanded) + 1_000) * per_state, services().budget.memory_share),
                 "judging your code's run on this puzzle"):
        flag = CancelFlag()
        with deadline(flag, config.code_max_seconds):
            answer = judge_code_run(family, puzzle, rules, algorithm, options, expanded, path,
                                    (illegal or None) and illegal[:300], (stopped or None) and stopped[:200],
                                    config.code_max_seconds, flag)
    animated = min(len(expanded), config.code_max_animated)
    kept = RUNS.keep(run, client_id(), pid, RecordedRun(expanded, path, animated))
    answer["code"] = STORED + kept
    answer["animated"] = animated
    if animated < len(expanded):
        answer["messages"].append(t("code.animated_part", animated=animated, total=len(expanded)))
    return jsonify(answer)
