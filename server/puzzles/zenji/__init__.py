"""Zenji (seed 001): rotating pipe tiles, water from the source to the drain for the fewest turns."""

from server.puzzles.zenji.family import FAMILY

__all__ = ["FAMILY"]
