"""Breadth-first search: complete the TODOs.

The frontier is a queue, collections.deque: a state joins at the right (append) and leaves from the
left (popleft), so the oldest state is expanded first. `parent` holds every state reached and the
state it was reached from: a state is reached once, and the path is read back from it. The goal test
is made when a state is generated (when it is first reached), as in the server's breadth-first search.

Each TODO raises NotImplementedError until you write its part in its place: run, read the message,
write that part, run again. The API (problem.start, problem.is_goal, problem.successors, ...) is in
the panel's help.
"""

from collections import deque


def path_to(parent, state):
    """The states from the start to `state`, following the parents back."""
    path = []
    while state is not None:
        path.append(state)
        state = parent[state]
    return path[::-1]


def search(problem):
    state = problem.start
    if problem.is_goal(state):
        return [state]
    parent = {state: None}  # every state reached -> the state it was reached from
    frontier = deque([state])  # the queue: first in, first out
    while frontier:
        # TODO: take the oldest state off the frontier, into `state`
        raise NotImplementedError("TODO: take the oldest state off the frontier")
        for nxt, _cost in problem.successors(state):  # one expansion of `state`
            # TODO: skip nxt when it was reached before; else remember that it was reached from `state`
            raise NotImplementedError("TODO: skip a state reached before; else record its parent")
            if problem.is_goal(nxt):  # the goal test when a state is generated
                return path_to(parent, nxt)
            # TODO: put nxt on the frontier
            raise NotImplementedError("TODO: put nxt on the frontier")
    return None  # the frontier is empty: no goal can be reached
