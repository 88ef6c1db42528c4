"""AIMA's 8-puzzle table ("Effectiveness of A*"), reproduced with the project's own searches.

For each depth d = 2, 4, …, 24: ``--boards`` (100) boards drawn uniformly (seeded, with replacement:
d = 2 has only four) among the 8-puzzles
exactly d moves from the goal ``1 2 3 4 5 6 7 8 0`` (a full breadth-first search of the 181,440
solvable boards gives every board's distance), each solved by the project's generic algorithms
(``server.search.runner.run_algorithm`` over the family's ``SlidingProblem``), so the counts are the
project's:

* IDS = ``iddfs`` as registered (per iteration, a table of the states stepped onto: a state reached
  again no cheaper is skipped) and ``IDS path`` = the same without that table (only a state already
  on the current path is skipped), where feasible (``--ids-depth``, ``--ids-path-depth``: 18);
* A*(h1) = ``astar`` with ``misplaced``, A*(h2) = ``astar`` with ``manhattan``;
* and, to compare with the book's IDS column, ``IDS tree``: iterative deepening as the book's tree
  search (nothing pruned, not even the parent's move undone; every node created counted, each
  iteration's root included), by a small compiled counter (``sliding_kernels.tree_ids_count``), up to
  ``--ids-tree-depth`` (14).

Counting, as everywhere in the project (``server/search/stats.py``): *generated* = states put on the
frontier (A*: OPEN and UPDATE events; IDS: every state stepped onto within the depth bound, in every
iteration; a successor beyond the bound is not counted) and *expanded* = states whose successors were
examined. The book's IDS is a tree search that regenerates the parent too, so its count grows
like 2.8^d; ours never re-enters the path (IDS path) or a state already reached as cheaply (IDS).
The book's table is labelled "nodes generated" in one edition and "nodes expanded" in another: both
of ours are printed. b* solves N + 1 = 1 + b* + b*² + … + b*^d for the mean N (generated).

    .venv/bin/python scripts/aima_table.py                    # the full table (several minutes)
    .venv/bin/python scripts/aima_table.py --boards 20 --depths 2-12
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from server.puzzles.sliding import fast, sliding_kernels
from server.puzzles.sliding.model import SlidingBoard
from server.puzzles.sliding.problem import SlidingProblem
from server.search.algorithms.iterative import iddfs
from server.search.registry import SearchOptions, get_algorithm
from server.search.runner import Limits, run_algorithm

GOAL = bytes([1, 2, 3, 4, 5, 6, 7, 8, 0])

# The book's figures as the cases README gives them (AIMA 2nd ed., means over 100 boards a depth).
BOOK = {
    2: (10, 6, 6),
    4: (112, 13, 12),
    8: (6_384, 39, 25),
    12: (364_404, 227, 73),
    14: (3_473_941, 539, 113),
    20: (None, 7_276, 676),
}


def distances(goal: bytes) -> dict[bytes, int]:
    """Every solvable board's distance to ``goal`` (breadth-first, 181,440 boards)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        s = queue.popleft()
        b = s.index(0)
        r, c = divmod(b, 3)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                nb = (r + dr) * 3 + c + dc
                t = bytearray(s)
                t[b], t[nb] = t[nb], 0
                t = bytes(t)
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
    return dist


def branching(nodes: float, depth: int) -> float:
    """b* with nodes + 1 = 1 + b* + … + b*^depth (bisection)."""
    if depth == 0 or nodes <= 0:
        return float("nan")
    lo, hi = 1e-9, max(2.0, nodes)
    for _ in range(200):
        mid = (lo + hi) / 2
        total = sum(mid**i for i in range(depth + 1))
        if total < nodes + 1:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def run(board: bytes, method: str) -> tuple[int, int, float]:
    """(generated, expanded, cost) of one method on one board."""
    if method == "ids_tree":
        relabelled, _ = fast.relabel(board, GOAL, 3)
        depth, generated, expanded = sliding_kernels.tree_ids_count(relabelled, np.int64(3), np.int64(40))
        return int(generated), int(expanded), float(depth)
    problem = SlidingProblem(SlidingBoard(3, board, GOAL))
    limits = Limits(max_expanded=None, max_seconds=None)
    if method == "ids":
        result = run_algorithm(problem, get_algorithm("iddfs"), SearchOptions(), limits)
    elif method == "ids_path":
        algo = get_algorithm("iddfs")
        variant = type(algo)(algo.name, algo.label, algo.summary, lambda p, o: iddfs(p, transpositions=False),
                             algo.optimal)  # fmt: skip
        result = run_algorithm(problem, variant, SearchOptions(), limits)
    else:
        heuristic = {"h1": "misplaced", "h2": "manhattan"}[method]
        result = run_algorithm(problem, get_algorithm("astar"), SearchOptions(heuristic=heuristic), limits)
    if not result.found:
        raise RuntimeError(f"{method} found no solution for {list(board)}")
    return result.generated, result.expanded, result.cost


def parse_depths(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = (int(x) for x in part.split("-"))
            out.extend(d for d in range(a, b + 1) if d % 2 == 0)
        else:
            out.append(int(part))
    return out


def fmt(x: float | None, digits: int = 0) -> str:
    if x is None:
        return "–"
    return f"{x:,.{digits}f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=100, help="boards a depth (100)")
    parser.add_argument("--depths", default="2-24", help="even depths, e.g. 2-24 or 2,4,8")
    parser.add_argument("--ids-depth", type=int, default=18, help="deepest d for IDS (18)")
    parser.add_argument(
        "--ids-path-depth", type=int, default=18, help="deepest d for IDS without its table (18)"
    )
    parser.add_argument(
        "--ids-tree-depth", type=int, default=14, help="deepest d for the book's tree IDS (14)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    clock = time.perf_counter()
    dist = distances(GOAL)
    by_depth: dict[int, list[bytes]] = {}
    for s, d in dist.items():
        by_depth.setdefault(d, []).append(s)
    print(f"8-puzzle: {len(dist):,} solvable boards, the farthest {max(dist.values())} moves from "
          f"{' '.join(map(str, GOAL))} (BFS {time.perf_counter() - clock:.1f} s); {args.boards} boards a "
          f"depth, seed {args.seed}")  # fmt: skip
    rng = random.Random(args.seed)
    methods = ("ids_tree", "ids", "ids_path", "h1", "h2")
    deepest = {"ids_tree": args.ids_tree_depth, "ids": args.ids_depth, "ids_path": args.ids_path_depth}
    rows = []
    for depth in parse_depths(args.depths):
        pool = sorted(by_depth[depth])
        boards = rng.choices(pool, k=args.boards)  # uniform, independent draws (d = 2 has only 4 boards)
        row: dict[str, tuple[float, float] | None] = {}
        started = time.perf_counter()
        for method in methods:
            if depth > deepest.get(method, 99):
                row[method] = None
                continue
            generated = expanded = 0
            for board in boards:
                g, e, cost = run(board, method)
                if cost != depth:
                    raise AssertionError(f"{method} cost {cost} on a board {depth} moves away: {list(board)}")
                generated += g
                expanded += e
            row[method] = (generated / len(boards), expanded / len(boards))
        rows.append((depth, len(boards), row, time.perf_counter() - started))
        print(f"  d={depth}: {len(boards)} boards in {rows[-1][3]:.1f} s", file=sys.stderr, flush=True)

    header = ("d", "IDS tree gen", "IDS gen", "IDS exp", "IDS path gen", "A*(h1) gen", "A*(h1) exp",
              "A*(h2) gen", "A*(h2) exp", "b* IDS tree", "b* IDS", "b* h1", "b* h2",
              "book IDS", "book h1", "book h2")  # fmt: skip
    print()
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for depth, _, row, _ in rows:
        tree, ids, path, h1, h2 = (row[m] for m in methods)
        book = BOOK.get(depth, (None, None, None))
        cells = [
            str(depth), fmt(tree and tree[0]),
            fmt(ids and ids[0]), fmt(ids and ids[1]), fmt(path and path[0]),
            fmt(h1 and h1[0]), fmt(h1 and h1[1]), fmt(h2 and h2[0]), fmt(h2 and h2[1]),
            fmt(tree and branching(tree[0], depth), 2), fmt(ids and branching(ids[0], depth), 2),
            fmt(h1 and branching(h1[0], depth), 2), fmt(h2 and branching(h2[0], depth), 2),
            fmt(book[0]), fmt(book[1]), fmt(book[2]),
        ]  # fmt: skip
        print(" | ".join(cells))
    print(f"\ntotal {time.perf_counter() - clock:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
