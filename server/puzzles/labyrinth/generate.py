"""Random labyrinth boards: the course's layout and the board game's, from a seed, and solvable ones
(``solvable_board``: checked by the family's own search, retried from derived seeds)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from ...i18n import t
from ..capabilities import Maker
from ..errors import PuzzleError
from ..making import Generated, GeneratorKind, size_options
from ..options import Values
from .model import LabyrinthPuzzle, insertion_points


def course_board(rng: random.Random, rows: int, cols: int) -> LabyrinthPuzzle:
    """The course task's layout: rows 0, 2, … pushed from the left, 1, 3, … from the right."""
    board = bytes(rng.randrange(10) for _ in range(rows * cols))
    points = insertion_points(left_rows=range(0, rows, 2), right_rows=range(1, rows, 2))
    return LabyrinthPuzzle(rows, cols, board, rng.randrange(10), 0, cols - 1, points)


def board_game(seed: int) -> LabyrinthPuzzle:
    """A 7 x 7 board of the board game: rows and columns 1, 3, 5 from both sides, the free tile turned."""
    rng = random.Random(seed)
    return LabyrinthPuzzle(
        rows=7,
        cols=7,
        board=bytes(rng.randrange(10) for _ in range(49)),
        free=rng.randrange(10),
        start_col=1,
        goal_col=5,
        insertions=insertion_points([1, 3, 5], [1, 3, 5], [1, 3, 5], [1, 3, 5]),
        rotate_free=True,
        name=f"game-{seed}",
    )


GAME_SIDE = 7  # the board game's board: 7 x 7 tiles
MAX_ATTEMPTS = 20  # boards tried for one seed before giving up
CHECK_EXPANSIONS = 1_000  # the solvability check's budget: most boards are solved in a few dozen
CHECK_SECONDS = 30.0  # a safety net only: past it the request fails, so a seed never depends on the clock


@dataclass
class SolvableBoard:
    """A generated board, the moves of the way out the check found, and the seed that made it."""

    puzzle: LabyrinthPuzzle
    moves: int
    seed: int  # the seed asked for, or the derived one (seed * 1000 + k) of the k-th retry
    attempt: int  # 0: the first board was solvable


def solvable_board(kind: str, rows: int, cols: int, seed: int) -> SolvableBoard:
    """A board of ``kind`` the player can leave: each candidate is searched (greedy best-first over the
    merged view, at most ``CHECK_EXPANSIONS`` states: finding any way out is enough); the first board
    is made from ``seed``, retries from ``seed * 1000 + k``. Raises PuzzleError when none is found."""
    from .solve import solve_labyrinth  # looked up at each call: tests replace it

    started = time.monotonic()
    for attempt in range(MAX_ATTEMPTS):
        derived = seed if attempt == 0 else seed * 1000 + attempt
        if kind == "labyrinth-game":
            puzzle = replace(board_game(derived), name=f"game-{seed}", source_format="generated")
        else:
            puzzle = replace(course_board(random.Random(derived), rows, cols),
                             name=f"labyrinth-{rows}x{cols}-{seed}", source_format="generated")
        result = solve_labyrinth(
            puzzle, "greedy", view="sets", max_expanded=CHECK_EXPANSIONS, max_seconds=None
        )
        if result["found"]:
            return SolvableBoard(puzzle, int(result["cost"]), derived, attempt)
        if time.monotonic() - started > CHECK_SECONDS:
            break
    raise PuzzleError(
        t("labyrinth.no_solvable_x_board_found", rows=rows, cols=cols, seed=seed, value=attempt + 1),
        t("labyrinth.option_seed"),
    )


GENERATORS = (
    GeneratorKind("labyrinth-course", "labyrinth.shifting_tiles_course_rules",
                  "labyrinth.random_tiles_rows_0_2",
                  size_options((2, 5, 9), (2, 5, 9), "tiles")),
    GeneratorKind("labyrinth-game", "labyrinth.shifting_tiles_board_game_7",
                  "labyrinth.random_tiles_rows_and_columns",
                  size_options((GAME_SIDE,) * 3, (GAME_SIDE,) * 3, "tiles")),
)


class LabyrinthMaker(Maker):
    """Solvable boards of the course's layout or the board game's (``solvable_board``)."""

    generators = GENERATORS

    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        self.generator(kind)
        rows, cols, seed = values["rows"], values["cols"], values["seed"]
        if kind == "labyrinth-game" and (rows, cols) != (GAME_SIDE, GAME_SIDE):
            raise PuzzleError(
                t("labyrinth.board_game_board_x_tiles", game_side=GAME_SIDE, rows=rows, cols=cols),
                t("labyrinth.option_rows"),
            )
        made = solvable_board(kind, rows, cols, seed)
        what = (
            t("labyrinth.board_game_labyrinth")
            if kind == "labyrinth-game"
            else t("labyrinth.course_labyrinth")
        )
        retried = (
            ""
            if made.attempt == 0
            else t("labyrinth.board_tried_derived_seed", value=made.attempt + 1, seed=made.seed)
        )
        return Generated(
            made.puzzle,
            t(
                "labyrinth.x_tiles_seed_solvable_search",
                what=what,
                rows=rows,
                cols=cols,
                seed=seed,
                retried=retried,
                moves=made.moves,
            ),
        )
