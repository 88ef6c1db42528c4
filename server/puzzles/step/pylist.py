"""Seed 003's maze as Python prints it or as its notebook writes it: a list of rows of one-character
strings, read by a tokenizer (never ``eval``), every error naming its line and column.

    maze = [                               the notebook's cell (the name and '=' optional)
      ['S', ' ', ' ', ' ', ' ', ' '],
      ['X', 'X', 'X', 'X', 'X', 'X'],
    ]

        0    1    2    3    4    5         the seed's printed form: an index row above the list
    0[['S', ' ', ' ', ' ', ' ', ' '],      and each row's number before it (both optional)
    1 ['X', 'X', 'X', 'X', 'X', 'X'],

Cells are 'S' start, 'Z' goal, 'X' marked, ' ' (or '.', or '') blank, in single or double quotes; a
row may also be one string ("S....."); tuples may stand for lists; a trailing comma is fine. Lines
that hold no maze are skipped wherever they are: blank lines, ``#`` comments (and so Markdown
headings), Markdown fences (```` ```python ````), a notebook's ``In [1]:`` and ``import`` lines.
Every row needs as many cells as the first (a short row of a list is a slip, not padding).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from ...i18n import t
from ..errors import PuzzleError

MAX_SIDE = 1_000  # rows or cells in a row (parse.MAX_SIDE; checked while reading, before the rest)
CELL_WORDS = "step.one_character_strings_such_as"
_SKIPPED_LINE = re.compile(
    r"[ \t]*(?:\#.*|```.*|~~~.*|(?:In|Out)[ \t]*\[[ \t]*\d*[ \t]*\]:[ \t]*"
    r"|import[ \t]+\S.*|from[ \t]+\S+[ \t]+import\b.*)\r?$"
)
# Each token with the spaces before it (one match a token: half as many matches as spaces apart).
_TOKEN = re.compile(
    r"""[ \t\r\f\v]*(?:(?P<newline>\n)|(?P<comment>\#[^\n]*)|(?P<end>\Z)
    |(?P<string>'[^'\\\n]*'|"[^"\\\n]*")|(?P<quote>['"])
    |(?P<open>[\[(])|(?P<close>[\])])|(?P<comma>,)|(?P<number>\d+)|(?P<name>[A-Za-z_]\w*)|(?P<equals>=)
    |(?P<other>.))""",
    re.VERBOSE,
)
_CLOSING = {"[": "]", "(": ")"}
_TROUBLE = frozenset(("end", "quote", "other"))  # tokens ``take`` looks at twice
_FENCE = re.compile(r"[ \t]*(?:```|~~~)")
_MARKED_CELL = re.compile(r"""['"](?:X|Z)['"]|\[\s*['"][SXZ. ]+['"]""")  # a cell 'X' or 'Z', or a row "S..X"
_BLANK_CELLS = {" ": " ", ".": " ", "": " "}
_MARK_CELLS = {"S", "X", "Z"}
# The first line that holds anything but skipped lines starts a list: a bracket (maybe after a row
# number), a name and '=', or an index row of numbers alone.
_LIST_START = re.compile(
    r"[ \t]*(?:\d+[ \t]*)?[\[(]|[ \t]*[A-Za-z_]\w*[ \t]*=|[ \t]*\d+(?:[ \t]+\d+)*[ \t]*\r?$"
)


class Token(NamedTuple):
    """One token and where it starts (a tuple: a large list has hundreds of thousands)."""

    kind: str
    text: str
    line: int  # 1-based
    column: int  # 1-based
    first: bool  # the first token on its line

    @property
    def where(self) -> str:
        return t("step.line_column", line=self.line, column=self.column)

    @property
    def shown(self) -> str:
        return repr(self.text[:20]) if self.kind != "end" else t("step.end_text")


class _CutShort(Exception):
    """The text ended inside the list: an error for a file, expected of a sniffer's sample."""


@dataclass
class ListRows:
    """What the list held: its rows as text ('S', 'Z', 'X', ' '), where each cell was, and how it was
    written (for the board's notes)."""

    rows: list[str] = field(default_factory=list)
    lines: array = field(default_factory=lambda: array("I"))  # each cell's line, row-major
    columns: array = field(default_factory=lambda: array("I"))
    row_starts: list[int] = field(default_factory=list)  # index of each row's first cell
    name: str | None = None  # the variable's name of the notebook's 'name = [...]'
    index_row: bool = False
    row_numbers: bool = False
    block: tuple[int, int] | None = None  # the fenced block read, of a document with more around it

    def where(self, row: int, col: int | None = None) -> str:
        """A cell's place in the text ("line 3, column 8"), or its row's first cell's line."""
        i = self.row_starts[row] + (col or 0)
        if col is None:
            return t("step.line_2", lines=self.lines[i])
        return t("step.line_column_2", lines=self.lines[i], columns=self.columns[i])

    def describe(self) -> str:
        """How the list was written, for the board's notes ("read as …")."""
        numbers = {(True, True): "its index row and column", (True, False): "its index row",
                   (False, True): "its row numbers"}.get((self.index_row, self.row_numbers))
        if numbers:
            written = t("step.seed_003_printed_list_with", numbers=numbers)
        else:
            written = t("step.python_list", name=self.name) if self.name else t("step.python_list_2")
        if self.block:
            written += t("step.in_fenced_block_at_lines", block=self.block[0], block2=self.block[1])
        return written


def looks_like_list(text: str) -> bool:
    """Whether ``text`` is written as a list (this module) rather than as rows of marks, which hold only
    'S', 'X', 'Z', '.' and spaces: it holds a bracket or a quote, or its first line that is not skipped
    starts a list (a bracket, a name and '=', a row of index numbers)."""
    if any(mark in text for mark in "[('\""):
        return True
    for line in _lines(text):
        if line.strip():
            return bool(_LIST_START.match(line))
    return False


def read_list(text: str) -> ListRows:
    """The rows of a maze written as a list; PuzzleError naming line and column for anything else. In a
    document with Markdown fences (seed 003 itself), the first fenced block holding a list of 'X' or
    'Z' cells is read, the rest of the document blanked (line numbers stay the document's)."""
    text, block = _fenced_list(text)
    found = _Reader(text, complete=True).read()
    found.block = block
    return found


def sniff_list(text: str, complete: bool) -> float:
    """How sure ``text`` is a step maze written as a list: sure (0.96) when its rows read (a cut sample:
    at least one row, and nothing wrong before the cut) and hold a 'X' or 'Z'; 0.85 when a list of such
    cells has something wrong (the parser names it); else 0."""
    if not complete:
        text = text[: text.rfind("\n") + 1]  # the sample's last line may be cut anywhere
    if not looks_like_list(text):
        return 0.0
    text, _ = _fenced_list(text)
    reader = _Reader(text, complete=complete)
    try:
        found = reader.read()
    except _CutShort:
        return 0.96 if reader.marked and reader.found.rows else 0.0
    except PuzzleError:
        return 0.85 if reader.marked else 0.0
    return 0.96 if reader.marked and found.rows else 0.0


def _fenced_list(text: str) -> tuple[str, tuple[int, int] | None]:
    """``text`` with everything but its first fenced block that holds a step maze's list blanked, and
    that block's lines (1-based, its fences excluded) when anything else was blanked; ``text`` and None
    when no fenced block holds such a list (an unclosed fence, as in a cut sample, runs to the end)."""
    if "```" not in text and "~~~" not in text:
        return text, None
    lines = text.removeprefix("\ufeff").split("\n")
    fences = [i for i, line in enumerate(lines) if _FENCE.match(line)]
    blocks = list(zip(fences[::2], [*fences[1::2], len(lines)], strict=False))
    for opening, closing in blocks:
        body = lines[opening + 1 : closing]
        if _MARKED_CELL.search("\n".join(body)):
            outside = [line for i, line in enumerate(lines)
                       if not opening <= i <= closing and not _SKIPPED_LINE.fullmatch(line)]
            kept = [""] * (opening + 1) + body + [""] * (len(lines) - closing)
            more = any(line.strip() for line in outside)
            return "\n".join(kept), ((opening + 2, closing) if more else None)
    return text, None


def _lines(text: str) -> Iterator[str]:
    """The text's lines, each skipped line (fence, prompt, import) given as an empty line."""
    for line in text.removeprefix("\ufeff").split("\n"):
        yield "" if _SKIPPED_LINE.fullmatch(line) else line


class _Reader:
    """One pass over the tokens: [index row] [name '='] [row number] '[' rows ']'."""

    def __init__(self, text: str, complete: bool) -> None:
        self.complete = complete
        self.tokens = self._tokens("\n".join(_lines(text)))
        self.pushed: list[Token] = []  # tokens looked at and given back, the next last
        self.found = ListRows()
        self.marked = False  # a cell 'X' or 'Z' was read: this is a step maze's list
        self.numbers: list[tuple[Token, int]] = []  # each row number given, with the row it numbers

    # ---- tokens ----------------------------------------------------------------------------------
    @staticmethod
    def _tokens(text: str) -> Iterator[Token]:
        line, line_start, first = 1, 0, True
        for match in _TOKEN.finditer(text):
            kind = match.lastgroup
            if kind == "newline":
                line, line_start, first = line + 1, match.end(), True
                continue
            if kind == "comment" or kind == "end":
                continue
            start = match.start(kind)
            yield Token(kind, match.group(kind), line, start - line_start + 1, first)  # type: ignore[arg-type]
            first = False
        while True:
            yield Token("end", "", line, 1, True)

    def peek(self) -> Token:
        if not self.pushed:
            self.pushed.append(next(self.tokens))
        return self.pushed[-1]

    def take(self) -> Token:
        token = self.pushed.pop() if self.pushed else next(self.tokens)
        if token.kind not in _TROUBLE:
            return token
        if token.kind == "end" and not self.complete:
            raise _CutShort(t("step.sample_ended_inside_list"))
        if token.kind == "quote":
            raise PuzzleError(t("step.string_that_not_closed_on"), token.where)
        if token.kind == "other":
            raise PuzzleError(
                t("step.unexpected_in_maze_list_cells", shown=token.shown, cell_words=t(CELL_WORDS)),
                token.where,
            )
        return token

    # ---- the grammar -----------------------------------------------------------------------------
    def read(self) -> ListRows:
        header = self._index_row()
        token = self.take()
        if token.kind == "name":
            equals = self.take()
            if equals.kind != "equals":
                raise PuzzleError(t("step.expected_maze_list_name_and", shown=token.shown), token.where)
            self.found.name = token.text[:40]
            token = self.take()
        token = self._after_number(token)
        if token.kind != "open":
            raise PuzzleError(t("step.expected_opening_maze_list_rows", shown=token.shown), token.where)
        self._rows(token)
        after = self.peek()
        if after.kind != "end":
            raise PuzzleError(t("step.after_maze_list_text_should", shown=after.shown), after.where)
        self._check_numbers(header)
        return self.found

    def _index_row(self) -> list[Token]:
        """Seed 003's index row: a line of numbers alone above the list (none: [])."""
        numbers: list[Token] = []
        while self.peek().kind == "number" and (not numbers or self.peek().line == numbers[0].line):
            numbers.append(self.take())
        if not numbers:
            return []
        following = self.peek()
        if following.line != numbers[0].line:
            self.found.index_row = True
            return numbers
        if len(numbers) > 1:
            raise PuzzleError(t("step.after_row_numbers_index_row", shown=following.shown), following.where)
        self.pushed.append(numbers[0])  # "0[[…": the first row's number, read again as such
        return []

    def _after_number(self, token: Token) -> Token:
        """A row's number before its '[' (first on its line) is noted; the token after it."""
        if token.kind != "number":
            return token
        if not token.first:
            raise PuzzleError(t("step.number_where_cell_or_row", cell_words=t(CELL_WORDS)), token.where)
        self.numbers.append((token, len(self.found.rows)))
        self.found.row_numbers = True
        following = self.take()
        if following.kind not in ("open", "string"):
            raise PuzzleError(
                t("step.expected_row_after_its_number", text=token.text[:12], shown=following.shown),
                following.where,
            )
        return following

    def _rows(self, outer: Token) -> None:
        closing = _CLOSING[outer.text]
        while True:
            token = self._after_number(self.take())
            if token.kind == "close" and token.text == closing:
                break  # an empty list, or a trailing comma
            self._row(token)
            token = self.take()
            if token.kind == "close" and token.text == closing:
                break
            if token.kind != "comma":
                raise PuzzleError(
                    t(
                        "step.expected_or_after_row_got",
                        closing=repr(closing),
                        value=len(self.found.rows) - 1,
                        shown=token.shown,
                    ),
                    token.where,
                )
        if not self.found.rows:
            raise PuzzleError(t("step.list_has_no_rows"), outer.where)

    def _row(self, token: Token) -> None:
        found = self.found
        if len(found.rows) == MAX_SIDE:
            raise PuzzleError(t("step.more_than_rows_at_most", max_side=MAX_SIDE), token.where)
        found.row_starts.append(len(found.lines))
        if token.kind == "string":  # a row as one string: "S....."
            cells = [self._cell(char, token.line, token.column + 1 + i) for i, char in
                     enumerate(token.text[1:-1])]
        elif token.kind == "open":
            cells = self._cells(token)
        else:
            raise PuzzleError(t("step.expected_row_and_its_cells", shown=token.shown), token.where)
        if not cells:
            raise PuzzleError(t("step.row_has_no_cells", n_rows=len(found.rows)), token.where)
        if len(cells) > MAX_SIDE:
            raise PuzzleError(
                t("step.row_cells_at_most_side", n_cells=len(cells), max_side=MAX_SIDE), token.where
            )
        if found.rows and len(cells) != len(found.rows[0]):
            raise PuzzleError(
                t(
                    "step.row_has_cells_and_row",
                    n_rows=len(found.rows),
                    n_cells=len(cells),
                    n_rows2=len(found.rows[0]),
                ),
                token.where,
            )
        found.rows.append("".join(cells))

    def _cells(self, opening: Token) -> list[str]:
        closing = _CLOSING[opening.text]
        cells: list[str] = []
        while True:
            token = self.take()
            if token.kind == "close" and token.text == closing:
                return cells  # an empty row, or a trailing comma
            if token.kind != "string":
                what = {"number": "a number", "open": "a list inside a row"}.get(token.kind, token.shown)
                raise PuzzleError(
                    t("step.where_cell_belongs_cells_are", what=what, cell_words=t(CELL_WORDS)), token.where
                )
            value = token.text[1:-1]
            if len(value) > 1:
                raise PuzzleError(
                    t("step.cell_holds_one_character_got", text=token.text[:20], cell_words=t(CELL_WORDS)),
                    token.where,
                )
            cells.append(self._cell(value, token.line, token.column))
            if len(cells) > MAX_SIDE:
                raise PuzzleError(
                    t("step.more_than_cells_in_row", max_side=MAX_SIDE, n_rows=len(self.found.rows)),
                    token.where,
                )
            token = self.take()
            if token.kind == "close" and token.text == closing:
                return cells
            if token.kind != "comma":
                raise PuzzleError(
                    t("step.expected_or_after_cell_got", closing=repr(closing), shown=token.shown),
                    token.where,
                )

    def _cell(self, value: str, line: int, column: int) -> str:
        """One cell as a mark: 'S', 'X', 'Z' or ' ' (blank); its place noted."""
        if value in _BLANK_CELLS:
            mark = " "
        elif value in _MARK_CELLS:
            mark = value
            self.marked = self.marked or value != "S"
        else:
            hint = t("step.start_and_goal_are_capitals") if value in ("s", "x", "z") else ""
            raise PuzzleError(
                t("step.unknown_cell_cells_are", value=repr(value), hint=hint, cell_words=t(CELL_WORDS)),
                t("step.line_column", line=line, column=column),
            )
        self.found.lines.append(line)
        self.found.columns.append(column)
        return mark

    def _check_numbers(self, header: list[Token]) -> None:
        """The index row counts the columns, and the row numbers the rows, from 0 (or from 1)."""
        width = len(self.found.rows[0])
        if header:
            base = int(header[0].text) if header[0].text in ("0", "1") else 0
            expected = [str(base + i) for i in range(width)]
            if [t.text for t in header] != expected:
                shown = " ".join(t.text for t in header)
                raise PuzzleError(
                    t(
                        "step.index_row_reads_and_rows",
                        shown=repr(shown[:40]),
                        width=width,
                        expected=expected[0],
                        expected2=expected[-1],
                    ),
                    header[0].where,
                )
        if self.numbers:
            number, row = self.numbers[0]
            base = _value(number) - row
            for number, row in self.numbers:
                if base not in (0, 1) or _value(number) != base + row:
                    start = base if base in (0, 1) else 0
                    raise PuzzleError(
                        t(
                            "step.row_number_before_row_counting",
                            text=number.text[:12],
                            row=row,
                            start=start,
                            value=start + 1,
                            value2=start + 2,
                        ),
                        number.where,
                    )


def _value(number: Token) -> int:
    """A number token's value; -1 for one too long to be a row's number (and slow for ``int``)."""
    return int(number.text) if len(number.text) < 8 else -1
