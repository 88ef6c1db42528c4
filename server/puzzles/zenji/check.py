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

from server.puzzles.capabilities import Checker
from server.puzzles.checking import CheckResult, replay_json, solve_json
from server.puzzles.errors import PuzzleError, show_value
from server.puzzles.jsonfile import read_value
from server.puzzles.options import Values
from server.puzzles.zenji.model import INLET, OUTLET, SIDE_WORDS, SIDES, STEPS, ZenjiBoard, turned
from server.puzzles.zenji.problem import ZenjiProblem
from server.puzzles.zenji.words import TIMES, water_in_words

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

    notation = ("quarter turns per tile, a line each (ROW COL TURNS, or 'turn (0, 1) twice clockwise'), or "
                "JSON [[row, col, turns], ...]")

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
        raise PuzzleError("the solution is empty: expected turns such as '0 1 2' (row, col, quarter turns) a "
                          "line, a JSON list of [row, col, turns] ([] for no turns) or run.py solve --json's "
                          "output", "file")
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
        where = f"line {number}"
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
                    f"expected a turn such as '0 1 2' (row, col, quarter turns) or 'turn (0, 1) twice "
                    f"clockwise', got {line[:40]!r}", where)
            r, c, count = (int(g) for g in triple)
            turns.append((r, c, _check_count(count, where), where))
        if len(turns) > MAX_ENTRIES:
            raise PuzzleError(f"more than {MAX_ENTRIES:,} turns", where)
    if not turns and water is None:
        raise PuzzleError("no turns in the text: write one turn a line, e.g. '0 1 2' (row, col, quarter "
                          "turns), or [] for no turns", "file")
    return turns, water


def _check_count(count: Any, where: str) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_TURNS:
        raise PuzzleError(f"turns are clockwise quarter turns, a whole number from 0 to {MAX_TURNS:,}; got "
                          f"{show_value(count)}", where)
    return count


def _water_words(text: str, where: str) -> list[Cell]:
    """The CLI's ``(0, 0) → (0, 1) → …``."""
    parts = [part.strip() for part in re.split(r"→|->", text.strip())]
    cells: list[Cell] = []
    for index, part in enumerate(parts, start=1):
        tile = _WATER_TILE.fullmatch(part)
        if tile is None:
            raise PuzzleError(f"expected the water's tiles as (row, col) → (row, col) …, got {part[:30]!r}",
                              f"{where}, tile {index}")
        cells.append((int(tile.group(1)), int(tile.group(2))))
    return cells


def _from_json(value: Any, flow: str) -> tuple[list[Turn], list[Cell] | None]:
    water = None
    label = "item"
    if isinstance(value, dict):
        solve_json(value, "zenji", "a Zenji board", None)
        given = value.get("flow")
        if isinstance(given, str) and given != flow:
            raise PuzzleError(f"this solution was found with {given} flow, and the board is checked with "
                              f"{flow} flow: check it with the flow it was found with", "field 'flow'")
        key = "moves" if "moves" in value else "turns" if "turns" in value else None
        if key is None:
            raise PuzzleError("expected a 'moves' field (the turns, as `run.py solve --json` prints them) or "
                              "'turns'", "file")
        if "path" in value:
            water = _water_json(value["path"])
        value, label = value[key], f"{key} item"
    if not isinstance(value, list):
        raise PuzzleError(f"expected a list of turns [row, col, turns], got {show_value(value)}", "file")
    if len(value) > MAX_ENTRIES:
        raise PuzzleError(f"{len(value):,} turns is more than {MAX_ENTRIES:,}", "file")
    turns: list[Turn] = []
    for number, item in enumerate(value, start=1):
        where = f"{label} {number}"
        if isinstance(item, dict):
            tile, count = item.get("tile"), item.get("turns")
            if not _is_cell(tile):
                raise PuzzleError(f"expected 'tile': [row, col], got {show_value(tile)}", where)
            turns.append((tile[0], tile[1], _check_count(count, where + ", field 'turns'"), where))
        elif isinstance(item, list) and len(item) == 3 and _is_cell(item[:2]):
            turns.append((item[0], item[1], _check_count(item[2], where), where))
        else:
            raise PuzzleError(f"expected [row, col, turns] or {{\"tile\": [row, col], \"turns\": n}}, got "
                              f"{show_value(item)}", where)
    return turns, water


def _is_cell(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value))


def _water_json(value: Any) -> list[Cell]:
    if not isinstance(value, list) or not value:
        raise PuzzleError(f"expected the water's tiles [[row, col], ...], got {show_value(value)}",
                          "field 'path'")
    cells = []
    for number, item in enumerate(value, start=1):
        if not (isinstance(item, list) and len(item) in (2, 3) and _is_cell(item[:2])):
            raise PuzzleError(f"expected [row, col], got {show_value(item)}", f"path item {number}")
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
            why = f"turn {number} names the tile {show((r, c))}, off the {board.rows} x {cols} board"
            bad, illegal = number, {"from": [r, c], "to": None}
            break
        if count and (r, c) in (board.source, board.drain):
            what = "source" if (r, c) == board.source else "drain"
            why = f"turn {number} turns the {what} {show((r, c))}: the source and the drain are fixed"
            bad, illegal = number, {"from": [r, c], "to": None}
            break
        rot[r * cols + c] += count
        total += count
        if count:
            made.append({"tile": [r, c], "turns": count, "text": f"turn {show((r, c))} "
                         f"{TIMES.get(count, f'{count} times')} clockwise"})
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
            return f"water step {number} into {show((r, c))} is not a move the rules allow"
        state = nxt
    return None


def _sides(problem: ZenjiProblem) -> str:
    return "any side" if problem.free else "east or the south side only"


def _follow(board: ZenjiBoard, problem: ZenjiProblem, shapes: list[Any],
            water: list[Cell]) -> tuple[list[Cell], str | None]:
    """The given water path, step by step under the flow's rules: (tiles walked, why it stops)."""
    cols = board.cols
    if water[0] != board.source:
        return [board.source], (f"the water's path starts at {show(water[0])}, not at the source "
                                f"{show(board.source)}")
    walked = [water[0]]
    for number in range(1, len(water)):
        a, b = water[number - 1], water[number]
        label = f"water step {number}, {show(a)} → {show(b)}"
        delta = (b[0] - a[0], b[1] - a[1])
        if delta not in STEPS:
            return walked, f"{label}: not a neighbouring tile"
        if not (0 <= b[0] < board.rows and 0 <= b[1] < cols):
            return walked, f"{label}: the water leaves the board"
        side = STEPS.index(delta)
        if side not in problem.sides:
            return walked, (f"{label}: the water would flow {SIDE_WORDS[SIDES[side]]}, and under "
                            f"{problem.flow} flow it leaves a tile by the {_sides(problem)}")
        if b in walked:
            return walked, f"{label}: the water passes {show(b)} a second time (each tile is used once)"
        if shapes[a[0] * cols + a[1]][side] != OUTLET:
            return walked, f"{label}: {show(a)} has no outlet on its {SIDE_WORDS[SIDES[side]]} side"
        facing = (side + 2) % 4
        if shapes[b[0] * cols + b[1]][facing] != INLET:
            return walked, f"{label}: {show(b)} has no inlet on its {SIDE_WORDS[SIDES[facing]]} side"
        walked.append(b)
        if b == board.drain and number < len(water) - 1:
            return walked, f"{label}: the water reaches the drain, and the path goes on beyond it"
    if walked[-1] != board.drain:
        return walked, f"the water's path ends at {show(walked[-1])}, not at the drain {show(board.drain)}"
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
    return cells, (f"the water does not reach the drain {show(board.drain)}: it flows "
                   f"{' → '.join(show(x) for x in cells)} and stops there: "
                   f"{_stuck(board, problem, shapes, last, set(way(last)))}")


def _cell_text(board: ZenjiBoard, cell: int) -> str:
    return show((cell // board.cols, cell % board.cols))


def _stuck(board: ZenjiBoard, problem: ZenjiProblem, shapes: list[Any], cell: int, used: set[Cell]) -> str:
    """Why the water goes no further from ``cell`` (``used``: the tiles it passed), in words."""
    here = _cell_text(board, cell)
    outlets = [s for s in range(4) if shapes[cell][s] == OUTLET]
    if not outlets:
        return f"{here} has no outlet"
    reasons = []
    for side in outlets:
        word = SIDE_WORDS[SIDES[side]]
        nxt = problem.neighbour[cell][side]
        if side not in problem.sides:
            reasons.append(f"its {word} outlet points uphill (downhill water flows east or south only)")
        elif nxt < 0:
            reasons.append(f"its {word} outlet leads off the board")
        elif problem.free and divmod(nxt, board.cols) in used:
            reasons.append(f"its {word} outlet leads back to {_cell_text(board, nxt)}, which the water "
                           "already passes")
        elif shapes[nxt][(side + 2) % 4] == INLET:
            reasons.append(f"its {word} outlet leads on to {_cell_text(board, nxt)}, from where the "
                           "water found no way to the drain either")
        else:
            facing = SIDE_WORDS[SIDES[(side + 2) % 4]]
            reasons.append(f"its {word} outlet faces {_cell_text(board, nxt)}, which has no inlet on "
                           f"its {facing} side")
    return f"at {here} " + "; ".join(reasons)
