"""Jobs belong to their maker, and a client without a cookie is its address (issue 28, points 3 and 4).

An upload's progress and cancel (``/api/uploads/<id>``) and a GIF export's status, download and
cancel (``/api/animations/<job>``) answer only the client that started them; for any other (another
browser, a script from another address) the id is unknown — the very answer an id never made gets —
and nothing is cancelled. A request without a session cookie is its address's client: cookie-less
requests share one client's caps (GIF exports at once, puzzles kept, runs at once), while two
browsers behind one address are two clients. With Redis the same holds across processes."""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import numpy as np
import pytest
from flask import Flask
from PIL import Image

from server import socketio
from server.services import services
from server.uploads import Cancelled, UploadProgress
from tests.helpers import live_app, make_app, open_maze

pytest_plugins = ["tests.redis_server"]

FINAL = ("done", "error", "cancelled")
SECRET = "job-owners-test-" + "k" * 40  # the processes of one deployment sign sessions alike
ELSEWHERE = "10.0.0.2"


# ---- helpers -----------------------------------------------------------------------------------------
def browser(app: Flask) -> Any:
    """A browser: it opens the page first, which gives it its client id (a session cookie)."""
    http = app.test_client()
    assert http.get("/").status_code == 200
    assert http.get_cookie("session") is not None
    return http


def script(app: Flask, address: str = "127.0.0.1") -> Any:
    """A script that never keeps a cookie, from ``address``."""
    http = app.test_client(use_cookies=False)
    http.environ_base["REMOTE_ADDR"] = address
    return http


def maze_text(n: int) -> bytes:
    return f"#####\n#S.G#\n#...#\n#####\n{'#' * (n + 1)}\n".encode()


def maze_png(width: int = 600, height: int = 400) -> bytes:
    cells = np.zeros((height, width), np.uint8)
    cells[1:-1, 1:-1] = 255
    cells[2:-1, 2::4] = 0
    cells[0, 1] = cells[-1, 1] = 255
    buffer = io.BytesIO()
    Image.fromarray(cells, "L").save(buffer, "PNG")
    return buffer.getvalue()


def post(http: Any, data: bytes, name: str, upload_id: str | None = None) -> Any:
    headers = {} if upload_id is None else {"X-Upload-Id": upload_id}
    return http.post("/api/puzzles", data={"file": (io.BytesIO(data), name)},
                     content_type="multipart/form-data", headers=headers)


def wait_for(check: Callable[[], Any], timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("timed out")


def gallery(http: Any) -> str:
    answer = http.post("/api/puzzles", json={"gallery": "seed-lee-example"})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def export(http: Any, pid: str, algorithm: str = "bfs") -> Any:
    return http.post(f"/api/puzzles/{pid}/animation", json={"algorithm": algorithm})


def wait_final(http: Any, job: str, timeout: float = 60.0) -> dict:
    return wait_for(lambda: (s := http.get(f"/api/animations/{job}").get_json()).get("state") in FINAL and s,
                    timeout)


def unknown_upload(http: Any, upload_id: str) -> dict:
    """What the API answers for an upload id no process has heard of."""
    return http.get(f"/api/uploads/{upload_id}").get_json()


def assert_unknown_job(http: Any, job: str) -> None:
    """``job`` answers exactly as an id never made does (404, the same words), on every endpoint."""
    never = "N" * len(job)
    for method, suffix in (("get", ""), ("get", ".gif"), ("delete", "")):
        got = getattr(http, method)(f"/api/animations/{job}{suffix}")
        want = getattr(http, method)(f"/api/animations/{never}{suffix}")
        assert got.status_code == want.status_code == 404, (method, suffix, got.get_json())
        assert got.get_json()["error"].replace(job, never) == want.get_json()["error"]


def holding_workers(stack: ExitStack, *apps: Flask) -> None:
    """Take every compute slot: exports wait queued until the stack closes."""
    for app in apps:
        budget = services(app).budget
        for _ in range(budget.max_computing):
            stack.enter_context(budget.computing())


# ---- uploads -----------------------------------------------------------------------------------------
def test_an_upload_s_progress_is_its_maker_s_alone() -> None:
    app = make_app()
    mine, other = browser(app), browser(app)
    assert post(mine, maze_text(1), "secret-name.txt", "up-1").status_code == 201
    done = mine.get("/api/uploads/up-1").get_json()
    assert done["phase"] == "done"
    # Another browser (another cookie, the same address) learns nothing: the answer to an id never made.
    assert other.get("/api/uploads/up-1").get_json() == unknown_upload(other, "never-1")
    answer = other.delete("/api/uploads/up-1")
    assert answer.status_code == 200 and answer.get_json() == unknown_upload(other, "never-1")
    # A script from elsewhere neither.
    assert script(app, ELSEWHERE).get("/api/uploads/up-1").get_json()["phase"] == "unknown"
    assert mine.get("/api/uploads/up-1").get_json() == done
    # A failed upload's words (which name its file) stay the maker's too.
    assert post(mine, b"\x89PNG\r\n\x1a\n broken", "private.png", "bad-1").status_code == 400
    assert "private" in mine.get("/api/uploads/bad-1").get_json()["message"]
    assert "private" not in str(other.get("/api/uploads/bad-1").get_json())


def test_another_client_cannot_cancel_an_upload() -> None:
    app = make_app(max_pixels=5_000_000, solve_wait=10.0, trace_budget_bytes=20_000_000)
    budget = services(app).budget
    held = budget.reserve(20_000_000)  # the upload waits for its memory meanwhile
    mine, other = browser(app), browser(app)
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(post(mine, maze_png(), "m.png", "slow-1")))
    thread.start()
    try:
        poller = browser(app)  # the maker's page polls with the maker's cookie
        poller.set_cookie("session", mine.get_cookie("session").value)
        wait_for(lambda: poller.get("/api/uploads/slow-1").get_json()["phase"] == "received")
        for stranger in (other, script(app, ELSEWHERE)):
            assert stranger.delete("/api/uploads/slow-1").get_json()["phase"] == "unknown"
    finally:
        budget.release(held)
        thread.join(20)
    assert answers[0].status_code == 201, answers[0].get_json()  # not cancelled
    assert poller.get("/api/uploads/slow-1").get_json()["phase"] == "done"


def test_a_cookie_less_script_polls_its_own_upload() -> None:
    app = make_app()
    assert post(script(app), maze_text(2), "m.txt", "script-1").status_code == 201
    assert script(app).get("/api/uploads/script-1").get_json()["phase"] == "done"  # the same address
    assert script(app, ELSEWHERE).get("/api/uploads/script-1").get_json()["phase"] == "unknown"
    # A script that keeps the cookie its first answer set is still its maker.
    keeper = app.test_client()
    assert post(keeper, maze_text(3), "m.txt", "keeper-1").status_code == 201
    assert keeper.get_cookie("session") is not None
    assert keeper.get("/api/uploads/keeper-1").get_json()["phase"] == "done"
    # A browser's upload is never a cookie-less script's, even from the browser's own address.
    mine = browser(app)
    assert post(mine, maze_text(4), "m.txt", "browser-1").status_code == 201
    assert script(app).get("/api/uploads/browser-1").get_json()["phase"] == "unknown"


def test_the_registry_answers_owners_only_and_keeps_cancels_apart() -> None:
    registry = UploadProgress()
    tracker = registry.tracker("u1", "c:maker")
    tracker("decode", 0.5)
    assert registry.status("u1", ("c:maker",))["phase"] == "decode"
    assert registry.status("u1", ("c:other", "ip:1.2.3.4")) is None and registry.status("u1") is None
    assert registry.cancel("u1", ("c:other",)) is None
    tracker("cells", 0.1)  # not cancelled
    # Another client's POST under the same id does not inherit the maker's cancel, nor its entry.
    assert registry.cancel("u1", ("c:maker",))["phase"] == "cells"
    intruder = registry.tracker("u1", "c:other")
    intruder("decode", 0.2)
    assert registry.status("u1", ("c:other",))["phase"] == "decode"
    assert registry.status("u1", ("c:maker",)) is None


# ---- GIF exports ---------------------------------------------------------------------------------------
def test_a_gif_export_is_its_maker_s_alone() -> None:
    app = make_app(animations_per_minute=100)
    mine, other = browser(app), browser(app)
    pid = gallery(mine)
    with ExitStack() as stack:
        holding_workers(stack, app)
        job = export(mine, pid).get_json()["job"]
        for stranger in (other, script(app), script(app, ELSEWHERE)):
            assert_unknown_job(stranger, job)  # the DELETE among them cancelled nothing
        assert mine.get(f"/api/animations/{job}").get_json()["state"] == "queued"
    done = wait_final(mine, job)
    assert done["state"] == "done"
    assert mine.get(done["url"]).status_code == 200
    assert_unknown_job(other, job)  # a finished GIF is its maker's to download


def test_a_cookie_less_script_s_export_is_its_address_s() -> None:
    app = make_app(animations_per_minute=100)
    pid = gallery(script(app))
    job = export(script(app), pid).get_json()["job"]
    assert wait_final(script(app), job)["state"] == "done"  # a new request, the same address: its own
    assert script(app).get(f"/api/animations/{job}.gif").status_code == 200
    assert_unknown_job(script(app, ELSEWHERE), job)
    # A script keeping the cookie its first answer set: started cookie-less, then polled with it.
    keeper = app.test_client()
    job = export(keeper, pid, "dfs").get_json()["job"]
    assert wait_final(keeper, job)["state"] == "done"


def test_cookie_less_requests_share_one_client_s_gif_cap() -> None:
    app = make_app(max_animations_per_client=2, max_animation_jobs=8, animations_per_minute=100)
    pid = gallery(script(app))
    with ExitStack() as stack:
        holding_workers(stack, app)
        for _ in range(2):
            assert export(script(app), pid).status_code == 202
        refused = export(script(app), pid)  # before: a new client each time, until the server was full
        assert refused.status_code == 429 and "at most 2 GIF exports" in refused.get_json()["error"]
        # Two browsers behind the same address are two clients of their own.
        first, second = browser(app), browser(app)
        for http in (first, second):
            assert export(http, pid).status_code == 202
        assert export(first, pid).status_code == 202
        assert export(first, pid).status_code == 429
        assert export(script(app, ELSEWHERE), pid).status_code == 202  # another address, another client


# ---- client identity ----------------------------------------------------------------------------------
def test_the_page_gives_the_browser_its_client_before_any_api_call() -> None:
    app = make_app()
    http = app.test_client()
    assert http.get_cookie("session") is None
    assert http.get("/").status_code == 200
    cookie = http.get_cookie("session")
    serializer = app.session_interface.get_signing_serializer(app)
    client = serializer.loads(cookie.value)["client"]
    assert isinstance(client, str) and 8 <= len(client) <= 32
    assert http.get("/api/algorithms").status_code == 200
    assert serializer.loads(http.get_cookie("session").value)["client"] == client  # kept, not remade
    # A cookie-less request is answered without making the browser a new client each time it asks:
    # it is given an id for its next requests, and stays its address's for this one.
    first = app.test_client()
    first.post("/api/puzzles", json={"gallery": "seed-lee-example"})
    assert first.get_cookie("session") is not None


def test_cookie_less_requests_share_one_client_s_puzzle_cap() -> None:
    app = make_app(max_puzzles_per_client=2, uploads_per_minute=100)
    ids = [post(script(app), maze_text(n), f"m{n}.txt").get_json()["id"] for n in range(3)]
    assert script(app).get(f"/api/puzzles/{ids[0]}").status_code == 404  # past 2 the oldest went
    assert all(script(app).get(f"/api/puzzles/{pid}").status_code == 200 for pid in ids[1:])
    # Two browsers behind the same address keep two puzzles each.
    kept = [post(http, maze_text(10 + 3 * k + n), "m.txt").get_json()["id"]
            for k, http in enumerate((browser(app), browser(app))) for n in range(2)]
    assert all(script(app).get(f"/api/puzzles/{pid}").status_code == 200 for pid in kept)


def test_a_cookie_less_script_is_held_to_one_client_s_rate() -> None:
    app = make_app(uploads_per_minute=2, clients_per_ip=2)  # 4 a minute for an address
    codes = [post(script(app), maze_text(n), "m.txt").status_code for n in range(3)]
    assert codes == [201, 201, 429]
    refused = post(script(app), maze_text(9), "m.txt")
    assert "at most 2 a minute for this client" in refused.get_json()["error"]
    assert post(script(app, ELSEWHERE), maze_text(9), "m.txt").status_code == 201
    # A browser behind the same address is not held back by the script: the address has room left.
    assert post(browser(app), maze_text(8), "m.txt").status_code == 201


def test_cookie_less_sockets_share_one_client_s_runs() -> None:
    app = live_app({"big": open_maze(300, 300)}, max_runs_per_client=1)
    sockets = [socketio.test_client(app) for _ in range(2)]  # no cookie: the address's client
    try:
        start = {"puzzle": "big", "algorithm": "dfs"}
        assert sockets[0].emit("run_start", {"run": "a", **start}, callback=True)["ok"]
        refused = sockets[1].emit("run_start", {"run": "b", **start}, callback=True)
        assert refused["ok"] is False and "at most 1 runs at once" in refused["error"]
        # A browser's socket (the page's cookie) is a client of its own at the same address.
        page = browser(app)
        own = socketio.test_client(app, flask_test_client=page)
        sockets.append(own)
        assert own.emit("run_start", {"run": "c", **start}, callback=True)["ok"]
    finally:
        for client in sockets:
            client.disconnect()
        services(app).runs.shutdown("bye", lambda *a: None)


# ---- with Redis: several processes -------------------------------------------------------------------
@pytest.fixture
def two_apps(redis_url: str) -> Any:
    from server.app import socketio as shared_socketio

    apps = [make_app(redis_url=redis_url, secret_key=SECRET, animations_per_minute=100) for _ in range(2)]
    yield apps
    # An app made with ``redis_url`` leaves the one socketio object a Redis client manager.
    shared_socketio.server_options.pop("client_manager", None)
    shared_socketio.server_options.pop("message_queue", None)


def test_across_processes_a_gif_export_is_its_maker_s_alone(two_apps: list[Flask]) -> None:
    first, second = two_apps
    mine = browser(first)
    mine_there = second.test_client()  # the same browser, its requests reaching the other process
    mine_there.set_cookie("session", mine.get_cookie("session").value)
    other = browser(second)
    pid = gallery(mine)
    with ExitStack() as stack:
        holding_workers(stack, first)
        job = export(mine, pid).get_json()["job"]
        assert mine_there.get(f"/api/animations/{job}").get_json()["state"] == "queued"
        for stranger in (other, script(second, ELSEWHERE)):
            assert_unknown_job(stranger, job)  # its DELETE, through Redis, cancelled nothing
    done = wait_final(mine_there, job)
    assert done["state"] == "done"
    assert mine_there.get(done["url"]).status_code == 200
    assert_unknown_job(other, job)  # the finished GIF, kept in Redis, is the maker's alone


def test_across_processes_an_upload_is_its_maker_s_alone(two_apps: list[Flask], redis_url: str) -> None:
    first, second = two_apps
    mine = browser(first)
    mine_there = second.test_client()
    mine_there.set_cookie("session", mine.get_cookie("session").value)
    assert post(mine, maze_text(5), "secret-name.txt", "shared-up").status_code == 201
    assert mine_there.get("/api/uploads/shared-up").get_json()["phase"] == "done"
    other = browser(second)
    assert other.get("/api/uploads/shared-up").get_json() == unknown_upload(other, "never-2")
    # The registries themselves: a cancel by another client, through Redis, is not heard.
    here, there = UploadProgress(redis_url), UploadProgress(redis_url)
    tracker = here.tracker("shared-2", "c:maker")
    tracker("decode", 0.25)
    assert there.status("shared-2", ("c:maker",))["phase"] == "decode"
    assert there.status("shared-2", ("c:other", "ip:10.0.0.2")) is None
    assert there.cancel("shared-2", ("c:other",)) is None
    tracker("cells", 0.5)  # published at once (a new phase): no cancel heard
    assert there.cancel("shared-2", ("c:maker",))["phase"] == "cells"
    with pytest.raises(Cancelled):
        tracker("lattice", None)
    # A POST of another client under the same id starts afresh: the maker's cancel is not its.
    intruder = there.tracker("shared-2", "c:other")
    intruder("decode", 0.1)
    elsewhere = UploadProgress(redis_url)  # a third process: it knows the id from Redis alone
    assert elsewhere.status("shared-2", ("c:maker",)) is None
    assert elsewhere.status("shared-2", ("c:other",))["phase"] == "decode"
    intruder("cells", 0.3)  # the maker's cancel is not heard by the other client's upload
