"""Parsed puzzles kept in memory under content-derived ids, least recently used dropped first.

Ids are a hash of the file and its family, so the same upload gets the same id on any server;
a deployment with several servers shares uploads through a common store (see docs/DEPLOY.md).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any


def puzzle_id(data: bytes, family: str | None) -> str:
    return hashlib.sha256((family or "").encode() + b"\0" + data).hexdigest()[:20]


class PuzzleStore:
    """A thread-safe LRU of parsed puzzles bounded by their total cost (cells, as their family counts)."""

    def __init__(self, max_cells: int) -> None:
        self.max_cells = max_cells
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._cells = 0
        self._lock = threading.Lock()

    def put(self, key: str, puzzle: Any, cells: int | None = None) -> None:
        """Keep ``puzzle``; ``cells`` is its cost (default: what its family counts)."""
        if cells is None:
            from server.puzzles.registry import family_of

            cells = family_of(puzzle).cost(puzzle)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return
            self._items[key] = (puzzle, cells)
            self._cells += cells
            while self._cells > self.max_cells and len(self._items) > 1:
                _, (_, old_cells) = self._items.popitem(last=False)
                self._cells -= old_cells

    def get(self, key: str) -> Any | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]
