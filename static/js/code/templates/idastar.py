"""IDA* (iterative deepening A*): complete the TODOs.

No frontier list: the frontier is the current path, `path`, explored depth-first by recursion. Each
iteration searches within a bound on f = g + h (h = problem.heuristic): a state whose f is above the
bound is refused, and the next iteration's bound is the smallest f refused. A state already on the
path is skipped (a cycle). `table` keeps, for one iteration, the smallest g each state was entered
at: a state reached again no cheaper is skipped, as the server's IDA* does. The goal test is made
when the search enters a state (appends it to the path).

Each TODO raises NotImplementedError until you write its part in its place: run, read the message,
write that part, run again.
"""

import math


def search(problem):
    path = [problem.start]
    bound = problem.heuristic(problem.start)
    while True:
        found, refused = bounded(problem, path, 0, bound, {})
        if found:
            return path
        if refused == math.inf:
            return None  # nothing was refused: every state was searched
        # TODO: the next bound: the smallest f refused
        raise NotImplementedError("TODO: raise the bound")


def bounded(problem, path, g, bound, table):
    """Search depth-first from path[-1] (reached at cost g) within `bound`.

    Returns (True, _) with the path to a goal in `path`, or (False, the smallest f above the bound).
    """
    state = path[-1]
    f = g + problem.heuristic(state)
    # TODO: refuse `state` when f is above the bound: return False and f
    raise NotImplementedError("TODO: refuse a state whose f is above the bound")
    if state in table and table[state] <= g:
        return False, math.inf  # entered before at no higher cost in this iteration
    table[state] = g
    if problem.is_goal(state):
        return True, math.inf
    refused = math.inf
    for nxt, move_cost in problem.successors(state):  # one expansion of `state`
        if nxt in path:  # a cycle
            continue
        # TODO: enter nxt (append it to the path), search from it with bounded(...) at cost
        # g + move_cost, return when it found a goal, else leave it (pop) and keep the smaller refused f
        raise NotImplementedError("TODO: enter nxt, search from it, leave it")
    return False, refused
