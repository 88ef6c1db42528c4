"""``run.py serve`` as production serves it (``server/serving.py``): gunicorn's threaded worker, no
development server; SIGTERM mid-run tells the client and exits at once; ``--redis`` checked at start
and used as Socket.IO's message queue. Each test starts ``run.py serve`` in a subprocess on a free
loopback port and talks to it over HTTP and a real Socket.IO client (websocket, msgpack, as the page)."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import socketio

from server.i18n import t_in
from server.serving import SHUTDOWN_MESSAGE, quiet_close_race
from tests.helpers import ROOT, venv_python

pytest_plugins = ["tests.redis_server"]

MAZE3 = Path("images") / "lee" / "maze3.png"  # under the shared cases: Lee's example, BFS cost 52
OPEN_SIDE = 2000  # an open grid this big: its BFS is 8 M records, many seconds of streaming


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """``run.py serve`` on a free loopback port, its output (stdout and stderr) in ``log_path``; in a
    session of its own, so that a test can send the whole group a signal, as a terminal's Ctrl-C does."""

    def __init__(self, tmp: Path, *args: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"serve-{self.port}.log"
        with self.log_path.open("w") as out:
            self.proc = subprocess.Popen(
                [venv_python(), "run.py", "serve", "--host", "127.0.0.1", "--port", str(self.port), *args],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,
            )

    def worker_pid(self) -> int:
        """gunicorn's worker process (the master is ``proc``), from the log."""
        found = re.search(r"Booting worker with pid: (\d+)", self.log())
        assert found, self.log()
        return int(found.group(1))

    def wait_ready(self, seconds: float = 60.0) -> Served:
        deadline = time.monotonic() + seconds
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"the server exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/health", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer within {seconds:.0f} s:\n{self.log()[-3000:]}")
            time.sleep(0.2)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        with contextlib.suppress(ProcessLookupError):  # a worker left behind by a test that failed
            os.killpg(self.proc.pid, signal.SIGKILL)


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie nobody reaped counts as ended)."""
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start servers with ``serve(*args)``; every one is stopped at the end."""
    started: list[Served] = []

    def start(*args: str) -> Served:
        started.append(Served(tmp_path, *args))
        return started[-1]

    yield start
    for server in started:
        server.stop()


class SocketRun:
    """A python-socketio client (websocket, msgpack, as the page) running one search and acking frames."""

    def __init__(self, url: str) -> None:
        self.client = socketio.Client(serializer="msgpack", reconnection=False)
        self.first_frame = threading.Event()
        self.ended = threading.Event()
        self.result: dict[str, Any] | None = None
        self.errors: list[str] = []
        self.records = 0
        self.client.on("run_frame", self._frame)
        self.client.on("run_done", self._done)
        self.client.on("run_error", self._error)
        self.client.connect(url, transports=["websocket"], wait_timeout=30)

    def _frame(self, msg: dict[str, Any]) -> None:
        self.records += len(msg["kinds"])
        self.first_frame.set()
        self.client.emit("run_ack", {"run": msg["run"], "seq": msg["seq"]})

    def _done(self, msg: dict[str, Any]) -> None:
        self.result = msg["result"]
        self.ended.set()

    def _error(self, msg: dict[str, Any]) -> None:
        self.errors.append(msg["error"])
        self.ended.set()

    def start(self, puzzle: str, algorithm: str = "bfs") -> None:
        answer = self.client.call("run_start", {"run": "r1", "slot": "main", "puzzle": puzzle,
                                                "algorithm": algorithm, "options": {}}, timeout=30)
        assert answer == {"ok": True}, answer

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.disconnect()


def _upload(url: str, filename: str, data: bytes) -> str:
    """``POST /api/puzzles`` (multipart, as the page's file picker sends it); the puzzle's id."""
    boundary = uuid.uuid4().hex
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n")
    body = head.encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(f"{url}/api/puzzles", data=body,
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 201
        return json.load(answer)["id"]


def _open_grid(side: int) -> bytes:
    """A wall-less text maze, ``S`` top-left and ``G`` bottom-right."""
    rows = ["." * side] * side
    rows[0] = "S" + rows[0][1:]
    rows[-1] = rows[-1][:-1] + "G"
    return ("\n".join(rows) + "\n").encode()


def test_serves_with_gunicorn_not_the_development_server(serve):
    server = serve().wait_ready()
    with urllib.request.urlopen(f"{server.url}/", timeout=10) as page:
        assert page.status == 200
        assert b"<html" in page.read().lower()
    with urllib.request.urlopen(f"{server.url}/api/health", timeout=10) as health:
        assert json.load(health)["runs"] == 0
    log = server.log()
    assert "gunicorn" in log.lower()
    assert "development server" not in log.lower()
    assert "WARNING: This is a development server" not in log


@pytest.mark.parametrize("how", ["SIGTERM", "Ctrl-C"])
def test_stopping_mid_run_tells_the_client_and_exits_at_once(serve, how):
    server = serve().wait_ready()
    puzzle = _upload(server.url, "open.txt", _open_grid(OPEN_SIDE))
    run = SocketRun(server.url)
    try:
        run.start(puzzle)
        assert run.first_frame.wait(60), f"no frame; the log:\n{server.log()[-3000:]}"
        t0 = time.monotonic()
        if how == "SIGTERM":
            server.proc.send_signal(signal.SIGTERM)
        else:  # a terminal's Ctrl-C: SIGINT to the master and its worker at once
            os.killpg(server.proc.pid, signal.SIGINT)
        assert run.ended.wait(10), "the client heard nothing of the shutdown"
        assert run.errors == [t_in("en", SHUTDOWN_MESSAGE)]
        assert run.result is None
        assert run.records < 4 * OPEN_SIDE * OPEN_SIDE  # the stream was cut short
        status = server.proc.wait(timeout=15)
        took = time.monotonic() - t0
    finally:
        run.close()
    log = server.log()
    assert status == 0, log[-3000:]
    assert took < 6.0, f"took {took:.1f} s to exit:\n{log[-3000:]}"
    assert _gone(server.worker_pid())
    assert "Traceback" not in log, log[-3000:]
    assert "stopped 1 run(s) in progress" in log


def test_a_worker_whose_master_was_killed_stops_too(serve):
    server = serve().wait_ready()
    puzzle = _upload(server.url, "open.txt", _open_grid(OPEN_SIDE))
    worker = server.worker_pid()
    run = SocketRun(server.url)
    try:
        run.start(puzzle)
        assert run.first_frame.wait(60)
        server.proc.kill()  # SIGKILL: the master cannot pass anything on
        server.proc.wait(timeout=10)
        assert run.ended.wait(10), "the orphaned worker went on streaming"
        assert run.errors == [t_in("en", SHUTDOWN_MESSAGE)]
    finally:
        run.close()
    deadline = time.monotonic() + 8
    while not _gone(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(worker), "the orphaned worker is still running"


def test_redis_that_does_not_answer_stops_the_start(tmp_path):
    url = f"redis://127.0.0.1:{_free_port()}/0"  # nothing listens there
    done = subprocess.run([venv_python(), "run.py", "serve", "--port", str(_free_port()), "--redis", url],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert url in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_redis_url_from_the_environment_is_checked_too(tmp_path):
    url = f"redis://127.0.0.1:{_free_port()}/0"
    done = subprocess.run([venv_python(), "run.py", "serve", "--port", str(_free_port())],
                          cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MAZE_REDIS_URL": url})
    assert done.returncode == 2
    assert url in done.stderr


def test_with_redis_it_solves_maze3_over_the_socket(serve, redis_url, shared_cases):
    server = serve("--redis", redis_url).wait_ready()
    puzzle = _upload(server.url, "maze3.png", (shared_cases / MAZE3).read_bytes())
    run = SocketRun(server.url)
    try:
        run.start(puzzle)
        assert run.ended.wait(60), f"no run_done; the log:\n{server.log()[-3000:]}"
        assert run.errors == []
        assert run.result is not None and run.result["cost"] == 52
        assert run.records > 0
    finally:
        run.close()
    assert "Traceback" not in server.log()


def test_a_frame_setting_that_could_pass_the_limit_is_refused():
    from server.config import MAX_FRAME_RECORDS, Config

    assert Config().frame_records <= MAX_FRAME_RECORDS
    with pytest.raises(ValueError, match="frame_records"):
        Config(frame_records=MAX_FRAME_RECORDS + 1)
    done = subprocess.run([venv_python(), "run.py", "serve", "--port", str(_free_port())],
                          cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MAZE_FRAME_RECORDS": str(10 * MAX_FRAME_RECORDS)})
    assert done.returncode == 2
    assert "frame_records" in done.stderr and "Traceback" not in done.stderr


def _raised_in(filename: str, name: str, error: BaseException) -> threading.ExceptHookArgs:
    """What ``threading.excepthook`` gets for ``error`` raised by a function ``name`` of ``filename``."""
    code = compile(f"def {name}(error):\n    raise error\n", filename, "exec")
    scope: dict = {}
    exec(code, scope)  # a two-line function under a file name of our choosing
    try:
        scope[name](error)
    except BaseException as raised:  # handed on as the hook would get it
        return threading.ExceptHookArgs((type(raised), raised, raised.__traceback__, None))
    raise AssertionError("not raised")


def test_simple_websockets_close_race_is_one_log_line_and_the_rest_passes_on(caplog) -> None:
    passed: list = []
    hook = quiet_close_race(passed.append)
    library = "/venv/lib/python3.11/site-packages/simple_websocket/ws.py"
    with caplog.at_level(logging.INFO, logger="server.serving"):
        hook(_raised_in(library, "close", OSError(errno.EBADF, "Bad file descriptor")))
    assert passed == [] and "closed by its peer" in caplog.text
    # Any other error, or the same error elsewhere, keeps its traceback.
    others = [
        _raised_in(library, "close", OSError(errno.ECONNRESET, "reset")),
        _raised_in(library, "send", OSError(errno.EBADF, "Bad file descriptor")),
        _raised_in("/work/server/live/runs.py", "close", OSError(errno.EBADF, "Bad file descriptor")),
        _raised_in(library, "close", ValueError("not an OSError")),
    ]
    for args in others:
        hook(args)
    assert passed == others
