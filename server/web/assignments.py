"""Assignments over HTTP (docs/PROTOCOL.md, "Assignments"; described for machines in
docs/openapi-assignments.json): create, read, submit, a submission's state, the teacher's results,
exports, replay, close/reopen and delete; and the two pages ``/a/<id>`` and ``/a/<id>/teacher``.

A request only checks, stores durably and queues (202): judging happens in a grader
(server/assignments/grader.py). The teacher is whoever sends ``Authorization: Bearer <token>`` whose
hash the assignment keeps; a student sees a submission only with its ``X-Receipt``. Every error is
``{"error": words, "where": field or null}`` with a 4xx.
"""

from __future__ import annotations

import collections
import logging
import secrets
import threading
import time
from pathlib import Path

from flask import Blueprint, Response, jsonify, render_template, request
from redis import RedisError

from ..assignments.gradebook import EXPORTS, rows
from ..assignments.model import (
    Assignment,
    Submission,
    TooLarge,
    check_assignment,
    check_submission,
    digest,
    new_id,
    new_secret,
    same_secret,
)
from ..assignments.queue import Job
from ..assignments.store import Refused, pinned_puzzle
from ..budget import ServerBusy
from ..clients import TooMany, client_id, remote_address
from ..code_runs import RUNS
from ..i18n import language, t
from ..puzzles.errors import PuzzleError
from ..puzzles.registry import family_of
from ..search.algorithms.replay import STORED, RecordedRun, unpack_ids
from ..services import services
from .common import json_body

log = logging.getLogger(__name__)
assignments = Blueprint("assignments", __name__)
pages = Blueprint("assignment_pages", __name__)


class _NotFound(Exception):
    """A 404 in words."""


class _Forbidden(Exception):
    """A 403 in words."""


def _answer(message: str, status: int, where: str | None = None) -> tuple[Response, int]:
    return jsonify(error=message, where=where), status


@assignments.errorhandler(PuzzleError)
def _bad(err: PuzzleError):
    return _answer(str(err), 413 if isinstance(err, TooLarge) else 400, err.where)


@assignments.errorhandler(_NotFound)
def _not_found(err: _NotFound):
    return _answer(str(err), 404)


@assignments.errorhandler(_Forbidden)
def _forbidden(err: _Forbidden):
    return _answer(str(err), 403)


@assignments.errorhandler(Refused)
def _refused(err: Refused):
    return _answer(str(err), err.status)


@assignments.errorhandler(TooMany)
def _too_many(err: TooMany):
    return _answer(str(err), 429)


@assignments.errorhandler(ServerBusy)
def _busy(err: ServerBusy):
    return _answer(str(err), 503)


@assignments.errorhandler(OSError)
@assignments.errorhandler(RedisError)
def _unstored(err: Exception):
    """The disk or Redis failed: nothing was promised, said in words (the client tries again)."""
    log.warning("assignments: %s failed: %s", services().assignments.where, err)
    return _answer(t("web.assignments.assignments_cannot_be_stored_or"), 503)


# ---- helpers ----------------------------------------------------------------------------------------
class _HourlyLimit:
    """Assignments a client may create in an hour (this process's count)."""

    def __init__(self) -> None:
        self._events: dict[str, collections.deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, client: str, per_hour: int) -> None:
        now = time.monotonic()
        with self._lock:
            if len(self._events) > 10_000:
                self._events = {k: v for k, v in self._events.items() if v and v[-1] > now - 3600}
            window = self._events.setdefault(client, collections.deque())
            while window and window[0] <= now - 3600:
                window.popleft()
            if len(window) >= per_hour:
                wait = int(window[0] + 3600 - now) + 1
                raise TooMany(t("web.assignments.too_many_assignments_at_most", per_hour=per_hour, wait=wait))
            window.append(now)


_created = _HourlyLimit()


def _assignment(aid: str) -> Assignment:
    found = services().assignments.get(aid) if isinstance(aid, str) and len(aid) <= 64 else None
    if found is None:
        raise _NotFound(t("web.assignments.no_assignment_it_may_have", aid=aid[:40]))
    return found


def _is_teacher(assignment: Assignment) -> bool:
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header[:7].lower() == "bearer " else None
    return same_secret(token, assignment.token_hash)


def _teacher(aid: str) -> Assignment:
    """The assignment, for its teacher only (403 with nothing else otherwise; 404 when there is none)."""
    assignment = _assignment(aid)
    if not _is_teacher(assignment):
        raise _Forbidden(t("web.assignments.this_teacher_link_not_valid", aid=aid[:40]))
    return assignment


def _announce(aid: str, sid: str, status: str) -> None:
    try:
        services().graders.announce(aid, sid, status)
    except Exception as err:  # live updates are a courtesy: the page polls too
        log.warning("assignment_update could not be sent (%s)", err)


def _body_limit() -> int:
    config = services().config
    return 2 * max(config.max_code_bytes, config.max_solution_bytes) + 64 * 1024


# ---- create, read, change, delete ------------------------------------------------------------------
@assignments.post("/assignments")
def create() -> tuple[Response, int]:
    shared = services()
    config = shared.config
    body = json_body()
    if not isinstance(body, dict):
        raise PuzzleError(t("web.assignments.expected_json_object_with_puzzle"), "body")
    pid = body.get("puzzle")
    puzzle = shared.store.get(pid) if isinstance(pid, str) and len(pid) <= config.max_id_length else None
    if puzzle is None:
        raise PuzzleError(t("web.assignments.no_stored_puzzle_with_this"), "puzzle")
    family = family_of(puzzle)
    source = shared.store.source(pid)
    name = Path(source.filename).stem if source is not None else str(family.info(puzzle).get("name") or pid)
    fields = check_assignment(body, family, name, config.assignment_retention_days)
    _created.take(client_id() + "|" + remote_address(), config.assignments_per_hour)
    token = new_secret(24)
    assignment = Assignment(id=new_id(), token_hash=digest(token), puzzle=pid, puzzle_name=name,
                            family=family.name, created=time.time(), **fields)
    if source is None:
        log.warning("assignment %s: puzzle %s has no stored file to pin", assignment.id, pid)
    shared.assignments.create(assignment, source)
    return jsonify({"id": assignment.id, "class_url": f"/a/{assignment.id}",
                    "teacher_url": f"/a/{assignment.id}/teacher#{token}", "token": token,
                    "assignment": assignment.public()}), 201


@assignments.get("/assignments/<aid>")
def read(aid: str) -> Response:
    """The public view; the pinned puzzle put back in the store first if it had expired (the page
    loads it by its id)."""
    found = _assignment(aid)
    shared = services()
    if shared.store.cached(found.puzzle) is None:
        try:
            pinned_puzzle(shared.assignments, shared.store, found)
        except (RuntimeError, PuzzleError) as err:
            log.warning("assignment %s: %s", aid, err)
    return jsonify(found.public())


@assignments.patch("/assignments/<aid>")
def change(aid: str) -> Response:
    assignment = _teacher(aid)
    body = json_body()
    if not isinstance(body, dict) or set(body) != {"closed"} or not isinstance(body["closed"], bool):
        raise PuzzleError(t("web.assignments.expected_closed_true_or_closed"), "closed")
    assignment.closed = body["closed"]
    services().assignments.save(assignment)
    return jsonify(assignment.public())


@assignments.delete("/assignments/<aid>")
def delete(aid: str) -> tuple[str, int]:
    _teacher(aid)
    services().assignments.delete(aid)
    return "", 204


# ---- submissions -------------------------------------------------------------------------------------
@assignments.post("/assignments/<aid>/submissions")
def submit(aid: str) -> tuple[Response, int]:
    shared = services()
    config = shared.config
    assignment = _assignment(aid)
    shared.rate_limits.take("submission", config.submissions_per_minute, client_id(), remote_address())
    body = json_body(_body_limit())
    name, student, kind, answer = check_submission(body, assignment, config.max_code_bytes,
                                                   config.max_solution_bytes)
    if assignment.closed:
        raise _Forbidden(t("web.assignments.this_assignment_closed_teacher_takes"))
    if assignment.past_deadline():
        raise _Forbidden(t("web.assignments.deadline_has_passed_no_more",
                           value=assignment.public()['deadline']))
    receipt = new_secret(18)
    submission = Submission(id=secrets.token_urlsafe(12), assignment=aid, receipt_hash=digest(receipt),
                            name=name, student=student, task=kind, answer=answer, attempt=0,
                            received=time.time(), lang=language())
    try:
        shared.assignments.add_submission(assignment, submission, config.max_submissions_per_assignment)
    except LookupError:
        raise _NotFound(t("web.assignments.no_assignment_it_may_have", aid=aid[:40])) from None
    shared.grading.put(Job(aid, submission.id))  # stored first: a lost job is queued again at start
    _announce(aid, submission.id, "queued")
    left = None if assignment.attempts is None else assignment.attempts - submission.attempt
    return jsonify({"submission": submission.id, "receipt": receipt, "status": "queued",
                    "ahead": shared.grading.ahead(submission.id), "attempt": submission.attempt,
                    "attempts_left": left}), 202


@assignments.get("/assignments/<aid>/submissions/<sid>")
def submission_view(aid: str, sid: str) -> Response:
    shared = services()
    assignment = shared.assignments.get(aid) if len(aid) <= 64 else None
    missing = _NotFound(t("web.assignments.no_submission_here_for_this", sid=sid[:40]))
    if assignment is None:
        raise missing
    found = shared.assignments.submission(aid, sid)
    if found is None:
        raise missing
    teacher = _is_teacher(assignment)
    if not teacher and not same_secret(request.headers.get("X-Receipt"), found.receipt_hash):
        raise missing
    ahead = shared.grading.ahead(sid) if found.status == "queued" else 0
    return jsonify(found.view(assignment, ahead, teacher))


@assignments.get("/assignments/<aid>/results")
def results(aid: str) -> Response:
    assignment = _teacher(aid)
    store = services().assignments
    return jsonify({"assignment": assignment.public(), "rows": rows(assignment, store.submissions(aid)),
                    "version": store.version(aid)})


@assignments.get("/assignments/<aid>/export")
def export(aid: str) -> Response:
    assignment = _teacher(aid)
    kind = request.args.get("format", "moodle")
    if kind not in EXPORTS:
        raise PuzzleError(t("web.assignments.expected_format_moodle_canvas_or"), "format")
    mimetype, suffix, write = EXPORTS[kind]
    text = write(assignment, rows(assignment, services().assignments.submissions(aid)))
    response = Response(text.encode("utf-8"), mimetype=mimetype)
    if mimetype == "text/csv":
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="assignment-{aid}-{kind}.{suffix}"'
    return response


@assignments.post("/assignments/<aid>/submissions/<sid>/replay")
def replay(aid: str, sid: str) -> Response:
    assignment = _teacher(aid)
    shared = services()
    found = shared.assignments.submission(aid, sid)
    if found is None:
        raise _NotFound(t("web.assignments.no_submission_assignment", sid=sid[:40], aid=aid[:40]))
    run = ((found.result or {}).get("details") or {}).get("run")
    if found.task != "code" or not isinstance(run, dict):
        raise PuzzleError(t("web.assignments.only_graded_code_submission_has"), "submission")
    try:
        pinned_puzzle(shared.assignments, shared.store, assignment)
    except RuntimeError as err:
        raise _NotFound(str(err)) from None
    expanded = unpack_ids(run.get("packed") or "", run.get("count"))
    animated = min(len(expanded), shared.config.code_max_animated)
    kept = RUNS.keep(None, client_id(), assignment.puzzle, RecordedRun(expanded, run.get("path"), animated))
    return jsonify({"run": STORED + kept})


# ---- the pages ----------------------------------------------------------------------------------------
@pages.get("/a/<aid>")
def student_page(aid: str) -> str:
    return render_template("assignment.html", assignment_id=aid[:64])


@pages.get("/a/<aid>/teacher")
def teacher_page(aid: str) -> str:
    return render_template("teacher.html", assignment_id=aid[:64])
