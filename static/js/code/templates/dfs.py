"""Depth-first search: complete the TODOs.

The frontier is a stack, a Python list: a state is pushed on the end (append) and the newest one is
taken off the end (pop). The successors are pushed from last to first, so that the first successor
is on top and expanded first. `parent` holds every state reached: a state reached once is never
pushed again. The goal test is made when a state is generated, as in the server's depth-first search.

Each TODO raises NotImplementedError until you write its part in its place: run, read the message,
write that part, run again.
"""


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
    stack = [state]  # the frontier: last in, first out
    while stack:
        # TODO: take the newest state off the stack, into `state`
        raise NotImplementedError("TODO: take the newest state off the stack")
        successors = problem.successors(state)  # one expansion of `state`
        # TODO: put `successors` in reverse order, so that the first one ends on top of the stack
        raise NotImplementedError("TODO: reverse the successors")
        for nxt, _cost in successors:
            if nxt in parent:  # reached before: on the stack or expanded
                continue
            parent[nxt] = state
            if problem.is_goal(nxt):  # the goal test when a state is generated
                return path_to(parent, nxt)
            # TODO: push nxt on the stack
            raise NotImplementedError("TODO: push nxt on the stack")
    return None  # the stack is empty: no goal can be reached
