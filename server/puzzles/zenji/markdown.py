"""Seed 001's board as its README gives it: a Markdown table of tiles, each cell the four side codes
N E S W, the first column the row's number.

    | n x m  | 0 | 1  | 2 | 3 |
    | --- | --- | --- | --- | --- |
    | 0  | 3, 2, 2, 3 | 2, 0, 1, 0 | 1, 2, 2, 1 | 0, 0, 0, 0 |
    | 1  | 0, 0, 0, 0 | 0, 0, 1, 2 | 0, 1, 2, 2 | 0, 0, 2, 1 |

A pasted README section may hold other tables (the coordinate example's cells "0, 0", the one-tile
figure): the board is the first table whose cells hold four side codes, and the notes say which lines
were read and how many other tables of tiles were passed over. This module finds the table and its
cells with their places; ``parse.py`` reads each cell as a tile. A cell may be written "3, 2, 2, 3",
"3 2 2 3", "3223" or "[3, 2, 2, 3]"; the row-number column (digits or empty) is optional.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from ...i18n import t
from ..errors import PuzzleError

_SEPARATOR_CELL = re.compile(r"\s*:?-+:?\s*")
_ROW_NUMBER = re.compile(r"[0-9]*")  # of a stripped cell
DIGITS = "0123456789"


@dataclass(frozen=True)
class Cell:
    """One cell of a table: its text (stripped) and where it starts (1-based)."""

    text: str
    line: int
    column: int

    @property
    def where(self) -> str:
        return t("zenji.line_column", line=self.line, column=self.column)


@dataclass(frozen=True)
class BoardTable:
    """The board's table: its rows of tile cells (the row-number column left out), the lines it spans,
    and how many other tables of tiles the text holds."""

    rows: list[list[Cell]]
    lines: list[int]  # each row's line
    others: int  # later tables whose cells are tiles too, passed over

    @property
    def first_line(self) -> int:
        return self.lines[0]

    @property
    def last_line(self) -> int:
        return self.lines[-1]

    def describe(self) -> str:
        """Which table was read, for the board's notes ("read as …")."""
        plural = t("zenji.plural.table", count=self.others)
        more = t("zenji.later_table_tiles_not_read", others=self.others, plural=plural) if self.others else ""
        return t(
            "zenji.markdown_table_its_rows_tiles",
            first_line=self.first_line,
            last_line=self.last_line,
            more=more,
        )


def sniff_table(text: str) -> float:
    """How sure ``text`` is a Zenji board as a Markdown table: sure (0.97) when its board table reads
    as tiles with a source (3) and a drain (4); 0.9 when a table's cells are tiles and something is wrong
    (the parser names it); 0 without a table of tiles."""
    tables = [rows for rows in (_data_rows(table) for table in _tables(text)) if _has_tiles(rows)]
    if not tables:
        return 0.0
    codes = {char for row in tables[0] for cell in row if is_tile_like(cell.text) for char in cell.text}
    return 0.97 if {"3", "4"} <= codes else 0.9


def has_table(text: str) -> bool:
    """Whether ``text`` holds a Markdown table row: a line that starts with '|' (the Zenji text form
    never holds a '|')."""
    return any(line.lstrip().startswith("|") for line in text.splitlines())


def is_tile_like(text: str) -> bool:
    """A cell written as four one-digit side codes ("3, 2, 2, 3", "3 2 2 3", "3223", "[3,2,2,3]"). (No
    regular expression: the separators' spaces made one backtrack for minutes on a long cell.)"""
    inside = text.strip()
    if inside[:1] in ("[", "(") and inside[-1:] in ("]", ")"):
        inside = inside[1:-1]
    parts = inside.replace(",", " ").replace(";", " ").split()
    if len(parts) == 1:
        parts = list(parts[0]) if len(parts[0]) == 4 else parts
    return len(parts) == 4 and all(len(part) == 1 and part in DIGITS for part in parts)


def board_table(text: str) -> BoardTable:
    """The first table of the text whose cells are tiles; PuzzleError when no table holds a tile, or
    when a row of a table numbered in its first column has no number there."""
    tables = _tables(text)
    found = [rows for rows in (_data_rows(table) for table in tables) if _has_tiles(rows)]
    if not found:
        count = t(
            "zenji.markdown_table", n_tables=len(tables), value=t("zenji.plural.table", count=len(tables))
        )
        raise PuzzleError(t("zenji.no_board_among_text_board", count_=count), t("zenji.file"))
    rows = found[0]
    numbered = _row_number_column(rows)
    for row in rows if numbered else ():
        if not _ROW_NUMBER.fullmatch(row[0].text):
            raise PuzzleError(
                t("zenji.expected_row_number_in_table", text=repr(row[0].text[:20])), row[0].where
            )
    return BoardTable([row[1:] if numbered else row for row in rows], [row[0].line for row in rows],
                      len(found) - 1)


def _tables(text: str) -> list[list[list[Cell]]]:
    """Every table: runs of lines that start with '|', each line split into cells."""
    tables: list[list[list[Cell]]] = []
    current: list[list[Cell]] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if line.lstrip().startswith("|"):
            cells = _cells(line, number)
            if cells:  # a line of one '|' holds no cell
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def _cells(line: str, number: int) -> list[Cell]:
    """A table row's cells between its pipes (the last pipe may be left out), each with the column it
    starts at."""
    body = line.rstrip()
    edges = [i for i, char in enumerate(body) if char == "|"]
    if body[edges[-1] + 1 :].strip():
        edges.append(len(body))  # no closing pipe
    cells = []
    for left, right in itertools.pairwise(edges):
        raw = body[left + 1 : right]
        lead = len(raw) - len(raw.lstrip()) if raw.strip() else 0  # an empty cell: where it opens
        cells.append(Cell(raw.strip(), number, left + lead + 2))
    return cells


def _data_rows(table: list[list[Cell]]) -> list[list[Cell]]:
    """A table's rows below its header: the header (the rows above the separator row) is dropped,
    unless its cells are tiles too (a board written without a header)."""
    separator = next((i for i, row in enumerate(table)
                      if all(_SEPARATOR_CELL.fullmatch(cell.text) for cell in row)), None)
    if separator is None:
        return table
    header, body = table[:separator], table[separator + 1 :]
    tiles_above = [row for row in header if all(is_tile_like(c.text) for c in row[1:]) and len(row) > 1]
    return tiles_above + body


def _has_tiles(rows: list[list[Cell]]) -> bool:
    return any(is_tile_like(cell.text) for row in rows for cell in row)


def _row_number_column(rows: list[list[Cell]]) -> bool:
    """Whether the first column holds the rows' numbers: the first row's first cell is digits or empty."""
    return bool(rows) and len(rows[0]) > 1 and bool(_ROW_NUMBER.fullmatch(rows[0][0].text))
