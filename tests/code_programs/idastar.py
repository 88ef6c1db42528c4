"""IDA* as the server runs it: depth-first within a bound on f = g + h, a state on the current path
skipped, a table per iteration of the smallest g each state was stepped onto at (a state reached again
no cheaper is skipped); the goal test when a state is stepped onto; the next bound is the smallest f
that was refused. successors is called when the search steps onto a state that is not a goal."""

import math


def search(problem):
    h = problem.heuristic
    starts = list(dict.fromkeys(problem.starts))
    if not starts:
        return None
    bound = min(h(s) for s in starts)
    while True:
        refused = math.inf
        table = {}
        for start in starts:
            found, start_refused = bounded(problem, start, bound, table)
            if found is not None:
                return found
            refused = min(refused, start_refused)
        if math.isinf(refused):
            return None
        bound = refused


def bounded(problem, start, bound, table):
    """One depth-first pass within ``bound``: (the path or None, the smallest f refused)."""
    refused = math.inf
    if start in table and table[start] <= 0:
        return None, refused
    table[start] = 0
    if problem.is_goal(start):
        return [start], refused
    path, costs, on_path = [start], [0], {start}
    children = [iter(problem.successors(start))]
    while children:
        step = next(children[-1], None)
        if step is None:
            children.pop()
            on_path.discard(path.pop())
            costs.pop()
            continue
        nxt, move_cost = step
        if nxt in on_path:
            continue
        g = costs[-1] + move_cost
        f = g + problem.heuristic(nxt)
        if f > bound:
            refused = min(refused, f)
            continue
        if nxt in table and table[nxt] <= g:
            continue
        table[nxt] = g
        if problem.is_goal(nxt):
            return [*path, nxt], refused
        path.append(nxt)
        costs.append(g)
        on_path.add(nxt)
        children.append(iter(problem.successors(nxt)))
    return None, refused
