"""The one way server-side work is paid for out of the process's ``WorkBudget``: a live run's search, a
GIF export and a tile run all go through ``paid_work``. It reserves the work's memory, takes a compute
slot, runs the search on a thread of its own while reporting its progress, resizes the reservation to
what the result holds, and gives everything back on every path.

``Stopped`` is the one signal that such work was stopped by its user or the server (its
``CancelFlag`` set) before it finished: raised wherever the work notices, caught by whoever started it.
A time limit is not a stop: the search ends with a result that says so.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

import numpy as np

from .budget import WorkBudget
from .i18n import t
from .search.control import CancelFlag

__all__ = ["PROGRESS_EVERY", "PaidWork", "Stopped", "paid_work"]

PROGRESS_EVERY = 0.25  # seconds between a search's progress reports
T = TypeVar("T")


class Stopped(Exception):
    """The work was stopped by its user or the server (``CancelFlag.set``): nothing to show, nothing
    kept."""


class PaidWork:
    """The work inside ``paid_work``'s block: what it has reserved, its compute slot and its flag."""

    def __init__(
        self, budget: WorkBudget, cancel: CancelFlag, owner: str | None, wait: float | None,
        on_wait: Callable[[str], None] | None,
    ) -> None:
        self.budget = budget
        self.cancel = cancel
        self.owner = owner
        self.wait = wait
        self.on_wait = on_wait
        self.held = 0  # bytes reserved
        self._slot: ExitStack | None = None  # the compute slot while it is held

    def check(self) -> None:
        """Raise ``Stopped`` when the work was stopped (a time limit that ended a search is not a stop)."""
        if self.cancel.stopped:
            raise Stopped

    def search(
        self, search: Callable[[], T], counter: np.ndarray, on_search: Callable[[int], None] | None = None,
    ) -> T:
        """``search()`` on a thread of its own while this one tells ``on_search`` the states expanded so
        far (``counter``, which the search writes) at its start and every ``PROGRESS_EVERY`` seconds;
        the search's error is raised here. Then a time limit's stop is taken back (it is in the
        result) and a stop is ``Stopped``."""
        value = _reporting(search, counter, self.cancel, on_search)
        self.cancel.lift()
        self.check()
        return value

    def free_slot(self) -> None:
        """Let the compute slot go before the block ends: the computing is over."""
        if self._slot is not None:
            self._slot.close()
            self._slot = None

    def resize(self, nbytes: int) -> None:
        """Hold ``nbytes`` from now on, cut to the owner's share (a guess corrected after the search).
        Work that still holds its compute slot never waits for memory: it keeps at most what it has.
        ``Stopped`` when the work is stopped while it waits for more."""
        if self._slot is not None:
            nbytes = min(nbytes, self.held)
        self.held = self.budget.resize(self.held, nbytes, self.cancel, self.on_wait, self.wait,
                                       owner=self.owner, fit=True)
        self.check()


@contextmanager
def paid_work(
    budget: WorkBudget,
    cancel: CancelFlag,
    nbytes: int,
    need: str,
    *,
    owner: str | None = None,
    wait: float | None = None,
    on_wait: Callable[[str], None] | None = None,
    what: str = "to stream this run",
) -> Iterator[PaidWork]:
    """Reserve ``nbytes`` of ``budget`` for ``owner`` (more than it may ever hold is refused in words:
    ``TooBig`` saying what the work needs it for, ``need``: "searching this board"), then take a compute
    slot for the block. Memory comes first, so work waiting for memory holds no slot. Each wait lasts
    at most ``wait`` seconds (None: as long as it takes), then raises ``ServerBusy``; ``on_wait`` is
    told why it waits (``what`` the memory is for: "to search this board"). ``Stopped`` when ``cancel``
    is stopped while waiting. The slot and the reservation are given back when the block ends, on
    every path, errors included."""
    work = PaidWork(budget, cancel, owner, wait, on_wait)
    try:
        work.held = budget.reserve(nbytes, cancel, on_wait, wait, what, owner, need=need)
        work.check()
        with ExitStack() as slot:
            if not slot.enter_context(budget.computing(cancel, wait, on_wait, owner)):
                raise Stopped
            work._slot = slot
            yield work
    finally:
        budget.release(work.held, owner)


def _reporting(
    search: Callable[[], T], counter: np.ndarray, cancel: CancelFlag, on_search: Callable[[int], None] | None,
) -> T:
    """``search()`` on a thread of its own, its progress told to ``on_search`` from this one (see
    ``PaidWork.search``). A report that fails stops the search too (``cancel``)."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = search()
        except BaseException as err:  # handed to the waiting thread, which raises it
            outcome["error"] = err

    context = contextvars.copy_context()  # the search writes in its caller's language (server.i18n)
    worker = threading.Thread(target=context.run, args=(work,), daemon=True,
                              name=f"search-{threading.current_thread().name}")
    worker.start()
    try:
        if on_search is not None:
            on_search(0)
        while worker.is_alive():
            worker.join(timeout=PROGRESS_EVERY)
            if worker.is_alive() and on_search is not None and not cancel.is_set():
                on_search(int(counter[0]))
    except BaseException:  # a report failed: the search stops too, before the error goes on
        cancel.set(t("solve.progress_failed"))
        worker.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
