"""What stops a search early, for the generic algorithms and compiled kernels alike.

``CancelFlag`` is a ``threading.Event`` that also writes a one-byte array a compiled kernel polls,
and remembers why it was set (the result's ``stopped``). ``deadline`` arms one server-wide
watchdog thread to set a flag when a search's time is up: no thread per search, so nothing is
left behind when a search ends, however it ends.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ..i18n import t

CANCELLED = "cancelled"


def time_limit_reason(seconds: float) -> str:
    """The one wording of a time limit (kernels and the generic engine report the same)."""
    return t("search.limit.seconds", seconds=seconds)  # a float with the language's decimal mark


class CancelFlag(threading.Event):
    """A cancel flag that Python loops (``is_set``) and compiled kernels (``array[0]``) poll.

    ``set`` is a stop (a user's cancel, a client gone); ``expire`` is a search's time limit, which
    ``lift`` takes back once that search is over, so that only a stop outlives the search."""

    def __init__(self) -> None:
        super().__init__()
        self.array = np.zeros(1, np.uint8)
        self.reason = CANCELLED
        self.stopped = False  # set() was called: a stop, not only a time limit
        self._lock = threading.Lock()

    def set(self, reason: str = CANCELLED) -> None:
        with self._lock:
            self.stopped = True
            self._raise(reason)

    def expire(self, reason: str) -> None:
        """Set the flag for a time limit (what ``deadline`` does); ``lift`` undoes it."""
        with self._lock:
            self._raise(reason)

    def lift(self) -> None:
        """Clear the flag if only a time limit set it (its search has ended); a stop stays."""
        with self._lock:
            if self.is_set() and not self.stopped:
                self.array[0] = 0
                self.reason = CANCELLED
                super().clear()

    def _raise(self, reason: str) -> None:
        if not self.is_set():
            self.reason = reason
        self.array[0] = 1
        super().set()


class _Watchdog:
    """One daemon thread that sets the flags of searches whose time is up (started on first use)."""

    TICK = 0.02  # seconds between looks: a search overruns its limit by at most this (plus its own poll)

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, CancelFlag, str]] = []
        self._order = itertools.count()
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None

    def arm(self, flag: CancelFlag, seconds: float) -> tuple[float, int, CancelFlag, str]:
        entry = (time.monotonic() + seconds, next(self._order), flag, time_limit_reason(seconds))
        with self._lock:
            heapq.heappush(self._heap, entry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, daemon=True, name="search-watchdog")
                self._thread.start()
            self._lock.notify()
        return entry

    def disarm(self, entry: tuple[float, int, CancelFlag, str]) -> None:
        with self._lock:
            try:
                self._heap.remove(entry)
                heapq.heapify(self._heap)
            except ValueError:
                pass  # already fired

    def _loop(self) -> None:
        while True:
            with self._lock:
                now = time.monotonic()
                while self._heap and self._heap[0][0] <= now:
                    _, _, flag, reason = heapq.heappop(self._heap)
                    flag.expire(reason)
                wait = self.TICK if self._heap else None
                self._lock.wait(timeout=wait)


_WATCHDOG = _Watchdog()


@contextmanager
def deadline(flag: CancelFlag, seconds: float | None) -> Iterator[CancelFlag]:
    """Within the block, ``flag`` is set with a time-limit reason once ``seconds`` have passed."""
    if seconds is None:
        yield flag
        return
    entry = _WATCHDOG.arm(flag, seconds)
    try:
        yield flag
    finally:
        _WATCHDOG.disarm(entry)
