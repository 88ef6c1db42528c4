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
from typing import Any

from server.puzzles.capabilities import Maker
from server.puzzles.errors import PuzzleError
from server.puzzles.family import RunControl
from server.puzzles.making import Generated, GeneratorKind, size_options
from server.puzzles.options import Option, Values
from server.puzzles.sliding.model import OPPOSITE, SlidingBoard, default_goal, is_solvable
from server.puzzles.sliding.problem import neighbours
from server.search.control import CancelFlag

WALK_ROUNDS = 40  # walk-and-measure rounds towards exactly ``depth`` moves from the goal
MEASURE_BUDGET = 60_000  # states a generic measuring IDA* may expand (a fraction of a second to a few)
COMPILED_MEASURE_BUDGET = 5_000_000  # the same for the compiled fast path (well under a second)

GOAL_OPTION = Option(
    "goal", "choice", "Goal", "where the blank ends", default="blank-last",
    choices=(("blank-last", "1 … n²−1, then the blank"),
             ("blank-first", "the blank, then 1 … n²−1 (Korf's)")),
)
GENERATORS = (
    GeneratorKind(
        "sliding-random", "Random board", "uniformly random among the boards that can reach the goal",
        (*size_options((3, 3, 5), (3, 3, 5), "tiles"), GOAL_OPTION), board="n x n (rows = columns)",
    ),
    GeneratorKind(
        "sliding-depth", "Board at a given depth",
        "a board that many moves from the goal: exactly, for the 8-puzzle (chosen among all boards at that "
        "distance); for larger boards a random walk, measured by IDA*",
        (*size_options((3, 3, 5), (3, 3, 5), "tiles"), GOAL_OPTION,
         Option("depth", "int", "Moves from the goal", "the optimal solution's length", default=20, min=0,
                max=120)),
        board="n x n (rows = columns)",
    ),
)


class SlidingMaker(Maker):
    """Random boards, or boards at a given depth measured by the family's own IDA* (the module
    docstring)."""

    generators = GENERATORS

    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        self.generator(kind)
        rows, cols, seed = values["rows"], values["cols"], values["seed"]
        if rows != cols:
            raise PuzzleError(f"a sliding-tile board is square: {rows} rows and {cols} columns",
                              "option 'cols'")
        n = rows
        goal = bytes(range(n * n)) if values.get("goal") == "blank-first" else default_goal(n)
        if kind == "sliding-random":
            board = random_board(n, seed, goal)
            return Generated(board, f"a random {n * n - 1}-puzzle (seed {seed}), uniform among the solvable "
                             "boards")
        try:
            board, how_far = board_at_depth(n, values["depth"], seed, goal, self.family)
        except ValueError as err:
            raise PuzzleError(str(err), "option 'depth'") from None
        return Generated(board, f"{puzzle_name(n)} {how_far} (seed {seed})")


def puzzle_name(n: int) -> str:
    """"an 8-puzzle", "a 15-puzzle", "a 24-puzzle"."""
    return f"{'an' if n == 3 else 'a'} {n * n - 1}-puzzle"


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


def board_at_depth(n: int, depth: int, seed: int, goal: bytes, family: Any,
                   name: str = "") -> tuple[SlidingBoard, str]:
    """A board ``depth`` moves from ``goal`` (module docstring) and a phrase saying how far it is;
    ``family`` (the sliding family) measures a walked board with its own solve."""
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
        measured = optimal_moves(SlidingBoard(n, tiles, goal), family)
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


def optimal_moves(board: SlidingBoard, family: Any) -> int | None:
    """The optimal number of moves, by ``family``'s IDA* with linear conflict (the fast path within
    ``COMPILED_MEASURE_BUDGET`` expansions when it serves the board, else the generic engine within
    ``MEASURE_BUDGET``); None when the budget ran out."""
    compiled = family.fast_serves(board.n, "idastar", "linear_conflict")
    # The family's own solve: no registry lookup, and its limits are ours, not a server's.
    budget = COMPILED_MEASURE_BUDGET if compiled else MEASURE_BUDGET
    control = RunControl(max_expanded=budget, max_seconds=20.0, cancel=CancelFlag())
    values = family.run_options({"heuristic": "linear_conflict"})
    result = family.solve(board, "idastar", values, control).json
    return int(result["cost"]) if result["found"] else None
