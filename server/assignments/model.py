"""The records of assignments (``Assignment``, ``Task``, ``Submission``; a result is a plain dict) and
the checks of what comes from outside: the body that creates an assignment and the body of a
submission. Every refusal is a ``PuzzleError`` naming the field (``where``); a field too large is a
``TooLarge`` (HTTP 413). The names follow the contract (docs/PROTOCOL.md, "Assignments")."""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..formula import MAX_CHARS as FORMULA_CHARS
from ..i18n import t
from ..puzzles.errors import PuzzleError
from ..search.registry import get_algorithm

KINDS = ("predict", "code", "heuristic", "solution")  # the order on every page
ANSWER_FIELD = {"predict": "states", "code": "code", "heuristic": "formula", "solution": "solution"}
ASSIGNMENT_FIELDS = {"puzzle", "title", "algorithm", "options", "tasks", "deadline", "reveal", "attempts",
                     "counts", "retention_days"}
TASK_FIELDS = {"predict": {"kind", "points", "count", "from"}, "code": {"kind", "points"},
               "heuristic": {"kind", "points", "bar"}, "solution": {"kind", "points", "margin"}}
SUBMISSION_FIELDS = ("name", "student", "task", "answer")
STATUSES = ("queued", "grading", "graded", "failed")
MAX_TITLE = 120
MAX_NAME = 100
MAX_STATE_TEXT = 1000  # one predicted state, as text
DAY = 86400.0


class TooLarge(PuzzleError):
    """A field past its size limit (HTTP 413)."""


def new_id() -> str:
    """A class id: 12 characters, 72 random bits."""
    return secrets.token_urlsafe(9)


def new_secret(nbytes: int) -> str:
    return secrets.token_urlsafe(nbytes)


def digest(secret: str) -> str:
    """How a teacher token or a receipt is stored: its sha256 in hex."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(secret: str | None, stored: str) -> bool:
    """Whether ``secret`` hashes to ``stored`` (compared in constant time)."""
    if not isinstance(secret, str) or not secret or len(secret) > 200:
        return False
    return hmac.compare_digest(digest(secret), stored)


def day(epoch: float) -> str:
    """``epoch``'s day in words, in UTC ("27 May 2027"): for sentences."""
    moment = datetime.fromtimestamp(epoch, UTC)
    return f"{moment.day} {moment.strftime('%B %Y')}"


def iso(epoch: float | None) -> str | None:
    """``epoch`` as ISO 8601 in UTC ("2026-12-15T23:59:00Z"), or None."""
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def student_key(identifier: str) -> str:
    """A student's identifier as the gradebook matches it: trimmed, case-insensitive."""
    return identifier.strip().casefold()


# ---- records --------------------------------------------------------------------------------------
@dataclass
class Task:
    kind: str
    points: float
    count: int | None = None  # predict
    start: int | None = None  # predict: "from"
    bar: bool | None = None  # heuristic
    margin: float | None = None  # solution

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "points": self.points, "count": self.count, "from": self.start,
                "bar": self.bar, "margin": self.margin}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Task:
        return cls(data["kind"], float(data["points"]), data.get("count"), data.get("from"), data.get("bar"),
                   data.get("margin"))

    def text(self, algorithm_label: str) -> str:
        """A sentence saying what to do."""
        if self.kind == "predict":
            first = (self.start or 0) + 1
            return t("assign.task.predict", label=algorithm_label, first=first,
                     last=first + (self.count or 1) - 1)
        if self.kind == "code":
            return t("assign.task.code", label=algorithm_label)
        if self.kind == "heuristic":
            bar = t("assign.task.bar") if self.bar else ""
            return t("assign.task.heuristic", bar=bar)
        margin = self.margin or 0
        within = (t("assign.task.optimal") if margin == 0
                  else t("assign.task.margin", margin=format(margin, "g")))
        return t("assign.task.solution", within=within)


@dataclass
class Assignment:
    id: str
    token_hash: str
    puzzle: str
    puzzle_name: str
    family: str
    title: str
    algorithm: str
    options: dict[str, Any]
    tasks: list[Task]
    deadline: float | None
    reveal: str
    attempts: int | None
    counts: str
    retention_days: int
    created: float
    closed: bool = False

    def task(self, kind: str) -> Task | None:
        return next((t for t in self.tasks if t.kind == kind), None)

    def keep_until(self) -> float:
        return (self.deadline if self.deadline is not None else self.created) + self.retention_days * DAY

    def past_deadline(self, now: float | None = None) -> bool:
        return self.deadline is not None and (now or time.time()) > self.deadline

    def is_open(self, now: float | None = None) -> bool:
        return not self.closed and not self.past_deadline(now)

    def hidden_until(self, now: float | None = None) -> float | None:
        """The deadline while results are kept from students (``reveal`` after the deadline), else None."""
        if self.reveal == "after_deadline" and self.deadline is not None and not self.past_deadline(now):
            return self.deadline
        return None

    def to_json(self) -> dict[str, Any]:
        """The stored form (with the token's hash; never sent to a client)."""
        data = asdict(self)
        data["tasks"] = [t.to_json() for t in self.tasks]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Assignment:
        fields = dict(data)
        fields["tasks"] = [Task.from_json(t) for t in data["tasks"]]
        return cls(**fields)

    def public(self, now: float | None = None) -> dict[str, Any]:
        """What anyone with the class link sees (the contract's ``<public>``)."""
        label = algorithm_label(self.algorithm)
        keep = iso(self.keep_until())
        since = t("assign.stored.deadline") if self.deadline is not None else t("assign.stored.made")
        return {
            "id": self.id, "title": self.title, "puzzle": self.puzzle, "puzzle_name": self.puzzle_name,
            "family": self.family, "algorithm": self.algorithm, "algorithm_label": label,
            "options": self.options,
            "tasks": [{**t.to_json(), "text": t.text(label)} for t in self.tasks],
            "total_points": round(sum(t.points for t in self.tasks), 2), "deadline": iso(self.deadline),
            "reveal": self.reveal, "attempts": self.attempts, "counts": self.counts, "closed": self.closed,
            "open": self.is_open(now), "keep_until": keep,
            "stored": t("assign.stored", day=day(self.keep_until()), days=self.retention_days, since=since),
        }


@dataclass
class Submission:
    id: str
    assignment: str
    receipt_hash: str
    name: str
    student: str
    task: str
    answer: dict[str, Any]
    attempt: int
    received: float
    status: str = "queued"
    result: dict[str, Any] | None = None
    graded: float | None = None
    grader_runs: int = 0  # how many times a grader began it (a dead grader's job is taken again)
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. the recorded run of a code task
    lang: str = "en"  # the submitter's language: the grader writes its verdicts in it (older records: "en")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Submission:
        return cls(**data)

    def view(self, assignment: Assignment, ahead: int | None, teacher: bool,
             now: float | None = None) -> dict[str, Any]:
        """The contract's ``<submission view>``; the teacher's adds name, student and answer."""
        hidden = None if teacher else assignment.hidden_until(now)
        answer: dict[str, Any] = {
            "submission": self.id, "task": self.task, "attempt": self.attempt, "received": iso(self.received),
            "status": self.status, "ahead": ahead if self.status == "queued" else 0,
            "result": None if hidden is not None else self.result, "hidden_until": iso(hidden),
        }
        if teacher:
            answer.update(name=self.name, student=self.student, answer=self.answer)
        return answer


def algorithm_label(name: str) -> str:
    try:
        return get_algorithm(name).name_in_text
    except Exception:  # an algorithm of a family not loaded here: its name
        return name


# ---- checks of what comes from outside ---------------------------------------------------------------
def _number(value: Any, low: float, high: float, where: str, what: str, whole: bool = False) -> float:
    kind = int if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, kind) or not math.isfinite(value):
        raise PuzzleError(t("assign.model.expected", what=what), where)
    if not low <= value <= high:
        raise PuzzleError(t("assign.model.expected_from_got", what=what, low=format(low, 'g'),
                            high=format(high, 'g'), value=format(value, 'g')), where)
    return value


def _unknown(data: dict[str, Any], allowed: set[str] | tuple[str, ...], where: str) -> None:
    for name in data:
        if name not in allowed:
            shown = str(name)[:40]
            raise PuzzleError(t("assign.model.unknown_field_expected_only", shown=repr(shown),
                                join=', '.join(sorted(allowed))),
                              f"{where}{shown}")


def parse_time(value: Any, where: str) -> float | None:
    """An ISO 8601 date and time (naive = UTC) as epoch seconds; None stays None."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise PuzzleError(t("assign.model.expected_iso_date_and_time"), where)
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise PuzzleError(t("assign.model.not_iso_date_and_time", value=repr(value)),
                          where) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.timestamp()
    except (OverflowError, OSError, ValueError):
        raise PuzzleError(t("assign.model.out_range", value=repr(value)), where) from None


def check_tasks(raw: Any) -> list[Task]:
    """1 to 4 tasks, at most one of each kind, in the kinds' order."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= len(KINDS):
        raise PuzzleError(t("assign.model.expected_list_tasks_e_g"), "tasks")
    tasks: dict[str, Task] = {}
    for i, item in enumerate(raw):
        where = f"tasks[{i}]"
        if not isinstance(item, dict):
            raise PuzzleError(t("assign.model.expected_object_with_kind_and"), where)
        kind = item.get("kind")
        if kind not in KINDS:
            raise PuzzleError(t("assign.model.expected_one", join=', '.join(KINDS)), f"{where}.kind")
        if kind in tasks:
            raise PuzzleError(t("assign.model.second_task_at_most_one", kind=kind), f"{where}.kind")
        _unknown(item, TASK_FIELDS[kind], f"{where}.")
        points = float(_number(item.get("points"), 0, 1000, f"{where}.points",
                               t("assign.what.points")))
        if points <= 0:
            raise PuzzleError(t("assign.model.expected_points_above"), f"{where}.points")
        task = Task(kind, round(points, 2))
        if kind == "predict":
            task.count = int(_number(item.get("count", 5), 1, 50, f"{where}.count", t("assign.what.count"),
                                     True))
            task.start = int(_number(item.get("from", 0), 0, 10**6, f"{where}.from",
                                     t("assign.what.from"), True))
        elif kind == "heuristic":
            bar = item.get("bar", False)
            if not isinstance(bar, bool):
                raise PuzzleError(t("assign.model.expected_true_or_false"), f"{where}.bar")
            task.bar = bar
        elif kind == "solution":
            task.margin = float(_number(item.get("margin", 0), 0, 1000, f"{where}.margin",
                                        t("assign.what.margin")))
        tasks[kind] = task
    return [tasks[k] for k in KINDS if k in tasks]


def check_assignment(body: Any, family: Any, puzzle_name: str, default_retention: int,
                     now: float | None = None) -> dict[str, Any]:
    """The create body checked (``family``: the puzzle's, for its algorithms and options): the fields
    of an ``Assignment`` but id, token, puzzle and times."""
    if not isinstance(body, dict):
        raise PuzzleError(t("assign.model.expected_json_object_with_puzzle"), "body")
    _unknown(body, ASSIGNMENT_FIELDS, "")
    title = body.get("title")
    if title is None or (isinstance(title, str) and not title.strip()):
        title = puzzle_name
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        raise PuzzleError(t("assign.model.expected_title_at_most_characters", MAX_TITLE=MAX_TITLE), "title")
    algorithm = body.get("algorithm", family.default_algorithm)
    if not isinstance(algorithm, str) or algorithm not in family.algorithms:
        raise PuzzleError(t("assign.model.expected_one_this_puzzle_s", join=', '.join(family.algorithms)),
                          "algorithm")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise PuzzleError(t("assign.model.expected_run_s_options_as"), "options")
    try:
        values = family.run_options(options)
    except PuzzleError as err:
        raise PuzzleError(err.message, f"options ({err.where})" if err.where else "options") from None
    tasks = check_tasks(body.get("tasks"))
    part = {"heuristic": ("lab", t("assign.what.no_heuristics")),
            "solution": ("checker", t("assign.what.no_solutions"))}
    for task in tasks:
        if task.kind in part and getattr(family, part[task.kind][0]) is None:
            i = next(j for j, t in enumerate(body["tasks"]) if t.get("kind") == task.kind)
            raise PuzzleError(t("assign.model.family", name=family.name,
                                value=part[task.kind][1]), f"tasks[{i}].kind")
    deadline = parse_time(body.get("deadline"), "deadline")
    reveal = body.get("reveal", "now")
    if reveal not in ("now", "after_deadline"):
        raise PuzzleError(t("assign.model.expected_now_or_after_deadline"), "reveal")
    if reveal == "after_deadline" and deadline is None:
        raise PuzzleError(t("assign.model.results_shown_after_deadline_need"), "reveal")
    attempts = body.get("attempts", 3)
    if attempts is not None:
        attempts = int(_number(attempts, 1, 100, "attempts", t("assign.what.attempts"),
                               True))
    counts = body.get("counts", "best")
    if counts not in ("best", "last"):
        raise PuzzleError(t("assign.model.expected_best_or_last"), "counts")
    retention = body.get("retention_days", default_retention)
    retention = int(_number(retention, 1, 3650, "retention_days", t("assign.what.retention"), True))
    return {"title": title.strip(), "algorithm": algorithm, "options": _plain(values), "tasks": tasks,
            "deadline": deadline, "reveal": reveal, "attempts": attempts, "counts": counts,
            "retention_days": retention}


def _plain(values: Any) -> dict[str, Any]:
    """Checked options as JSON values (what a run is given again): a point (row, col) as a list."""
    return json.loads(json.dumps(dict(values), default=list))


def _text(value: Any, most: int, where: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PuzzleError(t("assign.model.expected_characters", what=what, most=most), where)
    value = value.strip()
    if len(value) > most:
        raise PuzzleError(t("assign.model.expected_at_most_characters_got", what=what, most=most,
                            n_value=len(value)), where)
    return value


def check_submission(body: Any, assignment: Assignment, max_code_bytes: int,
                     max_solution_bytes: int) -> tuple[str, str, str, dict[str, Any]]:
    """(name, student, task kind, answer) from a submission body: exactly its four fields, the answer
    exactly the kind's field. A score, verdict or anything else is refused naming it."""
    if not isinstance(body, dict):
        raise PuzzleError(t("assign.model.expected_json_object_with_name"), "body")
    _unknown(body, SUBMISSION_FIELDS, "")
    name = _text(body.get("name"), MAX_NAME, "name", t("assign.what.name"))
    student = _text(body.get("student"), MAX_NAME, "student", t("assign.what.student"))
    kind = body.get("task")
    task = assignment.task(kind) if isinstance(kind, str) else None
    if task is None:
        kinds = ", ".join(t.kind for t in assignment.tasks)
        raise PuzzleError(t("assign.model.expected_one_this_assignment_s", kinds=kinds), "task")
    answer = body.get("answer")
    key = ANSWER_FIELD[task.kind]
    if not isinstance(answer, dict):
        raise PuzzleError(t("assign.model.expected_object", key_name=key), "answer")
    _unknown(answer, (key,), "answer.")
    value = answer.get(key)
    where = f"answer.{key}"
    if task.kind == "predict":
        count = task.count or 1
        if not isinstance(value, list) or not 1 <= len(value) <= count:
            raise PuzzleError(t("assign.model.expected_list_states_as_text", count=count), where)
        for i, state in enumerate(value):
            if not isinstance(state, str) or len(state) > MAX_STATE_TEXT:
                raise PuzzleError(t("assign.model.expected_state_as_text_at", MAX_STATE_TEXT=MAX_STATE_TEXT),
                                  f"{where}[{i}]")
        return name, student, task.kind, {key: list(value)}
    if not isinstance(value, str):
        raise PuzzleError(t("assign.model.expected_text"), where)
    size = len(value.encode("utf-8", "surrogatepass"))
    most = {"code": max_code_bytes, "heuristic": FORMULA_CHARS * 4, "solution": max_solution_bytes}[task.kind]
    if size > most:
        raise TooLarge(t("assign.model.bytes_more_than_limit_bytes", size=size, most=most), where)
    if task.kind == "heuristic" and len(value) > FORMULA_CHARS:
        raise TooLarge(t("assign.model.formula_characters_long_at_most", n_value=len(value),
                         FORMULA_CHARS=FORMULA_CHARS), where)
    if not value.strip():
        raise PuzzleError(t("assign.model.expected_non_empty_answer"), where)
    return name, student, task.kind, {key: value}
