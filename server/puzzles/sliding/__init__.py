"""Sliding-tile puzzles (issue 20): the 8-, 15- and 24-puzzle (docs/SLIDING.md)."""

from server.puzzles.sliding.family import FAMILY

__all__ = ["FAMILY"]
