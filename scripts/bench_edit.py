"""How long an edit takes from the pointer event to the re-solved path on the canvas (issue 12).

Run from the project root:  .venv/bin/python scripts/bench_edit.py [--sizes 200,1000] [--repeat 10]

It starts ``run.py serve`` on a free port, generates a ``random`` board (walls at density 0.25, seed 1)
of each size through ``POST /api/generate``, opens it in Debian's Chromium (Playwright, 1366 × 768),
runs A* (manhattan) to its end, then measures two kinds of change, ``--repeat`` times each:

- **wall**: a click with the Wall tool on a cell of the path (the pointer event is the timer's start);
- **goal**: the goal dragged by one cell.

The page times each change itself (``document.body.dataset.resolveMs``: from the first pointer event
of the change to the frame after the re-solved run is drawn at its end — the edit request, the search
on the server, the trace over the socket, the replay and the paint) and the server's search time.

Peer, in the same page: PathFinding.js 0.4.18 (the library behind the best-known JavaScript demo,
which re-solves in the browser on every drag), its ``AStarFinder`` (manhattan, no diagonals) on the same
board, start and goal, compute only — no drawing. The package is fetched with ``npm pack`` into
``build/peer/`` (gitignored) on first use; without npm the peer column says so.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tarfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.e2e.pages import cell_point  # noqa: E402  (the browser tests' helper: one definition)

CHROMIUM = Path("/usr/bin/chromium")
PEER_DIR = ROOT / "build" / "peer"
PEER_JS = PEER_DIR / "package" / "visual" / "lib" / "pathfinding-browser.min.js"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]

PEER_TIMING = """async ([id, start, goal, repeat]) => {
  const bytes = new Uint8Array(await (await fetch(`/api/puzzles/${id}/cells`)).arrayBuffer());
  const info = await (await fetch(`/api/puzzles/${id}`)).json();
  const W = info.width, H = info.height;
  const matrix = [];
  for (let r = 0; r < H; r++) {
    matrix.push(Array.from(bytes.subarray(r * W, (r + 1) * W), (v) => (v === 0 ? 1 : 0)));
  }
  const grid = new PF.Grid(W, H, matrix);
  const finder = new PF.AStarFinder({ heuristic: PF.Heuristic.manhattan });
  const times = []; let length = 0;
  for (let i = 0; i < repeat; i++) {
    const t0 = performance.now();
    const path = finder.findPath(start[1], start[0], goal[1], goal[0], grid.clone());
    times.push(performance.now() - t0);
    length = path.length;
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], length };
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def peer_script() -> Path | None:
    """PathFinding.js's browser build, fetched once with npm (not committed)."""
    if PEER_JS.exists():
        return PEER_JS
    PEER_DIR.mkdir(parents=True, exist_ok=True)
    try:
        subprocess.run(
            ["npm", "pack", "pathfinding@0.4.18", "--silent"],
            cwd=PEER_DIR,
            check=True,
            capture_output=True,
            timeout=120,
        )
        with tarfile.open(PEER_DIR / "pathfinding-0.4.18.tgz") as archive:
            archive.extractall(PEER_DIR, filter="data")
    except (OSError, subprocess.SubprocessError, tarfile.TarError) as err:
        print(f"(peer unavailable: {err})", file=sys.stderr)
        return None
    return PEER_JS if PEER_JS.exists() else None


def wait_resolved(page, before: int) -> None:
    page.wait_for_function(
        "n => Number(document.body.dataset.resolved || 0) > n", arg=before, timeout=300_000
    )
    page.wait_for_function("() => document.body.dataset.edits === 'idle'")


def measure(page, change) -> tuple[float, float]:
    """(pointer to drawn path, server search) in ms for one change."""
    before = int(page.evaluate("() => Number(document.body.dataset.resolved || 0)"))
    change()
    wait_resolved(page, before)
    return tuple(
        float(page.evaluate(f"() => document.body.dataset.{k}")) for k in ("resolveMs", "resolveSearchMs")
    )


def bench_size(browser, url: str, size: int, repeat: int, peer: Path | None) -> dict:
    info = post(
        f"{url}/api/generate", {"kind": "random", "rows": size, "cols": size, "seed": 1, "density": 0.25}
    )
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(300_000)
    page.goto(f"{url}/?puzzle={info['id']}")
    page.wait_for_function("id => document.body.dataset.puzzleId === id", arg=info["id"])
    page.select_option("[data-testid=algorithm]", "astar")
    page.click("[data-testid=run]")
    page.wait_for_function("() => document.querySelector('[data-testid=status]').textContent === 'done'")
    page.click("[data-testid=last]")
    solved = post(f"{url}/api/puzzles/{info['id']}/solve", {"algorithm": "astar"})
    path = solved["path"]
    page.click("[data-testid=tool-wall]")
    walls, goals = [], []
    for i in range(repeat):
        row, col = path[len(path) // 3 + i * 3]
        x, y = cell_point(page, row, col)
        walls.append(measure(page, lambda x=x, y=y: page.mouse.click(x, y)))
    goal = list(info["goals"][0])
    for i in range(repeat):
        to = [goal[0], goal[1] - 1] if i % 2 == 0 else goal
        src = goal if i % 2 == 0 else [goal[0], goal[1] - 1]

        def drag(src=src, to=to) -> None:
            page.mouse.move(*cell_point(page, *src))
            page.mouse.down()
            page.mouse.move(*cell_point(page, *to))
            page.mouse.up()

        goals.append(measure(page, drag))
    records = page.text_content("[data-testid=position]").split(" / ")[-1]
    peer_ms = None
    if peer is not None:
        page.add_script_tag(path=str(peer))
        current = page.evaluate("() => document.body.dataset.puzzleId")
        now = json.load(urllib.request.urlopen(f"{url}/api/puzzles/{current}"))
        peer_ms = page.evaluate(PEER_TIMING, [current, now["starts"][0], now["goals"][0], repeat])
    context.close()
    return {"size": size, "records": records, "walls": walls, "goals": goals, "peer": peer_ms}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="200,1000")
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    peer = peer_script()
    port = free_port()
    python = ROOT / ".venv" / "bin" / "python"
    server = subprocess.Popen(
        [str(python if python.exists() else sys.executable), "run.py", "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{url}/api/algorithms", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        rows = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for size in (int(s) for s in args.sizes.split(",")):
                rows.append(bench_size(browser, url, size, args.repeat, peer))
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    median = statistics.median
    print(
        "| board | A* records | wall click → path drawn (median, max) | goal drag → path drawn (median, max) "
        "| server search | peer: PathFinding.js A*, compute only |"
    )
    print("|---|---|---|---|---|---|")
    for row in rows:
        walls = [w for w, _ in row["walls"]]
        goals = [g for g, _ in row["goals"]]
        search = median([s for _, s in row["walls"] + row["goals"]])
        peer = f"{row['peer']['median']:.1f} ms" if row["peer"] else "—"
        print(
            f"| {row['size']} × {row['size']} | {row['records']} "
            f"| {median(walls):.0f} ms, {max(walls):.0f} ms "
            f"| {median(goals):.0f} ms, {max(goals):.0f} ms | {search:.0f} ms | {peer} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
