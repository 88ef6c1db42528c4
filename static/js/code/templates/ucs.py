"""Uniform-cost search (Dijkstra): complete the TODOs.

The frontier is a binary heap (heapq) of entries (g, order, state): g is the cost of the cheapest
way found to the state, `order` a counter that breaks ties between equal g in favour of the older
entry. A state found again more cheaply gets a new entry; the old one stays in the heap and is
skipped when it comes out (it is stale). An expanded state is closed: never expanded again. The goal
test is made when a state is expanded, which is what makes the cost found the cheapest.

Each TODO raises NotImplementedError until you write its part in its place: run, read the message,
write that part, run again.
"""

import heapq
import itertools


def path_to(parent, state):
    """The states from the start to `state`, following the parents back."""
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    state = problem.start
    order = itertools.count()  # 0, 1, 2, ...: the older entry first among equal g
    g = {state: 0}  # the cheapest cost found so far to each state reached
    parent = {state: None}
    closed = set()  # the states expanded
    heap = [(0, next(order), state)]  # the frontier: (g, order, state)
    while heap:
        # TODO: pop the entry with the smallest g off the heap, into `cost, _, state`; skip it
        # (continue) when `state` is closed or the entry is stale (cost > g[state])
        raise NotImplementedError("TODO: pop the cheapest entry; skip it when closed or stale")
        closed.add(state)
        if problem.is_goal(state):  # the goal test when a state is expanded
            return path_to(parent, state)
        for nxt, move_cost in problem.successors(state):  # one expansion of `state`
            if nxt in closed:
                continue
            new = g[state] + move_cost
            # TODO: when nxt is new or `new` is below g[nxt]: record g[nxt] and parent[nxt], and push
            # the entry (new, next(order), nxt)
            raise NotImplementedError("TODO: record a cheaper way to nxt and push it")
    return None  # the heap is empty: no goal can be reached
