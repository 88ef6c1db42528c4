"""Generated sliding-tile boards, seeded (docs/SLIDING.md "Generators").

* ``random_board``: uniform over the boards that can reach the goal. A uniformly random permutation
  is unsolvable half the time; swapping the tiles of the first two non-blank cells flips the parity
  and is its own inverse, so it pairs every unsolvable board with exactly one solvable one, and the
  result is uniform over the solvable half.
* ``board_at_depth``: a board whose optimal solution takes exactly ``depth`` moves where that can be
  known cheaply. For n = 3, uniform among all boards at breadth-first distance ``depth`` from the goal
  (one BFS over the 181,440 boards, cached per goal). For n >= 4, a random walk of ``depth`` moves
  from the goal that never undoes its last move is measured with IDA* (the compiled fast path when it
  is there, else the generic engine within a small budget). Walks cut corners, so while the board is
  d' < depth moves away the walk goes on for depth - d' more moves and is measured again (each move
  changes the distance by exactly 1: it never overshoots). The description says what was found —
  "exactly d", "d' moves (measured after a walk of w)" (the last board measured, when a later measure
  ran out of budget) or, when even the first did, "at most w".
"""

from __future__ import annotations

import random
from functools import lru_cache

from server.puzzles.family import RunControl
from server.puzzles.sliding.model import OPPOSITE, SlidingBoard, is_solvable
from server.puzzles.sliding.problem import neighbours

WALK_ROUNDS = 40  # walk-and-measure rounds towards exactly ``depth`` moves from the goal
MEASURE_BUDGET = 60_000  # states a generic measuring IDA* may expand (a fraction of a second to a few)
COMPILED_MEASURE_BUDGET = 5_000_000  # the same for the compiled fast path (well under a second)


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
    # Walk ``depth`` moves, measure; while the board is nearer than ``depth``, walk on as many moves as
    # are missing (a move changes the distance by exactly 1, so it never overshoots) and measure again.
    tiles = random_walk(n, goal, depth, rng)
    walked = depth
    known: tuple[int, bytes, int] | None = None  # the last board measured: (distance, tiles, walked)
    for _round in range(WALK_ROUNDS):
        measured = optimal_moves(SlidingBoard(n, tiles, goal))
        if measured is None:
            break
        known = (measured, tiles, walked)
        if measured >= depth:
            break
        tiles = random_walk(n, tiles, depth - measured, rng)
        walked += depth - measured
    if known is None:
        board = SlidingBoard(n, tiles, goal, label, (), "generated")
        return board, f"at most {walked} moves from the goal (a walk of {walked} moves; not measured)"
    measured, tiles, walked = known
    board = SlidingBoard(n, tiles, goal, label, (), "generated")
    if measured == depth:
        return board, f"exactly {depth} moves from the goal"
    return board, f"{measured} moves from the goal (measured after a walk of {walked} moves)"


def random_walk(n: int, goal: bytes, moves: int, rng: random.Random) -> bytes:
    """``moves`` random moves of the blank from ``goal`` (or any board), never undoing the last one."""
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
    """The optimal number of moves, by IDA* with linear conflict (the fast path within
    ``COMPILED_MEASURE_BUDGET`` expansions when it serves the board, else the generic engine within
    ``MEASURE_BUDGET``); None when the budget ran out."""
    from server.puzzles.sliding.family import FAMILY, _fast_module
    from server.search.control import CancelFlag

    fast = _fast_module()
    compiled = fast is not None and fast.available(board.n, "idastar", "linear_conflict")
    # The family's own solve: no registry lookup, and its limits are ours, not a server's.
    budget = COMPILED_MEASURE_BUDGET if compiled else MEASURE_BUDGET
    control = RunControl(max_expanded=budget, max_seconds=20.0, cancel=CancelFlag())
    values = FAMILY.run_options({"heuristic": "linear_conflict"})
    result = FAMILY.solve(board, "idastar", values, control).json
    return int(result["cost"]) if result["found"] else None
