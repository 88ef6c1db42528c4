"""Random labyrinth boards: the course's layout and the board game's, from a seed."""

from __future__ import annotations

import random

from server.puzzles.labyrinth.model import LabyrinthPuzzle, insertion_points


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
