"""Parsed puzzles kept in memory under content-derived ids, least recently used dropped first.

Ids are a hash of the file and its family, so the same upload gets the same id on any server;
a deployment with several servers shares uploads through a common store (see docs/DEPLOY.md).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

from server.puzzles.registry import Puzzle


def puzzle_id(data: bytes, family: str | None) -> str:
    return hashlib.sha256((family or "").encode() + b"\0" + data).hexdigest()[:20]


def puzzle_size(puzzle: Any) -> int:
    cells = getattr(puzzle, "cells", None)
    return int(cells.size) if cells is not None else 1


class PuzzleStore:
    """A thread-safe LRU of parsed puzzles bounded by their total number of cells."""

    def __init__(self, max_cells: int) -> None:
        self.max_cells = max_cells
        self._items: OrderedDict[str, Puzzle] = OrderedDict()
        self._cells = 0
        self._lock = threading.Lock()

    def put(self, key: str, puzzle: Puzzle) -> None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return
            self._items[key] = puzzle
            self._cells += puzzle_size(puzzle)
            while self._cells > self.max_cells and len(self._items) > 1:
                _, old = self._items.popitem(last=False)
                self._cells -= puzzle_size(old)

    def get(self, key: str) -> Puzzle | None:
        with self._lock:
            puzzle = self._items.get(key)
            if puzzle is not None:
                self._items.move_to_end(key)
            return puzzle
