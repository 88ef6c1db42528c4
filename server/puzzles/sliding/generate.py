"""Generated sliding-tile boards, seeded (docs/SLIDING.md "Generators").

* ``random_board``: uniform over the boards that can reach the goal. A uniformly random permutation
  is unsolvable half the time; swapping the tiles of the first two non-blank cells flips the parity
  and is its own inverse, so it pairs every unsolvable board with exactly one solvable one, and the
  result is uniform over the solvable half.
* ``board_at_depth``: a board whose optimal solution takes exactly ``depth`` moves where that can be
  known cheaply. For n = 3, uniform among all boards at breadth-first distance ``depth`` from the goal
  (one BFS over the 181,440 boards, cached per goal). For n >= 4, a random walk of ``depth`` moves
  from the goal that never undoes its last move, then measured with IDA* (the compiled fast path when
  it is there, else the generic engine within a small budget): a walk may cut corners, so it is retried
  a few times for one that stays exactly ``depth`` moves away; the description says what was found —
  "exactly d", "d' moves (a walk of d)" or, when the measure ran out of budget, "at most d".
"""

from __future__ import annotations

import random
from functools import lru_cache

from server.puzzles.family import RunControl
from server.puzzles.sliding.model import OPPOSITE, SlidingBoard, is_solvable
from server.puzzles.sliding.problem import neighbours

WALK_ATTEMPTS = 6  # walks tried for one that stays exactly ``depth`` moves from the goal
MEASURE_BUDGET = 60_000  # states a generic measuring IDA* may expand (a fraction of a second to a few)


def random_board(n: int, seed: int, goal: bytes, name: str = "") -> SlidingBoard:
    """A uniformly random board that can reach ``goal``."""
    rng = random.Random(seed)
    tiles = list(range(n * n))
    rng.shuffle(tiles)
    if not is_solvable(bytes(tiles), goal, n):
        a, b = [i for i, t in enumerate(tiles) if t][:2]
        tiles[a], tiles[b] = tiles[b], tiles[a]
    return SlidingBoard(n, bytes(tiles), goal, name or f"sliding-{n}x{n}-{seed}", (), "generated")


@lru_cache(maxsize=4)
def distances_from(goal: bytes) -> dict[bytes, int]:
    """Breadth-first distance of every 8-puzzle board from ``goal`` (181,440 boards; ~1 s, cached)."""
    n = 3
    table = neighbours(n)
    depth = {goal: 0}
    frontier = [goal]
    d = 0
    while frontier:
        d += 1
        following = []
        for state in frontier:
            blank = state.index(0)
            for _name, cell in table[blank]:
                board = bytearray(state)
                board[blank], board[cell] = board[cell], 0
                nxt = bytes(board)
                if nxt not in depth:
                    depth[nxt] = d
                    following.append(nxt)
        frontier = following
    return depth


def board_at_depth(n: int, depth: int, seed: int, goal: bytes, name: str = "") -> tuple[SlidingBoard, str]:
    """A board ``depth`` moves from ``goal`` (module docstring) and a phrase saying how far it is."""
    rng = random.Random(seed)
    label = name or f"sliding-{n}x{n}-d{depth}-{seed}"
    if n == 3:
        distances = distances_from(goal)
        at = sorted(state for state, d in distances.items() if d == depth)
        if not at:
            farthest = max(distances.values())
            raise ValueError(f"no 8-puzzle board is {depth} moves from this goal: the farthest are "
                             f"{farthest}")
        tiles = rng.choice(at)
        return SlidingBoard(n, tiles, goal, label, (), "generated"), f"exactly {depth} moves from the goal"
    best: tuple[int, bytes] | None = None
    for _attempt in range(WALK_ATTEMPTS):
        tiles = random_walk(n, goal, depth, rng)
        board = SlidingBoard(n, tiles, goal, label, (), "generated")
        measured = optimal_moves(board)
        if measured is None:
            return board, f"at most {depth} moves from the goal (a walk of {depth} moves; not measured)"
        if measured == depth:
            return board, f"exactly {depth} moves from the goal"
        if best is None or measured > best[0]:
            best = (measured, tiles)
    assert best is not None
    longest = SlidingBoard(n, best[1], goal, label, (), "generated")
    return longest, f"{best[0]} moves from the goal (the longest of {WALK_ATTEMPTS} walks of {depth} moves)"


def random_walk(n: int, goal: bytes, moves: int, rng: random.Random) -> bytes:
    """``moves`` random moves of the blank from ``goal``, never undoing the last one."""
    table = neighbours(n)
    board = bytearray(goal)
    blank = board.index(0)
    last = ""
    for _ in range(moves):
        options = [(name, cell) for name, cell in table[blank] if name != OPPOSITE.get(last)]
        name, cell = rng.choice(options)
        board[blank], board[cell] = board[cell], 0
        blank, last = cell, name
    return bytes(board)


def optimal_moves(board: SlidingBoard) -> int | None:
    """The optimal number of moves, by IDA* (the fast path with linear conflict when it is there, else
    the generic engine within ``MEASURE_BUDGET`` expansions); None when the budget ran out."""
    from server.puzzles.sliding.family import FAMILY
    from server.search.control import CancelFlag

    # The family's own solve: no registry lookup, and its limits are ours, not a server's.
    control = RunControl(max_expanded=MEASURE_BUDGET, max_seconds=20.0, cancel=CancelFlag())
    values = FAMILY.run_options({"heuristic": "linear_conflict"})
    result = FAMILY.solve(board, "idastar", values, control).json
    return int(result["cost"]) if result["found"] else None
