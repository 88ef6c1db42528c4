"""The step-cycle maze: which cells are marked, the start, the goals and the default step cycle."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_CYCLE = (1, 2, 3)
# Directions in successor order (N, E, S, W): name, row step, column step.
DIRECTIONS = (("N", -1, 0), ("E", 0, 1), ("S", 1, 0), ("W", 0, -1))
DIRECTION_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


@dataclass(frozen=True)
class StepMaze:
    """A board of ``rows`` x ``cols`` cells; ``marked`` holds 1 where the player may stand or pass."""

    rows: int
    cols: int
    marked: bytes  # row-major, 1 = marked ('S', 'X', 'Z'), 0 = blank
    start: tuple[int, int]
    goals: tuple[tuple[int, int], ...]
    cycle: tuple[int, ...] = DEFAULT_CYCLE
    name: str = "step-maze"
    source_format: str = "text"

    def index(self, row: int, col: int) -> int:
        return row * self.cols + col

    def is_marked(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols and self.marked[row * self.cols + col] == 1

    def mark_rows(self) -> list[str]:
        """The board as text rows: 'S' start, 'Z' goal, 'X' marked, '.' blank."""
        goals = set(self.goals)
        out = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                if (r, c) == self.start:
                    row.append("S")
                elif (r, c) in goals:
                    row.append("Z")
                else:
                    row.append("X" if self.marked[r * self.cols + c] else ".")
            out.append("".join(row))
        return out
