"""A search trace as three flat columns: kind (uint8), cell (int32), value (float32).

This is what the kernels record, what the generic algorithms are turned into, what the live
layer cuts into frames, and what the browser keeps as its timeline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .events import CLOSES, OPENS, UPDATES, Event
from .problem import State

RECORD_BYTES = 9  # one record: kind (1) + cell (4) + value (4)


@dataclass
class Trace:
    kinds: np.ndarray  # uint8
    cells: np.ndarray  # int32, -1 where a state has no cell
    values: np.ndarray  # float32 (g, the wave score for BFS)

    def __len__(self) -> int:
        return int(self.kinds.shape[0])

    @property
    def nbytes(self) -> int:
        return int(self.kinds.nbytes + self.cells.nbytes + self.values.nbytes)

    @classmethod
    def empty(cls) -> Trace:
        return cls(np.zeros(0, np.uint8), np.zeros(0, np.int32), np.zeros(0, np.float32))

    def slice(self, start: int, stop: int) -> Trace:
        return Trace(self.kinds[start:stop], self.cells[start:stop], self.values[start:stop])


class TraceRecorder:
    """Collects records in growable buffers (amortised O(1) append, no object per record)."""

    def __init__(self, capacity: int = 1024) -> None:
        self._kinds = np.empty(capacity, np.uint8)
        self._cells = np.empty(capacity, np.int32)
        self._values = np.empty(capacity, np.float32)
        self._n = 0

    def append(self, kind: int, cell: int, value: float) -> None:
        if self._n == self._kinds.shape[0]:
            size = self._n * 2
            self._kinds = np.resize(self._kinds, size)
            self._cells = np.resize(self._cells, size)
            self._values = np.resize(self._values, size)
        self._kinds[self._n] = kind
        self._cells[self._n] = cell
        self._values[self._n] = value
        self._n += 1

    def __len__(self) -> int:
        return self._n

    def listener(self, cell_of: Callable[[State], int]) -> Callable[[Event], None]:
        """An ``on_event`` for the runner that records each event at its state's cell."""

        def record(event: Event) -> None:
            self.append(event.kind, cell_of(event.state), event.g)

        return record

    def trace(self) -> Trace:
        n = self._n
        return Trace(self._kinds[:n].copy(), self._cells[:n].copy(), self._values[:n].copy())


def tally_trace(kinds: np.ndarray) -> tuple[int, int, int]:
    """(expanded, generated, max_frontier) of a trace, by the rules of ``server.search.stats``."""
    opens = np.isin(kinds, OPENS)
    closes = np.isin(kinds, CLOSES)
    updates = np.isin(kinds, UPDATES)
    frontier = np.cumsum(opens.astype(np.int64) - closes.astype(np.int64))
    max_frontier = int(frontier.max()) if frontier.size else 0
    return int(closes.sum()), int(opens.sum() + updates.sum()), max_frontier
