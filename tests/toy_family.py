"""A toy puzzle family that lives only in the tests: named states and weighted edges in a tiny
text format. Registering it (``registry.register(TOY)``) must be all it takes for the server, the
API, the socket and the CLI to detect, load, validate, list and solve it (tests/test_family_plug.py).

    graph
    start A
    goal D
    A B 1      # an edge from A to B that costs 1
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from server.puzzles.errors import PuzzleError
from server.puzzles.family import Family, LoadLimits, require_text
from server.puzzles.options import Option, Values
from server.search.problem import Problem


class ToyGraph:
    """The model: edges by state, one start, one goal."""

    def __init__(self, name: str, edges: list[tuple[str, str, float]], start: str, goal: str) -> None:
        self.name, self.edges, self.start, self.goal = name, edges, start, goal
        self.states = sorted({s for a, b, _ in edges for s in (a, b)} | {start, goal})


class ToyProblem(Problem):
    heuristics = ("zero",)

    def __init__(self, graph: ToyGraph, undirected: bool) -> None:
        self.graph = graph
        self.out: dict[str, list[tuple[str, float]]] = defaultdict(list)
        self.into: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for a, b, cost in graph.edges:
            for x, y in ((a, b), (b, a)) if undirected else ((a, b),):
                self.out[x].append((y, cost))
                self.into[y].append((x, cost))
        self.unit_costs = all(cost == 1 for _, _, cost in graph.edges)

    def initial_states(self) -> list[str]:
        return [self.graph.start]

    def is_goal(self, state: str) -> bool:
        return state == self.graph.goal

    def successors(self, state: str):
        return self.out[state]

    def predecessors(self, state: str):  # Lee's backtrace (bfs) walks these
        return self.into[state]

    def cell_of(self, state: str) -> int:
        return self.graph.states.index(state)  # the page could draw the states in a row


class ToyFamily(Family):
    def __init__(self) -> None:
        super().__init__(
            name="toy-graph",
            title="Toy graph",
            puzzle_type=ToyGraph,
            extensions=(".graph",),
            expects="a toy graph: 'graph', then 'start X', 'goal Y' and lines 'A B cost'",
            algorithms=("bfs", "dfs", "dijkstra", "astar"),
            heuristics=("zero",),
            own_options=(
                Option("undirected", "bool", "Undirected", "edges go both ways", default=False),
                Option("max_cost", "float", "Largest edge cost", "refuse files with dearer edges",
                       default=1000.0, min=1.0, max=1e6, stage="load"),
            ),
        )

    def sniff(self, filename: str, data: bytes) -> float:
        head = data[:64].decode("utf-8", "replace").lstrip()
        return 1.0 if head.split("\n", 1)[0].strip() == "graph" else 0.0

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> ToyGraph:
        lines = require_text(data).splitlines()
        if not lines or lines[0].strip() != "graph":
            raise PuzzleError("expected the word 'graph' first", "line 1")
        start = goal = None
        edges = []
        for number, line in enumerate(lines[1:], start=2):
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] in ("start", "goal") and len(words) == 2:
                start, goal = (words[1], goal) if words[0] == "start" else (start, words[1])
                continue
            if len(words) != 3:
                raise PuzzleError(f"expected 'A B cost', found {line.strip()!r}", f"line {number}")
            try:
                cost = float(words[2])
            except ValueError:
                raise PuzzleError(f"the cost {words[2]!r} is not a number", f"line {number}") from None
            if not 0 < cost <= options["max_cost"]:
                limit = options["max_cost"]
                raise PuzzleError(f"the cost {cost:g} is outside 0..{limit:g}", f"line {number}")
            edges.append((words[0], words[1], cost))
        if start is None or goal is None:
            raise PuzzleError("a 'start X' and a 'goal Y' line are needed", "file")
        return ToyGraph(Path(filename).stem, edges, start, goal)

    def info(self, puzzle: ToyGraph) -> dict[str, Any]:
        return {"name": puzzle.name, "states": puzzle.states, "width": len(puzzle.states), "height": 1}

    def problem(self, puzzle: ToyGraph, options: Values) -> Problem:
        return ToyProblem(puzzle, options["undirected"])


TOY = ToyFamily()

EXAMPLE = """graph
start A
goal D
A B 1
A C 4
B D 5
C D 1
D A 1
"""
