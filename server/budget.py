"""One budget for all the work a server process does, whatever asks for it (socket runs, HTTP solves,
uploads, the lab, GIF exports, tile drawing): how many searches compute at once, how many uploads are
read at once, how many tiles are drawn at once, and how much memory the work may hold.

**Shares.** Each pool has a size and a share: no one owner (a client: a browser's session, or an
address for a script without cookies) holds more than its share of a pool (all slots but one, 3/4 of
the memory), so one client flooding a pool always leaves room for the others — its extra work waits
behind its own (or is refused when it waits too long), never in front of another client's. At most
``MAX_WAITING`` of an owner's requests wait for one pool at once (each holds one of the server's
threads while it waits); more are answered busy at once. Work with no owner (the command line, reading a
stored puzzle back) counts toward the pool's size only.

**Memory.** Work reserves what it will hold at its peak, estimated before it starts from the input's
own figures (``Family.load_bytes``, ``search_bytes``, ``lab_bytes``…). A reservation larger than one
owner may ever hold is refused at once in words (``TooBig``, a ``PuzzleError``: "searching this board
needs about 2,100 MB; one client's work may hold at most 384 MB"), except where the caller asks to be
fitted (``fit=True``: a trace whose size is a guess corrected after the search). Per process: several
server processes each have their own budget (docs/DEPLOY.md)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .i18n import t
from .puzzles.errors import PuzzleError
from .search.control import CancelFlag

#: The phrases callers give for what work is for (``what``, ``need``), as catalog keys: a sentence
#: writes them in the reader's language (a phrase not listed is written as given).
PHRASES = {
    "to stream this run": "solve.phrase.to_stream_this_run",
    "to receive this upload": "solve.phrase.to_receive_this_upload",
    "to read this image": "solve.phrase.to_read_this_image",
    "to search this board": "solve.phrase.to_search_this_board",
    "stream this run": "solve.phrase.stream_this_run",
    "receive this upload": "solve.phrase.receive_this_upload",
    "read this image": "solve.phrase.read_this_image",
    "search this board": "solve.phrase.search_this_board",
    "searching this puzzle": "solve.phrase.searching_this_puzzle",
    "searching this board": "solve.phrase.searching_this_board",
    "receiving this upload": "solve.phrase.receiving_this_upload",
    "reading this file": "solve.phrase.reading_this_file",
    "walking this puzzle's states for your code": "solve.phrase.walking_this_puzzle_s_states_for_your_code",
    "judging a heuristic on this puzzle": "solve.phrase.judging_a_heuristic_on_this_puzzle",
    "checking a solution of this puzzle": "solve.phrase.checking_a_solution_of_this_puzzle",
    "judging your code's run on this puzzle": "solve.phrase.judging_your_code_s_run_on_this_puzzle",
    "this work": "solve.phrase.this_work",
}


def phrase(text: str) -> str:
    """A caller's phrase ("searching this puzzle") in the reader's language."""
    key = PHRASES.get(text)
    return t(key) if key else text

MB = 1e6


class ServerBusy(Exception):
    """The server's budget cannot take this work now (HTTP 503; a run_error on the socket)."""


class TooBig(PuzzleError):
    """Work that needs more memory than one client's share of the budget: it can never run here."""


def slot_share(size: int) -> int:
    """How many of a pool's ``size`` slots one owner may hold: all but one, so another client always
    finds one free (1 of 1 and of 2, 3 of 4)."""
    return max(1, size - 1)


MAX_WAITING = 8  # an owner's requests waiting for one pool at once; more are answered "busy" at once


class WorkBudget:
    """Compute slots, load slots, tile-drawing slots and a byte budget, shared by every entry point of
    one server process, each with a per-owner share (see the module docstring)."""

    POLL = 0.25  # seconds between looks at a waiting run's cancel flag (and its status messages)
    MEMORY_SHARE = 0.75  # of the byte budget one owner may hold: the rest stays for the others

    def __init__(
        self, max_computing: int, trace_bytes: int, max_loading: int = 2, max_drawing: int = 2,
    ) -> None:
        self.max_computing = max_computing
        self.max_loading = max_loading
        self.max_drawing = max_drawing
        self.trace_bytes = trace_bytes
        self.memory_share = max(1, int(trace_bytes * self.MEMORY_SHARE))
        self._slots: dict[str, Counter[str | None]] = {
            "computing": Counter(), "loading": Counter(), "drawing": Counter(),
        }
        self._held: Counter[str | None] = Counter()
        self._waiting: dict[str, Counter[str]] = {pool: Counter() for pool in ("memory", *self._slots)}
        self._cond = threading.Condition()

    # ---- slots -------------------------------------------------------------------------------------
    def _size(self, pool: str) -> int:
        sizes = {"computing": self.max_computing, "loading": self.max_loading, "drawing": self.max_drawing}
        return sizes[pool]

    @contextmanager
    def _slot(
        self, pool: str, owner: str | None, cancel: CancelFlag | None, wait: float | None,
        on_wait: Callable[[str], None] | None, message: str,
    ) -> Iterator[bool]:
        size, share = self._size(pool), slot_share(self._size(pool))
        held = self._slots[pool]

        def ready() -> bool:
            return held.total() < size and (owner is None or held[owner] < share)

        got = self._wait_for(ready, cancel, wait, on_wait, message, pool, owner)
        if got:
            held[owner] += 1
            self._cond.release()
        try:
            yield got
        finally:
            if got:
                with self._cond:
                    held[owner] -= 1
                    if held[owner] <= 0:
                        del held[owner]
                    self._cond.notify_all()

    def computing(
        self,
        cancel: CancelFlag | None = None,
        wait: float | None = None,
        on_wait: Callable[[str], None] | None = None,
        owner: str | None = None,
    ) -> Iterator[bool]:
        """Hold one compute slot for the block; yields False when ``cancel`` was set while waiting.

        Waits at most ``wait`` seconds (None: as long as it takes), then raises ServerBusy. An owner
        holds at most ``slot_share(max_computing)`` slots; its next search waits for one of its own.
        """
        message = t("solve.wait.worker", computing=self.max_computing, share=slot_share(self.max_computing))
        return self._slot("computing", owner, cancel, wait, on_wait, message)

    @contextmanager
    def loading(self, wait: float | None = None, owner: str | None = None) -> Iterator[None]:
        """Hold one of the slots for parsing uploads (waits at most ``wait`` s, then ServerBusy)."""
        message = t("solve.wait.loading", loading=self.max_loading, share=slot_share(self.max_loading))
        with self._slot("loading", owner, None, wait, None, message):
            yield

    @contextmanager
    def drawing(self, wait: float | None = None, owner: str | None = None) -> Iterator[None]:
        """Hold one of the slots for drawing a tile (waits at most ``wait`` s, then ServerBusy)."""
        message = t("solve.wait.drawing", drawing=self.max_drawing)
        with self._slot("drawing", owner, None, wait, None, message):
            yield

    # ---- memory ------------------------------------------------------------------------------------
    def limit_for(self, owner: str | None) -> int:
        """The most one reservation of ``owner`` may hold (the whole budget for unowned work)."""
        return self.trace_bytes if owner is None else self.memory_share

    def check_fits(self, nbytes: int, what: str, owner: str | None = None) -> None:
        """Raise TooBig, in words, when ``nbytes`` can never be reserved by ``owner``."""
        limit = self.limit_for(owner)
        if nbytes > limit:
            what = phrase(what)
            whose = t("solve.whose.server") if owner is None else t("solve.whose.client")
            raise TooBig(
                t("solve.budget.needs_about_mb_memory_at", upper=what[:1].upper(), what=what[1:],
                  value=format(nbytes / MB, ',.0f'), whose=whose, value2=format(limit / MB, ',.0f'),
                  value3=format(self.trace_bytes / MB, ',.0f')),
            )

    def reserve(
        self, nbytes: int, cancel: CancelFlag | None = None, on_wait: Callable[[str], None] | None = None,
        wait: float | None = None, what: str = "to stream this run", owner: str | None = None,
        fit: bool = False, need: str | None = None,
    ) -> int:
        """Reserve ``nbytes``; returns the bytes reserved, or 0 when ``cancel`` was set while waiting.
        More than ``owner`` may ever hold is refused (TooBig, saying ``need`` — "searching this board" —
        or ``what``), or with ``fit`` cut to that (a guess corrected later). Waits at most ``wait``
        seconds (None: as long as it takes), then raises ServerBusy; ``what`` the memory is for, in
        its messages ("to read this image")."""
        return self.resize(0, nbytes, cancel, on_wait, wait, what, owner, fit, need)

    def resize(
        self, held: int, nbytes: int, cancel: CancelFlag | None = None,
        on_wait: Callable[[str], None] | None = None, wait: float | None = None,
        what: str = "to stream this run", owner: str | None = None, fit: bool = False,
        need: str | None = None,
    ) -> int:
        """Change a reservation of ``held`` bytes to ``nbytes`` (waiting as ``reserve`` does when it
        grows); returns the bytes now reserved: ``held`` still, when cancelled or busy (ServerBusy)."""
        limit = self.limit_for(owner)
        nbytes = max(0, int(nbytes))
        if nbytes > limit:
            if not fit:
                self.check_fits(nbytes, need or what.removeprefix("to "), owner)
            nbytes = limit
        if nbytes <= held:
            self.release(held - nbytes, owner)
            return nbytes
        message = t(  # names the limit: the memory every kind of work shares
            "solve.wait.memory", what=phrase(what), mb=format(nbytes / MB, ",.0f"),
            total=format(self.trace_bytes / MB, ",.0f"),
        )

        def ready() -> bool:
            total = self._held.total() - held + nbytes <= self.trace_bytes
            return total and (owner is None or self._held[owner] - held + nbytes <= limit)

        got = self._wait_for(ready, cancel, wait, on_wait, message, "memory", owner)
        if not got:
            return held
        self._held[owner] += nbytes - held
        self._cond.release()
        return nbytes

    def release(self, nbytes: int, owner: str | None = None) -> None:
        """Give back ``nbytes`` of ``owner``'s reservation."""
        if nbytes:
            with self._cond:
                self._held[owner] -= nbytes
                if self._held[owner] <= 0:
                    del self._held[owner]
                self._cond.notify_all()

    def snapshot(self) -> dict[str, int]:
        """Searches computing and bytes held now (for ``/api/health``)."""
        with self._cond:
            return {
                "computing": self._slots["computing"].total(),
                "trace_bytes": self._held.total(), "trace_budget": self.trace_bytes,
            }

    # ---- waiting -----------------------------------------------------------------------------------
    def _wait_for(
        self,
        ready: Callable[[], bool],
        cancel: CancelFlag | None,
        wait: float | None,
        on_wait: Callable[[str], None] | None,
        message: str,
        pool: str | None = None,
        owner: str | None = None,
    ) -> bool:
        """Wait until ``ready()``; returns True holding the lock, False (lock released) if cancelled.
        Waits at most ``wait`` seconds (None: as long as it takes), then ServerBusy; ``on_wait`` is told
        ``message`` once. An ``owner`` with ``MAX_WAITING`` requests waiting for ``pool`` already is
        ServerBusy at once."""
        self._cond.acquire()
        if ready():
            return True
        deadline = None if wait is None else time.monotonic() + wait
        told = False
        with self._waiting_turn(pool, owner, message):
            while not ready():
                if cancel is not None and cancel.is_set():
                    self._cond.release()
                    return False
                if deadline is not None and time.monotonic() >= deadline:
                    self._cond.release()
                    raise ServerBusy(t("solve.budget.server_busy_try_again_moment", message=message))
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

    @contextmanager
    def _waiting_turn(self, pool: str | None, owner: str | None, message: str) -> Iterator[None]:
        """Count one of ``owner``'s requests waiting for ``pool`` (the lock held on entry) for the block;
        ServerBusy, the lock released, past ``MAX_WAITING``."""
        waiting = self._waiting[pool] if pool is not None and owner is not None else None
        if waiting is None:
            yield
            return
        if waiting[owner] >= MAX_WAITING:
            self._cond.release()
            raise ServerBusy(t("solve.budget.server_busy_this_client_has", message=message,
                               MAX_WAITING=MAX_WAITING))
        waiting[owner] += 1
        try:
            yield
        finally:
            with self._cond:  # re-entrant: the lock may be held (True) or not (False, ServerBusy)
                waiting[owner] -= 1
                if waiting[owner] <= 0:
                    del waiting[owner]
