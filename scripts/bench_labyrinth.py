"""Time the labyrinth's searches: the shared course boards and the board game's 7x7 setting.

Run from the project root:  .venv/bin/python -m scripts.bench_labyrinth [--cases ../shared/cases]

Prints two Markdown tables (paste them into docs/LABYRINTH.md):
1. every board of ``cases/labyrinth`` under both move models: BFS and A* on the one-player view,
   A* and IDA* on the merged view, and seed 000's greedy method as the peer to beat;
2. the board game: random 7x7 boards (fixed seeds), rows and columns 1, 3, 5 pushable from both
   sides, the free tile may be turned, start below column 1, goal above column 5, combined moves.
   A* on both views gives the optimum; IDA* bounded to 3 moves either finds a plan of at most
   3 moves (then it is optimal) or proves that none exists ("> 3").
Times are wall-clock seconds of one run on this machine (pure Python, one thread).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a plain script, like bench_grid.py

from server.puzzles.labyrinth.generate import board_game
from server.puzzles.labyrinth.model import LabyrinthPuzzle
from server.puzzles.labyrinth.parse import LabyrinthOptions, parse_labyrinth_csv, parse_labyrinth_json
from server.puzzles.labyrinth.solve import solve_labyrinth

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CASES = ROOT.parent / "shared" / "cases"
#: Start and goal columns of the shared boards (cases/README.md); the rest use the defaults.
CASE_OPTIONS = {"Puzzle_6.csv": {"start_col": 1, "goal_col": 2}}
RUNS = (
    ("bfs", "states"),
    ("astar", "states"),
    ("astar", "sets"),
    ("idastar", "sets"),
    ("seed-greedy", "states"),
)


def load(path: Path, moves: str) -> LabyrinthPuzzle:
    options = LabyrinthOptions(moves=moves, **CASE_OPTIONS.get(path.name, {}))
    text = path.read_text()
    if path.suffix == ".csv":
        return parse_labyrinth_csv(text, options, path.name)
    return parse_labyrinth_json(text, options, path.name)


def timed(puzzle: LabyrinthPuzzle, algorithm: str, **kwargs: Any) -> tuple[dict[str, Any], float]:
    start = time.perf_counter()
    result = solve_labyrinth(puzzle, algorithm, **kwargs)
    return result, time.perf_counter() - start


def cost_text(result: dict[str, Any]) -> str:
    if result["found"]:
        return str(result["cost"])
    return "gave up" if result["algorithm"] == "seed-greedy" else "none"


def shared_table(cases: Path) -> list[str]:
    lines = [
        "| board | size | moves | algorithm | view | cost | insertions | expanded | generated | seconds |",
        "|---|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for path in sorted((cases / "labyrinth").iterdir()):
        for moves in ("combined", "separate"):
            puzzle = load(path, moves)
            for algorithm, view in RUNS:
                result, seconds = timed(puzzle, algorithm, view=view)
                lines.append(
                    f"| {path.name} | {puzzle.rows}x{puzzle.cols} | {moves} | {algorithm} | {view} "
                    f"| {cost_text(result)} | {result['insertions']} | {result['expanded']:,} "
                    f"| {result['generated']:,} | {seconds:.3f} |"
                )
    return lines


def game_table(seeds: range) -> list[str]:
    lines = [
        "| seed | optimum (A*) | A*, states: s | A*, merged: s | IDA* to depth 3 | IDA*: s | IDA* expanded |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for seed in seeds:
        puzzle = board_game(seed)
        states, states_s = timed(puzzle, "astar", view="states")
        merged, merged_s = timed(puzzle, "astar", view="sets")
        assert states["cost"] == merged["cost"], seed
        bounded, bounded_s = timed(puzzle, "idastar", view="sets", max_depth=3)
        verdict = f"{bounded['cost']} moves" if bounded["found"] else "> 3 (none within 3)"
        lines.append(
            f"| {seed} | {cost_text(merged)} | {states_s:.3f} | {merged_s:.3f} | {verdict} | {bounded_s:.3f} "
            f"| {bounded['expanded']:,} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="the shared cases folder")
    parser.add_argument("--seeds", type=int, default=8, help="board-game boards to time (seeds 0..N-1)")
    args = parser.parse_args(argv)
    print(f"Labyrinth benchmark, {datetime.date.today()}, Python {platform.python_version()}\n")
    if (args.cases / "labyrinth").is_dir():
        print("\n".join(shared_table(args.cases)))
    else:
        print(f"(no shared cases at {args.cases}: skipping the course boards)")
    print("\nBoard game: 7x7, rows and columns 1, 3, 5 from both sides, free tile turned, combined moves\n")
    print("\n".join(game_table(range(args.seeds))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
