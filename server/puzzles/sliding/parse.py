"""Sliding-tile files (``../shared/PUZZLES.md`` §5, docs/SLIDING.md), errors naming what and where.

Text: n² numbers, 0 (or ``_``) the blank, on one line (Korf's format), on one line with ``/`` between
the rows (``7 2 4 / 5 0 6 / 8 3 1``, as a textbook prints a board) or in n rows of n, separated by
spaces, tabs or commas (a Python list or tuple of them, flat or in rows, reads the same: brackets and
parentheses separate too); ``#`` starts a comment to the end of its line (a Markdown fence line is
skipped); a ``start:`` label may come first. The goal follows an optional marker, ``goal:`` (or
``ziel:``) or an arrow (``->``, ``=>``, ``→``), in the same form, on the marker's line or on the next
lines; a second one-line board after a one-line board (two lines, n² numbers each) is the goal too.
Without a goal the goal is 1 .. n²-1 then the blank (``../shared/PUZZLES.md`` §5), for every form:
when that goal cannot be reached by parity and the goal with the blank first can (on the 15-puzzle
exactly one of the two can), the refusal names it. n is 3, 4 or 5, read from the count.

JSON: ``{"family": "sliding", "n": 3, "tiles": [9 ints], "goal": [9 ints], "name": "..."}``; ``tiles``
and ``goal`` flat or as n rows; every field but ``tiles`` optional.

A board the goal cannot be reached from is refused here, by parity (``model.unsolvable_reason``), in
one line, before anything searches it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...i18n import t
from ..capabilities import TextOrJsonSaver
from ..errors import PuzzleError, show_value
from ..jsonfile import read_json
from .model import (
    SIZES,
    SlidingBoard,
    default_goal,
    is_solvable,
    rows_text,
    unsolvable_reason,
)

MAX_FILE_BYTES = 100_000  # a 5 x 5 board is ~75 bytes: the rest could only be comments
MAX_NUMBERS = 25  # numbers in one board: more is refused before any more are read
COUNTS = {n * n: n for n in SIZES}
COUNTS_TEXT = "9, 16 or 25 numbers (a 3 x 3, 4 x 4 or 5 x 5 board)"
_GOAL = re.compile(r"(?:goal|ziel)\s*:|->|=>|→", re.IGNORECASE)
_START = re.compile(r"\s*start\s*:", re.IGNORECASE)
_FENCE = re.compile(r"\s*(?:```|~~~)")
_TOKEN = re.compile(r"[^\s,/\[\]()]+")  # brackets separate too: a Python list or tuple of the numbers
BLANK_MARK = "_"  # the blank as explain and a textbook print it (7 _ 4 / 5 2 6 / 8 3 1)


@dataclass(frozen=True)
class Number:
    """One number of a text file and where it was."""

    value: int
    line: int  # 1-based
    column: int  # 1-based

    @property
    def where(self) -> str:
        return t("sliding.line_column", line=self.line, column=self.column)


@dataclass
class Section:
    """The numbers of the board or of the goal, by line."""

    what: str  # "the board" or "the goal"
    lines: list[list[Number]]  # its rows: one a line, or one between '/'s
    where: str  # where it begins, for errors about the whole section
    slashed: bool = False  # rows written on a line with '/' between them

    @property
    def numbers(self) -> list[Number]:
        return [number for line in self.lines for number in line]


def _strip_comment(line: str) -> str:
    return "" if _FENCE.match(line) else line.split("#", 1)[0]


def read_sections(text: str) -> tuple[Section, Section | None]:
    """The board's numbers and the goal's (None when the file gives no goal); raises PuzzleError for a
    token that is no number, naming its line and column, or for too many numbers."""
    board = Section(t("sliding.board"), [], "line 1")
    goal: Section | None = None
    current = board
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = _strip_comment(raw)
        label = _START.match(line)
        if label is not None:  # "start:": a label, blanked so that columns stay where they are
            line = " " * label.end() + line[label.end() :]
        offset = 0
        marker = _GOAL.search(line)
        if marker is not None:
            if goal is not None:
                raise PuzzleError(t("sliding.second_file_has_one_goal", group=repr(marker.group())),
                                  t("sliding.line_column_4", number=number, value=marker.start() + 1))
            before = line[: marker.start()]
            if before.strip():
                _rows(before, number, 0, current)  # a board on the marker's line: read it first
            goal = current = Section(t("sliding.goal"), [], t("sliding.line_2", number=number))
            line, offset = line[marker.end() :], marker.end()
            again = _GOAL.search(line)
            if again is not None:
                raise PuzzleError(t("sliding.second_file_has_one_goal", group=repr(again.group())),
                                  t("sliding.line_column_4", number=number, value=offset + again.start() + 1))
        _rows(line, number, offset, current)
    if goal is None:
        goal = _second_board(board)
    return board, goal


def _second_board(board: Section) -> Section | None:
    """The goal of a file of two one-line boards (each line n² numbers, '/'s or not), taken from the
    board; None for any other file."""
    by_line: dict[int, list[list[Number]]] = {}
    for row in board.lines:
        by_line.setdefault(row[0].line, []).append(row)
    counts = [sum(len(row) for row in rows) for rows in by_line.values()]
    if len(by_line) != 2 or counts[0] != counts[1] or counts[0] not in COUNTS:
        return None
    first, second = by_line.values()
    board.lines = first
    return Section(t("sliding.goal"), second, t("sliding.line", line=second[0][0].line), board.slashed)


def _rows(text: str, line: int, offset: int, section: Section) -> None:
    """A line's numbers into ``section``: one row, or one row per part between '/'s."""
    if "/" not in text:
        _numbers(text, line, offset, section)
        return
    start = 0
    for part in text.split("/"):
        if not part.strip():
            at = offset + start + len(part) + 1
            raise PuzzleError(
                t("sliding.no_numbers_between_two_goes"), t("sliding.line_column_3", line=line, at=at)
            )
        _numbers(part, line, offset + start, section)
        start += len(part) + 1
    section.slashed = True


def _numbers(text: str, line: int, offset: int, section: Section) -> None:
    found: list[Number] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        where = t("sliding.line_column_2", line=line, value=offset + match.start() + 1)
        if token == BLANK_MARK:
            token = "0"
        if not token.isdigit() or not token.isascii():
            raise PuzzleError(t("sliding.not_tile_number_whole_numbers", token=repr(token[:20])), where)
        if len(section.numbers) + len(found) >= MAX_NUMBERS:
            raise PuzzleError(
                t(
                    "sliding.more_than_numbers_in_expected",
                    max_numbers=MAX_NUMBERS,
                    what=section.what,
                    counts_text=COUNTS_TEXT,
                ),
                where,
            )
        if len(token) > 3:  # no board holds such a number (and int() of megabytes of digits is slow)
            raise PuzzleError(t("sliding.out_range_tile_numbers_go", token=token[:12]), where)
        found.append(Number(int(token), line, offset + match.start() + 1))
    if found:
        section.lines.append(found)


def _size(section: Section, n: int | None) -> int:
    """n from the count of numbers (and, for the goal, the board's n); checks the layout of rows."""
    numbers = section.numbers
    count = len(numbers)
    if n is not None and count != n * n:
        raise PuzzleError(
            t("sliding.has_numbers_and_board_x", what=section.what, count_=count, n=n, value=n * n),
            section.where,
        )
    if n is None:
        if count not in COUNTS:
            if count == 0:
                raise PuzzleError(
                    t("sliding.no_numbers_expected_0_blank", counts_text=COUNTS_TEXT), t("sliding.file")
                )
            raise PuzzleError(
                t(
                    "sliding.has_number_expected",
                    what=section.what,
                    count_=count,
                    value=t("sliding.plural.number", count=count),
                    counts_text=COUNTS_TEXT,
                ),
                section.where,
            )
        n = COUNTS[count]
    if len(section.lines) > 1:  # rows: n of n each (one line of n² is Korf's format)
        for line in section.lines:
            if len(line) != n:
                where = line[0].where if section.slashed else t("sliding.line", line=line[0].line)
                raise PuzzleError(
                    t(
                        "sliding.row_number_in_x_board",
                        n_line=len(line),
                        value=t("sliding.plural.number", count=len(line)),
                        what=section.what,
                        n=n,
                        value2=n * n,
                    ),
                    where,
                )
    return n


def _tiles(values: list[int], n: int, what: str, where_of: Any) -> bytes:
    """Checks that ``values`` hold 0 .. n²-1 once each; ``where_of(i)`` names item i."""
    last = n * n - 1
    seen: dict[int, int] = {}
    for i, value in enumerate(values):
        if not 0 <= value <= last:
            raise PuzzleError(
                t("sliding.out_range_in_x_board", value=value, what=what, n=n, last=last), where_of(i)
            )
        if value in seen:
            raise PuzzleError(
                t(
                    "sliding.appears_twice_in_also_at",
                    value=value,
                    what=what,
                    where_of=where_of(seen[value]),
                    last=last,
                ),
                where_of(i),
            )
        seen[value] = i
    return bytes(values)  # n² distinct numbers in 0..n²-1: none is missing


def _check_solvable(tiles: bytes, goal: bytes, n: int, given: bool, form: str) -> None:
    """PuzzleError when the goal cannot be reached by parity, naming the other usual goal when the board
    can reach that one (``given``: the file gave its goal; ``form``: "text" or "json", how to give it)."""
    reason = unsolvable_reason(tiles, goal, n)
    if reason:
        raise PuzzleError(reason + _other_goal(tiles, goal, n, given, form), t("sliding.board_2"))


def _other_goal(tiles: bytes, goal: bytes, n: int, given: bool, form: str) -> str:
    """The sentence naming the usual goal (the blank first or last) this board does reach, when its own is
    the other one; "" otherwise (on a 3 x 3 or 5 x 5 board both have the same parity)."""
    first, last = bytes(range(n * n)), default_goal(n)
    other = first if goal == last else last if goal == first else None
    if other is None or not is_solvable(tiles, other, n):
        return ""
    mine = _goal_words(goal, n) if given else t("sliding.default") + _goal_words(goal, n)
    numbers = " ".join(str(t) for t in other)
    listed = numbers.replace(" ", ", ")
    how = t("sliding.add_line_goal", numbers=numbers) if form == "text" else f'give "goal": [{listed}]'
    return t("sliding.that_was_this_board_does", mine=mine, goal_words=_goal_words(other, n), how=how)


def _goal_words(goal: bytes, n: int) -> str:
    if goal == bytes(range(n * n)):
        return t("sliding.goal_with_blank_first_0", value=n * n - 1)
    return t("sliding.goal_1_then_blank", value=n * n - 1)


def parse_sliding_text(text: str, name: str) -> SlidingBoard:
    """The text form (module docstring)."""
    board, goal = read_sections(text)
    n = _size(board, None)
    numbers = board.numbers
    tiles = _tiles([x.value for x in numbers], n, t("sliding.board"), lambda i: numbers[i].where)
    # The one-line '/' form is the textbooks' (AIMA's figures, Korf's tables), whose goal puts the blank
    # first: a bare line gets that goal, the other text forms the family's default (docs/SLIDING.md).
    goal_tiles = bytes(range(n * n)) if board.slashed else default_goal(n)
    if goal is not None:
        _size(goal, n)
        given = goal.numbers
        goal_tiles = _tiles([x.value for x in given], n, t("sliding.goal"), lambda i: given[i].where)
    _check_solvable(tiles, goal_tiles, n, goal is not None, "text")
    if board.slashed:
        layout = t("sliding.one_line_between_rows")
    else:
        layout = t("sliding.one_line") if len(board.lines) == 1 else t("sliding.n_rows", n=n)
    notes = _notes(n, goal_tiles, t("sliding.text_layout", layout=layout), goal is not None)
    return SlidingBoard(n, tiles, goal_tiles, name, notes, "text")


def parse_sliding_json(text: str, name: str) -> SlidingBoard:
    """The project's JSON (module docstring)."""
    data = read_json(text)
    if not isinstance(data, dict):
        raise PuzzleError(
            t("sliding.expected_object_with_tiles_got", name=type(data).__name__), t("sliding.file")
        )
    family = data.get("family", "sliding")
    if family != "sliding":
        raise PuzzleError(
            t("sliding.expected_sliding_got", family=show_value(family)), t("sliding.field_family")
        )
    if "tiles" not in data:
        raise PuzzleError(t("sliding.expected_board_numbers_row_by"), t("sliding.field_tiles"))
    given_n = data.get("n")
    if given_n is not None and (isinstance(given_n, bool) or given_n not in SIZES):
        raise PuzzleError(t("sliding.expected_3_4_or_5", given_n=show_value(given_n)), t("sliding.field_n"))
    values = _json_numbers(data["tiles"], "tiles", given_n)
    n = COUNTS[len(values)]
    if given_n is not None and given_n != n:
        raise PuzzleError(t("sliding.numbers_make_x_board_and", n_values=len(values), n=n, given_n=given_n),
                          t("sliding.field_tiles"))
    tiles = _tiles(values, n, t("sliding.board"), lambda i: t("sliding.field_tiles_item", i=i))
    goal = default_goal(n)
    if data.get("goal") is not None:
        goal_values = _json_numbers(data["goal"], "goal", n)
        if len(goal_values) != n * n:
            raise PuzzleError(
                t("sliding.goal_has_numbers_and_board", n_goal_values=len(goal_values), n=n, value=n * n),
                t("sliding.field_goal"),
            )
        goal = _tiles(goal_values, n, t("sliding.goal"), lambda i: t("sliding.field_goal_item", i=i))
    given = data.get("name")
    if given is not None and not isinstance(given, str):
        raise PuzzleError(t("sliding.expected_text_got", given=show_value(given)), t("sliding.field_name"))
    _check_solvable(tiles, goal, n, data.get("goal") is not None, "json")
    notes = _notes(n, goal, "JSON", data.get("goal") is not None)
    return SlidingBoard(n, tiles, goal, (given or name)[:80], notes, "json")


def _json_numbers(value: Any, key: str, n: int | None) -> list[int]:
    """A flat list of whole numbers, or a list of rows of them."""
    where = t("sliding.field", key_=key)
    if not isinstance(value, list) or not value:
        raise PuzzleError(t("sliding.expected_list_numbers_got", value=show_value(value)), where)
    if all(isinstance(row, list) for row in value):  # rows
        flat = []
        for r, row in enumerate(value):
            if len(row) != len(value):
                raise PuzzleError(
                    t("sliding.row_numbers_in_board_rows", n_row=len(row), n_value=len(value)),
                    t("sliding.row", where=where, r=r),
                )
            flat.extend(row)
        value = flat
    if len(value) not in COUNTS:
        raise PuzzleError(t("sliding.numbers_expected", n_value=len(value), counts_text=COUNTS_TEXT), where)
    for i, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int):
            raise PuzzleError(
                t("sliding.expected_whole_number_got", item=show_value(item)),
                t("sliding.item_2", where=where, i=i),
            )
        if not -1 < item < 1000:
            last = (n or COUNTS[len(value)]) ** 2 - 1
            raise PuzzleError(t("sliding.out_range_0_blank_2", item=show_value(item), last=last),
                              t("sliding.item_2", where=where, i=i))
    return list(value)


def _notes(n: int, goal: bytes, source: str, given: bool) -> tuple[str, ...]:
    if goal == default_goal(n):
        where = t("sliding.goal_1_then_blank_2", value=n * n - 1) + (
            "" if given else t("sliding.default_no_goal_given")
        )
    elif goal == bytes(range(n * n)):
        where = t("sliding.goal_blank_first_then_1", value=n * n - 1)
        where += "" if given else t("sliding.one_line_form_default_aima")
    else:
        where = t("sliding.goal_its_own_arrangement")
    return (t("sliding.read_as", source=source), where)


def board_to_text(board: SlidingBoard) -> str:
    """The text form: n rows, and the goal's rows after 'goal:' when it is not the default."""
    lines = rows_text(board.tiles, board.n)
    if board.goal != default_goal(board.n):
        lines += ["goal:", *rows_text(board.goal, board.n)]
    return "\n".join(lines) + "\n"


def board_to_json(board: SlidingBoard) -> dict[str, Any]:
    return {"family": "sliding", "name": board.name, "n": board.n, "tiles": list(board.tiles),
            "goal": list(board.goal)}


def sniff_text(text: str) -> float:
    """How sure the text is a sliding-tile board: sure for 9/16/25 distinct numbers (with or without a
    goal); fairly sure for a 'goal:' file of numbers or numbers with '/' between rows (so that this
    family's parser names the slip); a little for a near-count of numbers alone."""
    slashed = _slash_board(text) if "/" in text else 0.0  # numbers with '/' between rows
    try:
        board, goal = read_sections(text)
    except PuzzleError:
        return slashed
    values = [x.value for x in board.numbers]
    if not values:
        return 0.0
    if len(values) in COUNTS and len(set(values)) == len(values):
        return 0.96
    if goal is not None and goal.numbers:
        return 0.9
    if slashed:
        return slashed  # the parser names what is wrong
    if 8 <= len(values) <= MAX_NUMBERS and len(board.lines) in (1, round(len(values) ** 0.5)):
        return 0.45  # numbers alone, in a board's shape: the parser names what is wrong
    return 0.0


def _slash_board(text: str) -> float:
    """How sure a text with '/'s is a board in the slash form: 0.85 when it holds at least 8 numbers and
    nothing else (but '_', the goal's marker and a 'start:' label); 0.5, a guess, when three words in
    four are such numbers (a typo among them); else 0."""
    words = [_GOAL.sub(" ", _START.sub(" ", _strip_comment(line))) for line in text.splitlines()]
    tokens = _TOKEN.findall(" ".join(words))
    numbers = sum(1 for token in tokens if token.isdigit() or token == BLANK_MARK)
    if numbers < 8:
        return 0.0
    return 0.85 if numbers == len(tokens) else 0.5 if 4 * numbers >= 3 * len(tokens) else 0.0


class SlidingSaver(TextOrJsonSaver):
    """Text (Korf's line or rows, with a ``goal:`` line where the goal is not the default) or JSON."""

    def to_text(self, puzzle: SlidingBoard) -> str:
        return board_to_text(puzzle)

    def to_json(self, puzzle: SlidingBoard) -> dict[str, Any]:
        return board_to_json(puzzle)
