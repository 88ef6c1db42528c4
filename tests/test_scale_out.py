"""Several server processes on one Redis, all real: a ``redis-server`` and two ``run.py serve --redis``
processes on loopback ports. A puzzle uploaded on A opens and is solved over websockets on B (maze3,
BFS, cost 52); A killed in the middle of a run: its client gets an error, B is unaffected, and A
started again serves the same puzzle. Restarting one process without Redis keeps uploads too (the
embedded disk store)."""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path

import pytest
import socketio

from tests.helpers import ROOT
from tests.serve_process import ServeProcess

pytest_plugins = ["tests.redis_server"]

MAZE3 = ROOT.parent / "shared" / "cases" / "images" / "lee" / "maze3.png"


class SocketRun:
    """A python-socketio client (websocket, msgpack as the page) running one search, acking frames."""

    def __init__(self, url: str) -> None:
        import msgpack  # noqa: F401  (the serializer's dependency)

        self.client = socketio.Client(serializer="msgpack", reconnection=False)
        self.done = threading.Event()
        self.first_frame = threading.Event()
        self.result: dict | None = None
        self.error: str | None = None
        self.records = 0
        self.client.on("run_frame", self._frame)
        self.client.on("run_done", self._done)
        self.client.on("run_error", self._error)
        self.client.on("disconnect", self._disconnected)
        self.client.connect(url, transports=["websocket"])

    def _frame(self, msg) -> None:
        self.records += len(msg["kinds"])
        self.first_frame.set()
        self.client.emit("run_ack", {"run": msg["run"], "seq": msg["seq"]})

    def _done(self, msg) -> None:
        self.result = msg["result"]
        self.done.set()

    def _error(self, msg) -> None:
        self.error = msg.get("error") or "run_error"
        self.done.set()

    def _disconnected(self, *args) -> None:
        if not self.done.is_set():
            self.error = "disconnected"
            self.done.set()

    def start(self, puzzle: str, algorithm: str = "bfs", **options) -> None:
        self.client.emit("run_start", {"run": "r1", "slot": "main", "puzzle": puzzle, "algorithm": algorithm,
                                       "options": options})

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.disconnect()


def _http_json(url: str, body: dict | None = None) -> dict:
    import json
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def _status(url: str) -> int:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code


def _upload(url: str, path: Path) -> str:
    """``POST /api/puzzles`` over HTTP (multipart, as the page's file picker sends it); the new id."""
    import json
    import urllib.request
    import uuid

    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{path.name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n").encode() + path.read_bytes() + \
        f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"{url}/api/puzzles", data=body,
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 201
        return json.load(answer)["id"]


@pytest.fixture
def two_servers(redis_url, tmp_path):
    a = ServeProcess(tmp_path, "a", "--redis", redis_url)
    b = ServeProcess(tmp_path, "b", "--redis", redis_url)
    a.env["MAZE_STORE_DIR"] = str(tmp_path / "store-a")
    b.env["MAZE_STORE_DIR"] = str(tmp_path / "store-b")
    a.start()
    b.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_upload_on_one_process_solve_on_the_other(two_servers, shared_cases):
    a, b = two_servers
    puzzle = _upload(a.url, MAZE3)
    assert _http_json(f"{b.url}/api/puzzles/{puzzle}")["id"] == puzzle
    run = SocketRun(b.url)
    try:
        run.start(puzzle, "bfs")
        assert run.done.wait(60), "no run_done from B"
        assert run.error is None, run.error
        assert run.result["cost"] == 52
    finally:
        run.close()


def test_a_process_killed_mid_run_the_other_goes_on_and_it_comes_back(two_servers, tmp_path, shared_cases):
    a, b = two_servers
    # A large board: its BFS streams for a few seconds at least.
    big = _http_json(f"{a.url}/api/generate", {"kind": "random", "rows": 1500, "cols": 1500, "seed": 3})["id"]
    maze3 = _upload(a.url, MAZE3)
    on_a, on_b = SocketRun(a.url), SocketRun(b.url)
    try:
        on_a.start(big, "bfs")
        assert on_a.first_frame.wait(60), "A sent no frame"
        a.kill()
        assert on_a.done.wait(20), "the client of the killed process was not told"
        assert on_a.error is not None
        # B is unaffected: the same big run completes there, and maze3 too.
        on_b.start(maze3, "bfs")
        assert on_b.done.wait(60) and on_b.error is None, on_b.error
        assert on_b.result["cost"] == 52
    finally:
        on_a.close()
        on_b.close()
    # A again, on the same port: the puzzle uploaded before the kill is served (from Redis).
    a.start()
    assert _status(f"{a.url}/api/puzzles/{maze3}") == 200
    assert _status(f"{a.url}/api/puzzles/{big}") == 200
    again = SocketRun(a.url)
    try:
        again.start(maze3, "bfs")
        assert again.done.wait(60) and again.error is None, again.error
        assert again.result["cost"] == 52
    finally:
        again.close()


def test_an_upload_outlives_a_restart_without_redis(tmp_path, shared_cases):
    server = ServeProcess(tmp_path, "alone")
    server.env["MAZE_STORE_DIR"] = str(tmp_path / "store")
    server.start()
    try:
        puzzle = _upload(server.url, MAZE3)
    finally:
        server.stop()
    server.start()
    try:
        assert _status(f"{server.url}/api/puzzles/{puzzle}") == 200
        assert _status(f"{server.url}/?puzzle={puzzle}") == 200
    finally:
        server.stop()


def test_runs_stream_on_while_redis_is_away(tmp_path, shared_cases):
    """Redis stopped in the middle of a run: the run (whose client is on this process) streams to its
    end; with Redis back, an upload is archived and shared again."""
    from tests.redis_server import RedisServer

    redis = RedisServer(tmp_path)
    redis.start()
    server = ServeProcess(tmp_path, "alone", "--redis", redis.url)
    server.env["MAZE_STORE_DIR"] = str(tmp_path / "store")
    server.start()
    try:
        board = {"kind": "random", "rows": 1500, "cols": 1500, "seed": 4}
        big = _http_json(f"{server.url}/api/generate", board)["id"]
        run = SocketRun(server.url)
        try:
            run.start(big, "bfs")
            assert run.first_frame.wait(60), "no frame"
            redis.stop()
            assert run.done.wait(60), "the run stalled without Redis"
            assert run.error is None, run.error
            assert run.result["found"]
        finally:
            run.close()
        # Without Redis an upload still answers (kept in this process's memory) …
        maze3 = _upload(server.url, MAZE3)
        assert _status(f"{server.url}/api/puzzles/{maze3}") == 200
        # … and a new run on it streams.
        again = SocketRun(server.url)
        try:
            again.start(maze3, "bfs")
            assert again.done.wait(60) and again.error is None, again.error
            assert again.result["cost"] == 52
        finally:
            again.close()
    finally:
        server.stop()
        redis.stop()
    assert "Traceback" not in server.log()
