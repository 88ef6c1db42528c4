"""How long the page takes to load, and what opening the "Your code" panel adds (Python in the page).

Run from the project root:  .venv/bin/python scripts/bench_page_load.py [--repeat 5] [--root DIR]

It starts ``run.py serve`` of the checkout at ``--root`` (default: this one; give an older checkout to
compare before and after) on a free port, and loads the page in Debian's Chromium (/usr/bin/chromium,
driven by Playwright) ``--repeat`` times, each with a new browser context (an empty cache). For each
load it reads the browser's navigation timing — DOMContentLoaded, load, and "ready" (the gallery's
first maze drawn: the page's ``data-puzzle-id`` probe set) — and the bytes and requests the page fetched.
Where the page has the header's "Your code" button, it then opens the panel and times Python's start
in the worker (until the panel's status says it is ready), with the bytes that adds. Prints medians as
a Markdown table (docs/BENCHMARKS.md, "Page load").
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The browser and a free port as the other page benchmark has them.
from scripts.bench_compare_page import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: E402


def start_server(root: Path, log) -> tuple[subprocess.Popen, str]:
    port = free_port()
    python = root / ".venv" / "bin" / "python"
    proc = subprocess.Popen(
        [str(python if python.exists() else ROOT / ".venv" / "bin" / "python"), "run.py", "serve",
         "--host", "127.0.0.1", "--port", str(port)],
        cwd=root, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    began = time.monotonic()
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            urllib.request.urlopen(url + "/api/health", timeout=2)
            return proc, url
        except OSError:
            if time.monotonic() - began > 90:
                proc.kill()
                raise SystemExit("the server did not answer within 90 s") from None
            time.sleep(0.2)


def measure(browser, url: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    fetched = {"bytes": 0, "requests": 0}

    def on_response(response) -> None:
        fetched["requests"] += 1
        with contextlib.suppress(Exception):  # a redirect or a websocket upgrade has no body
            fetched["bytes"] += len(response.body())

    page.on("response", on_response)
    page.goto(url + "/")
    page.wait_for_function("() => document.body.dataset.puzzleId", timeout=60_000)
    timing = page.evaluate("""() => {
      const n = performance.getEntriesByType('navigation')[0];
      return { dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd, ready: performance.now() };
    }""")
    out = {"dcl": timing["dcl"], "load": timing["load"], "ready": timing["ready"],
           "kb": fetched["bytes"] / 1024, "requests": fetched["requests"]}
    if page.query_selector("[data-testid=code]"):
        before = dict(fetched)
        began = page.evaluate("() => performance.now()")
        page.click("[data-testid=code]")
        page.wait_for_function(
            "() => /ready/i.test(document.querySelector('[data-testid=code-status]')?.textContent || '')",
            timeout=120_000)
        out["python_ms"] = page.evaluate("() => performance.now()") - began
        out["python_kb"] = (fetched["bytes"] - before["bytes"]) / 1024
    context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryFile() as log:
        proc, url = start_server(args.root.resolve(), log)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                runs = [measure(browser, url) for _ in range(args.repeat)]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    keys = [k for k in ("dcl", "load", "ready", "kb", "requests", "python_ms", "python_kb") if k in runs[0]]
    names = {"dcl": "DOMContentLoaded ms", "load": "load ms", "ready": "first maze drawn ms",
             "kb": "fetched KB", "requests": "requests", "python_ms": "Your code: Python ready ms",
             "python_kb": "Your code: fetched KB"}
    commit = subprocess.run(["git", "-C", str(args.root), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"page load of {args.root} ({commit}), {args.repeat} loads, medians")
    print("| figure | median | min | max |\n|---|---|---|---|")
    for k in keys:
        values = [r[k] for r in runs]
        print(f"| {names[k]} | {statistics.median(values):,.0f} | {min(values):,.0f} | {max(values):,.0f} |")


if __name__ == "__main__":
    main()
