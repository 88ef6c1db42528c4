#!/usr/bin/env python
"""Benchmark the grid kernels: against a C BFS, Pillow's decode, pure Python and the `pathfinding` package.

Run from the project root (numbers go to docs/BENCHMARKS.md):

    .venv/bin/python scripts/bench_grid.py            # the full run, a few minutes
    .venv/bin/python scripts/bench_grid.py --quick    # pure-Python BFS on perfect2k instead of perfect4k
    .venv/bin/python scripts/bench_grid.py --large    # also a generated 7500 x 7500-cell maze (225 M pixels)
    .venv/bin/python scripts/bench_grid.py --huge /tmp/big/perfect15k.png   # only (i): the CLI on that PNG

(i), the CLI at the limit: Pillow's decode and the C BFS against the whole `run.py solve --json`
process (best of 3, its peak RSS), and `--out`'s palette PNG; (j) the memory of every grid algorithm.

Times are the best of a few runs (the machines are shared; medians drift). Every search's cost is
checked against the C BFS or the kernel's, so a fast wrong answer cannot pass unnoticed.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.puzzles.grid.kernel_search import solve_grid  # noqa: E402 - after the path set-up
from server.puzzles.grid.model import GridMaze  # noqa: E402
from server.search.stats import SearchResult  # noqa: E402
from server.search.trace import Trace  # noqa: E402

CASES = Path(os.environ.get("MAZE_CASES", ROOT.parent / "shared" / "cases")) / "images" / "mikepound"
ALGORITHMS = ("bfs", "dfs", "dijkstra", "astar", "greedy", "bidirectional")

C_BFS = r"""
/* Queue-based BFS with distances and a backtrace, on a raw uint8 grid (0 = wall). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: bfs FILE WIDTH HEIGHT START GOAL\n"); return 2; }
    long W = atol(argv[2]), H = atol(argv[3]), start = atol(argv[4]), goal = atol(argv[5]), n = W * H;
    uint8_t *cells = malloc(n);
    FILE *f = fopen(argv[1], "rb");
    if (!f || fread(cells, 1, n, f) != (size_t)n) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    fclose(f);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int32_t *dist = malloc(n * sizeof *dist), *queue = malloc(n * sizeof *queue);
    for (long i = 0; i < n; i++) dist[i] = -1;
    static const long dr[4] = {-1, 0, 1, 0}, dc[4] = {0, 1, 0, -1};
    long head = 0, tail = 0, expanded = 0, path_len = 0;
    int found = start == goal;
    dist[start] = 0;
    queue[tail++] = (int32_t)start;
    while (head < tail && !found) {
        long cur = queue[head++], r = cur / W, c = cur % W;
        expanded++;
        for (int d = 0; d < 4 && !found; d++) {
            long nr = r + dr[d], nc = c + dc[d];
            if (nr < 0 || nr >= H || nc < 0 || nc >= W) continue;
            long nx = nr * W + nc;
            if (!cells[nx] || dist[nx] >= 0) continue;
            dist[nx] = dist[cur] + 1;
            if (nx == goal) found = 1;
            else queue[tail++] = (int32_t)nx;
        }
    }
    if (found) {  /* backtrace: step to a neighbour one lower, down to the start */
        long cur = goal;
        while (dist[cur] > 0) {
            long r = cur / W, c = cur % W;
            for (int d = 0; d < 4; d++) {
                long nr = r + dr[d], nc = c + dc[d];
                if (nr < 0 || nr >= H || nc < 0 || nc >= W) continue;
                long nx = nr * W + nc;
                if (cells[nx] && dist[nx] == dist[cur] - 1) { cur = nx; break; }
            }
            path_len++;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("%ld %ld %.3f\n", expanded, found ? path_len : -1L, ms);
    return 0;
}
"""

# Runs in a fresh process: the resident-memory high-water mark (VmHWM) that a solve adds.
# (ru_maxrss is no good here: a child inherits its parent's peak across fork and exec.)
PEAK_RSS = r"""
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
from server.puzzles.grid.kernel_search import solve_grid
from server.puzzles.grid.model import GridMaze

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key + ":"))

maze = GridMaze(np.load(sys.argv[2]), [int(sys.argv[3])], [int(sys.argv[4])])
solve_grid(GridMaze(np.ones((2, 2), np.uint8), [0], [3]), sys.argv[5], record_trace=False)  # JIT / cache load
before = status("VmRSS")
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM to the current RSS
except OSError:
    pass
result, _ = solve_grid(maze, sys.argv[5], record_trace=False)
print(before, max(status("VmHWM"), before), result.cost, result.max_frontier)
"""


class Table:
    """Rows of (measure, maze, value, note), printed aligned."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def add(self, measure: str, maze: str, value: str, note: str = "") -> None:
        self.rows.append((measure, maze, value, note))
        print(f"  {measure}: {value} {note}", flush=True)

    def print(self) -> None:
        head = ("measure", "maze", "value", "note / ratio")
        widths = [max(len(r[i]) for r in [head, *self.rows]) for i in range(4)]
        line = "  ".join("-" * w for w in widths)
        print()
        print("  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
        print(line)
        for row in self.rows:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())


def best_of(fn: Callable[[], object], repeat: int = 5) -> tuple[float, object]:
    """(the smallest wall time of ``repeat`` calls, the value of that call)."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        runs.append((time.perf_counter() - t0, value))
    return min(runs, key=lambda run: run[0])


def best_solve(
    maze: GridMaze, algorithm: str, repeat: int = 5, record_trace: bool = False
) -> tuple[SearchResult, Trace | None]:
    """The (result, trace) with the smallest kernel time (``result.seconds``) of ``repeat`` solves."""
    runs = [solve_grid(maze, algorithm, record_trace=record_trace) for _ in range(repeat)]
    return min(runs, key=lambda run: run[0].seconds)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms"


def load_maze(path: Path) -> GridMaze:
    """The project's image parser when it is there, else Pillow + a threshold and the mikepound openings."""
    try:
        from server.puzzles.grid.image import parse_grid_image
    except ImportError:
        pixels = np.asarray(Image.open(path).convert("L")) >= 128
        cells = pixels.astype(np.uint8)
        width = cells.shape[1]
        start = int(np.flatnonzero(cells[0])[0])
        goal = (cells.shape[0] - 1) * width + int(np.flatnonzero(cells[-1])[0])
        return GridMaze(cells, [start], [goal], name=path.stem)
    return parse_grid_image(path.read_bytes(), path.stem, max_pixels=300_000_000)


def build_c_bfs(workdir: Path) -> Path | None:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        print("  (no gcc: the C BFS is skipped)")
        return None
    source = workdir / "bfs.c"
    source.write_text(C_BFS)
    binary = workdir / "bfs"
    subprocess.run([gcc, "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def run_c_bfs(binary: Path, workdir: Path, maze: GridMaze, repeat: int = 5) -> tuple[float, int, int]:
    """(best internal time in s, expanded, path length) of the C BFS."""
    raw = workdir / "maze.raw"
    maze.cells.tofile(raw)
    args = [str(binary), str(raw), str(maze.width), str(maze.height), str(maze.starts[0]), str(maze.goals[0])]
    runs = []
    for _ in range(repeat):
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()
        runs.append((float(out[2]) / 1e3, int(out[0]), int(out[1])))
    return min(runs)


def python_bfs(cells: list[int], width: int, height: int, start: int, goal: int) -> int:
    """A plain pure-Python BFS over a flat list, with distances and a backtrace; returns the path length."""
    dist = [-1] * (width * height)
    dist[start] = 0
    queue = deque([start])
    found = start == goal
    while queue and not found:
        cur = queue.popleft()
        r, c = divmod(cur, width)
        d = dist[cur] + 1
        for nxt, ok in (
            (cur - width, r > 0),
            (cur + 1, c < width - 1),
            (cur + width, r < height - 1),
            (cur - 1, c > 0),
        ):
            if ok and cells[nxt] and dist[nxt] < 0:
                dist[nxt] = d
                if nxt == goal:
                    found = True
                    break
                queue.append(nxt)
    return dist[goal]


def peak_rss_per_cell(maze: GridMaze, algorithm: str, workdir: Path) -> tuple[float, int]:
    """(peak resident bytes per cell of a solve plus the maze's own byte, max_frontier), in a subprocess."""
    npy = workdir / "maze.npy"
    if not npy.exists():
        np.save(npy, maze.cells)
    endpoints = [str(maze.starts[0]), str(maze.goals[0])]
    args = [sys.executable, "-c", PEAK_RSS, str(ROOT), str(npy), *endpoints, algorithm]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    before, after, _cost, max_frontier = out.split()
    extra = int(after) - int(before)
    cells = maze.cells.size
    return (extra + maze.cells.nbytes) / cells, int(max_frontier)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="pure-Python BFS on perfect2k, not perfect4k")
    parser.add_argument("--large", action="store_true",
                        help="also a generated 7500 x 7500-cell maze, and (i) the CLI on it as a PNG")
    parser.add_argument("--huge", type=Path, metavar="PNG",
                        help="only (i): the CLI at the limit on this maze image (its start and goal "
                        "openings in the border)")
    options = parser.parse_args()
    table = Table()
    if options.huge is not None:
        print(machine())
        workdir = Path(tempfile.mkdtemp(prefix="bench_grid_"))
        try:
            cli_at_the_limit(table, options.huge, workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        table.print()
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return
    big_path = CASES / "perfect4k.png"
    if not big_path.exists():
        print(f"{big_path} is absent: nothing to measure (set MAZE_CASES to the shared cases folder)")
        return
    print(machine())
    workdir = Path(tempfile.mkdtemp(prefix="bench_grid_"))
    try:
        run(options, table, workdir, big_path)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    table.print()
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def machine() -> str:
    """Date, CPU, cores, versions and load: what a reader needs to weigh the numbers."""
    import platform

    import numba

    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{time.strftime('%Y-%m-%d %H:%M')}  {cpu}, {os.cpu_count()} cores, load average {load}\n"
        f"Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}"
    )


def run(options: argparse.Namespace, table: Table, workdir: Path, big_path: Path) -> None:
    data = big_path.read_bytes()
    maze = load_maze(big_path)
    label = f"perfect4k ({maze.width}x{maze.height})"
    solve_grid(GridMaze(np.ones((2, 2), np.uint8), [0], [3]), "bfs")  # JIT / cache load, not timed below

    print("(a) decoding the PNG")

    def decode() -> None:
        with Image.open(io.BytesIO(data)) as im:
            im.load()

    decode_s, _ = best_of(decode)
    table.add("(a) Pillow decode (in-process)", label, ms(decode_s), f"{len(data) / 1e6:.1f} MB PNG")
    parse_s, _ = best_of(lambda: load_maze(big_path), 2)
    table.add("    project parser (decode + classify)", label, ms(parse_s))

    print("(b) C BFS")
    ours, _ = best_solve(maze, "bfs")
    binary = build_c_bfs(workdir)
    c_s = None
    if binary is not None:
        c_s, c_expanded, c_length = run_c_bfs(binary, workdir, maze)
        assert c_length == ours.cost, (c_length, ours.cost)
        c_note = f"{c_expanded:,} expanded, path {c_length:,}"
        table.add("(b) C BFS, gcc -O2 (internal timer)", label, ms(c_s), c_note)
    kernel_note = f"{ours.expanded:,} expanded" + (f"; {ours.seconds / c_s:.2f} x C" if c_s else "")
    table.add("    kernel BFS (result.seconds)", label, ms(ours.seconds), kernel_note)

    print("(c) the CLI as a whole process")
    if (ROOT / "run.py").exists():
        command = [sys.executable, "run.py", "solve", str(big_path), "--algorithm", "bfs", "--json"]
        what = "run.py solve --algorithm bfs --json"
    else:
        command = [sys.executable, "-c", CLI_STANDIN, str(big_path)]
        what = "python -c (parse + solve_grid + json)"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)  # warm the JIT cache
    walls = []
    for _ in range(5):
        t0 = time.perf_counter()
        out = subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
        walls.append(time.perf_counter() - t0)
    answer = json.loads(out[out.index("{") : out.rindex("}") + 1])
    assert answer["cost"] == ours.cost, answer["cost"]
    reference = decode_s + (c_s or 0.0)
    table.add(
        f"(c) CLI process wall: {what}",
        label,
        ms(min(walls)),
        f"median {ms(statistics.median(walls))}; {min(walls) / reference:.1f} x (a)+(b)",
    )
    for snippet, note in (
        ("pass", "interpreter start"),
        ("import server", "the web package: Flask, Socket.IO"),
        ("import numba", "numba itself"),
        ("from server.puzzles.grid.precompile import compile_all; compile_all()",
         "numba + loading the cached kernels"),
    ):
        command = [sys.executable, "-c", snippet]
        startup_s, _ = best_of(lambda c=command: subprocess.run(c, cwd=ROOT, env=env, check=True), 3)
        table.add(f"    python -c '{snippet}' (process)", "-", ms(startup_s), f"part of (c): {note}")

    print("(d) every algorithm")
    kernel_times = {}
    for algorithm in ALGORITHMS:
        result, _ = best_solve(maze, algorithm, 5 if algorithm in ("bfs", "dfs") else 3)
        kernel_times[algorithm] = result.seconds
        assert result.cost == ours.cost, (algorithm, result.cost)
        table.add(
            f"(d) kernel {algorithm}",
            label,
            ms(result.seconds),
            f"{result.expanded:,} expanded; {result.seconds / kernel_times['bfs']:.2f} x BFS",
        )
    table.add("    ratio A* (manhattan) / BFS", label, f"{kernel_times['astar'] / kernel_times['bfs']:.2f}")

    print("(e) peak memory (subprocess, ru_maxrss after - before the solve, plus the maze's byte)")
    for algorithm in ("bfs", "dfs", "astar", "dijkstra", "greedy", "bidirectional"):
        per_cell, max_frontier = peak_rss_per_cell(maze, algorithm, workdir)
        note = f"max frontier {max_frontier:,}"
        table.add(f"(e) peak memory {algorithm}", label, f"{per_cell:.1f} B/cell", note)

    print("(f) Python peers")
    py_path = big_path if not options.quick else CASES / "perfect2k.png"
    py_maze = maze if not options.quick else load_maze(py_path)
    py_label = f"{py_path.stem} ({py_maze.width}x{py_maze.height})"
    flat = py_maze.cells.ravel().tolist()
    args = (flat, py_maze.width, py_maze.height, int(py_maze.starts[0]), int(py_maze.goals[0]))
    py_s, length = best_of(lambda: python_bfs(*args), 1)
    kernel_s, _ = best_solve(py_maze, "bfs")
    assert length == kernel_s.cost
    note = f"{py_s / kernel_s.seconds:.0f} x the kernel ({ms(kernel_s.seconds)})"
    table.add("(f) pure-Python flat-list BFS", py_label, ms(py_s), note)
    pathfinding_peer(table)

    print("(g) recording the trace")
    p2k = load_maze(CASES / "perfect2k.png")
    p2k_label = f"perfect2k ({p2k.width}x{p2k.height})"
    plain, _ = best_solve(p2k, "bfs")
    traced, trace = best_solve(p2k, "bfs", record_trace=True)
    table.add(
        "(g) kernel BFS, record_trace=True",
        p2k_label,
        ms(traced.seconds),
        f"{len(trace):,} records ({len(trace) * 9 / 1e6:.0f} MB); without trace {ms(plain.seconds)}",
    )

    generated(table, options.large)
    generic_memory(table, workdir)
    if options.large:
        from server.puzzles.grid.generate import generate_perfect, maze_to_image

        png = workdir / "perfect15k.png"
        maze_to_image(generate_perfect(7500, 7500, seed=1)).save(png)
        cli_at_the_limit(table, png, workdir)


# A fresh process runs the command (stdout to a file) and says its wall time and peak RSS: the
# helper is small, so what RUSAGE_CHILDREN inherits from it across fork and exec does not count.
CHILD_PEAK = r"""
import resource, subprocess, sys, time
with open(sys.argv[1], "wb") as out:
    t0 = time.perf_counter()
    subprocess.run(sys.argv[2:], stdout=out, check=True)
    wall = time.perf_counter() - t0
print(wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)
"""


def child_wall_and_peak(command: list[str], out: Path) -> tuple[float, int]:
    """(wall seconds, peak resident bytes) of ``command`` run in a fresh process, stdout to ``out``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    text = subprocess.run([sys.executable, "-c", CHILD_PEAK, str(out), *command], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True).stdout
    wall, peak = text.split()
    return float(wall), int(peak)


def cli_at_the_limit(table: Table, png: Path, workdir: Path) -> None:
    """(i) The CLI on a huge maze image: Pillow's decode + the C BFS, measured here, against the whole
    ``run.py solve --json`` process (best of 3) and its peak RSS; then ``--out``'s palette PNG."""
    import re

    from server.puzzles.grid.image import parse_grid_image
    from server.puzzles.grid.render import render_solution_indexed, save_png

    data = png.read_bytes()
    pixels_limit = 300_000_000
    print(f"(i) the CLI at the limit: {png}")
    Image.MAX_IMAGE_PIXELS = None

    def decode() -> None:
        with Image.open(io.BytesIO(data)) as im:
            im.load()

    decode_s, _ = best_of(decode, 3)
    maze = parse_grid_image(data, png.stem, max_pixels=pixels_limit)
    label = f"{png.name} ({maze.width}x{maze.height})"
    table.add("(i) Pillow decode (in-process)", label, ms(decode_s), f"{len(data) / 1e6:.1f} MB PNG")
    binary = build_c_bfs(workdir)
    if binary is None:
        return
    c_s, c_expanded, c_length = run_c_bfs(binary, workdir, maze, repeat=3)
    table.add("    C BFS, gcc -O2 (internal timer)", label, ms(c_s),
              f"{c_expanded:,} expanded, path {c_length:,}")
    (workdir / "maze.raw").unlink(missing_ok=True)

    command = [sys.executable, "run.py", "solve", str(png), "--algorithm", "bfs", "--json",
               "--max-pixels", str(pixels_limit)]
    answer = workdir / "answer.json"
    child_wall_and_peak(command, answer)  # numba's cache, the page cache: not timed
    runs = [child_wall_and_peak(command, answer) for _ in range(3)]
    wall = min(run[0] for run in runs)
    peak = max(run[1] for run in runs)
    text = answer.read_bytes()
    assert text.startswith(b'{"family":"grid","algorithm":"bfs","found":true,"cost":'), text[:80]
    cost = int(re.search(rb'"cost":([0-9]+)', text[:200]).group(1))
    assert cost == c_length, (cost, c_length)
    reference = decode_s + c_s
    table.add("(i) CLI process wall: run.py solve --algorithm bfs --json", label, ms(wall),
              f"runs {', '.join(f'{r[0]:.2f}' for r in runs)} s; {wall / reference:.2f} x (decode + C BFS)")
    table.add("    CLI peak RSS (RUSAGE_CHILDREN of a fresh helper)", label, f"{peak / 2**30:.2f} GiB",
              f"{peak / maze.cells.size:.1f} B/pixel; JSON {len(text) / 1e6:.0f} MB")
    answer.unlink()

    result, _ = solve_grid(maze, "bfs", record_trace=False)
    path = np.asarray(result.path, dtype=np.int64)
    del result
    out = workdir / "solution.png"
    t0 = time.perf_counter()
    image = render_solution_indexed(maze, path)
    drawn = time.perf_counter() - t0
    save_png(image, out)
    saved = time.perf_counter() - t0 - drawn
    note = f"drawn {ms(drawn)} + PNG {ms(saved)} ({out.stat().st_size / 1e6:.1f} MB, mode {image.mode})"
    table.add("(i) --out: palette image + save_png (in-process)", label, ms(drawn + saved), note)
    del image
    drawing = [sys.executable, "run.py", "solve", str(png), "--algorithm", "bfs", "--out", str(out),
               "--max-pixels", str(pixels_limit)]
    out_wall, out_peak = child_wall_and_peak(drawing, workdir / "summary.txt")
    table.add("    CLI process wall with --out (no --json)", label, ms(out_wall),
              f"peak {out_peak / 2**30:.2f} GiB; {ms(out_wall - wall)} more than --json")


# Runs in a fresh process: peak resident bytes of one solve through the service (pure-Python engine
# for the kernels' algorithms with "generic"), as in PEAK_RSS.
PEAK_RSS_SOLVE = r"""
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
from server.puzzles.grid.model import GridMaze
from server.solving import solve

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key + ":"))

maze = GridMaze(np.load(sys.argv[2]), [int(sys.argv[3])], [int(sys.argv[4])])
solve(GridMaze(np.ones((2, 2), np.uint8), [0], [3]), sys.argv[5], {}, engine=sys.argv[6])  # imports
before = status("VmRSS")
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
except OSError:
    pass
result = solve(maze, sys.argv[5], {}, engine=sys.argv[6], compact=True).json
print(before, max(status("VmHWM"), before), result["cost"], result["expanded"], result["max_frontier"])
"""


def generic_memory(table: Table, workdir: Path) -> None:
    """(j) Peak memory per cell of the pure-Python algorithms (JPS, wall followers, and the generic
    engine's BFS and A*), on a generated perfect maze small enough for Python."""
    try:
        from server.puzzles.grid.generate import generate_perfect
    except ImportError:
        return
    maze = generate_perfect(300, 300, seed=1)
    label = f"generated perfect 300x300 cells ({maze.width}x{maze.height} px)"
    npy = workdir / "generic.npy"
    np.save(npy, maze.cells)
    print("(j) peak memory of the pure-Python algorithms")
    runs = [("bfs", "generic"), ("astar", "generic"), ("jps", "auto"), ("wall_left", "auto"),
            ("wall_right", "auto")]
    for algorithm, engine in runs:
        args = [sys.executable, "-c", PEAK_RSS_SOLVE, str(ROOT), str(npy), str(maze.starts[0]),
                str(maze.goals[0]), algorithm, engine]
        out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
        before, after, cost, expanded, frontier = out.split()
        used = int(after) - int(before)
        per_cell = (used + maze.cells.nbytes) / maze.cells.size
        table.add(f"(j) peak memory {algorithm} ({engine})", label, f"{per_cell:.1f} B/cell",
                  f"{used / int(expanded):.0f} B per state expanded; cost {cost}, "
                  f"{int(expanded):,} expanded, max frontier {int(frontier):,}")


def pathfinding_peer(table: Table) -> None:
    """The PyPI `pathfinding` package's BFS (a port of PathFinding.js), on a maze it can manage."""
    try:
        from pathfinding.core.diagonal_movement import DiagonalMovement
        from pathfinding.core.grid import Grid
        from pathfinding.finder.breadth_first import BreadthFirstFinder
    except ImportError:
        print("  (the `pathfinding` package is not installed: skipped)")
        return
    path = CASES / "combo400.png"
    maze = load_maze(path)
    label = f"combo400 ({maze.width}x{maze.height})"
    width = maze.width
    (sr, sc), (gr, gc) = divmod(int(maze.starts[0]), width), divmod(int(maze.goals[0]), width)
    matrix = maze.cells.tolist()

    def solve() -> int:
        grid = Grid(matrix=matrix)
        finder = BreadthFirstFinder(diagonal_movement=DiagonalMovement.never)
        found, _runs = finder.find_path(grid.node(sc, sr), grid.node(gc, gr), grid)
        return len(found) - 1

    peer_s, length = best_of(solve, 2)
    ours, _ = best_solve(maze, "bfs")
    assert length == ours.cost, (length, ours.cost)
    note = f"{peer_s / ours.seconds:.0f} x the kernel"
    table.add("(f) pathfinding 1.0 BreadthFirstFinder", label, ms(peer_s), note)
    table.add("    kernel BFS", label, ms(ours.seconds))


def generated(table: Table, large: bool) -> None:
    """Bigger mazes from the project's generator, when it is there."""
    try:
        from server.puzzles.grid.generate import generate_perfect
    except ImportError:
        print("  (no server.puzzles.grid.generate: generated mazes skipped)")
        return
    sizes = [3000] + ([7500] if large else [])
    for size in sizes:
        t0 = time.perf_counter()
        maze = generate_perfect(size, size, seed=1)
        made = time.perf_counter() - t0
        label = f"generated perfect {size}x{size} cells ({maze.width}x{maze.height} px)"
        for algorithm in ("bfs", "astar"):
            result, _ = best_solve(maze, algorithm, 2)
            table.add(
                f"(h) kernel {algorithm}",
                label,
                ms(result.seconds),
                f"{result.expanded:,} expanded; maze made in {made:.1f} s",
            )


# What run.py's solve does, for when run.py is not there: parse, solve, print JSON.
CLI_STANDIN = r"""
import json, sys
from pathlib import Path
sys.path.insert(0, ".")
import numpy as np
from server.puzzles.grid.kernel_search import solve_grid
from server.puzzles.grid.model import GridMaze
path = Path(sys.argv[1])
try:
    from server.puzzles.grid.image import parse_grid_image
    maze = parse_grid_image(path.read_bytes(), path.stem, max_pixels=300_000_000)
except ImportError:
    from PIL import Image
    cells = (np.asarray(Image.open(path).convert("L")) >= 128).astype(np.uint8)
    start, goal = int(np.flatnonzero(cells[0])[0]), cells[:-1].size + int(np.flatnonzero(cells[-1])[0])
    maze = GridMaze(cells, [start], [goal])
result, _ = solve_grid(maze, "bfs", record_trace=False)
print(json.dumps(result.to_json([list(divmod(c, maze.width)) for c in result.path])))
"""

if __name__ == "__main__":
    main()
