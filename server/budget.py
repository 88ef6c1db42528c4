"""One budget for all the work a server does, whatever asks for it (socket runs, HTTP solves,
solution images): how many searches compute at once, and how much memory the traces waiting to
stream may hold. A search past the budget waits its turn (with a status message) or is refused."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from server.search.control import CancelFlag


class ServerBusy(Exception):
    """The server's budget cannot take this work now (HTTP 503; a run_error on the socket)."""


class WorkBudget:
    """Compute slots, load slots (parsing a big image takes memory too) and a byte budget for held
    traces, shared by every entry point of one server."""

    POLL = 0.25  # seconds between looks at a waiting run's cancel flag (and its status messages)

    def __init__(self, max_computing: int, trace_bytes: int, max_loading: int = 2) -> None:
        self.max_computing = max_computing
        self.max_loading = max_loading
        self.trace_bytes = trace_bytes
        self._computing = 0
        self._loading = 0
        self._held = 0
        self._cond = threading.Condition()

    # ---- searches computing at once ----------------------------------------------------------------
    @contextmanager
    def computing(
        self,
        cancel: CancelFlag | None = None,
        wait: float | None = None,
        on_wait: Callable[[str], None] | None = None,
    ) -> Iterator[bool]:
        """Hold one compute slot for the block; yields False when ``cancel`` was set while waiting.

        Waits at most ``wait`` seconds (None: as long as it takes), then raises ServerBusy.
        """
        got = self._wait_for(
            lambda: self._computing < self.max_computing, cancel, wait, on_wait,
            f"waiting for a free worker ({self.max_computing} searches are computing)",
        )
        if got:
            self._computing += 1
            self._cond.release()
        try:
            yield got
        finally:
            if got:
                with self._cond:
                    self._computing -= 1
                    self._cond.notify_all()

    @contextmanager
    def loading(self, wait: float | None = None) -> Iterator[None]:
        """Hold one of the slots for parsing uploads (waits at most ``wait`` s, then ServerBusy)."""
        self._wait_for(
            lambda: self._loading < self.max_loading, None, wait, None,
            f"waiting to read the file ({self.max_loading} uploads are being read)",
        )
        self._loading += 1
        self._cond.release()
        try:
            yield
        finally:
            with self._cond:
                self._loading -= 1
                self._cond.notify_all()

    # ---- memory held by traces -------------------------------------------------------------------
    def reserve(
        self, nbytes: int, cancel: CancelFlag | None = None, on_wait: Callable[[str], None] | None = None,
        wait: float | None = None, what: str = "to stream this run",
    ) -> int:
        """Reserve ``nbytes`` (capped at the whole budget, so one run can always go alone); returns the
        bytes reserved, or 0 when ``cancel`` was set while waiting. Waits at most ``wait`` seconds
        (None: as long as it takes), then raises ServerBusy; ``what`` the memory is for, in its
        messages ("to read this image")."""
        return self.resize(0, nbytes, cancel, on_wait, wait, what)

    def resize(
        self, held: int, nbytes: int, cancel: CancelFlag | None = None,
        on_wait: Callable[[str], None] | None = None, wait: float | None = None,
        what: str = "to stream this run",
    ) -> int:
        """Change a reservation of ``held`` bytes to ``nbytes`` (waiting as ``reserve`` does when it
        grows); returns the bytes now reserved: ``held`` still, when cancelled or busy (ServerBusy)."""
        nbytes = max(0, min(int(nbytes), self.trace_bytes))
        if nbytes <= held:
            self.release(held - nbytes)
            return nbytes
        megabytes = nbytes / 1e6
        message = (  # names the limit: the memory every kind of work shares
            f"waiting for server memory {what} ({megabytes:,.0f} MB of the "
            f"{self.trace_bytes / 1e6:,.0f} MB the server's work may hold at once)"
        )
        got = self._wait_for(
            lambda: self._held - held + nbytes <= self.trace_bytes, cancel, wait, on_wait, message,
        )
        if not got:
            return held
        self._held += nbytes - held
        self._cond.release()
        return nbytes

    def release(self, nbytes: int) -> None:
        """Give back ``nbytes`` of a reservation."""
        if nbytes:
            with self._cond:
                self._held -= nbytes
                self._cond.notify_all()

    def snapshot(self) -> dict[str, int]:
        """Searches computing and trace bytes held now (for ``/api/health``)."""
        with self._cond:
            return {
                "computing": self._computing, "trace_bytes": self._held, "trace_budget": self.trace_bytes,
            }

    # ---- waiting -----------------------------------------------------------------------------------
    def _wait_for(
        self,
        ready: Callable[[], bool],
        cancel: CancelFlag | None,
        wait: float | None,
        on_wait: Callable[[str], None] | None,
        message: str,
    ) -> bool:
        """Wait until ``ready()``; returns True holding the lock, False (lock released) if cancelled."""
        deadline = None if wait is None else time.monotonic() + wait
        told = False
        self._cond.acquire()
        while not ready():
            if cancel is not None and cancel.is_set():
                self._cond.release()
                return False
            if deadline is not None and time.monotonic() >= deadline:
                self._cond.release()
                raise ServerBusy(f"the server is busy ({message}); try again in a moment")
            if on_wait is not None and not told:
                told = True
                self._cond.release()  # never call out holding the lock
                try:
                    on_wait(message)
                finally:
                    self._cond.acquire()
                continue
            self._cond.wait(self.POLL)
        return True
