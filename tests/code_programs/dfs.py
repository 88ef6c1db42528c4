"""Depth-first search as the server runs it: a stack, successors pushed in reverse so that the first
is expanded first, a state reached once never pushed again, the goal test when a state is generated."""


def path_to(parent, state):
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    parent = {}
    stack = []
    for start in reversed(problem.starts):
        if start in parent:
            continue
        parent[start] = None
        if problem.is_goal(start):
            return path_to(parent, start)
        stack.append(start)
    while stack:
        state = stack.pop()
        for nxt, _cost in reversed(problem.successors(state)):
            if nxt in parent:
                continue
            parent[nxt] = state
            if problem.is_goal(nxt):
                return path_to(parent, nxt)
            stack.append(nxt)
    return None
