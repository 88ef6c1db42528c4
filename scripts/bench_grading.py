#!/usr/bin/env python3
"""Grading under load: a class submitting code at once, graded in the sandbox.

    .venv/bin/python scripts/bench_grading.py                  # 50 students, both setups
    .venv/bin/python scripts/bench_grading.py --students 10 --only local

Two setups, each against real processes on free loopback ports:

1. **one server** (``run.py serve``, its own grader threads, assignments on disk): a teacher makes an
   assignment on maze3 with BFS and a code task; ``--students`` students each submit a BFS program at
   once (one thread each, one HTTP request); then every student polls their submission with their
   receipt until it is graded.
2. **two graders on Redis**: a ``redis-server``, a ``run.py serve --redis URL`` with no grader threads of
   its own, and two ``run.py grader --redis URL`` processes; the same submissions; the first grader is
   killed with SIGKILL as soon as the first verdicts arrive (it holds a job then), and the survivor takes
   its jobs again after the visibility timeout.

For each: how long until every submission was received, and until every one was graded; how many were
graded right (full points); the serving process's peak RSS (VmHWM) and the peak of the RSS summed over
every process of the setup (servers, graders and their sandboxes), sampled every 50 ms.

The peer, in the same run: one BFS program graded by ``server.grading`` directly in this process (one
sandboxed child, as ``run.py grade`` runs it), timed, so the per-submission cost of the queue and the
server can be read beside the sandbox's own.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MAZE = ROOT.parent / "shared" / "cases" / "images" / "lee" / "maze3.png"
PROGRAM = (ROOT / "tests" / "code_programs" / "bfs.py").read_text()
PYTHON = str(ROOT / ".venv" / "bin" / "python")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None,
            raw: bytes | None = None, content_type: str = "application/json") -> tuple[int, Any]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": content_type, **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as err:
        text = err.read()
        try:
            return err.code, json.loads(text)
        except ValueError:
            return err.code, text.decode(errors="replace")


class Process:
    """A ``run.py`` subcommand (or another program) in its own process group, logged to a file."""

    def __init__(self, argv: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log
        with log.open("a") as out:
            self.proc = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
                                         start_new_session=True)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_for(what: str, test: Any, seconds: float = 60.0) -> Any:
    """Poll ``test`` until it answers something true; raise naming ``what`` when ``seconds`` pass."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = test()
        if found:
            return found
        time.sleep(0.1)
    raise RuntimeError(f"timed out waiting for {what}")


def serving(url: str) -> bool:
    try:
        return request("GET", f"{url}/api/algorithms")[0] == 200
    except OSError:
        return False


def tree_rss(pids: list[int]) -> int:
    """RSS in bytes of the processes ``pids`` and all their descendants (read from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                rss[int(entry)] = int(line.split()[1]) * 1024
    total, todo, seen = 0, list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def vm_hwm(pid: int) -> int:
    """The peak RSS of ``pid``'s newest descendant that serves (gunicorn's worker), else of ``pid``."""
    best = 0
    for entry in [pid, *_descendants(pid)]:
        try:
            for line in Path(f"/proc/{entry}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    best = max(best, int(line.split()[1]) * 1024)
        except OSError:
            pass
    return best


def _descendants(pid: int) -> list[int]:
    try:
        kids = [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
    return kids + [d for k in kids for d in _descendants(k)]


class Sampler(threading.Thread):
    """The peak of ``tree_rss`` over ``pids`` every 50 ms until stopped."""

    def __init__(self, pids: list[int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.peak = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            self.peak = max(self.peak, tree_rss(self.pids))
            self.halt.wait(0.05)


def make_assignment(url: str) -> str:
    """Upload maze3 and make an assignment with one code task (BFS); its class id."""
    boundary = "benchgrading"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"maze3.png\"\r\n"
            "Content-Type: image/png\r\n\r\n").encode()
    body = head + MAZE.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    status, info = request("POST", f"{url}/api/puzzles", raw=body,
                           content_type=f"multipart/form-data; boundary={boundary}")
    if status != 201:
        raise RuntimeError(f"upload failed: {status} {info}")
    status, made = request("POST", f"{url}/api/assignments", {
        "puzzle": info["id"], "algorithm": "bfs", "options": {},
        "tasks": [{"kind": "code", "points": 5}], "reveal": "now", "attempts": None, "counts": "best",
    })
    if status != 201:
        raise RuntimeError(f"making the assignment failed: {status} {made}")
    return made["id"]


def class_submits(url: str, aid: str, students: int) -> dict[str, Any]:
    """Every student submits at once; then each polls until graded. Times and scores."""
    receipts: list[tuple[str, str] | None] = [None] * students
    errors: list[str] = []
    go = threading.Event()

    def submit(i: int) -> None:
        go.wait()
        status, answer = request("POST", f"{url}/api/assignments/{aid}/submissions", {
            "name": f"Student {i}", "student": f"s{i:07d}", "task": "code", "answer": {"code": PROGRAM}})
        if status == 202:
            receipts[i] = (answer["submission"], answer["receipt"])
        else:
            errors.append(f"student {i}: {status} {answer}")

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(students)]
    for t in threads:
        t.start()
    began = time.monotonic()
    go.set()
    for t in threads:
        t.join()
    received = time.monotonic() - began
    graded: dict[int, float] = {}
    scores: dict[int, float] = {}

    def poll() -> bool:
        for i, got in enumerate(receipts):
            if got is None or i in graded:
                continue
            status, view = request("GET", f"{url}/api/assignments/{aid}/submissions/{got[0]}",
                                   headers={"X-Receipt": got[1]})
            if status == 200 and view["status"] in ("graded", "failed"):
                graded[i] = time.monotonic() - began
                scores[i] = (view.get("result") or {}).get("score") or 0.0
        return len(graded) == sum(r is not None for r in receipts)

    wait_for("every submission graded", poll, seconds=900)
    return {"students": students, "received": sum(r is not None for r in receipts), "errors": errors[:3],
            "received_s": round(received, 2), "all_graded_s": round(max(graded.values(), default=0), 2),
            "full_points": sum(1 for s in scores.values() if s >= 5)}


def run_local(students: int, tmp: Path) -> dict[str, Any]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {"MAZE_STORE_DIR": str(tmp / "store"), "MAZE_TILE_DIR": str(tmp / "tiles"),
           "MAZE_ASSIGNMENT_DIR": str(tmp / "assignments"), "MAZE_SUBMISSIONS_PER_MINUTE": "100000",
           "MAZE_ASSIGNMENTS_PER_HOUR": "100000"}
    server = Process([PYTHON, "run.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
                     tmp / "serve.log", env)
    try:
        wait_for("the server", lambda: serving(url))
        aid = make_assignment(url)
        sampler = Sampler([server.pid])
        sampler.start()
        figures = class_submits(url, aid, students)
        sampler.halt.set()
        sampler.join()
        figures.update(server_peak_mb=round(vm_hwm(server.pid) / 2**20, 1),
                       all_processes_peak_mb=round(sampler.peak / 2**20, 1))
        return figures
    finally:
        server.stop()


def run_redis(students: int, tmp: Path) -> dict[str, Any]:
    redis_port = free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {"MAZE_STORE_DIR": str(tmp / "store-r"), "MAZE_TILE_DIR": str(tmp / "tiles-r"),
           "MAZE_ASSIGNMENT_DIR": str(tmp / "assignments-r"), "MAZE_SUBMISSIONS_PER_MINUTE": "100000",
           "MAZE_ASSIGNMENTS_PER_HOUR": "100000", "MAZE_GRADERS": "0"}
    with ExitStack() as stack:
        redis = Process(["/usr/bin/redis-server", "--port", str(redis_port), "--bind", "127.0.0.1",
                         "--save", "", "--appendonly", "no", "--dir", str(tmp)], tmp / "redis.log")
        stack.callback(redis.kill)
        wait_for("redis", lambda: _redis_up(redis_port))
        server = Process([PYTHON, "run.py", "serve", "--host", "127.0.0.1", "--port", str(port),
                          "--redis", redis_url], tmp / "serve-r.log", env)
        stack.callback(server.stop)
        graders = [Process([PYTHON, "run.py", "grader", "--redis", redis_url], tmp / f"grader{i}.log", env)
                   for i in range(2)]
        for g in graders:
            stack.callback(g.stop)
        wait_for("the server", lambda: serving(url))
        aid = make_assignment(url)
        sampler = Sampler([server.pid, redis.pid, *(g.pid for g in graders)])
        sampler.start()
        killed: dict[str, Any] = {}

        def killer() -> None:
            # Kill the first grader once it has started work (its log says so, or a verdict arrived).
            wait_for("a grader at work", lambda: "grad" in graders[0].log.read_text(errors="replace").lower()
                     or killed.get("stop"), seconds=600)
            time.sleep(0.5)  # let it take a job: it is killed holding one
            killed["at"] = time.monotonic()
            graders[0].kill()

        k = threading.Thread(target=killer, daemon=True)
        k.start()
        figures = class_submits(url, aid, students)
        killed["stop"] = True
        sampler.halt.set()
        sampler.join()
        figures.update(grader_killed=graders[0].proc.returncode is not None,
                       server_peak_mb=round(vm_hwm(server.pid) / 2**20, 1),
                       all_processes_peak_mb=round(sampler.peak / 2**20, 1))
        return figures


def _redis_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def peer_one_grade() -> dict[str, Any]:
    """One BFS program graded in this process through ``server.grading`` (one sandboxed child)."""
    from server.grading import grade
    from server.judging import rule_options
    from server.puzzles.registry import family_of, load_puzzle

    puzzle = load_puzzle(MAZE.read_bytes(), MAZE.name)
    family = family_of(puzzle)
    options = family.run_options({})
    began = time.monotonic()
    verdict = grade(family, puzzle, PROGRAM, "bfs", options, rule_options(family, {}))
    return {"one_grade_s": round(time.monotonic() - began, 2), "verdict": verdict.get("verdict")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=50)
    parser.add_argument("--only", choices=("local", "redis"), default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as folder:
        tmp = Path(folder)
        try:
            report["peer: one grade in this process"] = peer_one_grade()
        except Exception as err:  # the figures of the setups still count
            report["peer: one grade in this process"] = {"error": str(err)}
        if args.only in (None, "local"):
            report["one server"] = run_local(args.students, tmp)
        if args.only in (None, "redis"):
            report["two graders on Redis, one killed"] = run_redis(args.students, tmp)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    for name, figures in report.items():
        print(f"{name}:")
        for key, value in figures.items():
            print(f"  {key:24} {value}")


if __name__ == "__main__":
    main()
