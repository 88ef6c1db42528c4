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

from server.formula import Formula
from server.heuristic_lab import GraphSpace


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
