"""The generic algorithms on plain graphs: costs, paths, counts and the bidirectional stopping rule."""

from __future__ import annotations

import itertools
import random

import pytest

from server.search.costs import cost_text
from server.search.events import PATH
from server.search.problem import Problem
from server.search.registry import ALGORITHMS, BUILT_IN, SearchOptions
from server.search.runner import Limits, run_search
from tests.graph_problem import GraphProblem, random_graph

OPTIMAL = ("bfs", "dijkstra", "astar", "bidirectional", "idastar", "iddfs")
UNIT_ONLY = ("bfs", "iddfs")  # optimal only when every step costs the same
# Every algorithm that works on any Problem (not those a family registered for its own puzzles).
GENERIC = [name for name in ALGORITHMS if name in BUILT_IN]


def path_cost(problem: GraphProblem, path: list[str]) -> float:
    total = 0.0
    for a, b in itertools.pairwise(path):
        costs = [c for n, c in problem.successors(a) if n == b]
        assert costs, f"{a} -> {b} is not an edge"
        total += min(costs)
    return total


@pytest.mark.parametrize("unit", [True, False])
def test_algorithms_agree_on_random_graphs(unit: bool) -> None:
    rng = random.Random(7 if unit else 8)
    for _ in range(300):
        problem = random_graph(rng, rng.randint(2, 14), rng.randint(1, 30), unit)
        results = {name: run_search(problem, name) for name in GENERIC}
        reference = results["dijkstra"]
        for name, result in results.items():
            assert result.found == reference.found, name
            if not result.found:
                continue
            assert result.path[0] in problem.starts and result.path[-1] in problem.goals
            assert path_cost(problem, result.path) == pytest.approx(result.cost), name
            optimal = name in OPTIMAL and (unit or name not in UNIT_ONLY)
            if optimal:
                assert result.cost == pytest.approx(reference.cost), name
            assert result.optimal_guaranteed == optimal, name


def test_bidirectional_does_not_stop_at_the_first_meeting() -> None:
    # The two searches first meet at m (s-m-t costs 10), but s-a-b-t costs 6.
    edges = [("s", "m", 5), ("m", "t", 5), ("s", "a", 2), ("a", "b", 2), ("b", "t", 2)]
    both_ways = edges + [(b, a, c) for a, b, c in edges]
    problem = GraphProblem(both_ways, ["s"], ["t"])
    result = run_search(problem, "bidirectional")
    assert result.cost == 6
    assert result.path == ["s", "a", "b", "t"]


def test_astar_with_inadmissible_weight_is_flagged_and_bounded() -> None:
    rng = random.Random(3)
    for _ in range(100):
        problem = random_graph(rng, 10, 20, unit=False)
        best = run_search(problem, "dijkstra")
        weighted = run_search(problem, "astar", SearchOptions(heuristic="table", weight=2.0))
        assert not weighted.optimal_guaranteed
        if best.found:
            assert weighted.cost <= 2.0 * best.cost + 1e-9


def test_counts_are_folded_from_events() -> None:
    problem = GraphProblem([("s", "a", 1), ("s", "b", 1), ("a", "t", 1)], ["s"], ["t"])
    events = []
    result = run_search(problem, "bfs", on_event=events.append)
    # s opened, closed; a, b opened; a closed; t opened -> the goal test on generation ends it.
    assert [e.kind for e in events if e.kind != PATH] == [0, 1, 0, 0, 1, 0]
    assert (result.expanded, result.generated, result.max_frontier) == (2, 4, 2)
    assert [e.state for e in events if e.kind == PATH] == ["t", "a", "s"]


def test_start_that_is_a_goal_costs_nothing() -> None:
    problem = GraphProblem([("s", "a", 1)], ["s"], ["s"])
    for name in GENERIC:
        result = run_search(problem, name)
        assert result.found and result.cost == 0 and result.path == ["s"], name


def test_limits_stop_an_endless_search() -> None:
    class Endless(GraphProblem):
        def successors(self, state):  # an infinite line of states
            return [(f"{state}+", 1.0)]

    problem = Endless([], ["s"], ["never"])
    result = run_search(problem, "dfs", limits=Limits(max_expanded=5000, max_seconds=None))
    assert not result.found and result.stopped and result.stopped.startswith("limit")
    assert result.expanded <= 5000 + 1024


def test_no_path() -> None:
    problem = GraphProblem([("s", "a", 1), ("t", "b", 1)], ["s"], ["t"])
    for name in GENERIC:
        result = run_search(problem, name)
        assert not result.found and result.cost is None and result.path == [], name
        assert result.stopped is None and result.expanded >= 1, name  # searched, and ran out of states


def test_a_cost_in_words_is_written_as_the_page_writes_numbers() -> None:
    """One number, one way (issue 30: "70,888 moves, cost 70888"): the server's sentences group digits
    with commas as the page's ``number`` does (static/js/format.js), whole costs without decimals."""
    assert cost_text(70888) == "70,888"
    assert cost_text(70888.0) == "70,888"
    assert cost_text(52) == "52"
    assert cost_text(1053.41421356) == "1,053.414"
    assert cost_text(53.5) == "53.5"
    assert Problem.cost_in_words(Problem(), 70888) == "cost 70,888"
