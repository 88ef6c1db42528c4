"""JSON text of a grid path without a Python object per cell.

A path through a 225 M-pixel maze has millions of cells: as a list of ``[row, col]`` lists it costs
~130 bytes and a few hundred nanoseconds a cell before ``json.dumps`` has written a byte. Here the path
stays a numpy array of flat cell indices (``CellPairs``) and its text is written by a compiled loop
(``server/json_kernels.py``, about 15 bytes a cell), then spliced into the rest of the result, which
``json.dumps`` writes as usual. The text is byte for byte what ``json.dumps`` gives for the list form.

Who gets a ``CellPairs``: only code that asks for it, inside ``compact_paths()`` (``solving.solve(...,
compact=True)``: the CLI's ``solve --json`` and the HTTP solve endpoint, which write the result with
``encode``/``write``). Everywhere else a result's path is the plain list it always was (msgpack,
``jsonify`` and the page's socket know nothing of this class).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import IO, Any

import numpy as np

__all__ = ["CellPairs", "cell_path", "compact_paths", "encode", "plain", "write"]

#: Below this many cells a path is written by ``json.dumps`` (no compiled kernel to load).
SMALL = 10_000

_compact: ContextVar[bool] = ContextVar("compact_paths", default=False)


@contextmanager
def compact_paths() -> Iterator[None]:
    """Within the block (this thread or task only), ``cell_path`` gives ``CellPairs``."""
    token = _compact.set(True)
    try:
        yield
    finally:
        _compact.reset(token)


def cell_path(cells: Any, width: int) -> CellPairs | list[list[int]]:
    """A result's path of flat cell indices as ``[[row, col], ...]``: a ``CellPairs`` inside
    ``compact_paths()``, else a list of lists."""
    pairs = CellPairs(cells, width)
    return pairs if _compact.get() else pairs.tolist()


class CellPairs:
    """Flat cell indices of a board ``width`` cells wide, standing for the JSON ``[[row, col], ...]``.

    It reads like that list (``len``, indexing, iteration, ``==`` with a list) for code that only
    looks at it; ``encode`` and ``write`` write its text; ``plain`` turns it into the list."""

    __slots__ = ("cells", "width")

    def __init__(self, cells: Any, width: int) -> None:
        self.cells = np.ascontiguousarray(cells, dtype=np.int64).reshape(-1)
        self.width = int(width)
        if self.width < 1:
            raise ValueError(f"width must be >= 1, not {width}")
        if self.cells.size and int(self.cells.min()) < 0:
            raise ValueError("cell indices must be >= 0")

    def __len__(self) -> int:
        return int(self.cells.size)

    def __iter__(self) -> Iterator[list[int]]:
        return iter(self.tolist())

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return CellPairs(self.cells[index], self.width).tolist()
        return list(divmod(int(self.cells[index]), self.width))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CellPairs):
            return bool(np.array_equal(self.cells, other.cells)) and self.width == other.width
        if isinstance(other, list):
            return self.tolist() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking, like the list it stands for

    def __repr__(self) -> str:
        return f"CellPairs({len(self)} cells, width {self.width})"

    def tolist(self) -> list[list[int]]:
        rows, cols = np.divmod(self.cells, self.width)
        return np.stack([rows, cols], axis=1).tolist()

    def text(self, spaced: bool = False) -> bytes:
        """``json.dumps(self.tolist())`` as ASCII bytes (``spaced``: ", " between items, else ",")."""
        if len(self) < SMALL:
            separators = (", ", ": ") if spaced else (",", ":")
            return json.dumps(self.tolist(), separators=separators).encode("ascii")
        from .json_kernels import pairs_text

        return pairs_text(self.cells, self.width, spaced).tobytes()


def plain(obj: Any) -> Any:
    """``obj`` with every ``CellPairs`` in it (in dicts, lists and tuples) as its list of lists."""
    if isinstance(obj, CellPairs):
        return obj.tolist()
    if isinstance(obj, dict):
        return {key: plain(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(value) for value in obj]
    return obj


def encode(obj: Any, *, sort_keys: bool = False, ensure_ascii: bool = True,
           separators: tuple[str, str] = (",", ":")) -> bytes:
    """``json.dumps(plain(obj), ...)`` as UTF-8 bytes, each ``CellPairs`` written from its array."""
    return b"".join(_parts(obj, sort_keys, ensure_ascii, separators))


def write(obj: Any, stream: IO[bytes], *, sort_keys: bool = False, ensure_ascii: bool = True,
          separators: tuple[str, str] = (",", ":")) -> None:
    """``encode`` written to a binary stream piece by piece (no copy of the whole text)."""
    for part in _parts(obj, sort_keys, ensure_ascii, separators):
        stream.write(part)


def _parts(obj: Any, sort_keys: bool, ensure_ascii: bool, separators: tuple[str, str]) -> list[bytes]:
    """The JSON text in pieces: ``json.dumps`` of ``obj`` with a numbered placeholder string for each
    ``CellPairs``, split there, and each placeholder's place taken by its array's own text."""
    arrays: list[CellPairs] = []
    nonce = secrets.token_hex(8)  # no other string of ``obj`` holds it
    skeleton = _swap(obj, arrays, nonce)
    text = json.dumps(skeleton, sort_keys=sort_keys, ensure_ascii=ensure_ascii, separators=separators)
    spaced = separators[0].endswith(" ")
    # As json.dumps wrote a placeholder: "\u0000cell-pairs NONCE N\u0000" (a NUL is always escaped).
    marker = r'"\\u0000cell-pairs ' + nonce + r' ([0-9]+)\\u0000"'
    pieces = re.split(marker, text)  # text, number, text, number, ..., text
    if len(pieces) != 2 * len(arrays) + 1:  # cannot happen: each placeholder was written once
        raise AssertionError(f"{len(arrays)} arrays, {len(pieces) // 2} placeholders in the JSON text")
    parts = [pieces[0].encode("utf-8")]
    for number, after in zip(pieces[1::2], pieces[2::2], strict=True):
        parts += [arrays[int(number)].text(spaced), after.encode("utf-8")]
    return parts


def _placeholder(nonce: str, number: int) -> str:
    return f"\x00cell-pairs {nonce} {number}\x00"


def _swap(obj: Any, arrays: list[CellPairs], nonce: str) -> Any:
    """``obj`` with each ``CellPairs`` replaced by a numbered placeholder (its index in ``arrays``)."""
    if isinstance(obj, CellPairs):
        arrays.append(obj)
        return _placeholder(nonce, len(arrays) - 1)
    if isinstance(obj, dict):
        return {key: _swap(value, arrays, nonce) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_swap(value, arrays, nonce) for value in obj]
    return obj
