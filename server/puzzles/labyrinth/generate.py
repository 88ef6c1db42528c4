"""Random labyrinth boards: the course's layout and the board game's, from a seed, and solvable ones
(``solvable_board``: checked by the family's own search, retried from derived seeds)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from server.puzzles.capabilities import Maker
from server.puzzles.errors import PuzzleError
from server.puzzles.labyrinth.model import LabyrinthPuzzle, insertion_points
from server.puzzles.making import Generated, GeneratorKind, size_options
from server.puzzles.options import Values


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
    from server.puzzles.labyrinth.solve import solve_labyrinth  # looked up at each call: tests replace it

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
    raise PuzzleError(f"no solvable {rows} x {cols} board found from seed {seed} (tried {attempt + 1}): "
                      "try another seed", "option 'seed'")


GENERATORS = (
    GeneratorKind("labyrinth-course", "Shifting tiles, course rules",
                  "random tiles; rows 0, 2, ... pushed from the left, 1, 3, ... from the right; enter below "
                  "column 0, leave above the last; kept when a search finds the way out",
                  size_options((2, 5, 9), (2, 5, 9), "tiles")),
    GeneratorKind("labyrinth-game", "Shifting tiles, board game (7 x 7)",
                  "random tiles; rows and columns 1, 3, 5 pushed from both sides, the free tile turned; "
                  "kept when a search finds the way out",
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
                f"the board game's board is {GAME_SIDE} x {GAME_SIDE} tiles, not {rows} x {cols}",
                "option 'rows'",
            )
        made = solvable_board(kind, rows, cols, seed)
        what = "board-game labyrinth" if kind == "labyrinth-game" else "course labyrinth"
        retried = "" if made.attempt == 0 else f" (board {made.attempt + 1} tried: derived seed {made.seed})"
        return Generated(made.puzzle, f"{what}, {rows} x {cols} tiles, seed {seed}{retried}, solvable: "
                         f"a search found a way out in {made.moves} moves")
