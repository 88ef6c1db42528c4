"""Drives an algorithm's event generator: counts, enforces limits, hands events on."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from ..i18n import t
from .control import CANCELLED, time_limit_reason
from .events import Event
from .problem import Problem
from .registry import Algorithm, SearchOptions, get_algorithm
from .stats import SearchResult, Stopwatch, Tally


@dataclass(frozen=True)
class Limits:
    """When a search gives up. ``None`` means no limit."""

    max_expanded: int | None = 5_000_000
    max_seconds: float | None = 60.0
    max_stored: int | None = None  # states generated (the search's memory grows with them)


CHECK_EVERY = 256  # events between looks at the clock and the cancel flag (well under 0.1 s)


def run_search(
    problem: Problem,
    algorithm: str,
    options: SearchOptions | None = None,
    limits: Limits | None = None,
    on_event: Callable[[Event], None] | None = None,
    cancel: threading.Event | None = None,
) -> SearchResult:
    """Run the algorithm named ``algorithm`` on ``problem`` to the end, a limit, or cancellation."""
    return run_algorithm(problem, get_algorithm(algorithm), options, limits, on_event, cancel)


def run_algorithm(
    problem: Problem,
    algo: Algorithm,
    options: SearchOptions | None = None,
    limits: Limits | None = None,
    on_event: Callable[[Event], None] | None = None,
    cancel: threading.Event | None = None,
) -> SearchResult:
    """Run ``algo`` (a registry entry, or a variant of one such as a depth-limited IDA*)."""
    options = options or SearchOptions()
    limits = limits or Limits()
    optimal = algo.optimal(problem, options)
    tally = Tally()
    clock = Stopwatch()
    events = algo.run(problem, options)
    path, cost, stopped = None, None, None
    count = 0
    # The cancel flag (which a time limit's watchdog sets) is looked at after every event: one event
    # of a costly family may take tens of ms (a heuristic that floods the board for each state).
    cancelled = cancel.is_set if cancel is not None else lambda: False
    try:
        while True:
            event = next(events)
            tally.add(event.kind)
            if on_event is not None:
                on_event(event)
            count += 1
            if count % CHECK_EVERY == 0 or cancelled():
                stopped = _why_stop(tally, clock, limits, cancel)
                if stopped:
                    events.close()
                    break
    except StopIteration as done:
        path, cost = done.value
    found = path is not None
    return SearchResult(
        algorithm=algo.name,
        found=found,
        cost=cost if found else None,
        path=path or [],
        expanded=tally.expanded,
        generated=tally.generated,
        max_frontier=tally.max_frontier,
        seconds=clock.seconds(),
        optimal_guaranteed=optimal,
        stopped=stopped,
    )


def _why_stop(tally: Tally, clock: Stopwatch, limits: Limits, cancel: threading.Event | None) -> str | None:
    if cancel is not None and cancel.is_set():
        return getattr(cancel, "reason", CANCELLED)  # a CancelFlag says why (e.g. a time limit)
    if limits.max_expanded is not None and tally.expanded > limits.max_expanded:
        return t("search.limit.expanded", count=limits.max_expanded)
    if limits.max_stored is not None and tally.generated > limits.max_stored:
        return t("search.limit.stored", count=limits.max_stored)
    if limits.max_seconds is not None and clock.seconds() > limits.max_seconds:
        return time_limit_reason(limits.max_seconds)
    return None
