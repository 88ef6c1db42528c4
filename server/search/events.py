"""The event vocabulary that every algorithm yields and every consumer reads.

An event is ``(kind, state, g)``. The same kinds, as small integers, label the records of a
trace (``server.search.trace``) and the frames sent to the browser.
"""

from __future__ import annotations

from typing import NamedTuple

from .problem import State

OPEN = 0  # a state joins the frontier (g = its cost so far; for BFS, its wave score)
CLOSE = 1  # a state is expanded: taken from the frontier, its successors examined
UPDATE = 2  # a frontier state got a cheaper g
PATH = 3  # a state of the solution, emitted from the goal back to the start
OPEN_B = 4  # the same three for the backward half of a bidirectional search
CLOSE_B = 5
UPDATE_B = 6

OPENS = (OPEN, OPEN_B)
CLOSES = (CLOSE, CLOSE_B)
UPDATES = (UPDATE, UPDATE_B)


class Event(NamedTuple):
    kind: int
    state: State
    g: float
