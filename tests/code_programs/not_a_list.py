"""A search that returns its parent pointers (a dict) instead of the path."""

from collections import deque


def search(problem):
    parent = {problem.start: None}
    frontier = deque([problem.start])
    while frontier:
        state = frontier.popleft()
        if problem.is_goal(state):
            return parent
        for nxt, _cost in problem.successors(state):
            if nxt not in parent:
                parent[nxt] = state
                frontier.append(nxt)
    return None
