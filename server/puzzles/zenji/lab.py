"""Zenji in the heuristic lab (issue 19): formulas are in quarter turns, the search counts packed costs.

The search's step cost is ``rot * scale + 1`` (``problem.py``: turns first, tiles as the tie-break),
but a student's estimate, like the family's reported ``cost``, is in quarter turns. So:

* the lab judges a formula against the fewest quarter turns still needed: ``h*_turns =
  floor(h*_packed / scale)``, exact because a path's tiles (fewer than ``scale``) never add up to
  a turn; a move's cost is its turns (``floor(cost / scale)`` = the tile's ``rot``);
* the heuristic "yours" (``TurnsFormula``) is the formula times ``scale``: a formula admissible
  (consistent) in turns stays so in packed units, since ``f <= T`` gives ``f * scale <= T * scale +
  tiles``, and ``f(s) <= rot + f(s')`` gives ``f(s) * scale <= rot * scale + 1 + f(s') * scale``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ...formula import Formula
from ...heuristic_lab import GraphSpace, explore, explore_bytes
from ...search.control import CancelFlag
from ..capabilities import Lab
from ..options import Values
from .model import ZenjiBoard
from .problem import FEATURES, ZenjiProblem


@dataclass(frozen=True)
class TurnsFormula:
    """A formula in quarter turns, evaluated in the search's packed units (times ``scale``)."""

    formula: Formula
    scale: int

    @property
    def text(self) -> str:
        return self.formula.text

    @property
    def names(self) -> tuple[str, ...]:
        return self.formula.names

    @property
    def names_used(self) -> tuple[str, ...]:
        return self.formula.names_used

    def evaluate(self, features: Mapping[str, np.ndarray | float]) -> np.ndarray:
        return self.formula.evaluate(features) * float(self.scale)


def in_turns(space: GraphSpace, scale: int) -> GraphSpace:
    """``space`` (built over the packed costs) with its costs and cost-to-go in quarter turns."""
    with np.errstate(invalid="ignore"):
        space.h_star = np.floor(space.h_star / scale)  # inf stays inf: no way to the drain
        space.cost = np.floor(space.cost / scale)
    return space


class ZenjiLab(Lab):
    """The generic space over the search's states, with costs and cost-to-go in quarter turns (the unit
    of ``cost`` and of a student's formula)."""

    features = FEATURES

    def space(self, puzzle: ZenjiBoard, options: Values, max_states: int, max_seconds: float | None = None,
              cancel: CancelFlag | None = None) -> GraphSpace:
        """Under free flow a state also holds the tiles the water passes, so the walk may stop at
        ``max_states`` (the verdict says so)."""
        problem = self.family.problem(puzzle, options)
        assert isinstance(problem, ZenjiProblem)
        return in_turns(explore(problem, problem.features, max_states, max_seconds, cancel), problem.scale)

    def space_bytes(self, puzzle: ZenjiBoard, max_states: int) -> int:
        """The lab's rules may choose free flow, so up to ``max_states`` states: ~320 bytes a state
        walked (measured 290-340 on 10 x 10 to 16 x 16 boards) and its set of tiles used, a bit a tile
        (a Python int: ~1/4 byte a tile with the walk's copies)."""
        tiles = puzzle.rows * puzzle.cols
        return explore_bytes(max_states, 320 + tiles // 4, tiles)
