"""A sliding-tile board in the heuristic lab: the generic walk over boards, its memory known from the
board's size (at most half the permutations are reachable)."""

from __future__ import annotations

import math

from ...heuristic_lab import explore_bytes
from ..capabilities import Lab
from .model import SlidingBoard
from .problem import FEATURES


class SlidingLab(Lab):
    """The default space (``Lab.space``) over the sliding problem's features."""

    features = FEATURES

    def space_bytes(self, puzzle: SlidingBoard, max_states: int) -> int:
        """At most ``max_states`` boards, at most half the permutations: ~320 bytes a board walked and 6
        a tile (measured 332, 360 and 415 on the 8-, 15- and 24-puzzle)."""
        tiles = puzzle.n * puzzle.n
        return explore_bytes(min(max_states, math.factorial(tiles) // 2), 320 + 6 * tiles, tiles)
