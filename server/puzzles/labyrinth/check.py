"""Checking a student's moves through a shifting-tile labyrinth (issue 19): legal? how many? optimal?

Notations, detected from the text (``check_labyrinth_solution``), as the results show moves:

* the **JSON object printed by** ``run.py solve --json`` for a labyrinth: its ``moves``;
* its **``moves`` list** alone: one object a move, ``{"push": {"axis": "row", "index": 3, "side":
  "right", "tile": 2, ...} | null, "walk": [[row, col], ...] | null}`` (``text`` is ignored; a
  walk lists every position, ``[rows, start_col]`` below the board and ``[-1, goal_col]`` out above
  it; ``tile``, ``free_before`` and ``falls_out`` are checked when given);
* the **move list in words** as the CLI prints it, one move a line, numbered (``  1. ``) or not:
  ``Push the free tile └ (2) into row 3 from the right``, ``turn the free tile ┐ (1) into └ (2)
  and push it into row 0 from the left (the player is carried to column 2), then enter the board
  below column 1 onto (4,1) and walk from (4,1) to (0,1) and leave the board above column 2``
  (the shapes are optional; a walk in words names its ends, and any way between them will do).
  The CLI's first line (``…: bfs solved it in 3 moves …``) is skipped.

The rules are the search's own (``LabyrinthProblem.successors`` has the last word): a push goes in
at an insertion point of the board, with the free tile (turned only when the board allows it); a
walk steps between tiles open towards each other, enters below the start column and leaves above
the goal column; under separate moves a move is one push or one walk. The cost is the number of
moves, as ``solve --json`` counts it; the moves must end with the player out above the goal column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ...i18n import t
from ..capabilities import Checker
from ..checking import CheckResult, replay_json, solve_json
from ..errors import PuzzleError, show_value
from ..jsonfile import read_value
from ..options import Values
from .model import (
    BOTTOM,
    EXITED,
    LEFT,
    MASKS,
    OUTSIDE,
    RIGHT,
    SHAPES,
    TOP,
    InsertionPoint,
    LabyrinthPuzzle,
    carry,
    orientations,
    push,
)
from .parse import run_variant
from .problem import LabState, LabyrinthProblem
from .solve import make_problem

MAX_MOVES = 100_000


# ---- the family's notation of a state (LabyrinthFamily.state_text; the page's labyrinth_mini.js) ----
def place_text(player: Any, on: str) -> str:
    """Where the player is: "(2, 3)", "below (5, 0)" (not yet on the board), "out above"."""
    if on == "above":
        return t("labyrinth.out_above")
    where = f"({player[0]}, {player[1]})"
    return t("labyrinth.state.below", where=where) if on == "below" else where


def places_text(places: Any) -> str:
    """The merged view's places: "one of (2, 3), (4, 1)"."""
    listed = ", ".join(f"({r}, {c})" for r, c in places)
    return t("labyrinth.one", listed=listed) if listed else t("labyrinth.set_places")


def labyrinth_text(place: str, free: int, board: Any, cols: int) -> str:
    """A labyrinth state in words: "(2, 3) · hand ┼ · ┌┬┐ / ├┼┤ / └┴┘" (where the player is, the tile in
    hand, the board's rows as its tiles' shapes)."""
    shape = lambda code: SHAPES[code] if 0 <= code < len(SHAPES) else "?"  # noqa: E731
    codes = list(board)
    rows = ["".join(shape(t) for t in codes[r : r + cols]) for r in range(0, len(codes), max(cols, 1))]
    return t("labyrinth.state.text", place=place, free=shape(int(free)), rows=" / ".join(rows))
_NUMBERING = re.compile(r"\s*\d{1,9}\s*[.)]\s*")
_SHAPE = r"(?:[" + re.escape(SHAPES) + r"]\s*)?"
_LINE = r"(row|column|col)\s+(\d{1,4})\s+from\s+the\s+(left|right|top|bottom)"
_CARRIED = r"(?:\s*\(\s*the\s+player\s+is\s+carried\s+to\s+(column|row)\s+(\d{1,4})\s*\))?"
_PUSH = re.compile(
    r"(?:turn\s+the\s+free\s+tile\s+" + _SHAPE + r"\(\s*(\d{1,2})\s*\)\s+into\s+" + _SHAPE
    + r"\(\s*(\d{1,2})\s*\)\s+and\s+push\s+it"
    + r"|push(?:\s+the\s+free\s+tile(?:\s+" + _SHAPE + r"\(\s*(\d{1,2})\s*\))?)?)"
    + r"\s+into\s+(?:the\s+)?" + _LINE + _CARRIED,
    re.IGNORECASE,
)
_CELL = r"\(\s*(-?\d{1,4})\s*,\s*(-?\d{1,4})\s*\)"
_PIECES = re.compile(
    r"(?P<enter>enter\s+the\s+board\s+below\s+column\s+(\d{1,4})\s+onto\s+" + _CELL + r")"
    r"|(?P<walk>walk\s+from\s+" + _CELL + r"\s+to\s+" + _CELL + r")"
    r"|(?P<leave>leave\s+the\s+board\s+above\s+column\s+(\d{1,4}))",
    re.IGNORECASE,
)
_JOIN = re.compile(r"\s*(?:,\s*and|,|and)\s*", re.IGNORECASE)
_SIDES = {"left": LEFT, "top": TOP, "right": RIGHT, "bottom": BOTTOM}


@dataclass
class PushSpec:
    """A push as the answer states it; None where it says nothing."""

    point: InsertionPoint
    tile: int | None = None  # the tile as it goes in
    free_before: int | None = None
    falls_out: int | None = None
    carried: tuple[str, int] | None = None  # ("column", 2): where the text says the player is carried


@dataclass
class Move:
    where: str
    push: PushSpec | None = None
    route: list[tuple[int, int]] | None = None  # JSON: every position as [row, col]
    pieces: list[tuple[str, Any]] = field(default_factory=list)  # words: ("enter", ...), ("walk", ...)

    @property
    def walks(self) -> bool:
        return bool(self.pieces) or (self.route is not None and len(self.route) > 0)


class LabyrinthChecker(Checker):
    """The moves as ``solve --json`` or the CLI's words show them."""

    notation = "labyrinth.moves_as_result_list_shows"

    def check(self, puzzle: LabyrinthPuzzle, text: str, options: Values) -> CheckResult:
        return check_labyrinth_solution(self.family, puzzle, text, options)


def check_labyrinth_solution(family: Any, puzzle: LabyrinthPuzzle, text: str, options: Values) -> CheckResult:
    """Replay the moves in ``text`` (any notation above) under ``options``' rules; raises PuzzleError
    when the text is in no notation, naming the line or the item at fault."""
    variant = run_variant(puzzle, options)
    problem = make_problem(variant, "states", options.get("moves"))
    assert isinstance(problem, LabyrinthProblem)
    moves = read_answer(text, problem)
    return replay(family, variant, problem, moves, options)


# ---- reading the notations ------------------------------------------------------------------------
def read_answer(text: str, problem: LabyrinthProblem) -> list[Move]:
    body = text.removeprefix("\ufeff")
    head = body.lstrip()
    if not head:
        raise PuzzleError(t("labyrinth.solution_empty_expected_moves_in"), t("labyrinth.file"))
    if head[0] in "[{(":  # JSON, or the same list as Python prints it
        return _from_json(read_value(body), problem)
    return _from_words(body)


def _from_json(value: Any, problem: LabyrinthProblem) -> list[Move]:
    label = "item"
    if isinstance(value, dict):
        listed = solve_json(value, "labyrinth", "a labyrinth", "moves")
        _same_rules(value.get("options"), problem)
        value, label = listed, t("labyrinth.moves_item")
    if not isinstance(value, list):
        raise PuzzleError(
            t("labyrinth.expected_list_moves_got", value=show_value(value)), t("labyrinth.file")
        )
    if len(value) > MAX_MOVES:
        raise PuzzleError(
            t("labyrinth.moves_more_than", n_value=len(value), max_moves=MAX_MOVES), t("labyrinth.file")
        )
    moves = []
    for number, item in enumerate(value, start=1):
        where = f"{label} {number}"
        if not isinstance(item, dict):
            raise PuzzleError(t("labyrinth.expected_move_push_walk_got", item=show_value(item)),
                              where)
        unknown = sorted(set(item) - {"push", "walk", "text"})
        if unknown:
            raise PuzzleError(t("labyrinth.unknown_field_move_has_push", unknown=repr(unknown[0])), where)
        move = Move(where)
        if item.get("push") is not None:
            move.push = _push_json(item["push"], where + t("labyrinth.field_push"))
        walk = item.get("walk")
        if walk is not None:
            if not isinstance(walk, list) or not all(_is_pair(p) for p in walk):
                raise PuzzleError(t("labyrinth.expected_walk_positions_row_col", walk=show_value(walk)),
                                  where + t("labyrinth.field_walk"))
            move.route = [(p[0], p[1]) for p in walk]
        moves.append(move)
    return moves


def _same_rules(options: Any, problem: LabyrinthProblem) -> None:
    """``solve --json``'s rules against the ones checked: a different move model, start or goal column
    would make a correct answer look wrong."""
    if not isinstance(options, dict):
        return
    p = problem.puzzle
    for key, ours, flag in (("moves", problem.moves, "--moves"), ("start_col", p.start_col, "--start-col"),
                            ("goal_col", p.goal_col, "--goal-col")):
        theirs = options.get(key)
        if theirs is not None and theirs != ours:
            raise PuzzleError(
                t(
                    "labyrinth.this_solution_was_found_with",
                    key_=key,
                    theirs=show_value(theirs),
                    ours=ours,
                    flag=flag,
                ),
                t("labyrinth.field_options", key_=key),
            )


def _is_pair(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value))


def _push_json(value: Any, where: str) -> PushSpec:
    if not isinstance(value, dict):
        raise PuzzleError(t("labyrinth.expected_axis_index_side_got", value=show_value(value)), where)
    axis, index, side = value.get("axis"), value.get("index"), value.get("side")
    if axis not in ("row", "col"):
        raise PuzzleError(t("labyrinth.axis_row_or_col_got", axis=show_value(axis)), where)
    if isinstance(index, bool) or not isinstance(index, int):
        raise PuzzleError(t("labyrinth.index_whole_number_got", index=show_value(index)), where)
    sides = ("left", "right") if axis == "row" else ("top", "bottom")
    if side not in sides:
        raise PuzzleError(
            t("labyrinth.pushed_from_got", axis=axis, sides=" or the ".join(sides), side=show_value(side)),
            where,
        )
    spec = PushSpec(InsertionPoint(axis, index, side))
    for key in ("tile", "free_before", "falls_out"):
        code = value.get(key)
        if code is None:
            continue
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code <= 9:
            raise PuzzleError(t("labyrinth.tile_code_from_0_9", key_=key, code=show_value(code)), where)
        setattr(spec, key, code)
    return spec


def _from_words(text: str) -> list[Move]:
    moves = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not moves and " solved it in " in line:
            continue  # the CLI's first line: who solved it in how many moves
        where = t("labyrinth.line", number=number)
        numbering = _NUMBERING.match(line)
        body = line[numbering.end():] if numbering else line
        moves.append(_move_words(body.rstrip(" ."), where))
        if len(moves) > MAX_MOVES:
            raise PuzzleError(t("labyrinth.more_than_moves", max_moves=MAX_MOVES), where)
    if not moves:
        raise PuzzleError(t("labyrinth.no_moves_in_text_one"), t("labyrinth.file"))
    return moves


def _move_words(body: str, where: str) -> Move:
    move = Move(where)
    rest = body
    found = _PUSH.match(rest)
    if found:
        turned_from, turned_to, plain, axis, index, side, carried_axis, carried_to = found.groups()
        axis = "row" if axis.lower() == "row" else "col"
        side = side.lower()
        if side not in (("left", "right") if axis == "row" else ("top", "bottom")):
            line = "row" if axis == "row" else "column"
            sides = t("labyrinth.left_or_right") if axis == "row" else t("labyrinth.top_or_bottom")
            raise PuzzleError(t("labyrinth.pushed_from_not", line=line, sides=sides, side=side), where)
        spec = PushSpec(InsertionPoint(axis, int(index), side))
        if turned_from is not None:
            spec.free_before, spec.tile = _code(turned_from, where), _code(turned_to, where)
        elif plain is not None:
            spec.free_before = spec.tile = _code(plain, where)
        if carried_axis is not None:
            spec.carried = ("column" if carried_axis.lower() == "column" else "row", int(carried_to))
        move.push = spec
        rest = rest[found.end():]
        if not rest.strip():
            return move
        then = re.match(r"\s*(?:,\s*)?then\s+", rest, re.IGNORECASE)
        if then is None:
            raise PuzzleError(t("labyrinth.after_push_expected_then_and", strip=repr(rest.strip()[:40])),
                              where)
        rest = rest[then.end():]
    move.pieces = _walk_words(rest, where, bool(found))
    return move


def _walk_words(text: str, where: str, after_push: bool) -> list[tuple[str, Any]]:
    pieces: list[tuple[str, Any]] = []
    pos = 0
    while True:
        found = _PIECES.match(text, pos)
        if found is None:
            what = (t("labyrinth.walk_enter_board_below_column"))
            if not pieces and not after_push:
                what = t("labyrinth.push_push_free_tile_2") + what
            raise PuzzleError(
                t("labyrinth.expected_got", what=what, strip=repr(text[pos:].strip()[:40])), where
            )
        g = found.groups()
        if found.group("enter"):
            pieces.append(("enter", (int(g[1]), (int(g[2]), int(g[3])))))
        elif found.group("walk"):
            pieces.append(("walk", ((int(g[5]), int(g[6])), (int(g[7]), int(g[8])))))
        else:
            pieces.append(("leave", int(g[10])))
        pos = found.end()
        if pos >= len(text.rstrip()):
            return pieces
        join = _JOIN.match(text, pos)
        if join is None or join.end() == pos:
            raise PuzzleError(
                t("labyrinth.expected_or_and_between_parts", strip=repr(text[pos:].strip()[:40])), where
            )
        pos = join.end()


def _code(text: str, where: str) -> int:
    code = int(text)
    if not 0 <= code <= 9:
        raise PuzzleError(t("labyrinth.tile_codes_are_0_9", code=code), where)
    return code


# ---- the rules ------------------------------------------------------------------------------------
class Illegal(Exception):
    """A move breaks a rule: the words say which; ``to``: the position a step failed to reach, from
    ``source`` (None: from where the player stood before the move)."""

    def __init__(self, message: str, to: int | None = None, source: int | None = None) -> None:
        super().__init__(message)
        self.to = to
        self.source = source


def replay(family: Any, puzzle: LabyrinthPuzzle, problem: LabyrinthProblem, moves: list[Move],
           options: Values) -> CheckResult:
    """Play ``moves`` from the start; the verdict with the states walked."""
    state = problem.initial_states()[0]
    states = [state]
    why: str | None = None
    bad: int | None = None
    illegal: dict[str, Any] | None = None  # where the page marks it: the player's place, the step's end
    for number, move in enumerate(moves, start=1):
        try:
            nxt = _play(problem, state, move, number)
        except Illegal as err:
            why, bad = str(err), number
            source = state.player if err.source is None else err.source
            illegal = {"from": problem.rc(source), "to": None if err.to is None else problem.rc(err.to)}
            break
        if not any(s == nxt for s, _ in problem.successors(state)):  # the search's rules, as a safety net
            why, bad = t("labyrinth.move_not_move_rules_allow", number=number, where=move.where), number
            break
        state = nxt
        states.append(state)
    reached = why is None and problem.is_goal(state)
    if why is None and not reached:
        why = t(
            "labyrinth.moves_end_with_player_not",
            place=_place(problem, state.player),
            goal_col=puzzle.goal_col,
        )
    out = replay_json(family, puzzle, problem, states, float(len(states) - 1), options, reached)
    path = [problem.state_to_json(s) for s in states]
    if not reached:  # the family's result lists moves of solutions only: the page replays these
        out["path"] = path
        out["moves"] = problem.moves_of(states)
    return CheckResult.walked(why, float(len(moves)), len(moves), path, out, bad, illegal)


def _place(problem: LabyrinthProblem, position: int) -> str:
    p = problem.puzzle
    if position == OUTSIDE:
        return t("labyrinth.still_below_board_under_column", start_col=p.start_col)
    if position == EXITED:
        return t("labyrinth.out_above_column", goal_col=p.goal_col)
    r, c = divmod(position, problem.cols)
    return f"at ({r},{c})"


def _at(problem: LabyrinthProblem, position: int) -> str:
    """A position in a walk's words: "(r,c)", "below the board" or "above the board"."""
    if position == OUTSIDE:
        return t("labyrinth.below_board")
    if position == EXITED:
        return t("labyrinth.above_board")
    r, c = divmod(position, problem.cols)
    return f"({r},{c})"


def _tile(code: int) -> str:
    return f"{SHAPES[code]} ({code})"


def _play(problem: LabyrinthProblem, state: LabState, move: Move, number: int) -> LabState:
    """The state after ``move``; raises ``Illegal`` naming the rule it breaks."""
    label = t("labyrinth.move", number=number)
    if move.push is None and not move.walks:
        raise Illegal(t("labyrinth.neither_pushes_nor_walks", label=label))
    if move.push is not None and move.walks and problem.moves == "separate":
        raise Illegal(t("labyrinth.pushes_and_walks_and_under", label=label))
    board, free, player = state
    if move.push is not None:
        board, free, player = _push(problem, board, free, player, move.push, label)
    if move.walks:
        before = player
        player = _walk(problem, board, player, move, label)
        if player == before and move.push is None:
            raise Illegal(
                t("labyrinth.walks_nowhere_player_stays", label=label, place=_place(problem, player))
            )
    return LabState(board, free, player)


def _push(problem: LabyrinthProblem, board: bytes, free: int, player: int, spec: PushSpec,
          label: str) -> tuple[bytes, int, int]:
    p = problem.puzzle
    point = spec.point
    if point not in p.insertions:
        points = ", ".join(q.text() for q in p.insertions)
        raise Illegal(
            t("labyrinth.pushes_into_which_no_insertion", label=label, text=point.text(), points=points)
        )
    if player == EXITED:
        raise Illegal(t("labyrinth.pushes_after_player_has_left", label=label))
    if spec.free_before is not None and spec.free_before != free:
        raise Illegal(
            t(
                "labyrinth.pushes_free_tile_but_free",
                label=label,
                tile=_tile(spec.free_before),
                tile2=_tile(free),
            )
        )
    tile = free if spec.tile is None else spec.tile
    if tile != free:
        if not p.rotate_free:
            raise Illegal(
                t("labyrinth.turns_free_tile_into_and", label=label, tile=_tile(free), tile2=_tile(tile))
            )
        if tile not in orientations(free):
            raise Illegal(
                t("labyrinth.pushes_which_no_turn_free", label=label, tile=_tile(tile), tile2=_tile(free))
            )
    new_board, out = push(board, problem.cols, problem.rows, point, tile)
    if spec.falls_out is not None and spec.falls_out != out:
        raise Illegal(
            t(
                "labyrinth.says_falls_out_but_does",
                label=label,
                tile=_tile(spec.falls_out),
                text=point.text(),
                tile2=_tile(out),
            )
        )
    carried = carry(player, problem.cols, problem.rows, point)
    if spec.carried is not None:
        axis, to = spec.carried
        said = t("labyrinth.says_player_carried", label=label, axis=axis, to=to)
        if carried == player:
            raise Illegal(t("labyrinth.but_push_does_not_move", said=said, place=_place(problem, player)))
        r, c = divmod(carried, problem.cols)
        actual = c if axis == "column" else r
        if actual != to:
            raise Illegal(t("labyrinth.but_push_carries_them", said=said, r=r, c=c))
    return new_board, out, carried


def _position(problem: LabyrinthProblem, rc: tuple[int, int], label: str) -> int:
    """The position of a [row, col] of a walk (below the board: OUTSIDE; above it: EXITED)."""
    p = problem.puzzle
    r, c = rc
    if (r, c) == (problem.rows, p.start_col):
        return OUTSIDE
    if (r, c) == (-1, p.goal_col):
        return EXITED
    if not (0 <= r < problem.rows and 0 <= c < problem.cols):
        raise Illegal(
            t(
                "labyrinth.walks_through_off_x_board",
                label=label,
                r=r,
                c=c,
                rows=problem.rows,
                cols=problem.cols,
                start_col=p.start_col,
                goal_col=p.goal_col,
            )
        )
    return r * problem.cols + c


def _step_rule(problem: LabyrinthProblem, board: bytes, a: int, b: int, label: str) -> str:
    """Why a walk cannot step from ``a`` to ``b`` on ``board``, in words."""
    p = problem.puzzle
    cols = problem.cols
    if b == OUTSIDE:
        return t("labyrinth.steps_back_out_below_board", label=label)
    if a == OUTSIDE:
        if b != p.entry_cell:
            return t(
                "labyrinth.steps_from_below_board_onto",
                label=label,
                at=_at(problem, b),
                start_col=p.start_col,
            )
        return t(
            "labyrinth.enters_below_column_but_tile", label=label, start_col=p.start_col, tile=_tile(board[b])
        )
    if b == EXITED:
        if a != p.exit_cell:
            return t(
                "labyrinth.leaves_board_from_way_out", label=label, at=_at(problem, a), goal_col=p.goal_col
            )
        return t(
            "labyrinth.leaves_above_column_but_tile", label=label, goal_col=p.goal_col, tile=_tile(board[a])
        )
    if a == EXITED:
        return t("labyrinth.walks_on_after_player_has", label=label)
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    if abs(ra - rb) + abs(ca - cb) != 1:
        return t("labyrinth.steps_from_which_are_not", label=label, ra=ra, ca=ca, rb=rb, cb=cb)
    mine, theirs = {(-1, 0): ("top", "bottom"), (1, 0): ("bottom", "top"), (0, -1): ("left", "right"),
                    (0, 1): ("right", "left")}[(rb - ra, cb - ca)]
    step = t("labyrinth.steps_from_but", label=label, ra=ra, ca=ca, rb=rb, cb=cb)
    if not MASKS[board[a]] & _SIDES[mine]:
        return t("labyrinth.at_closed_on_2", step=step, tile=_tile(board[a]), ra=ra, ca=ca, mine=mine)
    return t("labyrinth.at_closed_on", step=step, tile=_tile(board[b]), rb=rb, cb=cb, theirs=theirs)


def _walk(problem: LabyrinthProblem, board: bytes, player: int, move: Move, label: str) -> int:
    walker = problem.walker
    p = problem.puzzle
    if move.route is not None:
        route = [_position(problem, rc, label) for rc in move.route]
        if route[0] != player:
            raise Illegal(
                t(
                    "labyrinth.walk_starts_but_player",
                    label=label,
                    place=_place(problem, route[0]),
                    place2=_place(problem, player),
                )
            )
        for a, b in pairwise(route):
            if b not in walker.neighbours(board, a):
                raise Illegal(_step_rule(problem, board, a, b, label), b, a)
        return route[-1]
    here = player
    for kind, data in move.pieces:
        if kind == "enter":
            column, onto = data
            if here != OUTSIDE:
                raise Illegal(
                    t("labyrinth.enters_board_but_player", label=label, place=_place(problem, here))
                )
            if column != p.start_col:
                raise Illegal(
                    t(
                        "labyrinth.enters_below_column_player_stands",
                        label=label,
                        column=column,
                        start_col=p.start_col,
                    )
                )
            target = _position(problem, onto, label)
            if target not in walker.neighbours(board, OUTSIDE) or target != p.entry_cell:
                raise Illegal(_step_rule(problem, board, OUTSIDE, target, label), target, OUTSIDE)
            here = target
        elif kind == "walk":
            start, end = (_position(problem, rc, label) for rc in data)
            if start != here:
                raise Illegal(
                    t(
                        "labyrinth.walks_from_but_player",
                        label=label,
                        at=_at(problem, start),
                        place=_place(problem, here),
                    )
                )
            if start < 0 or end < 0:
                raise Illegal(
                    t(
                        "labyrinth.walks_from_walk_in_words",
                        label=label,
                        at=_at(problem, start),
                        at2=_at(problem, end),
                    )
                )
            if end not in walker.reach(board, here):
                raise Illegal(
                    t(
                        "labyrinth.walks_from_but_no_open",
                        label=label,
                        at=_at(problem, start),
                        at2=_at(problem, end),
                    ),
                    end,
                    here,
                )
            here = end
        else:
            if data != p.goal_col:
                raise Illegal(
                    t("labyrinth.leaves_above_column_way_out", label=label, data=data, goal_col=p.goal_col)
                )
            if here < 0:
                raise Illegal(
                    t("labyrinth.leaves_board_but_player", label=label, place=_place(problem, here))
                )
            if EXITED not in walker.neighbours(board, here):
                raise Illegal(_step_rule(problem, board, here, EXITED, label), EXITED, here)
            here = EXITED
    return here
