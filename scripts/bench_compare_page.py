"""How long the page's comparison view takes to deliver four algorithms on a large maze.

Run from the project root:  .venv/bin/python scripts/bench_compare_page.py [--repeat 3] [--maze PATH]

It starts ``run.py serve`` on a free port (like tests/e2e/conftest.py), drives Debian's Chromium
(/usr/bin/chromium) with Playwright at 1920 × 1080, opens the comparison view, uploads
perfect2k.png (2001 × 2001 px, from ../shared/cases/images/mikepound/; MAZE_CASES to point elsewhere)
and compares BFS, A*, Dijkstra and DFS (one socket run each, slots p0..p3). Timed in the page
(performance.now), from the Run click:

- **done**: the status reads ``done`` (every panel's whole trace has arrived);
- **table, instant**: with the Instant pace, the shared timeline has played to its end and the table
  of results is shown;
- **End after done**: a second timing of the same comparison at the Normal pace: the End key pressed
  once ``done`` is reached, until the table shows (the jump of all four boards to their ends).

Prints the figures of each repeat and their medians, with each run's records and server time, as a
Markdown table (docs/BENCHMARKS.md, "Comparison view").
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CASES = Path(os.environ.get("MAZE_CASES", ROOT.parent / "shared" / "cases"))
PERFECT2K = CASES / "images" / "mikepound" / "perfect2k.png"
ALGORITHMS = ["bfs", "astar", "dijkstra", "dfs"]
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

# Installed before each Run: the click, the status turning "done" and the table showing, timed in the page.
ARM = """() => {
  const b = window.__bench = { t0: 0, done: 0, table: 0 };
  const run = document.querySelector('[data-testid=run]');
  run.addEventListener('click', () => { b.t0 = performance.now(); }, { capture: true, once: true });
  const status = document.querySelector('[data-testid=status]');
  const watch = new MutationObserver(() => {
    if (!b.done && b.t0 && status.textContent === 'done') b.done = performance.now();
  });
  watch.observe(status, { childList: true, characterData: true, subtree: true });
  const poll = () => {
    const table = document.querySelector('[data-testid=compare-table]');
    if (b.t0 && table && !table.hidden && table.offsetParent) {
      b.table = performance.now();
      watch.disconnect();
      return;
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}"""
ROWS = """() => [...document.querySelectorAll('[data-testid=compare-row]')].map(tr => {
  const row = {};
  for (const td of tr.querySelectorAll('[data-col]')) row[td.dataset.col] = td.dataset.value;
  return row;
})"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def start_server(log) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [python(), "run.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/algorithms", timeout=2):
                return proc, url
        except OSError:
            if time.monotonic() > deadline:
                proc.terminate()
                raise SystemExit("the server did not answer within 90 s") from None
            time.sleep(0.2)


def wait_status(page, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-testid=status]').textContent === t", arg=text, timeout=600_000
    )


def compare_once(page, preset: str, press_end: bool) -> dict:
    """One comparison: Run, then (at the preset's pace) until the table shows; times in ms."""
    page.click(f"[data-testid=compare-preset-{preset}]")
    page.evaluate(ARM)
    page.click("[data-testid=run]")
    wait_status(page, "done")
    if press_end:
        page.evaluate("() => { window.__bench.end = performance.now(); }")
        page.keyboard.press("End")
    page.wait_for_function("() => window.__bench.table > 0", timeout=600_000)
    bench = page.evaluate("() => window.__bench")
    rows = page.evaluate(ROWS)
    out = {"done": bench["done"] - bench["t0"], "table": bench["table"] - bench["t0"], "rows": rows}
    if press_end:
        out["end"] = bench["table"] - bench["end"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--maze", type=Path, default=PERFECT2K)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"no Chromium at {CHROMIUM} (Debian package chromium)")
    if not args.maze.exists():
        raise SystemExit(f"no maze at {args.maze} (MAZE_CASES points to the shared cases)")
    from playwright.sync_api import sync_playwright

    log_path = Path(tempfile.gettempdir()) / f"bench-compare-{os.getpid()}.log"
    with log_path.open("w") as log:
        proc, url = start_server(log)
    instant, normal = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
            page = context.new_page()
            page.set_default_timeout(600_000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            wait_status(page, "ready")
            page.click("[data-testid=compare]")
            page.set_input_files("[data-testid=upload]", str(args.maze))
            page.wait_for_function(
                "name => document.querySelector('[data-testid=puzzle-name]').textContent === name"
                " && document.querySelector('[data-testid=status]').textContent === 'ready'",
                arg=args.maze.stem,
            )
            panels = page.locator("[data-testid=compare-panel]")
            while panels.count() < len(ALGORITHMS):
                page.click("[data-testid=compare-add]")
            for i, name in enumerate(ALGORITHMS):
                panels.nth(i).locator("[data-testid=panel-algorithm]").select_option(name)
            compare_once(page, "instant", press_end=False)  # warm-up: the kernels' first calls
            for _ in range(args.repeat):
                instant.append(compare_once(page, "instant", press_end=False))
                normal.append(compare_once(page, "normal", press_end=True))
            memory = page.evaluate("() => performance.memory ? performance.memory.usedJSHeapSize : null")
            browser.close()
            if errors:
                print("page errors:", *errors, sep="\n  ", file=sys.stderr)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()

    median = lambda xs: statistics.median(xs) / 1000  # noqa: E731  (ms -> s)
    print(f"# Comparison view: {', '.join(ALGORITHMS)} on {args.maze.name}")
    print(f"{datetime.date.today()} · {platform.machine()} · {os.cpu_count()} cores · Chromium headless,"
          f" 1920 × 1080 · {args.repeat} repeats after a warm-up")
    print()
    print("| measure | " + " | ".join(f"run {i + 1}" for i in range(args.repeat)) + " | median |")
    print("|---|" + "---|" * (args.repeat + 1))
    lines = [
        ("Run → status `done` (every trace in), Instant pace", [r["done"] for r in instant]),
        ("Run → status `done`, Normal pace", [r["done"] for r in normal]),
        ("Run → table shown, Instant pace", [r["table"] for r in instant]),
        ("End pressed after `done` → table shown", [r["end"] for r in normal]),
    ]
    for label, values in lines:
        cells = " | ".join(f"{v / 1000:.2f} s" for v in values)
        print(f"| {label} | {cells} | {median(values):.2f} s |")
    print()
    print("| algorithm | expanded | cost | server time (last run) |")
    print("|---|---|---|---|")
    for row in instant[-1]["rows"]:
        expanded, seconds = int(row["expanded"]), float(row["seconds"])
        print(f"| {row['algorithm']} | {expanded:,} | {row['cost']} | {seconds:.2f} s |")
    if memory:
        print(f"\nJS heap after the runs: {memory / 2**20:.0f} MB")
    print(f"(server log: {log_path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
