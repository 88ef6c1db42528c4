"""Checking a student's answer to a Zenji board (issue 19): legal? how many quarter turns? optimal?

An answer is the **quarter turns per tile** (clockwise, as the rules allow), optionally with the
water's path. Notations, detected from the text (``check_zenji_solution``):

* **text**, one turn a line: ``ROW COL TURNS`` (0-based, whole numbers separated by spaces or
  commas; ``(0, 1) 2`` and ``0 1: 2`` read the same), or in the CLI's words ``turn (0, 1) twice
  clockwise`` (``once``, ``twice``, ``three times``, ``N times``), numbered ``1.`` or not. Empty
  lines and ``#`` comments are skipped. The CLI's whole answer can be pasted: its first line (``…
  made the water flow …``) is skipped and its ``water: (0, 0) → (0, 1) → …`` line is the water's path;
* **JSON**: a list of ``[row, col, turns]``, or of ``{"tile": [row, col], "turns": n}`` (the
  ``moves`` of ``solve --json``); ``[]`` is "no turns at all";
* the **JSON object printed by** ``run.py solve --json`` for a Zenji board (or any object with
  ``moves`` or ``turns`` as above and an optional ``path`` of the water's ``[row, col]`` tiles).

A tile named twice gets both turns. The cost is every quarter turn listed (the unit of ``solve
--json``'s ``cost``). Illegal: a tile off the board, turning the source or the drain (they are
fixed). Then the water is replayed on the turned board under the board's flow (downhill: east and
south only; free: any side, each tile once): along the given path, each step must leave by an
outlet into the neighbour's inlet on the facing side; without a path, the water's way is searched
on the turned board. Water that never reaches the drain is not a solution; the reason says where
it stops and why.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from ...i18n import t
from ..capabilities import Checker
from ..checking import CheckResult, replay_json, solve_json
from ..errors import PuzzleError, show_value
from ..jsonfile import read_value
from ..options import Values
from .model import INLET, OUTLET, SIDE_WORDS, SIDES, STEPS, ZenjiBoard, turned
from .problem import ZenjiProblem
from .words import TIMES, water_in_words

MAX_TURNS = 10_000  # turns of one entry: more is no answer anyone means (4 turns are none)
MAX_ENTRIES = 100_000
_WORD_TIMES = {"once": 1, "twice": 2, "thrice": 3}
_NUMBER = r"(\d{1,9})"
_NUMBERING = re.compile(r"\s*\d{1,9}\s*[.)]\s+")
# Every pattern is matched against one stripped line, and none has two quantifiers that can take the
# same characters next to each other: a long line of spaces must not make them backtrack for minutes.
_WORDS = re.compile(
    r"turn\s*\(\s*" + _NUMBER + r"\s*,\s*" + _NUMBER + r"\s*\)\s*"
    r"(once|twice|thrice|three\s+times|" + _NUMBER + r"\s+times?)(?:\s+clockwise)?$",
    re.IGNORECASE,
)
_INTEGER = re.compile(r"-?\d{1,9}")
_TRIPLE_SEPARATORS = str.maketrans("(),:", "    ")
_WATER = re.compile(r"water\s*:(.*)$", re.IGNORECASE)
_WATER_TILE = re.compile(r"\(\s*(-?\d{1,9})\s*,\s*(-?\d{1,9})\s*\)")

Cell = tuple[int, int]
Turn = tuple[int, int, int, str]  # row, col, turns, where it was written


def show(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


class ZenjiChecker(Checker):
    """Quarter turns per tile (text lines, JSON or ``solve --json``), the water replayed."""

    notation = ("zenji.quarter_turns_per_tile_line")

    def check(self, puzzle: ZenjiBoard, text: str, options: Values) -> CheckResult:
        return check_zenji_solution(self.family, puzzle, text, options)


def check_zenji_solution(family: Any, board: ZenjiBoard, text: str, options: Values) -> CheckResult:
    """Replay the answer in ``text`` (any notation above) under ``options``' flow; raises PuzzleError
    when the text is in no notation, naming the line or the item at fault."""
    problem = family.problem(board, options)
    assert isinstance(problem, ZenjiProblem)
    turns, water = read_answer(text, problem.flow)
    return replay(family, board, problem, turns, water, options)


# ---- reading the notations ------------------------------------------------------------------------
def read_answer(text: str, flow: str) -> tuple[list[Turn], list[Cell] | None]:
    """The turns (row, col, turns, where) and the water's path when the answer gives it."""
    body = text.removeprefix("\ufeff")
    head = body.lstrip()
    if not head:
        raise PuzzleError(t("zenji.solution_empty_expected_turns_such"), t("zenji.file"))
    if head[0] in "[{(":  # JSON, or the same list as Python prints it
        return _from_json(read_value(body), flow)
    return _from_text(body)


def _from_text(text: str) -> tuple[list[Turn], list[Cell] | None]:
    turns: list[Turn] = []
    water: list[Cell] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = t("zenji.line", number=number)
        found = _WATER.match(line)
        if found:
            water = _water_words(found.group(1), where)
            continue
        if not turns and water is None and "made the water flow" in line:
            continue  # the CLI's first line: what made the water flow, and how fast
        numbering = _NUMBERING.match(line)
        body = (line[numbering.end():] if numbering else line).rstrip(" .")
        words = _WORDS.match(body)
        if words:
            r, c = int(words.group(1)), int(words.group(2))
            times = words.group(3).lower()
            count = _WORD_TIMES.get(times, 3 if times.startswith("three") else None)
            turns.append((r, c, count if count is not None else int(words.group(4)), where))
        else:
            # ROW COL TURNS, with any of ( ) , : between them: "0 1 2", "(0, 1) 2", "0, 1: 2"
            triple = body.translate(_TRIPLE_SEPARATORS).split()
            if len(triple) != 3 or not all(_INTEGER.fullmatch(g) for g in triple):
                raise PuzzleError(
                    t("zenji.expected_turn_such_as_0", line=repr(line[:40])), where)
            r, c, count = (int(g) for g in triple)
            turns.append((r, c, _check_count(count, where), where))
        if len(turns) > MAX_ENTRIES:
            raise PuzzleError(t("zenji.more_than_turns", max_entries=MAX_ENTRIES), where)
    if not turns and water is None:
        raise PuzzleError(t("zenji.no_turns_in_text_write"), t("zenji.file"))
    return turns, water


def _check_count(count: Any, where: str) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_TURNS:
        raise PuzzleError(
            t("zenji.turns_are_clockwise_quarter_turns", max_turns=MAX_TURNS, count_=show_value(count)), where
        )
    return count


def _water_words(text: str, where: str) -> list[Cell]:
    """The CLI's ``(0, 0) → (0, 1) → …``."""
    parts = [part.strip() for part in re.split(r"→|->", text.strip())]
    cells: list[Cell] = []
    for index, part in enumerate(parts, start=1):
        tile = _WATER_TILE.fullmatch(part)
        if tile is None:
            raise PuzzleError(t("zenji.expected_water_tiles_as_row", part=repr(part[:30])),
                              t("zenji.tile", where=where, index=index))
        cells.append((int(tile.group(1)), int(tile.group(2))))
    return cells


def _from_json(value: Any, flow: str) -> tuple[list[Turn], list[Cell] | None]:
    water = None
    label = "item"
    if isinstance(value, dict):
        solve_json(value, "zenji", t("zenji.zenji_board"), None)
        given = value.get("flow")
        if isinstance(given, str) and given != flow:
            raise PuzzleError(
                t("zenji.this_solution_was_found_with", given=given, flow=flow), t("zenji.field_flow")
            )
        key = "moves" if "moves" in value else "turns" if "turns" in value else None
        if key is None:
            raise PuzzleError(t("zenji.expected_moves_field_turns_as"), t("zenji.file"))
        if "path" in value:
            water = _water_json(value["path"])
        value, label = value[key], t("zenji.key_item", key_=key)
    if not isinstance(value, list):
        raise PuzzleError(t("zenji.expected_list_turns_row_col", value=show_value(value)), t("zenji.file"))
    if len(value) > MAX_ENTRIES:
        raise PuzzleError(
            t("zenji.turns_more_than", n_value=len(value), max_entries=MAX_ENTRIES), t("zenji.file")
        )
    turns: list[Turn] = []
    for number, item in enumerate(value, start=1):
        where = f"{label} {number}"
        if isinstance(item, dict):
            tile, count = item.get("tile"), item.get("turns")
            if not _is_cell(tile):
                raise PuzzleError(t("zenji.expected_tile_row_col_got", tile=show_value(tile)), where)
            turns.append((tile[0], tile[1], _check_count(count, where + t("zenji.field_turns")), where))
        elif isinstance(item, list) and len(item) == 3 and _is_cell(item[:2]):
            turns.append((item[0], item[1], _check_count(item[2], where), where))
        else:
            raise PuzzleError(t("zenji.expected_row_col_turns_or", item=show_value(item)), where)
    return turns, water


def _is_cell(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value))


def _water_json(value: Any) -> list[Cell]:
    if not isinstance(value, list) or not value:
        raise PuzzleError(t("zenji.expected_water_tiles_row_col", value=show_value(value)),
                          t("zenji.field_path"))
    cells = []
    for number, item in enumerate(value, start=1):
        if not (isinstance(item, list) and len(item) in (2, 3) and _is_cell(item[:2])):
            raise PuzzleError(
                t("zenji.expected_row_col_got", item=show_value(item)), t("zenji.path_item", number=number)
            )
        cells.append((item[0], item[1]))
    return cells


# ---- the rules ------------------------------------------------------------------------------------
def replay(family: Any, board: ZenjiBoard, problem: ZenjiProblem, turns: list[Turn], water: list[Cell] | None,
           options: Values) -> CheckResult:
    """Make the turns, then let the water run; the verdict with the water's states."""
    cols = board.cols
    rot = [0] * (board.rows * cols)
    made: list[dict[str, Any]] = []
    total = 0
    why: str | None = None
    bad: int | None = None
    illegal: dict[str, Any] | None = None  # where the page marks it: the tile turned, or a water step
    for number, (r, c, count, _where) in enumerate(turns, start=1):
        if not (0 <= r < board.rows and 0 <= c < cols):
            why = t(
                "zenji.turn_names_tile_off_x", number=number, show=show((r, c)), rows=board.rows, cols=cols
            )
            bad, illegal = number, {"from": [r, c], "to": None}
            break
        if count and (r, c) in (board.source, board.drain):
            what = "source" if (r, c) == board.source else "drain"
            why = t(
                "zenji.turn_turns_source_and_drain",
                number=number,
                what=t(f"zenji.word.{what}"),
                show=show((r, c)),
            )
            bad, illegal = number, {"from": [r, c], "to": None}
            break
        rot[r * cols + c] += count
        total += count
        if count:
            made.append(
                {
                    "tile": [r, c],
                    "turns": count,
                    "text": t(
                        "zenji.turn_clockwise",
                        show=show((r, c)),
                        times=t(TIMES[count]) if count in TIMES else t("zenji.n_times", count=count),
                    ),
                }
            )
    shapes = [turned(tile, rot[i] % 4) for i, tile in enumerate(board.tiles)]
    if why is None:
        if water is not None:
            cells, why = _follow(board, problem, shapes, water)
            if why is not None and len(cells) < len(water):
                illegal = {"from": list(cells[-1]), "to": list(water[len(cells)])}
        else:
            cells, why = _find(board, problem, shapes)
        if why is None:
            why = _verify(problem, cells, shapes)
    else:
        cells = [board.source]
    states = _states(problem, cells, rot)
    reached = why is None
    raw = float(total * problem.scale + len(cells) - 1)
    out = replay_json(family, board, problem, states, raw, options, reached)
    if not reached:
        out.update(water_in_words(board, [[r, c, rot[r * cols + c] % 4] for r, c in cells]))
    out["moves"] = made  # every turn made, also those off the water's way
    out["turned"] = [[list(shapes[r * cols + c]) for c in range(cols)] for r in range(board.rows)]
    path = [problem.state_to_json(s) for s in states]
    return CheckResult.walked(why, float(total), len(turns), path, out, bad, illegal)


def _states(problem: ZenjiProblem, cells: list[Cell], rot: list[int]) -> list[int]:
    """The search's states along the water (the tiles used so far packed in under free flow)."""
    cols = problem.board.cols
    used = 0
    states = []
    for r, c in cells:
        cell = r * cols + c
        used |= (1 << cell) if problem.free else 0
        states.append(problem.pack(cell, rot[cell] % 4, used))
    return states


def _verify(problem: ZenjiProblem, cells: list[Cell], shapes: list[Any]) -> str | None:
    """A safety net: the water's way as the search's own moves (each tile at the turn that gives its
    shape, the cheapest such); None when every step is one of ``problem.successors``."""
    cols = problem.board.cols
    used = 0
    state = -1
    for number, (r, c) in enumerate(cells):
        cell = r * cols + c
        used |= (1 << cell) if problem.free else 0
        canonical = next(rot for rot, shape in problem.shapes[cell] if shape == shapes[cell])
        nxt = problem.pack(cell, canonical, used)
        if number and not any(s == nxt for s, _ in problem.successors(state)):
            return t("zenji.water_step_into_not_move", number=number, show=show((r, c)))
        state = nxt
    return None


def _sides(problem: ZenjiProblem) -> str:
    return t("zenji.any_side") if problem.free else t("zenji.east_or_south_side_only")


def _follow(board: ZenjiBoard, problem: ZenjiProblem, shapes: list[Any],
            water: list[Cell]) -> tuple[list[Cell], str | None]:
    """The given water path, step by step under the flow's rules: (tiles walked, why it stops)."""
    cols = board.cols
    if water[0] != board.source:
        return [board.source], (
            t("zenji.water_path_starts_at_not", show=show(water[0]), show2=show(board.source))
        )
    walked = [water[0]]
    for number in range(1, len(water)):
        a, b = water[number - 1], water[number]
        label = t("zenji.water_step", number=number, show=show(a), show2=show(b))
        delta = (b[0] - a[0], b[1] - a[1])
        if delta not in STEPS:
            return walked, t("zenji.not_neighbouring_tile", label=label)
        if not (0 <= b[0] < board.rows and 0 <= b[1] < cols):
            return walked, t("zenji.water_leaves_board", label=label)
        side = STEPS.index(delta)
        if side not in problem.sides:
            return walked, (
                t(
                    "zenji.water_would_flow_and_under",
                    label=label,
                    side_words=t(f"zenji.side.{SIDE_WORDS[SIDES[side]]}"),
                    flow=problem.flow,
                    sides=_sides(problem),
                )
            )
        if b in walked:
            return walked, t("zenji.water_passes_second_time_each", label=label, show=show(b))
        if shapes[a[0] * cols + a[1]][side] != OUTLET:
            return walked, t(
                "zenji.has_no_outlet_on_its",
                label=label,
                show=show(a),
                side_words=t(f"zenji.side.{SIDE_WORDS[SIDES[side]]}"),
            )
        facing = (side + 2) % 4
        if shapes[b[0] * cols + b[1]][facing] != INLET:
            return walked, t(
                "zenji.has_no_inlet_on_its",
                label=label,
                show=show(b),
                side_words=t(f"zenji.side.{SIDE_WORDS[SIDES[facing]]}"),
            )
        walked.append(b)
        if b == board.drain and number < len(water) - 1:
            return walked, t("zenji.water_reaches_drain_and_path", label=label)
    if walked[-1] != board.drain:
        return walked, t("zenji.water_path_ends_at_not", show=show(walked[-1]), show2=show(board.drain))
    return walked, None


def _find(board: ZenjiBoard, problem: ZenjiProblem, shapes: list[Any]) -> tuple[list[Cell], str | None]:
    """The water's way on the turned board (breadth-first: the fewest tiles), or where it stops."""
    cols = board.cols
    source = board.source[0] * cols + board.source[1]
    drain = board.drain[0] * cols + board.drain[1]
    parent = {source: source}
    queue = deque([source])
    while queue:
        cell = queue.popleft()
        if cell == drain:
            break
        for side in problem.sides:
            nxt = problem.neighbour[cell][side]
            if nxt < 0 or nxt in parent or shapes[cell][side] != OUTLET:
                continue
            if shapes[nxt][(side + 2) % 4] == INLET:
                parent[nxt] = cell
                queue.append(nxt)

    def way(cell: int) -> list[Cell]:
        out = [cell]
        while out[-1] != source:
            out.append(parent[out[-1]])
        return [divmod(x, cols) for x in reversed(out)]  # type: ignore[misc]

    if drain in parent:
        return way(drain), None
    dr, dc = board.drain
    order = {cell: i for i, cell in enumerate(parent)}  # reached first wins a tie
    last = min(parent, key=lambda x: (abs(x // cols - dr) + abs(x % cols - dc), order[x]))
    cells = way(last)
    return cells, (
        t(
            "zenji.water_does_not_reach_drain",
            show=show(board.drain),
            value=" → ".join(show(x) for x in cells),
            stuck=_stuck(board, problem, shapes, last, set(way(last))),
        )
    )


def _cell_text(board: ZenjiBoard, cell: int) -> str:
    return show((cell // board.cols, cell % board.cols))


def _stuck(board: ZenjiBoard, problem: ZenjiProblem, shapes: list[Any], cell: int, used: set[Cell]) -> str:
    """Why the water goes no further from ``cell`` (``used``: the tiles it passed), in words."""
    here = _cell_text(board, cell)
    outlets = [s for s in range(4) if shapes[cell][s] == OUTLET]
    if not outlets:
        return t("zenji.has_no_outlet", here=here)
    reasons = []
    for side in outlets:
        word = t(f"zenji.side.{SIDE_WORDS[SIDES[side]]}")
        nxt = problem.neighbour[cell][side]
        if side not in problem.sides:
            reasons.append(t("zenji.its_outlet_points_uphill_downhill", word=word))
        elif nxt < 0:
            reasons.append(t("zenji.its_outlet_leads_off_board", word=word))
        elif problem.free and divmod(nxt, board.cols) in used:
            reasons.append(
                t("zenji.its_outlet_leads_back_which", word=word, cell_text=_cell_text(board, nxt))
            )
        elif shapes[nxt][(side + 2) % 4] == INLET:
            reasons.append(t("zenji.its_outlet_leads_on_from", word=word, cell_text=_cell_text(board, nxt)))
        else:
            facing = t(f"zenji.side.{SIDE_WORDS[SIDES[(side + 2) % 4]]}")
            reasons.append(
                t(
                    "zenji.its_outlet_faces_which_has",
                    word=word,
                    cell_text=_cell_text(board, nxt),
                    facing=facing,
                )
            )
    return f"at {here} " + "; ".join(reasons)
