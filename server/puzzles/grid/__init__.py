"""Grid mazes: images and text files; model, parsers, search view, compiled kernels, generator, renderer."""

from server.puzzles.grid.family import FAMILY

__all__ = ["FAMILY"]
