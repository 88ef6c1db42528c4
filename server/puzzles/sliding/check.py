"""Checking a student's answer to a sliding-tile puzzle (issue 19's checker on issue 20's family).

Notations, detected from the text (``check_sliding_solution``):

* **moves of the blank**: letters ``U D L R`` (or words ``up down left right``), with or without spaces
  or commas between them (``UULDR``, ``U, U, L``), ``#`` comments; the blank goes that way;
* **moves of the tiles**: the same after a first word ``tiles:`` (or ``tile:``); the tile next to the
  blank goes that way, so the blank goes the opposite way (``tiles: D`` is ``blank: U``). After
  ``tiles:`` a number names the tile that slides (``tiles: 7 2 4``). ``blank:`` marks the default;
* a **JSON list** of move letters (``["U", "L"]``) or of **boards** (each n² numbers, flat or as n rows),
  starting with the puzzle's board;
* the **JSON object printed by** ``run.py solve --json``: its ``path`` of boards.

A move is illegal when the blank would leave the board, when a numbered tile is not next to the blank,
or when a board is not one move from the one before; the first illegal move is named by its number
with the rule, and ``illegal`` says where the blank was and where it would go (``[row, col]``; ``to``
None when off the board). The cost is the number of moves, as ``solve --json`` counts it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ...i18n import t
from ..capabilities import Checker
from ..checking import CheckResult, replay_json, solve_json, where
from ..errors import PuzzleError, show_value
from ..jsonfile import read_value
from ..options import Values
from .model import MOVES, OPPOSITE, SlidingBoard
from .problem import SlidingProblem

MAX_MOVES = 100_000  # far more than any optimal solution (the 24-puzzle's longest is ~200)
WORDS = {"u": "U", "up": "U", "d": "D", "down": "D", "l": "L", "left": "L", "r": "R", "right": "R"}
DIRECTION_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}
_MARKER = re.compile(r"\s*(tiles?|blank)\b\s*:?", re.IGNORECASE)
_TOKEN = re.compile(r"[^\s,;]+")
NOTATIONS = (
    "sliding.moves_blank_u_d_l"
)

# A move: ("blank", "U") — the blank's direction — or ("tile", 7) — the tile that slides; and where it was
# written (an offset in the text, or an item's label): made into "line L, column C" only for an error, since
# counting lines for every move of a long answer would take quadratic time.
Move = tuple[str, Any, Any]


class SlidingChecker(Checker):
    """Moves of the blank or of the tiles, a JSON list of boards, or ``solve --json``."""

    notation = "sliding.blank_moves_u_d_l"

    def check(self, puzzle: SlidingBoard, text: str, options: Values) -> CheckResult:
        return check_sliding_solution(self.family, puzzle, text, options)


def board_text(tiles: Any) -> str:
    """A board in the family's notation: its rows, "_" for the blank, "7 2 4 / 5 _ 6 / 8 3 1"
    (SlidingFamily.state_text; the page's sliding_mini.js ``boardText`` writes the same)."""
    values = [int(t) for t in tiles]
    n = max(1, math.isqrt(len(values)))
    rows = [" ".join(str(t) if t else "_" for t in values[r : r + n]) for r in range(0, len(values), n)]
    return " / ".join(rows)


def check_sliding_solution(family: Any, board: SlidingBoard, text: str, options: Values) -> CheckResult:
    """Replay the answer in ``text`` (any notation above); raises PuzzleError when the text is in no
    notation, naming the line and column or the item at fault."""
    problem = family.problem(board, options)
    assert isinstance(problem, SlidingProblem)
    body = text.removeprefix("\ufeff")
    head = body.lstrip()
    if not head:
        raise PuzzleError(t("sliding.solution_empty_expected", notations=t(NOTATIONS)), t("sliding.file"))
    if head[0] in "[{(":  # JSON, or the same list as Python prints it
        value = read_value(body)
        if isinstance(value, dict):
            return walk_boards(family, board, problem, _from_result(value, board), options)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            moves = [_letter(v, t("sliding.item", i=i)) for i, v in enumerate(value)]
            listed: list[Move] = [("blank", m, t("sliding.item", i=i)) for i, m in enumerate(moves)]
            return walk_moves(family, board, problem, listed, options)
        return walk_boards(family, board, problem, _boards(value, board.n, "item"), options)
    return walk_moves(family, board, problem, read_moves(body), options)


# ---- reading the notations ------------------------------------------------------------------------
def _letter(token: str, at: str) -> str:
    move = WORDS.get(token.lower())
    if move is None:
        raise PuzzleError(t("sliding.no_move_expected_u_d", token=repr(token[:20])), at)
    return move


def read_moves(text: str) -> list[Move]:
    """The moves of the text notations, each as the blank's or a tile's, with where it was written."""
    lines = [line.split("#", 1)[0] for line in text.split("\n")]
    body = "\n".join(lines)
    marker = _MARKER.match(body)
    mode = "blank"
    start = 0
    if marker is not None:
        mode = "blank" if marker.group(1).lower() == "blank" else "tile"
        start = marker.end()
    moves: list[Move] = []
    for match in _TOKEN.finditer(body, start):
        token, at = match.group(), match.start()
        if token.isdigit() and token.isascii():
            if mode != "tile":
                raise PuzzleError(
                    t("sliding.number_names_tile_after_first", token=repr(token[:12])),
                    where(text, at),
                )
            moves.append(("tile", int(token[:4]), at))
        elif token.lower() in WORDS:
            moves.append((mode, WORDS[token.lower()], at))
        elif token.isalpha() and all(ch in "UDLRudlr" for ch in token):
            if len(moves) + len(token) > MAX_MOVES:
                raise PuzzleError(t("sliding.more_than_moves", max_moves=MAX_MOVES), where(text, at))
            moves.extend((mode, ch.upper(), at + i) for i, ch in enumerate(token.upper()))  # "UULDR"
        else:
            raise PuzzleError(
                t("sliding.no_move_expected_u_d_2", token=repr(token[:20])),
                where(text, at),
            )
        if len(moves) > MAX_MOVES:
            raise PuzzleError(t("sliding.more_than_moves", max_moves=MAX_MOVES), where(text, at))
    if not moves:
        raise PuzzleError(t("sliding.no_moves_expected", notations=t(NOTATIONS)), t("sliding.file"))
    return moves


def _boards(value: Any, n: int, label: str) -> list[bytes]:
    """A JSON list of boards, each n² numbers, flat or as n rows."""
    if not isinstance(value, list) or not value:
        raise PuzzleError(
            t("sliding.expected_list_boards_each_numbers", value=n * n, value2=show_value(value)),
            t("sliding.file"),
        )
    if len(value) > MAX_MOVES:
        raise PuzzleError(
            t("sliding.boards_more_than", n_value=len(value), max_moves=MAX_MOVES), t("sliding.file")
        )
    boards = []
    for i, item in enumerate(value):
        flat = item
        if isinstance(item, list) and len(item) == n and all(isinstance(row, list) for row in item):
            flat = [x for row in item for x in row]
        ok = (
            isinstance(flat, list)
            and len(flat) == n * n
            and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < n * n for x in flat)
        )
        if not ok or len(set(flat)) != n * n:
            raise PuzzleError(
                t("sliding.expected_board_x_numbers_0", n=n, value=n * n - 1, item=show_value(item)),
                f"{label} {i}",
            )
        boards.append(bytes(flat))
    return boards


def _from_result(value: dict[str, Any], board: SlidingBoard) -> list[bytes]:
    """``run.py solve --json``'s object: its ``path`` of boards."""
    return _boards(
        solve_json(value, "sliding", t("sliding.sliding_tile_puzzle")), board.n, t("sliding.path_item")
    )


# ---- the rules ------------------------------------------------------------------------------------
def _place(cell: int, n: int) -> list[int]:
    return list(divmod(cell, n))


def walk_moves(
    family: Any, board: SlidingBoard, problem: SlidingProblem, moves: list[Move], options: Values
) -> CheckResult:
    """Follow the moves from the board; the first that breaks a rule is named."""
    n = board.n
    table = [dict(row) for row in problem.moves]
    state = bytearray(board.tiles)
    states = [bytes(state)]
    why: str | None = None
    bad: int | None = None
    illegal: dict[str, Any] | None = None
    for number, (mode, what, _at) in enumerate(moves, start=1):
        blank = state.index(0)
        br, bc = divmod(blank, n)
        if mode == "tile" and isinstance(what, int):
            cell = next((c for c, t in enumerate(state) if t == what), None)
            if cell is None or what == 0:
                why = t("sliding.move_there_no_tile_on", number=number, what=what, n=n, value=n * n - 1)
            elif cell not in table[blank].values():
                r, c = divmod(cell, n)
                why = (
                    t("sliding.move_tile_at_row_col", number=number, what=what, r=r, c=c, br=br, bc=bc)
                )
                illegal = {"from": [br, bc], "to": [r, c]}
            if why:
                bad = number
                break
        else:
            # A tile goes one way, the blank the other.
            direction = what if mode == "blank" else OPPOSITE[what]
            cell = table[blank].get(direction)
            if cell is None:
                said = (
                    t(
                        "sliding.blank_moves",
                        direction_words=t(f"sliding.direction.{DIRECTION_WORDS[direction]}"),
                    )
                    if mode == "blank"
                    else t(
                        "sliding.tile_slides_into_blank_so",
                        direction_words=t(f"sliding.direction.{DIRECTION_WORDS[what]}"),
                        direction_words2=t(f"sliding.direction.{DIRECTION_WORDS[direction]}"),
                    )
                )
                why = (
                    t("sliding.move_but_it_at_row", number=number, what=what, said=said, br=br, bc=bc, n=n)
                )
                bad = number
                step = next((dr, dc) for name, dr, dc in MOVES if name == direction)
                illegal = {"from": [br, bc], "to": None, "off_board": [br + step[0], bc + step[1]]}
                break
        state[blank], state[cell] = state[cell], 0
        states.append(bytes(state))
    return _verdict(family, board, problem, states, len(moves), why, bad, illegal, options)


def walk_boards(
    family: Any, board: SlidingBoard, problem: SlidingProblem, boards: list[bytes], options: Values
) -> CheckResult:
    """Follow a list of boards: the first must be the puzzle's, each next one a single move away."""
    moves = len(boards) - 1
    if boards[0] != board.tiles:
        return CheckResult(
            False,
            None,
            moves,
            None,
            t(
                "sliding.answer_starts_with_board_not",
                board_text=board_text(boards[0]),
                board_text2=board_text(board.tiles),
            ),
        )
    states = [boards[0]]
    why: str | None = None
    bad: int | None = None
    illegal: dict[str, Any] | None = None
    for number in range(1, len(boards)):
        a, b = boards[number - 1], boards[number]
        if problem.move_between(a, b) is None:
            why = t(
                "sliding.move_board_not_one_move",
                number=number,
                board_text=board_text(b),
                value=number - 1,
                board_text2=board_text(a),
            )
            bad = number
            illegal = {"from": _place(a.index(0), board.n), "to": _place(b.index(0), board.n)}
            break
        states.append(b)
    return _verdict(family, board, problem, states, moves, why, bad, illegal, options)


def _verdict(
    family: Any,
    board: SlidingBoard,
    problem: SlidingProblem,
    states: list[bytes],
    moves: int,
    why: str | None,
    bad: int | None,
    illegal: dict[str, Any] | None,
    options: Values,
) -> CheckResult:
    reached = not why and problem.is_goal(states[-1])
    if not why and not reached:
        off = sum(1 for a, b in zip(states[-1], board.goal, strict=True) if a and a != b)
        why = t("sliding.moves_end_on_board_that", off=off, value=t("sliding.plural.tile", count=off))
    cost = float(len(states) - 1)
    replay = replay_json(family, board, problem, states, cost, options, reached)
    path = [problem.state_to_json(s) for s in states]
    return CheckResult.walked(why, cost, moves, path, replay, bad, illegal)
