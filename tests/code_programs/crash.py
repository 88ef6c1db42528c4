"""A search that raises on line 7: a KeyError in the student's own code, after one expansion."""


def search(problem):
    depth = {problem.start: 0}
    for nxt, _cost in problem.successors(problem.start):
        depth[nxt] = depth[nxt] + 1  # KeyError: nxt is not in depth yet
    return None
