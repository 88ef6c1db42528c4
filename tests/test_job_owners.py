"""A client without a cookie is its address (issue 28, point 4): a request without a session cookie
is its address's client, so cookie-less requests share one client's caps (GIF exports at once,
puzzles kept, runs at once), while two browsers behind one address are two clients."""

from __future__ import annotations

import io
from contextlib import ExitStack
from typing import Any

from flask import Flask

from server import socketio
from server.services import services
from tests.helpers import live_app, make_app, open_maze

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


def post(http: Any, data: bytes, name: str, upload_id: str | None = None) -> Any:
    headers = {} if upload_id is None else {"X-Upload-Id": upload_id}
    return http.post("/api/puzzles", data={"file": (io.BytesIO(data), name)},
                     content_type="multipart/form-data", headers=headers)


def gallery(http: Any) -> str:
    answer = http.post("/api/puzzles", json={"gallery": "seed-lee-example"})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def export(http: Any, pid: str, algorithm: str = "bfs") -> Any:
    return http.post(f"/api/puzzles/{pid}/animation", json={"algorithm": algorithm})


def holding_workers(stack: ExitStack, *apps: Flask) -> None:
    """Take every compute slot: exports wait queued until the stack closes."""
    for app in apps:
        budget = services(app).budget
        for _ in range(budget.max_computing):
            stack.enter_context(budget.computing())


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


def test_a_cookie_less_client_s_rate_is_its_address_s() -> None:
    app = make_app(uploads_per_minute=2, clients_per_ip=2)  # 4 a minute for an address
    codes = [post(script(app), maze_text(n), "m.txt").status_code for n in range(5)]
    assert codes == [201, 201, 201, 201, 429]
    refused = post(script(app), maze_text(9), "m.txt")
    assert "at most 4 a minute for this address" in refused.get_json()["error"]
    assert post(script(app, ELSEWHERE), maze_text(9), "m.txt").status_code == 201


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
