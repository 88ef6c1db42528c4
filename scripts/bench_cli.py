#!/usr/bin/env python
"""Benchmark the command line's start-up: whole processes, medians of N runs (docs/BENCHMARKS.md,
"The CLI's start-up").

    .venv/bin/python scripts/bench_cli.py                     # floor, solve maze3.png, check: 15 runs each
    .venv/bin/python scripts/bench_cli.py --runs 31 --files 200
    .venv/bin/python scripts/bench_cli.py --root /tmp/before  # another checkout's run.py (a before figure)
    .venv/bin/python scripts/bench_cli.py --engines           # where the kernels start to pay, by board size

(a) the floor any Python image tool pays: ``python -c "import numpy, json; from PIL import Image"``;
(b) ``run.py solve maze3.png`` and its ratio to (a); (c) ``run.py check maze3.png --solution`` over
``--files`` solution files in one process, against one process per file; (d) with ``--engines``,
``run.py solve`` of generated perfect mazes with ``--engine generic`` and ``--engine compiled``: the
board size where the kernels' loading stops costing more than the generic engine's search
(``grid/family.py``'s ``COMPILED_MIN_CELLS``).

Every process runs as a user's does, with bytecode caches (an untimed first run writes them; the
environment's PYTHONDONTWRITEBYTECODE is dropped for the children). Runs of (a) and (b) alternate, so
a burst of load on a shared machine hits both alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(os.environ.get("MAZE_CASES", ROOT.parent / "shared" / "cases"))
FLOOR = [sys.executable, "-c", "import numpy, json; from PIL import Image"]
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SIZES = (63, 90, 127, 180, 255, 360)  # maze cells a side: boards of 16 k to 520 k cells
OPEN_SIDES = (126, 179, 254, 360, 510)  # open boards of 16 k to 260 k cells


def wall(command: list[str], cwd: Path) -> float:
    """Seconds of one whole process (its output thrown away); it must succeed or say it found nothing."""
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - t0
    if done.returncode not in (0, 3):  # 3: `check` found an illegal solution, as it should
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return seconds


def medians(commands: dict[str, list[str]], runs: int, cwd: Path) -> dict[str, list[float]]:
    """Every command ``runs`` times, taking turns (after one untimed run each); the times, sorted."""
    for command in commands.values():
        wall(command, cwd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(wall(command, cwd))
    return {name: sorted(values) for name, values in times.items()}


def show(label: str, values: list[float], note: str = "") -> float:
    middle = statistics.median(values)
    spread = f"[{values[0]:.3f} .. {values[-1]:.3f}]"
    print(f"{label:<58} {middle * 1000:8.1f} ms  {spread:<18} {note}", flush=True)
    return middle


def solution_files(root: Path, maze: Path, folder: Path, count: int) -> list[Path]:
    """``count`` hand-ins: the optimal path as `solve --json` prints it, and every fourth one illegal."""
    answer = subprocess.run([sys.executable, "run.py", "solve", str(maze), "--json"], cwd=root, env=ENV,
                            capture_output=True, check=True).stdout
    files = []
    for i in range(count):
        path = folder / f"hand-in-{i:03d}.{'txt' if i % 4 == 3 else 'json'}"
        path.write_bytes(b"RRDD\n" if i % 4 == 3 else answer)
        files.append(path)
    return files


def startup(root: Path, runs: int, count: int) -> None:
    maze = CASES / "images" / "lee" / "maze3.png"
    run_py = [sys.executable, "run.py"]
    print(f"{runs} runs each, {root}; load average {os.getloadavg()[0]:.1f}")
    times = medians({"floor": FLOOR, "solve": [*run_py, "solve", str(maze)]}, runs, root)
    floor = show("(a) python -c 'import numpy, json; from PIL import Image'", times["floor"])
    ratio = statistics.median(times["solve"]) / floor
    show("(b) run.py solve maze3.png", times["solve"], f"{ratio:.2f} x (a)")
    with tempfile.TemporaryDirectory() as tmp:
        files = solution_files(root, maze, Path(tmp), count)
        each = [wall([*run_py, "check", str(maze), "--solution", str(f)], root) for f in files]
        total = sum(each)
        print(f"{f'(c) one process per file ({count} processes, total)':<58} {total * 1000:8.1f} ms  "
              f"{'':<18} {statistics.median(each) * 1000:.1f} ms a file (median)", flush=True)
        batch = [*run_py, "check", str(maze), "--solution", *map(str, files)]
        try:
            one = show(f"    run.py check maze3.png --solution <{count} files>",
                       medians({"batch": batch}, max(3, runs // 5), root)["batch"])
        except SystemExit as err:  # a checkout whose check takes one file
            print(f"    the batch: not in this checkout ({str(err)[-120:].strip()})")
        else:
            print(f"{'    the batch, per file':<58} {one / count * 1000:8.1f} ms  {'':<18} "
                  f"{total / one:.1f} x faster than a process per file")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


def engines(root: Path, runs: int) -> None:
    """(d) Whole `run.py solve` processes, generic against compiled, by board size: generated perfect
    mazes (a search expands part of the free half of the cells) and open boards from corner to corner
    (it expands every cell: the generic engine's worst case)."""
    sys.path.insert(0, str(root))
    from server.puzzles.grid.generate import generate_perfect, maze_to_image

    print(f"(d) run.py solve, generic vs compiled engine: medians of {runs}; load average "
          f"{os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        boards = []
        for side in SIZES:
            png = Path(tmp) / f"perfect{side}.png"
            maze_to_image(generate_perfect(side, side, seed=1)).save(png)
            boards.append((png, f"perfect {(2 * side + 1) ** 2:>9,} cells"))
        for side in OPEN_SIDES:
            rows = ["#" * (side + 2)] + ["#" + "." * side + "#"] * side + ["#" * (side + 2)]
            rows[1] = "#S" + rows[1][2:]
            rows[-2] = rows[-2][:-2] + "G#"
            text = Path(tmp) / f"open{side}.txt"
            text.write_text("\n".join(rows) + "\n")
            boards.append((text, f"open    {(side + 2) ** 2:>9,} cells"))
        for path, label in boards:
            for algorithm in ("bfs", "astar"):
                base = [sys.executable, "run.py", "solve", str(path), "-a", algorithm, "--engine"]
                times = medians({e: [*base, e] for e in ("generic", "compiled")}, runs, root)
                generic, compiled = (statistics.median(times[e]) for e in ("generic", "compiled"))
                faster = "generic" if generic < compiled else "compiled"
                gap = abs(generic - compiled) * 1000
                print(f"    {label} {algorithm:<6} generic {generic * 1000:7.1f} ms  compiled "
                      f"{compiled * 1000:7.1f} ms  ({faster} faster by {gap:.0f} ms)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="processes per median (default 15)")
    parser.add_argument("--files", type=int, default=50, help="solution files for (c) (default 50)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose run.py runs")
    parser.add_argument("--engines", action="store_true", help="only (d): the engines by board size")
    options = parser.parse_args()
    if options.engines:
        engines(options.root.resolve(), options.runs)
    else:
        startup(options.root.resolve(), options.runs, options.files)


if __name__ == "__main__":
    main()
