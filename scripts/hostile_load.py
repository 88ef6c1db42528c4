#!/usr/bin/env python3
"""Hostile-input load test (issue 28): a class's most hostile student against a real server.

    .venv/bin/python scripts/hostile_load.py            # every input and every flood, a table
    .venv/bin/python scripts/hostile_load.py --only labyrinth-24-rows,edit-1e20 --json

Starts ``run.py serve`` (gunicorn, the default limits: a 1 GiB work budget) on a free loopback port.
A **victim** (a browser: it keeps its cookie) uploads a small maze and solves it with BFS over HTTP again
and again; meanwhile a **hostile** client (a script: no cookie) sends one hostile input at a time, or
floods one pool from many threads. For each it reports:

- the answer (status and its words) and how long it took;
- the serving worker's peak memory growth (its ``VmHWM``, reset through ``/proc/<pid>/clear_refs``
  before each input, minus its resident size then) and the whole tree's resident size at the end;
- whether the worker survived (same pid, never killed);
- the victim's solves meanwhile: how many, the median and the slowest, and any that failed.

Exit status: 0 when every input was answered in words (no 500, no silence) within its time, the
worker survived, its growth stayed under the work budget plus ``MARGIN``, and the victim's slowest
solve stayed under ``VICTIM_LIMIT``; 1 when one did not; 2 when the test could not run. The targets
are the issue's; the figures go to docs/BENCHMARKS.md ("Hostile inputs")."""

from __future__ import annotations

import argparse
import http.cookiejar
import io
import json
import random
import statistics
import struct
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import contextlib

from load_test import Server, SetupError, proc_status, server_tree

BUDGET = 1024 * 1024 * 1024  # Config.trace_budget_bytes: the work budget of the server under test
MARGIN = 256 * 1024 * 1024  # the interpreter, parsed puzzles in the store, caches, allocator slack
VICTIM_LIMIT = 5.0  # seconds: the victim's small solve while one client floods a pool
ANSWER_LIMIT = 180.0  # seconds a hostile input may take to be answered


# ---- HTTP ------------------------------------------------------------------------------------------
class Http:
    """An HTTP client: a browser keeps its cookie (``cookies=True``), a script sends none."""

    def __init__(self, url: str, cookies: bool) -> None:
        self.url = url
        jar = urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        handlers: list[Any] = [jar] if cookies else []
        self.opener = urllib.request.build_opener(*handlers)

    def call(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
             timeout: float = ANSWER_LIMIT) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=headers or {})
        try:
            with self.opener.open(request, timeout=timeout) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()
        except OSError as err:  # refused, reset, timed out: the server said nothing
            return 0, str(err).encode()

    def json(
        self, method: str, path: str, value: Any = None, timeout: float = ANSWER_LIMIT,
    ) -> tuple[int, Any]:
        data = None if value is None else json.dumps(value).encode()
        status, raw = self.call(method, path, data, {"Content-Type": "application/json"}, timeout)
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw[:200].decode("utf-8", "replace")

    def upload(self, filename: str, data: bytes, timeout: float = ANSWER_LIMIT) -> tuple[int, Any]:
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n"
                f"Content-Type: application/octet-stream\r\n\r\n").encode()
        body += data + f"\r\n--{boundary}--\r\n".encode()
        status, raw = self.call("POST", "/api/puzzles", body,
                                {"Content-Type": f"multipart/form-data; boundary={boundary}"}, timeout)
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw[:200].decode("utf-8", "replace")


# ---- hostile files -----------------------------------------------------------------------------------
def png(width: int, height: int, colour: tuple[int, int, int]) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def lying_png(width: int = 7000, height: int = 7000) -> bytes:
    """A greyscale PNG whose header declares ``width`` x ``height`` and whose data holds one row."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\0" + b"\xff" * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row, 9)) + chunk(b"IEND", b""))


def labyrinth(size: int = 24, seed: int = 7) -> bytes:
    """A ``size`` x ``size`` labyrinth with every row pushable from the left (the project's JSON)."""
    rng = random.Random(seed)
    board = [[rng.randrange(0, 10) for _ in range(size)] for _ in range(size)]
    return json.dumps({
        "family": "labyrinth", "name": f"hostile{size}", "board": board, "free_tile": 5,
        "start_column": 0, "goal_column": size - 1,
        "insert_rows": {"left": list(range(size)), "right": []}, "insert_columns": {"top": [], "bottom": []},
    }).encode()


def huge_json(megabytes: int = 63) -> bytes:
    """A JSON body of ``megabytes`` MB: a list of small objects (the costliest kind to parse)."""
    item = b"{},"
    count = megabytes * 1024 * 1024 // len(item)
    return b"[" + item * (count - 1) + b"{}]"


SMALL_MAZE = "\n".join([
    "#S#########", "#.....#...#", "#.###.#.#.#", "#...#...#.#", "###.#####.#", "#.........#", "#########G#",
]) + "\n"


# ---- measuring -------------------------------------------------------------------------------------
class Victim(threading.Thread):
    """Solves its small maze with BFS again and again while measuring; each solve's latency."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True, name="victim")
        self.url = url
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self.http = Http(self.url, cookies=True)
        self.http.call("GET", "/")  # a page load gives the browser its cookie
        status, info = self.http.upload("victim.txt", SMALL_MAZE.encode())
        if status != 201:
            raise SetupError(f"the victim's upload failed: {status} {info}")
        self.pid = info["id"]
        self._go = threading.Event()
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            self._go.wait()
            if self._halt.is_set():
                return
            t0 = time.monotonic()
            path = f"/api/puzzles/{self.pid}/solve"
            status, answer = self.http.json("POST", path, {"algorithm": "bfs"}, 60)
            took = time.monotonic() - t0
            if status == 200 and isinstance(answer, dict) and answer.get("found"):
                self.latencies.append(took)
            else:
                self.failures.append(f"{status}: {str(answer)[:120]}")
            self._halt.wait(1.1)  # its own rate limit: 60 runs a minute

    def measure(self) -> None:
        self.latencies, self.failures = [], []
        self._go.set()

    def pause(self) -> None:
        self._go.clear()

    def stop(self) -> None:
        self._halt.set()
        self._go.set()


@dataclass
class Outcome:
    name: str
    status: int
    words: str
    seconds: float
    growth: int  # the worker's high-water mark minus its resident size before
    tree_rss: int
    survived: bool
    victim: list[float]
    victim_failures: list[str]

    def ok(self) -> tuple[bool, str]:
        if not self.survived:
            return False, "the worker died"
        if self.status in (0, 500) or not self.words:
            return False, f"answered {self.status} {self.words[:60]!r}"
        if self.seconds > ANSWER_LIMIT:
            return False, "too slow"
        if self.growth > BUDGET + MARGIN:
            return False, "grew past the budget"
        if self.victim_failures:
            return False, f"the victim failed: {self.victim_failures[0]}"
        if self.victim and max(self.victim) > VICTIM_LIMIT:
            return False, f"the victim waited {max(self.victim):.1f} s"
        return True, ""


def tree_rss(server: Server) -> int:
    assert server.proc is not None
    total = 0
    for pid in (server.proc.pid, server.pid):
        with contextlib.suppress(OSError):
            total += proc_status(pid)["VmRSS"]
    return total


def run_one(server: Server, victim: Victim, name: str, attack: Callable[[], tuple[int, Any]]) -> Outcome:
    worker = server.pid
    with open(f"/proc/{worker}/clear_refs", "w") as refs:  # the high-water mark from now on
        refs.write("5")
    before = proc_status(worker)["VmRSS"]
    victim.measure()
    t0 = time.monotonic()
    status, answer = attack()
    seconds = time.monotonic() - t0
    while len(victim.latencies) + len(victim.failures) < 3:  # at least a few solves beside it
        time.sleep(0.05)
    victim.pause()
    survived = server.proc is not None and server.proc.poll() is None and server.pid == worker
    try:
        growth = proc_status(worker)["VmHWM"] - before
    except OSError:
        growth, survived = 0, False
    words = answer.get("error", "") if isinstance(answer, dict) else str(answer)
    if isinstance(answer, dict) and not words:
        words = "accepted: " + ", ".join(f"{k}={answer[k]}" for k in list(answer)[:4])
    return Outcome(name, status, words[:160], seconds, growth, tree_rss(server), survived,
                   list(victim.latencies), list(victim.failures))


def flood(threads: int, seconds: float, one: Callable[[int], tuple[int, Any]]) -> tuple[int, Any]:
    """``threads`` threads calling ``one(i)`` for ``seconds``; the answers' statuses counted."""
    counts: dict[int, int] = {}
    words: dict[int, str] = {}
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def work(i: int) -> None:
        while time.monotonic() < end:
            status, answer = one(i)
            with lock:
                counts[status] = counts.get(status, 0) + 1
                if isinstance(answer, dict) and "error" in answer:
                    words.setdefault(status, answer["error"])

    pool = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    worst = 500 if 500 in counts else 0 if 0 in counts else max(counts)
    shown = "; ".join(
        f"{n}x {s}" + (f" ({words[s][:50]})" if s in words else "") for s, n in sorted(counts.items())
    )
    return worst, {"error": shown} if worst in (0, 500) else {"flood": shown}


# ---- the inputs ------------------------------------------------------------------------------------
def inputs(hostile: Http, url: str) -> dict[str, Callable[[], tuple[int, Any]]]:
    state: dict[str, Any] = {}

    def uploaded(key: str, filename: str, data: Callable[[], bytes]) -> str | None:
        if key not in state:
            status, info = hostile.upload(filename, data())
            state[key] = info.get("id") if status == 201 and isinstance(info, dict) else None
            state[key + ":answer"] = (status, info)
        return state[key]

    def labyrinth_solve(algorithm: str) -> Callable[[], tuple[int, Any]]:
        def attack() -> tuple[int, Any]:
            pid = uploaded("lab24", "hostile24.json", labyrinth)
            if pid is None:
                return state["lab24:answer"]
            return hostile.json("POST", f"/api/puzzles/{pid}/solve", {"algorithm": algorithm})
        return attack

    def open_board() -> str | None:
        return uploaded("open", "open21M.png", lambda: png(4600, 4600, (255, 255, 255)))

    def lab(formula: str) -> Callable[[], tuple[int, Any]]:
        def attack() -> tuple[int, Any]:
            pid = open_board()
            if pid is None:
                return state["open:answer"]
            return hostile.json("POST", f"/api/puzzles/{pid}/heuristic", {"formula": formula})
        return attack

    nested = "max(" + ", ".join(f"abs(dr - {i}) + min(dc, {i}) * 2" for i in range(1, 12)) + ")"

    def small() -> str:
        return uploaded("small", "small.txt", SMALL_MAZE.encode) or ""

    def run_key(path: str) -> Callable[[], tuple[int, Any]]:
        def attack() -> tuple[int, Any]:
            pid = open_board()
            query = f"row=0&col=0&run={urllib.request.quote(path)}"
            return hostile.json("GET", f"/api/puzzles/{pid}/cell?{query}")
        return attack

    def big_open() -> str | None:
        text = "S" + "." * 1999 + "\n" + ("." * 2000 + "\n") * 1998 + "." * 1999 + "G\n"
        return uploaded("big-open", "open2k.txt", text.encode)

    def compute_flood() -> tuple[int, Any]:
        pid = big_open()
        body = {"algorithm": "dijkstra"}
        return flood(12, 20, lambda i: hostile.json("POST", f"/api/puzzles/{pid}/solve", body))

    def load_flood() -> tuple[int, Any]:
        data = png(3000, 3000, (255, 255, 255))
        return flood(8, 20, lambda i: hostile.upload(f"flood{i}-{time.monotonic_ns()}.png", data))

    def big_upload_flood() -> tuple[int, Any]:  # each body is memory while it is read
        data = b"#" * (60 * 1024 * 1024)
        return flood(16, 20, lambda i: hostile.upload(f"big{i}.txt", data))

    def gif_flood() -> tuple[int, Any]:
        pid = small()
        body = {"algorithm": "bfs"}
        return flood(12, 15, lambda i: hostile.json("POST", f"/api/puzzles/{pid}/animation", body))

    def tile_flood() -> tuple[int, Any]:
        pid = open_board()
        return flood(120, 15, lambda i: hostile.call("GET", f"/api/puzzles/{pid}/tiles/{i % 8}/0/0.png?"
                                                            f"n={time.monotonic_ns()}", timeout=60))

    def lab_flood() -> tuple[int, Any]:
        pid = open_board()
        return flood(4, 30, lambda i: hostile.json("POST", f"/api/puzzles/{pid}/heuristic",
                                                   {"formula": f"dr + dc + {i}"}))

    def prepare() -> tuple[int, Any]:  # the boards the inputs below use, uploaded before any is measured
        uploaded("lab24", "hostile24.json", labyrinth)
        open_board()
        small()
        big_open()
        names = ("lab24", "open", "small", "big-open")
        return 200, {"prepared": ", ".join(f"{k}={state.get(k)}" for k in names)}

    return {
        "(upload the boards)": prepare,
        "labyrinth-24-rows bfs": labyrinth_solve("bfs"),
        "labyrinth-24-rows astar": labyrinth_solve("astar"),
        "all-goal 7000x7000 png": lambda: hostile.upload("goal.png", png(7000, 7000, (255, 0, 0))),
        "goal line 49000000x1 png": lambda: hostile.upload("line.png", png(49_000_000, 1, (255, 0, 0))),
        "lying header png (87 B)": lambda: hostile.upload("lying.png", lying_png()),
        "lab dr+dc on 21 M cells": lab("dr + dc"),
        "lab nested formula on 21 M cells": lab(nested),
        "run key /etc": run_key("/etc"),
        "run key ../..": run_key("../.."),
        "64 MB JSON body to solve": lambda: hostile.call("POST", f"/api/puzzles/{small()}/solve", huge_json(),
                                                         {"Content-Type": "application/json"}),
        "64 MB JSON puzzle upload": lambda: hostile.upload("huge.json", huge_json()),
        "edit of cell 1e20": lambda: hostile.json("POST", f"/api/puzzles/{small()}/edit", {"edits": [
            {"op": "paint", "cells": [1e20], "value": 1}]}),
        "flood: compute slots": compute_flood,
        "flood: load slots": load_flood,
        "flood: 60 MB uploads (16 at once)": big_upload_flood,
        "flood: GIF exports": gif_flood,
        "flood: tiles (120 connections)": tile_flood,
        "flood: lab memory": lab_flood,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated names (or parts of names) of the inputs to send")
    parser.add_argument("--json", action="store_true", help="also print one JSON line of the figures")
    args = parser.parse_args(argv)
    try:
        with Server() as server:
            victim = Victim(server.url)
            victim.start()
            hostile = Http(server.url, cookies=False)
            outcomes = []
            for name, attack in inputs(hostile, server.url).items():
                chosen = not args.only or name.startswith("(") or any(p in name for p in args.only.split(","))
                if not chosen:
                    continue
                outcome = run_one(server, victim, name, attack)
                outcomes.append(outcome)
                ok, why = outcome.ok()
                v = outcome.victim
                victim_text = (f"{len(v)} solves, median {statistics.median(v):.2f} s, max {max(v):.2f} s"
                               if v else "no solve")
                print(f"{'ok  ' if ok else 'FAIL'} {name:34} {outcome.status:3} {outcome.seconds:6.1f} s  "
                      f"+{outcome.growth / 2**20:6.0f} MiB  victim: {victim_text}  | {outcome.words[:110]}"
                      + (f"  <- {why}" if why else ""), flush=True)
                if not outcome.survived:
                    break
            victim.stop()
    except SetupError as err:
        print(f"hostile_load: {err}", file=sys.stderr)
        return 2
    print(f"server: {server_tree()}; budget {BUDGET / 2**20:.0f} MiB, margin {MARGIN / 2**20:.0f} MiB")
    if args.json:
        print(json.dumps([o.__dict__ for o in outcomes]))
    return 0 if all(o.ok()[0] for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
