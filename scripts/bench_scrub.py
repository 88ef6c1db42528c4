"""How long the page takes to show another step of a multi-million-record trace (scrubbing the timeline).

Run from the project root:  .venv/bin/python scripts/bench_scrub.py [--repeat 3] [--skip-large]

It starts ``run.py serve`` on a free port (like tests/e2e/conftest.py), drives Debian's Chromium
(/usr/bin/chromium) with Playwright, and for each maze runs BFS at max speed, waits until the whole
trace has arrived and played, then times in the page:

- end → start, start → end (the scrub slider set to 0, then to the last step), a few random jumps
  (fixed seed) and one step back from the end and from the middle (the ← button);
- each from setting the position (the slider's ``input`` event, or the button's click) to the frame
  drawn: **latency** is the wall time until the animation frame after the board's draw (it includes
  waiting for up to two display frames, ~17 ms each: the "no-op" row is that floor), **work** the
  time spent inside the page's animation-frame callbacks (seek, figures, draw) plus a forced flush of
  the canvas (getImageData of one pixel), i.e. the time the main thread was busy.

The mazes: a generated perfect maze of 600 × 600 cells (1201 × 1201 px, seed 1: 944,022 records) and
perfect4k.png (4001 × 4001 px, ≈ 10.5 M records) from ../shared/cases/images/mikepound/ (MAZE_CASES
to point elsewhere; skipped when absent). ``--app-root`` serves another checkout (e.g. the code before
a change: ``git worktree add /tmp/before HEAD`` plus ``cp -r static/vendor /tmp/before/static/``) with
this project's virtualenv. Prints a Markdown table (docs/BENCHMARKS.md, "Scrubbing").
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
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
PERFECT4K = CASES / "images" / "mikepound" / "perfect4k.png"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

# Installed once per page: every animation-frame callback's time is added to window.__rafBusy.
INSTRUMENT = """() => {
  if (window.__rafBusy !== undefined) return;
  window.__rafBusy = 0;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => raf((now) => {
    const t = performance.now();
    try { callback(now); } finally { window.__rafBusy += performance.now() - t; }
  });
}"""

# Set the position (slider or button), wait for the frame after the draw; [latency, work] in ms.
MEASURE = """async ([how, target]) => {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  await frame();
  await frame();
  const canvas = document.querySelector('[data-testid=canvas]');
  const busy0 = window.__rafBusy;
  const t0 = performance.now();
  if (how === 'scrub') {
    const scrub = document.querySelector('[data-testid=scrub]');
    scrub.value = String(target);
    scrub.dispatchEvent(new Event('input', { bubbles: true }));
  } else {
    document.querySelector(`[data-testid=${how}]`).click();
  }
  const clickWork = performance.now() - t0; // a button seeks at once, outside any frame
  await frame(); // a scrub's seek runs in this frame; the board asks for a draw in the next
  await frame(); // the board's draw ran before this callback
  const f0 = performance.now();
  canvas.getContext('2d').getImageData(0, 0, 1, 1); // make the canvas finish drawing
  const flush = performance.now() - f0;
  const latency = performance.now() - t0;
  // This function's own two callbacks count in __rafBusy but do next to nothing.
  return [latency, clickWork + (window.__rafBusy - busy0) + flush];
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(app_root: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    python = ROOT / ".venv" / "bin" / "python"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(python if python.exists() else sys.executable), "run.py", "serve", "--host", "127.0.0.1",
             "--port", str(port)],
            cwd=app_root, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/algorithms", timeout=2) as answer:
                if answer.status == 200:
                    return proc, url
        except OSError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("the server did not answer within 90 s")
        time.sleep(0.2)


def position(page) -> tuple[int, int]:
    at, of = page.text_content("[data-testid=position]").replace(",", "").split(" / ")
    return int(at), int(of)


def load_and_run(page, path: Path) -> int:
    """Upload `path`, run BFS at max speed, wait until every record arrived and played; the record count."""
    page.set_input_files("[data-testid=upload]", str(path))
    page.wait_for_function(
        "name => document.querySelector('[data-testid=puzzle-name]').textContent === name"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'",
        arg=path.stem, timeout=300_000,
    )
    page.select_option("[data-testid=algorithm]", "bfs")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=status]').textContent === 'done'", timeout=600_000
    )
    page.wait_for_function(
        "() => { const [a, b] = document.querySelector('[data-testid=position]').textContent.split(' / ');"
        " return a === b && a !== '0'; }",
        timeout=600_000,
    )
    return position(page)[1]


def measure(page, how: str, target: int | None, expect: int | None) -> tuple[float, float]:
    latency, work = page.evaluate(MEASURE, [how, target])
    if expect is not None:
        at = position(page)[0]
        if at != expect:
            raise SystemExit(f"{how} to {target}: the page shows step {at}, not {expect}")
    return latency, work


def scrub_to(page, target: int) -> None:
    page.evaluate(MEASURE, ["scrub", target])


Samples = list[tuple[float, float]]  # (latency, work) in ms


def bench_maze(page, path: Path, repeat: int, seed: int) -> tuple[int, list[tuple[str, Samples]]]:
    total = load_and_run(page, path)
    page.evaluate(INSTRUMENT)
    rows: list[tuple[str, Samples]] = []

    def timed(name: str, before, how: str, target: int | None, expect: int | None) -> None:
        samples = []
        for _ in range(repeat):
            if before is not None:
                scrub_to(page, before)
            samples.append(measure(page, how, target, expect))
        rows.append((name, samples))

    timed("no-op (same step: the frame floor)", total, "scrub", total, total)
    timed("end → start", total, "scrub", 0, 0)
    timed("start → end", 0, "scrub", total, total)
    rng = random.Random(seed)
    scrub_to(page, total)
    jumps = []
    for _ in range(max(6, 2 * repeat)):
        target = rng.randrange(total + 1)
        jumps.append(measure(page, "scrub", target, target))
    rows.append(("random jumps", jumps))
    timed("one step back from the end (←)", total, "step-back", None, total - 1)
    timed("one step back from the middle (←)", total // 2, "step-back", None, total // 2 - 1)
    timed("one step forward from the middle (→)", total // 2, "step", None, total // 2 + 1)
    return total, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="samples of each move (default 3)")
    parser.add_argument("--skip-large", action="store_true", help="only the ~1 M-record maze")
    parser.add_argument("--app-root", type=Path, default=ROOT, help="the checkout to serve (default: ours)")
    parser.add_argument("--label", default="", help="a word for the table's title (e.g. before, after)")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print(f"no Chromium at {CHROMIUM}", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        mazes = []
        small = Path(tmp) / "perfect600.png"
        python = ROOT / ".venv" / "bin" / "python"
        executable = str(python if python.exists() else sys.executable)
        generate = [executable, "run.py", "generate", "perfect", "600", "600", "--seed", "1", "--out", small]
        subprocess.run(generate, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        mazes.append(("generated perfect 600 × 600 cells (1201 × 1201 px)", small))
        if PERFECT4K.exists() and not args.skip_large:
            mazes.append(("perfect4k.png (4001 × 4001 px)", PERFECT4K))
        elif not args.skip_large:
            print(f"(no {PERFECT4K}: the 10 M-record case is skipped)", file=sys.stderr)
        proc, url = start_server(args.app_root.resolve(), Path(tmp) / "server.log")
        results = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for name, path in mazes:
                    context = browser.new_context(viewport={"width": 1366, "height": 768})
                    page = context.new_page()
                    page.set_default_timeout(300_000)
                    page.goto(url)
                    page.wait_for_function(
                        "() => document.querySelector('[data-testid=status]').textContent === 'ready'"
                    )
                    started = time.monotonic()
                    total, rows = bench_maze(page, path, args.repeat, seed=7)
                    keyframes = page.get_attribute("[data-testid=scrub]", "data-keyframes")
                    print(f"  {name}: {total:,} records, {keyframes} keyframes kept,"
                          f" measured in {time.monotonic() - started:.0f} s", file=sys.stderr)
                    results.append((name, total, rows))
                    context.close()
                browser.close()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    title = f" ({args.label})" if args.label else ""
    print(f"Scrubbing{title}, {stamp}, {platform.machine()}, {os.cpu_count()} cores, Chromium headless"
          f" (software canvas), 1366 × 768; median (max) of the samples, ms")
    print()
    print("| maze | records | move | samples | latency | work |")
    print("|---|---:|---|---:|---:|---:|")
    for name, total, rows in results:
        for move, samples in rows:
            lat = [s[0] for s in samples]
            work = [s[1] for s in samples]
            latency = f"{statistics.median(lat):.0f} ({max(lat):.0f})"
            busy = f"{statistics.median(work):.0f} ({max(work):.0f})"
            print(f"| {name} | {total:,} | {move} | {len(samples)} | {latency} | {busy} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
