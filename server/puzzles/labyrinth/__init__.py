"""The shifting-tile labyrinth: model, parsers, search views, seed 000's method, result in words."""

from server.puzzles.labyrinth.family import FAMILY

__all__ = ["FAMILY"]
