"""Korf's 100 random 15-puzzles, solved optimally by the compiled fast path (``sliding/fast.py``).

Every instance by IDA* with the additive 6-6-3 pattern databases (built on first use and cached
under ``var/pdb/``, or ``$MAZE_PDB_DIR``; their memory and build time are printed); every length
checked against the published one and every solution replayed to the goal (exit 1 on a mismatch).
Totals of time and nodes are printed beside Korf's IDA*/Manhattan node counts (the file's third
column) and the published pattern-database results. ``--compare`` adds a sample solved with Manhattan
and with linear conflict, whose node counts compare with Korf's directly.

Nodes: *generated* = successors produced (one a legal move other than the parent's move undone,
pruned by the bound or not), *expanded* = nodes whose successors were generated; Korf counted nodes
generated.

    .venv/bin/python scripts/bench_sliding.py                        # all 100 with the pattern databases
    .venv/bin/python scripts/bench_sliding.py --instances 1-10,42
    .venv/bin/python scripts/bench_sliding.py --instances none --compare 12,42,55,79,97
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.puzzles.sliding import fast, pdb  # noqa: E402

CASES = Path(os.environ.get("MAZE_CASES", ROOT.parent / "shared" / "cases"))
GOAL = bytes(range(16))
PUBLISHED_PDB = (
    "published (cases README): additive disjoint pattern databases (Korf & Felner 2002) solve all 100 "
    "with a few thousand to a few hundred thousand nodes each, well under a second per instance"
)


def korf(path: Path) -> dict[int, tuple[int, int, bytes]]:
    """{instance: (optimal moves, Korf's IDA*/Manhattan nodes generated, tiles)}."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            nums = [int(x) for x in line.split()]
            out[nums[0]] = (nums[1], nums[2], bytes(nums[3:]))
    return out


def parse_instances(text: str) -> list[int]:
    if text in ("", "none"):
        return []
    if text == "all":
        return list(range(1, 101))
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = (int(x) for x in part.split("-"))
            out.extend(range(a, b + 1))
        else:
            out.append(int(part))
    return out


def solve_all(cases, numbers, heuristic: str, verbose: bool) -> tuple[float, int, int, int, list[str]]:
    """(seconds, generated, expanded, Korf's nodes, errors) over ``numbers``."""
    total_s = 0.0
    total_g = total_e = total_korf = 0
    errors = []
    for number in numbers:
        length, korf_nodes, tiles = cases[number]
        started = time.perf_counter()
        result = fast.solve_fast(tiles, GOAL, 4, "idastar", heuristic)
        seconds = time.perf_counter() - started
        total_s += seconds
        total_g += result.generated
        total_e += result.expanded
        total_korf += korf_nodes
        ok = result.found and result.cost == length and fast.apply_moves(tiles, 4, result.moves) == GOAL
        if not ok:
            errors.append(f"#{number} {heuristic}: {result.cost} moves, published {length}")
        if verbose:
            print(
                f"  #{number:3d} {heuristic:15s} {result.cost} moves (published {length})"
                f"{'' if ok else '  MISMATCH'}"
                f"  {seconds:8.3f} s  generated {result.generated:>13,}  expanded {result.expanded:>13,}"
                f"  Korf/Manhattan {korf_nodes:>13,}",
                flush=True,
            )
    return total_s, total_g, total_e, total_korf, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", default="all", help="e.g. 1-10,42 (default all); 'none' to skip")
    parser.add_argument(
        "--compare", default="", help="instances to solve with Manhattan and linear conflict too"
    )
    parser.add_argument("--quiet", action="store_true", help="totals only")
    args = parser.parse_args()

    cases = korf(CASES / "sliding" / "korf100.txt")
    numbers = parse_instances(args.instances)
    compare = parse_instances(args.compare)
    print(f"Korf's 100 ({CASES / 'sliding' / 'korf100.txt'}), goal 0 1 2 … 15; {os.cpu_count()} cores")

    errors: list[str] = []
    if numbers:
        clock = time.perf_counter()
        info = pdb.stats(4, 0)
        print(pdb.describe(info))
        print(f"(tables ready in {time.perf_counter() - clock:.2f} s this run: built, or read from disk)")
    clock = time.perf_counter()
    fast.warm_up()
    print(f"JIT load/compile of the kernel: {time.perf_counter() - clock:.2f} s")
    if numbers:
        seconds, generated, expanded, korf_nodes, errs = solve_all(cases, numbers, "pdb", not args.quiet)
        errors += errs
        print(
            f"pdb 6-6-3: {len(numbers)} instances, {len(numbers) - len(errs)} at their published length; "
            f"{seconds:.2f} s in all ({seconds / len(numbers) * 1000:.0f} ms a mean instance); "
            f"nodes generated {generated:,} (mean {generated / len(numbers):,.0f}), expanded {expanded:,}"
        )
        print(
            f"Korf (1985) IDA*/Manhattan on the same instances: {korf_nodes:,} nodes generated "
            f"(mean {korf_nodes / len(numbers):,.0f}): {korf_nodes / max(generated, 1):,.0f} x ours with the "
            "tables"
        )
        print(PUBLISHED_PDB)
    for heuristic in ("manhattan", "linear_conflict") if compare else ():
        seconds, generated, expanded, korf_nodes, errs = solve_all(cases, compare, heuristic, not args.quiet)
        errors += errs
        print(
            f"{heuristic}: {len(compare)} instances {args.compare}: {seconds:.2f} s, "
            f"generated {generated:,}, expanded {expanded:,}; Korf's Manhattan count {korf_nodes:,} "
            f"(ours / Korf's {generated / korf_nodes:.2f}); "
            f"{generated / max(seconds, 1e-9) / 1e6:.1f} M nodes/s"
        )
    if errors:
        print("MISMATCHES:\n  " + "\n  ".join(errors))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
