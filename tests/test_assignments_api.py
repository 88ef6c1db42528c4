"""The assignment endpoints (server/web/assignments.py): create and the public view, the teacher's
token, receipts, tampering, limits, exports, close and delete, the pages and the live room."""

from __future__ import annotations

import csv
import io
import json
import time
from pathlib import Path

import pytest

from server import socketio
from server.services import services
from tests.assignment_helpers import (
    assignment_app,
    create,
    grade_all,
    maze3_id,
    submit,
    teacher,
    view,
)
from tests.helpers import browser

PREDICT = [{"kind": "predict", "points": 2, "count": 5}, {"kind": "solution", "points": 2, "margin": 0}]


@pytest.fixture
def app(tmp_path: Path):
    return assignment_app(tmp_path, submissions_per_minute=1000)


@pytest.fixture
def made(app):
    client = browser(app)
    return app, client, create(client, maze3_id(app), PREDICT, title="Blatt 3: BFS auf maze3")


def test_create_gives_both_links_and_the_public_view(made) -> None:
    app, client, answer = made
    aid, token = answer["id"], answer["token"]
    assert len(aid) == 12 and answer["class_url"] == f"/a/{aid}"
    assert answer["teacher_url"] == f"/a/{aid}/teacher#{token}"
    public = client.get(f"/api/assignments/{aid}").get_json()
    assert public == answer["assignment"]
    assert public["title"] == "Blatt 3: BFS auf maze3" and public["algorithm_label"] == "BFS"
    assert [t["kind"] for t in public["tasks"]] == ["predict", "solution"]
    assert all(t["text"] for t in public["tasks"]) and public["total_points"] == 4
    assert public["open"] is True and public["keep_until"] and "until" in public["stored"]
    stored = (Path(services(app).config.assignment_dir) / aid / "assignment.json").read_text()
    assert token not in stored and "token_hash" in stored  # only the hash is kept
    assert token not in json.dumps(public)


def test_a_wrong_or_missing_token_gets_403_and_nothing_else(made) -> None:
    _app, client, answer = made
    aid = answer["id"]
    submit(client, aid, "predict", {"states": ["(1, 1)"]})
    for headers in ({}, teacher("wrong"), teacher(answer["token"] + "x"), {"Authorization": answer["token"]}):
        for method, path in (("get", "results"), ("get", "export?format=moodle"),
                             ("get", "export?format=json")):
            got = getattr(client, method)(f"/api/assignments/{aid}/{path}", headers=headers)
            assert got.status_code == 403
            assert got.get_json() == {"error": f"This teacher link is not valid for assignment {aid}",
                                      "where": None}
        closing = client.patch(f"/api/assignments/{aid}", json={"closed": True}, headers=headers)
        assert closing.status_code == 403
        assert client.delete(f"/api/assignments/{aid}", headers=headers).status_code == 403
    assert client.get(f"/api/assignments/{aid}").get_json()["closed"] is False


def test_a_receipt_shows_its_own_submission_only(made) -> None:
    app, client, answer = made
    aid = answer["id"]
    mine = submit(client, aid, "predict", {"states": ["(1, 1)"]}, student="s1")
    theirs = submit(browser(app), aid, "predict", {"states": ["(2, 2)"]}, student="s2")
    seen = view(client, aid, mine)
    assert seen["submission"] == mine["submission"] and seen["status"] == "queued"
    assert "name" not in seen and "answer" not in seen  # a student's view: no names, no answers
    url = f"/api/assignments/{aid}/submissions/"
    wrong_receipt = client.get(url + theirs["submission"], headers={"X-Receipt": mine["receipt"]})
    no_receipt = client.get(url + theirs["submission"])
    unknown = client.get(url + "A" * 16, headers={"X-Receipt": mine["receipt"]})
    assert wrong_receipt.status_code == no_receipt.status_code == unknown.status_code == 404
    # The same answer whether the submission exists or not (only the id asked for differs).
    assert wrong_receipt.get_json()["error"].replace(theirs["submission"], "X") == \
        unknown.get_json()["error"].replace("A" * 16, "X")
    as_teacher = client.get(url + theirs["submission"], headers=teacher(answer["token"])).get_json()
    assert as_teacher["student"] == "s2" and as_teacher["answer"] == {"states": ["(2, 2)"]}


def test_an_unknown_assignment_is_404_in_words(app) -> None:
    client = browser(app)
    got = client.get("/api/assignments/abcdefghijkl")
    assert got.status_code == 404
    assert got.get_json()["error"] == "No assignment abcdefghijkl (it may have been deleted)"
    for path in ("/api/assignments/../../etc", "/api/assignments/abcdefghijkl/results"):
        assert client.get(path).status_code == 404
    assert submit(client, "abcdefghijkl", "predict", {"states": ["x"]}, expect=404)


@pytest.mark.parametrize("field", ["score", "verdict", "result", "trace"])
def test_tampered_fields_are_refused_naming_them(made, field: str) -> None:
    app, client, answer = made
    aid = answer["id"]
    body = {"name": "Eve", "student": "s9", "task": "solution", "answer": {"solution": "R"}, field: 2}
    got = client.post(f"/api/assignments/{aid}/submissions", json=body)
    assert got.status_code == 400 and got.get_json()["where"] == field and field in got.get_json()["error"]
    inner = {**body, "answer": {"solution": "R", field: 2}}
    inner.pop(field)
    got = client.post(f"/api/assignments/{aid}/submissions", json=inner)
    assert got.status_code == 400 and got.get_json()["where"] == f"answer.{field}"
    assert services(app).assignments.submissions(aid) == []  # nothing stored


def test_the_score_comes_from_the_grader_only(made) -> None:
    app, client, answer = made
    aid = answer["id"]
    sub = submit(client, aid, "solution", {"solution": "R"})
    stored = services(app).assignments.submission(aid, sub["submission"])
    assert stored.result is None and stored.status == "queued"
    grade_all(app)
    seen = view(client, aid, sub)
    assert seen["status"] == "graded" and seen["result"]["score"] == 0
    assert "not legal" in seen["result"]["sentence"]


def test_a_body_over_the_limit_is_413_in_words(tmp_path: Path) -> None:
    app = assignment_app(tmp_path, max_code_bytes=1000, max_solution_bytes=1000)
    client = browser(app)
    aid = create(client, maze3_id(app), PREDICT)["id"]
    got = client.post(f"/api/assignments/{aid}/submissions", json={
        "name": "A", "student": "s", "task": "solution", "answer": {"solution": "R" * 1500}})
    assert got.status_code == 413 and "1,000 bytes" in got.get_json()["error"]
    assert got.get_json()["where"] == "answer.solution"
    huge = b'{"name": "' + b"x" * 200_000 + b'"}'
    got = client.post(f"/api/assignments/{aid}/submissions", data=huge, content_type="application/json")
    assert got.status_code == 413 and "limit" in got.get_json()["error"]


def test_too_many_submissions_is_429_in_words(tmp_path: Path) -> None:
    app = assignment_app(tmp_path, submissions_per_minute=3)
    client = browser(app)
    aid = create(client, maze3_id(app), PREDICT, attempts=None)["id"]
    for _ in range(3):
        submit(client, aid, "solution", {"solution": "R"})
    got = submit(client, aid, "solution", {"solution": "R"}, expect=429)
    assert "too many submissions" in got["error"] and "a minute" in got["error"]


def test_too_many_for_the_assignment_is_429(tmp_path: Path) -> None:
    app = assignment_app(tmp_path, max_submissions_per_assignment=2, submissions_per_minute=100)
    client = browser(app)
    aid = create(client, maze3_id(app), PREDICT, attempts=None)["id"]
    submit(client, aid, "solution", {"solution": "R"}, student="a")
    submit(client, aid, "solution", {"solution": "R"}, student="b")
    got = submit(client, aid, "solution", {"solution": "R"}, student="c", expect=429)
    assert "most submissions" in got["error"]


def test_attempts_run_out_per_student_and_task(made) -> None:
    app, client, _ = made
    aid = create(client, maze3_id(app), PREDICT, attempts=2)["id"]
    first = submit(client, aid, "solution", {"solution": "R"}, student="S1")
    assert (first["attempt"], first["attempts_left"]) == (1, 1)
    second = submit(client, aid, "solution", {"solution": "R"}, student=" s1 ")  # the same student
    assert (second["attempt"], second["attempts_left"]) == (2, 0)
    got = submit(client, aid, "solution", {"solution": "R"}, student="s1", expect=403)
    assert got["error"] == "no attempts left: you have used all 2 attempts at the solution task"
    submit(client, aid, "predict", {"states": ["(1, 1)"]}, student="s1")  # another task: its own
    submit(client, aid, "solution", {"solution": "R"}, student="s2")  # another student


def test_past_the_deadline_or_closed_is_403_in_words(made) -> None:
    _app, client, answer = made
    pid = answer["assignment"]["puzzle"]
    late = create(client, pid, PREDICT, deadline="2001-01-01T00:00:00Z")
    assert late["assignment"]["open"] is False
    got = submit(client, late["id"], "solution", {"solution": "R"}, expect=403)
    assert "deadline has passed" in got["error"]
    aid, token = answer["id"], answer["token"]
    closed = client.patch(f"/api/assignments/{aid}", json={"closed": True}, headers=teacher(token))
    assert closed.status_code == 200 and closed.get_json()["closed"] is True and not closed.get_json()["open"]
    assert "closed" in submit(client, aid, "solution", {"solution": "R"}, expect=403)["error"]
    client.patch(f"/api/assignments/{aid}", json={"closed": False}, headers=teacher(token))
    submit(client, aid, "solution", {"solution": "R"})
    bad = client.patch(f"/api/assignments/{aid}", json={"closed": "yes"}, headers=teacher(token))
    assert bad.status_code == 400 and bad.get_json()["where"] == "closed"


def test_results_are_hidden_until_the_deadline_when_asked(made) -> None:
    app, client, answer = made
    soon = time.time() + 3600
    deadline = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(soon))
    made = create(client, answer["assignment"]["puzzle"], PREDICT, deadline=deadline, reveal="after_deadline")
    sub = submit(client, made["id"], "solution", {"solution": "R"})
    grade_all(app)
    seen = view(client, made["id"], sub)
    assert seen["status"] == "graded" and seen["result"] is None and seen["hidden_until"] == deadline
    as_teacher = client.get(f"/api/assignments/{made['id']}/submissions/{sub['submission']}",
                            headers=teacher(made["token"])).get_json()
    assert as_teacher["result"]["score"] == 0 and as_teacher["hidden_until"] is None


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_exports_parse_back_to_the_same_figures(made) -> None:
    app, client, answer = made
    aid, token = answer["id"], answer["token"]
    # Ada: a right solution (2 of 2); Bob: a wrong one; Eve: only a prediction; a formula for a name.
    submit(client, aid, "solution", {"solution": "R"}, name="Ada", student="s1")
    submit(client, aid, "predict", {"states": ["(1, 1)"]}, name="=cmd|' /C calc'!A0", student="@s2")
    submit(client, aid, "solution", {"solution": "R"}, name="<script>alert(1)</script>", student="s3")
    grade_all(app)
    results = client.get(f"/api/assignments/{aid}/results", headers=teacher(token)).get_json()
    by_student = {row["student"]: row for row in results["rows"]}
    assert set(by_student) == {"s1", "@s2", "s3"}
    assert by_student["s3"]["name"] == "<script>alert(1)</script>"  # kept as text, escaped by pages
    eve_tasks = by_student["@s2"]["tasks"]
    assert eve_tasks["predict"]["attempts"] == 1 and "solution" not in eve_tasks
    assert isinstance(results["version"], int)

    moodle = client.get(f"/api/assignments/{aid}/export?format=moodle", headers=teacher(token))
    assert moodle.status_code == 200 and moodle.mimetype == "text/csv"
    assert "attachment" in moodle.headers["Content-Disposition"]
    table = rows_of(moodle.get_data(as_text=True))
    assert table[0] == ["ID number", "Full name", "Blatt 3: BFS auf maze3: predict",
                        "Blatt 3: BFS auf maze3: solution", "Total"]
    for line in table[1:]:
        ident = line[0].removeprefix("'")
        row = by_student[ident]
        for i, kind in enumerate(("predict", "solution")):
            score = row["tasks"].get(kind, {}).get("score")
            assert line[2 + i] == ("" if score is None else f"{score:g}")
        assert float(line[4]) == row["total"]
    eve = next(line for line in table if line[0] == "'@s2")
    assert eve[1] == "'=cmd|' /C calc'!A0" and eve[3] == ""  # neutralised; no grade: empty
    assert next(line for line in table if line[0] == "s3")[1] == "<script>alert(1)</script>"

    canvas = client.get(f"/api/assignments/{aid}/export?format=canvas", headers=teacher(token))
    table = rows_of(canvas.get_data(as_text=True))
    assert table[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert table[1] == ["Points Possible", "", "", "", "", "2", "2"]
    for line in table[2:]:
        row = by_student[line[2].removeprefix("'")]
        assert line[0].removeprefix("'") == row["name"]
        for i, kind in enumerate(("predict", "solution")):
            score = row["tasks"].get(kind, {}).get("score")
            assert line[5 + i] == ("" if score is None else f"{score:g}")

    exported = client.get(f"/api/assignments/{aid}/export?format=json", headers=teacher(token)).get_json()
    assert exported["rows"] == results["rows"]
    bad = client.get(f"/api/assignments/{aid}/export?format=xlsx", headers=teacher(token))
    assert bad.status_code == 400 and bad.get_json()["where"] == "format"


def test_moodle_takes_email_addresses_when_every_identifier_is_one(made) -> None:
    app, client, answer = made
    submit(client, answer["id"], "solution", {"solution": "R"}, student="ada@example.org")
    grade_all(app)
    text = client.get(f"/api/assignments/{answer['id']}/export?format=moodle",
                      headers=teacher(answer["token"])).get_data(as_text=True)
    assert rows_of(text)[0][0] == "Email address"


def test_delete_removes_the_assignment_and_every_submission(made) -> None:
    app, client, answer = made
    aid = answer["id"]
    sub = submit(client, aid, "solution", {"solution": "R"})
    assert client.delete(f"/api/assignments/{aid}", headers=teacher(answer["token"])).status_code == 204
    assert client.get(f"/api/assignments/{aid}").status_code == 404
    assert client.get(f"/api/assignments/{aid}/submissions/{sub['submission']}",
                      headers={"X-Receipt": sub["receipt"]}).status_code == 404
    assert not (Path(services(app).config.assignment_dir) / aid).exists()
    assert grade_all(app) == 1  # the queued job finds nothing and is finished


def test_the_pinned_puzzle_comes_back_when_the_archive_lost_it(made) -> None:
    app, client, answer = made
    aid, pid = answer["id"], answer["assignment"]["puzzle"]
    shared = services(app)
    shared.store.archive.drop(pid)
    shared.store._items.clear()  # gone from memory and the archive
    sub = submit(client, aid, "solution", {"solution": "R"})
    grade_all(app)
    assert view(client, aid, sub)["status"] == "graded"
    assert shared.store.archive.get(pid) is not None  # put back
    shared.store.archive.drop(pid)
    shared.store._items.clear()
    assert client.get(f"/api/puzzles/{pid}").status_code == 404
    assert client.get(f"/api/assignments/{aid}").status_code == 200  # the page's first question…
    assert client.get(f"/api/puzzles/{pid}").status_code == 200  # …puts the puzzle back for the page


def test_the_pages_answer_for_any_id(app) -> None:
    client = browser(app)
    for path in ("/a/abcdefghijkl", "/a/abcdefghijkl/teacher"):
        got = client.get(path)
        assert got.status_code == 200 and got.mimetype == "text/html"


def test_assignment_watch_joins_the_room_with_the_right_token_only(made) -> None:
    app, client, answer = made
    aid = answer["id"]
    live = socketio.test_client(app, flask_test_client=client)
    assert live.emit("assignment_watch", {"id": aid, "token": "wrong"}, callback=True)["ok"] is False
    assert "not valid" in live.emit("assignment_watch", {"id": aid, "token": "wrong"}, callback=True)["error"]
    assert live.emit("assignment_watch", "nonsense", callback=True)["ok"] is False
    assert live.emit("assignment_watch", {"id": aid, "token": answer["token"]}, callback=True) == {"ok": True}
    services(app).graders.announce = lambda a, s, status: socketio.emit(
        "assignment_update", {"id": a, "submission": s, "status": status}, to=f"assignment:{a}")
    sub = submit(client, aid, "solution", {"solution": "R"})
    grade_all(app)
    updates = [m["args"][0] for m in live.get_received() if m["name"] == "assignment_update"]
    assert [u["status"] for u in updates] == ["queued", "grading", "graded"]
    assert all(u == {"id": aid, "submission": sub["submission"], "status": u["status"]} for u in updates)
    live.disconnect()


def test_the_retention_sweep_deletes_what_is_past_keep_until(made) -> None:
    from server.assignments.store import sweep

    app, _client, answer = made
    store = services(app).assignments
    old = store.get(answer["id"])
    assert sweep(store) == 0
    assert sweep(store, now=old.keep_until() + 1) == 1
    assert store.get(answer["id"]) is None


def test_a_failing_disk_is_503_in_words_never_500(made, monkeypatch) -> None:
    app, client, answer = made

    def full(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(services(app).assignments, "add_submission", full)
    got = submit(client, answer["id"], "solution", {"solution": "R"}, expect=503)
    assert "cannot be stored" in got["error"]
