"""A buggy A*: its heap pops the LARGEST f = g + h first (f negated by mistake); otherwise as astar.py."""

import heapq
import itertools


def path_to(parent, state):
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    h = problem.heuristic
    order = itertools.count()
    g = {}
    parent = {}
    closed = set()
    heap = []
    for start in problem.starts:
        if start in g:
            continue
        g[start], parent[start] = 0, None
        heapq.heappush(heap, (-h(start), h(start), next(order), 0, start))
    while heap:
        _f, _h, _, cost, state = heapq.heappop(heap)
        if state in closed or cost > g[state]:
            continue  # stale
        closed.add(state)
        if problem.is_goal(state):
            return path_to(parent, state)
        for nxt, move_cost in problem.successors(state):
            if nxt in closed:
                continue
            new = cost + move_cost
            if nxt in g and new >= g[nxt]:
                continue
            g[nxt], parent[nxt] = new, state
            hn = h(nxt)
            heapq.heappush(heap, (-(new + hn), hn, next(order), new, nxt))  # the bug: the largest f first
    return None
