"""Seed 000's own method, as a named baseline (``seed-greedy``): greedy, **not optimal**.

The seed's notebook repeats two things: *walk* to the reachable tile that looks best, then, if the
player cannot leave yet, *push the player's own row* (rows 0, 2, … from the left, rows 1, 3, …
from the right) so that the row, and the player with it, shifts by one. Before entering it pushes
the bottom row until the entry tile opens downwards. "Looks best" is the seed's score

    |row - 0| + |col - goal column|  (+ cols - 1 when the tile has no opening at the top)

and the player moves only to a strictly better tile (the first one found, in walking order). It
never pushes another row, so it can circle for ever or get stuck; it then gives up (returns no
path) instead of looping. It prints "12 steps" for Puzzle_3 by its own count; here its moves are
counted under the chosen move model, like every other algorithm's.
"""

from __future__ import annotations

from collections.abc import Generator

from ...search.events import CLOSE, OPEN, PATH, Event
from ...search.registry import Algorithm, register_algorithm
from .model import EXITED, MASKS, OUTSIDE, TOP, InsertionPoint
from .problem import LabState, LabyrinthProblem, Push

Search = Generator[Event, None, tuple[list[LabState] | None, float]]

MAX_ACTIONS = 500  # pushes and walks before the method is declared lost


def seed_greedy(problem: LabyrinthProblem, max_actions: int = MAX_ACTIONS) -> Search:
    """Run the seed's greedy method; return (path of states in the problem's move model, moves)."""
    if not isinstance(problem, LabyrinthProblem):
        raise TypeError("seed-greedy is the labyrinth's own method: it needs a LabyrinthProblem")
    state = problem.initial_states()[0]
    actions: list[tuple[str, LabState]] = []  # ("push" | "walk", state after it)
    seen = {state}
    yield Event(OPEN, state, 0.0)
    while len(actions) < max_actions:
        yield Event(CLOSE, state, float(len(actions)))
        step = _next_action(problem, state)
        if step is None:
            return None, 0.0  # stuck: the player's row cannot be pushed
        kind, state = step
        if kind == "push" and state in seen:
            return None, 0.0  # going round in circles
        seen.add(state)
        actions.append((kind, state))
        yield Event(OPEN, state, float(len(actions)))
        if state.player == EXITED:
            path = _fold(problem, problem.initial_states()[0], actions)
            for i in range(len(path) - 1, -1, -1):
                yield Event(PATH, path[i], float(i))
            return path, float(len(path) - 1)
    return None, 0.0


def _next_action(problem: LabyrinthProblem, state: LabState) -> tuple[str, LabState] | None:
    """The seed's next step from ``state``: a walk to a better tile, else a push of the player's row."""
    walker = problem.walker
    board, free, player = state
    targets = walker.reach(board, player)
    if EXITED in targets:
        return "walk", LabState(board, free, EXITED)
    best, best_score = player, _score(problem, board, player)
    for target in _walking_order(problem, board, player, targets):
        score = _score(problem, board, target)
        if score < best_score:  # the seed keeps the first strictly better tile
            best, best_score = target, score
    if best != player:
        return "walk", LabState(board, free, best)
    row = problem.rows - 1 if player == OUTSIDE else player // problem.cols
    point = _seed_point(problem, row)
    if point is None:
        return None
    new_board, new_free = _push(problem, board, free, point)
    return "push", LabState(new_board, new_free, problem.carry(player, point))


def _score(problem: LabyrinthProblem, board: bytes, position: int) -> float:
    """The seed's heuristic: Manhattan distance to the goal tile, plus cols - 1 without a top opening."""
    if position == OUTSIDE:
        return float("inf")  # not in the game yet: any tile on the board is better
    r, c = divmod(position, problem.cols)
    penalty = 0 if MASKS[board[position]] & TOP else problem.cols - 1
    return r + abs(c - problem.puzzle.goal_col) + penalty


def _walking_order(
    problem: LabyrinthProblem, board: bytes, player: int, targets: tuple[int, ...]
) -> list[int]:
    """Reachable tiles in the order a walk from the player meets them (nearest first)."""
    order = []
    frontier, seen = [player], {player}
    while frontier:
        nxt = []
        for here in frontier:
            for step in problem.walker.neighbours(board, here):
                if step not in seen and step in targets:
                    seen.add(step)
                    nxt.append(step)
        order += [x for x in nxt if x >= 0]
        frontier = nxt
    return order


def _seed_point(problem: LabyrinthProblem, row: int) -> InsertionPoint | None:
    """The seed pushes even rows from the left and odd rows from the right; else the row's other side."""
    preferred = "left" if row % 2 == 0 else "right"
    points = [p for p in problem.points if p.axis == "row" and p.index == row]
    for point in points:
        if point.side == preferred:
            return point
    return points[0] if points else None


def _push(problem: LabyrinthProblem, board: bytes, free: int, point: InsertionPoint) -> tuple[bytes, int]:
    for push_, new_board, new_free in problem.pushes(board, free):
        if push_ == Push(point, free):  # the seed never turns the free tile
            return new_board, new_free
    raise AssertionError("the seed's push is always one of the problem's pushes")


def _fold(problem: LabyrinthProblem, start: LabState, actions: list[tuple[str, LabState]]) -> list[LabState]:
    """The states after each *move*: in the combined model a push and the walk after it are one move."""
    path = [start]
    combined = problem.moves == "combined"
    for i, (kind, after) in enumerate(actions):
        follows_push = i > 0 and actions[i - 1][0] == "push"
        if combined and kind == "walk" and follows_push:
            path[-1] = after  # the walk completes the move its push began
        else:
            path.append(after)
    return path


#: The method as a menu entry of the labyrinth family (registered with the search core on import).
SEED_GREEDY = Algorithm(
    "seed-greedy",
    "labyrinth.seed_000_greedy_method",
    "labyrinth.course_notebook_method_walk_best",
    lambda problem, options: seed_greedy(problem),
    lambda problem, options: False,
)
register_algorithm(SEED_GREEDY)
