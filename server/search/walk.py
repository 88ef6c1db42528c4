"""Every state reachable from a problem's start, breadth-first, each move kept: the explicit graph
that the heuristic lab judges over and that a student's own search runs on in the page.

``walk`` stops at ``max_states`` states, after ``max_seconds`` or when ``cancel`` is set, and says so
(``stopped``): the first ``expanded`` states then have all their moves, the rest were reached only.
States are numbered in the order they were reached; moves are kept in expansion order, so the moves
out of state ``i`` are one run of the arrays (``offsets``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..i18n import t
from .control import CancelFlag
from .problem import Problem, State


@dataclass
class Walk:
    states: list[State]  # id -> state
    index: dict[State, int]  # state -> id
    src: np.ndarray  # int64, one entry a move, non-decreasing
    dst: np.ndarray  # int64
    cost: np.ndarray  # float64
    expanded: int  # states 0 .. expanded-1 have all their moves
    stopped: str | None  # why the walk stopped early, or None when it reached every state

    @property
    def offsets(self) -> np.ndarray:
        """The moves out of state i are ``src[offsets[i]:offsets[i+1]]`` (``expanded + 1`` entries)."""
        return np.searchsorted(self.src, np.arange(self.expanded + 1))


def walk(problem: Problem, max_states: int, max_seconds: float | None = None,
         cancel: CancelFlag | None = None) -> Walk:
    """Walk ``problem`` from its initial states breadth-first (at most ``max_states`` states)."""
    index: dict[State, int] = {}
    states: list[State] = []
    for state in problem.initial_states():
        if state not in index:
            index[state] = len(states)
            states.append(state)
    src: list[int] = []
    dst: list[int] = []
    cost: list[float] = []
    stopped: str | None = None
    began = time.monotonic()
    expanded = 0
    while expanded < len(states):
        if expanded % 512 == 0:
            if cancel is not None and cancel.is_set():
                stopped = "cancelled"
                break
            if max_seconds is not None and time.monotonic() - began > max_seconds:
                stopped = t("search.walk.time_limit", seconds=format(max_seconds, "g"), count=expanded)
                break
        state = states[expanded]
        moves = list(problem.successors(state))
        if len(states) + len(moves) > max_states and any(nxt not in index for nxt, _ in moves):
            stopped = t("search.walk.state_limit", count=max_states)
            break
        for nxt, step in moves:
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(states)
                states.append(nxt)
            src.append(expanded)
            dst.append(j)
            cost.append(step)
        expanded += 1
    return Walk(states, index, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
                np.asarray(cost, dtype=np.float64), expanded, stopped)
