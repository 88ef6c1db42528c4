"""Checking a student's path through a grid maze: is it legal, what does it cost, is it optimal?

Notations, detected from the text (``check_grid_solution``; ``GridChecker`` for the family):

* a **move string**: ``U D L R`` (any case); spaces, commas and line ends only separate. Without
  diagonal moves every letter is one move, so ``RRDD``, ``R R D D`` and ``r,r,d,d`` are the same
  path. With diagonal moves each move is its own token, separated by spaces, commas or line ends:
  ``U``, ``D``, ``L``, ``R``, ``UL``, ``UR``, ``DL`` or ``DR`` (``UR`` is one diagonal move, never
  U then R; a longer token such as ``RRD`` is refused, naming where it is). It begins at the
  maze's start (the first start cell when the file marks several);
* a **JSON list of cells** ``[[row, col], ...]`` (0-based), starting at a start cell;
* the **JSON object printed by** ``run.py solve --json`` for a grid: its ``path`` field.

The rules are the search's own (``GridProblem``): each move goes to a 4-neighbour (or, with diagonal
moves, a diagonal neighbour whose two side cells are free: no corner cutting), never off the board
or into a wall, and the path ends at a goal. The cost sums ``GridProblem.successors``' step costs.
"""

from __future__ import annotations

import re
from itertools import pairwise

from ...i18n import t
from ..capabilities import Checker
from ..checking import CheckResult, replay_json, solve_json, where
from ..errors import PuzzleError, show_value
from ..jsonfile import read_value
from ..options import Values
from .model import WALL, GridMaze
from .problem import GridProblem, run_maze

MOVES: dict[str, tuple[int, int]] = {
    "U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1),
    "UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1),
}
NAMES = {delta: name for name, delta in MOVES.items()}
_STRAY = re.compile(r"[^A-Za-z\s,]")
_TOKEN = re.compile(r"[A-Za-z]+")

Cell = tuple[int, int]


NOTATION = ("grid.moves_such_as_rrddl_u")


class GridChecker(Checker):
    """The grid's checker: any notation above, under the run's start, goal and diagonal moves; the
    result carries its ``replay`` (the grid's result object, for the page)."""

    notation = NOTATION

    def check(self, puzzle: GridMaze, text: str, options: Values) -> CheckResult:
        maze = run_maze(puzzle, options)
        result = check_grid_solution(maze, text, options["diagonal"])
        problem = GridProblem(maze, options["diagonal"])
        cells = [maze.index(r, c) for r, c in result.path]
        result.replay = replay_json(self.family, maze, problem, cells, result.cost, options, result.valid)
        return result


def check_grid_solution(maze: GridMaze, text: str, diagonal: bool) -> CheckResult:
    """Check the path in ``text`` (any notation above) against ``maze``'s rules; raises PuzzleError
    when the text is in no notation (naming the line and column, or the item at fault)."""
    problem = GridProblem(maze, diagonal)  # raises PuzzleError without a start or goal
    body = text.lstrip("\ufeff").strip()
    if not body:
        raise PuzzleError(t("grid.solution_empty_expected_moves_u"),
                          t("grid.file"))
    if body[0] in "[{(":  # JSON, or a Python list or tuple of (row, col) as a student prints it
        cells = _cells_from_json(text)
        first = cells[0]
        starts = [maze.rc(s) for s in maze.starts]
        if first not in starts:
            return CheckResult(
                False,
                None,
                len(cells) - 1,
                None,
                t("grid.list_starts_at_not_at", first=_show(first), starts=_show_cells(starts)),
            )
        steps = [(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(cells)]
        return _walk(problem, first, steps, listed=True)
    return _walk(problem, maze.rc(maze.starts[0]), _moves_from_text(text, diagonal), listed=False)


# ---- reading the notations ------------------------------------------------------------------------
def _moves_from_text(text: str, diagonal: bool) -> list[tuple[int, int]]:
    """The (dr, dc) of each move of a move string; PuzzleError at the first character or token
    that is no move."""
    stray = _STRAY.search(text)
    if stray:
        raise PuzzleError(
            t("grid.not_move_expected_u_d", group=repr(stray.group()))
            + (t("grid.ul_ur_dl_dr") if diagonal else "")
            + t("grid.separated_by_spaces_or_commas"),
            where(text, stray.start()),
        )
    steps: list[tuple[int, int]] = []
    for token in _TOKEN.finditer(text):
        word = token.group().upper()
        if diagonal:
            if word not in MOVES:
                raise PuzzleError(
                    t("grid.not_one_move_with_diagonal", group=repr(token.group())),
                    where(text, token.start()),
                )
            steps.append(MOVES[word])
            continue
        for i, letter in enumerate(word):
            if letter not in "UDLR":
                raise PuzzleError(t("grid.not_move_expected_u_d_2", group=repr(token.group()[i])),
                                  where(text, token.start() + i))
            steps.append(MOVES[letter])
    return steps


def _cells_from_json(text: str) -> list[Cell]:
    """The cells of a JSON list of [row, col] (or Python's list of tuples), or ``solve --json``'s ``path``."""
    value = read_value(text)
    label = "item"
    if isinstance(value, dict):
        value, label = solve_json(value, "grid", t("grid.grid_maze")), t("grid.path_item")
    if not isinstance(value, list):
        raise PuzzleError(t("grid.expected_list_row_col_cells", value=show_value(value)), t("grid.file"))
    if not value:
        raise PuzzleError(t("grid.list_cells_empty"), t("grid.file"))
    cells: list[Cell] = []
    for number, item in enumerate(value, start=1):
        if not (isinstance(item, list) and len(item) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
            raise PuzzleError(t("grid.expected_row_col_two_integers", item=show_value(item)),
                              f"{label} {number}")
        cells.append((item[0], item[1]))
    return cells


# ---- the rules ------------------------------------------------------------------------------------
def _show(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def _show_cells(cells: list[Cell], limit: int = 3) -> str:
    shown = " or ".join(_show(c) for c in cells[:limit])
    return shown + (t("grid.or_more", value=len(cells) - limit) if len(cells) > limit else "")


def _walk(problem: GridProblem, start: Cell, steps: list[tuple[int, int]], listed: bool) -> CheckResult:
    """Follow ``steps`` from ``start`` under the problem's rules, summing its step costs."""
    maze = problem.maze
    r, c = start
    path: list[Cell] = [start]
    cost = 0.0
    for number, (dr, dc) in enumerate(steps, start=1):
        name = NAMES.get((dr, dc))
        label = t("grid.move", number=number) + (f" ({name})" if name else "")
        here = t("grid.from", value=_show((r, c)))
        nr, nc = r + dr, c + dc
        why: str | None = None
        step: float | None = None
        if (dr, dc) == (0, 0):
            why = t("grid.stays_at", label=label, value=_show((r, c))) + (
                t("grid.cell_listed_twice") if listed else ""
            )
        elif name is None:
            why = t("grid.not_step_neighbouring_cell", label=label, here=here, value=_show((nr, nc)))
        elif dr and dc and not problem.diagonal:
            why = t("grid.diagonal_and_diagonal_moves_are", label=label, here=here, value=_show((nr, nc)))
        elif not (0 <= nr < maze.height and 0 <= nc < maze.width):
            why = t("grid.leaves_board", label=label, here=here)
        elif maze.cells[nr, nc] == WALL:
            why = t("grid.enters_wall_at", label=label, here=here, value=_show((nr, nc)))
        elif dr and dc:
            corners = [x for x in ((nr, c), (r, nc)) if maze.cells[x] == WALL]
            if corners:
                why = t(
                    "grid.diagonal_move_cuts_corner_at",
                    label=label,
                    here=here,
                    value=_show((nr, nc)),
                    value2=" and ".join(_show(x) for x in corners),
                )
        if why is None:
            target = maze.index(nr, nc)
            step = next((s for nxt, s in problem.successors(maze.index(r, c)) if nxt == target), None)
            if step is None:  # the rules above are the problem's; this is a safety net
                why = t("grid.not_move_search_allows", label=label, here=here, value=_show((nr, nc)))
        if why is not None or step is None:
            illegal = {"from": [r, c], "to": [nr, nc]}
            return CheckResult(False, None, len(steps), number, why, path, illegal=illegal)
        cost += step
        r, c = nr, nc
        path.append((r, c))
    if not problem.is_goal(maze.index(r, c)):
        goals = [maze.rc(g) for g in maze.goals]
        return CheckResult(False, None, len(steps), None,
                           t("grid.path_ends_at_not_at", value=_show((r, c)), goals=_show_cells(goals)), path)
    return CheckResult(True, cost, len(steps), None, None, path)
