"""Random solvable step mazes: marked corridors scattered on a blank board, kept when BFS solves them."""

from __future__ import annotations

import random
from collections import deque

from ...i18n import t
from ..capabilities import Maker
from ..errors import PuzzleError
from ..making import Generated, GeneratorKind, size_options
from ..options import Option, Values
from .model import DEFAULT_CYCLE, StepMaze
from .parse import MAX_STEP, check_cycle, cycle_text
from .problem import StepProblem


def random_step_maze(
    rows: int,
    cols: int,
    seed: int,
    cycle: tuple[int, ...] = DEFAULT_CYCLE,
    min_moves: int | None = None,
) -> StepMaze:
    """A board whose shortest solution takes at least ``min_moves`` moves (default: about the side)."""
    rng = random.Random(seed)
    want = min_moves if min_moves is not None else max(3, (rows + cols) // 3)
    best: tuple[int, StepMaze] | None = None
    for _attempt in range(400):
        marked = bytearray(rows * cols)
        # Straight marked corridors: the moves of a step maze run along them.
        for _ in range(max(2, (rows * cols) // 7)):
            if rng.random() < 0.5:
                r, c0 = rng.randrange(rows), rng.randrange(cols)
                for c in range(c0, min(cols, c0 + rng.randint(2, max(3, cols // 2)))):
                    marked[r * cols + c] = 1
            else:
                c, r0 = rng.randrange(cols), rng.randrange(rows)
                for r in range(r0, min(rows, r0 + rng.randint(2, max(3, rows // 2)))):
                    marked[r * cols + c] = 1
        cells = [i for i, m in enumerate(marked) if m]
        start, goal = divmod(rng.choice(cells), cols), divmod(rng.choice(cells), cols)
        if start == goal:
            continue
        maze = StepMaze(
            rows, cols, bytes(marked), start, (goal,), cycle, f"step-{rows}x{cols}-{seed}", "generated"
        )
        moves = shortest_moves(maze)
        if moves is None:
            continue
        if moves >= want:
            return maze
        if best is None or moves > best[0]:
            best = (moves, maze)
    if best is None:
        raise ValueError(f"no solvable {rows} x {cols} step maze found for seed {seed}")
    return best[1]


def shortest_moves(maze: StepMaze) -> int | None:
    """The fewest moves from S to a goal (plain BFS over (cell, phase)), or None."""
    problem = StepProblem(maze, maze.cycle)
    start = problem.initial_states()[0]
    depth = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if problem.is_goal(state):
            return depth[state]
        for nxt, _ in problem.successors(state):
            if nxt not in depth:
                depth[nxt] = depth[state] + 1
                queue.append(nxt)
    return None


GENERATORS = (
    GeneratorKind(
        "step",
        "step.step_cycle_maze",
        "step.straight_marked_corridors_kept_when",
        (
            *size_options((2, 10, 200), (2, 10, 200)),
            Option(
                "cycle",
                "int_list",
                "step.step_cycle",
                "step.move_lengths_in_turn_e",
                default=list(DEFAULT_CYCLE),
                min=1,
                max=MAX_STEP,
            ),
        ),
    ),
)


class StepMaker(Maker):
    """Random step mazes for any cycle, kept when the start reaches the goal (``random_step_maze``)."""

    generators = GENERATORS

    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        self.generator(kind)
        rows, cols, seed = values["rows"], values["cols"], values["seed"]
        given = values.get("cycle")
        cycle = DEFAULT_CYCLE if given is None else check_cycle(given, t("step.option_cycle"))
        try:
            maze = random_step_maze(rows, cols, seed, cycle)
        except ValueError:
            raise PuzzleError(
                t(
                    "step.found_no_solvable_x_maze",
                    rows=rows,
                    cols=cols,
                    cycle_text=cycle_text(cycle),
                    seed=seed,
                ),
                t("step.option_cycle"),
            ) from None
        return Generated(
            maze,
            t(
                "step.step_cycle_maze_x_cells",
                rows=rows,
                cols=cols,
                cycle_text=cycle_text(cycle),
                seed=seed,
                shortest_moves=shortest_moves(maze),
            ),
        )
