"""Uniform-cost search (Dijkstra) as the server runs it: a heap by (g, insertion order), stale entries
skipped, a closed state never reopened, the goal test when a state is expanded."""

import heapq
import itertools


def path_to(parent, state):
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    order = itertools.count()
    g = {}
    parent = {}
    closed = set()
    heap = []
    for start in problem.starts:
        if start in g:
            continue
        g[start], parent[start] = 0, None
        heapq.heappush(heap, (0, next(order), start))
    while heap:
        cost, _, state = heapq.heappop(heap)
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
            heapq.heappush(heap, (new, next(order), nxt))
    return None
