"""Step-cycle ("1-2-3") mazes (seed 003): moves of 1, 2, 3, 1, … cells in a straight line."""

from server.puzzles.step.family import FAMILY

__all__ = ["FAMILY"]
