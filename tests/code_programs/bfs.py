"""Breadth-first search as the server runs it: a FIFO queue, the goal test when a state is generated."""

from collections import deque


def path_to(parent, state):
    """The states from a start to ``state``, following the parents back."""
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    parent = {}
    frontier = deque()
    for start in problem.starts:
        if start in parent:
            continue
        parent[start] = None
        if problem.is_goal(start):
            return path_to(parent, start)
        frontier.append(start)
    while frontier:
        state = frontier.popleft()  # the oldest
        for nxt, _cost in problem.successors(state):
            if nxt in parent:
                continue
            parent[nxt] = state
            if problem.is_goal(nxt):
                return path_to(parent, nxt)
            frontier.append(nxt)
    return None
