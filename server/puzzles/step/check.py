"""Checking a student's answer to a step-cycle maze (issue 19): legal? how many moves? optimal?

Notations, detected from the text (``check_step_solution``):

* **seed 003's printed list of positions** ``(x, y)``, x the column and y the row, exactly as the
  notebook prints it: ``[(0, 0),\\n (0, 1),\\n ...\\n (5, 5)]`` (the brackets are optional, an
  ``Out[72]:`` prompt before them is skipped, commas separate the positions, spaces and line breaks
  do not matter);
* a **JSON list of cells** ``[[row, col], ...]`` (0-based; ``[row, col, phase]`` states as
  ``solve --json`` prints them are read too, and their phase is checked);
* a **JSON list of the seed's state numbers** ``[0, 4, 32, ...]``: state n is marked field
  ``n // P`` (fields numbered over the marked cells left to right, top to bottom) with the next
  move ``cycle[n % P]`` long, P the cycle's length (3 for 1-2-3);
* the **JSON object printed by** ``run.py solve --json`` for a step maze: its ``path``.

Every list starts at the start ``S``. The rules are the search's own (``StepProblem.successors``):
move i (from 1) goes exactly ``cycle[(i - 1) mod P]`` cells in one straight line, north, east,
south or west, over marked cells only, and the last move ends on a goal ``Z``. A bad move is named
with the rule it breaks (its length, a diagonal, off the board, a blank cell passed or landed on).
The cost is the number of moves, as ``solve --json`` counts it.
"""

from __future__ import annotations

import re
from typing import Any

from ...i18n import t
from ..capabilities import Checker
from ..checking import CheckResult, replay_json, solve_json, where
from ..errors import PuzzleError, show_value
from ..jsonfile import read_json, read_value
from ..options import Values
from .model import DIRECTION_WORDS, DIRECTIONS, StepMaze
from .problem import StepProblem

MAX_MOVES = 1_000_000  # positions in one answer: far more than any maze of the size limit needs
MAX_DIGITS = 9  # a coordinate beyond that is no position on any board
_PROMPT = re.compile(r"\s*Out\s*\[\s*(?:\d+\s*)?\]\s*:")  # the notebook's "Out[72]:" before its output
_TOKEN = re.compile(r"\s*(?:(?P<num>-?\d+)|(?P<sym>[\[\](),])|(?P<bad>\S))")
_WORDS = {(dr, dc): DIRECTION_WORDS[name] for name, dr, dc in DIRECTIONS}

Cell = tuple[int, int]


def show(cell: Cell) -> str:
    return t("step.row_col", cell=cell[0], cell2=cell[1])


class StepChecker(Checker):
    """Seed 003's (x, y) list, [row, col] cells, the seed's state numbers or ``solve --json``."""

    notation = "step.printed_list_x_y_positions"

    def check(self, puzzle: StepMaze, text: str, options: Values) -> CheckResult:
        return check_step_solution(self.family, puzzle, text, options)


def check_step_solution(family: Any, maze: StepMaze, text: str, options: Values) -> CheckResult:
    """Replay the answer in ``text`` (any notation above) under ``options``' rules; raises PuzzleError
    when the text is in no notation, naming the line and column or the item at fault."""
    problem = family.problem(maze, options)
    assert isinstance(problem, StepProblem)
    cells, phases = read_answer(text, maze, problem.cycle)
    return walk(family, maze, problem, cells, phases, options)


# ---- reading the notations ------------------------------------------------------------------------
def read_answer(text: str, maze: StepMaze, cycle: tuple[int, ...]) -> tuple[list[Cell], list[int | None]]:
    """The cells of the answer and, where the notation says it, each one's phase (else None)."""
    body = text.removeprefix("\ufeff")
    prompt = _PROMPT.match(body)
    start = prompt.end() if prompt else 0
    head = body[start:].lstrip()
    if not head:
        raise PuzzleError(t("step.solution_empty_expected_seed_003"), t("step.file"))
    if head[0] == "{":
        return _from_result(read_json(body[start:]), cycle)
    if head[0] == "(" or (head[0] == "[" and head[1:].lstrip().startswith("(")):
        return _seed_positions(body, start), []
    if head[0] == "[":
        value = read_value(body[start:])
        if isinstance(value, list) and value and all(isinstance(x, int) and not isinstance(x, bool)
                                                     for x in value):
            return _seed_states(value, maze, len(cycle))
        return _cells(value, "item")
    at = start + len(body[start:]) - len(head)
    raise PuzzleError(t("step.begins_no_solution_expected_seed", head=repr(head[0])), where(body, at))


def _seed_positions(text: str, offset: int) -> list[Cell]:
    """Seed 003's ``[(x, y), ...]``: (row, col) cells, PuzzleError naming line and column."""
    tokens: list[tuple[str, str, int]] = []  # (kind, text, offset)
    pos = offset
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:  # only trailing white space is left
            break
        kind = match.lastgroup or "bad"
        tokens.append((kind, match.group(kind), match.start(kind)))
        pos = match.end()
        if kind == "bad":
            break
    cells: list[Cell] = []
    i = 0

    def expect(symbol: str, what: str) -> None:
        nonlocal i
        if i >= len(tokens):
            raise PuzzleError(
                t("step.text_ends_where_was_expected", what=what), where(text, len(text.rstrip()))
            )
        kind, value, at = tokens[i]
        if kind != "sym" or value != symbol:
            raise PuzzleError(t("step.where_was_expected", value=repr(value), what=what), where(text, at))
        i += 1

    def number(what: str) -> int:
        nonlocal i
        if i >= len(tokens):
            raise PuzzleError(
                t("step.text_ends_where_was_expected", what=what), where(text, len(text.rstrip()))
            )
        kind, value, at = tokens[i]
        if kind != "num":
            raise PuzzleError(
                t("step.where_whole_number_was_expected", value=repr(value), what=what), where(text, at)
            )
        if len(value.lstrip("-")) > MAX_DIGITS:
            raise PuzzleError(t("step.too_long_for_position", value=value[:12]), where(text, at))
        i += 1
        return int(value)

    bracketed = bool(tokens) and tokens[0][:2] == ("sym", "[")
    if bracketed:
        i = 1
    while True:
        if bracketed and i < len(tokens) and tokens[i][:2] == ("sym", "]") and cells:
            i += 1
            break  # a comma before the closing bracket is allowed, as in Python
        expect("(", t("step.opening_position", value=len(cells) + 1))
        x = number(t("step.x_column_position", value=len(cells) + 1))
        expect(",", t("step.between_x_and_y_position", value=len(cells) + 1))
        y = number(t("step.y_row_position", value=len(cells) + 1))
        expect(")", t("step.closing_position", value=len(cells) + 1))
        cells.append((y, x))
        if len(cells) > MAX_MOVES:
            raise PuzzleError(
                t("step.more_than_positions", max_moves=MAX_MOVES), where(text, tokens[i - 1][2])
            )
        if i < len(tokens) and tokens[i][:2] == ("sym", ","):
            i += 1
            if not bracketed and i == len(tokens):
                break
            continue
        if bracketed:
            expect("]", t("step.or_closing_after_position", n_cells=len(cells)))
        break
    if i < len(tokens):
        kind, value, at = tokens[i]
        raise PuzzleError(t("step.after_end_list", value=repr(value)), where(text, at))
    return cells


def _cells(value: Any, label: str) -> tuple[list[Cell], list[int | None]]:
    """A JSON list of [row, col] or [row, col, phase]."""
    if not isinstance(value, list):
        raise PuzzleError(t("step.expected_list_row_col_cells", value=show_value(value)), t("step.file"))
    if not value:
        raise PuzzleError(t("step.list_cells_empty_it_starts"), t("step.file"))
    if len(value) > MAX_MOVES:
        raise PuzzleError(t("step.cells_more_than", n_value=len(value), max_moves=MAX_MOVES), t("step.file"))
    cells: list[Cell] = []
    phases: list[int | None] = []
    for number, item in enumerate(value, start=1):
        if not (isinstance(item, list) and len(item) in (2, 3)
                and all(isinstance(x, int) and not isinstance(x, bool) for x in item)):
            raise PuzzleError(t("step.expected_row_col_or_row", item=show_value(item)), f"{label} {number}")
        cells.append((item[0], item[1]))
        phases.append(item[2] if len(item) == 3 else None)
    return cells, phases


def _seed_states(value: list[int], maze: StepMaze, period: int) -> tuple[list[Cell], list[int | None]]:
    """The seed's state numbers: field n // P (marked cells in reading order), phase n % P."""
    fields = [divmod(i, maze.cols) for i, m in enumerate(maze.marked) if m]
    if len(value) > MAX_MOVES:
        raise PuzzleError(t("step.states_more_than", n_value=len(value), max_moves=MAX_MOVES), t("step.file"))
    cells: list[Cell] = []
    phases: list[int | None] = []
    for number, state in enumerate(value, start=1):
        field, phase = divmod(state, period)
        if state < 0 or field >= len(fields):
            raise PuzzleError(
                t(
                    "step.state_no_state_this_maze",
                    state=state,
                    n_fields=len(fields),
                    period=period,
                    value=len(fields) * period - 1,
                ),
                t("step.item", number=number),
            )
        cells.append(fields[field])
        phases.append(phase)
    return cells, phases


def _from_result(value: Any, cycle: tuple[int, ...]) -> tuple[list[Cell], list[int | None]]:
    """``run.py solve --json``'s object: its ``path`` of [row, col, phase] states."""
    if not isinstance(value, dict):
        raise PuzzleError(t("step.expected_object_got", value=show_value(value)), t("step.file"))
    path = solve_json(value, "step", t("step.step_maze"))
    given = value.get("cycle")
    if isinstance(given, list) and given and tuple(given) != cycle:
        raise PuzzleError(
            t("step.this_solution_was_found_with", given=show_value(given), cycle=list(cycle)),
            t("step.field_cycle"),
        )
    return _cells(path, t("step.path_item"))


# ---- the rules ------------------------------------------------------------------------------------
def _rule_broken(problem: StepProblem, number: int, a: Cell, b: Cell, phase: int) -> str | None:
    """Why the move from ``a`` to ``b`` in ``phase`` is illegal (None: it is legal)."""
    maze = problem.maze
    k = problem.cycle[phase]
    dr, dc = b[0] - a[0], b[1] - a[1]
    label = t("step.move", number=number)
    if (dr, dc) == (0, 0):
        return t("step.stays_at_cycle_asks_for", label=label, show=show(a), k=k)
    if dr and dc:
        return (t("step.from_diagonal_move_goes_in", label=label, show=show(a), show2=show(b)))
    length = abs(dr) + abs(dc)
    step = (dr // length, dc // length)
    word = t(f"step.direction.{_WORDS[step]}")
    if length != k:
        return t(
            "step.goes_cell_but_cycle_asks",
            label=label,
            length=length,
            value=t("step.plural.cell", count=length),
            word=word,
            k=k,
        )
    if not (0 <= b[0] < maze.rows and 0 <= b[1] < maze.cols):
        return t(
            "step.goes_from_off_board_board",
            label=label,
            k=k,
            word=word,
            show=show(a),
            show2=show(b),
            rows=maze.rows,
            cols=maze.cols,
        )
    for i in range(1, length + 1):
        cell = (a[0] + step[0] * i, a[1] + step[1] * i)
        if not maze.is_marked(*cell):
            if i == length:
                return t(
                    "step.goes_from_and_lands_on", label=label, k=k, word=word, show=show(a), show2=show(cell)
                )
            return t(
                "step.goes_from_over_blank_cell",
                label=label,
                k=k,
                word=word,
                show=show(a),
                show2=show(b),
                show3=show(cell),
            )
    return None


def walk(family: Any, maze: StepMaze, problem: StepProblem, cells: list[Cell], phases: list[int | None],
         options: Values) -> CheckResult:
    """Follow ``cells`` from the start under the problem's rules; the verdict with the states walked."""
    period = problem.phases
    moves = len(cells) - 1
    first = cells[0]
    if first != maze.start:
        return CheckResult(False, None, moves, None,
                           t("step.answer_starts_at_not_at", show=show(first), show2=show(maze.start)))
    state = maze.index(*first) * period
    states = [state]
    why: str | None = None
    bad: int | None = None
    illegal: dict[str, Any] | None = None
    if phases and phases[0] not in (None, 0):
        why, bad = t("step.first_state_has_phase_but", phases=phases[0]), None
    for number in range(1, len(cells)):
        if why:
            break
        a, b = cells[number - 1], cells[number]
        phase = (number - 1) % period
        why = _rule_broken(problem, number, a, b, phase)
        if why is None:
            target = (maze.index(*b)) * period + number % period
            if not any(nxt == target for nxt, _ in problem.successors(state)):
                # A safety net: the rules above are the search's own.
                why = t("step.move_from_not_move_rules", number=number, show=show(a), show2=show(b))
            elif phases and phases[number] is not None and phases[number] != number % period:
                why = t(
                    "step.move_ends_at_in_phase",
                    number=number,
                    show=show(b),
                    value=number % period,
                    cycle=problem.cycle[number % period],
                    phases=phases[number],
                )
            else:
                state = target
                states.append(state)
                continue
        bad = number
        illegal = {"from": list(a), "to": list(b)}  # where the page marks it
    reached = not why and problem.is_goal(state)
    if not why and not reached:
        goals = " or ".join(show(g) for g in maze.goals[:3]) + (" ..." if len(maze.goals) > 3 else "")
        why = t("step.moves_end_at_not_at", show=show(cells[-1]), goals=goals)
    cost = float(len(states) - 1)
    replay = replay_json(family, maze, problem, states, cost, options, reached)
    path = [problem.state_to_json(s) for s in states]
    return CheckResult.walked(why, cost, moves, path, replay, bad, illegal)
