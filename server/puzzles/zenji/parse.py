"""Zenji files: the 4-digit text form, seed 001's Markdown table and the project's JSON, errors naming
the line and tile.

Text: one board row per line, one tile per group of four side codes N E S W (``3223 2010 1221
0000``); the bracket form of the seed's table (``[3,2,2,3] [2,0,1,0]``) is read too. Empty lines
and comment lines (``#`` and a space first) are skipped; the comment ``# flow: free`` (or
``downhill``) records the board's flow, as the JSON's ``flow`` does.
Markdown: a text with a table (a line starting with '|') is read as seed 001's README gives the
board, ``| 0 | 3, 2, 2, 3 | 2, 0, 1, 0 | …`` (``markdown.py`` finds the board's table).
JSON: ``{"pipes": [[[3,2,2,3], …], …], "flow": "downhill", "name": "…"}`` (``flow``, ``name`` optional).
"""

from __future__ import annotations

import re
from typing import Any

from ...i18n import t
from ..capabilities import TextOrJsonSaver
from ..errors import PuzzleError, show_value
from ..jsonfile import read_json
from .markdown import Cell, board_table, has_table
from .model import DRAIN, FLOWS, SOURCE, Tile, ZenjiBoard

MAX_SIDE = 32  # tiles a side: the free flow's state space is exponential long before this
MAX_FILE_BYTES = 200_000
CODES = "0 closed, 1 inlet, 2 outlet, 3 source, 4 drain"
# A group holds no '[': with ``[^\]]*`` a line of 100,000 '[' and no ']' took a minute (each '[' scanned
# to the end of the line); now each scan stops at the next bracket.
_BRACKET = re.compile(r"\[([^\[\]]*)\]")
_FLOW_COMMENT = re.compile(r"#\s*flow:\s*(\w+)\s*$")


def parse_zenji_text(text: str, name: str) -> ZenjiBoard:
    if has_table(text):
        return _parse_table(text, name)
    rows: list[list[Tile]] = []
    wheres: list[int] = []  # the file's line number of each board row
    flow = "downhill"
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if is_skipped(line):
            declared = _FLOW_COMMENT.match(line)
            if declared:
                flow = declared.group(1)
                if flow not in FLOWS:
                    raise PuzzleError(
                        t("zenji.not_one", flow=repr(flow[:20]), flows=", ".join(FLOWS)),
                        t("zenji.line", number=number),
                    )
            continue
        if len(rows) == MAX_SIDE:
            raise PuzzleError(
                t("zenji.more_than_rows_tiles_at", max_side=MAX_SIDE), t("zenji.line", number=number)
            )
        groups = _bracket_groups(line, number) if "[" in line else line.split(None, MAX_SIDE)
        if len(groups) > MAX_SIDE:
            raise PuzzleError(
                t("zenji.more_than_tiles_in_row", max_side=MAX_SIDE), t("zenji.line", number=number)
            )
        row = [
            _text_tile(group, t("zenji.line_tile_3", number=number, i=i))
            for i, group in enumerate(groups, start=1)
        ]
        if rows and len(row) != len(rows[0]):
            raise PuzzleError(
                t("zenji.tiles_but_line_has_every", n_row=len(row), wheres=wheres[0], n_rows=len(rows[0])),
                t("zenji.line", number=number),
            )
        rows.append(row)
        wheres.append(number)
    if not rows:
        raise PuzzleError(t("zenji.no_tiles_write_one_row"), t("zenji.file"))
    return _board(rows, name, flow, "text", lambda r, c: t("zenji.line_tile", wheres=wheres[r], value=c + 1))


def _parse_table(text: str, name: str) -> ZenjiBoard:
    """Seed 001's board as a Markdown table (``markdown.py``); a ``# flow: …`` line sets the flow."""
    table = board_table(text)
    if len(table.rows) > MAX_SIDE or any(len(cells) > MAX_SIDE for cells in table.rows):
        raise PuzzleError(
            t("zenji.more_than_tiles_side", max_side=MAX_SIDE),
            t("zenji.lines", first_line=table.first_line, last_line=table.last_line),
        )
    rows: list[list[Tile]] = []
    for cells, number in zip(table.rows, table.lines, strict=True):
        line = t("zenji.line", number=number)
        if not cells:
            raise PuzzleError(t("zenji.row_table_with_no_tiles"), line)
        if rows and len(cells) != len(rows[0]):
            raise PuzzleError(
                t(
                    "zenji.tiles_but_line_has_every_2",
                    n_cells=len(cells),
                    first_line=table.first_line,
                    n_rows=len(rows[0]),
                ),
                line,
            )
        rows.append([_cell_tile(cell) for cell in cells])
    flow = "downhill"
    for number, raw in enumerate(text.splitlines(), start=1):
        declared = _FLOW_COMMENT.match(raw.strip())
        if declared:
            flow = declared.group(1)
            if flow not in FLOWS:
                raise PuzzleError(
                    t("zenji.not_one", flow=repr(flow[:20]), flows=", ".join(FLOWS)),
                    t("zenji.line", number=number),
                )
    return _board(rows, name, flow, table.describe(), lambda r, c: table.rows[r][c].where)


def _cell_tile(cell: Cell) -> Tile:
    """A table cell as a tile: "3, 2, 2, 3", "3 2 2 3", "3;2;2;3", "3223" or "[3, 2, 2, 3]"."""
    inside = cell.text.strip("[]() ").replace(";", ",")
    if not inside:
        raise PuzzleError(t("zenji.empty_cell_where_tile_belongs"),
                          cell.where)
    return _text_tile(inside, cell.where, "'3, 2, 2, 3'")


def is_skipped(line: str) -> bool:
    """A line (already stripped) that holds no tiles: empty, or a comment ('#' alone or '# ' first)."""
    return not line or line == "#" or line.startswith("# ")


def _bracket_groups(line: str, number: int) -> list[str]:
    """The insides of a line's [N,E,S,W] groups; anything but commas and spaces between them is an error
    (a tile written without brackets, or a bracket left open, would otherwise be dropped)."""
    groups: list[str] = []
    end = 0
    for match in _BRACKET.finditer(line):
        _nothing_between(line[end : match.start()], number, len(groups) + 1)
        groups.append(match.group(1))
        if len(groups) > MAX_SIDE:
            return groups  # the caller refuses the row
        end = match.end()
    _nothing_between(line[end:], number, len(groups) + 1)
    return groups


def _nothing_between(text: str, number: int, index: int) -> None:
    stray = text.strip(" ,\t")
    if stray:
        raise PuzzleError(
            t("zenji.expected_bracketed_tiles_such_as", stray=repr(stray[:20])),
            t("zenji.line_tile_2", number=number, index=index),
        )


def _text_tile(group: str, where: str, example: str = "3223") -> Tile:
    codes = group.replace(",", " ").split() if "," in group or " " in group.strip() else list(group.strip())
    if len(codes) != 4 or not all(len(code) == 1 and code.isdigit() for code in codes):
        raise PuzzleError(
            t("zenji.expected_four_side_codes_n", example=example, strip=repr(group.strip()[:20])), where
        )
    tile = tuple(int(code) for code in codes)
    bad = next((code for code in tile if code > DRAIN), None)
    if bad is not None:
        raise PuzzleError(t("zenji.side_code_not_one", bad=bad, codes=CODES), where)
    return tile  # type: ignore[return-value]


def parse_zenji_json(text: str, name: str) -> ZenjiBoard:
    data = read_json(text)
    if not isinstance(data, dict) or "pipes" not in data:
        raise PuzzleError(t("zenji.expected_object_with_pipes_rows"), t("zenji.file"))
    pipes = data["pipes"]
    if not isinstance(pipes, list) or not pipes or not all(isinstance(row, list) for row in pipes):
        raise PuzzleError(t("zenji.expected_list_rows_each_list"), t("zenji.field_pipes"))
    if len(pipes) > MAX_SIDE or any(len(row) > MAX_SIDE for row in pipes):
        raise PuzzleError(t("zenji.more_than_tiles_side", max_side=MAX_SIDE), t("zenji.field_pipes"))
    rows: list[list[Tile]] = []
    for r, row in enumerate(pipes):
        if len(row) != len(pipes[0]):
            raise PuzzleError(
                t("zenji.tiles_but_row_0_has", n_row=len(row), n_pipes=len(pipes[0])),
                t("zenji.field_pipes_row", r=r),
            )
        out = []
        for c, tile in enumerate(row):
            where = t("zenji.field_pipes_row_tile", r=r, c=c)
            ok = (
                isinstance(tile, list)
                and len(tile) == 4
                and all(isinstance(v, int) and not isinstance(v, bool) for v in tile)
            )
            if not ok:
                raise PuzzleError(t("zenji.expected_n_e_w_side", tile=show_value(tile)), where)
            bad = next((v for v in tile if not 0 <= v <= DRAIN), None)
            if bad is not None:
                raise PuzzleError(t("zenji.side_code_not_one", bad=show_value(bad), codes=CODES), where)
            out.append(tuple(tile))
        rows.append(out)
    flow = data.get("flow", "downhill")
    if flow not in FLOWS:
        raise PuzzleError(
            t("zenji.not_one", flow=show_value(flow), flows=", ".join(FLOWS)), t("zenji.field_flow")
        )
    given = data.get("name")
    if given is not None and not isinstance(given, str):
        raise PuzzleError(t("zenji.expected_text_got", given=show_value(given)), t("zenji.field_name"))
    return _board(
        rows, (given or name)[:80], flow, "json", lambda r, c: t("zenji.field_pipes_row_tile", r=r, c=c)
    )


def _board(rows: list[list[Tile]], name: str, flow: str, source_format: str, where) -> ZenjiBoard:
    """Find the one source and the one drain; the rest of the board may be any pipes."""
    height, width = len(rows), len(rows[0])
    if height * width < 2:
        raise PuzzleError(t("zenji.board_needs_at_least_two"), t("zenji.file"))
    sources = [(r, c) for r in range(height) for c in range(width) if SOURCE in rows[r][c]]
    drains = [(r, c) for r in range(height) for c in range(width) if DRAIN in rows[r][c]]
    for found, code, what in ((sources, SOURCE, "source"), (drains, DRAIN, "drain")):
        if not found:
            raise PuzzleError(
                t("zenji.no_one_tile_needs_side", what=t(f"zenji.word.{what}"), code=code), t("zenji.file")
            )
        if len(found) > 1:
            (r0, c0), (r1, c1) = found[:2]
            first = where(r0, c0)
            raise PuzzleError(
                t("zenji.second_code_first_at", what=t(f"zenji.word.{what}"), code=code, first=first),
                where(r1, c1),
            )
    (sr, sc), (dr, dc) = sources[0], drains[0]
    if (sr, sc) == (dr, dc):
        raise PuzzleError(t("zenji.one_tile_holds_both_source"), where(sr, sc))
    tiles = tuple(tile for row in rows for tile in row)
    return ZenjiBoard(height, width, tiles, (sr, sc), (dr, dc), flow, name, source_format)


def board_to_text(board: ZenjiBoard) -> str:
    """The 4-digit text form; a free-flow board says so in a ``# flow: free`` line."""
    head = "" if board.flow == "downhill" else f"# flow: {board.flow}\n"
    return head + "".join(
        " ".join("".join(str(v) for v in board.tile(r, c)) for c in range(board.cols)) + "\n"
        for r in range(board.rows)
    )


def board_to_json(board: ZenjiBoard) -> dict[str, Any]:
    return {"name": board.name, "flow": board.flow, "pipes": board.tile_rows()}


class ZenjiSaver(TextOrJsonSaver):
    """Text or JSON: both hold every tile and the flow (the text in a ``# flow: free`` line)."""

    def to_text(self, puzzle: ZenjiBoard) -> str:
        return board_to_text(puzzle)

    def to_json(self, puzzle: ZenjiBoard) -> dict[str, Any]:
        return board_to_json(puzzle)
