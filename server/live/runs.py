"""Runs: a background task per search that computes, then streams its trace in acknowledged frames.

Each run belongs to one client (Socket.IO sid) and one slot; a new run in the same slot, a
cancel, or the client leaving stops it. At most ``frame_window`` frames are unacknowledged, so a
slow or vanished client never makes the server queue without bound. A semaphore bounds how many
searches compute at once, so one user's huge search cannot starve everyone else.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from server.config import Config
from server.live.frames import frames
from server.puzzles.errors import PuzzleError
from server.puzzles.options import Values
from server.puzzles.registry import family_of
from server.solving import Solved, solve

Emit = Callable[[str, Any], None]  # emit(event, payload) to the run's client


@dataclass(eq=False)
class Run:
    run_id: str
    sid: str
    slot: str
    cancel: threading.Event = field(default_factory=threading.Event)
    window: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    thread: threading.Thread | None = None


class RunManager:
    """Starts, tracks and stops the runs of every connected client."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._runs: dict[tuple[str, str], Run] = {}  # (sid, slot) -> its current run
        self._live: set[Run] = set()  # every run whose thread has not ended, current or cancelled
        self._lock = threading.Lock()
        self._compute_slots = threading.BoundedSemaphore(config.max_concurrent_runs)

    def start(
        self,
        sid: str,
        slot: str,
        run_id: str,
        puzzle: Any,
        algorithm: str,
        options: Values,
        emit: Emit,
    ) -> Run:
        run = Run(run_id, sid, slot, window=threading.Semaphore(self.config.frame_window))
        with self._lock:
            previous = self._runs.get((sid, slot))
            if previous is not None:
                previous.cancel.set()
            self._runs[(sid, slot)] = run
            self._live.add(run)
        run.thread = threading.Thread(
            target=self._execute,
            args=(run, puzzle, algorithm, options, emit),
            daemon=True,
            name=f"run-{run_id}",
        )
        run.thread.start()
        return run

    def ack(self, sid: str, run_id: str) -> None:
        """The client has handled one more frame of ``run_id``: one more may be sent."""
        with self._lock:
            for run in self._runs.values():
                if run.sid == sid and run.run_id == run_id:
                    run.window.release()

    def cancel(self, sid: str, run_id: str) -> None:
        with self._lock:
            for run in self._runs.values():
                if run.sid == sid and run.run_id == run_id:
                    run.cancel.set()

    def disconnect(self, sid: str) -> None:
        with self._lock:
            for key in [k for k in self._runs if k[0] == sid]:
                self._runs.pop(key).cancel.set()

    def active(self) -> int:
        """How many runs are still computing or streaming (cancelled ones until they notice)."""
        with self._lock:
            return len(self._live)

    # -- the background task --------------------------------------------------------------
    def _execute(self, run: Run, puzzle: Any, algorithm: str, options: Values, emit: Emit) -> None:
        try:
            solved = self._compute(run, puzzle, algorithm, options, emit)
            if solved is None or run.cancel.is_set():
                return
            self._stream(run, solved, emit)
        except PuzzleError as err:
            emit("run_error", {"run": run.run_id, "error": str(err)})
        except Exception as err:  # one user's failure must not take the server down
            import logging

            logging.getLogger(__name__).exception("run %s failed", run.run_id)
            emit("run_error", {"run": run.run_id, "error": f"internal error ({type(err).__name__})"})
        finally:
            with self._lock:
                self._live.discard(run)
                if self._runs.get((run.sid, run.slot)) is run:
                    del self._runs[(run.sid, run.slot)]

    def _compute(
        self, run: Run, puzzle: Any, algorithm: str, options: Values, emit: Emit
    ) -> Solved | None:
        status = {
            "run": run.run_id, "phase": "queued", "done": 0, "total": None,
            "message": "waiting for a free worker",
        }
        while not self._compute_slots.acquire(timeout=0.5):
            if run.cancel.is_set():
                return None
            emit("run_status", status)
        try:
            progress = np.zeros(1, np.int64)
            outcome: dict[str, Any] = {}

            def work() -> None:
                try:
                    outcome["solved"] = solve(
                        puzzle,
                        algorithm,
                        options,
                        record_trace=True,
                        max_expanded=self.config.expansion_limit(family_of(puzzle).compiled),
                        max_seconds=self.config.max_seconds,
                        engine=self.config.engine,
                        cancel=run.cancel,
                        progress=progress,
                    )
                except BaseException as err:  # handed to the run thread, which reports it
                    outcome["error"] = err

            worker = threading.Thread(target=work, daemon=True, name=f"search-{run.run_id}")
            worker.start()
            emit("run_status", {**status, "phase": "searching", "message": "searching"})
            while worker.is_alive():
                worker.join(timeout=0.25)
                if worker.is_alive():
                    done = int(progress[0])
                    emit("run_status", {**status, "phase": "searching", "done": done,
                                        "message": f"searching: {done:,} expanded"})
        finally:
            self._compute_slots.release()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["solved"]

    def _stream(self, run: Run, solved: Solved, emit: Emit) -> None:
        trace = solved.trace
        assert trace is not None
        total = len(trace)
        window = run.window
        sent = 0
        last_status = 0.0
        for frame in frames(run.run_id, trace, self.config.frame_records, solved.snapshots):
            if not self._wait_for_room(run, window):
                return
            emit("run_frame", frame)
            sent = min(total, frame["start"] + self.config.frame_records)
            now = time.monotonic()
            if now - last_status > 0.25:
                last_status = now
                emit("run_status", {"run": run.run_id, "phase": "streaming", "done": sent, "total": total,
                                    "message": f"streaming {100 * sent // max(total, 1)}%"})
        # Wait until every frame is acknowledged, so `run_done` really means "all received".
        for _ in range(self.config.frame_window):
            if not self._wait_for_room(run, window):
                return
        emit("run_done", {"run": run.run_id, "result": solved.json, "records": total})

    def _wait_for_room(self, run: Run, window: threading.Semaphore) -> bool:
        deadline = time.monotonic() + self.config.ack_timeout
        while not window.acquire(timeout=0.2):
            if run.cancel.is_set() or time.monotonic() > deadline:
                return False
        return not run.cancel.is_set()
