"""The algorithms users can pick, by the names the CLI, the API and the page use."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from server.search.algorithms.best_first import best_first
from server.search.algorithms.bidirectional import bidirectional
from server.search.algorithms.breadth_first import breadth_first
from server.search.algorithms.depth_first import depth_first
from server.search.algorithms.iterative import idastar, iddfs
from server.search.algorithms.replay import replay
from server.search.events import Event
from server.search.problem import Problem


@dataclass(frozen=True)
class SearchOptions:
    """Options every algorithm reads (each uses what applies to it)."""

    heuristic: str = ""  # "" = the problem's default
    weight: float = 1.0  # A* only: f = g + weight * h
    code: str = ""  # ``code`` only: a student's recorded run (server/search/algorithms/replay.py)

    def resolved_heuristic(self, problem: Problem) -> str:
        if not self.heuristic:
            return problem.heuristics[0] if problem.heuristics else ""
        if self.heuristic not in problem.heuristics:
            raise ValueError(
                f"unknown heuristic {self.heuristic!r}; choose one of: {', '.join(problem.heuristics)}"
            )
        return self.heuristic


Runner = Callable[[Problem, SearchOptions], Generator[Event, None, Any]]


@dataclass(frozen=True)
class Algorithm:
    name: str
    label: str
    summary: str
    run: Runner
    optimal: Callable[[Problem, SearchOptions], bool]
    uses_heuristic: bool = False
    uses_weight: bool = False
    #: Which state it expands next, in words, with its tie-break (student mode's verdict and docs).
    rule: str = ""
    #: Its name in a sentence ("BFS", "A*"); "" for ``label``.
    short: str = ""
    #: The key that orders its frontier, when expansions are taken by smallest key ("depth", "g", "h",
    #: "f"), or "lifo" for depth-first order: a student's different choice that keeps it is another valid
    #: tie-break. "" for none.
    key: str = ""

    @property
    def name_in_text(self) -> str:
        return self.short or self.label


def _astar_optimal(problem: Problem, options: SearchOptions) -> bool:
    return (
        options.weight <= 1.0 and options.resolved_heuristic(problem) not in problem.inadmissible_heuristics
    )


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm(
            "bfs",
            "Breadth-first (Lee's wavefront)",
            "Floods outwards one step at a time; each cell's score is its distance. "
            "Optimal when every step costs the same.",
            lambda p, o: breadth_first(p),
            lambda p, o: p.unit_costs,
            rule="it takes the oldest state on the frontier (first in, first out); the goal test when a "
                 "state is generated",
            key="depth", short="BFS",
        ),
        Algorithm(
            "dfs",
            "Depth-first",
            "Follows one corridor as deep as it goes, then backs up. Not optimal.",
            lambda p, o: depth_first(p),
            lambda p, o: False,
            rule="it takes the newest state on the frontier (last in, first out; the first successor "
                 "first); a state reached once is never pushed again",
            key="lifo", short="DFS",
        ),
        Algorithm(
            "dijkstra",
            "Dijkstra (uniform cost)",
            "Expands the cheapest state first. Always optimal.",
            lambda p, o: best_first(p, "dijkstra"),
            lambda p, o: True,
            rule="it takes the state with the smallest g on the frontier; equal g: the oldest",
            key="g", short="Dijkstra",
        ),
        Algorithm(
            "greedy",
            "Greedy best-first",
            "Expands the state that looks nearest the goal. Fast, not optimal.",
            lambda p, o: best_first(p, "greedy", o.resolved_heuristic(p)),
            lambda p, o: False,
            uses_heuristic=True,
            rule="it takes the state with the smallest h on the frontier; equal h: the oldest",
            key="h", short="greedy best-first",
        ),
        Algorithm(
            "astar",
            "A*",
            "Expands by cost so far plus estimate. Optimal with an admissible heuristic "
            "and weight 1; with weight w the cost is at most w times the optimum.",
            lambda p, o: best_first(p, "astar", o.resolved_heuristic(p), o.weight),
            _astar_optimal,
            uses_heuristic=True,
            uses_weight=True,
            rule="it takes the state with the smallest f = g + h on the frontier; equal f: the smaller h, "
                 "then the oldest; the goal test when a state is expanded",
            key="f", short="A*",
        ),
        Algorithm(
            "bidirectional",
            "Bidirectional search",
            "Searches from both ends (uniform cost; BFS on unit costs) with a correct stopping rule. "
            "Optimal.",
            lambda p, o: bidirectional(p),
            lambda p, o: True,
            rule="it expands from the start and from the goal in turn, each side by the smallest g",
            short="bidirectional search",
        ),
    )
}


for _algo in (
    Algorithm(
        "idastar",
        "IDA*",
        "A* in the memory of a depth-first search: deepening bounds on cost plus estimate. "
        "Optimal with an admissible heuristic and weight 1.",
        lambda p, o: idastar(p, o.resolved_heuristic(p), o.weight),
        _astar_optimal,
        uses_heuristic=True,
        uses_weight=True,
        rule="depth-first within a bound on f = g + h, successors in the server's order; the bound grows "
             "to the smallest f that exceeded it",
        short="IDA*",
    ),
    Algorithm(
        "iddfs",
        "Iterative deepening DFS",
        "Depth-first searches to depth 0, 1, 2, …: the fewest steps in the memory of one path. "
        "Optimal when every step costs the same.",
        lambda p, o: iddfs(p),
        lambda p, o: p.unit_costs,
        rule="depth-first to depth 0, 1, 2, …, successors in the server's order",
        short="iterative deepening",
    ),
):
    ALGORITHMS[_algo.name] = _algo

#: The core's own algorithms, which run on any Problem (families add theirs: ``register_algorithm``).
BUILT_IN = frozenset(ALGORITHMS)


# The student's own search replayed (student mode): run with the option ``code``, never in a menu.
CODE = "code"
CODE_ALGORITHM = Algorithm(
    CODE,
    "Your code",
    "Your own search, run in the page; replayed here as it expanded.",
    lambda p, o: replay(p, o.code),
    lambda p, o: False,
)
HIDDEN: dict[str, Algorithm] = {CODE: CODE_ALGORITHM}


def register_algorithm(algorithm: Algorithm) -> None:
    """Add an algorithm a family brings (e.g. a course's own method); names must stay unique."""
    existing = ALGORITHMS.get(algorithm.name)
    if existing is not None and existing is not algorithm:
        raise ValueError(f"an algorithm named {algorithm.name!r} is already registered")
    ALGORITHMS[algorithm.name] = algorithm


def get_algorithm(name: str) -> Algorithm:
    try:
        return ALGORITHMS[name] if name in ALGORITHMS else HIDDEN[name]
    except KeyError:
        raise ValueError(f"unknown algorithm {name!r}; choose one of: {', '.join(ALGORITHMS)}") from None
