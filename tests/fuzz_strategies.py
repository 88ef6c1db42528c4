"""What the fuzz tests throw, and what they check (issue 8, point 6).

Shared by ``tests/test_fuzz.py`` (a few hundred examples per target, in CI) and ``scripts/fuzz.py``
(at least 10,000 each). A *target* is a hypothesis strategy of cases and a check that raises
``AssertionError`` (or lets an unexpected exception through) when the property is broken:

- **parsers**: every registered family's ``sniff`` and ``load``, ``registry.detect_family`` and
  ``registry.load_puzzle`` raise nothing but ``PuzzleError``, and what they do load can be described
  (``info`` is strict JSON, ``cells`` is one byte per cell);
- **options**: ``run_options``, ``load_options`` and ``text_options`` raise nothing but
  ``PuzzleError``, and what they accept is strict JSON;
- **API**: no route answers 5xx; every 4xx is JSON ``{"error": "<non-empty text>"}``; every 2xx JSON
  body is strict JSON (no NaN or Infinity, which browsers' ``JSON.parse`` refuses);
- **socket**: no handler raises, ``run_start`` is always answered ``{ok: true}`` or
  ``{ok: false, error}``, a run never ends in an internal error, and every run ends (cancelled or
  done) once its client has gone.

Everything stays small: images of at most 24 x 24 pixels (headers may claim more), text grids of a
few hundred cells, a million pixels or cells at most (``LIMITS``), searches of a few thousand states.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import io
import json
import logging
import math
import re
import struct
import threading
import time
import urllib.parse
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from server.puzzles.errors import PuzzleError
from server.puzzles.family import LoadLimits
from server.puzzles.registry import FAMILIES, detect_family, load_puzzle
from server.services import services

ROOT = Path(__file__).resolve().parent.parent
LIMITS = LoadLimits(max_pixels=1_000_000, max_cells=1_000_000)

# ------------------------------------------------------------------------------------ vocabulary
FAMILY_NAMES = tuple(FAMILIES)
OPTIONS = {o.name: o for family in FAMILIES.values() for o in family.options}
OPTION_NAMES = tuple(OPTIONS)
LOAD_NAMES = tuple(o.name for o in OPTIONS.values() if o.stage in ("load", "both"))


def _algorithm_names() -> tuple[str, ...]:
    from server.search.registry import ALGORITHMS

    return tuple(dict.fromkeys([*ALGORITHMS, *(a for f in FAMILIES.values() for a in f.algorithms)]))


ALGORITHM_NAMES = _algorithm_names()
CHOICE_VALUES = tuple(dict.fromkeys(v for o in OPTIONS.values() for v in o.choice_values))
KEYS = (*OPTION_NAMES, "algorithm", "family", "gallery", "run", "slot", "puzzle", "options", "seq",
        "file", "__proto__", "")
INT_EDGES = (0, -1, 1, 2, 5, 63, 64, 99, 100, 101, 1000, 1001, 2**31 - 1, 2**31, -(2**31) - 1, 2**53 + 1,
             2**63, -(2**63), 2**64, 10**30, 10**400, -(10**400))
FLOAT_EDGES = (math.nan, math.inf, -math.inf, -0.0, 0.5, 1.0, 1.5, 99.99, 100.0, 100.5, 5e-324, 1e308,
               -1e308, 2.0**31, 2.0**63, 1e16 + 1)
TEXT_EDGES = ("", " ", "true", "false", "True", "yes", "off", "1", "0", "-1", "nan", "NaN", "inf",
              "-Infinity", "1e999", "1e308", "0x10", "1_000", "٣", "１", "null", "1,2", "0,0", " 3 , 4 ",
              "-1,5", "1,,2", ",", "999999999999,0", "1" * 4400, "x" * 300, "\x00", "\ud7ff", "﻿",
              "\n", "a\nb", *ALGORITHM_NAMES, *CHOICE_VALUES, *FAMILY_NAMES)
NEAR = "\x00near:"  # a marker value: lists nested up to a few frames short of the recursion limit


def nested(depth: int, leaf: Any = 0, kind: str = "list") -> Any:
    """``depth`` levels of lists (or objects) around ``leaf``, built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


def near_limit(spare: int) -> int:
    """A nesting depth ``spare`` frames short of the recursion limit, from the caller's stack.

    Hypothesis raises the limit while a test runs, so fixed depths would test less than a server
    (limit 1000) sees: JSON that decodes but is too deep for a later ``repr`` or ``str``.
    """
    return max(1, free_frames() - spare)


def free_frames() -> int:
    """How many more nested calls the caller can make before a RecursionError (measured: counting the
    stack's frames misses the C calls that count too)."""
    def down(level: int) -> int:
        try:
            return down(level + 1)
        except RecursionError:
            return level

    return down(1)


SPARES = (2, 5, 10, 15, 20, 30, 40, 60, 80, 120, 200)
# Over the wire (HTTP bodies, socket packets) at least this many frames are left: with fewer, the
# libraries' JSON decoders (werkzeug's get_json, python-socketio's packet decoder) meet the limit
# before the project's code does -- known bugs, pinned by the xfail tests of tests/test_fuzz.py.
WIRE_MIN_SPARE = 20


@cache
def near_markers() -> st.SearchStrategy[str]:
    return st.sampled_from(SPARES).map(lambda spare: f"{NEAR}{spare}")


_NEAR_VALUE = re.compile(re.escape(NEAR) + r"(\d{1,4})")
_NEAR_IN_JSON = re.compile(r'"\\u0000near:(\d{1,4})"')  # the marker as json.dumps writes it


def materialize(value: Any, level: int = 0) -> Any:
    """``value`` with every near-limit marker (a whole string, or inside JSON text) made real."""
    if isinstance(value, str):
        match = _NEAR_VALUE.fullmatch(value)
        return nested(near_limit(int(match.group(1)))) if match else value
    if isinstance(value, bytes | bytearray):
        return deepen(bytes(value))
    if level > 4:
        return value
    if isinstance(value, list):
        return [materialize(v, level + 1) for v in value]
    if isinstance(value, tuple):
        return tuple(materialize(v, level + 1) for v in value)
    if isinstance(value, dict):
        return {k: materialize(v, level + 1) for k, v in value.items()}
    return value


def deepen(text: bytes, min_spare: int = 0) -> bytes:
    """JSON text with each marker (as json.dumps writes it) replaced by lists nested nearly to the limit.

    Payloads for the app are sent as text made here, so that the server, not the test client's
    encoder, is the first to meet the depth.
    """
    if b"near:" not in text:
        return text
    def nest(match: re.Match[str]) -> str:
        return _brackets(near_limit(max(min_spare, int(match.group(1)))))

    return _NEAR_IN_JSON.sub(nest, text.decode("utf-8", "surrogatepass")).encode("utf-8", "surrogatepass")


def _brackets(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


@cache
def json_scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(), st.integers(), st.sampled_from(INT_EDGES),
        st.floats(), st.sampled_from(FLOAT_EDGES), st.text(max_size=20), st.sampled_from(TEXT_EDGES),
    )


@cache
def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    """Any JSON value (NaN and infinities included; ints beyond 64 bits), now and then deeply nested
    (a marker that ``materialize`` turns into lists nested nearly to the recursion limit)."""
    leaves = st.one_of(json_scalars(), json_scalars(), json_scalars(), near_markers(),
                       st.builds(nested, st.sampled_from([20, 200]), json_scalars(),
                                 st.sampled_from(["list", "dict"])))
    return st.recursive(
        leaves,
        lambda children: st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), children, max_size=4),
        max_leaves=max_leaves,
    )


@cache
def valid_value(name: str) -> st.SearchStrategy[Any]:
    """Values the option ``name`` accepts (and its edges): random payloads are mostly refused early."""
    option = OPTIONS[name]
    low = int(option.min) if option.min is not None else -3
    high = int(option.max) if option.max is not None else 40
    base: st.SearchStrategy[Any]
    if option.type == "bool":
        base = st.booleans()
    elif option.type == "int":
        base = st.integers(low, high)
    elif option.type == "float":
        base = st.floats(option.min or 0, option.max or 100) | st.integers(low, high)
    elif option.type == "choice":
        base = st.sampled_from(option.choice_values)
    elif option.type == "point":
        base = st.lists(st.integers(-1, 40), min_size=2, max_size=2)
    else:  # int_list
        base = st.lists(st.integers(low - 1, high + 1), max_size=6)
    return base | st.none() if option.optional else base


@cache
def valid_runs(family_name: str) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """(algorithm, run options) of the family's own, with values in the schema's ranges: many pass the
    checks, so the searches themselves run (on the small puzzles of the fixture, within its limits)."""
    family = FAMILIES[family_name]
    names = tuple(o.name for o in family.options if o.stage in ("run", "both"))
    options = st.lists(st.sampled_from(names), max_size=4, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({name: valid_value(name) for name in chosen}))
    return st.tuples(st.sampled_from(family.algorithms), options)


def run_query(run: tuple[str, dict[str, Any]]) -> dict[str, str]:
    """A valid run as the query string of a solution image."""
    algorithm, options = run
    return {"algorithm": algorithm, **{k: _as_text(v) for k, v in options.items() if v is not None}}


@cache
def option_values(name: str) -> st.SearchStrategy[Any]:
    return st.one_of(valid_value(name), valid_value(name), json_scalars(), json_values(6))


@st.composite
def option_dicts(draw: st.DrawFn, names: tuple[str, ...] = OPTION_NAMES) -> dict[str, Any]:
    """An options object: mostly the families' option names with valid or edge values, some noise."""
    chosen = draw(st.lists(st.sampled_from(names), max_size=5, unique=True))
    out = {name: draw(option_values(name)) for name in chosen}
    if draw(st.integers(0, 4)) == 0:
        out.update(draw(st.dictionaries(st.text(max_size=10), json_values(4), max_size=2)))
    return out


@cache
def text_values(name: str | None = None) -> st.SearchStrategy[str]:
    """Form-field or command-line text for option ``name``."""
    texts = [st.text(max_size=30), st.sampled_from(TEXT_EDGES)]
    if name is not None:
        texts.append(valid_value(name).map(_as_text))
    return st.one_of(*texts)


def _as_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return "" if value is None else str(value)


@st.composite
def text_option_dicts(draw: st.DrawFn, names: tuple[str, ...] = OPTION_NAMES) -> dict[str, str]:
    chosen = draw(st.lists(st.sampled_from(names), max_size=5, unique=True))
    out = {name: draw(text_values(name)) for name in chosen}
    if draw(st.integers(0, 4)) == 0:
        out.update(draw(st.dictionaries(st.text(max_size=10), text_values(), max_size=2)))
    return out


# --------------------------------------------------------------------------------------- files
EXTENSIONS = (".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp", ".ppm", ".pgm", ".pbm", ".txt", ".maze",
              ".csv", ".json", ".tif", ".PNG", ".TXT", "", ".", ".exe")
FILENAMES = ("maze.png", "maze.txt", "board.csv", "board.json", "x", "", ".png", "a.b.c.gif", "ä.jpeg",
             "../../etc/passwd", "C:\\mazes\\x.png", "con.txt", "x" * 300 + ".png", "nul\x00.txt",
             "space .json", "%2e%2e.csv")


@cache
def filenames() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(FILENAMES),
        st.tuples(st.text(max_size=12), st.sampled_from(EXTENSIONS)).map("".join),
        st.text(max_size=40),
    )


SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"GIF89a", b"GIF87a", b"BM", b"\xff\xd8\xff", b"RIFF",
              b"RIFF\x00\x00\x00\x00WEBPVP8 ",
              b"P1", b"P2", b"P3", b"P4", b"P5", b"P6", b"P7", b"II*\x00", b"%!PS", b"\xef\xbb\xbf", b"{",
              b'{"board":', b'{"tiles":', b"#", b"0;1;2", b"\x00\x00\x01\x00")


@cache
def raw_bytes() -> st.SearchStrategy[bytes]:
    """Arbitrary bytes, often behind a format's signature so the parsers get past their first check."""
    return st.one_of(
        st.binary(max_size=1024),
        st.tuples(st.sampled_from(SIGNATURES), st.binary(max_size=512)).map(b"".join),
        st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    )


@st.composite
def byte_files(draw: st.DrawFn) -> tuple[bytes, str]:
    return draw(raw_bytes()), draw(filenames())


GRID_CHARS = "#. SG123456789"
NOISE_CHARS = "\t0sgx#.\x00\x0b\x0c\x1c\x85\u2028é\ufeff中"


@st.composite
def grid_text_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Text mazes: rows of maze characters with now and then a stray one, odd line ends, odd sizes."""
    kind = draw(st.integers(0, 9))
    if kind == 0:  # a small file that describes a huge grid (short lines are padded)
        width = draw(st.sampled_from([999, 1000, 1001, 10_000, 1_000_001]))
        height = draw(st.sampled_from([1, 2, 999, 1000, 1001]))
        rows = ["#" * width] + ["."] * (height - 1)
        if height > 2:
            rows[-1] = draw(st.sampled_from([".", "G", "x"]))
    else:
        alphabet = st.sampled_from(GRID_CHARS) if kind < 8 else st.sampled_from(GRID_CHARS + NOISE_CHARS)
        rows = draw(st.lists(st.text(alphabet=alphabet, max_size=24), max_size=20))
        if rows and kind == 7:  # one stray character somewhere
            r = draw(st.integers(0, len(rows) - 1))
            c = draw(st.integers(0, len(rows[r])))
            rows[r] = rows[r][:c] + draw(st.sampled_from(NOISE_CHARS)) + rows[r][c:]
    sep = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\n", "\n \n"]))
    text = draw(st.sampled_from(["", "\ufeff", "\n\n", "  \n"])) + sep.join(rows) + draw(
        st.sampled_from(["", "\n", "\n\n\n", " "]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "utf-16", "latin-1", "utf-8-sig"]))
    data = text.encode(encoding, "replace")
    name = draw(st.sampled_from(["maze.txt", "maze.maze", "maze", "maze.png", "maze.csv"]) | filenames())
    return data, name


# Repetitions in the backtracking stress lines of ``csv_files``: the labyrinth's sniff once used a
# regular expression that took time exponential in them (a 44-byte upload froze the server).
STRESS_GROUPS = 2_000
# A hang guard, not a benchmark: a sniff reads at most a few KB, so anything near this is a runaway.
SNIFF_SECONDS = 5.0


@st.composite
def csv_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Seed 000's CSV, nearly: rows of tile codes (sometimes out of range or not numbers), a free tile;
    now and then a first line made to make a regular expression backtrack (see ``STRESS_GROUPS``)."""
    if draw(st.integers(0, 9)) == 9:
        groups = draw(st.integers(1, STRESS_GROUPS))
        chunk = draw(st.sampled_from(["; ", ", ", ";  ", "; \t", " ; "]))
        junk = draw(st.sampled_from(["x", "", " ", "\n2;;;", ";x", "1a"]))
        return f"1{chunk * groups}{junk}".encode(), draw(st.sampled_from(["board.csv", "board", "maze.txt"]))
    rows = draw(st.integers(0, 8))
    cols = draw(st.integers(0, 8))
    good = st.integers(0, 9).map(str)
    odd = st.one_of(st.integers(-3, 13).map(str), st.sampled_from(
        ["", " ", "x", "1.5", "+3", " 4 ", "٣", "1_0", "0x1", "9" * 5000, "1e1", "-0", "10", "11"]))
    field_ = st.one_of(good, good, good, odd) if draw(st.booleans()) else good
    lines = [[draw(field_) for _ in range(cols)] for _ in range(rows)]
    if lines and draw(st.integers(0, 3)) == 0:  # a ragged row
        r = draw(st.integers(0, len(lines) - 1))
        lines[r] = lines[r][: draw(st.integers(0, cols))] + draw(st.lists(field_, max_size=2))
    free = [draw(field_)] + [""] * draw(st.integers(0, max(cols - 1, 0)))
    if draw(st.integers(0, 5)) == 0:
        free = draw(st.lists(field_, max_size=cols + 1))
    if draw(st.integers(0, 9)):
        lines.append(free)
    delimiter = draw(st.sampled_from([";", ";", ",", "; ", "\t"]))
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(delimiter.join(line) for line in lines)
    if draw(st.booleans()):
        text += "\n" * draw(st.integers(1, 3))
    if draw(st.integers(0, 9)) == 0:
        text = "\ufeff" + text
    if draw(st.integers(0, 9)) == 0:  # a blank line inside, or junk after
        text = text.replace("\n", "\n\n", 1) if draw(st.booleans()) else text + draw(st.text(max_size=10))
    name = draw(st.sampled_from(["board.csv", "board.CSV", "board.json", "board", "board.txt"]) | filenames())
    return text.encode("utf-8", "surrogatepass"), name


LABYRINTH_KEYS = ("family", "format", "version", "name", "board", "free_tile", "start_column", "goal_column",
                  "insert_rows", "insert_columns", "moves", "rotate_free_tile", "tiles", "freeTile",
                  "startingPosition", "goalPosition", "rowsWithTileInput")
DEEP_MARK = "\x00deep:"


@cache
def _codes(low: int = 0, high: int = 9) -> st.SearchStrategy[Any]:
    return st.integers(low, high) | st.integers(low, high) | st.integers(-2, 12) | json_scalars()


@st.composite
def _grid_of(draw: st.DrawFn, code: st.SearchStrategy[Any], min_rows: int = 0) -> list[list[Any]]:
    rows = draw(st.integers(min_rows, 7))
    cols = draw(st.integers(0, 7))
    grid = [[draw(code) for _ in range(cols)] for _ in range(rows)]
    if grid and draw(st.integers(0, 4)) == 0:  # ragged
        r = draw(st.integers(0, len(grid) - 1))
        grid[r] = grid[r][: draw(st.integers(0, cols))]
    return grid


@st.composite
def _padded_tiles(draw: st.DrawFn) -> list[list[Any]]:
    board = draw(_grid_of(_codes(), min_rows=1))
    width = len(board[0]) if board else 0
    pad = st.sampled_from([10, 11, 11]) | _codes()
    return [[draw(pad) for _ in range(width)], *board, [draw(pad) for _ in range(width)]]


@cache
def _position() -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries({}, optional={"row": _codes(0, 8), "column": _codes(0, 8)}) | json_values(4)


@cache
def _sides(a: str, b: str) -> st.SearchStrategy[Any]:
    ints = st.lists(st.integers(-1, 9) | json_scalars(), max_size=5)
    return st.fixed_dictionaries({}, optional={a: ints, b: ints}) | json_values(4)


@cache
def _labyrinth_field(key: str) -> st.SearchStrategy[Any]:
    near = {
        "board": _grid_of(_codes()), "tiles": _padded_tiles(), "free_tile": _codes(), "freeTile": _codes(),
        "start_column": _codes(0, 8), "goal_column": _codes(0, 8), "startingPosition": _position(),
        "goalPosition": _position(), "insert_rows": _sides("left", "right"),
        "insert_columns": _sides("top", "bottom"), "rowsWithTileInput": _sides("left", "right"),
        "moves": st.sampled_from(["combined", "separate"]) | json_scalars(),
        "rotate_free_tile": st.booleans() | json_scalars(), "family": st.just("labyrinth") | json_scalars(),
        "name": st.text(max_size=20) | json_values(4),
    }.get(key, json_scalars())
    deep = st.sampled_from([5, 500, 5000, 100_000]).map(lambda n: f"{DEEP_MARK}{n}")
    return st.one_of(near, near, near, json_values(6), deep, near_markers())


@st.composite
def labyrinth_json_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """JSON with the labyrinth's keys (the project's and seed 002's) holding near-valid or random values.

    A value may be a marker that becomes, in the text, lists nested hundreds to 100,000 deep.
    """
    chosen = draw(st.lists(st.sampled_from(LABYRINTH_KEYS), max_size=8, unique=True))
    if draw(st.booleans()):  # most files have a board, so the later checks are reached
        chosen.append(draw(st.sampled_from(["board", "tiles"])))
        chosen.append("free_tile" if chosen[-1] == "board" else "freeTile")
    data = {key: draw(_labyrinth_field(key)) for key in chosen}
    if draw(st.integers(0, 5)) == 0:
        data.update(draw(st.dictionaries(st.text(max_size=8), json_values(4), max_size=2)))
    text = json.dumps(data, allow_nan=True, indent=draw(st.sampled_from([None, 1])))
    while DEEP_MARK in text or "\\u0000deep:" in text:  # json.dumps escapes the NUL
        start = text.index('"\\u0000deep:')
        end = text.index('"', start + 1)
        depth = int(text[start + len('"\\u0000deep:'): end])
        text = text[:start] + "[" * depth + "1" + "]" * depth + text[end + 1:]
    if draw(st.integers(0, 9)) == 0:
        text = draw(st.sampled_from(["\ufeff", " \n", "\t"])) + text
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]  # cut short
    name = draw(st.sampled_from(["board.json", "board.JSON", "board", "board.csv", "board.txt"])
                | filenames())
    return text.encode("utf-8", "surrogatepass"), name


@st.composite
def valid_labyrinth_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Boards the labyrinth parser accepts (CSV or the project's JSON), so their searches run."""
    rows, cols = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    board = [[draw(st.integers(0, 9)) for _ in range(cols)] for _ in range(rows)]
    free = draw(st.integers(0, 9))
    if draw(st.booleans()):
        text = "\n".join(";".join(map(str, row)) for row in board) + "\n" + str(free) + ";" * (cols - 1)
        return text.encode(), "board.csv"
    document: dict[str, Any] = {"board": board, "free_tile": free}
    optional = {
        "start_column": st.integers(0, cols - 1), "goal_column": st.integers(0, cols - 1),
        "moves": st.sampled_from(["combined", "separate"]), "rotate_free_tile": st.booleans(),
        "insert_rows": st.fixed_dictionaries({"left": st.lists(st.integers(0, rows - 1), max_size=3),
                                              "right": st.lists(st.integers(0, rows - 1), max_size=3)}),
        "insert_columns": st.fixed_dictionaries({"top": st.lists(st.integers(0, cols - 1), max_size=2),
                                                 "bottom": st.lists(st.integers(0, cols - 1), max_size=2)}),
    }
    document.update(draw(st.fixed_dictionaries({}, optional=optional)))
    return json.dumps(document).encode(), "board.json"


@st.composite
def deep_json_files(draw: st.DrawFn, wire: bool = False) -> tuple[bytes, str]:
    """JSON text nested deeper than any parser's recursion, or numbers longer than Python reads.

    ``wire``: for HTTP bodies, no fixed depth beyond what werkzeug's decoder survives (a known bug).
    """
    # Over the wire at most 800 levels (an opener may be two): werkzeug's decoder survives that.
    depth = draw(st.sampled_from([100, 400] if wire else [100, 1000, 5000, 100_000]))
    near = f'"\\u0000near:{draw(st.sampled_from(SPARES))}"'  # nested nearly to the limit, when checked
    opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}"), ('{"board":[', "]}")]))
    shapes = [
        opener * depth + "1" + closer * depth,
        near,
        '{"board": ' + near + ', "free_tile": 1}',
        '{"board": [[1, ' + near + ']], "free_tile": 1}',
        '{"board": [[1]], "free_tile": ' + near + "}",
        '{"board": [[1]], "free_tile": 1, "name": ' + near + "}",
        '{"board": [[1]], "free_tile": 1, "insert_rows": {"left": ' + near + "}}",
        '{"tiles": [[10], [1], [10]], "freeTile": 1, "startingPosition": ' + near + "}",
        '{"tiles": [[10], [' + near + '], [10]], "freeTile": 1}',
        '{"board": [[1' + "0" * draw(st.sampled_from([4299, 4300, 4301, 10_000])) + ']], "free_tile": 1}',
        '{"board": [[1]], "free_tile": 1' + "0" * draw(st.sampled_from([4300, 10_000])) + "}",
        '{"board": [[1]], "free_tile": 1.' + "5" * 10_000 + "e99999}",
        opener * depth,  # unclosed
    ]
    text = draw(st.sampled_from(shapes))
    return text.encode(), draw(st.sampled_from(["deep.json", "deep.csv", "deep.txt", "deep"]))


# ------------------------------------------------------------------------ step-cycle and Zenji files
STEP_CHARS = "SXZ. "
STEP_NAMES = ("maze.txt", "step.txt", "maze", "maze.json", "maze.TXT")


def _line_breaks_and_encoding(draw: st.DrawFn, rows: list[str]) -> bytes:
    sep = draw(st.sampled_from(["\n", "\r\n", "\r", "\n\n", "\n \n"]))
    text = draw(st.sampled_from(["", "\ufeff", "\n", "  \n"])) + sep.join(rows) + draw(
        st.sampled_from(["", "\n", "\n\n\n", " "]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "utf-16", "latin-1", "utf-8-sig"]))
    return text.encode(encoding, "replace")


@st.composite
def step_text_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Seed 003's text mazes, nearly: rows of 'S', 'X', 'Z', '.' and spaces with now and then a stray
    character, no 'S' or two, blank lines inside; or a small file that describes a huge board."""
    kind = draw(st.integers(0, 9))
    if kind == 0:  # short lines are padded: a few bytes may claim millions of cells
        height = draw(st.sampled_from([1, 2, 999, 1000, 1001, 2000]))
        width = draw(st.sampled_from([1, 2, 999, 1000, 1001, 2000, 100_000]))
        rows = ["S" + "X" * (width - 1), *["X"] * max(0, height - 2), "Z"][:height]
    else:
        alphabet = STEP_CHARS if kind < 8 else STEP_CHARS + NOISE_CHARS + "#Gs"
        rows = draw(st.lists(st.text(alphabet=st.sampled_from(alphabet), max_size=16), max_size=12))
        if rows and kind in (5, 6):  # one start and a goal, so the later checks are reached
            rows[0] = "S" + rows[0].replace("S", "X")
            rows[-1] = rows[-1].replace("S", "X") + "Z"
        if rows and kind == 7:  # one stray character somewhere
            r = draw(st.integers(0, len(rows) - 1))
            c = draw(st.integers(0, len(rows[r])))
            rows[r] = rows[r][:c] + draw(st.sampled_from(NOISE_CHARS + "#GsxYz[")) + rows[r][c:]
    return _line_breaks_and_encoding(draw, rows), draw(st.sampled_from(STEP_NAMES) | filenames())


@cache
def _step_cycles() -> st.SearchStrategy[Any]:
    lengths = st.integers(1, 4) | st.integers(-2, 1002) | st.sampled_from([0, 1000, 1001, 2**31, 10**30])
    return st.one_of(st.lists(lengths, min_size=1, max_size=4),
                     st.lists(lengths | json_scalars(), max_size=18), json_values(4), near_markers())


@cache
def _step_rows() -> st.SearchStrategy[Any]:
    row = st.text(alphabet=st.sampled_from(STEP_CHARS), max_size=10).map(lambda r: "S" + r + "Z")
    odd_row = st.text(alphabet=st.sampled_from(STEP_CHARS + "#\x00é"), max_size=10)
    return st.one_of(st.lists(row, min_size=1, max_size=6), st.lists(odd_row, max_size=6),
                     st.lists(st.text(max_size=8) | json_scalars(), max_size=4), json_values(4),
                     near_markers())


@st.composite
def step_json_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """The project's step JSON: 'maze' (rows of text), 'cycle', 'name', with near-valid or random values."""
    fields_ = {"maze": _step_rows(), "cycle": _step_cycles(), "name": st.text(max_size=20) | json_values(4)}
    chosen = draw(st.lists(st.sampled_from(list(fields_)), max_size=3, unique=True))
    if draw(st.booleans()):
        chosen.append("maze")
    data = {key: draw(fields_[key]) for key in chosen}
    if draw(st.integers(0, 5)) == 0:
        data.update(draw(st.dictionaries(st.text(max_size=8), json_values(4), max_size=2)))
    text = json.dumps(data, allow_nan=True, indent=draw(st.sampled_from([None, 1])))
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]  # cut short
    return text.encode("utf-8", "surrogatepass"), draw(st.sampled_from(["maze.json", "maze.txt", "maze"]))


ZENJI_NAMES = ("board.txt", "zenji.txt", "pipes.json", "board", "board.csv")


@cache
def _zenji_groups(odd: bool = True) -> st.SearchStrategy[str]:
    """One tile of the 4-digit text form: mostly codes 0-4, now and then (``odd``) a digit beyond, the
    wrong length, a letter, or the bracket form."""
    good = st.text(alphabet=st.sampled_from("01234"), min_size=4, max_size=4)
    if not odd:
        return good
    odd = st.one_of(st.text(alphabet=st.sampled_from("0123456789"), min_size=0, max_size=6),
                    st.text(alphabet=st.sampled_from("01234xX-+ ,[]é\x00"), max_size=6),
                    st.sampled_from(["3223", "1441", "[3,2,2,3]", "[1, 4, 4, 1]", "[1,4,4]", "[", "]", "#"]))
    return st.one_of(good, good, good, odd)


@st.composite
def zenji_text_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Seed 001's boards as text, nearly: rows of 4-digit tiles (or [N,E,S,W] groups), comment lines,
    ragged rows, stray codes, one source and one drain or none or two; or far too many tiles."""
    kind = draw(st.integers(0, 9))
    if kind == 0:  # 32 tiles a side, more, or a line of 200 KB
        height, width = draw(st.sampled_from([(32, 32), (33, 2), (2, 33), (33, 33), (1000, 2), (1, 40_000)]))
        tiles = [["0000"] * width for _ in range(height)]
        tiles[0][0], tiles[-1][-1] = "3223", "1441"
        rows = [" ".join(row) for row in tiles]
    else:
        width = draw(st.integers(1, 6))
        group = _zenji_groups() if draw(st.integers(0, 2)) == 0 else _zenji_groups(odd=False)
        rows = [[draw(group) for _ in range(width)] for _ in range(draw(st.integers(0, 6)))]
        if rows and kind < 6:  # a source top-left and a drain bottom-right, so the later checks are reached
            rows[0][0], rows[-1][-1] = "3223", "1441"
        if rows and kind == 6:  # a ragged row
            r = draw(st.integers(0, len(rows) - 1))
            rows[r] = rows[r][: draw(st.integers(0, width))]
        bracket = draw(st.integers(0, 3)) == 0
        between = draw(st.sampled_from([" ", "", ", "])) if bracket else " "
        def written(group: str) -> str:
            return f"[{','.join(group)}]" if bracket and len(group) == 4 and group.isdigit() else group

        rows = [between.join(written(group) for group in row) for row in rows]
        for _ in range(draw(st.integers(0, 2))):  # comments, blank lines
            rows.insert(draw(st.integers(0, len(rows))), draw(st.sampled_from(
                ["# a comment", "#", "  # indented", "#3223", "", "   ", "# 3223 1441"])))
    return _line_breaks_and_encoding(draw, rows), draw(st.sampled_from(ZENJI_NAMES) | filenames())


@cache
def _zenji_pipes() -> st.SearchStrategy[Any]:
    tile = st.one_of(st.lists(st.integers(0, 4), min_size=4, max_size=4),
                     st.lists(st.integers(0, 4), min_size=4, max_size=4),
                     st.lists(_codes(0, 4), max_size=5), json_scalars(), st.text(max_size=5))
    grid = st.lists(st.lists(tile, min_size=1, max_size=5), min_size=1, max_size=5)

    def with_ends(rows: list[list[Any]]) -> list[list[Any]]:
        rows[0][0], rows[-1][-1] = [3, 2, 2, 3], [1, 4, 4, 1]
        return rows

    wide = st.sampled_from([32, 33]).map(lambda n: [[[0, 0, 0, 0]] * n for _ in range(n)])
    return st.one_of(grid.map(with_ends), grid, _grid_of(tile), wide, json_values(4), near_markers())


@st.composite
def zenji_json_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """The project's Zenji JSON: 'pipes' (rows of [N, E, S, W] tiles), 'flow', 'name', near-valid or
    random."""
    flows = st.sampled_from(["downhill", "free", "sideways"]) | json_scalars()
    fields_ = {"pipes": _zenji_pipes(), "flow": flows, "name": st.text(max_size=20) | json_values(4)}
    chosen = draw(st.lists(st.sampled_from(list(fields_)), max_size=3, unique=True))
    if draw(st.booleans()):
        chosen.append("pipes")
    data = {key: draw(fields_[key]) for key in chosen}
    if draw(st.integers(0, 5)) == 0:
        data.update(draw(st.dictionaries(st.text(max_size=8), json_values(4), max_size=2)))
    text = json.dumps(data, allow_nan=True, indent=draw(st.sampled_from([None, 1])))
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]  # cut short
    return text.encode("utf-8", "surrogatepass"), draw(st.sampled_from(["pipes.json", "board.txt", "board"]))


@st.composite
def valid_step_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Small step mazes the parser accepts (text or JSON), so their searches run."""
    height, width = draw(st.integers(1, 8)), draw(st.integers(2, 8))
    rows = [[draw(st.sampled_from("XX.")) for _ in range(width)] for _ in range(height)]
    start, goal = draw(st.lists(st.integers(0, height * width - 1), min_size=2, max_size=2, unique=True))
    rows[start // width][start % width], rows[goal // width][goal % width] = "S", "Z"
    lines = ["".join(row) for row in rows]
    if draw(st.booleans()):
        return ("\n".join(lines) + "\n").encode(), "maze.txt"
    cycle = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4))
    return json.dumps({"maze": lines, "cycle": cycle}).encode(), "maze.json"


@st.composite
def valid_zenji_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Small Zenji boards the parser accepts (text or JSON, either flow), so their searches run."""
    height, width = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    code = st.sampled_from([0, 1, 2, 1, 2])
    tiles = [[[draw(code) for _ in range(4)] for _ in range(width)] for _ in range(height)]
    tiles[0][0], tiles[-1][-1] = [3, 2, 2, 3], [1, 4, 4, 1]
    if draw(st.booleans()):
        text = "".join(" ".join("".join(map(str, t)) for t in row) + "\n" for row in tiles)
        return text.encode(), "board.txt"
    flow = draw(st.sampled_from(["downhill", "free"]))
    return json.dumps({"pipes": tiles, "flow": flow}).encode(), "board.json"


# ------------------------------------------------------------------------------- sliding-tile files
SLIDING_NAMES = ("board.txt", "puzzle.txt", "korf.txt", "board", "board.json", "board.csv")


@st.composite
def _sliding_numbers(draw: st.DrawFn) -> list[Any]:
    """A board's numbers: a shuffled 0..n²-1 (solvable or not) or near it — one missing, repeated, out of
    range, a stray word — or a few random numbers."""
    n = draw(st.sampled_from([2, 3, 3, 4, 4, 5, 6]))
    numbers: list[Any] = draw(st.permutations(list(range(n * n))))
    kind = draw(st.integers(0, 6))
    if kind == 1 and numbers:
        numbers.pop(draw(st.integers(0, len(numbers) - 1)))
    elif kind == 2 and numbers:
        numbers[draw(st.integers(0, len(numbers) - 1))] = draw(st.integers(-3, 30) | st.just(10**9))
    elif kind == 3 and numbers:
        numbers[draw(st.integers(0, len(numbers) - 1))] = draw(st.sampled_from(
            ["x", "1.5", "-1", "goal:", "#", "１", "²", "0x1", "", "\x00"]))
    elif kind == 4:
        numbers = draw(st.lists(st.integers(0, 30), max_size=30))
    return numbers


def _sliding_layout(draw: st.DrawFn, numbers: list[Any]) -> str:
    sep = draw(st.sampled_from([" ", ",", ", ", "\t", "  ", " , "]))
    if draw(st.booleans()) or not numbers:
        return sep.join(map(str, numbers))
    width = draw(st.integers(1, max(1, len(numbers))))
    return "\n".join(sep.join(map(str, numbers[i:i + width])) for i in range(0, len(numbers), width))


@st.composite
def sliding_text_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Sliding-tile boards as text, nearly: one line or rows, commas or spaces, a 'goal:' of the same form
    (or of another size, or two of them), comments; now and then stray characters."""
    text = _sliding_layout(draw, draw(_sliding_numbers()))
    if draw(st.booleans()):
        goal = _sliding_layout(draw, draw(_sliding_numbers()))
        marker = draw(st.sampled_from(["goal:", "GOAL :", "goal", "goal:\n", "goal: goal:"]))
        text += draw(st.sampled_from(["\n", " ", "\n\n"])) + marker + " " + goal
    if draw(st.integers(0, 3)) == 0:
        text = draw(st.sampled_from(["# a board\n", "#\n", "  \n"])) + text + draw(
            st.sampled_from(["", "  # end", "\n#", "\n\n"]))
    if draw(st.integers(0, 5)) == 0:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(NOISE_CHARS + "#:-+{}[]")) + text[at:]
    name = draw(st.sampled_from(SLIDING_NAMES) | filenames())
    return _line_breaks_and_encoding(draw, text.split("\n")), name


@st.composite
def sliding_json_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """The project's sliding JSON: 'family', 'n', 'tiles', 'goal', 'name' with near-valid or random values."""
    tiles = _sliding_numbers() | json_values(4)
    rows = st.integers(3, 5).flatmap(lambda n: st.permutations(list(range(n * n))).map(
        lambda xs, n=n: [xs[i:i + n] for i in range(0, n * n, n)]))
    fields_ = {"family": st.sampled_from(["sliding", "grid", ""]) | json_values(2), "n": st.integers(-1, 7)
               | json_values(2), "tiles": tiles | rows, "goal": tiles | rows | st.none(),
               "name": st.text(max_size=20) | json_values(3)}
    chosen = draw(st.lists(st.sampled_from(list(fields_)), max_size=4, unique=True))
    if draw(st.booleans()):
        chosen += [k for k in ("family", "tiles") if k not in chosen]
    data = {key: draw(fields_[key]) for key in chosen}
    text = json.dumps(data, allow_nan=True)
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]  # cut short
    return text.encode("utf-8", "surrogatepass"), draw(st.sampled_from(SLIDING_NAMES))


# --------------------------------------------------------------------------------------- images
IMAGE_MODES = ("1", "L", "P", "RGB", "RGBA", "LA", "PA", "I", "I;16", "I;16B", "F", "CMYK", "YCbCr", "LAB",
               "HSV", "RGBX")
SAVE_FORMATS = ("PNG", "PNG", "GIF", "BMP", "JPEG", "WEBP", "PPM", "TIFF", "ICO")
PALETTE = ((0, 0, 0), (255, 255, 255), (0, 0, 255), (0, 255, 0), (255, 255, 0), (255, 0, 0),
           (128, 128, 128), (127, 127, 127), (40, 40, 200), (200, 200, 60), (90, 160, 90))


@st.composite
def image_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """Small images in every mode Pillow has, saved as PNG/GIF/BMP/JPEG/WebP/PPM (and formats we refuse),
    sometimes animated, then now and then damaged: cut short, bytes changed, or the size in the header
    rewritten (with a correct checksum) to claim many more pixels than the file holds."""
    from PIL import Image

    width, height = draw(st.integers(1, 24)), draw(st.integers(1, 24))
    if draw(st.booleans()):  # maze-like: walls, floor, marker colours
        colours = draw(st.lists(st.sampled_from(PALETTE), min_size=width * height, max_size=width * height))
        alpha = [255] * (width * height)
        if draw(st.integers(0, 3)) == 0:
            alpha = draw(st.lists(st.sampled_from([0, 128, 255, 255]), min_size=width * height,
                                  max_size=width * height))
        rgba = bytes(v for (r, g, b), a in zip(colours, alpha, strict=True) for v in (r, g, b, a))
        image = Image.frombytes("RGBA", (width, height), rgba)
    else:  # noise
        image = Image.frombytes("RGBA", (width, height), draw(st.binary(min_size=4 * width * height,
                                                                        max_size=4 * width * height)))
    mode = draw(st.sampled_from(IMAGE_MODES))
    try:
        image = image.convert(mode)
    except (ValueError, OSError):
        image = image.convert("RGB")
    fmt = draw(st.sampled_from(SAVE_FORMATS))
    params: dict[str, Any] = {}
    if fmt in ("PNG", "GIF") and image.mode in ("P", "L") and draw(st.booleans()):
        params["transparency"] = draw(st.integers(0, 255))
    if fmt == "JPEG":
        params["quality"] = draw(st.integers(1, 95))
    if fmt == "WEBP":
        params["lossless"] = draw(st.booleans())
    if fmt in ("PNG", "GIF", "WEBP") and draw(st.integers(0, 5)) == 0:
        params["save_all"] = True
        params["append_images"] = [image.rotate(90)]
    data = _save(image, fmt, params)
    name = draw(st.sampled_from([f"maze.{fmt.lower()}", "maze.png", "maze.txt", "maze", "maze.csv"])
                | filenames())
    damage = draw(st.integers(0, 5))
    # Positions are drawn before they are fitted to the file: an encoder (WebP) may give files of a
    # different length for the same image, and a draw must not depend on that.
    if damage == 1:
        data = data[: draw(st.integers(0, 1 << 16)) % (len(data) + 1)]
    elif damage == 2:
        changes = draw(st.lists(st.tuples(st.integers(0, 1 << 16), st.integers(0, 255)),
                                min_size=1, max_size=4))
        data = _flip(data, [(position % max(len(data), 1), value) for position, value in changes])
    elif damage == 3:
        data = _claim_size(data, draw(st.sampled_from([0, 1, 999, 1000, 1001, 5000, 9999, 10_001, 40_000,
                                                       65_535, 2**31 - 1])),
                           draw(st.sampled_from([0, 1, 999, 1000, 1001, 9999, 20_000, 65_535])))
    return data, name


def _save(image: Any, fmt: str, params: dict[str, Any]) -> bytes:
    for attempt in (params, {}, None):
        buffer = io.BytesIO()
        try:
            if attempt is None:
                image.convert("RGB").save(buffer, fmt)
            else:
                image.save(buffer, fmt, **attempt)
            return buffer.getvalue()
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return b""


def _flip(data: bytes, changes: list[tuple[int, int]]) -> bytes:
    out = bytearray(data)
    for position, value in changes:
        if position < len(out):
            out[position] = value
    return bytes(out)


def _claim_size(data: bytes, width: int, height: int) -> bytes:
    """The file with the width and height of its header replaced (PNG: with the IHDR checksum fixed)."""
    out = bytearray(data)
    if data.startswith(b"\x89PNG") and len(data) >= 33:
        out[16:24] = struct.pack(">II", width, height)
        out[29:33] = struct.pack(">I", zlib.crc32(bytes(out[12:29])))
    elif data.startswith(b"BM") and len(data) >= 26:
        out[18:26] = struct.pack("<ii", min(width, 2**31 - 1), min(height, 2**31 - 1))
    elif data.startswith(b"GIF") and len(data) >= 10:
        out[6:10] = struct.pack("<HH", min(width, 65_535), min(height, 65_535))
    elif data[:2] in (b"P4", b"P5", b"P6") and b"\n" in data[:3]:
        header_end = data.index(b"\n", 3) if b"\n" in data[3:] else 3
        out[3:header_end] = f"{width} {height}".encode()
    return bytes(out)


# ---------------------------------------------------------------------------------------- checks
def _strict_json(value: Any, what: str) -> None:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise AssertionError(f"{what} is not strict JSON ({err}): {_short(value)}") from None


def _short(value: Any, limit: int = 300) -> str:
    try:
        text = repr(value)
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__} too deep or too long to show>"
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"


def _puzzle_error_or(call: Callable[[], Any]) -> Any:
    """``call()``'s result, or None when it raised a PuzzleError; any other exception goes through."""
    try:
        return call()
    except PuzzleError as err:
        assert isinstance(err.message, str) and err.message, f"a PuzzleError without a message: {err!r}"
        return None


def _check_loaded(puzzle: Any) -> None:
    from server.puzzles.registry import family_of

    family = family_of(puzzle)
    info = family.info(puzzle)
    _strict_json(info, f"{family.name} info")
    cells = family.cells(puzzle)
    width, height = family.size(puzzle)
    assert cells is None or len(cells) == width * height, "cells are not one byte per cell"
    assert family.cost(puzzle) >= 1


def check_parsers(data: bytes, filename: str, raw_options: Any = None) -> None:
    """Every family's sniff and load, detection and ``load_puzzle``: only PuzzleError may come out."""
    data, raw_options = materialize(data), materialize(raw_options)
    for family in FAMILIES.values():
        started = time.perf_counter()
        score = family.sniff(filename, data)
        took = time.perf_counter() - started
        assert isinstance(score, int | float) and 0 <= score <= 1, f"{family.name}.sniff gave {score!r}"
        assert took < SNIFF_SECONDS, f"{family.name}.sniff took {took:.1f} s on {len(data):,} bytes"
        options = _puzzle_error_or(lambda f=family: f.load_options(raw_options)) or family.load_options({})
        puzzle = _puzzle_error_or(lambda f=family, o=options: f.load(data, filename, o, LIMITS))
        if puzzle is not None:
            _check_loaded(puzzle)
    _puzzle_error_or(lambda: detect_family(filename, data))
    for name in (None, *FAMILY_NAMES, "no-such-family"):
        puzzle = _puzzle_error_or(
            lambda n=name: load_puzzle(data, filename, n, options=raw_options, limits=LIMITS))
        if puzzle is not None:
            _check_loaded(puzzle)


def check_json_options(family_name: str, raw: Any) -> None:
    family = FAMILIES[family_name]
    raw = materialize(raw)
    for stage, validate in (("run", family.run_options), ("load", family.load_options)):
        values = _puzzle_error_or(lambda v=validate: v(raw))
        if values is not None:
            expected = {o.name for o in family.options if o.stage in (stage, "both")}
            assert set(values) == expected, f"{stage} options {sorted(values)} != {sorted(expected)}"
            _strict_json(values, f"{stage} options")


def check_text_options(family_name: str, fields_: dict[str, str], stage: str) -> None:
    family = FAMILIES[family_name]
    values = _puzzle_error_or(lambda: family.text_options(fields_, stage))
    if values is not None:
        _strict_json(values, f"{stage} options from text")
        # What the text path accepts, the JSON path accepts too (the solution image re-checks them).
        json_values_ = json.loads(json.dumps(values))
        validate = family.run_options if stage == "run" else family.load_options
        assert validate(json_values_) == values or _same_points(validate(json_values_), values)


def _same_points(a: dict[str, Any], b: dict[str, Any]) -> bool:
    norm = lambda d: {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}  # noqa: E731
    return norm(a) == norm(b)


# ---------------------------------------------------------------------------------- error logging
class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def logged_errors() -> Iterator[list[logging.LogRecord]]:
    """Collect ERROR records of every logger (the app's, the run threads', socketio's, engineio's)."""
    handler = _Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


def assert_nothing_logged(records: list[logging.LogRecord]) -> None:
    if records:
        formatter = logging.Formatter("%(name)s %(levelname)s: %(message)s")
        shown = "\n".join(formatter.format(r) for r in records[:3])
        raise AssertionError(f"{len(records)} error(s) logged:\n{shown}")


# ----------------------------------------------------------------------------------- the web app
GRID_ID, LABYRINTH_ID = "<grid id>", "<labyrinth id>"  # placeholders, replaced by the real ids
PLACEHOLDER_FAMILY = {GRID_ID: "grid", LABYRINTH_ID: "labyrinth"}


@dataclass
class Fixture:
    """One app with a small grid and a small labyrinth uploaded; counts the statuses it saw."""

    app: Any
    client: Any
    ids: dict[str, str]
    statuses: Counter = field(default_factory=Counter)
    acks: Counter = field(default_factory=Counter)

    def real(self, value: Any, level: int = 0) -> Any:
        """``value`` with the id placeholders replaced by the real ids."""
        if isinstance(value, str) and value in self.ids:
            return self.ids[value]
        if level > 4:
            return value
        if isinstance(value, list | tuple):
            return type(value)(self.real(v, level + 1) for v in value)
        if isinstance(value, dict):
            return {k: self.real(v, level + 1) for k, v in value.items()}
        return value

    def json_body(self, value: Any) -> bytes:
        """``value`` as JSON text (NaN and Infinity as Python writes them), ids and markers made real."""
        text = json.dumps(self.real(value), allow_nan=True).encode("utf-8", "surrogatepass")
        return deepen(text, WIRE_MIN_SPARE)


def make_fixture() -> Fixture:
    from server import create_app
    from server.config import Config

    # Small searches; per-client caps and rate limits out of the way (one test client sends everything,
    # and the two puzzles uploaded first must stay in the store).
    wanted = dict(testing=True, serializer="default", max_upload_bytes=2_000_000, max_pixels=1_000_000,
                  max_expanded=20_000, max_expanded_generic=2_000, max_stored_generic=50_000, max_seconds=2.0,
                  frame_window=2, ack_timeout=3.0, stream_timeout=10.0, store_max_cells=20_000_000,
                  max_concurrent_runs=2, solve_wait=10.0, uploads_per_minute=10**9, runs_per_minute=10**9,
                  max_puzzles_per_client=10**6, clients_per_ip=10**3, max_runs_per_client=8)
    known = {f.name for f in fields(Config)}
    app = create_app(Config(**{k: v for k, v in wanted.items() if k in known}))
    _serialize_socket_sends()
    client = app.test_client()
    ids = {}
    for placeholder, name in ((GRID_ID, "seed-lee-example.txt"), (LABYRINTH_ID, "labyrinth-course-5x5.json")):
        data = (ROOT / "mazes" / name).read_bytes()
        response = client.post("/api/puzzles", data={"file": (io.BytesIO(data), name)},
                               content_type="multipart/form-data")
        assert response.status_code == 201, response.get_data(as_text=True)
        ids[placeholder] = response.json["id"]
    return Fixture(app, client, ids)


def _serialize_socket_sends() -> None:
    """Make each emit reach the socket test clients whole.

    The test client puts a binary event (a run's frame) back together from its header and attachments
    in one shared variable; two runs streaming at once interleave their pieces there ("Unexpected
    binary attachment"). A real server sends each client's packets on that client's own socket.
    """
    from server import socketio

    manager = socketio.server.manager
    emit, lock = manager.emit, threading.Lock()

    def emit_whole(*args: Any, **kwargs: Any) -> Any:
        with lock:
            return emit(*args, **kwargs)

    manager.emit = emit_whole


def check_response(fx: Fixture, response: Any, what: str) -> Any:
    """No 5xx; a 4xx is JSON {"error": text}; a 2xx JSON body is strict JSON. Returns the JSON or None."""
    status = response.status_code
    fx.statuses[status] += 1
    body = response.get_data()
    assert status < 500, f"{what}: status {status}: {body[:500]!r}"
    if status >= 400:
        payload = response.get_json(silent=True)
        assert isinstance(payload, dict), f"{what}: status {status} without a JSON object: {body[:300]!r}"
        error = payload.get("error")
        assert isinstance(error, str) and error.strip(), f"{what}: {status} without an error: {payload}"
        return payload
    if response.mimetype == "application/json":
        try:
            return json.loads(body, parse_constant=_refuse_constant)
        except ValueError as err:
            raise AssertionError(f"{what}: status {status} with a body that is not strict JSON ({err}): "
                                 f"{body[:300]!r}") from None
    return None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _request(fx: Fixture, method: str, url: str, what: str, **kwargs: Any) -> Any:
    try:
        response = fx.client.open(url, method=method, **kwargs)
    except Exception as err:  # the app let an exception through its error handlers
        raise AssertionError(f"{what}: {method} {url[:200]} raised {type(err).__name__}: {err}") from err
    return response


def _quote(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def _query(params: Any) -> str:
    if isinstance(params, str):
        return params
    return urllib.parse.urlencode(params)


# The bodies an upload may have: a multipart form, a JSON object, or raw bytes of any content type.
CONTENT_TYPES = ("application/json", "multipart/form-data", "multipart/form-data; boundary=x",
                 "text/plain", "application/octet-stream", "application/x-www-form-urlencoded", "",
                 "application/json; charset=utf-16", "multipart/mixed; boundary=--")
GALLERY_NAMES = ("seed-lee-example", "weighted-swamp", "rooms", "perfect-small", "braid-small",
                 "labyrinth-course-5x5", "step-seed-003", "zenji-seed-001", "zenji-free-5x5", "no-such-maze",
                 "")


@cache
def any_file() -> st.SearchStrategy[tuple[bytes, str]]:
    # one_of favours its first branches: the files most likely to parse come first
    return st.one_of(grid_text_files(), image_files(), labyrinth_json_files(), csv_files(),
                     step_text_files(), zenji_text_files(), step_json_files(), zenji_json_files(),
                     byte_files(), deep_json_files())


@cache
def deep_json_texts() -> st.SearchStrategy[bytes]:
    """Deep JSON for HTTP bodies (see ``deep_json_files``)."""
    return deep_json_files(wire=True).map(lambda pair: pair[0])


@st.composite
def upload_requests(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["multipart", "multipart", "multipart", "json", "raw"]))
    if kind == "multipart":
        data, name = draw(any_file())
        fields_kind = draw(st.sampled_from(["none", "none", "load", "any"]))  # hypothesis favours the first
        form: dict[str, Any] = {} if fields_kind == "none" else draw(
            text_option_dicts(LOAD_NAMES if fields_kind == "load" else OPTION_NAMES))
        file_field = draw(st.sampled_from(["file"] * 8 + ["none", "text"]))  # hypothesis favours the first
        if file_field == "file":
            form["file"] = (data, name)
        elif file_field == "text":
            form["file"] = draw(st.text(max_size=20))  # a text field named 'file', not a file
        family = draw(st.sampled_from(["none", "none", "a family", "any"]))
        if family != "none":
            form["family"] = draw(st.sampled_from(FAMILY_NAMES) if family == "a family" else text_values())
        return {"kind": kind, "form": form}
    if kind == "json":
        body = draw(st.one_of(
            st.fixed_dictionaries({"gallery": st.sampled_from(GALLERY_NAMES) | json_values(6)}),
            json_values(), option_dicts()))
        return {"kind": kind, "json": body}
    return {"kind": kind, "body": draw(raw_bytes() | deep_json_texts()),
            "content_type": draw(st.sampled_from(CONTENT_TYPES))}


@cache
def solve_bodies() -> st.SearchStrategy[Any]:
    near = st.builds(lambda algorithm, options: {**options, "algorithm": algorithm},
                     st.sampled_from(ALGORITHM_NAMES) | json_values(4), option_dicts())
    return st.one_of(near, near, option_dicts(), json_values())


@cache
def puzzle_ids() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from([GRID_ID, LABYRINTH_ID]), st.sampled_from([GRID_ID, LABYRINTH_ID]),
                     st.text(min_size=1, max_size=40), st.sampled_from(["0" * 20, "x" * 5000, "..", "%00"]))


@cache
def solution_queries() -> st.SearchStrategy[Any]:
    params = st.builds(lambda algorithm, options: {"algorithm": algorithm, **options},
                       st.sampled_from(ALGORITHM_NAMES) | text_values(), text_option_dicts())
    return st.one_of(params, text_option_dicts(), st.text(max_size=60),
                     st.sampled_from(["algorithm=bfs&algorithm=dfs", "diagonal", "=&&=", "weight=1e999",
                                      "start=0,0&goal=999999999999,1", "%ff%fe=%00"]))


@st.composite
def solve_requests(draw: st.DrawFn) -> dict[str, Any]:
    pid = draw(puzzle_ids())
    kind = draw(st.sampled_from(["valid", "valid", "json", "json", "raw", "none"]))
    if kind == "valid" and pid in PLACEHOLDER_FAMILY:
        algorithm, options = draw(valid_runs(PLACEHOLDER_FAMILY[pid]))
        return {"id": pid, "kind": "json", "json": {**options, "algorithm": algorithm}}
    if kind in ("json", "valid"):
        return {"id": pid, "kind": "json", "json": draw(solve_bodies())}
    if kind == "raw":
        return {"id": pid, "kind": kind, "body": draw(raw_bytes() | deep_json_texts()),
                "content_type": draw(st.sampled_from(CONTENT_TYPES))}
    return {"id": pid, "kind": kind}


API_ROUTES = ("/api/algorithms", "/api/families", "/api/gallery", "/api/puzzles", "/api/", "/api/nothing",
              "/", "/api/puzzles/{id}", "/api/puzzles/{id}/cells", "/api/puzzles/{id}/solve",
              "/api/puzzles/{id}/solution.png", "/api/puzzles/{id}/nothing", "/static/../server/app.py",
              "/api/puzzles/{id}/run-options", "/api/puzzles/{id}/animation", "/api/animations/{id}",
              "/api/animations/{id}.gif", "/api/puzzles/{id}/code/space", "/api/puzzles/{id}/code/verdict",
              "/api/puzzles/{id}/code/rules", "/api/puzzles/{id}/code/runs")


@st.composite
def get_requests(draw: st.DrawFn) -> dict[str, Any]:
    route = draw(st.sampled_from(API_ROUTES))
    method = draw(st.sampled_from(["GET", "GET", "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]))
    pid = draw(puzzle_ids())
    query = draw(solution_queries()) if route.endswith("solution.png") or draw(st.integers(0, 4)) == 0 else ""
    if route.endswith("solution.png") and pid in PLACEHOLDER_FAMILY and draw(st.booleans()):
        query = run_query(draw(valid_runs(PLACEHOLDER_FAMILY[pid])))
    return {"route": route, "method": method, "id": pid, "query": query}


def check_upload(fx: Fixture, request: dict[str, Any], follow: dict[str, Any] | None = None) -> None:
    """POST /api/puzzles; when it parses, its info, cells, a solve and a solution image as well."""
    what = f"upload ({request['kind']})"
    if request["kind"] == "multipart":
        # Werkzeug's test client writes a file name as it is: a line break would end the part's header.
        form = {k: (io.BytesIO(materialize(v[0])), re.sub(r"[\r\n]", " ", v[1])) if isinstance(v, tuple)
                else v for k, v in request["form"].items()}
        response = _request(fx, "POST", "/api/puzzles", what, data=form, content_type="multipart/form-data")
    elif request["kind"] == "json":
        response = _request(fx, "POST", "/api/puzzles", what, data=fx.json_body(request["json"]),
                            content_type="application/json")
    else:
        response = _request(fx, "POST", "/api/puzzles", what, data=deepen(request["body"], WIRE_MIN_SPARE),
                            content_type=request["content_type"])
    info = check_response(fx, response, what)
    if response.status_code != 201:
        return
    assert isinstance(info, dict) and isinstance(info.get("id"), str), f"{what}: 201 without an id: {info}"
    pid = _quote(info["id"])
    check_response(fx, _request(fx, "GET", f"/api/puzzles/{pid}", "info"), "info of an upload")
    check_response(fx, _request(fx, "GET", f"/api/puzzles/{pid}/cells", "cells"), "cells of an upload")
    if follow:
        body, query = follow["json"], _query(follow["query"])
        if follow["valid"] and info.get("family") in follow["valid"]:  # a run the family takes
            algorithm, options = follow["valid"][info["family"]]
            body, query = {**options, "algorithm": algorithm}, _query(run_query((algorithm, options)))
        body = fx.json_body(body)
        check_response(fx, _request(fx, "POST", f"/api/puzzles/{pid}/solve", "solve", data=body,
                                    content_type="application/json"),
                       f"solve of an upload with {_short(body)}")
        check_response(fx, _request(fx, "GET", f"/api/puzzles/{pid}/solution.png?{query}", "png"),
                       f"solution.png of an upload with ?{query[:200]}")


@st.composite
def solvable_uploads(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """An upload that most likely parses (a text grid, an image, a labyrinth board, a step maze, a Zenji
    board; no form fields),
    and a run its family takes: the searches and the solution image run on odd puzzles."""
    data, name = draw(st.one_of(grid_text_files(), valid_labyrinth_files(), image_files(), valid_step_files(),
                                valid_zenji_files()))
    form: dict[str, Any] = {"file": (data, name)}
    if name.startswith("board.") and draw(st.booleans()):  # the labyrinth's load options, as form text
        labyrinth = tuple(o.name for o in FAMILIES["labyrinth"].options if o.stage in ("load", "both"))
        chosen = draw(st.lists(st.sampled_from(labyrinth), max_size=3, unique=True))
        form.update({option: _as_text(draw(valid_value(option))) for option in chosen})
    runs = {family: draw(valid_runs(family)) for family in FAMILY_NAMES}
    return {"kind": "multipart", "form": form}, {"json": {}, "query": "", "valid": runs}


@cache
def follow_ups() -> st.SearchStrategy[dict[str, Any] | None]:
    valid = st.none() | st.fixed_dictionaries({name: valid_runs(name) for name in FAMILY_NAMES})
    return st.none() | st.fixed_dictionaries({"json": solve_bodies(), "query": solution_queries(),
                                              "valid": valid})


def check_solve(fx: Fixture, request: dict[str, Any]) -> None:
    pid = _quote(fx.real(request["id"]))
    url = f"/api/puzzles/{pid}/solve"
    what = f"solve {request['id'][:40]!r} ({request['kind']})"
    if request["kind"] == "json":
        response = _request(fx, "POST", url, what, data=fx.json_body(request["json"]),
                            content_type="application/json")
    elif request["kind"] == "raw":
        response = _request(fx, "POST", url, what, data=deepen(request["body"], WIRE_MIN_SPARE),
                            content_type=request["content_type"])
    else:
        response = _request(fx, "POST", url, what)
    result = check_response(fx, response, what)
    if response.status_code == 200:
        assert isinstance(result, dict) and isinstance(result.get("found"), bool), f"{what}: {_short(result)}"


def check_get(fx: Fixture, request: dict[str, Any]) -> None:
    url = request["route"].replace("{id}", _quote(fx.real(request["id"])))
    query = _query(request["query"])
    if query:
        url += "?" + query
    what = f"{request['method']} {request['route']}"
    response = _request(fx, request["method"], url, what)
    if request["method"] == "HEAD" or not url.startswith("/api/"):
        assert response.status_code < 500, f"{what}: status {response.status_code}"
        fx.statuses[response.status_code] += 1
        return
    check_response(fx, response, what)
    png = request["method"] == "GET" and request["route"].endswith("solution.png")
    if response.status_code == 200 and png:
        assert response.data.startswith(b"\x89PNG"), f"{what}: 200 without a PNG"


# --------------------------------------------------------------------------------------- socket
EVENT_NAMES = ("run_start", "run_start", "run_start", "run_ack", "run_cancel", "disconnect", "connect",
               "message", "json", "run_frame", "run_done", "", "nonexistent")


RESERVED_EVENTS = ("connect", "disconnect")  # Socket.IO's own; a client emitting them gets no answer
ANSWERING_EVENTS = ("run_start", "run_ack", "run_cancel")


@cache
def socket_values() -> st.SearchStrategy[Any]:
    """Payload pieces: JSON values (NaN and infinities go through the test client's JSON), bytes,
    huge strings."""
    return st.one_of(
        json_values(),
        st.binary(max_size=64),
        st.sampled_from([1_000, 100_000]).map(lambda n: "x" * n),
    )


@cache
def run_starts() -> st.SearchStrategy[dict[str, Any]]:
    key_values = {
        "run": st.text(max_size=10) | st.integers() | st.none() | socket_values(),
        "slot": st.sampled_from(["main", "compare", "", None]) | socket_values(),
        "puzzle": puzzle_ids() | socket_values(),
        "algorithm": st.sampled_from(ALGORITHM_NAMES) | socket_values(),
        "options": option_dicts() | option_dicts() | socket_values(),
    }
    near = st.fixed_dictionaries(
        {"run": st.text(min_size=1, max_size=8), "puzzle": st.sampled_from([GRID_ID, LABYRINTH_ID]),
         "algorithm": st.sampled_from(ALGORITHM_NAMES), "options": option_dicts()},
        optional={"slot": st.sampled_from(["main", "compare"])},
    )
    valid = [
        st.builds(lambda run_id, slot, run, pid=pid: {"run": run_id, "slot": slot, "puzzle": pid,
                                                     "algorithm": run[0], "options": run[1]},
                  st.text(min_size=1, max_size=8), st.sampled_from(["main", "compare"]), valid_runs(family))
        for pid, family in PLACEHOLDER_FAMILY.items()
    ]
    loose = st.fixed_dictionaries({}, optional=key_values)
    return st.one_of(*valid, near, loose)


@st.composite
def socket_events(draw: st.DrawFn) -> tuple[str, tuple[Any, ...], bool]:
    name = draw(st.sampled_from(EVENT_NAMES) | st.sampled_from(ANSWERING_EVENTS)
                | st.text(max_size=12).filter(lambda text: text != "*"))  # "*": a known bug, probed apart
    if name == "run_start":
        payload = draw(run_starts() | socket_values())
    elif name in ("run_ack", "run_cancel"):
        payload = draw(st.fixed_dictionaries({}, optional={"run": st.text(max_size=8) | socket_values(),
                                                           "seq": socket_values()}) | socket_values())
    else:
        payload = draw(socket_values())
    arity = draw(st.sampled_from([1, 1, 1, 1, 0, 2]))
    args = () if arity == 0 else (payload,) if arity == 1 else (payload, draw(socket_values()))
    return name, args, draw(st.booleans()) or name == "run_start"


def socket_sessions() -> st.SearchStrategy[list[tuple[str, tuple[Any, ...], bool]]]:
    return st.lists(socket_events(), min_size=1, max_size=4)


def _active_runs(fx: Fixture) -> int:
    return services(fx.app).runs.active()


def _handle_received(fx: Fixture, client: Any, problems: list[str]) -> None:
    for message in client.get_received():
        name, args = message["name"], message["args"]
        payload = args[0] if args else None
        if name == "run_frame" and isinstance(payload, dict):
            client.emit("run_ack", {"run": payload.get("run"), "seq": payload.get("seq")})
        elif name == "run_error":
            error = payload.get("error") if isinstance(payload, dict) else None
            if not (isinstance(error, str) and error.strip()) or error.startswith("internal error"):
                problems.append(f"run_error {_short(payload)}")
        elif name == "run_done" and not (isinstance(payload, dict)
                                         and isinstance(payload.get("result"), dict)):
            problems.append(f"run_done without a result: {_short(payload)}")


def _has_bytes(value: Any, level: int = 0) -> bool:
    if isinstance(value, bytes | bytearray):
        return True
    if level > 4:
        return False
    if isinstance(value, list | tuple):
        return any(_has_bytes(v, level + 1) for v in value)
    if isinstance(value, dict):
        return any(_has_bytes(v, level + 1) for v in value.values())
    return False


def _emit(client: Any, name: str, args: tuple[Any, ...], callback: bool) -> Any:
    """``client.emit(name, *args, callback=callback)``, but JSON payloads go as packet text made here
    (as a browser would send it), so that lists nested nearly to the recursion limit meet the server's
    decoder rather than the test client's encoder. Payloads with bytes go through the test client."""
    if _has_bytes(args):
        return client.emit(name, *materialize_shallow(args), callback=callback)
    ack_id = ""
    if callback:
        client.callback_counter += 1
        ack_id = str(client.callback_counter)
    text = json.dumps([name, *args], allow_nan=True, separators=(",", ":"))
    text = deepen(_short_ints(text).encode("utf-8", "surrogatepass"), WIRE_MIN_SPARE).decode(
        "utf-8", "surrogatepass")
    client.acks = None
    client.socketio.server._handle_eio_message(client.eio_sid, "2" + ack_id + text)  # 2: an EVENT packet
    ack, client.acks = client.acks, None
    if ack is None:
        return None
    return ack["args"][0] if len(ack["args"]) == 1 else ack["args"]


_LONG_INT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?\d{101,})')


def _short_ints(text: str) -> str:
    """JSON text with integers of over 100 digits cut to 100 (python-engineio's decoder refuses them
    with a ValueError before any handler: a known bug, pinned by an xfail test)."""
    return _LONG_INT.sub(lambda m: m.group(1)[:100] if m.group(1) else m.group(0), text)


def materialize_shallow(value: Any, level: int = 0) -> Any:
    """``value`` with each near-limit marker replaced by lists nested 50 deep (the test client's packet
    code recurses twice per level, so it cannot send more), and integers cut to 100 digits."""
    if isinstance(value, str) and _NEAR_VALUE.fullmatch(value):
        return nested(50)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**100:
        return int(str(value)[:100])
    if level > 300:
        return value
    if isinstance(value, list | tuple):
        return type(value)(materialize_shallow(v, level + 1) for v in value)
    if isinstance(value, dict):
        return {k: materialize_shallow(v, level + 1) for k, v in value.items()}
    return value


_SESSIONS = [0]


def release_memory() -> None:
    """Collect cycles and hand freed memory back to the system (glibc keeps it per thread arena: every
    run thread frees its frames in an arena of its own, and a long socket fuzz grows ~0.3 MB a session
    without this -- not a leak: the memory comes back here)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # not glibc
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def check_socket(fx: Fixture, events: list[tuple[str, tuple[Any, ...], bool]]) -> None:
    """Emit the events from a fresh client (acknowledging frames as the page does), leave, and require
    that every handler answered, every run ended without an internal error, and nothing was logged."""
    from server import socketio

    problems: list[str] = []
    with logged_errors() as records:
        client = socketio.test_client(fx.app)
        try:
            for name, args, callback in events:
                args = fx.real(args)
                try:
                    ack = _emit(client, name, args, callback)
                except Exception as err:
                    raise AssertionError(
                        f"the {name!r} handler raised {type(err).__name__}: {err} for the arguments "
                        f"{_short(args)}") from err
                if callback and name not in RESERVED_EVENTS:  # answered {ok: true} or {ok: false, error}
                    error = ack.get("error") if isinstance(ack, dict) else None
                    ok = isinstance(ack, dict) and (
                        ack.get("ok") is True
                        or (ack.get("ok") is False and isinstance(error, str) and error.strip() != ""))
                    fx.acks[f"{name if name in ANSWERING_EVENTS else 'other'}: "
                            f"{ack.get('ok') if isinstance(ack, dict) else repr(ack)[:20]}"] += 1
                    assert ok, f"{name!r} answered {_short(ack)} to {_short(args)}"
                _handle_received(fx, client, problems)
            deadline = time.monotonic() + 5.0  # let started runs finish, acknowledging their frames
            while _active_runs(fx) and time.monotonic() < deadline:
                _handle_received(fx, client, problems)
                time.sleep(0.005)
            _handle_received(fx, client, problems)
        finally:
            if client.is_connected():
                client.disconnect()
        deadline = time.monotonic() + 15.0  # a client that left leaves no run behind
        while _active_runs(fx) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _active_runs(fx), f"{_active_runs(fx)} run(s) still going 15 s after their client left"
    _SESSIONS[0] += 1
    if _SESSIONS[0] % 100 == 0:
        release_memory()
    assert not problems, "; ".join(problems[:3])
    assert_nothing_logged(records)


# ------------------------------------------------------------------- known bugs outside the parsers
# Each probe raises AssertionError while its bug is there. tests/test_fuzz.py runs them as strict
# xfails (a fix makes them pass, and then the mark must go); scripts/fuzz.py reports them.
SOCKET_DECODER_BUG = (
    "python-socketio/python-engineio decode a packet before any handler of server/live/handlers.py runs and "
    "raise on it (RecursionError for nesting past the recursion limit, ValueError for malformed JSON or an "
    "integer of over 100 digits); in production engineio logs 'message handler error' with the traceback and "
    "the client gets no answer"
)


def _near_json(prefix: str = "", suffix: str = "") -> bytes:
    """JSON text with lists nested two frames short of the limit where ``deepen`` runs."""
    return deepen(f'{prefix}"\\u0000near:2"{suffix}'.encode())


def probe_api_deep_json(fx: Fixture, route: str, depth: int | str) -> None:
    body = _near_json() if depth == "near the limit" else b"[" * int(depth) + b"]" * int(depth)
    url = route.format(grid=fx.ids[GRID_ID])
    with logged_errors() as records:
        response = fx.client.post(url, data=body, content_type="application/json")
    check_response(fx, response, f"POST {route} with JSON nested {depth}")
    assert_nothing_logged(records)


SOCKET_PACKETS = {
    "nested near the limit": lambda: "21" + _near_json('["run_start",', "]").decode(),
    "nested 100,000 deep": lambda: '21["run_start",' + "[" * 100_000 + "]" * 100_000 + "]",
    "malformed JSON": lambda: '21["run_start",',
    "an integer of 101 digits": lambda: '21["run_start",{"run":"r","seq":1' + "0" * 100 + "}]",
}


def probe_socket_packet(fx: Fixture, packet: str) -> None:
    from server import socketio

    client = socketio.test_client(fx.app)
    try:
        with logged_errors() as records:
            try:
                client.socketio.server._handle_eio_message(client.eio_sid, SOCKET_PACKETS[packet]())
            except Exception as err:
                raise AssertionError(
                    f"the packet ({packet}) raised {type(err).__name__}: {_short(err, 120)}") from None
        assert_nothing_logged(records)
    finally:
        client.disconnect()


STAR_EVENT_BUG = (
    "server/live/handlers.py registers the catch-all @socketio.on('*'); an event literally named '*' is "
    "then an exact match, and Flask-SocketIO's catch-all wrapper takes the client's first argument for the "
    "sid: no argument raises IndexError, an object raises TypeError (unhashable), anything else is "
    "answered ['', 400] instead of {ok: false, error} (a first argument equal to another client's sid runs "
    "the catch-all in that client's request context: harmless while it only answers)"
)


def probe_star_event(fx: Fixture, args: tuple[Any, ...]) -> None:
    from server import socketio

    client = socketio.test_client(fx.app)
    try:
        with logged_errors() as records:
            try:
                ack = client.emit("*", *args, callback=True)
            except Exception as err:
                raise AssertionError(f"emit('*', {args!r}) raised {type(err).__name__}: {err}") from None
        assert isinstance(ack, dict) and ack.get("ok") is False, f"emit('*', {args!r}) answered {ack!r}"
        assert_nothing_logged(records)
    finally:
        client.disconnect()


KNOWN_BUGS: tuple[tuple[str, str, Callable[[Fixture], None]], ...] = (
    *((f"socket packet: {packet}", SOCKET_DECODER_BUG, lambda fx, p=packet: probe_socket_packet(fx, p))
      for packet in SOCKET_PACKETS),
    *((f"socket event '*' with {label}", STAR_EVENT_BUG, lambda fx, a=args: probe_star_event(fx, a))
      for label, args in (("no argument", ()), ("an object", ({"run": "r"},)), ("a string", ("x",)))),
)


# ------------------------------------------------------------------------------------- targets
@dataclass(frozen=True)
class Target:
    """One fuzz target: a strategy of argument tuples and the check they are given to."""

    name: str
    strategy: Callable[[], st.SearchStrategy[tuple[Any, ...]]]
    check: Callable[..., None]
    uses_app: bool = False


def _parser_target(name: str, files: Callable[[], st.SearchStrategy[tuple[bytes, str]]]) -> Target:
    return Target(f"parsers: {name}", lambda: st.tuples(files(), st.none() | option_dicts()).map(
        lambda case: (*case[0], case[1])), check_parsers)


def _logging(check: Callable[..., None]) -> Callable[..., None]:
    """``check`` under the error-log capture (an app check must not log an exception either)."""

    def run(*args: Any) -> None:
        with logged_errors() as records:
            check(*args)
        assert_nothing_logged(records)

    run.__name__ = check.__name__
    return run


TARGETS = (
    _parser_target("arbitrary bytes", byte_files),
    _parser_target("text grids", grid_text_files),
    _parser_target("CSV boards", csv_files),
    _parser_target("labyrinth JSON", labyrinth_json_files),
    _parser_target("deep or long JSON", deep_json_files),
    _parser_target("step text mazes", step_text_files),
    _parser_target("step JSON", step_json_files),
    _parser_target("Zenji text boards", zenji_text_files),
    _parser_target("Zenji JSON", zenji_json_files),
    _parser_target("images", image_files),
    Target("options: JSON", lambda: st.tuples(st.sampled_from(FAMILY_NAMES),
                                              st.one_of(option_dicts(), json_values())), check_json_options),
    Target("options: text", lambda: st.tuples(st.sampled_from(FAMILY_NAMES), text_option_dicts(),
                                              st.sampled_from(["run", "load"])), check_text_options),
    Target("API: POST /api/puzzles", lambda: st.tuples(upload_requests(), follow_ups()),
           _logging(check_upload), uses_app=True),
    Target("API: upload a puzzle, then solve it", solvable_uploads, _logging(check_upload), uses_app=True),
    Target("API: POST /api/puzzles/<id>/solve", lambda: st.tuples(solve_requests()), _logging(check_solve),
           uses_app=True),
    Target("API: other routes and methods", lambda: st.tuples(get_requests()), _logging(check_get),
           uses_app=True),
    Target("socket: events", lambda: st.tuples(socket_sessions()), check_socket, uses_app=True),
)

TARGETS_BY_NAME = {target.name: target for target in TARGETS}

__all__ = [
    "LIMITS", "TARGETS", "Fixture", "Target", "check_get", "check_json_options", "check_parsers",
    "check_socket", "check_solve", "check_text_options", "check_upload", "make_fixture", "materialize",
]

