"""The algorithms users can pick, by the names the CLI, the API and the page use."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from ..i18n import t
from .algorithms.best_first import best_first
from .algorithms.bidirectional import bidirectional
from .algorithms.breadth_first import breadth_first
from .algorithms.depth_first import depth_first
from .algorithms.iterative import idastar, iddfs
from .algorithms.replay import replay
from .events import Event
from .problem import Problem


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
            raise ValueError(t("search.registry.unknown_heuristic", heuristic=repr(self.heuristic),
                               choices=", ".join(problem.heuristics)))
        return self.heuristic


Runner = Callable[[Problem, SearchOptions], Generator[Event, None, Any]]


@dataclass(frozen=True)
class Algorithm:
    """A search the page offers. ``label``, ``summary``, ``rule`` and ``short`` hold catalog keys
    (``search.algorithm.<name>.*``; a family's own may hold plain text): read them with ``t()``."""

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
        """Its name in a sentence, in the reader's language (``short``, else ``label``)."""
        return t(self.short or self.label)

    @property
    def label_text(self) -> str:
        """``label`` in the reader's language (the fields hold catalog keys, or plain text)."""
        return t(self.label)

    @property
    def summary_text(self) -> str:
        return t(self.summary)

    @property
    def rule_text(self) -> str:
        return t(self.rule) if self.rule else ""


def _astar_optimal(problem: Problem, options: SearchOptions) -> bool:
    return (
        options.weight <= 1.0 and options.resolved_heuristic(problem) not in problem.inadmissible_heuristics
    )


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in (
        Algorithm(
            "bfs",
            "search.algorithm.bfs.label",
            "search.algorithm.bfs.summary",
            lambda p, o: breadth_first(p),
            lambda p, o: p.unit_costs,
            rule="search.algorithm.bfs.rule",
            key="depth", short="search.algorithm.bfs.short",
        ),
        Algorithm(
            "dfs",
            "search.algorithm.dfs.label",
            "search.algorithm.dfs.summary",
            lambda p, o: depth_first(p),
            lambda p, o: False,
            rule="search.algorithm.dfs.rule",
            key="lifo", short="search.algorithm.dfs.short",
        ),
        Algorithm(
            "dijkstra",
            "search.algorithm.dijkstra.label",
            "search.algorithm.dijkstra.summary",
            lambda p, o: best_first(p, "dijkstra"),
            lambda p, o: True,
            rule="search.algorithm.dijkstra.rule",
            key="g", short="search.algorithm.dijkstra.short",
        ),
        Algorithm(
            "greedy",
            "search.algorithm.greedy.label",
            "search.algorithm.greedy.summary",
            lambda p, o: best_first(p, "greedy", o.resolved_heuristic(p)),
            lambda p, o: False,
            uses_heuristic=True,
            rule="search.algorithm.greedy.rule",
            key="h", short="search.algorithm.greedy.short",
        ),
        Algorithm(
            "astar",
            "search.algorithm.astar.label",
            "search.algorithm.astar.summary",
            lambda p, o: best_first(p, "astar", o.resolved_heuristic(p), o.weight),
            _astar_optimal,
            uses_heuristic=True,
            uses_weight=True,
            rule="search.algorithm.astar.rule",
            key="f", short="search.algorithm.astar.short",
        ),
        Algorithm(
            "bidirectional",
            "search.algorithm.bidirectional.label",
            "search.algorithm.bidirectional.summary",
            lambda p, o: bidirectional(p),
            lambda p, o: True,
            rule="search.algorithm.bidirectional.rule",
            short="search.algorithm.bidirectional.short",
        ),
    )
}


for _algo in (
    Algorithm(
        "idastar",
        "search.algorithm.idastar.label",
        "search.algorithm.idastar.summary",
        lambda p, o: idastar(p, o.resolved_heuristic(p), o.weight),
        _astar_optimal,
        uses_heuristic=True,
        uses_weight=True,
        rule="search.algorithm.idastar.rule",
        short="search.algorithm.idastar.short",
    ),
    Algorithm(
        "iddfs",
        "search.algorithm.iddfs.label",
        "search.algorithm.iddfs.summary",
        lambda p, o: iddfs(p),
        lambda p, o: p.unit_costs,
        rule="search.algorithm.iddfs.rule",
        short="search.algorithm.iddfs.short",
    ),
):
    ALGORITHMS[_algo.name] = _algo

#: The core's own algorithms, which run on any Problem (families add theirs: ``register_algorithm``).
BUILT_IN = frozenset(ALGORITHMS)


# The student's own search replayed (student mode): run with the option ``code``, never in a menu.
CODE = "code"
CODE_ALGORITHM = Algorithm(
    CODE,
    "search.algorithm.code.label",
    "search.algorithm.code.summary",
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
        raise ValueError(t("search.registry.unknown_algorithm", name=repr(name),
                           choices=", ".join(ALGORITHMS))) from None
