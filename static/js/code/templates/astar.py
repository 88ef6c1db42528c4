"""A*: complete the TODOs.

The frontier is a binary heap (heapq) of entries (f, h, order, g, state): f = g + h, where g is the
cost of the cheapest way found to the state and h = problem.heuristic(state) the estimate of what is
left. Equal f: the smaller h first (the state nearer the goal), then the older entry (`order`, a
counter). A state found again more cheaply gets a new entry; the old one is skipped when it comes
out (stale). An expanded state is closed. The goal test is made when a state is expanded: with an
admissible heuristic, the first goal expanded is reached by a cheapest path.

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
    h = problem.heuristic
    state = problem.start
    order = itertools.count()  # 0, 1, 2, ...: the older entry first among equal f and h
    g = {state: 0}  # the cheapest cost found so far to each state reached
    parent = {state: None}
    closed = set()  # the states expanded
    heap = [(h(state), h(state), next(order), 0, state)]  # the frontier: (f, h, order, g, state)
    while heap:
        # TODO: pop the entry with the smallest (f, h, order) off the heap, into `_f, _h, _, cost, state`;
        # skip it (continue) when `state` is closed or the entry is stale (cost > g[state])
        raise NotImplementedError("TODO: pop the best entry; skip it when closed or stale")
        closed.add(state)
        if problem.is_goal(state):  # the goal test when a state is expanded
            return path_to(parent, state)
        for nxt, move_cost in problem.successors(state):  # one expansion of `state`
            if nxt in closed:
                continue
            new = g[state] + move_cost
            # TODO: when nxt is new or `new` is below g[nxt]: record g[nxt] and parent[nxt], and push
            # the entry (f, h, order, g, nxt) with f = new + h(nxt)
            raise NotImplementedError("TODO: record a cheaper way to nxt and push it with its f")
    return None  # the heap is empty: no goal can be reached
