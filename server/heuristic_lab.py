"""The heuristic lab: a student's formula judged against the true cost-to-go of every reachable state.

Below the families (they build their spaces with ``explore``, ``LabSpace``…), so it imports nothing of
theirs: the service that takes a puzzle's family, asks it for its space and judges the formula over it
is ``server.judging.judge_formula``.

A family describes its states with **features** (its ``lab`` part, ``Lab.features``: ``row``, ``col``,
``dr`` ...) and builds a ``LabSpace`` (``Lab.space``): the states reachable from the start, their features,
their true cost-to-go ``h_star`` and the moves between them. ``judge`` evaluates a compiled formula
(``server/formula.py``) over all states at once and says:

* **admissible**: no judged state has h > h* (an "overestimate");
* **consistent**: no move s -> s' with h(s) > cost(s, s') + h(s') (an "inconsistent move");
* the counts, the worst overestimate and the worst move, h at the goal, states where the formula is
  not a number (NaN: neither admissible nor consistent), dead ends (no goal reachable: h* infinite,
  where any h, even infinite, is right). An infinite h is a value like any other: an overestimate
  wherever a goal is reachable.

The generic space (``explore``) walks ``Problem.successors`` from the start breadth-first, keeps every
move, then runs uniform-cost search backwards from the goal states over the reversed moves: exact h*
for every state when the walk finished. A walk stopped by its limit says so (``complete`` false,
``stopped``): the states it never expanded are not judged, and h* of the others is the cheapest way
out *inside* the walked states, an upper bound, so an overestimate found there may be false (the
verdict says so). Grids build their own space with compiled kernels over every cell
(``server/puzzles/grid/lab.py``).

Memory (issue 28): ``judge`` holds one float64 array per state (h) besides the space; everything else
is made ``CHUNK`` states (or moves) at a time: the formula's features and temporaries
(``Formula.evaluate_chunks``, bounded by ``formula.WORK_BYTES``), the masks and counts of the verdict,
the heat map (a byte per cell, the largest ratio found so far) and the inconsistent moves (``WorstMoves``:
a count and the worst ``MAX_SHOWN_MOVES`` kept). ``JUDGE_ARRAYS`` arrays bound a chunk's temporaries, so a
family's ``lab_bytes`` is its space plus 8 bytes a state, a few bytes a cell for the heat map, and those.
"""

from __future__ import annotations

import base64
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .formula import Formula, work_bytes
from .search.control import CancelFlag
from .search.problem import Problem, State
from .search.walk import walk

MAX_SHOWN_MOVES = 500  # inconsistent moves drawn on the page (the worst first)
EPSILON = 1e-9  # relative tolerance: float sums of step costs (octile's sqrt 2) are not exact
HEAT_SCALE = 100  # heat byte = round(h / h* x 100), clipped to HEAT_MAX
HEAT_MAX = 250
HEAT_EMPTY = 255  # no judged state in the cell
HEAT_DEAD_END = 254  # the cell's states cannot reach a goal (h* infinite)
CHUNK = 1 << 18  # states or moves judged at once
# What judging one chunk holds at once, at most, in arrays of 8 bytes a state or move (masks, excesses,
# tolerances, the heat map's ratios; a grid's moves: ~10 measured).
JUDGE_ARRAYS = 20
# A heat map's bytes per board cell at its peak: the cell's best ratio so far and its overestimate
# flag (a byte each), then each as bytes and base64 text (~2.7 bytes a cell kept in the verdict).
HEAT_BYTES_PER_CELL = 6


@dataclass
class Violations:
    """Moves that break consistency: how many, and the worst ``MAX_SHOWN_MOVES`` (state indices)."""

    count: int
    src: np.ndarray
    dst: np.ndarray
    cost: np.ndarray


class LabSpace:
    """The states a heuristic is judged on (indices 0..count-1) and what is known of each.

    ``features``: float64 arrays by feature name (``feature_chunk``: those of a range of states, which
    a space may make on demand instead); ``h_star``: cost-to-go (inf: no goal reachable); ``goal``:
    bool; ``cell``: the board cell a state is drawn on (-1: none); ``judged``: bool, the states whose
    moves were all seen (every state, unless the walk stopped early). ``judge`` reads these a chunk
    of states at a time: any array-like that slices will do (e.g. a broadcast ``True``)."""

    count: int
    features: dict[str, np.ndarray]
    h_star: np.ndarray
    goal: np.ndarray
    cell: np.ndarray
    judged: np.ndarray
    complete: bool = True
    stopped: str | None = None

    def feature_chunk(self, lo: int, hi: int, names: Sequence[str]) -> dict[str, np.ndarray]:
        """The features ``names`` of states lo..hi-1 (``Formula.evaluate_chunks`` asks chunk by chunk)."""
        return {name: self.features[name][lo:hi] for name in names}

    def violations(self, h: np.ndarray) -> Violations:
        """The moves s -> s' between judged states with h(s) > cost + h(s')."""
        raise NotImplementedError

    def state_json(self, index: int) -> Any:
        """State ``index`` as the family's results show a state."""
        raise NotImplementedError


def _tolerance(*values: np.ndarray) -> np.ndarray:
    scale = np.ones_like(values[0])
    for v in values:
        scale = np.maximum(scale, np.abs(np.where(np.isfinite(v), v, 0.0)))
    return EPSILON * scale


def _largest(values: np.ndarray, k: int) -> np.ndarray:
    """The positions of the ``k`` largest of ``values`` (ties: the first found), in order."""
    if values.size <= k:
        return np.arange(values.size)
    threshold = np.partition(values, values.size - k)[values.size - k]
    above = np.flatnonzero(values > threshold)
    tied = np.flatnonzero(values == threshold)[: k - above.size]
    return np.sort(np.concatenate([above, tied]))


class WorstMoves:
    """The inconsistent moves, found a chunk of moves at a time (``add``): how many, and the worst
    ``MAX_SHOWN_MOVES`` so far (``result``: the largest excess first, ties in the order found)."""

    def __init__(self) -> None:
        self.count = 0
        self._src = np.empty(0, dtype=np.int64)
        self._dst = np.empty(0, dtype=np.int64)
        self._cost = np.empty(0, dtype=np.float64)
        self._excess = np.empty(0, dtype=np.float64)

    def add(self, src: np.ndarray, dst: np.ndarray, cost: np.ndarray, h: np.ndarray) -> None:
        """Check the moves src[i] -> dst[i] of ``cost[i]`` (state indices) against ``h``."""
        with np.errstate(invalid="ignore"):
            h_src = h[src]
            ahead = cost + h[dst]
            excess = h_src - ahead
            bad = np.flatnonzero(excess > _tolerance(h_src, ahead))
        if not bad.size:
            return
        self.count += int(bad.size)
        bad = bad[_largest(excess[bad], MAX_SHOWN_MOVES)]
        self._src = np.concatenate([self._src, src[bad]])
        self._dst = np.concatenate([self._dst, dst[bad]])
        self._cost = np.concatenate([self._cost, np.broadcast_to(cost, src.shape)[bad]])
        self._excess = np.concatenate([self._excess, excess[bad]])
        if self._excess.size > MAX_SHOWN_MOVES:
            keep = _largest(self._excess, MAX_SHOWN_MOVES)
            self._src, self._dst = self._src[keep], self._dst[keep]
            self._cost, self._excess = self._cost[keep], self._excess[keep]

    def result(self) -> Violations:
        order = np.argsort(-self._excess, kind="stable")
        return Violations(self.count, self._src[order], self._dst[order], self._cost[order])


class GraphSpace(LabSpace):
    """A space held as explicit moves (``src``, ``dst``, ``cost`` arrays), built by ``explore``."""

    def __init__(self, problem: Problem, states: list[State], features: dict[str, np.ndarray],
                 src: np.ndarray, dst: np.ndarray, cost: np.ndarray, expanded: int,
                 stopped: str | None) -> None:
        self.problem = problem
        self.states = states
        self.count = len(states)
        self.features = features
        self.src, self.dst, self.cost = src, dst, cost
        self.goal = np.fromiter((problem.is_goal(s) for s in states), dtype=bool, count=self.count)
        self.cell = np.fromiter((problem.board_cell(s) for s in states), dtype=np.int64, count=self.count)
        self.judged = np.zeros(self.count, dtype=bool)
        self.judged[:expanded] = True
        self.complete = stopped is None
        self.stopped = stopped
        self.h_star = backward_costs(self.count, src, dst, cost, np.flatnonzero(self.goal))

    def violations(self, h: np.ndarray) -> Violations:
        tally = WorstMoves()
        for lo in range(0, self.src.size, CHUNK):
            src, dst, cost = self.src[lo:lo + CHUNK], self.dst[lo:lo + CHUNK], self.cost[lo:lo + CHUNK]
            keep = self.judged[src] & self.judged[dst]
            tally.add(src[keep], dst[keep], cost[keep], h)
        return tally.result()

    def state_json(self, index: int) -> Any:
        return self.problem.state_to_json(self.states[index])


def backward_costs(count: int, src: np.ndarray, dst: np.ndarray, cost: np.ndarray,
                   goals: np.ndarray) -> np.ndarray:
    """Uniform-cost search from every goal at once over the reversed moves: each state's cheapest
    cost to a goal (inf where none is reachable). Compiled (``search/backward.py``, loaded with numba
    when a space is first judged), over arrays: 8 bytes a move and 40 a state besides the moves (a
    Python list per move took ~70 bytes a move)."""
    from .search.backward import backward_costs as compiled

    return compiled(count, np.ascontiguousarray(src, dtype=np.int64),
                    np.ascontiguousarray(dst, dtype=np.int64),
                    np.ascontiguousarray(cost, dtype=np.float64),
                    np.ascontiguousarray(goals, dtype=np.int64))


FeatureFn = Callable[[Sequence[State]], dict[str, np.ndarray]]


def explore(problem: Problem, features: FeatureFn, max_states: int, max_seconds: float | None = None,
            cancel: CancelFlag | None = None) -> GraphSpace:
    """Every state reachable from the start (``server.search.walk``: breadth-first, at most
    ``max_states``), each move kept, features from ``features(states)``; see the module docstring
    for a walk that stops early."""
    done = walk(problem, max_states, max_seconds, cancel)
    done.index.clear()  # state -> number: not needed past the walk, and as large as the states' list
    return GraphSpace(problem, done.states, features(done.states), done.src, done.dst, done.cost,
                      done.expanded, done.stopped)


def judge_bytes(states: int, cells: int = 0, moves: int | None = None) -> int:
    """At most what ``judge`` holds besides its space, over ``states`` states (a heat map over ``cells``
    board cells; ``moves``: how many the space checks, None: unknown): h, 8 bytes a state, and either
    the formula's work while h is made, or the heat map and a chunk's work after."""
    chunk = min(max(states, moves if moves is not None else CHUNK), CHUNK)
    return 8 * states + max(work_bytes(states), HEAT_BYTES_PER_CELL * cells + chunk * 8 * JUDGE_ARRAYS)


def explore_bytes(states: int, state_bytes: int, cells: int = 0) -> int:
    """At most what judging a walked space (``explore``) of at most ``states`` states holds: the walk's
    ``state_bytes`` a state (the state and its place in the walk's maps, its moves, its features,
    h*: measured per family, see docs/BENCHMARKS.md) and ``judge``'s own (``judge_bytes``)."""
    return states * state_bytes + judge_bytes(states, cells)


# ---- the verdict --------------------------------------------------------------------------------
@dataclass
class Verdict:
    """What ``judge`` found (``to_json``: the CLI's ``--json`` and the API's answer)."""

    formula: str
    admissible: bool
    consistent: bool
    states: int
    overestimates: int
    inconsistent_moves: int
    worst: dict[str, Any] | None
    worst_move: dict[str, Any] | None
    h_at_goal: float | None
    not_a_number: int
    dead_ends: int
    complete: bool
    stopped: str | None
    seconds: float = 0.0
    example_not_a_number: Any = None
    example_text: str | None = None  # that state in the family's notation (``write_states``)
    heat: dict[str, Any] | None = field(default=None, repr=False)

    def write_states(self, text: Callable[[Any], str]) -> None:
        """Give each state named here its words in the family's notation (``Family.json_text``):
        ``worst.text``, ``worst_move.from_text`` and ``to_text``, ``example_text``."""
        if self.worst is not None:
            self.worst["text"] = text(self.worst["state"])
        if self.worst_move is not None:
            self.worst_move["from_text"] = text(self.worst_move["from"])
            self.worst_move["to_text"] = text(self.worst_move["to"])
        if self.example_not_a_number is not None:
            self.example_text = text(self.example_not_a_number)

    def to_json(self) -> dict[str, Any]:
        out = {
            "formula": self.formula, "admissible": self.admissible, "consistent": self.consistent,
            "states": self.states, "overestimates": self.overestimates,
            "inconsistent_moves": self.inconsistent_moves, "worst": self.worst, "worst_move": self.worst_move,
            "h_at_goal": self.h_at_goal, "not_a_number": self.not_a_number, "dead_ends": self.dead_ends,
            "complete": self.complete, "stopped": self.stopped, "seconds": round(self.seconds, 3),
        }
        if self.example_not_a_number is not None:
            out["example_not_a_number"] = self.example_not_a_number
            if self.example_text is not None:
                out["example_text"] = self.example_text
        if self.heat is not None:
            out["heat"] = self.heat
        return out

    def summary(self) -> str:
        """One paragraph for the CLI."""
        verdicts = [
            "admissible" if self.admissible else "NOT admissible",
            "consistent" if self.consistent else "NOT consistent",
        ]
        lines = [f"h = {self.formula}: {' and '.join(verdicts)} over {self.states:,} reachable states"
                 + ("" if self.complete else f" (the walk stopped early: {self.stopped})")]
        if self.overestimates:
            w = self.worst or {}
            lines.append(f"  {self.overestimates:,} states overestimate; the worst: h = {_num(w.get('h'))} "
                         f"where h* = {_num(w.get('h_star'))} at {w.get('text', w.get('state'))}")
        if self.inconsistent_moves:
            m = self.worst_move or {}
            lines.append(f"  {self.inconsistent_moves:,} moves break consistency; the worst: "
                         f"{m.get('from_text', m.get('from'))} -> {m.get('to_text', m.get('to'))} "
                         f"costs {_num(m.get('cost'))}, "
                         f"h falls from {_num(m.get('h_from'))} to {_num(m.get('h_to'))}")
        if self.not_a_number:
            lines.append(f"  the formula is not a number at {self.not_a_number:,} states "
                         f"(e.g. {self.example_text or self.example_not_a_number})")
        dead = "dead ends (no way to a goal)" if self.complete else "no way to a goal found within the walk"
        lines.append(f"  h at the goal: {_num(self.h_at_goal)}; {dead}: {self.dead_ends:,}")
        if not self.complete:
            lines.append("  h* of the states judged is the cheapest way out within the walked states: "
                         "an upper bound, so an overestimate near the limit may be false")
        return "\n".join(lines)


def _num(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _plain(x: float) -> float | int | None:
    """A JSON-friendly number: an int when integral, None when infinite or NaN."""
    if not math.isfinite(x):
        return None
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else round(float(x), 6)


def judge(space: LabSpace, formula: Formula, heat_cells: int | None = None) -> Verdict:
    """``formula`` judged over ``space``; ``heat_cells``: the board's cell count, to add a heat map
    (``heat``) for the page (None: no heat map). Holds h (float64 a state) and works a chunk at a time
    (see the module docstring)."""
    began = time.monotonic()
    h = formula.evaluate_chunks(space.count, space.feature_chunk)
    tally = _Tally(space, h, HeatMap(space, heat_cells) if heat_cells is not None else None)
    for lo in range(0, space.count, CHUNK):
        tally.add(lo, min(space.count, lo + CHUNK))
    h_safe = h  # the tally made NaN inf in place: not a number is no estimate at all, too high
    worst = None
    if tally.overestimates:
        i = tally.worst_state
        worst = {"state": space.state_json(i), "cell": int(space.cell[i]), "h": _plain(float(h[i])),
                 "h_star": _plain(float(space.h_star[i]))}
    moves = space.violations(h_safe)
    worst_move = None
    if moves.count:
        a, b = int(moves.src[0]), int(moves.dst[0])
        worst_move = {"from": space.state_json(a), "to": space.state_json(b),
                      "cost": _plain(float(moves.cost[0])),
                      "h_from": _plain(float(h[a])), "h_to": _plain(float(h[b]))}
    nan = tally.not_a_number
    verdict = Verdict(
        formula=formula.text,
        admissible=tally.overestimates == 0 and not nan,
        consistent=moves.count == 0 and not nan,
        states=tally.states,
        overestimates=tally.overestimates,
        inconsistent_moves=moves.count,
        worst=worst,
        worst_move=worst_move,
        h_at_goal=_plain(tally.goal_max) if tally.goal_max is not None else None,
        not_a_number=nan,
        dead_ends=tally.dead_ends,
        complete=space.complete,
        stopped=space.stopped,
        example_not_a_number=space.state_json(tally.first_nan) if nan else None,
    )
    if tally.heat is not None:
        verdict.heat = tally.heat.finish(moves)
    verdict.seconds = time.monotonic() - began
    return verdict


class _Tally:
    """The verdict's counts over ``space``, a chunk of states at a time (``add``). A NaN of ``h`` is
    counted, then made inf in place (no estimate at all: too high wherever a goal is reachable)."""

    def __init__(self, space: LabSpace, h: np.ndarray, heat: HeatMap | None) -> None:
        self.space, self.h, self.heat = space, h, heat
        self.states = self.not_a_number = self.overestimates = self.dead_ends = 0
        self.first_nan = -1
        self.worst_state, self.worst_excess = -1, -math.inf
        self.goal_max: float | None = None

    def add(self, lo: int, hi: int) -> None:
        space = self.space
        h, h_star, judged = self.h[lo:hi], space.h_star[lo:hi], space.judged[lo:hi]
        self.states += int(np.count_nonzero(judged))
        isnan = np.isnan(h)
        nan = np.flatnonzero(judged & isnan)
        if nan.size:
            if not self.not_a_number:
                self.first_nan = lo + int(nan[0])
            self.not_a_number += int(nan.size)
        h[isnan] = np.inf
        reachable = np.isfinite(h_star)  # a goal is reachable (else a dead end: any h is right)
        self.dead_ends += int(np.count_nonzero(judged & ~reachable))
        with np.errstate(invalid="ignore"):
            excess = np.where(reachable, h - h_star, -np.inf)
            over = judged & reachable & (excess > _tolerance(h, h_star))
        count = int(np.count_nonzero(over))
        if count:
            self.overestimates += count
            where = np.flatnonzero(over)
            i = int(where[np.argmax(excess[where])])
            if excess[i] > self.worst_excess:
                self.worst_state, self.worst_excess = lo + i, float(excess[i])
        at_goal = h[np.asarray(space.goal[lo:hi]) & judged]
        if at_goal.size:
            top = float(at_goal.max())
            self.goal_max = top if self.goal_max is None else max(self.goal_max, top)
        if self.heat is not None:
            self.heat.add(lo, hi, h, over)


class HeatMap:
    """Per board cell, for the page, made a chunk of states at a time (``add``), then ``finish``:
    ``ratio`` (base64, a byte a cell: the largest h/h* x 100 of the cell's judged states, clipped to
    250; 254 dead end, 255 no state), ``over`` (base64, a byte a cell: 1 where a state overestimates)
    and ``moves`` ([from cell, to cell] of the worst inconsistent moves)."""

    def __init__(self, space: LabSpace, cells: int) -> None:
        self.space, self.cells = space, cells
        # Per cell the best of its states so far, as a byte that orders like the ratio: 0 no state,
        # 1 a dead end, 2 + round(ratio x HEAT_SCALE) (rounding keeps the order, so the largest wins).
        self.best = np.zeros(cells, dtype=np.uint8)
        self.over = np.zeros(cells, dtype=np.uint8)

    def add(self, lo: int, hi: int, h: np.ndarray, over: np.ndarray) -> None:
        """States lo..hi-1: ``h`` their estimates (no NaN), ``over`` where they overestimate."""
        space = self.space
        cell, h_star = np.asarray(space.cell[lo:hi]), space.h_star[lo:hi]
        on_board = np.flatnonzero(space.judged[lo:hi] & (cell >= 0) & (cell < self.cells))
        if not on_board.size:
            return
        h, h_star = h[on_board], h_star[on_board]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(h_star > 0, h / h_star, np.where(h > _tolerance(h, h_star), np.inf, 1.0))
        ratio = np.clip(np.nan_to_num(ratio, posinf=9.0), 0, HEAT_MAX / HEAT_SCALE)
        key = np.where(np.isfinite(h_star), np.round(ratio * HEAT_SCALE) + 2, 1).astype(np.uint8)
        np.maximum.at(self.best, cell[on_board], key)
        self.over[cell[on_board[over[on_board]]]] = 1

    def finish(self, moves: Violations) -> dict[str, Any]:
        best = self.best  # made the page's bytes in place: 255 no state, 254 dead end, else the ratio
        empty, dead = best == 0, best == 1
        best -= 2
        best[dead] = HEAT_DEAD_END
        best[empty] = HEAT_EMPTY
        del empty, dead
        cell, cells = self.space.cell, self.cells
        a, b = np.asarray(cell[moves.src]), np.asarray(cell[moves.dst])
        shown = (a >= 0) & (b >= 0) & (a < cells) & (b < cells)
        ratio = base64.b64encode(best).decode("ascii")
        self.best = best = None  # type: ignore[assignment]
        over = base64.b64encode(self.over).decode("ascii")
        self.over = None  # type: ignore[assignment]
        return {
            "cells": cells,
            "ratio": ratio,
            "over": over,
            "moves": np.stack([a[shown], b[shown]], axis=1).tolist(),
            "scale": HEAT_SCALE,
        }
