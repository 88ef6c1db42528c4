"""Huge boards as tiles (issue 22, point 2): tile times, and Run -> the end shown in the page against the CLI.

    .venv/bin/python scripts/bench_tiles.py --maze /tmp/perfect15k.png        # a 15001 x 15001 maze
    .venv/bin/python scripts/bench_tiles.py --make /tmp/perfect15k.png        # make it first (seed 1)

(a) In one process: the BFS run kept for tiles (kernel + per-cell arrays), then a tile at every level
    at two steps (drawn + PNG), next to Pillow cropping and reducing the same region of the decoded
    image (the peer: what any image server does for a plain deep-zoom tile, without a search's state).
(b) The page, in headless Chromium, against `run.py serve --max-pixels 250000000`: the maze uploaded,
    BFS run, End pressed; the time from the click on Run to every visible tile of the last step drawn,
    next to `run.py solve --json` (whole process) on the same file.
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from server.puzzles.family import RunControl  # noqa: E402
from server.puzzles.grid import tiles  # noqa: E402
from server.puzzles.grid.image import parse_grid_image  # noqa: E402
from server.puzzles.grid.kernel_search import warm_up  # noqa: E402

CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
MAX_PIXELS = 250_000_000


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.1f} ms"


def make(path: Path) -> None:
    from server.puzzles.grid.generate import generate_perfect, maze_to_image

    maze_to_image(generate_perfect(7500, 7500, seed=1)).save(path)
    print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")


def in_process(path: Path) -> None:
    data = path.read_bytes()
    maze = parse_grid_image(data, max_pixels=MAX_PIXELS)
    Image.MAX_IMAGE_PIXELS = None  # this script's own file, of a size it knows
    image = Image.open(io.BytesIO(data))
    image.load()
    warm_up("bfs")
    with tempfile.TemporaryDirectory(dir=ROOT / "var") as folder:
        t0 = time.perf_counter()
        options = {"diagonal": False, "heuristic": "", "weight": 1.0}
        meta = tiles.run(maze, "bfs", options, RunControl(), Path(folder))
        run_s = time.perf_counter() - t0
        kernel_s = meta["result"]["seconds"]
        print(f"(a) BFS kept for tiles: {run_s:.2f} s (the kernel {kernel_s:.2f} s; the rest: closed_at's "
              f"file, the block summaries); {meta['expanded']:,} expanded, cost {meta['result']['cost']:,}")
        stored = tiles.StoredRun.load(Path(folder), meta)
        t0 = time.perf_counter()
        stored.frontier_samples(maze)
        print(f"    the frontier samples, counted on their first request: {time.perf_counter() - t0:.2f} s")
        print(f"{'level':>5} {'cells/px':>9} {'step':>12} {'draw':>10} {'png':>9} {'tile':>9} {'bytes':>8}"
              "   peer: Pillow crop+reduce")
        worst = 0.0
        for z in range(meta["levels"]):
            scale = 1 << z
            for t in (meta["expanded"] // 2, meta["steps"]):
                tiles.draw(maze, z, 0, 0, stored, t)  # compiled on first use
                draws, pngs = [], []
                for _ in range(3):
                    t1 = time.perf_counter()
                    pixels = tiles.draw(maze, z, 0, 0, stored, t)
                    t2 = time.perf_counter()
                    body = tiles.png(pixels)
                    t3 = time.perf_counter()
                    draws.append(t2 - t1)
                    pngs.append(t3 - t2)
                side = min(tiles.TILE * scale, maze.width)
                p0 = time.perf_counter()
                region = image.crop((0, 0, side, side)).convert("L")
                if scale > 1:
                    region = region.reduce(scale)
                region.convert("RGB").save(io.BytesIO(), "PNG", compress_level=1)
                peer = time.perf_counter() - p0
                total = min(draws) + min(pngs)
                worst = max(worst, total)
                print(f"{z:>5} {scale:>9} {t:>12,} {ms(min(draws)):>10} {ms(min(pngs)):>9} {ms(total):>9} "
                      f"{len(body):>8,}   {ms(peer)}")
        print(f"    slowest tile: {ms(worst)} (drawn and encoded)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def in_page(path: Path) -> None:
    from playwright.sync_api import sync_playwright

    walls = []
    for _ in range(2):
        t0 = time.perf_counter()
        command = [sys.executable, "run.py", "solve", str(path), "--json", "--max-pixels", str(MAX_PIXELS)]
        subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
    cli = min(walls)
    print(f"(b) run.py solve --json (whole process): best {cli:.2f} s of {len(walls)}")
    port = free_port()
    with tempfile.TemporaryDirectory() as tile_dir:
        env = {**os.environ, "MAZE_TILE_DIR": tile_dir}  # a fresh folder: the run is computed, not found
        server = subprocess.Popen([sys.executable, "run.py", "serve", "--port", str(port), "--max-pixels",
                                   str(MAX_PIXELS)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            time.sleep(4)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                page.set_default_timeout(600_000)
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_selector("[data-testid=status]:has-text('ready')")
                t0 = time.perf_counter()
                page.set_input_files("[data-testid=upload]", str(path))
                page.wait_for_selector("[data-testid=canvas][data-tiles-settled='board']", state="attached")
                print(f"    upload + decode + the board's tiles: {time.perf_counter() - t0:.2f} s")
                t0 = time.perf_counter()
                page.click("[data-testid=run]")
                page.wait_for_selector("[data-testid=last]:not([disabled])", state="attached")
                page.wait_for_function(
                    "() => /done/.test(document.querySelector('[data-testid=status]').textContent)"
                )
                done = time.perf_counter() - t0
                page.click("[data-testid=last]")
                steps = page.evaluate(
                    "document.querySelector('[data-testid=position]').textContent.split(' / ')[1]"
                )
                steps = int(steps.replace(",", ""))
                settled = f"[data-testid=canvas][data-tiles-settled='{steps}']"
                page.wait_for_selector(settled, state="attached")
                shown = time.perf_counter() - t0
                cost = page.evaluate("document.querySelector('[data-testid=cost]').textContent")
                page.screenshot(path=str(ROOT / "test-artifacts" / "bench-tiles-end.png"))
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"    Run -> done: {done:.2f} s; Run -> the end shown (every visible tile of step {steps:,}): "
          f"{shown:.2f} s = {shown / cli:.2f} x the CLI; cost shown {cost}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--maze", type=Path, help="a maze image (e.g. 15001 x 15001 pixels)")
    parser.add_argument("--make", type=Path, help="write the 15001 x 15001 perfect maze (seed 1) here first")
    parser.add_argument("--no-page", action="store_true", help="only the in-process figures")
    options = parser.parse_args()
    if options.make:
        make(options.make)
        options.maze = options.maze or options.make
    if options.maze is None:
        parser.error("--maze or --make")
    (ROOT / "var").mkdir(exist_ok=True)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    in_process(options.maze)
    if not options.no_page:
        in_page(options.maze)


if __name__ == "__main__":
    main()
