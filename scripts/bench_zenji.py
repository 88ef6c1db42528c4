"""How large a Zenji board each algorithm solves within the server's limits, under each flow.

Run from the project root:  .venv/bin/python scripts/bench_zenji.py [--seeds 3] [--seconds 20]

For square generated boards of growing side (``server.puzzles.zenji.generate``, fixed seeds), every
algorithm of the family runs with the server's limits for pure-Python searches (states expanded and
stored, ``server.config.Config``) and a per-run time cap (``--seconds``; the server's own is
``Config.max_seconds``). A size counts as solved when every seed's board was solved within them.
The peer, timed in the same process: seed 001's own A* (its estimate 2 x distance in turns, which is
not admissible), on the same boards. Prints a Markdown table (paste it into docs/ZENJI.md).
"""

from __future__ import annotations

import argparse
import datetime
import platform
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a plain script

from server.config import Config
from server.puzzles.zenji.family import FAMILY
from server.puzzles.zenji.generate import random_board
from server.solving import solve

SIDES = {"downhill": (4, 8, 16, 24, 32), "free": (4, 6, 8, 10, 12, 16, 20, 24, 32)}
PEER = ("astar", {"heuristic": "seed"})


def run(board, algorithm: str, options: dict, seconds: float, config: Config) -> tuple[bool, float, int, str]:
    """(solved, search seconds, states expanded, why it stopped). Search time only: for a non-optimal
    algorithm ``solve`` also looks for the optimum (up to 1 s) to mark the answer, not counted here."""
    result = solve(
        board,
        algorithm,
        {"flow": board.flow, **options},
        max_expanded=config.max_expanded_generic,
        max_seconds=seconds,
        max_stored=config.max_stored_generic,
    ).json
    return result["found"], result["seconds"], result["expanded"], result.get("stopped") or ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="boards per size (seeds 0..N-1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="time cap of one run")
    args = parser.parse_args(argv)
    config = Config()
    print(
        f"{datetime.date.today()} · {platform.python_implementation()} {platform.python_version()} · "
        f"limits: {config.max_expanded_generic:,} expanded, {config.max_stored_generic:,} stored, "
        f"{args.seconds:g} s a run · {args.seeds} boards a size\n"
    )
    print(
        "| flow | algorithm | largest side solved | its median search time | its median expanded "
        "| first failure |"
    )
    print("|---|---|---|---|---|---|")
    runs = [(name, {}) for name in FAMILY.algorithms] + [PEER]
    for flow, sides in SIDES.items():
        for algorithm, options in runs:
            if algorithm == "bidirectional" and flow == "free":
                continue
            label = "peer: seed 001's A*" if options else algorithm
            best, best_times, best_expanded, failure = None, [], [], "—"
            for side in sides:
                outcomes = [
                    run(random_board(side, side, seed, flow), algorithm, options, args.seconds, config)
                    for seed in range(args.seeds)
                ]
                if not all(found for found, *_ in outcomes):
                    why = next(stop for found, _, _, stop in outcomes if not found) or "no solution"
                    failure = f"{side} × {side}: {why}"
                    break
                best = side
                best_times = [t for _, t, _, _ in outcomes]
                best_expanded = [e for _, _, e, _ in outcomes]
            if best is None:
                print(f"| {flow} | {label} | none | | | {failure} |")
                continue
            print(
                f"| {flow} | {label} | {best} × {best} | {statistics.median(best_times):.3f} s | "
                f"{int(statistics.median(best_expanded)):,} | {failure} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
