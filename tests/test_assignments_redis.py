"""Grading on Redis: submissions stored and queued in a real redis-server (a stream with a consumer
group), graded by ``run.py grader --redis URL`` processes. One grader is killed with SIGKILL while it
holds a job: another takes it (XAUTOCLAIM after the visibility timeout); every job is graded once
counted, no attempt twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from server.services import services
from tests.assignment_helpers import create, maze3_id, submit, teacher, view
from tests.helpers import ROOT, browser, make_app, venv_python

pytest_plugins = ["tests.redis_server"]


def grader(redis_url: str, log: Path, hold: str, visibility: str = "3") -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "MAZE_GRADING_HOLD_SECONDS": hold,
           "MAZE_GRADING_VISIBILITY_SECONDS": visibility}
    return subprocess.Popen([venv_python(), "run.py", "grader", "--redis", redis_url], cwd=ROOT, env=env,
                            stdout=log.open("a"), stderr=subprocess.STDOUT, start_new_session=True)


def wait_for(what, seconds: float, message: str):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = what()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(message)


def test_a_killed_graders_job_is_taken_again_and_counted_once(redis_url: str, tmp_path: Path) -> None:
    app = make_app(redis_url=redis_url, graders=0, submissions_per_minute=1000)
    client = browser(app)
    made = create(client, maze3_id(app), [{"kind": "predict", "points": 2, "count": 3},
                                          {"kind": "solution", "points": 2}], attempts=None)
    aid = made["id"]
    # What every server process hears on Socket.IO's message queue (Flask-SocketIO's channel).
    import redis

    link = redis.Redis.from_url(redis_url)
    heard = link.pubsub(ignore_subscribe_messages=True)
    heard.subscribe("flask-socketio")
    subs = [submit(client, aid, "solution" if i % 2 else "predict",
                   {"solution": "R"} if i % 2 else {"states": ["(1, 1)"]}, student=f"s{i % 3}")
            for i in range(8)]
    store = services(app).assignments
    # Grader A holds each job 60 s before judging it: it is killed holding the first.
    a_log = tmp_path / "a.log"
    a = grader(redis_url, a_log, "60")
    b = None
    try:
        held = wait_for(lambda: [s for s in store.submissions(aid) if s.status == "grading"], 60,
                        f"grader A took no job:\n{a_log.read_text()[-2000:] if a_log.exists() else ''}")
        assert len(held) == 1
        os.killpg(a.pid, signal.SIGKILL)
        a.wait(10)
        b_log = tmp_path / "b.log"
        b = grader(redis_url, b_log, "0")

        def all_graded():
            found = store.submissions(aid)
            return found if all(s.status == "graded" for s in found) else None

        graded = wait_for(all_graded, 90, f"not all graded:\n{b_log.read_text()[-3000:]}")
        assert len(graded) == 8
        taken_again = next(s for s in graded if s.id == held[0].id)
        assert taken_again.grader_runs == 2  # begun by A, finished by B
        assert all(s.grader_runs == 1 for s in graded if s.id != held[0].id)
        # No attempt counted twice: each student's attempts at a task are 1, 2, … once each.
        per = {}
        for s in graded:
            per.setdefault((s.student, s.task), []).append(s.attempt)
        assert all(sorted(v) == list(range(1, len(v) + 1)) for v in per.values())
        results = client.get(f"/api/assignments/{aid}/results", headers=teacher(made["token"]))
        rows = results.get_json()["rows"]
        assert sum(t["attempts"] for row in rows for t in row["tasks"].values()) == 8
        seen = view(client, aid, subs[0])
        assert seen["status"] == "graded" and seen["result"]["score"] == 0.0
        # The graders announced each result to the assignment's room through the message queue.
        updates = []

        def announced():
            while (message := heard.get_message(timeout=0.1)) is not None:
                data = json.loads(message["data"])
                if data.get("event") == "assignment_update":
                    payload = data["data"][0]
                    assert data["room"] == f"assignment:{aid}"
                    assert set(payload) == {"id", "submission", "status"}
                    updates.append(payload)
            return {u["submission"] for u in updates if u["status"] == "graded"} >= {s.id for s in graded}

        wait_for(announced, 30, f"announced: {updates}")
        heard.close()
        # The stream holds nothing left to do.
        assert link.xlen("maze:assignments:jobs") == 0
        assert link.xpending("maze:assignments:jobs", "graders")["pending"] == 0
    finally:
        for proc in (a, b):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(10)


def test_a_live_graders_long_judgement_is_not_taken_from_it(redis_url: str, tmp_path: Path) -> None:
    """A judgement longer than the visibility timeout: the grader renews its claim, so the other grader
    waiting beside it never takes the job (each submission judged by one grader, once)."""
    app = make_app(redis_url=redis_url, graders=0, submissions_per_minute=1000)
    client = browser(app)
    made = create(client, maze3_id(app), [{"kind": "solution", "points": 2}], attempts=None)
    aid = made["id"]
    for i in range(3):
        submit(client, aid, "solution", {"solution": "R"}, student=f"s{i}")
    store = services(app).assignments
    # Both hold each job 4 s, four times their 1 s visibility timeout.
    procs = [grader(redis_url, tmp_path / f"g{i}.log", "4", visibility="1") for i in range(2)]
    try:
        def all_graded():
            found = store.submissions(aid)
            return found if all(s.status == "graded" for s in found) else None

        graded = wait_for(all_graded, 90, "not all graded:\n" + (tmp_path / "g0.log").read_text()[-2000:])
        assert [s.grader_runs for s in graded] == [1, 1, 1]
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(10)


def test_attempts_and_delete_in_redis(redis_url: str) -> None:
    app = make_app(redis_url=redis_url, graders=0, submissions_per_minute=1000)
    client = browser(app)
    made = create(client, maze3_id(app), [{"kind": "solution", "points": 2}], attempts=2)
    aid = made["id"]
    assert submit(client, aid, "solution", {"solution": "R"}, student="S1")["attempt"] == 1
    sub = submit(client, aid, "solution", {"solution": "R"}, student="s1 ")
    assert (sub["attempt"], sub["attempts_left"]) == (2, 0)
    refused = submit(client, aid, "solution", {"solution": "R"}, student="s1", expect=403)
    assert refused["error"] == "no attempts left: you have used all 2 attempts at the solution task"
    assert view(client, aid, sub)["status"] == "queued"
    assert client.delete(f"/api/assignments/{aid}", headers=teacher(made["token"])).status_code == 204
    assert client.get(f"/api/assignments/{aid}").status_code == 404
    import redis

    assert not redis.Redis.from_url(redis_url).exists(f"maze:assignment:{aid}")


def test_the_grader_command_says_what_it_needs() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MAZE_REDIS_URL"}
    done = subprocess.run([venv_python(), "run.py", "grader"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and "needs the servers' Redis" in done.stderr
    done = subprocess.run([venv_python(), "run.py", "grader", "--redis", "redis://127.0.0.1:1/0"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "does not answer" in done.stderr


def test_a_submission_stored_but_never_queued_is_queued_at_start(redis_url: str) -> None:
    """A process killed between storing a submission and its XADD: the next grader start queues it."""
    import redis

    app = make_app(redis_url=redis_url, graders=0, submissions_per_minute=1000)
    client = browser(app)
    aid = create(client, maze3_id(app), [{"kind": "solution", "points": 2}], attempts=None)["id"]
    first = submit(client, aid, "solution", {"solution": "R"})
    second = submit(client, aid, "solution", {"solution": "D"})
    link = redis.Redis.from_url(redis_url)
    entries = link.xrange("maze:assignments:jobs")
    link.xdel("maze:assignments:jobs", entries[0][0])  # as if its XADD never happened
    graders = services(app).graders
    assert graders.refill() == 1
    assert graders.refill() == 0  # queued once
    queue = services(app).grading
    taken = {queue.take("t", 0.1).submission for _ in range(2)}
    assert taken == {first["submission"], second["submission"]}
