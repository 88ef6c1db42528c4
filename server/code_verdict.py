"""Student mode's verdict: a student's own search (its expansions and its path) judged.

* **The run** comes as the ids of the expanded states, numbered as the student's search reached them,
  and the path as moves (``server/search/algorithms/replay.py``, ``Numbering``): the server numbers
  the states again by replaying the expansions over the family's own ``Problem``, so no bound on the
  states applies here.
* **The path**: it starts at a start, each step is a move of the puzzle (the page checked that, and
  sends why not), it ends at a goal; its cost, and the optimum (``judging.exact_optimum``).
* **The order of expansions** is compared with the algorithm chosen in the page, run by the server on
  the same puzzle and options (stopped one expansion after the student's), under its documented
  tie-break (``Algorithm.rule``). At the first difference the verdict names both states and the rule;
  where the algorithm orders its frontier by a key (``Algorithm.key``: depth, g, h or f) and the
  student's state had the same key as ours there, the student's order is another valid tie-break, and
  the verdict says so rather than "wrong". Where one search only stops sooner because it tests for the
  goal at another moment (on generation or on expansion), the orders still match.
* **Another algorithm's order**: where the order differs from the chosen algorithm's, the others the
  family offers are run too, each stopped at its first difference, and one that matches is named
  ("your order is A*'s").

States are written in sentences by ``show_form`` alone (``server/code_space.py``).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

from .code_space import show_form
from .i18n import t
from .judging import REFERENCES
from .puzzles.family import RunControl, search_options
from .puzzles.options import Values
from .search.algorithms.replay import Numbering
from .search.control import CancelFlag, deadline
from .search.costs import json_cost
from .search.problem import State
from .search.registry import CODE, get_algorithm
from .search.runner import Limits, run_algorithm


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
    others: list[str] = field(default_factory=list)  # other algorithms whose order is the student's

    def to_json(self) -> dict[str, Any]:
        return {"algorithm": self.algorithm, "label": self.label, "rule": self.rule, "matches": self.matches,
                "yours": self.yours, "ours": self.ours, "compared": self.compared, "at": self.at,
                "yours_state": self.yours_state, "ours_state": self.ours_state, "tie": self.tie,
                "message": self.message, "others": self.others,
                "yours_shown": None if self.yours_state is None else show_form(self.yours_state),
                "ours_shown": None if self.ours_state is None else show_form(self.ours_state)}


def _num(value: float | None) -> str:
    """A key or a cost in a sentence, as results print numbers (12017386, not 1.20174e+07)."""
    return "unknown" if value is None else str(json_cost(value))



def check_path(numbering: Numbering, path: list[int] | None, illegal: str | None,
               optimum: float | None, solvable: bool) -> PathCheck:
    """The student's path (``[start index, move index, …]``; ``illegal``: why the page found it no path
    of this puzzle), with the optimum to compare its cost with (``solvable``: a goal can be reached)."""
    if illegal:
        return PathCheck(True, False, optimum=optimum, problem=illegal[:300])
    if not path:
        return PathCheck(found=False, legal=not solvable, optimum=optimum,
                         problem=t("code.verdict.no_path_returned") if solvable else None)
    ids, costs = numbering.path(path, "field 'path'")
    states, problem = numbering.states, numbering.problem
    if not problem.is_goal(states[ids[-1]]):
        return PathCheck(True, False, len(ids) - 1, optimum=optimum,
                         problem=t("code.verdict.ends_not_at_goal",
                                       state=show(numbering, states[ids[-1]])))
    cost = costs[-1]
    optimal = optimum is not None and cost <= optimum + 1e-6 * max(1.0, abs(optimum))  # results round to 6
    return PathCheck(True, True, len(ids) - 1, cost, optimum, optimal)


def optimum_of(family: Any, puzzle: Any, rules: Values,
               max_seconds: float | None) -> tuple[float | None, str | None]:
    """(the optimal cost in the problem's own units, None) or (None, why not): as
    ``judging.exact_optimum`` (the family's default algorithm, then ``REFERENCES``), but the cost as the
    search counted it (a family may pack several measures into one cost), not as its result prints it."""
    order = dict.fromkeys((family.default_algorithm, *REFERENCES))
    for reference in (a for a in order if a in family.algorithms):
        flag = CancelFlag()
        with deadline(flag, max_seconds):
            solved = family.solve(puzzle, reference, rules, RunControl(None, max_seconds, flag))
        result = solved.json
        if result["found"] and result["optimal_guaranteed"]:
            raw = solved.result.cost if solved.result is not None else None
            return (raw if raw is not None else result["cost"]), None
        if result.get("stopped"):
            return None, t("code.verdict.optimal_search_stopped", stopped=result["stopped"])
        if not result["found"]:
            return None, t("code.verdict.no_solution")
    return None, t("code.verdict.no_optimal_search")


def show(numbering: Numbering, state: State) -> str:
    """A state in a verdict's sentence (the one function that writes them): in the family's notation
    (``Family.state_text``, as the lab, the checker and the page write it) when the caller gave it, else
    in its student form."""
    if numbering.text is not None:
        return numbering.text(state)
    return show_form(numbering.problem.student_state(state))


_KEY_WORDS = {"depth": "code.verdict.key.depth", "g": "code.verdict.key.g",  # catalog keys
              "h": "code.verdict.key.h", "f": "code.verdict.key.f", "lifo": "code.verdict.key.lifo"}


class _Enough(Exception):
    """Our search has made one expansion more than the student's: nothing further is compared."""


def reference_expansions(family: Any, puzzle: Any, algorithm: str, options: Values, upto: int,
                         max_seconds: float | None, cancel: CancelFlag | None,
                         yours: list[State] | None = None) -> tuple[list[State], bool]:
    """Our expansions (states) of ``algorithm``, at most ``upto + 1`` of them (with ``yours``: stopped at
    the first that differs from the student's), and whether our search ended by itself. An expansion is
    what it is for the student: a call of ``successors`` (IDA* closes a state when it steps back, and
    best-first search closes the goal without expanding it)."""
    problem = family.run_problem(puzzle, options)
    expanded: list[State] = []
    successors = problem.successors

    def counted(state: Any) -> Any:
        k = len(expanded)
        if k > upto or (yours is not None and k > 0 and (k > len(yours) or expanded[-1] != yours[k - 1])):
            raise _Enough
        expanded.append(state)
        return successors(state)

    problem.successors = counted  # type: ignore[method-assign]
    try:
        entry, search = family.algorithm(algorithm, options), search_options(problem, options)
        result = run_algorithm(problem, entry, search, Limits(None, max_seconds, None), None, cancel)
    except _Enough:
        return expanded, False
    return expanded, not result.stopped


def _shown(numbering: Numbering, i: int) -> str:
    return show(numbering, numbering.states[i])


def first_out_of_depth_order(numbering: Numbering, yours: list[int]) -> tuple[int, str] | None:
    """Where the student's expansions first stop being depth-first, whatever the order of successors:
    each expansion must take a state pushed by the newest expanded state that still has states waiting
    on the frontier (a stack of the states reached, each pushed once, by the first state to reach it, as
    the server's DFS does). The expansion (0-based) and why, or None."""
    reached_by: dict[int, list[int]] = {s: [] for s in numbering.starts}  # frontier state -> who pushed it
    waiting: dict[int, int] = {}  # expanded state -> its successors still on the frontier
    expanded: list[int] = []  # in order; the newest with waiting successors is where DFS goes on
    closed: set[int] = set()
    for k, s in enumerate(yours):
        if s not in reached_by:
            where = t("code.verdict.already_expanded") if s in closed else t("code.verdict.not_generated")
            return k, t("code.verdict.not_on_frontier", state=_shown(numbering, s), where=where)
        while expanded and waiting[expanded[-1]] == 0:
            expanded.pop()
        parents = reached_by.pop(s)
        if expanded and expanded[-1] not in parents:
            newest = expanded[-1]
            return k, t("code.verdict.not_depth_first", state=_shown(numbering, s),
                        newest=_shown(numbering, newest))
        for p in parents:
            waiting[p] -= 1
        closed.add(s)
        expanded.append(s)
        waiting[s] = 0
        for nxt in dict.fromkeys(nxt for nxt, _c in numbering.moves(s)):
            if nxt not in closed and nxt not in reached_by:  # pushed once, by the first state to reach it
                reached_by[nxt] = [s]
                waiting[s] += 1
    return None


def first_out_of_order(numbering: Numbering, key: str, yours: list[int],
                       options: Values) -> tuple[int, str] | None:
    """Where the student's expansions first break the algorithm's rule up to ties: the expansion (0-based)
    and why, or None when each took a state with the smallest ``key`` on the frontier. The frontier is
    kept as the algorithm keeps it (``key`` "depth": the depth at which a state was first reached; else
    the cheapest g so far), whatever the student's own tie-breaks."""
    problem = numbering.problem
    name = options.get("heuristic") or (problem.heuristics[0] if problem.heuristics else "")
    weight = options.get("weight", 1.0)

    estimates: dict[int, float] = {}

    def key_of(i: int, g: float) -> float:
        if key in ("depth", "g"):
            return g
        h = estimates.get(i)
        if h is None:
            h = estimates[i] = problem.heuristic(numbering.states[i], name) if name else 0.0
        return h if key == "h" else g + weight * h

    words = {"depth": "depth", "g": "g", "h": "h", "f": "f"}[key]
    g: dict[int, float] = {}
    heap: list[tuple[float, int]] = []
    closed: set[int] = set()
    for s in numbering.starts:
        g[s] = 0.0
        heapq.heappush(heap, (key_of(s, 0.0), s))
    for k, s in enumerate(yours):
        if s in closed or s not in g:
            where = t("code.verdict.already_expanded") if s in closed else t("code.verdict.not_generated")
            return k, t("code.verdict.not_on_frontier", state=_shown(numbering, s), where=where)
        while heap and (heap[0][1] in closed or heap[0][0] != key_of(heap[0][1], g[heap[0][1]])):
            heapq.heappop(heap)  # stale: expanded, or reached more cheaply since
        mine = key_of(s, g[s])
        if heap and mine > heap[0][0] + 1e-9 * max(1.0, abs(heap[0][0])):
            best = heap[0][1]
            return k, t("code.verdict.smaller_key_waiting", state=_shown(numbering, s), measure=words,
                        mine=_num(mine), best=_shown(numbering, best), theirs=_num(heap[0][0]))
        closed.add(s)
        for nxt, c in numbering.moves(s):
            if nxt in closed:
                continue
            through = g[s] + (1.0 if key == "depth" else c)
            if nxt not in g or (key != "depth" and through < g[nxt]):
                g[nxt] = through
                heapq.heappush(heap, (key_of(nxt, through), nxt))
    return None


def matching_others(family: Any, puzzle: Any, algorithm: str, options: Values, yours: list[State],
                    max_seconds: float | None, cancel: CancelFlag | None) -> list[str]:
    """The other algorithms the family offers whose order of expansions is the student's (each run only
    up to its first difference): their names in text ("A*")."""
    found = []
    for other in family.algorithms:
        if other in (algorithm, CODE):
            continue
        if cancel is not None and cancel.is_set():
            break
        try:
            ours, _finished = reference_expansions(family, puzzle, other, options, len(yours), max_seconds,
                                                   cancel, yours)
        except Exception:  # an algorithm that cannot run under these options is no match
            continue
        if ours and len(ours) >= len(yours) and ours[:len(yours)] == yours:
            found.append(get_algorithm(other).name_in_text)
    return found


def compare_orders(numbering: Numbering, family: Any, puzzle: Any, algorithm: str, options: Values,
                   yours_ids: list[int], stopped: str | None, max_seconds: float | None = None,
                   cancel: CancelFlag | None = None) -> OrderCheck:
    """The student's expansions against ``algorithm``'s, as the module docstring says."""
    entry = get_algorithm(algorithm)
    states = numbering.states
    yours = [states[i] for i in yours_ids]
    ours, finished = reference_expansions(family, puzzle, algorithm, options, len(yours) + 1, max_seconds,
                                          cancel)
    label = entry.name_in_text
    check = OrderCheck(algorithm, label, entry.rule_text, False, len(yours), len(ours),
                       min(len(yours), len(ours)))
    at = next((k for k, (a, b) in enumerate(zip(yours, ours, strict=False)) if a != b), None)
    if at is None:
        check.matches = True
        extra = len(yours) - len(ours)
        if extra == 0:
            check.message = t("code.verdict.matches", label=label, count=len(ours))
        elif extra > 0:
            check.message = (t("code.verdict.matches_went_on", label=label, count=len(ours), extra=extra)
                             + (t("code.verdict.stops_when_generated") if entry.key == "depth" else ""))
        elif stopped:
            check.message = t("code.verdict.matches_before_stopped", label=label, count=len(yours))
        else:
            more = t("code.verdict.more") if finished else t("code.verdict.or_more")
            check.message = t("code.verdict.matches_makes_more", label=label, count=len(yours),
                              extra=-extra, more=more)
        return check
    check.at = at + 1
    mine, theirs = yours[at], ours[at]
    problem = numbering.problem
    check.yours_state = problem.student_state(mine)
    check.ours_state = problem.student_state(theirs)
    shown_mine, shown_ours = show(numbering, mine), show(numbering, theirs)
    check.message = t("code.verdict.differs", label=label, at=at + 1, mine=shown_mine, ours=shown_ours,
                      rule=entry.rule_text)
    if entry.key:
        bad = (first_out_of_depth_order(numbering, yours_ids) if entry.key == "lifo"
               else first_out_of_order(numbering, entry.key, yours_ids, options))
        if bad is None:
            check.tie = True
            check.message = t("code.verdict.valid_tie_break", label=label, took=t(_KEY_WORDS[entry.key]),
                              at=at + 1, mine=shown_mine, ours=shown_ours, rule=entry.rule_text)
        elif bad[0] == at:
            check.message += f". {bad[1][0].upper()}{bad[1][1:]}"
        else:
            check.message += t("code.verdict.valid_up_to", label=label, at=bad[0] + 1, why=bad[1])
    if not check.tie:
        check.others = matching_others(family, puzzle, algorithm, options, yours, max_seconds, cancel)
        if check.others:
            names = t("code.verdict.and").join(t("code.verdict.possessive", name=name)
                                               for name in check.others)
            check.message += t("code.verdict.your_order_is", names=names)
    return check


def headline(verdict: str, path: PathCheck, order: OrderCheck, stopped: str | None) -> str:
    """The verdict's first sentence."""
    if verdict == "illegal":
        return t("code.verdict.headline.illegal", problem=path.problem)
    if verdict == "no path":
        return t("code.verdict.headline.no_path")
    if verdict == "stopped":
        return t("code.verdict.headline.stopped", stopped=stopped)
    if verdict == "valid":  # "A valid A* order with another tie-break…": a sentence of its own
        return order.message[0].upper() + order.message[1:] + "."
    return t("code.verdict.headline.order", order=order.message)  # "Your search matches BFS's order…"


def judge_code_run(family: Any, puzzle: Any, rules: Values, algorithm: str, options: Values,
                   expanded: list[int], path: list[int] | None, illegal: str | None, stopped: str | None,
                   max_seconds: float | None = None, cancel: CancelFlag | None = None) -> dict[str, Any]:
    """The verdict as docs/PROTOCOL.md ("Student mode") gives it, for a run recorded under ``rules``
    (``judging.rule_options``): ``expanded`` ids and the ``path`` as moves; PuzzleError when they do
    not fit this puzzle."""
    problem = family.problem(puzzle, rules)
    numbering = Numbering(problem)
    numbering.text = lambda state: family.state_text(problem, state)
    numbering.expand_all(expanded, "field 'expanded'")
    optimum, why = optimum_of(family, puzzle, rules, max_seconds)
    solvable = optimum is not None or why != t("code.verdict.no_solution")
    path_check = check_path(numbering, path, illegal, optimum, solvable)
    order = compare_orders(numbering, family, puzzle, algorithm, options, expanded, stopped, max_seconds,
                           cancel)
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
        words = problem.cost_in_words
        best = path_check.optimum
        quality = (t("code.verdict.optimal") if path_check.optimal else
                   t("code.verdict.not_optimal", optimum=words(best)) if best is not None
                   else t("code.verdict.optimum_unknown", why=why))
        messages.append(t("code.verdict.path_legal", steps=path_check.steps,
                          cost=words(path_check.cost or 0.0), quality=quality))
    elif not path_check.found and path_check.legal:
        messages.append(t("code.verdict.none_exists"))
    if verdict in ("illegal", "no path") or (verdict == "stopped" and order.yours):
        messages.append(t("code.verdict.order", message=order.message))
    return {"verdict": verdict, "path": path_check.to_json(), "order": order.to_json(), "messages": messages,
            "reached": len(numbering)}
