"""What a student was told is received survives ``kill -9``: a real server process takes submissions,
is killed with SIGKILL right after the 202s (its grader holding one job), and a new one on the same
folders finds every submission and grades it (the local queue re-filled from the store)."""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.serve_process import ServeProcess


class Client:
    """A cookie-keeping JSON client of one server address."""

    def __init__(self, url: str) -> None:
        self.url = url
        cookies = urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        self.opener = urllib.request.build_opener(cookies)

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
             ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")


def server(tmp: Path, name: str, port: int | None = None, **env: str) -> ServeProcess:
    process = ServeProcess(tmp, name, port=port)
    process.env.update({"MAZE_STORE_DIR": str(tmp / "puzzles"),
                        "MAZE_ASSIGNMENT_DIR": str(tmp / "assignments"),
                        "MAZE_SUBMISSIONS_PER_MINUTE": "1000", **env})
    return process.start()


def test_submissions_survive_kill_9_and_are_graded_after_a_restart(tmp_path: Path) -> None:
    # The first server's grader holds each job it takes for 10 minutes: killed, it has graded nothing.
    first = server(tmp_path, "first", MAZE_GRADING_HOLD_SECONDS="600")
    second = None
    try:
        client = Client(first.url)
        status, puzzle = client.call("POST", "/api/puzzles", {"gallery": "perfect-small"})
        assert status == 201, puzzle
        status, made = client.call("POST", "/api/assignments", {
            "puzzle": puzzle["id"], "algorithm": "bfs", "attempts": None,
            "tasks": [{"kind": "predict", "points": 2, "count": 3}, {"kind": "solution", "points": 1}]})
        assert status == 201, made
        aid = made["id"]
        received = []
        for i in range(12):
            task, answer = (("predict", {"states": ["(0, 1)"]}) if i % 2 else ("solution", {"solution": "D"}))
            status, got = client.call("POST", f"/api/assignments/{aid}/submissions",
                                      {"name": f"Student {i}", "student": f"s{i % 4}", "task": task,
                                       "answer": answer})
            assert status == 202, got
            received.append(got)
        first.kill()  # SIGKILL, right after the last 202

        second = server(tmp_path, "second", port=first.port)
        client = Client(second.url)
        deadline = time.monotonic() + 90
        pending = {r["submission"]: r for r in received}
        seen: dict[str, Any] = {}
        while pending and time.monotonic() < deadline:
            for sid, sub in list(pending.items()):
                status, view = client.call("GET", f"/api/assignments/{aid}/submissions/{sid}",
                                           headers={"X-Receipt": sub["receipt"]})
                assert status == 200, view  # every submission is there
                if view["status"] in ("graded", "failed"):
                    seen[sid] = view
                    del pending[sid]
            time.sleep(0.2)
        assert not pending, f"not graded after the restart: {sorted(pending)}\n{second.log()[-2000:]}"
        assert all(v["status"] == "graded" for v in seen.values())
        assert [seen[r["submission"]]["attempt"] for r in received] == [r["attempt"] for r in received]
        status, results = client.call("GET", f"/api/assignments/{aid}/results",
                                      headers={"Authorization": f"Bearer {made['token']}"})
        assert status == 200
        attempts = sum(t["attempts"] for row in results["rows"] for t in row["tasks"].values())
        assert attempts == 12 and len(results["rows"]) == 4
    finally:
        first.stop()
        if second is not None:
            second.stop()
