"""``run.py serve`` as a user starts it, in a subprocess on a fixed loopback port (so a restart has the
same address), for the tests that stop, kill and restart servers."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from tests.helpers import ROOT, venv_python


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServeProcess:
    """``run.py serve`` in a subprocess on a fixed port (so that a restart is the same address)."""

    def __init__(self, tmp: Path, name: str, *args: str, port: int | None = None) -> None:
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = args
        self.log_path = tmp / f"{name}.log"
        self.proc: subprocess.Popen | None = None
        self.env = {**os.environ, "PYTHONUNBUFFERED": "1"}

    def start(self) -> ServeProcess:
        log = self.log_path.open("a")
        self.proc = subprocess.Popen(
            [venv_python(), "run.py", "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.args],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=self.env,
            start_new_session=True,  # its own process group: kill() takes gunicorn's worker with it
        )
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/algorithms", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"the server did not answer within 60 s:\n{self.log()[-3000:]}")
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL to the server and its worker at once, as a crash would end them."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def serving(folder: Path, name: str, *args: str, env: dict[str, str] | None = None):
    """A started ``ServeProcess`` (with ``env`` added to its environment) for a fixture to ``yield
    from``; stopped after."""
    server = ServeProcess(folder, name, *args)
    server.env.update(env or {})
    server.start()
    try:
        yield server
    finally:
        server.stop()
