"""A student's own search, replayed as ordinary search events (the hidden algorithm ``code``).

A student's program ran in the browser over the family's own rules (student mode, docs/STUDENT.md) and
recorded which states it expanded (each call of ``successors``) and the path it returned. States are
numbered as the search reached them: the starts first (``initial_states``, each once), then each
expansion numbers the states it meets for the first time, in the order of ``successors``
(``Numbering``). So the ids of the expanded states are the whole record: replaying them over the same
problem numbers every state again. The path comes as moves: ``[start index, move index, …]``, each
move an index into ``successors`` of the state before.

The run option ``code`` carries a run inline, ``"<expanded ids>;<path moves>"`` (comma-separated, the
path part empty when the program returned none), or names a run stored on the server (``run:<id>``,
uploaded in parts: server/code_runs.py), which ``recorded_runs`` (set by the web layer) looks up.
``replay`` yields what the student's search did: each expansion closes its state and opens (or updates,
when cheaper) the states one move away, with g the cheapest cost seen through the student's
expansions; then the path, goal first, as every algorithm emits it. The player, figures, explain mode
and the comparison then show it like any run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass

from ...i18n import t
from ...puzzles.errors import PuzzleError  # a leaf module: the one error users see named
from ..events import CLOSE, OPEN, PATH, UPDATE, Event
from ..problem import Problem, State

Search = Generator[Event, None, tuple[list[State] | None, float]]

STORED = "run:"  # the option ``code`` naming a stored run: run:<id>
# The packed ids (static/js/code/harness.py ``pack_ids``): 5 bits a character, low bits first.
PACK_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_PACK_VALUE = {ch: i for i, ch in enumerate(PACK_ALPHABET)}


@dataclass(frozen=True)
class RecordedRun:
    """A student's run: the expanded ids, the path as moves (or None), and how many of the expansions
    the board animates (None: all)."""

    expanded: list[int]
    path: list[int] | None
    animated: int | None = None


#: How a stored run is found: set once by the web layer (server/web/code.py), which keeps them.
_lookup: Callable[[str], RecordedRun | None] | None = None


def use_recorded_runs(lookup: Callable[[str], RecordedRun | None]) -> None:
    """Where ``run:<id>`` runs are looked up (the process's store of uploaded runs)."""
    global _lookup
    _lookup = lookup


def pack_ids(ids: Sequence[int]) -> str:
    """``ids`` packed as the page packs them (static/js/code/harness.py ``pack_ids``; a test pins the two)."""
    out: list[str] = []
    previous = 0
    for i in ids:
        delta, previous = i - previous, i
        folded = delta * 2 if delta >= 0 else -delta * 2 - 1
        while folded >= 32:
            out.append(PACK_ALPHABET[32 | (folded & 31)])
            folded >>= 5
        out.append(PACK_ALPHABET[folded])
    return "".join(out)


def unpack_ids(text: str, count: int | None = None) -> list[int]:
    """The ids of ``pack_ids``' text; ValueError naming the fault (a foreign character, a cut number,
    a negative id, another count than ``count``)."""
    ids: list[int] = []
    previous = value = shift = 0
    value_of = _PACK_VALUE
    for ch in text:
        digit = value_of.get(ch)
        if digit is None:
            raise ValueError(t("search.packed.bad_character", ch=repr(ch)))
        value |= (digit & 31) << shift
        if digit & 32:
            shift += 5
            if shift > 60:
                raise ValueError(t("search.packed.too_large"))
            continue
        previous += (value >> 1) if not value & 1 else -((value + 1) >> 1)
        if previous < 0:
            raise ValueError(t("search.packed.negative", position=len(ids)))
        ids.append(previous)
        value = shift = 0
    if shift:
        raise ValueError(t("search.packed.cut"))
    if count is not None and len(ids) != count:
        raise ValueError(t("search.packed.count", got=len(ids), count=count))
    return ids


def parse_code(text: str) -> tuple[list[int], list[int] | None]:
    """``"<expanded ids>;<path moves>"`` → (expanded ids, path moves or None); ValueError naming the fault."""
    head, sep, tail = text.partition(";")
    if not sep:
        raise ValueError(t("search.code.no_semicolon"))

    def ids(part: str, what: str) -> list[int]:
        if not part.strip():
            return []
        try:
            values = [int(v) for v in part.split(",")]
        except ValueError:
            raise ValueError(t("search.code.not_numbers", what=t(what))) from None
        if any(v < 0 for v in values):
            raise ValueError(t("search.code.negative", what=t(what)))
        return values

    path = ids(tail, "search.code.path_moves")
    return ids(head, "search.code.expanded_ids"), (path or None)


def recorded(code: str) -> RecordedRun:
    """The run the option ``code`` carries or names; PuzzleError naming what is wrong."""
    if code.startswith(STORED):
        found = None if _lookup is None else _lookup(code[len(STORED):])
        if found is None:
            raise PuzzleError(t("search.replay.recorded_run_not_kept_on",
                                value=repr(code[len(STORED):][:40])), "option 'code'")
        return found
    try:
        expanded, path = parse_code(code)
    except ValueError as err:
        raise PuzzleError(str(err), "option 'code'") from None
    return RecordedRun(expanded, path)


class Numbering:
    """States numbered as a student's search reached them (the module docstring), each expansion's
    moves kept as (target id, cost)."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.states: list[State] = []
        self.index: dict[State, int] = {}
        self.starts: list[int] = [self.reach(s) for s in dict.fromkeys(problem.initial_states())]
        self._moves: dict[int, list[tuple[int, float]]] = {}
        # How a verdict writes a state: the caller gives the family's notation (``Family.state_text``).
        self.text: Callable[[State], str] | None = None

    def __len__(self) -> int:
        return len(self.states)

    def reach(self, state: State) -> int:
        """The id of ``state``, numbered now when it is met for the first time."""
        found = self.index.get(state)
        if found is None:
            found = self.index[state] = len(self.states)
            self.states.append(state)
        return found

    def moves(self, i: int) -> list[tuple[int, float]]:
        """The moves out of state ``i`` in the server's order, numbering the states met first here."""
        found = self._moves.get(i)
        if found is None:
            found = self._moves[i] = [(self.reach(t), c) for t, c in self.problem.successors(self.states[i])]
        return found

    def expand_all(self, expanded: Sequence[int], what: str = "option 'code'") -> None:
        """Number the states as the student's expansions met them; PuzzleError at an id not reached yet
        (a run recorded under other rules, or not by this puzzle's student mode)."""
        for k, i in enumerate(expanded):
            if i >= len(self.states):
                raise PuzzleError(t("search.replay.expansion_names_state_but_only", value=k + 1, i=i,
                                    n_states=len(self.states)),
                                  what)
            self.moves(i)

    def path(self, moves: Sequence[int] | None, what: str = "option 'code'") -> tuple[list[int], list[float]]:
        """The path's state ids and the cost to each, from ``[start index, move index, …]``."""
        if not moves:
            return [], []
        if moves[0] >= len(self.starts):
            raise PuzzleError(t("search.replay.path_starts_at_start_but", moves=moves[0],
                                n_starts=len(self.starts)),
                              what)
        ids, costs = [self.starts[moves[0]]], [0.0]
        for k, m in enumerate(moves[1:], 1):
            out = self.moves(ids[-1])
            if m >= len(out):
                raise PuzzleError(t("search.replay.move_path_move_state_with", k=k, m=m,
                                    n_out=len(out)), what)
            ids.append(out[m][0])
            costs.append(costs[-1] + out[m][1])
        return ids, costs


def replay(problem: Problem, code: str) -> Search:
    run = recorded(code)
    numbering = Numbering(problem)
    numbering.expand_all(run.expanded)  # every id checked before the first event
    shown = run.expanded if run.animated is None else run.expanded[:run.animated]
    states = numbering.states
    g: dict[State, float] = {}
    closed: set[State] = set()
    for i in numbering.starts:
        g[states[i]] = 0.0
        yield Event(OPEN, states[i], 0.0)
    for i in shown:
        state = states[i]
        here = g.get(state, math.inf)  # a state the student expanded without reaching it first
        if state not in g:
            g[state] = here
        closed.add(state)
        yield Event(CLOSE, state, 0.0 if here == math.inf else here)
        for j, step in numbering.moves(i):
            nxt = states[j]
            through = here + step
            known = g.get(nxt)
            if known is None:
                g[nxt] = through
                yield Event(OPEN, nxt, through if through < math.inf else 0.0)
            elif through < known and nxt not in closed:
                g[nxt] = through
                yield Event(UPDATE, nxt, through)
    ids, costs = numbering.path(run.path)
    if not ids or not problem.is_goal(states[ids[-1]]):
        return None, 0.0  # the verdict says why (server/code_verdict.py); nothing to draw as a path
    path = [states[i] for i in ids]
    for state, at in zip(reversed(path), reversed(costs), strict=True):
        yield Event(PATH, state, at)
    return path, costs[-1]

