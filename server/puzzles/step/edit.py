"""Editing a step-cycle maze: the operations the page's editor sends (docs/PROTOCOL.md, "Generate and edit").

``{"op": "mark", "cell": [r, c], "marked": true|false}``  the cell becomes marked 'X' or blank
``{"op": "start", "cell": [r, c]}``                        the one start 'S' (the cell becomes marked)
``{"op": "goal", "cell": [r, c]}``                         the one goal 'Z' (replaces every goal)
``{"op": "goal", "cell": [r, c], "add": true}``            one more goal beside the others
``{"op": "cycle", "cycle": [1, 2, 3]}``                    the step cycle (1 to 16 moves of 1 to 1,000 cells)
``{"op": "resize", "rows": R, "cols": C}``                 keep the top-left part, new cells blank

Every operation keeps the maze valid: exactly one start and at least one goal, on marked cells, the
start never a goal (``PUZZLES.md`` §2: 'S', 'X' and 'Z' are the marked cells). So a "mark" may not
touch the start or the only goal (move them first); on one of several goals it removes that goal.
The start or a goal placed on a blank cell marks it; the cell they leave stays marked ('X'). A resize
moves a start or goal that falls off the board onto the nearest cell inside. Anything else is refused
with the operation's number.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...i18n import t
from ..capabilities import Editor
from ..errors import PuzzleError, show_value
from ..making import cell_of, whole
from .model import StepMaze
from .parse import MAX_SIDE, check_cycle

OPS = ("mark", "start", "goal", "cycle", "resize")


def edit_step(maze: StepMaze, edits: list[dict[str, Any]]) -> StepMaze:
    """``maze`` with ``edits`` applied in order (a new maze; ``maze`` is unchanged)."""
    rows, cols = maze.rows, maze.cols
    marked = bytearray(maze.marked)
    start, goals, cycle = maze.start, list(maze.goals), maze.cycle
    for number, op in enumerate(edits, start=1):
        where = t("step.edit_where", number=number, op=str(op.get('op'))[:20])
        kind = op["op"]
        if kind == "mark":
            row, col = cell_of(op.get("cell"), rows, cols, where)
            on = _flag(op, "marked", where)
            if (row, col) == start:
                raise PuzzleError(t("step.start_move_it_before_changing", row=row, col=col), where)
            if (row, col) in goals:
                if len(goals) == 1:
                    raise PuzzleError(t("step.only_goal_put_goal_elsewhere", row=row, col=col), where)
                goals.remove((row, col))  # one of several goals: it becomes a plain cell
            marked[row * cols + col] = 1 if on else 0
        elif kind == "start":
            cell = cell_of(op.get("cell"), rows, cols, where)
            if cell in goals:
                raise PuzzleError(t("step.goal_start_must_be_another", cell=cell[0], cell2=cell[1]), where)
            start = cell
            marked[cell[0] * cols + cell[1]] = 1
        elif kind == "goal":
            cell = cell_of(op.get("cell"), rows, cols, where)
            if cell == start:
                raise PuzzleError(t("step.start_goal_must_be_another", cell=cell[0], cell2=cell[1]), where)
            add = _flag(op, "add", where, default=False)
            if not add:
                goals = [cell]
            elif cell not in goals:
                goals.append(cell)
            marked[cell[0] * cols + cell[1]] = 1
        elif kind == "cycle":
            cycle = check_cycle(op.get("cycle"), where)
        elif kind == "resize":
            rows, cols, marked, start, goals = _resize(rows, cols, marked, start, goals, op, where)
        else:
            raise PuzzleError(
                t("step.unknown_operation_step_maze_takes", kind=show_value(kind), ops=', '.join(OPS)), where
            )
    return replace(maze, rows=rows, cols=cols, marked=bytes(marked), start=start, goals=tuple(goals),
                   cycle=cycle)


def _flag(op: dict[str, Any], key: str, where: str, default: bool | None = None) -> bool:
    value = op.get(key, default)
    if not isinstance(value, bool):
        raise PuzzleError(t("step.expected_true_or_false_got", key_=key, value=show_value(value)), where)
    return value


def _resize(
    rows: int, cols: int, marked: bytearray, start: tuple[int, int], goals: list[tuple[int, int]],
    op: dict[str, Any], where: str,
) -> tuple[int, int, bytearray, tuple[int, int], list[tuple[int, int]]]:
    new_rows = whole(op.get("rows"), 1, MAX_SIDE, where, t("step.number_rows"))
    new_cols = whole(op.get("cols"), 1, MAX_SIDE, where, t("step.number_columns"))
    if new_rows * new_cols < 2:
        raise PuzzleError(t("step.maze_needs_at_least_2"), where)
    grown = bytearray(new_rows * new_cols)
    for r in range(min(rows, new_rows)):
        keep = min(cols, new_cols)
        grown[r * new_cols : r * new_cols + keep] = marked[r * cols : r * cols + keep]

    def inside(cell: tuple[int, int]) -> tuple[int, int]:
        return min(cell[0], new_rows - 1), min(cell[1], new_cols - 1)

    start = inside(start)
    moved: list[tuple[int, int]] = []
    for goal in map(inside, goals):
        if goal != start and goal not in moved:
            moved.append(goal)
    if not moved:  # the only goal landed on the start: the last cell that is not the start
        last = (new_rows - 1, new_cols - 1)
        if last == start:
            last = (new_rows - 1, new_cols - 2) if new_cols > 1 else (new_rows - 2, 0)
        moved = [last]
    for r, c in (start, *moved):
        grown[r * new_cols + c] = 1  # the start and goals are marked cells
    return new_rows, new_cols, grown, start, moved


class StepEditor(Editor):
    """The page's step-maze editor: the operations above (``edit_step``)."""

    def edit(self, puzzle: StepMaze, edits: list[dict[str, Any]]) -> StepMaze:
        return edit_step(puzzle, edits)
