#!/usr/bin/env python3
"""Load test: many real Socket.IO clients against a real server in a subprocess.

    .venv/bin/python scripts/load_test.py                  # 50 clients, BFS of the gallery's 999 x 999 maze
    .venv/bin/python scripts/load_test.py --clients 8 --json

Phases, each against the same ``run.py serve`` subprocess on a free port:

1. warm-up: one client streams the run once (numba's kernels load; Socket.IO starts its service
   thread and the server its search watchdog, both for good); then as many sockets as the load and
   the tabs will open connect at once and leave (gunicorn's threaded worker keeps the pool of
   threads they took, to reuse); then the server idles and its thread count is the **baseline**.
   RSS and threads are those of the serving process: gunicorn's worker, the child of ``run.py serve``;
2. load: ``--clients`` clients (python-socketio's client, msgpack, WebSocket transport) each start a
   run of ``--algorithm`` on the gallery's 999 × 999 maze (of several, the one with the most free
   cells), acknowledge every frame, check every record arrived, and leave as soon as ``run_done``
   comes; meanwhile ``GET /`` is probed every 200 ms and the server's RSS and threads are read from
   ``/proc/<pid>/status`` every 50 ms;
3. after they leave: how long until the server's threads are back to the baseline (and, with
   ``GET /api/health``, its unfinished runs back to 0);
4. closed tabs: ``--tabs`` clients start a run and leave right after its ack; how long until
   the server has no unfinished run and its threads are back to their count before the tabs;
5. fake acks: a client sends 500 ``run_ack`` messages (seq 0..499; then another client seq 0 500
   times) right after its run_start ack, before any frame, and never acknowledges for real; how
   many frames it receives in 2 s (the target: at most ``Config.frame_window``). So that the acks
   are handled before the first frame can leave, every compute slot is kept busy meanwhile by
   HTTP solves of a large open grid (``--no-hold``: not); a try where a frame still came first is
   marked racy and repeated.

The peak RSS is the server's VmHWM read right after phase 2 (phase 5's blockers raise it later).
A leaving client sends Socket.IO's and Engine.IO's goodbyes and closes its WebSocket without
waiting for the server's close frame (as a closing tab does); "after they leave" counts from then.

With ``--processes N`` (N ≥ 2) it measures scaling out instead: N ``run.py serve --redis URL``
processes on one Redis (``--redis URL``, else a ``redis-server`` it starts on a free loopback port),
the puzzle opened on the first, ``--clients`` clients spread over the processes in turn, each streaming
the whole run; it reports how many finished, their times, each process's peak RSS and what Redis
held and passed on (its peak memory, pub/sub messages), then kills one process and checks that a run
on another still completes.

It prints a table of the figures with the issue's targets, and with ``--json`` one JSON line at the
end (``tests/test_load.py`` parses it). Exit status: 0 when every target is met, 1 when one is not,
2 when the test itself could not run (the server did not start, no 999 × 999 gallery maze).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import math
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import socketio

ROOT = Path(__file__).resolve().parent.parent
MAZE_SIZE = 999  # the gallery maze streamed: the one whose width and height are this
FAKE_ACKS = 500
FAKE_ACK_WATCH = 2.0  # seconds a fake-ack client watches for frames
# The open grids whose searches keep the compute slots busy in the fake-ack phase: the first, and a
# larger one for each try in which a frame still came before the fake acks were handled.
BLOCKER_SIDES = (4000, 5000, 6000)
CLOSE_WAIT = 0.2  # seconds a leaving client waits for the server's WebSocket close frame
PROBE_EVERY = 0.2
SAMPLE_EVERY = 0.05
SETTLE_LIMIT = 30.0  # seconds to wait for the server to settle before giving up on a figure (--settle)
PAUSE_LIMIT = 3.0  # seconds to let it settle between phases (each phase measures from its own start)

# The targets (issue 8, point 7)
TARGET_PEAK_RSS_MB = 1024
TARGET_THREADS_BACK_S = 2.0
TARGET_PROBE_MAX_S = 1.0
TARGET_TABS_FREED_S = 1.0


def config_value(name: str, default: int) -> int:
    """A field of this checkout's ``server.config.Config`` (``default`` if it cannot be read)."""
    try:
        sys.path.insert(0, str(ROOT))
        from server.config import Config

        return int(getattr(Config(), name))
    except Exception:
        return default
    finally:
        if sys.path and sys.path[0] == str(ROOT):
            sys.path.pop(0)


# ---- the server and what /proc says about it ----------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (bytes) and Threads of a process, from /proc/<pid>/status."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) * 1024
            elif key == "Threads":
                out[key] = int(value)
    return out


def worker_pid(pid: int) -> int | None:
    """The one child of ``pid`` (gunicorn's worker under ``run.py serve``), or None without one."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def server_tree() -> str:
    """Which server was measured: the commit plus a hash of the working tree's server/ files."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "server", "run.py"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        head, dirty = "?", []
    digest = hashlib.sha256()
    for path in sorted((ROOT / "server").rglob("*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    changed = sum(1 for line in dirty if line.strip())
    return f"{head or '?'}" + (f" + {changed} uncommitted change(s) in server/" if changed else "") + \
        f" (server/*.py sha256 {digest.hexdigest()[:12]})"


class Server:
    """``run.py serve`` in a subprocess on a free port; stopped on exit."""

    def __init__(self, port: int | None = None, start_timeout: float = 90.0,
                 args: tuple[str, ...] = ()) -> None:
        self.port = port or free_port()
        self.args = args  # more `run.py serve` flags (e.g. --redis URL)
        self.url = f"http://127.0.0.1:{self.port}"
        self.start_timeout = start_timeout
        # open for the server's whole life (closed in __exit__); kept on disk if the server died
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115
            "w+", prefix="load-test-server-", suffix=".log", delete=False)
        self.died = False
        self.proc: subprocess.Popen | None = None
        self._worker: int | None = None
        self.killed = False  # the test killed it on purpose

    def __enter__(self) -> Server:
        self.proc = subprocess.Popen(
            [python(), "run.py", "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.args],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            start_new_session=True,  # a process group of its own: killpg takes gunicorn's worker too
        )
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self.proc.poll() is not None:
                raise SetupError(f"the server exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                status, _ = http_get(f"{self.url}/api/algorithms", timeout=2)
                if status == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SetupError(f"the server did not answer within {self.start_timeout:.0f} s:\n"
                                 f"{self.log_tail()}")
            time.sleep(0.2)

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None:
            self.died = self.proc.poll() is not None
            if not self.died:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        self.log.close()
        if self.died and not self.killed:
            print(f"load_test: the server exited on its own; its log: {self.log.name}", file=sys.stderr)
        else:
            Path(self.log.name).unlink(missing_ok=True)

    @property
    def pid(self) -> int:
        """The process that serves: gunicorn's worker (the child of ``run.py serve``), else that process."""
        assert self.proc is not None
        if self._worker is None:
            deadline = time.monotonic() + 10
            while self._worker is None and time.monotonic() < deadline:
                self._worker = worker_pid(self.proc.pid)
                if self._worker is None:
                    time.sleep(0.05)
        return self._worker or self.proc.pid

    def status(self) -> dict[str, int]:
        return proc_status(self.pid)

    def threads(self) -> int:
        return self.status()["Threads"]

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return Path(self.log.name).read_text(errors="replace")[-chars:]
        except OSError:
            return ""


class SetupError(Exception):
    """The load test could not run at all."""


def http_get(url: str, timeout: float = 5.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def http_json(url: str, body: Any = None, timeout: float = 30.0, cookie: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    request = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        return json.load(answer)


def health(url: str) -> dict[str, Any] | None:
    """``GET /api/health``, or None while the server has none."""
    try:
        status, body = http_get(f"{url}/api/health", timeout=5)
    except OSError:
        return None
    if status != 200:
        return None
    try:
        answer = json.loads(body)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


class Sampler(threading.Thread):
    """Reads the server's /proc status every ``SAMPLE_EVERY`` s: (time, rss, hwm, threads)."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True, name="proc-sampler")
        self.pid = pid
        self.samples: list[tuple[float, int, int, int]] = []
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            try:
                s = proc_status(self.pid)
            except OSError:
                return
            self.samples.append((time.monotonic(), s.get("VmRSS", 0), s.get("VmHWM", 0), s["Threads"]))
            self._halt.wait(SAMPLE_EVERY)

    def stop(self) -> None:
        self._halt.set()
        self.join()

    def between(self, t0: float, t1: float) -> list[tuple[float, int, int, int]]:
        return [s for s in self.samples if t0 <= s[0] <= t1]


class Prober(threading.Thread):
    """``GET /`` every ``PROBE_EVERY`` s; each answer's latency (a failure counts as its time)."""

    def __init__(self, url: str, timeout: float = 10.0) -> None:
        super().__init__(daemon=True, name="page-prober")
        self.url = url
        self.timeout = timeout
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            t0 = time.monotonic()
            try:
                status, _ = http_get(self.url + "/", timeout=self.timeout)
                if status != 200:
                    self.failures.append(f"status {status}")
            except OSError as err:
                self.failures.append(f"{type(err).__name__}: {err}")
            took = time.monotonic() - t0
            self.latencies.append(took)
            self._halt.wait(max(0.0, PROBE_EVERY - took))

    def stop(self) -> None:
        self._halt.set()
        self.join()


# ---- one client -----------------------------------------------------------------------------------------
@dataclass
class Outcome:
    """What one client saw of its run."""

    run: str
    frames: int = 0
    records: int = 0  # records in the frames received (len of each frame's kinds)
    done_records: int | None = None  # run_done's `records`
    result: dict[str, Any] | None = None
    error: str | None = None
    statuses: int = 0
    starts: list[int] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    sizes: dict[int, int] = field(default_factory=dict)  # records in each frame, by seq
    max_unacked: int = 0  # frames received minus acks sent, at most
    t_start: float = 0.0
    t_acked: float | None = None
    t_first_frame: float | None = None
    t_done: float | None = None

    @property
    def seconds(self) -> float | None:
        return None if self.t_done is None else self.t_done - self.t_start

    def problems(self, expected_records: int | None) -> list[str]:
        """Why this run does not count as a complete, correct stream (empty: it does)."""
        out = []
        if self.error:
            out.append(f"error: {self.error}")
        if self.t_done is None:
            out.append("no run_done")
            return out
        if self.done_records != self.records:
            out.append(f"run_done says {self.done_records} records, the frames held {self.records}")
        if expected_records is not None and self.records != expected_records:
            out.append(f"{self.records} records, expected {expected_records}")
        position = 0
        for start, seq in sorted(zip(self.starts, self.seqs, strict=True)):
            if start != position:
                out.append(f"frame seq {seq} starts at {start}, expected {position}")
                break
            position = start + self.sizes.get(seq, 0)
        if sorted(self.seqs) != list(range(len(self.seqs))):
            out.append("frame seqs are not 0..n-1")
        if not (isinstance(self.result, dict) and self.result.get("found")):
            out.append("run_done's result found no path")
        return out


def page_cookie(url: str) -> str:
    """The session cookie ``GET /`` gives a browser (``name=value``; "" without one)."""
    with urllib.request.urlopen(f"{url}/", timeout=30) as answer:
        cookies = answer.headers.get_all("Set-Cookie") or []
    return "; ".join(cookie.split(";")[0] for cookie in cookies)


class Client:
    """One python-socketio client: WebSocket transport, msgpack, one run at a time."""

    def __init__(self, url: str, run_id: str, ack: bool = True) -> None:
        self.url = url
        self.ack = ack
        self.out = Outcome(run_id)
        self.done = threading.Event()
        self.acks_sent = 0
        self.first_frame = threading.Event()
        self.on_done: Callable[[Client], None] | None = None
        self.t_leave: float | None = None
        self.leaving: threading.Thread | None = None
        self.answers = 0  # answers to the acks sent with send_acks
        self.t_answered: float | None = None  # when the last of them arrived
        self._answered = threading.Event()
        self._lock = threading.Lock()
        self.sio = socketio.Client(reconnection=False, serializer="msgpack")
        self.sio.on("run_frame", self._frame)
        self.sio.on("run_done", self._done)
        self.sio.on("run_error", self._error)
        self.sio.on("run_status", self._status)
        self.sio.on("disconnect", self._disconnected)

    def connect(self, timeout: float = 30.0) -> None:
        """Connect as a browser does: with the session cookie its page load gave it (without one, every
        client of this machine would be one client, its address's, capped at its runs at once)."""
        self.sio.connect(self.url, transports=["websocket"], wait_timeout=timeout,
                         headers={"Cookie": page_cookie(self.url)})

    def disconnect(self) -> None:
        ws = getattr(self.sio.eio, "ws", None)
        if ws is not None and not isinstance(ws.close, functools.partial):
            # websocket-client waits up to 3 s for the server's close frame, which this server does not
            # send (werkzeug reads the client's close frame as a bad HTTP request); meanwhile the
            # connection, and the server's thread serving it, stay open. A closing tab does not wait.
            ws.close = functools.partial(ws.close, timeout=CLOSE_WAIT)
        with contextlib.suppress(Exception):  # already gone
            self.sio.disconnect()

    def leave(self) -> None:
        """Close the connection as a tab does, without waiting: the Socket.IO and Engine.IO goodbyes
        go out at once, while websocket-client's close handshake (which may wait up to 3 s for the
        server's close frame) finishes in a thread of its own. ``t_leave`` is when it started."""
        if self.t_leave is None:
            self.t_leave = time.monotonic()
            leaving = threading.Thread(target=self.disconnect, daemon=True, name=f"leave-{self.out.run}")
            leaving.start()
            self.leaving = leaving  # only once started: join() may run in another thread meanwhile

    def join(self, timeout: float = 10.0) -> None:
        if self.leaving is not None:
            self.leaving.join(timeout)

    def start(self, puzzle: str, algorithm: str, slot: str = "main") -> None:
        """Emit run_start; the ack arrives later (``out.t_acked``, or ``out.error`` when refused)."""
        self.out.t_start = time.monotonic()
        message = {"run": self.out.run, "slot": slot, "puzzle": puzzle, "algorithm": algorithm,
                   "options": {}}
        self.sio.emit("run_start", message, callback=self._acked)

    def start_and_wait(self, puzzle: str, algorithm: str, timeout: float = 30.0) -> bool:
        """run_start and wait for its ack; True when the server took the run."""
        self.out.t_start = time.monotonic()
        message = {"run": self.out.run, "slot": "main", "puzzle": puzzle, "algorithm": algorithm,
                   "options": {}}
        try:
            answer = self.sio.call("run_start", message, timeout=timeout)
        except Exception as err:
            self.out.error = f"run_start: {type(err).__name__}: {err}"
            return False
        self._acked(answer)
        return self.out.error is None

    def send_acks(self, seqs: list[int], timeout: float = 10.0) -> bool:
        """Send ``run_ack`` for each of ``seqs``, asking for an answer to each; True once the server
        has answered them all (each answer leaves after the server handled that ack)."""
        expected = len(seqs)

        def answered(*_: Any) -> None:
            with self._lock:
                self.answers += 1
                if self.answers == expected:
                    self.t_answered = time.monotonic()
                    self._answered.set()

        for seq in seqs:
            self.sio.emit("run_ack", {"run": self.out.run, "seq": seq}, callback=answered)
        return self._answered.wait(timeout)

    # -- handlers (python-socketio runs each in a thread of its own) -----------------------------------
    def _acked(self, answer: Any = None, *_: Any) -> None:
        self.out.t_acked = time.monotonic()
        if not (isinstance(answer, dict) and answer.get("ok")):
            self._fail(f"run_start refused: {answer!r}")

    def _frame(self, message: dict[str, Any]) -> None:
        if message.get("run") != self.out.run:
            return
        n = len(message["kinds"])
        problem = None
        if len(message["cells"]) != 4 * n or len(message["values"]) != 4 * n:
            problem = f"frame seq {message.get('seq')}: column lengths {n}/{len(message['cells'])}/" \
                      f"{len(message['values'])}"
        with self._lock:
            o = self.out
            o.frames += 1
            o.records += n
            o.starts.append(int(message["start"]))
            o.seqs.append(int(message["seq"]))
            o.sizes[int(message["seq"])] = n
            if o.t_first_frame is None:
                o.t_first_frame = time.monotonic()
            o.max_unacked = max(o.max_unacked, o.frames - self.acks_sent)
            if self.ack:
                self.acks_sent += 1
        self.first_frame.set()
        if problem:
            self._fail(problem)
        if self.ack:
            self.sio.emit("run_ack", {"run": self.out.run, "seq": message["seq"]})

    def _done(self, message: dict[str, Any]) -> None:
        if message.get("run") != self.out.run:
            return
        self.out.done_records = message.get("records")
        self.out.result = message.get("result")
        self.out.t_done = time.monotonic()
        self._finish()

    def _error(self, message: dict[str, Any]) -> None:
        if message.get("run") == self.out.run:
            self._fail(f"run_error: {message.get('error')}")

    def _status(self, message: dict[str, Any]) -> None:
        if message.get("run") == self.out.run:
            self.out.statuses += 1

    def _disconnected(self, *_: Any) -> None:
        if not self.done.is_set():
            self._fail("disconnected before run_done")

    def _fail(self, error: str) -> None:
        if self.out.error is None:
            self.out.error = error
        self._finish()

    def _finish(self) -> None:
        if not self.done.is_set():
            self.done.set()
            if self.on_done is not None:
                self.on_done(self)


# ---- helpers --------------------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def gallery_maze(url: str, size: int = MAZE_SIZE) -> tuple[dict[str, Any], str]:
    """The gallery maze whose width and height are ``size`` (chosen by size, not by name; of several,
    the one with the most free cells: the longest trace) and its puzzle id."""
    entries = http_json(f"{url}/api/gallery")
    best = None
    for entry in entries:
        if entry.get("width") == size and entry.get("height") == size:
            puzzle = http_json(f"{url}/api/puzzles", {"gallery": entry["name"]})["id"]
            status, cells = http_get(f"{url}/api/puzzles/{puzzle}/cells", timeout=30)
            free = len(cells) - cells.count(0) if status == 200 else 0
            if best is None or free > best[0]:
                best = (free, entry, puzzle)
    if best is None:
        raise SetupError(f"no {size} x {size} maze in the gallery: "
                         f"{[(e.get('name'), e.get('width'), e.get('height')) for e in entries]}")
    return best[1], best[2]


def idle_threads(server: Server, seconds: float = 1.0) -> int:
    """The server's thread count at rest: the least of samples over ``seconds``."""
    counts = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        counts.append(server.threads())
        time.sleep(0.05)
    return min(counts)


def wait_settled(server: Server, threads: int, since: float, limit: float = SETTLE_LIMIT,
                 use_health: bool = True) -> dict[str, Any]:
    """Wait until the server's threads are at most ``threads`` and (with a health endpoint) no run
    is left; the seconds from ``since`` to each, None when not within ``limit``."""
    t_threads = t_runs = None
    last_runs = None
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        now = time.monotonic()
        count = server.threads()  # read before the health request, whose own thread would count
        if t_threads is None and count <= threads:
            t_threads = now - since
        if use_health and t_runs is None:
            h = health(server.url)
            if h is None or "runs" not in h:
                use_health = False
            else:
                last_runs = h["runs"]
                if last_runs == 0:
                    t_runs = time.monotonic() - since
        if t_threads is not None and (t_runs is not None or not use_health):
            break
        time.sleep(0.02)
    return {
        "threads_s": t_threads, "runs_s": t_runs if use_health else None,
        "threads_now": server.threads(), "runs_now": last_runs if t_runs is None else 0,
        "health": use_health,
    }


def rounded(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(value, digits)


# ---- the phases -----------------------------------------------------------------------------------------
def prefill_pool(url: str, connections: int) -> int:
    """Open ``connections`` sockets at once, then close them: gunicorn's threaded worker keeps a pool
    of threads (at most ``serve --threads``) that it reuses and never ends, so the baseline must count
    the pool the load will use; any thread past it after the load is one the server failed to free."""
    crowd = [Client(url, f"pool-{i}") for i in range(connections)]
    opened = 0
    for client in crowd:
        with contextlib.suppress(Exception):
            client.connect()
            opened += 1
    time.sleep(0.5)
    for client in crowd:
        client.disconnect()
    return opened


def warm_up(url: str, puzzle: str, algorithm: str, timeout: float) -> Outcome:
    client = Client(url, "warm-up")
    client.connect()
    try:
        client.start(puzzle, algorithm)
        if not client.done.wait(timeout):
            raise SetupError(f"the warm-up run did not finish within {timeout:.0f} s")
    finally:
        client.disconnect()
    if client.out.error or client.out.t_done is None:
        raise SetupError(f"the warm-up run failed: {client.out.error}")
    return client.out


def load_phase(server: Server, puzzle: str, algorithm: str, clients: int, timeout: float,
               expected: int) -> dict[str, Any]:
    """``clients`` clients stream a run each, acknowledging every frame, and leave when done."""
    crowd = [Client(server.url, f"load-{i}") for i in range(clients)]
    t_connect = time.monotonic()
    for client in crowd:
        client.on_done = Client.leave  # each client leaves as soon as its run is done (or failed)
        try:
            client.connect()
        except Exception as err:
            client._fail(f"connect: {type(err).__name__}: {err}")
    connect_s = time.monotonic() - t_connect
    t0 = time.monotonic()
    for client in crowd:
        if client.out.error is None:
            client.start(puzzle, algorithm)
    deadline = t0 + timeout
    for client in crowd:
        if not client.done.wait(max(0.0, deadline - time.monotonic())):
            client._fail(f"no run_done within {timeout:.0f} s")
    t_left = max(c.t_leave or t0 for c in crowd)  # the last one leaving ends the phase
    outcomes = [c.out for c in crowd]
    problems = {o.run: o.problems(expected) for o in outcomes}
    seconds = [o.seconds for o in outcomes if o.seconds is not None]
    return {
        "t0": t0, "t_left": t_left, "crowd": crowd,
        "connect_s": round(connect_s, 3),
        "clients": clients,
        "finished": sum(1 for p in problems.values() if not p),
        "problems": {run: p for run, p in problems.items() if p},
        "time_to_done_s": {
            "min": rounded(min(seconds, default=None)), "median": rounded(statistics.median(seconds))
            if seconds else None,
            "p95": rounded(percentile(seconds, 95)), "max": rounded(max(seconds, default=None)),
        },
        "wall_s": round(t_left - t0, 3),
        "frames_per_run": max((o.frames for o in outcomes), default=0),
        "max_unacked": max((o.max_unacked for o in outcomes), default=0),
        "records_total": sum(o.records for o in outcomes),
    }


def closed_tabs(server: Server, puzzle: str, algorithm: str, tabs: int, settle: float = SETTLE_LIMIT
                ) -> dict[str, Any]:
    """``tabs`` clients start a run and leave right after its ack; how long until the server has no
    unfinished run and no more threads than just before they came."""
    before = idle_threads(server, 0.5)
    crowd = [Client(server.url, f"tab-{i}", ack=False) for i in range(tabs)]
    for client in crowd:
        client.connect()
    started = [False] * tabs

    def tab(i: int) -> None:
        started[i] = crowd[i].start_and_wait(puzzle, algorithm)
        crowd[i].leave()

    workers = [threading.Thread(target=tab, args=(i,), daemon=True) for i in range(tabs)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    since = max(c.t_leave or time.monotonic() for c in crowd)
    settled = wait_settled(server, before, since, limit=settle)
    for client in crowd:
        client.join()
    freed = None
    if settled["threads_s"] is not None and (settled["runs_s"] is not None or not settled["health"]):
        freed = max(settled["threads_s"], settled["runs_s"] or 0.0)
    return {
        "tabs": tabs, "started": sum(started), "threads_before": before,
        "errors": [c.out.error for c in crowd if c.out.error and "before run_done" not in c.out.error],
        "runs_freed_s": rounded(settled["runs_s"]), "threads_freed_s": rounded(settled["threads_s"]),
        "freed_s": rounded(freed), "threads_now": settled["threads_now"], "runs_now": settled["runs_now"],
    }


def upload_text(url: str, filename: str, text: str) -> dict[str, Any]:
    """``POST /api/puzzles`` with a text maze as a multipart upload."""
    boundary = uuid.uuid4().hex
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            f"Content-Type: text/plain\r\n\r\n{text}\r\n--{boundary}--\r\n").encode()
    request = urllib.request.Request(f"{url}/api/puzzles", data=body,
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


class ComputeHold:
    """Every compute slot of the server busy for a second or two: ``slots`` HTTP solves (no trace,
    so 5 bytes a cell) of an open square text grid, a few kB upload (short lines are padded with free
    cells). A run started meanwhile waits its turn, so nothing it streams can come before the client's
    next messages have been handled. ``grow()`` moves to the next, larger grid of BLOCKER_SIDES."""

    def __init__(self, url: str, slots: int) -> None:
        self.url = url
        self.slots = slots
        self.errors: list[str] = []
        self.size = 0
        self.threads: list[threading.Thread] = []
        self._upload()

    def _upload(self) -> None:
        n = self.side = BLOCKER_SIDES[self.size]
        text = "S" + "." * (n - 1) + "\n" + "\n" * (n - 2) + "." * (n - 1) + "G\n"
        self.puzzle = upload_text(self.url, f"load-test-open-{n}.txt", text)["id"]

    def grow(self) -> None:
        if self.size + 1 < len(BLOCKER_SIDES):
            self.size += 1
            self._upload()

    def _solve(self) -> None:
        try:  # each from a browser of its own: one client may hold all the server's slots but one
            http_json(f"{self.url}/api/puzzles/{self.puzzle}/solve", {"algorithm": "bfs"}, timeout=120,
                      cookie=page_cookie(self.url))
        except Exception as err:
            self.errors.append(f"{type(err).__name__}: {err}")

    def __enter__(self) -> ComputeHold:
        self.threads = [threading.Thread(target=self._solve, daemon=True) for _ in range(self.slots)]
        for thread in self.threads:
            thread.start()
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:  # until the health endpoint sees every slot taken
            h = health(self.url)
            if h is None or "computing" not in h:
                time.sleep(0.2)
                break
            if h["computing"] >= self.slots:
                break
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: Any) -> None:
        for thread in self.threads:
            thread.join(120)


def fake_acks(server: Server, puzzle: str, algorithm: str, seqs: list[int], name: str,
              hold: ComputeHold | None, attempts: int = 3) -> dict[str, Any]:
    """A client acknowledges ``seqs`` right after its run_start ack, before any frame, and never for
    real; the frames it receives in ``FAKE_ACK_WATCH`` s.

    The figure only means something when the server handled the fake acks before it sent a frame
    (an ack of a frame already sent is a real one, as far as the server can tell). A search of the
    999 maze takes ~30 ms and 500 acks ~200 ms to handle, so the run is started while ``hold`` keeps
    every compute slot busy. Each ack asks for an answer; a try in which a frame arrived before the
    last answer is *racy* and is repeated with a longer hold, up to ``attempts`` tries (the last one
    is reported)."""
    tries = []
    client = None
    for attempt in range(attempts):
        client = Client(server.url, f"fake-{name}-{attempt}", ack=False)
        client.connect()
        try:
            with hold or contextlib.nullcontext():
                if not client.start_and_wait(puzzle, algorithm):
                    return {"error": client.out.error, "frames": None}
                all_answered = client.send_acks(seqs)
                frames_before = client.out.frames  # frames that arrived before the acks' answers
                first = client.out.t_first_frame
                racy = frames_before > 0 or (first is not None and client.t_answered is not None
                                             and first < client.t_answered)
            client.first_frame.wait(10.0)
            time.sleep(FAKE_ACK_WATCH)
            result = {
                "acks": len(seqs), "frames": client.out.frames, "racy": racy,
                "frames_before_acks_handled": frames_before,
                "answers": client.answers, "all_answered": all_answered,
                "acks_handled_s": rounded(None if client.t_answered is None
                                          else client.t_answered - client.out.t_acked),
                "first_frame_s": rounded(None if client.out.t_first_frame is None
                                         else client.out.t_first_frame - client.out.t_acked),
                "hold_errors": hold.errors[:3] if hold else [],
                "error": client.out.error if client.out.error and "before run_done" not in client.out.error
                else None,
            }
        finally:
            client.leave()
        result["hold_side"] = hold.side if hold else None
        tries.append(result)
        wait_settled(server, 10**9, time.monotonic(), limit=5.0)  # its run gone before the next try
        if not racy:
            break
        if hold is not None:
            hold.grow()
    if client is not None:
        client.join()
    return {**tries[-1], "tries": len(tries), "racy_tries": sum(1 for t in tries if t["racy"])}


# ---- the whole test -------------------------------------------------------------------------------------
def run_load_test(clients: int = 50, algorithm: str = "bfs", port: int | None = None, timeout: float = 300.0,
                  tabs: int = 10, window: int | None = None, hold_compute: bool = True,
                  settle: float = SETTLE_LIMIT,
                  log: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    try:
        import websocket  # noqa: F401  (websocket-client: python-socketio's client needs it for WebSocket)
    except ImportError as err:
        raise SetupError("the websocket-client package is missing: "
                         "pip install -r requirements-dev.txt") from err
    window = config_value("frame_window", 4) if window is None else window
    report: dict[str, Any] = {
        "clients": clients, "algorithm": algorithm, "window": window, "settle_s": settle,
        "server_tree": server_tree(), "cores": os.cpu_count(),
    }
    with Server(port) as server:
        report["port"] = server.port
        fresh = idle_threads(server, 0.5)
        report["health_endpoint"] = health(server.url) is not None
        maze, puzzle = gallery_maze(server.url)
        report["maze"] = {"name": maze["name"], "width": maze["width"], "height": maze["height"]}
        log(f"server pid {server.pid} on port {server.port}; maze {maze['name']}; warming up")

        warm = warm_up(server.url, puzzle, algorithm, timeout)
        expected = warm.records
        report["records_per_run"] = expected
        report["warm_up_s"] = rounded(warm.seconds)
        report["pool_prefilled"] = prefill_pool(server.url, clients + tabs)
        time.sleep(1.0)
        baseline = idle_threads(server, 1.0)
        rss0 = server.status()["VmRSS"]
        report["threads"] = {"fresh": fresh, "baseline": baseline}
        log(f"{expected:,} records a run; threads fresh {fresh}, baseline {baseline}; {clients} clients")

        sampler = Sampler(server.pid)
        sampler.start()
        prober = Prober(server.url)
        prober.start()
        try:
            load = load_phase(server, puzzle, algorithm, clients, timeout, expected)
        finally:
            prober.stop()
        log(f"load done in {load['wall_s']:.1f} s; waiting for the server to settle")
        settled = wait_settled(server, baseline, load["t_left"], limit=settle)
        for client in load["crowd"]:
            client.join()
        during = sampler.between(load["t0"], load["t_left"])
        after = sampler.between(load["t_left"], load["t_left"] + 2.0)
        status = server.status()
        report["load"] = {k: v for k, v in load.items() if k not in ("t0", "t_left", "crowd")}
        report["rss"] = {
            "baseline_mb": round(rss0 / 2**20, 1),
            "peak_mb": round(status["VmHWM"] / 2**20, 1),  # VmHWM: the process's peak RSS
            "max_sampled_mb": round(max((s[1] for s in during), default=0) / 2**20, 1),
            "after_mb": round(status["VmRSS"] / 2**20, 1),
        }
        report["threads"].update({
            "peak": max((s[3] for s in during), default=None),
            "back_to_baseline_s": rounded(settled["threads_s"]),
            "at_leave_2s": after[-1][3] if after else None,  # the last sample within 2 s of leaving
            "after_leave": settled["threads_now"],  # when the wait above ended
        })
        report["runs_freed_s"] = rounded(settled["runs_s"])
        report["probe"] = {
            "count": len(prober.latencies),
            "max_s": rounded(max(prober.latencies, default=None)),
            "median_s": rounded(statistics.median(prober.latencies) if prober.latencies else None),
            "failures": prober.failures[:5], "failure_count": len(prober.failures),
        }

        log(f"closed tabs ({tabs})")
        wait_settled(server, baseline, time.monotonic(), limit=PAUSE_LIMIT)
        report["closed_tabs"] = closed_tabs(server, puzzle, algorithm, tabs, settle)

        log("fake acks")
        wait_settled(server, baseline, time.monotonic(), limit=PAUSE_LIMIT)
        hold = ComputeHold(server.url, config_value("max_concurrent_runs", 4)) if hold_compute else None
        report["fake_acks"] = {
            "distinct": fake_acks(server, puzzle, algorithm, list(range(FAKE_ACKS)), "distinct", hold),
            "repeated": fake_acks(server, puzzle, algorithm, [0] * FAKE_ACKS, "repeated", hold),
            "compute_held": hold is not None,
        }
        report["fake_acks"]["frames_in_run"] = load["frames_per_run"]
        final = wait_settled(server, baseline, time.monotonic(), limit=PAUSE_LIMIT)
        report["threads"]["final"] = final["threads_now"]
        sampler.stop()
        report["server_log_tail"] = server.log_tail(1500) if server.proc.poll() is not None else None
    report["checks"] = checks(report)
    return report


class RedisProcess:
    """A ``redis-server`` on a free loopback port for the scale-out run (Debian's package)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = tempfile.mkdtemp(prefix="load-test-redis-")
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> RedisProcess:
        binary = "/usr/bin/redis-server"
        if not Path(binary).exists():
            raise SetupError("redis-server is not installed (Debian package redis-server); "
                             "or pass --redis URL")
        self.proc = subprocess.Popen([binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", self.dir],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if redis_info(self.url) is not None:
                return self
            time.sleep(0.05)
        raise SetupError(f"redis-server did not answer on port {self.port}")

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def redis_info(url: str) -> dict[str, Any] | None:
    """Redis's INFO (memory and stats), or None when it does not answer."""
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
        try:
            return {**client.info("memory"), **client.info("stats")}
        finally:
            client.close()
    except Exception:
        return None


def run_scale_out(clients: int = 50, algorithm: str = "bfs", processes: int = 2, redis_url: str | None = None,
                  timeout: float = 300.0, log: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """``clients`` clients over ``processes`` servers on one Redis; then one server killed."""
    report: dict[str, Any] = {"mode": "scale-out", "clients": clients, "algorithm": algorithm,
                              "processes": processes, "server_tree": server_tree(), "cores": os.cpu_count()}
    with contextlib.ExitStack() as stack:
        if redis_url is None:
            redis_url = stack.enter_context(RedisProcess()).url
        servers = [stack.enter_context(Server(args=("--redis", redis_url))) for _ in range(processes)]
        log(f"{processes} servers on {redis_url}: pids {[s.pid for s in servers]}")
        maze, puzzle = gallery_maze(servers[0].url)
        report["maze"] = {"name": maze["name"], "width": maze["width"], "height": maze["height"]}
        warm = [warm_up(server.url, puzzle, algorithm, timeout) for server in servers]
        expected = warm[0].records
        report["records_per_run"] = expected
        info0 = redis_info(redis_url) or {}
        crowd = [Client(servers[i % processes].url, f"load-{i}") for i in range(clients)]
        t_connect = time.monotonic()
        for client in crowd:
            client.on_done = Client.leave
            try:
                client.connect()
            except Exception as err:
                client._fail(f"connect: {type(err).__name__}: {err}")
        report["connect_s"] = round(time.monotonic() - t_connect, 3)
        samplers = [Sampler(server.pid) for server in servers]
        for sampler in samplers:
            sampler.start()
        t0 = time.monotonic()
        for client in crowd:
            if client.out.error is None:
                client.start(puzzle, algorithm)
        deadline = t0 + timeout
        for client in crowd:
            if not client.done.wait(max(0.0, deadline - time.monotonic())):
                client._fail(f"no run_done within {timeout:.0f} s")
        wall = max(c.t_leave or t0 for c in crowd) - t0
        for client in crowd:
            client.join()
        for sampler in samplers:
            sampler.stop()
        info1 = redis_info(redis_url) or {}
        outcomes = [c.out for c in crowd]
        problems = {o.run: o.problems(expected) for o in outcomes}
        seconds = [o.seconds for o in outcomes if o.seconds is not None]
        report["load"] = {
            "clients": clients,
            "finished": sum(1 for p in problems.values() if not p),
            "problems": {run: p for run, p in problems.items() if p},
            "per_process": [sum(1 for i, c in enumerate(crowd)
                                if i % processes == k and not problems[c.out.run]) for k in range(processes)],
            "time_to_done_s": {
                "min": rounded(min(seconds, default=None)),
                "median": rounded(statistics.median(seconds)) if seconds else None,
                "p95": rounded(percentile(seconds, 95)), "max": rounded(max(seconds, default=None)),
            },
            "wall_s": round(wall, 3),
            "records_total": sum(o.records for o in outcomes),
        }
        report["rss_peak_mb"] = [round(server.status()["VmHWM"] / 2**20, 1) for server in servers]
        def grew(key: str) -> int:
            return int(info1.get(key, 0)) - int(info0.get(key, 0))

        report["redis_info"] = {
            "used_memory_peak_mb": round(info1.get("used_memory_peak", 0) / 2**20, 1),
            "commands": grew("total_commands_processed"),
            "net_input_mb": round(grew("total_net_input_bytes") / 2**20, 1),
            "net_output_mb": round(grew("total_net_output_bytes") / 2**20, 1),
        }
        # One process dies (SIGKILL, as a crash would): a run on another still completes.
        victim, survivor = servers[0], servers[-1]
        assert victim.proc is not None
        victim.killed = True
        os.killpg(victim.proc.pid, signal.SIGKILL)  # the server and its worker at once, as a crash
        victim.proc.wait()
        log(f"killed pid {victim.pid}; a run on pid {survivor.pid}")
        after = warm_up(survivor.url, puzzle, algorithm, timeout)
        report["after_kill"] = {"records": after.records, "seconds": rounded(after.seconds),
                                "complete": after.records == expected and after.error is None}
        log("done")
    report["checks"] = {
        "all_finished": report["load"]["finished"] == clients,
        "spread": all(n > 0 for n in report["load"]["per_process"]),
        "survivor_runs_after_kill": report["after_kill"]["complete"],
    }
    return report


def scale_out_table(r: dict[str, Any]) -> str:
    load = r["load"]
    t = load["time_to_done_s"]
    lines = [
        f"scale-out: {r['clients']} clients over {r['processes']} processes on one Redis "
        f"({r['cores']} cores), {r['algorithm']} of {r['maze']['name']} "
        f"({r['records_per_run']:,} records a run)",
        f"  finished            {load['finished']} of {load['clients']} (per process {load['per_process']})",
        f"  time to done        min {t['min']} s, median {t['median']} s, p95 {t['p95']} s, max {t['max']} s",
        f"  wall                {load['wall_s']} s for {load['records_total']:,} records",
        f"  peak RSS            {', '.join(f'{mb} MB' for mb in r['rss_peak_mb'])}",
        f"  Redis               peak {r['redis_info']['used_memory_peak_mb']} MB; "
        f"in {r['redis_info']['net_input_mb']} MB, out {r['redis_info']['net_output_mb']} MB",
        f"  one process killed  a run on another: {'complete' if r['after_kill']['complete'] else 'FAILED'} "
        f"in {r['after_kill']['seconds']} s",
    ]
    if load["problems"]:
        lines.append(f"  problems            {list(load['problems'].items())[:3]}")
    return "\n".join(lines)


def checks(r: dict[str, Any]) -> dict[str, bool]:
    """The issue's targets, each True when met."""
    load, tabs, fake = r["load"], r["closed_tabs"], r["fake_acks"]

    def within(value: float | None, limit: float) -> bool:
        return value is not None and value <= limit

    return {
        "all_finished": load["finished"] == load["clients"] and not load["problems"],
        "peak_rss": r["rss"]["peak_mb"] <= TARGET_PEAK_RSS_MB,
        "threads_back": within(r["threads"]["back_to_baseline_s"], TARGET_THREADS_BACK_S),
        "page_latency": within(r["probe"]["max_s"], TARGET_PROBE_MAX_S) and not r["probe"]["failure_count"],
        "tabs_freed": tabs["started"] == tabs["tabs"] and within(tabs["freed_s"], TARGET_TABS_FREED_S),
        "fake_acks": all(
            v.get("frames") is not None and v["frames"] <= r["window"] and not v.get("error")
            for v in (fake["distinct"], fake["repeated"])
        ),
    }


def table(r: dict[str, Any]) -> str:
    def s(value: float | None, unit: str = "s") -> str:
        return "—" if value is None else f"{value:.3f} {unit}" if unit == "s" else f"{value:,.1f} {unit}"

    def freed(value: float | None) -> str:
        return f"> {r['settle_s']:g} s" if value is None else s(value)

    ok = {True: "ok", False: "FAIL"}
    c = r["checks"]
    load, t, tabs, fake = r["load"], r["threads"], r["closed_tabs"], r["fake_acks"]
    ttd = load["time_to_done_s"]
    rows = [
        ("clients × records a run",
         f"{load['clients']} × {r['records_per_run']:,} ({load['frames_per_run']} frames; {r['algorithm']}, "
         f"{r['maze']['name']} {r['maze']['width']}×{r['maze']['height']})", ""),
        ("finished with every record, no error", f"{load['finished']} of {load['clients']}",
         f"all  {ok[c['all_finished']]}"),
        ("time to done: median / p95 / max", f"{s(ttd['median'])} / {s(ttd['p95'])} / {s(ttd['max'])}",
         ""),
        ("all runs, first start to last leave", s(load["wall_s"]), ""),
        ("most frames unacknowledged (a client)", str(load["max_unacked"]), f"≤ {r['window']} (window)"),
        ("server peak RSS (VmHWM)", s(r["rss"]["peak_mb"], "MB"),
         f"≤ {TARGET_PEAK_RSS_MB} MB  {ok[c['peak_rss']]}"),
        ("server RSS: idle before / after",
         f"{s(r['rss']['baseline_mb'], 'MB')} / {s(r['rss']['after_mb'], 'MB')}", ""),
        ("server threads: fresh / baseline / peak / 2 s after",
         f"{t['fresh']} / {t['baseline']} / {t['peak']} / {t['at_leave_2s']}", ""),
        ("threads back to baseline after they leave", freed(t["back_to_baseline_s"]),
         f"≤ {TARGET_THREADS_BACK_S:g} s  {ok[c['threads_back']]}"),
        ("unfinished runs back to 0 (health)",
         freed(r["runs_freed_s"]) if r["health_endpoint"] else "no /api/health", ""),
        ("GET / every 200 ms: max / median",
         f"{s(r['probe']['max_s'])} / {s(r['probe']['median_s'])} ({r['probe']['count']} probes, "
         f"{r['probe']['failure_count']} failed)", f"≤ {TARGET_PROBE_MAX_S:g} s  {ok[c['page_latency']]}"),
        (f"{tabs['tabs']} closed tabs: runs / threads gone",
         f"{freed(tabs['runs_freed_s']) if r['health_endpoint'] else 'no /api/health'} / "
         f"{freed(tabs['threads_freed_s'])} ({tabs['started']} started)",
         f"≤ {TARGET_TABS_FREED_S:g} s  {ok[c['tabs_freed']]}"),
        (f"fake acks (seq 0..{FAKE_ACKS - 1}): frames received",
         _fake(fake["distinct"], fake["frames_in_run"]), f"≤ {r['window']}  {ok[c['fake_acks']]}"),
        (f"fake acks (seq 0 × {FAKE_ACKS}): frames received",
         _fake(fake["repeated"], fake["frames_in_run"]), f"≤ {r['window']}"),
    ]
    w0 = max(len(a) for a, _, _ in rows)
    w1 = max(len(b) for _, b, _ in rows)
    lines = [f"{'measure':<{w0}}  {'figure':<{w1}}  target", f"{'-' * w0}  {'-' * w1}  {'-' * 16}"]
    lines += [f"{a:<{w0}}  {b:<{w1}}  {c_}" for a, b, c_ in rows]
    if load["problems"]:
        lines.append("problems: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in
                                              list(load["problems"].items())[:5]))
    lines.append(f"server: {r['server_tree']}; {r['cores']} cores")
    return "\n".join(lines)


def _fake(f: dict[str, Any], total: int) -> str:
    if f.get("frames") is None:
        return f"— ({f.get('error')})"
    note = f" of {total}" + (" (RACY: a frame came before the acks were handled)" if f["racy"] else "")
    if f["tries"] > 1:
        note += f"; try {f['tries']}, {f['racy_tries']} racy"
    if not f["all_answered"]:
        note += f"; {f['answers']} of {f['acks']} acks answered"
    return f"{f['frames']}{note}" + (f"; {f['error']}" if f.get("error") else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50, help="clients streaming at once (default 50)")
    parser.add_argument("--algorithm", default="bfs", help="algorithm of every run (default bfs)")
    parser.add_argument("--port", type=int, default=None, help="the server's port (default: a free one)")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds a run may take to finish (default 300)")
    parser.add_argument("--tabs", type=int, default=10, help="closed tabs (default 10)")
    parser.add_argument("--window", type=int, default=None,
                        help="frames a fake-ack client may receive (default: Config.frame_window)")
    parser.add_argument("--no-hold", action="store_true",
                        help="fake acks: do not keep the compute slots busy meanwhile (the acks then race "
                             "the first frame)")
    parser.add_argument("--settle", type=float, default=SETTLE_LIMIT,
                        help="seconds to watch for threads and runs to be freed before giving up "
                             f"(default {SETTLE_LIMIT:g})")
    parser.add_argument("--processes", type=int, default=1,
                        help="2 or more: the scale-out run, that many servers on one Redis (default 1)")
    parser.add_argument("--redis", default=None,
                        help="with --processes: the Redis URL (default: a redis-server started on a free "
                             "port)")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of every figure")
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(f"[load_test] {line}", file=sys.stderr, flush=True)

    if args.processes > 1:
        try:
            report = run_scale_out(args.clients, args.algorithm, args.processes, args.redis, args.timeout,
                                   log)
        except SetupError as err:
            print(f"load_test: {err}", file=sys.stderr)
            return 2
        print(scale_out_table(report), flush=True)
        if args.json:
            print(json.dumps(report), flush=True)
        return 0 if all(report["checks"].values()) else 1
    try:
        report = run_load_test(args.clients, args.algorithm, args.port, args.timeout, args.tabs, args.window,
                               not args.no_hold, args.settle, log)
    except SetupError as err:
        print(f"load_test: {err}", file=sys.stderr)
        if args.json:
            print(json.dumps({"setup_error": str(err)}))
        return 2
    print(table(report), flush=True)
    if args.json:
        print(json.dumps(report), flush=True)
    return 0 if all(report["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
