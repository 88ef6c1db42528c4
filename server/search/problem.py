"""The problem interface every puzzle family implements and every algorithm uses.

In the spirit of AIMA's ``Problem``: the search code sees states, successors with step costs,
a goal test and heuristics, and nothing of grids, tiles or pipes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from ..i18n import t
from .costs import cost_text

State = Hashable


class Problem:
    """Base class; families override what they support."""

    #: True when every step costs 1, so breadth-first search finds the cheapest path.
    unit_costs: bool = True
    #: Heuristic names this problem offers; the first is the default. All must be admissible
    #: unless listed in ``inadmissible_heuristics``.
    heuristics: Sequence[str] = ()
    inadmissible_heuristics: frozenset[str] = frozenset()

    def initial_states(self) -> list[State]:
        """Where the search starts (several starts all begin at cost 0)."""
        raise NotImplementedError

    def is_goal(self, state: State) -> bool:
        raise NotImplementedError

    def successors(self, state: State) -> Iterable[tuple[State, float]]:
        """(next state, step cost) pairs, in a fixed order (it decides tie-breaking)."""
        raise NotImplementedError

    # Optional: needed by bidirectional search and Lee's backtrace.
    def goal_states(self) -> list[State]:
        """Every goal state, for searches that run backwards from the goal."""
        raise NotImplementedError(f"{type(self).__name__} cannot list its goal states")

    def predecessors(self, state: State) -> Iterable[tuple[State, float]]:
        """(previous state, cost of the step previous -> state) pairs."""
        raise NotImplementedError(f"{type(self).__name__} cannot search backwards")

    def heuristic(self, state: State, name: str) -> float:
        """Estimated cost from ``state`` to the nearest goal."""
        return 0.0

    # Where a state sits on the board, so that a generic renderer can colour it.
    def cell_of(self, state: State) -> int:
        """A flat cell index for the renderer, or -1 when the state has no single cell."""
        return -1

    def board_cell(self, state: State) -> int:
        """The board cell (row * width + col of the family's ``size``) the state is at, for pictures
        of the whole space such as the heuristic lab's heat map; -1 for none. The default is
        ``cell_of``, for families whose trace cells are board cells."""
        return self.cell_of(state)

    def state_to_json(self, state: State) -> Any:
        """A JSON-friendly form of a state (grids: [row, col])."""
        return state

    def student_state(self, state: State) -> Any:
        """The state as a student's own search sees it (student mode, docs/STUDENT.md): JSON whose
        lists the page turns into tuples, so that it is hashable there. Distinct states must give
        distinct forms. The default: ``state_to_json``, each JSON object turned into its values."""
        return _listed(self.state_to_json(state))

    def cost_in_words(self, cost: float) -> str:
        """A path's cost as a student reads it in a verdict (student mode): "cost 52"."""
        return t("search.problem.cost", cost=cost_text(cost))

    #: True when the renderer cannot draw a state from ``cell_of`` alone: each expanded state is
    #: then sent as a ``snapshot`` beside the trace (e.g. a board after a row was pushed).
    has_snapshots: bool = False

    def snapshot(self, state: State) -> dict[str, Any]:
        """The state as the family's view draws it (docs/PROTOCOL.md, frames' ``snapshots``)."""
        raise NotImplementedError(f"{type(self).__name__} draws its states from cell_of")

    def features(self, states: Sequence[State]) -> dict[str, Any]:
        """The heuristic lab's features of ``states`` (the names of the family's ``Lab.features``) as
        arrays, one value per state: what a user's formula (heuristic "yours") is evaluated over."""
        raise NotImplementedError(f"{type(self).__name__} offers no features for a formula")

    def describe(self) -> dict[str, Any]:
        """Family-specific facts for results and the page."""
        return {}


def _listed(value: Any) -> Any:
    """``value`` with every dict replaced by the list of its values (recursively)."""
    if isinstance(value, dict):
        return [_listed(v) for v in value.values()]
    if isinstance(value, list | tuple):
        return [_listed(v) for v in value]
    return value
