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

from ...i18n import t
from ...search.control import CancelFlag
from ..capabilities import Maker
from ..errors import PuzzleError
from ..family import RunControl
from ..making import Generated, GeneratorKind, size_options
from ..options import Option, Values
from .model import OPPOSITE, SlidingBoard, default_goal, is_solvable
from .problem import neighbours

WALK_ROUNDS = 40  # walk-and-measure rounds towards exactly ``depth`` moves from the goal
MEASURE_BUDGET = 60_000  # states a generic measuring IDA* may expand (a fraction of a second to a few)
COMPILED_MEASURE_BUDGET = 5_000_000  # the same for the compiled fast path (well under a second)

GOAL_OPTION = Option(
    "goal", "choice", "sliding.option.goal", "sliding.where_blank_ends", default="blank-last",
    choices=(("blank-last", "sliding.1_n_1_then_blank"),
             ("blank-first", "sliding.blank_then_1_n_1")),
)
GENERATORS = (
    GeneratorKind(
        "sliding-random",
        "sliding.random_board",
        "sliding.uniformly_random_among_boards_that",
        (*size_options((3, 3, 5), (3, 3, 5), "tiles"), GOAL_OPTION),
        board="sliding.board_square",
    ),
    GeneratorKind(
        "sliding-depth",
        "sliding.board_at_given_depth",
        "sliding.board_that_many_moves_from",
        (
            *size_options((3, 3, 5), (3, 3, 5), "tiles"),
            GOAL_OPTION,
            Option(
                "depth",
                "int",
                "sliding.moves_from_goal",
                "sliding.optimal_solution_length",
                default=20,
                min=0,
                max=120,
            ),
        ),
        board="sliding.board_square",
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
            raise PuzzleError(t("sliding.sliding_tile_board_square_rows", rows=rows, cols=cols),
                              t("sliding.option_cols"))
        n = rows
        goal = bytes(range(n * n)) if values.get("goal") == "blank-first" else default_goal(n)
        if kind == "sliding-random":
            board = random_board(n, seed, goal)
            return Generated(board, t("sliding.random_puzzle_seed_uniform_among", value=n * n - 1, seed=seed))
        try:
            board, how_far = board_at_depth(n, values["depth"], seed, goal, self.family)
        except ValueError as err:
            raise PuzzleError(str(err), t("sliding.option_depth")) from None
        return Generated(board, f"{puzzle_name(n)} {how_far} (seed {seed})")


def puzzle_name(n: int) -> str:
    """"an 8-puzzle", "a 15-puzzle", "a 24-puzzle"."""
    return t("sliding.an_8_puzzle" if n == 3 else "sliding.a_n_puzzle", value=n * n - 1)


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
            raise ValueError(t("sliding.no_board_at_depth", depth=depth, farthest=farthest))
        tiles = rng.choice(at)
        return SlidingBoard(n, tiles, goal, label, (), "generated"), t(
            "sliding.exactly_moves_from_goal", depth=depth
        )
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
        return board, t("sliding.at_most_moves_from_goal", walked=walked)
    measured, tiles, walked = known
    board = SlidingBoard(n, tiles, goal, label, (), "generated")
    if measured == depth:
        return board, t("sliding.exactly_moves_from_goal", depth=depth)
    return board, t("sliding.moves_from_goal_measured_after", measured=measured, walked=walked)


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
