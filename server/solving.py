"""One place that turns (puzzle, algorithm, options) into a result and a trace, for any family.

The CLI, the JSON API and the live layer all call ``solve``; it asks the puzzle's family (from
``server.puzzles.registry``) to check the algorithm and the options and to run the search. Work that
keeps a trace (a live run, a GIF export) calls ``budgeted_solve``: ``solve`` within the server's
``WorkBudget``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, nullcontext
from typing import Any, TypeVar

import numpy as np

from server.budget import WorkBudget
from server.config import Config
from server.json_arrays import compact_paths
from server.judging import OPTIMUM_SECONDS as OPTIMUM_SECONDS  # read here by labyrinth/family.py (for now)
from server.judging import optimum_cost
from server.puzzles.family import RunControl, Solved
from server.puzzles.options import Values
from server.puzzles.registry import family_of
from server.search.control import CancelFlag, deadline

__all__ = ["Solved", "budgeted_solve", "check_run", "held_bytes", "search_plan", "solve"]

SNAPSHOT_BYTES = 200  # a snapshot's dict and its lists, besides its board
PROGRESS_EVERY = 0.25  # seconds between a budgeted search's progress reports
T = TypeVar("T")


def check_run(puzzle: Any, algorithm: Any, raw_options: Any) -> Values:
    """Validate a run request before any work starts; raises PuzzleError naming the field."""
    family = family_of(puzzle)
    if not isinstance(algorithm, str):
        from server.puzzles.errors import PuzzleError

        raise PuzzleError(f"expected an algorithm name, got {type(algorithm).__name__}", "option 'algorithm'")
    family.check_algorithm(algorithm)
    return family.run_options(raw_options)


def solve(
    puzzle: Any,
    algorithm: str,
    options: Any = None,
    *,
    record_trace: bool = False,
    engine: str = "auto",
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    max_stored: int | None = None,
    cancel: CancelFlag | None = None,
    progress: np.ndarray | None = None,
    compact: bool = False,
    expanded_setting: str | None = None,
    stored_setting: str | None = None,
) -> Solved:
    """Solve ``puzzle``; ``options`` is a JSON-like mapping of run options (checked against the
    family's schema). Raises PuzzleError for a bad algorithm or options, or a puzzle the options
    leave unsolvable as asked (e.g. no start).

    Every limit applies to the generic engine and a family's fast path alike: ``max_seconds`` arms
    ``cancel`` (a new flag when none is given) to be set when the time is up, and both poll it.
    ``expanded_setting`` (``Config.search_limits`` gives it) names what raises ``max_expanded``: a
    search stopped there says so after its reason; ``stored_setting`` likewise for ``max_stored``
    (``search_plan`` gives it when it fitted the states to an owner's memory).

    ``compact``: the result's grid path may be a ``json_arrays.CellPairs`` (its flat cell indices, no
    Python list per cell), for a caller that writes the result with ``json_arrays.encode`` or
    ``write``; otherwise every path is a plain list, as msgpack and ``jsonify`` need."""
    values = check_run(puzzle, algorithm, options)
    family = family_of(puzzle)
    flag = cancel if cancel is not None else CancelFlag()
    control = RunControl(max_expanded, max_seconds, flag, progress, record_trace, engine, max_stored)
    with compact_paths() if compact else nullcontext():
        with deadline(flag, max_seconds):
            solved = family.solve(puzzle, algorithm, values, control)
        result = solved.json
        if result["found"] and not result["optimal_guaranteed"] and not flag.is_set():
            optimum = optimum_cost(puzzle, values, engine)  # judging's: quick, or None
            if optimum is not None:
                result["optimum"] = optimum
    at_limit = max_expanded is not None and result.get("stopped") == expansion_reason(max_expanded)
    if expanded_setting and at_limit:
        result["stopped"] += f" ({expanded_setting})"
    if stored_setting and max_stored is not None and result.get("stopped") == stored_reason(max_stored):
        result["stopped"] += f" ({stored_setting})"
    return solved


def expansion_reason(max_expanded: int) -> str:
    """How a search stopped by ``max_expanded`` says so (the runner's and the kernels' wording)."""
    return f"limit: more than {max_expanded:,} states expanded"


def stored_reason(max_stored: int) -> str:
    """How a search stopped by ``max_stored`` says so (the runner's wording)."""
    return f"limit: more than {max_stored:,} states stored"


def held_bytes(solved: Solved) -> int:
    """What a finished search holds while it is used: its trace and its snapshots."""
    held = solved.trace.nbytes if solved.trace is not None else 0
    for snapshot in solved.snapshots or ():
        held += SNAPSHOT_BYTES + len(snapshot.get("board", b""))
    return held


MIN_STORED = 1_000  # a generic search fitted to its owner's memory keeps at least this many states


def search_plan(
    budget: WorkBudget, config: Config, puzzle: Any, algorithm: str, options: Values,
    owner: str | None = None,
) -> tuple[dict[str, Any], int]:
    """The limits of one search of ``puzzle`` and the memory it needs at its peak, its trace aside
    (``Family.search_bytes``), sized to what ``owner`` may hold: a generic search whose states would
    not fit keeps fewer (``max_stored`` lowered, its stop naming the memory), and one that cannot fit
    even so is refused in words (``TooBig``) before anything runs."""
    family = family_of(puzzle)
    limits = config.search_limits(family.compiled)
    limits["stored_setting"] = "raise it with MAZE_MAX_STORED_GENERIC, within the work budget"
    need = family.search_bytes(puzzle, algorithm, options, limits["max_stored"])
    room = budget.limit_for(owner)
    if need > room:
        per_state = max(1, family.state_bytes(puzzle))
        fitted = (room * 3 // 4 - family.setup_bytes(puzzle, options)) // per_state  # a quarter for the trace
        if MIN_STORED <= fitted < (limits["max_stored"] or config.max_stored_generic):
            limits["max_stored"] = int(fitted)
            limits["stored_setting"] = (
                f"the states of this puzzle take about {per_state:,} bytes each, and one client's work may "
                f"hold {room / 1e6:,.0f} MB (MAZE_TRACE_BUDGET_BYTES)"
            )
            need = family.search_bytes(puzzle, algorithm, options, limits["max_stored"])
    budget.check_fits(need, "searching this puzzle", owner)
    return limits, need


@contextmanager
def budgeted_solve(
    budget: WorkBudget,
    config: Config,
    puzzle: Any,
    algorithm: str,
    options: Values,
    cancel: CancelFlag,
    *,
    extra_bytes: int = 0,
    wait: float | None = None,
    on_wait: Callable[[str], None] | None = None,
    on_search: Callable[[int], None] | None = None,
    progress: np.ndarray | None = None,
    keep_slot: bool = False,
    owner: str | None = None,
) -> Iterator[Solved | None]:
    """Solve with the trace recorded, within ``budget``: reserve the search's memory (``search_plan``:
    refused in words when it cannot fit ``owner``'s share) and the trace's estimated memory (plus
    ``extra_bytes``; a guess, fitted to the share), take a compute slot, solve under ``config``'s
    limits, then resize the reservation to what the result holds (plus ``extra_bytes``). Yields the
    result, or None when ``cancel`` was stopped (``CancelFlag.set``) while waiting or searching.

    Memory comes first, so work waiting for memory holds no slot. Each wait lasts at most ``wait``
    seconds (None: as long as it takes), then raises ``ServerBusy``; ``on_wait`` gets a message
    saying why it waits. ``on_search`` gets the states expanded so far when the search starts and
    every ``PROGRESS_EVERY`` seconds while it runs. The slot is let go once the search ends, or with
    ``keep_slot`` held for the block; a job that keeps its slot keeps at most what it reserved (it
    never waits for memory holding a slot). The reservation is held for the block and released on
    every path, errors (``PuzzleError``, ``ServerBusy``, any other) included."""
    family = family_of(puzzle)
    limits, need = search_plan(budget, config, puzzle, algorithm, options, owner)
    held = 0
    try:
        trace = min(family.trace_estimate(puzzle) + extra_bytes, max(0, budget.limit_for(owner) - need))
        held = budget.reserve(need + trace, cancel, on_wait, wait, owner=owner, need="searching this puzzle")
        solved: Solved | None = None
        with ExitStack() as slot:
            if not cancel.is_set() and slot.enter_context(budget.computing(cancel, wait, on_wait, owner)):
                solved = _search(config, puzzle, algorithm, options, cancel, on_search, progress, limits)
            kept = slot.pop_all() if keep_slot else ExitStack()
        with kept:
            cancel.lift()  # the search is over: a time limit's stop is in its result, not on the flag
            if solved is not None and not cancel.is_set():
                used = held_bytes(solved) + extra_bytes
                held = budget.resize(held, min(used, held) if keep_slot else used, cancel, on_wait, wait,
                                     owner=owner, fit=True)
            yield None if cancel.is_set() else solved
    finally:
        budget.release(held, owner)


def _search(
    config: Config, puzzle: Any, algorithm: str, options: Values, cancel: CancelFlag,
    on_search: Callable[[int], None] | None, progress: np.ndarray | None, limits: dict[str, Any],
) -> Solved:
    """``solve`` with the trace recorded under ``limits`` (``search_plan``'s; ``reporting``)."""
    counter = progress if progress is not None else np.zeros(1, np.int64)
    return reporting(
        lambda: solve(
            puzzle, algorithm, options, record_trace=True, engine=config.engine, cancel=cancel,
            progress=counter, **limits,
        ),
        counter, cancel, on_search,
    )


def reporting(
    search: Callable[[], T], counter: np.ndarray, cancel: CancelFlag, on_search: Callable[[int], None] | None,
) -> T:
    """``search()`` on a thread of its own while this one tells ``on_search`` the states expanded so far
    (``counter``, which the search writes) at its start and every ``PROGRESS_EVERY`` seconds; the
    search's error is raised here. A report that fails stops the search too (``cancel``)."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = search()
        except BaseException as err:  # handed to the waiting thread, which raises it
            outcome["error"] = err

    worker = threading.Thread(target=work, daemon=True, name=f"search-{threading.current_thread().name}")
    worker.start()
    try:
        if on_search is not None:
            on_search(0)
        while worker.is_alive():
            worker.join(timeout=PROGRESS_EVERY)
            if worker.is_alive() and on_search is not None and not cancel.is_set():
                on_search(int(counter[0]))
    except BaseException:  # a report failed: the search stops too, before the error goes on
        cancel.set("the search's progress could not be reported")
        worker.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
