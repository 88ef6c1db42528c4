"""How fast a student's own search runs in the page (Pyodide in a Web Worker) against the same program in
CPython, on the same space and harness.

Run from the project root:  .venv/bin/python scripts/bench_code.py [--repeat 3] [--maze PATH]

It loads a maze (default: mazes/perfect-large.png, whose walk stops at the 200,000 states the page
gets), builds the student's space as ``POST …/code/space`` does, and runs tests/code_programs/bfs.py
and astar.py through static/js/code/harness.py twice: in this process's CPython, and in Debian's
Chromium (/usr/bin/chromium, Playwright) in the page's own worker, served by ``run.py serve``. Prints
the medians (the harness's own timing of the program, and expansions a second) as a Markdown table
(docs/BENCHMARKS.md, "Student mode").
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.bench_page_load import CHROMIUM, CHROMIUM_ARGS, start_server  # noqa: E402

PROGRAMS = ("bfs.py", "astar.py")
START = """() => new Promise((resolve) => {
  const worker = window.__bench = new Worker("/static/js/code/worker.js", {type: "module"});
  const t0 = performance.now();
  worker.onmessage = (e) => { if (e.data.type === "ready") resolve((performance.now() - t0) / 1000); };
})"""
RUN = """({code, space}) => new Promise((resolve) => {
  const t0 = performance.now();
  window.__bench.onmessage = (e) => {
    if (e.data.type === "done") resolve({seconds: e.data.seconds, wall: (performance.now() - t0) / 1000,
                                          expanded: e.data.expanded.length, error: e.data.error});
  };
  window.__bench.postMessage({type: "run", code, space, steps: 150000});
})"""


def harness():
    spec = importlib.util.spec_from_file_location("harness", ROOT / "static" / "js" / "code" / "harness.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--maze", type=Path, default=ROOT / "mazes" / "perfect-large.png")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from server.code_space import build_space
    from server.puzzles.registry import family_of, load_puzzle

    puzzle = load_puzzle(args.maze.read_bytes(), args.maze.name)
    family = family_of(puzzle)
    began = time.perf_counter()
    space = build_space(family, puzzle, family.run_options({}), 200_000)
    text = json.dumps(space.to_json(), separators=(",", ":"))
    built = time.perf_counter() - began
    print(f"{args.maze.name}: {space.count:,} states walked for the page in {built:.2f} s "
          f"({len(text) / 1e6:.1f} MB of JSON)")
    local = harness()
    rows = []
    with tempfile.TemporaryFile() as log:
        proc, url = start_server(ROOT, log)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.goto(url + "/")
                ready = page.evaluate(START)
                print(f"Pyodide ready in the worker after {ready:.2f} s")
                space_obj = json.loads(text)
                for name in PROGRAMS:
                    code = (ROOT / "tests" / "code_programs" / name).read_text()
                    cpython, pyodide, walls = [], [], []
                    for _ in range(args.repeat):
                        ran = local.run_student(code, text, 150_000, None)
                        cpython.append(ran["seconds"])
                        done = page.evaluate(RUN, {"code": code, "space": space_obj})
                        assert done["error"] is None, done["error"]
                        pyodide.append(done["seconds"])
                        walls.append(done["wall"])
                    count = len(ran["expanded"])
                    rows.append((name, count, statistics.median(cpython), statistics.median(pyodide),
                                 statistics.median(walls)))
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print("| program | expansions | CPython s | Pyodide s | Pyodide / CPython | page: post to done s |")
    print("|---|---|---|---|---|---|")
    for name, count, cpy, pyo, wall in rows:
        print(f"| {name} | {count:,} | {cpy:.2f} | {pyo:.2f} | {pyo / cpy:.1f} × | {wall:.2f} |")


if __name__ == "__main__":
    main()
