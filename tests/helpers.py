"""Helpers the test modules share: an app made for tests, uploads, the live layer's socket pumps and
the command line. Browser-side helpers are in tests/e2e/pages.py."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask

from server import create_app
from server.config import Config
from server.puzzles.grid.model import GridMaze
from server.services import services

ROOT = Path(__file__).resolve().parents[1]
# The live-layer tests' settings: small frames and window, a short acknowledgement timeout.
LIVE = {"engine": "generic", "frame_records": 50, "frame_window": 2, "ack_timeout": 5}


# ---- the app ------------------------------------------------------------------------------------
def make_app(**overrides: Any) -> Flask:
    """An app for tests: ``Config`` with ``testing`` and the test client's serializer, plus overrides."""
    return create_app(Config(**{"testing": True, "serializer": "default", **overrides}))


def live_app(puzzles: dict[str, Any], **overrides: Any) -> Flask:
    """``make_app`` with the ``LIVE`` settings (overridable) and ``puzzles`` stored under their ids."""
    app = make_app(**{**LIVE, **overrides})
    for pid, puzzle in puzzles.items():
        services(app).store.put(pid, puzzle)
    return app


def open_maze(height: int, width: int) -> GridMaze:
    """A wall-less grid from the top-left corner to the bottom-right one."""
    cells = np.ones((height, width), np.uint8)
    return GridMaze(cells, [0], [height * width - 1])


# ---- uploads ------------------------------------------------------------------------------------
def post_file(client: Any, data: bytes, filename: str, **fields: Any) -> Any:
    """``POST /api/puzzles`` with ``data`` as the file and ``fields`` as form fields; the response."""
    form = {"file": (io.BytesIO(data), filename), **{k: str(v) for k, v in fields.items()}}
    return client.post("/api/puzzles", data=form, content_type="multipart/form-data")


def browser(app: Flask) -> Any:
    """A test client as a browser is: the page gave it its client id (a request without one is its
    address's client, whose rates every cookie-less test client would share)."""
    client = app.test_client()
    client.get("/")
    return client


def upload(app: Flask, data: bytes, filename: str, **fields: Any) -> dict[str, Any]:
    """Upload a file that must load (201), from a browser of its own; the puzzle's info."""
    answer = post_file(browser(app), data, filename, **fields)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


# ---- the live layer (Flask-SocketIO's test client) -------------------------------------------------
def pump(client: Any, until: str, run: str, ack: bool = True, timeout: float = 20.0) -> list[dict]:
    """Collect events (acknowledging frames) until ``until`` arrives for ``run``."""
    seen: list[dict] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in client.get_received():
            payload = message["args"][0]
            seen.append({"name": message["name"], **payload})
            if message["name"] == "run_frame" and ack:
                client.emit("run_ack", {"run": payload["run"], "seq": payload["seq"]})
            if message["name"] == until and payload.get("run") == run:
                return seen
        time.sleep(0.01)
    raise AssertionError(f"no {until} for {run}; saw {[s['name'] for s in seen][-10:]}")


def pump_acking(client: Any, seconds: float) -> list[dict]:
    """Collect events for ``seconds``, acknowledging every frame."""
    end, seen = time.monotonic() + seconds, []
    while time.monotonic() < end:
        for m in client.get_received():
            seen.append({"name": m["name"], **m["args"][0]})
            if m["name"] == "run_frame":
                client.emit("run_ack", {"run": m["args"][0]["run"], "seq": m["args"][0]["seq"]})
        time.sleep(0.01)
    return seen


def pump_quietly(client: Any, seconds: float) -> list[dict]:
    """Collect events for ``seconds``, acknowledging nothing."""
    end, seen = time.monotonic() + seconds, []
    while time.monotonic() < end:
        seen += [{"name": m["name"], **m["args"][0]} for m in client.get_received()]
        time.sleep(0.02)
    return seen


def records(frames: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (kinds, cells, values) records of a run's frames, in order."""
    frames = sorted(frames, key=lambda f: f["start"])
    kinds = np.concatenate([np.frombuffer(f["kinds"], np.uint8) for f in frames])
    cells = np.concatenate([np.frombuffer(f["cells"], "<i4") for f in frames])
    values = np.concatenate([np.frombuffer(f["values"], "<f4") for f in frames])
    return kinds, cells, values


def wait_idle(app: Flask, seconds: float) -> bool:
    """Wait up to ``seconds`` for the app's runs to end; whether they all did."""
    manager = services(app).runs
    deadline = time.monotonic() + seconds
    while manager.active() and time.monotonic() < deadline:
        time.sleep(0.05)
    return manager.active() == 0


# ---- the command line ---------------------------------------------------------------------------
def venv_python() -> str:
    """The project's virtualenv Python, else the one running the tests."""
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``run.py`` with ``args`` (this Python), its output captured as text."""
    return subprocess.run([sys.executable, str(ROOT / "run.py"), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def imported_after(code: str) -> dict[str, Any]:
    """Which family modules (and whether numba) a fresh process has imported after running ``code``;
    with ``status`` too when ``code`` sets one (``status = run.main([...])``)."""
    probe = (
        "import json, sys\n" + code + "\n"
        "seen = {'families': sorted(m.split('.')[2] for m in sys.modules if m.startswith('server.puzzles.')"
        " and m.endswith('.family') and m.count('.') == 3), 'numba': 'numba' in sys.modules}\n"
        "print(json.dumps({**seen, **({'status': status} if 'status' in globals() else {})}))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# ---- servers started for a test --------------------------------------------------------------
@contextlib.contextmanager
def answering(proc: subprocess.Popen, probe: str, log: Path, what: str, within: float = 60) -> Iterator[None]:
    """Wait until ``probe`` answers 200 (failing with ``log``'s tail if ``proc`` exits or ``within`` seconds
    pass), hold while the caller uses it, then stop ``proc``."""
    try:
        deadline = time.monotonic() + within
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{what} exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(probe, timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"{what} did not answer within {within:g} s:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
