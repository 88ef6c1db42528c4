"""The checks of what creates an assignment and what a student submits: every bad field refused in
words naming it (server/assignments/model.py)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest

from server.assignments.model import (
    Assignment,
    Task,
    TooLarge,
    check_assignment,
    check_submission,
    digest,
    new_id,
    same_secret,
)
from server.puzzles.errors import PuzzleError
from server.puzzles.registry import get_family

GRID = get_family("grid")
GOOD = {"puzzle": "p", "title": "Blatt 3", "algorithm": "bfs", "options": {},
        "tasks": [{"kind": "predict", "points": 2, "count": 5, "from": 0}, {"kind": "code", "points": 5}],
        "deadline": "2099-12-15T23:59:00Z", "reveal": "now", "attempts": 3, "counts": "best",
        "retention_days": 180}


def bad(**changes: Any) -> dict[str, Any]:
    return {**GOOD, **changes}


def test_a_good_body_is_taken() -> None:
    fields = check_assignment(GOOD, GRID, "maze3", 180)
    assert fields["title"] == "Blatt 3" and fields["algorithm"] == "bfs"
    assert [t.kind for t in fields["tasks"]] == ["predict", "code"]
    assert fields["deadline"] == datetime(2099, 12, 15, 23, 59, tzinfo=UTC).timestamp()
    naive = check_assignment(bad(deadline="2099-12-15T23:59:00"), GRID, "maze3", 180)["deadline"]
    assert naive == fields["deadline"]  # naive = UTC
    assert check_assignment(bad(title=None), GRID, "maze3", 90)["title"] == "maze3"
    points = check_assignment(bad(options={"start": [1, 1], "goal": [3, 3]}), GRID, "m", 90)["options"]
    assert points["start"] == [1, 1] and points["goal"] == [3, 3]  # kept, as JSON
    assert check_assignment({k: v for k, v in GOOD.items() if k != "retention_days"}, GRID, "m", 90)[
        "retention_days"] == 90


@pytest.mark.parametrize(("body", "where"), [
    (bad(score=10), "score"),
    (bad(title="x" * 121), "title"),
    (bad(algorithm="quantum"), "algorithm"),
    (bad(options=[1]), "options"),
    (bad(options={"heuristic": "nonsense"}), "options"),
    (bad(tasks=[]), "tasks"),
    (bad(tasks="code"), "tasks"),
    (bad(tasks=[{"kind": "essay", "points": 1}]), "tasks[0].kind"),
    (bad(tasks=[{"kind": "code", "points": 0}]), "tasks[0].points"),
    (bad(tasks=[{"kind": "code", "points": 1001}]), "tasks[0].points"),
    (bad(tasks=[{"kind": "code", "points": True}]), "tasks[0].points"),
    (bad(tasks=[{"kind": "code", "points": 1}, {"kind": "code", "points": 2}]), "tasks[1].kind"),
    (bad(tasks=[{"kind": "predict", "points": 1, "count": 51}]), "tasks[0].count"),
    (bad(tasks=[{"kind": "predict", "points": 1, "count": 0}]), "tasks[0].count"),
    (bad(tasks=[{"kind": "predict", "points": 1, "from": -1}]), "tasks[0].from"),
    (bad(tasks=[{"kind": "heuristic", "points": 1, "bar": "yes"}]), "tasks[0].bar"),
    (bad(tasks=[{"kind": "solution", "points": 1, "margin": -5}]), "tasks[0].margin"),
    (bad(tasks=[{"kind": "code", "points": 1, "margin": 5}]), "tasks[0].margin"),
    (bad(deadline="tomorrow"), "deadline"),
    (bad(deadline=5), "deadline"),
    (bad(reveal="never"), "reveal"),
    (bad(reveal="after_deadline", deadline=None), "reveal"),
    (bad(attempts=0), "attempts"),
    (bad(attempts=101), "attempts"),
    (bad(attempts=1.5), "attempts"),
    (bad(counts="first"), "counts"),
    (bad(retention_days=0), "retention_days"),
    (bad(retention_days=3651), "retention_days"),
])
def test_every_bad_field_is_named(body: dict[str, Any], where: str) -> None:
    with pytest.raises(PuzzleError) as err:
        check_assignment(body, GRID, "maze3", 180)
    got = err.value.where
    assert got is not None and got.startswith(where), (got, str(err.value))
    assert err.value.message  # in words


def assignment(**changes: Any) -> Assignment:
    fields = {"id": new_id(), "token_hash": digest("t"), "puzzle": "p", "puzzle_name": "maze3",
              "family": "grid", "title": "T", "algorithm": "bfs", "options": {},
              "tasks": [Task("predict", 2, 5, 0), Task("code", 5), Task("heuristic", 3, bar=False),
                        Task("solution", 2, margin=0)],
              "deadline": None, "reveal": "now", "attempts": 3, "counts": "best", "retention_days": 180,
              "created": time.time()}
    return Assignment(**{**fields, **changes})


SUB = {"name": "Ada", "student": "s1", "task": "code", "answer": {"code": "def search(problem): pass"}}


@pytest.mark.parametrize(("body", "where"), [
    ({**SUB, "score": 5}, "score"),
    ({**SUB, "verdict": "matches"}, "verdict"),
    ({**SUB, "result": {"score": 5}}, "result"),
    ({**SUB, "answer": {"code": "x", "score": 5}}, "answer.score"),
    ({**SUB, "name": ""}, "name"),
    ({**SUB, "name": "x" * 101}, "name"),
    ({**SUB, "student": 7}, "student"),
    ({**SUB, "task": "essay"}, "task"),
    ({**SUB, "answer": "def search"}, "answer"),
    ({**SUB, "answer": {"code": 5}}, "answer.code"),
    ({**SUB, "answer": {"formula": "dr"}}, "answer.formula"),
    ({**SUB, "task": "predict", "answer": {"states": []}}, "answer.states"),
    ({**SUB, "task": "predict", "answer": {"states": ["(1, 2)"] * 6}}, "answer.states"),
    ({**SUB, "task": "predict", "answer": {"states": [5]}}, "answer.states[0]"),
])
def test_every_bad_submission_field_is_named(body: dict[str, Any], where: str) -> None:
    with pytest.raises(PuzzleError) as err:
        check_submission(body, assignment(), 256 * 1024, 1024 * 1024)
    assert err.value.where == where, (err.value.where, str(err.value))


def test_a_program_over_the_limit_is_too_large() -> None:
    with pytest.raises(TooLarge) as err:
        check_submission({**SUB, "answer": {"code": "#" * 300_000}}, assignment(), 256 * 1024, 1024 * 1024)
    assert err.value.where == "answer.code" and "262,144" in str(err.value)


def test_the_answer_kept_is_exactly_the_kinds_field() -> None:
    name, student, kind, answer = check_submission({**SUB, "name": "  Ada  "}, assignment(), 1000, 1000)
    assert (name, student, kind, answer) == ("Ada", "s1", "code", {"code": "def search(problem): pass"})


def test_secrets_are_kept_as_hashes_and_compared_whole() -> None:
    stored = digest("token-123")
    assert stored != "token-123" and len(stored) == 64
    assert same_secret("token-123", stored)
    assert not same_secret("token-12", stored)
    assert not same_secret(None, stored) and not same_secret("", stored)


def test_keep_until_and_reveal() -> None:
    now = time.time()
    made = assignment(created=now, retention_days=10)
    assert made.keep_until() == pytest.approx(now + 10 * 86400)
    later = assignment(deadline=now + 3600, reveal="after_deadline", retention_days=10)
    assert later.keep_until() == pytest.approx(now + 3600 + 10 * 86400)
    assert later.hidden_until(now) == later.deadline and later.hidden_until(now + 7200) is None
    assert later.is_open(now) and not later.is_open(now + 7200)
    assert "until" in later.public()["stored"]


def test_a_task_the_family_cannot_judge_is_refused_naming_it() -> None:
    from tests.toy_family import TOY  # the core alone: no lab, no checker

    body = bad(algorithm=TOY.default_algorithm,
               tasks=[{"kind": "code", "points": 1}, {"kind": "solution", "points": 1}])
    with pytest.raises(PuzzleError) as err:
        check_assignment(body, TOY, "toy", 180)
    assert err.value.where == "tasks[1].kind" and "checks no solutions" in err.value.message
    with pytest.raises(PuzzleError) as err:
        check_assignment(bad(algorithm=TOY.default_algorithm, tasks=[{"kind": "heuristic", "points": 1}]),
                         TOY, "toy", 180)
    assert err.value.where == "tasks[0].kind" and "judges no heuristics" in err.value.message
    fields = check_assignment(bad(algorithm=TOY.default_algorithm, tasks=[{"kind": "predict", "points": 1}]),
                              TOY, "toy", 180)
    assert [t.kind for t in fields["tasks"]] == ["predict"]
