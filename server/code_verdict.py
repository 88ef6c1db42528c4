"""Student mode's verdict: a student's own search (its expansions and its path) judged.

* **The path** is checked over the walked space (``server/code_space.py``): it starts at a start, each
  step is a move of the puzzle, it ends at a goal; its cost, and the optimum over the same space.
* **The order of expansions** is compared with the algorithm chosen in the page, run by the server on
  the same puzzle and options (stopped one expansion after the student's), under its documented
  tie-break (``Algorithm.rule``). At the first difference the verdict names both states and the rule;
  where the algorithm orders its frontier by a key (``Algorithm.key``: depth, g, h or f) and the
  student's state had the same key as ours there, the student's order is another valid tie-break, and
  the verdict says so rather than "wrong". Where one search only stops sooner because it tests for the
  goal at another moment (on generation or on expansion), the orders still match.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

from server.code_space import CodeSpace, show_form
from server.puzzles.family import search_options
from server.puzzles.options import Values
from server.search.control import CancelFlag
from server.search.costs import json_cost
from server.search.registry import get_algorithm
from server.search.runner import Limits, run_algorithm


@dataclass
class PathCheck:
    found: bool
    legal: bool
    steps: int = 0
    cost: float | None = None
    optimum: float | None = None
    optimal: bool = False
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"found": self.found, "legal": self.legal, "steps": self.steps, "cost": self.cost,
                "optimum": self.optimum, "optimal": self.optimal, "problem": self.problem}


@dataclass
class OrderCheck:
    algorithm: str
    label: str
    rule: str
    matches: bool
    yours: int
    ours: int
    compared: int
    at: int | None = None
    yours_state: Any = None
    ours_state: Any = None
    tie: bool = False
    message: str = ""
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "label": self.label, "rule": self.rule, "matches": self.matches,
                "yours": self.yours, "ours": self.ours, "compared": self.compared, "at": self.at,
                "yours_state": self.yours_state, "ours_state": self.ours_state, "tie": self.tie,
                "message": self.message,
                "yours_shown": None if self.yours_state is None else show_form(self.yours_state),
                "ours_shown": None if self.ours_state is None else show_form(self.ours_state)}


def _num(value: float | None) -> str:
    """A key or a cost in a sentence, as results print numbers (12017386, not 1.20174e+07)."""
    return "unknown" if value is None else str(json_cost(value))


def check_path(space: CodeSpace, path: list[int] | None) -> PathCheck:
    """The student's path over the space (ids), with the optimum to compare its cost with."""
    optimum = space.optimum()
    if not path:
        return PathCheck(found=False, legal=optimum is None, optimum=optimum,
                         problem=None if optimum is None else "no path returned, but a goal can be reached")
    walked = space.walk.expanded
    if path[0] not in space.starts:
        return PathCheck(True, False, len(path) - 1, optimum=optimum,
                         problem=f"it starts at {space.show(path[0])}, not at the start "
                                 f"{space.show(space.starts[0])}")
    cost = 0.0
    for k in range(1, len(path)):
        a, b = path[k - 1], path[k]
        if a >= walked:
            return PathCheck(True, False, len(path) - 1, optimum=optimum,
                             problem=f"move {k}: {space.show(a)} lies beyond the states walked for "
                                     "your code")
        targets, costs = space.moves_of(a)
        steps = [c for t, c in zip(targets.tolist(), costs.tolist(), strict=True) if t == b]
        if not steps:
            return PathCheck(True, False, len(path) - 1, optimum=optimum,
                             problem=f"move {k}: {space.show(a)} → {space.show(b)} is not a move of "
                                     "this puzzle")
        cost += min(steps)
    if not space.goals[path[-1]]:
        return PathCheck(True, False, len(path) - 1, optimum=optimum,
                         problem=f"it ends at {space.show(path[-1])}, not at a goal")
    optimal = optimum is not None and cost <= optimum + 1e-9 * max(1.0, abs(optimum))
    return PathCheck(True, True, len(path) - 1, cost, optimum, optimal)


_KEY_WORDS = {"depth": "a state with the smallest depth", "g": "a state with the smallest g",
              "h": "a state with the smallest h", "f": "a state with the smallest f",
              "lifo": "a state reached from the newest expanded state with states still waiting"}


class _Enough(Exception):
    """Our search has made one expansion more than the student's: nothing further is compared."""


def _reference(space: CodeSpace, family: Any, puzzle: Any, algorithm: str, options: Values, upto: int,
               max_seconds: float | None, cancel: CancelFlag | None) -> tuple[list[int], bool]:
    """Our expansions (ids; -1 for a state beyond the walk), at most ``upto + 1`` of them, and whether our
    search ended by itself. An expansion is what it is for the student: a call of ``successors`` (IDA*
    closes a state when it steps back, and best-first search closes the goal without expanding it)."""
    problem = family.run_problem(puzzle, options)
    index = space.walk.index
    expanded: list[int] = []
    successors = problem.successors

    def counted(state: Any) -> Any:
        if len(expanded) > upto:
            raise _Enough
        expanded.append(index.get(state, -1))
        return successors(state)

    problem.successors = counted  # type: ignore[method-assign]
    try:
        entry, search = family.algorithm(algorithm, options), search_options(problem, options)
        result = run_algorithm(problem, entry, search, Limits(None, max_seconds, None), None, cancel)
    except _Enough:
        return expanded, False
    return expanded, not result.stopped


def first_out_of_depth_order(space: CodeSpace, yours: list[int]) -> tuple[int, str] | None:
    """Where the student's expansions first stop being depth-first, whatever the order of successors:
    each expansion must take a state pushed by the newest expanded state that still has states waiting
    on the frontier (a stack of the states reached, each pushed once, by the first state to reach it, as
    the server's DFS does). The expansion (0-based) and why, or None."""
    walked = space.walk.expanded
    reached_by: dict[int, list[int]] = {s: [] for s in space.starts}  # frontier state -> who pushed it
    waiting: dict[int, int] = {}  # expanded state -> its successors still on the frontier
    expanded: list[int] = []  # in order; the newest with waiting successors is where DFS goes on
    closed: set[int] = set()
    for k, s in enumerate(yours):
        if s not in reached_by:
            where = "already expanded" if s in closed else "not yet generated"
            return k, f"yours expanded {space.show(s)}, which was {where}: not on the frontier"
        while expanded and waiting[expanded[-1]] == 0:
            expanded.pop()
        parents = reached_by.pop(s)
        if expanded and expanded[-1] not in parents:
            newest = expanded[-1]
            return k, (f"yours expanded {space.show(s)} while states reached from {space.show(newest)}, "
                       "expanded after its parent, still waited on the frontier: not depth-first")
        for p in parents:
            waiting[p] -= 1
        closed.add(s)
        expanded.append(s)
        waiting[s] = 0
        if s >= walked:
            return None
        for t in dict.fromkeys(space.moves_of(s)[0].tolist()):
            if t not in closed and t not in reached_by:  # pushed once, by the first state to reach it
                reached_by[t] = [s]
                waiting[s] += 1
    return None


def first_out_of_order(space: CodeSpace, key: str, yours: list[int],
                       options: Values) -> tuple[int, str] | None:
    """Where the student's expansions first break the algorithm's rule up to ties: the expansion (0-based)
    and why, or None when each took a state with the smallest ``key`` on the frontier. The frontier is
    kept as the algorithm keeps it (``key`` "depth": the depth at which a state was first reached; else
    the cheapest g so far), whatever the student's own tie-breaks."""
    problem = space.problem
    name = options.get("heuristic") or (problem.heuristics[0] if problem.heuristics else "")
    weight = options.get("weight", 1.0)

    estimates: dict[int, float] = {}

    def key_of(i: int, g: float) -> float:
        if key in ("depth", "g"):
            return g
        h = estimates.get(i)
        if h is None:
            h = estimates[i] = problem.heuristic(space.walk.states[i], name) if name else 0.0
        return h if key == "h" else g + weight * h

    words = {"depth": "depth", "g": "g", "h": "h", "f": "f"}[key]
    g: dict[int, float] = {}
    heap: list[tuple[float, int]] = []
    closed: set[int] = set()
    for s in space.starts:
        g[s] = 0.0
        heapq.heappush(heap, (key_of(s, 0.0), s))
    walked = space.walk.expanded
    for k, s in enumerate(yours):
        if s in closed or s not in g:
            where = "already expanded" if s in closed else "not yet generated"
            return k, f"yours expanded {space.show(s)}, which was {where}: not on the frontier"
        while heap and (heap[0][1] in closed or heap[0][0] != key_of(heap[0][1], g[heap[0][1]])):
            heapq.heappop(heap)  # stale: expanded, or reached more cheaply since
        mine = key_of(s, g[s])
        if heap and mine > heap[0][0] + 1e-9 * max(1.0, abs(heap[0][0])):
            best = heap[0][1]
            return k, (f"yours expanded {space.show(s)} with {words} {_num(mine)} while {space.show(best)} "
                       f"with {words} {_num(heap[0][0])} was on the frontier")
        closed.add(s)
        if s >= walked:
            return None  # beyond the walked space: nothing more to check
        targets, costs = space.moves_of(s)
        for t, c in zip(targets.tolist(), costs.tolist(), strict=True):
            if t in closed:
                continue
            through = g[s] + (1.0 if key == "depth" else c)
            if t not in g or (key != "depth" and through < g[t]):
                g[t] = through
                heapq.heappush(heap, (key_of(t, through), t))
    return None


def compare_orders(space: CodeSpace, family: Any, puzzle: Any, algorithm: str, options: Values,
                   yours: list[int], stopped: str | None, max_seconds: float | None = None,
                   cancel: CancelFlag | None = None) -> OrderCheck:
    """The student's expansions against ``algorithm``'s, as the module docstring says."""
    entry = get_algorithm(algorithm)
    ours, finished = _reference(space, family, puzzle, algorithm, options, len(yours) + 1,
                                        max_seconds, cancel)
    label = entry.name_in_text
    check = OrderCheck(algorithm, label, entry.rule, False, len(yours), len(ours),
                       min(len(yours), len(ours)))
    at = next((k for k, (a, b) in enumerate(zip(yours, ours, strict=False)) if a != b), None)
    if at is None:
        check.matches = True
        extra = len(yours) - len(ours)
        if extra == 0:
            check.message = f"matches {label}'s order of expansions ({len(ours):,} expansions)"
        elif extra > 0:
            check.message = (f"matches {label}'s order for all {len(ours):,} of its expansions; yours "
                             f"went on for {extra:,} more after {label} stopped"
                             + (" (it stops when the goal is generated)" if entry.key == "depth" else ""))
        elif stopped:
            check.message = (f"matches {label}'s order for all {len(yours):,} expansions yours made before "
                             "it was stopped")
        else:
            more = "more" if finished else "or more"
            check.message = (f"matches {label}'s order for all {len(yours):,} of your expansions; "
                             f"{label} makes {-extra:,} {more} before it stops (it tests for the goal at "
                             "another moment)")
        return check
    check.at = at + 1
    mine, theirs = yours[at], ours[at]
    check.yours_state = space.forms[mine]
    check.ours_state = space.forms[theirs] if theirs >= 0 else None
    shown_ours = space.show(theirs) if theirs >= 0 else "a state beyond the walked space"
    check.message = (f"differs from {label} at expansion {at + 1}: yours expanded {space.show(mine)}, "
                     f"{label} expands {shown_ours} next — {entry.rule}")
    if entry.key:
        bad = (first_out_of_depth_order(space, yours) if entry.key == "lifo"
               else first_out_of_order(space, entry.key, yours, options))
        if bad is None:
            check.tie = True
            check.message = (f"a valid {label} order with another tie-break than ours: every expansion of "
                             f"yours took {_KEY_WORDS[entry.key]} on the frontier. It first "
                             f"differs from {label} at expansion {at + 1}: yours expanded "
                             f"{space.show(mine)}, {label} expands {shown_ours} next — {entry.rule}")
        elif bad[0] == at:
            check.message += f". {bad[1][0].upper()}{bad[1][1:]}"
        else:
            check.message += (f". Up to there yours was a valid {label} order with another tie-break, but at "
                              f"expansion {bad[0] + 1}: {bad[1]}")
    return check


def headline(verdict: str, path: PathCheck, order: OrderCheck, stopped: str | None) -> str:
    """The verdict's first sentence."""
    if verdict == "illegal":
        return f"Your path is not a solution: {path.problem}."
    if verdict == "no path":
        return "Your search returned no path, but a goal can be reached."
    if verdict == "stopped":
        return f"Your program was stopped before it finished: {stopped}."
    return order.message[0].upper() + order.message[1:] + "."


def judge_code_run(space: CodeSpace, family: Any, puzzle: Any, algorithm: str, options: Values,
                   expanded: list[int], path: list[int] | None, stopped: str | None, max_animated: int,
                   max_seconds: float | None = None, cancel: CancelFlag | None = None) -> dict[str, Any]:
    """The verdict as docs/PROTOCOL.md ("Student mode") gives it."""
    path_check = check_path(space, path)
    order = compare_orders(space, family, puzzle, algorithm, options, expanded, stopped, max_seconds, cancel)
    if path_check.found and not path_check.legal:
        verdict = "illegal"
    elif stopped:
        verdict = "stopped"
    elif not path_check.found and not path_check.legal:
        verdict = "no path"
    else:
        verdict = "matches" if order.matches else "valid" if order.tie else "differs"
    messages = [headline(verdict, path_check, order, stopped)]
    if path_check.found and path_check.legal:
        words = space.problem.cost_in_words
        best = path_check.optimum
        quality = ("optimal" if path_check.optimal else
                   f"not optimal: the optimum is {words(best)}" if best is not None
                   else "the optimum is unknown")
        messages.append(f"Your path is legal: {path_check.steps:,} moves, {words(path_check.cost or 0.0)} "
                        f"({quality}).")
    elif not path_check.found and path_check.legal:
        messages.append("Your search returned no path, and none exists.")
    if verdict in ("illegal", "no path") or (verdict == "stopped" and order.yours):
        messages.append(f"Order of expansions: {order.message}.")
    if space.walk.stopped is not None:
        messages.append(f"The server walked {space.walk.expanded:,} states of this puzzle for your code "
                        f"({space.walk.stopped}).")
    shown = expanded[:max_animated]
    code = ",".join(map(str, shown)) + ";" + (",".join(map(str, path)) if path else "")
    return {"verdict": verdict, "code": code, "path": path_check.to_json(), "order": order.to_json(),
            "messages": messages, "animated": len(shown)}
