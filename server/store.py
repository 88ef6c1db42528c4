"""Parsed puzzles kept in memory under content-derived ids, least recently used dropped first.

Ids are a hash of the file and its family, so the same upload gets the same id on any server. The
store lives in this server process's memory: several servers (``Config.message_queue``) do not share
uploads; a store they share is future work (issue 18).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any


def puzzle_id(data: bytes, family: str | None) -> str:
    """The id of a file read by ``family``: 20 hex digits of a hash of both (the same on any server)."""
    return hashlib.sha256((family or "").encode() + b"\0" + data).hexdigest()[:20]


class PuzzleStore:
    """A thread-safe LRU of parsed puzzles bounded by their total cost (cells, as their family
    counts), and by how many each client keeps: a client's upload past ``per_client`` drops its
    oldest one (unless another client or the gallery holds it too)."""

    def __init__(self, max_cells: int, per_client: int | None = None) -> None:
        self.max_cells = max_cells
        self.per_client = per_client
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._owners: dict[str, set[str]] = {}  # key -> clients holding it (absent: shared, e.g. gallery)
        self._by_client: dict[str, OrderedDict[str, None]] = {}
        self._cells = 0
        self._lock = threading.Lock()

    def put(self, key: str, puzzle: Any, cells: int | None = None, owner: str | None = None) -> None:
        """Keep ``puzzle``; ``cells`` is its cost (default: what its family counts); ``owner`` the
        client that uploaded it (None: shared)."""
        if cells is None:
            from server.puzzles.registry import family_of

            cells = family_of(puzzle).cost(puzzle)
        with self._lock:
            if key not in self._items:
                self._items[key] = (puzzle, cells)
                self._cells += cells
                if owner is not None:
                    self._owners[key] = set()
            self._items.move_to_end(key)
            if owner is None:
                self._owners.pop(key, None)  # shared from now on
            elif key in self._owners:
                self._own(owner, key)
            while self._cells > self.max_cells and len(self._items) > 1:
                self._drop(next(iter(self._items)))

    def get(self, key: str) -> Any | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def __len__(self) -> int:
        return len(self._items)

    def _own(self, owner: str, key: str) -> None:
        mine = self._by_client.setdefault(owner, OrderedDict())
        mine[key] = None
        mine.move_to_end(key)
        self._owners[key].add(owner)
        while self.per_client is not None and len(mine) > self.per_client:
            old, _ = mine.popitem(last=False)
            holders = self._owners.get(old)
            if holders is not None:
                holders.discard(owner)
                if not holders:
                    self._drop(old)

    def _drop(self, key: str) -> None:
        _, cells = self._items.pop(key)
        self._cells -= cells
        for owner in self._owners.pop(key, ()):
            mine = self._by_client.get(owner)
            if mine is not None:
                mine.pop(key, None)
                if not mine:
                    del self._by_client[owner]
