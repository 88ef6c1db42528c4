"""The heuristic lab: a student's formula judged against the true cost-to-go of every reachable state.

A family describes its states with **features** (``Family.features``: ``row``, ``col``, ``dr`` ...) and
builds a ``LabSpace`` (``Family.lab_space``): the states reachable from the start, their features,
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
"""

from __future__ import annotations

import base64
import heapq
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from server.formula import Formula
from server.puzzles.errors import PuzzleError
from server.search.control import CancelFlag
from server.search.problem import Problem, State
from server.search.walk import walk

MAX_SHOWN_MOVES = 500  # inconsistent moves drawn on the page (the worst first)
EPSILON = 1e-9  # relative tolerance: float sums of step costs (octile's sqrt 2) are not exact
HEAT_SCALE = 100  # heat byte = round(h / h* x 100), clipped to HEAT_MAX
HEAT_MAX = 250
HEAT_EMPTY = 255  # no judged state in the cell
HEAT_DEAD_END = 254  # the cell's states cannot reach a goal (h* infinite)


@dataclass
class Violations:
    """Moves that break consistency: how many, and the worst ``MAX_SHOWN_MOVES`` (state indices)."""

    count: int
    src: np.ndarray
    dst: np.ndarray
    cost: np.ndarray


class LabSpace:
    """The states a heuristic is judged on (indices 0..count-1) and what is known of each.

    ``features``: float64 arrays by feature name; ``h_star``: cost-to-go (inf: no goal reachable);
    ``goal``: bool; ``cell``: the board cell a state is drawn on (-1: none); ``judged``: bool, the
    states whose moves were all seen (every state, unless the walk stopped early)."""

    count: int
    features: dict[str, np.ndarray]
    h_star: np.ndarray
    goal: np.ndarray
    cell: np.ndarray
    judged: np.ndarray
    complete: bool = True
    stopped: str | None = None

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


def worst_moves(src: np.ndarray, dst: np.ndarray, cost: np.ndarray, h: np.ndarray) -> Violations:
    """The moves (as index arrays) whose h(src) > cost + h(dst), the largest excess first."""
    with np.errstate(invalid="ignore"):
        excess = h[src] - (cost + h[dst])
        bad = excess > _tolerance(h[src], cost + h[dst])
    count = int(np.count_nonzero(bad))
    picked = np.flatnonzero(bad)
    if count > MAX_SHOWN_MOVES:
        picked = picked[np.argpartition(-excess[picked], MAX_SHOWN_MOVES)[:MAX_SHOWN_MOVES]]
    picked = picked[np.argsort(-excess[picked], kind="stable")]
    return Violations(count, src[picked], dst[picked], cost[picked])


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
        keep = self.judged[self.src] & self.judged[self.dst]
        return worst_moves(self.src[keep], self.dst[keep], self.cost[keep], h)

    def state_json(self, index: int) -> Any:
        return self.problem.state_to_json(self.states[index])


def backward_costs(count: int, src: np.ndarray, dst: np.ndarray, cost: np.ndarray,
                   goals: np.ndarray) -> np.ndarray:
    """Uniform-cost search from every goal at once over the reversed moves: each state's cheapest
    cost to a goal (inf where none is reachable)."""
    order = np.argsort(dst, kind="stable")  # moves into each state, grouped: CSR of the reversed graph
    into_src, into_cost = src[order].tolist(), cost[order].tolist()
    starts = np.searchsorted(dst[order], np.arange(count + 1)).tolist()
    best = [math.inf] * count
    heap: list[tuple[float, int]] = []
    for g in goals.tolist():
        best[g] = 0.0
        heap.append((0.0, g))
    heapq.heapify(heap)
    done = bytearray(count)
    while heap:
        g, state = heapq.heappop(heap)
        if done[state]:
            continue
        done[state] = 1
        for k in range(starts[state], starts[state + 1]):
            prev, through = into_src[k], g + into_cost[k]
            if through < best[prev]:
                best[prev] = through
                heapq.heappush(heap, (through, prev))
    return np.asarray(best, dtype=np.float64)


FeatureFn = Callable[[Sequence[State]], dict[str, np.ndarray]]


def explore(problem: Problem, features: FeatureFn, max_states: int, max_seconds: float | None = None,
            cancel: CancelFlag | None = None) -> GraphSpace:
    """Every state reachable from the start (``server.search.walk``: breadth-first, at most
    ``max_states``), each move kept, features from ``features(states)``; see the module docstring
    for a walk that stops early."""
    done = walk(problem, max_states, max_seconds, cancel)
    return GraphSpace(problem, done.states, features(done.states), done.src, done.dst, done.cost,
                      done.expanded, done.stopped)


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
    heat: dict[str, Any] | None = field(default=None, repr=False)

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
                         f"where h* = {_num(w.get('h_star'))} at {w.get('state')}")
        if self.inconsistent_moves:
            m = self.worst_move or {}
            lines.append(f"  {self.inconsistent_moves:,} moves break consistency; the worst: "
                         f"{m.get('from')} -> {m.get('to')} costs {_num(m.get('cost'))}, "
                         f"h falls from {_num(m.get('h_from'))} to {_num(m.get('h_to'))}")
        if self.not_a_number:
            lines.append(f"  the formula is not a number at {self.not_a_number:,} states "
                         f"(e.g. {self.example_not_a_number})")
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
    (``heat``) for the page (None: no heat map)."""
    began = time.monotonic()
    h = formula.evaluate(space.features)
    if h.shape != (space.count,):
        h = np.broadcast_to(h, (space.count,)).astype(np.float64)
    judged = space.judged
    nan = judged & np.isnan(h)
    h_safe = np.where(np.isnan(h), np.inf, h)  # not a number: no estimate at all, too high
    h_star = space.h_star
    with np.errstate(invalid="ignore"):
        excess = np.where(np.isfinite(h_star), h_safe - h_star, -np.inf)
        over = judged & np.isfinite(h_star) & (excess > _tolerance(h_safe, h_star))
    overestimates = int(np.count_nonzero(over))
    worst = None
    if overestimates:
        i = int(np.flatnonzero(over)[np.argmax(excess[over])])
        worst = {"state": space.state_json(i), "cell": int(space.cell[i]), "h": _plain(float(h[i])),
                 "h_star": _plain(float(h_star[i]))}
    moves = space.violations(h_safe)
    worst_move = None
    if moves.count:
        a, b = int(moves.src[0]), int(moves.dst[0])
        worst_move = {"from": space.state_json(a), "to": space.state_json(b),
                      "cost": _plain(float(moves.cost[0])),
                      "h_from": _plain(float(h[a])), "h_to": _plain(float(h[b]))}
    goal_h = h[space.goal & judged]
    verdict = Verdict(
        formula=formula.text,
        admissible=overestimates == 0 and not nan.any(),
        consistent=moves.count == 0 and not nan.any(),
        states=int(np.count_nonzero(judged)),
        overestimates=overestimates,
        inconsistent_moves=moves.count,
        worst=worst,
        worst_move=worst_move,
        h_at_goal=_plain(float(goal_h.max())) if goal_h.size else None,
        not_a_number=int(np.count_nonzero(nan)),
        dead_ends=int(np.count_nonzero(judged & ~np.isfinite(h_star))),
        complete=space.complete,
        stopped=space.stopped,
        example_not_a_number=space.state_json(int(np.flatnonzero(nan)[0])) if nan.any() else None,
    )
    if heat_cells is not None:
        verdict.heat = heat_map(space, h_safe, over, moves, heat_cells)
    verdict.seconds = time.monotonic() - began
    return verdict


def heat_map(space: LabSpace, h: np.ndarray, over: np.ndarray, moves: Violations,
             cells: int) -> dict[str, Any]:
    """Per board cell, for the page: ``ratio`` (base64, a byte a cell: the largest h/h* x 100 of
    the cell's judged states, clipped to 250; 254 dead end, 255 no state), ``over`` (base64, a byte a
    cell: 1 where a state overestimates) and ``moves`` ([from cell, to cell] of the worst
    inconsistent moves)."""
    cell = space.cell
    on_board = space.judged & (cell >= 0) & (cell < cells)
    h_star = space.h_star
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(h_star > 0, h / h_star, np.where(h > _tolerance(h, h_star), np.inf, 1.0))
    ratio = np.clip(np.nan_to_num(ratio, posinf=9.0), 0, HEAT_MAX / HEAT_SCALE)
    ratio = np.where(np.isfinite(h_star), ratio, -1)  # -1: a dead end
    score = np.full(cells, -2.0)
    np.maximum.at(score, cell[on_board], ratio[on_board])
    marks = np.where(score == -1, HEAT_DEAD_END, HEAT_EMPTY)
    heat = np.where(score >= 0, np.round(score * HEAT_SCALE), marks)
    over_cells = np.zeros(cells, dtype=np.uint8)
    over_cells[cell[on_board & over]] = 1
    a, b = cell[moves.src], cell[moves.dst]
    shown = (a >= 0) & (b >= 0) & (a < cells) & (b < cells)
    return {
        "cells": cells,
        "ratio": base64.b64encode(heat.astype(np.uint8).tobytes()).decode("ascii"),
        "over": base64.b64encode(over_cells.tobytes()).decode("ascii"),
        "moves": np.stack([a[shown], b[shown]], axis=1).tolist(),
        "scale": HEAT_SCALE,
    }


# ---- the service: what the CLI and the API call --------------------------------------------------
SEARCH_ONLY = ("heuristic", "weight", "max_depth", "formula")  # options that are not the puzzle's rules


def rule_options(family: Any, options: Any) -> dict[str, Any]:
    """``options`` without the search's own (heuristic, weight…), checked as run options."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise PuzzleError(f"options must be an object, got {type(options).__name__}", "options")
    return family.run_options({k: v for k, v in options.items() if k not in SEARCH_ONLY})


def judge_formula(puzzle: Any, text: Any, options: dict[str, Any], *, max_states: int,
                  max_seconds: float | None = None, cancel: CancelFlag | None = None,
                  heat_cells: int | None = None) -> Verdict:
    """Compile ``text`` for the puzzle's family (``FormulaError`` names the column), build its lab
    space under ``options``' rules and judge it; a heat map when the board has at most ``heat_cells``
    cells."""
    from server.formula import compile_formula
    from server.puzzles.registry import family_of

    family = family_of(puzzle)
    if not family.features:
        raise PuzzleError(f"the heuristic lab has no features for {family.title.lower()} puzzles", "family")
    formula = compile_formula(text, family.feature_names)
    space = family.lab_space(puzzle, options, max_states, max_seconds, cancel)
    width, height = family.size(puzzle)
    cells = width * height if heat_cells is not None and width * height <= heat_cells else None
    return judge(space, formula, cells)
