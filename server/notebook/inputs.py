"""What a student passes as a puzzle, made a ``Puzzle``: the file's bytes, its name and family, the load
options and the parsed model, read by the same registry as the page's uploads (``load_detected``: the
family sniffed, or the one given with ``family=``).

A puzzle may be given as
- a path (``str`` or ``os.PathLike``): any file the page reads;
- the text of one (a ``str`` with a line break, or ``bytes``);
- a Python list of lists as seed 003 types it (``'S'``, ``'Z'``, ``'X'``, ``' '``): its ``repr``, which
  a family reads as seed 003's printed list; a list of lists of numbers goes as an array;
- a numpy array of whole numbers: the text of the family surest it is one of its puzzles
  (``Family.from_array``, asked through the registry: a 0/1 matrix is a maze, a permutation of 0 … N²−1
  a tile puzzle, rows × columns × 4 numbers a pipe board);
- a ``Puzzle`` (``mazeviz.load(...)``).
Anything else, and a file no family reads, is a ``PuzzleError`` in words.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import t
from ..puzzles.errors import PuzzleError
from ..puzzles.family import LoadLimits
from ..puzzles.options import Values
from ..puzzles.registry import detect_family, from_array, get_family, load_detected

TEXT_NAME = "puzzle.txt"  # the name a puzzle given as text or an array goes by
BYTES_NAME = "puzzle"  # bytes: no extension, the families sniff the content


@dataclass(eq=False)
class Puzzle:
    """A puzzle read for the notebook: what the page's upload would send (``data`` under ``filename``,
    its ``family`` and load ``options``) and the model parsed from it."""

    family: str
    data: bytes = field(repr=False)
    filename: str
    options: Values
    model: Any = field(repr=False)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of its board."""
        return get_family(self.family).size(self.model)

    def __repr__(self) -> str:
        width, height = self.size
        return f"<mazeviz puzzle: {self.family}, {self.filename!r}, {width} x {height}>"


def as_puzzle(source: Any, family: str | None = None, options: dict[str, Any] | None = None) -> Puzzle:
    """``source`` read as a puzzle (module docstring); ``options``: load options as JSON values,
    checked by the family's schema. Raises PuzzleError in words."""
    if isinstance(source, Puzzle):
        if (family is None or family == source.family) and not options:
            return source
        same = family is None or family == source.family  # another family reads its own options
        merged = {**source.options, **(options or {})} if same else dict(options or {})
        return read(source.data, source.filename, family or source.family, merged)
    data, filename = source_bytes(source)
    return read(data, filename, family, options or {})


def read(data: bytes, filename: str, family: str | None, options: dict[str, Any]) -> Puzzle:
    """Parse ``data`` as the page's upload does: the family given, or the one the registry detects (a
    guess that does not parse also says what the others read)."""
    if family is not None and not isinstance(family, str):
        raise PuzzleError(t("notebook.family_not_text", name=type(family).__name__), "family")
    chosen = get_family(family) if family else detect_family(filename, data)
    values = chosen.load_options(options)
    limits = LoadLimits()
    model = (chosen.load(data, filename, values, limits) if family
             else load_detected(chosen, data, filename, values, limits))
    return Puzzle(chosen.name, data, filename, values, model)


def source_bytes(source: Any) -> tuple[bytes, str]:
    """(the file's bytes, its name) of a path, a text, bytes, a list of lists or an array."""
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source), BYTES_NAME
    if isinstance(source, os.PathLike):
        return _file(Path(source))
    if isinstance(source, str):
        if "\n" in source or "\r" in source:
            return source.encode("utf-8"), TEXT_NAME
        path = Path(source).expanduser()
        if path.is_file() or path.suffix or os.sep in source or "/" in source:
            return _file(path)
        return source.encode("utf-8"), TEXT_NAME  # a puzzle written on one line
    if _is_array(source):
        return _array_text(source), TEXT_NAME
    if isinstance(source, list | tuple):
        return _list_text(source), TEXT_NAME
    raise PuzzleError(t("notebook.cannot_read", name=type(source).__name__), "puzzle")


def _file(path: Path) -> tuple[bytes, str]:
    try:
        return path.read_bytes(), path.name
    except FileNotFoundError:
        raise PuzzleError(t("notebook.no_such_file", path=str(path)), "puzzle") from None
    except IsADirectoryError:
        raise PuzzleError(t("notebook.is_a_folder", path=str(path)), "puzzle") from None
    except OSError as err:
        raise PuzzleError(t("notebook.unreadable_file", path=str(path), why=err.strerror or str(err)),
                          "puzzle") from None


def _is_array(value: Any) -> bool:
    """A numpy array (numpy is imported only when one is given: the module's name says so)."""
    return type(value).__module__ == "numpy" and hasattr(value, "ndim") and hasattr(value, "dtype")


def _list_text(rows: list[Any] | tuple[Any, ...]) -> bytes:
    """Seed 003's list of lists as Python prints it (a family reads that text), or a list of lists of
    numbers as an array."""
    if not rows:
        raise PuzzleError(t("notebook.empty_list"), "puzzle")
    cells = [cell for row in rows if isinstance(row, list | tuple) for cell in row]
    if len(cells) and all(isinstance(cell, str) for cell in cells) and all(
            isinstance(row, list | tuple) for row in rows):
        return repr([list(row) for row in rows]).encode("utf-8")
    if all(isinstance(row, str) for row in rows):  # rows written as strings: "S.....", "XXXXXX"
        return repr(list(rows)).encode("utf-8")
    import numpy as np

    try:
        array = np.asarray(rows)
    except ValueError:  # rows of different lengths
        array = None
    if array is None or array.dtype == object or array.dtype.kind not in "biuf":
        raise PuzzleError(t("notebook.list_cells"), "puzzle")
    return _array_text(array)


def _array_text(array: Any) -> bytes:
    """An array as the text of the family its shape and values say (module docstring)."""
    import numpy as np

    a = np.asarray(array)
    if a.dtype.kind in "US":  # an array of the seed's characters
        return _list_text(a.tolist())
    if a.dtype.kind not in "biuf" or a.size == 0:
        raise PuzzleError(t("notebook.array_kind", dtype=str(a.dtype), shape=str(a.shape)), "puzzle")
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or not np.all(a == np.round(a)):
            raise PuzzleError(t("notebook.array_whole", dtype=str(a.dtype)), "puzzle")
        a = a.astype(np.int64)
    taken = from_array(a.astype(np.int64))  # each family says whether the array is one of its puzzles
    if taken is None:
        raise PuzzleError(t("notebook.array_shape", shape=str(a.shape), low=int(a.min()), high=int(a.max())),
                          "puzzle")
    return taken[1]
