"""What the assignment tests share: an app with its own folders, maze3 and a small 8-puzzle uploaded,
an assignment made, answers submitted, the queue graded in the test's own thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from server.services import services
from tests.conftest import SHARED_CASES, missing
from tests.helpers import make_app, upload

MAZE3 = SHARED_CASES / "images" / "lee" / "maze3.png"
# An 8-puzzle three blank moves (U L L) from the goal with the blank first.
EIGHT = b"1 2 5\n3 4 0\n6 7 8\ngoal:\n0 1 2\n3 4 5\n6 7 8\n"
ALL_TASKS = [{"kind": "predict", "points": 2, "count": 5, "from": 0}, {"kind": "code", "points": 5},
             {"kind": "heuristic", "points": 3, "bar": True}, {"kind": "solution", "points": 2, "margin": 0}]


def assignment_app(tmp: Path, **overrides: Any) -> Flask:
    """A test app whose puzzles and assignments are kept in folders under ``tmp`` (graders not started)."""
    return make_app(store_dir=tmp / "puzzles", assignment_dir=tmp / "assignments", **overrides)


def maze3_id(app: Flask) -> str:
    if not MAZE3.is_file():
        missing(f"maze3 is not at {MAZE3}")
    return upload(app, MAZE3.read_bytes(), "maze3.png")["id"]


def eight_id(app: Flask) -> str:
    return upload(app, EIGHT, "eight.txt")["id"]


def create(client: Any, puzzle: str, tasks: list[dict[str, Any]] | None = None,
           **fields: Any) -> dict[str, Any]:
    answer = client.post("/api/assignments", json={"puzzle": puzzle, "algorithm": "bfs",
                                                   "tasks": tasks or ALL_TASKS, **fields})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def submit(client: Any, aid: str, task: str, answer: dict[str, Any], name: str = "Ada Lovelace",
           student: str = "s1", expect: int = 202) -> dict[str, Any]:
    got = client.post(f"/api/assignments/{aid}/submissions",
                      json={"name": name, "student": student, "task": task, "answer": answer})
    assert got.status_code == expect, got.get_json()
    return got.get_json()


def teacher(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def grade_all(app: Flask) -> int:
    """Grade every queued job here and now; how many."""
    shared = services(app)
    done = 0
    while (job := shared.grading.take("test", 0.01)) is not None:
        shared.graders.grade(job)
        done += 1
    return done


def view(client: Any, aid: str, sub: dict[str, Any]) -> dict[str, Any]:
    got = client.get(f"/api/assignments/{aid}/submissions/{sub['submission']}",
                     headers={"X-Receipt": sub["receipt"]})
    assert got.status_code == 200, got.get_json()
    return got.get_json()


def score_of(app: Flask, client: Any, aid: str, task: str, answer: dict[str, Any], **who: Any) -> float:
    """Submit ``answer``, grade it, its score."""
    sub = submit(client, aid, task, answer, **who)
    grade_all(app)
    seen = view(client, aid, sub)
    assert seen["status"] == "graded", seen
    return seen["result"]["score"]


def sandbox_ready() -> bool:
    try:
        import server.sandbox  # noqa: F401  (helper A's)
    except ImportError:
        return False
    return True


needs_sandbox = pytest.mark.skipif(not sandbox_ready(), reason="needs server/sandbox.py (helper A)")
