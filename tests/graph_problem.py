"""A plain weighted graph as a Problem: proof that the algorithms know nothing of grids."""

from __future__ import annotations

import random
from collections import defaultdict

from server.search.problem import Problem


class GraphProblem(Problem):
    def __init__(self, edges: list[tuple[str, str, float]], starts: list[str], goals: list[str],
                 h: dict[str, float] | None = None) -> None:
        self.out: dict[str, list[tuple[str, float]]] = defaultdict(list)
        self.inc: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for a, b, cost in edges:
            self.out[a].append((b, cost))
            self.inc[b].append((a, cost))
        self.starts, self.goals = starts, goals
        self.h = h or {}
        self.unit_costs = all(cost == 1 for _, _, cost in edges)
        self.heuristics = ("table",)

    def initial_states(self) -> list[str]:
        return list(self.starts)

    def goal_states(self) -> list[str]:
        return list(self.goals)

    def is_goal(self, state: str) -> bool:
        return state in self.goals

    def successors(self, state: str) -> list[tuple[str, float]]:
        return self.out[state]

    def predecessors(self, state: str) -> list[tuple[str, float]]:
        return self.inc[state]

    def heuristic(self, state: str, name: str) -> float:
        return self.h.get(state, 0.0)


def random_graph(rng: random.Random, nodes: int, edges: int, unit: bool) -> GraphProblem:
    names = [f"n{i}" for i in range(nodes)]
    pairs, seen = [], set()
    for _ in range(edges):
        a, b = rng.sample(names, 2)
        if (a, b) in seen or (b, a) in seen:
            continue  # no parallel edges: a path of states then has one cost
        seen.add((a, b))
        cost = 1.0 if unit else float(rng.randint(1, 9))
        pairs += [(a, b, cost), (b, a, cost)]  # undirected
    return GraphProblem(pairs, [names[0]], [names[-1]])
