"""Runs: a background task per search that computes, then streams its trace in acknowledged frames.

Each run belongs to one client connection (Socket.IO sid) and one slot; a new run in the same
slot, a cancel, or the client leaving stops it. A run owns two threads (its task and the search
it waits on) and both end when the run ends, however it ends. Frames are counted by ``seq``: at
most ``frame_window`` are sent beyond the highest acknowledged one, acknowledgements of frames not
sent are ignored, and a stream that stalls for ``ack_timeout`` or outlasts ``stream_timeout`` is
dropped, so a slow, vanished or lying client never makes the server queue without bound. The
server's ``WorkBudget`` bounds the searches computing at once and the memory traces hold
(``solving.budgeted_solve`` and ``tile_runs.budgeted_tile_run``, both paid through
``server.paid_work``). A search stopped by a limit (time, states) streams what it searched, its
result saying why it stopped; one stopped by its client or the server (``paid_work.Stopped``) sends
nothing more.
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..budget import ServerBusy, WorkBudget
from ..config import Config
from ..i18n import language, t, t_in
from ..leases import leases_for
from ..paid_work import Stopped
from ..puzzles.errors import PuzzleError
from ..puzzles.options import Values
from ..puzzles.registry import family_of
from ..search.control import CancelFlag
from ..solving import Solved, budgeted_solve
from ..tile_runs import TileRuns, budgeted_tile_run, page_summary
from .frames import frames

Emit = Callable[[str, Any], None]  # emit(event, payload) to the run's client


@dataclass(eq=False)
class Run:
    run_id: str
    sid: str
    slot: str
    client: str = ""  # the browser (session) the connection belongs to
    cancel: CancelFlag = field(default_factory=CancelFlag)
    acked: int = -1  # the highest frame seq acknowledged
    sent: int = -1  # the highest frame seq sent
    progress: threading.Condition = field(default_factory=threading.Condition)
    thread: threading.Thread | None = None
    lang: str = field(default_factory=language)  # its reader's language (the event that started it)

    def ack(self, seq: int) -> None:
        with self.progress:
            if self.acked < seq <= self.sent:  # an ack of a frame not sent yet counts for nothing
                self.acked = seq
                self.progress.notify_all()

    def stop(self) -> None:
        self.cancel.set()
        with self.progress:
            self.progress.notify_all()


class RunManager:
    """Starts, tracks and stops the runs of every connected client."""

    def __init__(self, config: Config, budget: WorkBudget, tiles: TileRuns | None = None) -> None:
        self.config = config
        self.budget = budget
        self.tiles = tiles  # runs on boards drawn as tiles are kept there (None: streamed like any)
        self._runs: dict[tuple[str, str], Run] = {}  # (sid, slot) -> its current run
        self._live: set[Run] = set()  # every run whose thread has not ended, current or cancelled
        self._lock = threading.Lock()

    def start(
        self, sid: str, slot: str, run_id: str, puzzle: Any, algorithm: str, options: Values, emit: Emit,
        client: str = "", puzzle_id: str = "",
    ) -> Run:
        """Start a run; raises PuzzleError when the client is at its cap of runs at once. A puzzle
        drawn as tiles (its family's ``Tiles.geometry``) is run for its tiles, kept under ``puzzle_id``."""
        run = Run(run_id, sid, slot, client or sid)
        with self._lock:
            previous = self._runs.get((sid, slot))
            others = [r for key, r in self._runs.items() if r.client == run.client and key != (sid, slot)]
            cap = self.config.max_runs_per_client
            if len(others) >= cap or leases_for(self.config).take(  # with Redis: across processes too
                f"run:{sid}:{slot}", [(f"runs:{run.client}", cap)], alive=lambda: (sid, slot) in self._runs,
            ) is not None:
                raise PuzzleError(
                    t("live.runs.at_most_runs_at_once", cap=cap),
                    "field 'slot'",
                )
            lingering = sum(1 for r in self._live if r.client == run.client)
            if lingering >= 2 * cap:  # cancelled runs still winding down count too, up to a point
                raise PuzzleError(t("live.runs.too_many_runs_still_stopping"))
            if previous is not None:
                previous.stop()
            self._runs[(sid, slot)] = run
            self._live.add(run)
        # The run's threads write in the language of the event that started it (server.i18n).
        context = contextvars.copy_context()
        run.thread = threading.Thread(
            target=context.run, args=(self._execute, run, puzzle, algorithm, options, emit, puzzle_id),
            daemon=True,
            name=f"run-{run_id[:20]}",
        )
        run.thread.start()
        return run

    def ack(self, sid: str, run_id: str, seq: int) -> None:
        """The client has handled frame ``seq`` of ``run_id`` (and every one before it)."""
        for run in self._find(sid, run_id):
            run.ack(seq)

    def cancel(self, sid: str, run_id: str) -> None:
        for run in self._find(sid, run_id):
            run.stop()

    def disconnect(self, sid: str) -> None:
        with self._lock:
            gone = [self._runs.pop(key) for key in [k for k in self._runs if k[0] == sid]]
        for run in gone:
            run.stop()

    def shutdown(self, message: str, send: Callable[[str, str, Any], None]) -> int:
        """The server is stopping: stop every run, and tell the client of each current one with
        ``run_error`` carrying ``message``, sent by ``send(sid, event, payload)``. How many were told.
        A stopped run sends nothing more (its search yields no result, its stream no frame)."""
        with self._lock:
            current = list(self._runs.values())
            stopping = list(self._live)
        for run in stopping:
            run.stop()
        for run in current:
            _tell(lambda event, payload, sid=run.sid: send(sid, event, payload), run, t_in(run.lang, message))
        return len(current)

    def active(self) -> int:
        """How many runs are still computing or streaming (cancelled ones until they notice)."""
        with self._lock:
            return len(self._live)

    def _find(self, sid: str, run_id: str) -> list[Run]:
        with self._lock:
            return [r for r in self._runs.values() if r.sid == sid and r.run_id == run_id]

    # -- the background task --------------------------------------------------------------
    def _execute(
        self, run: Run, puzzle: Any, algorithm: str, options: Values, emit: Emit, puzzle_id: str = ""
    ) -> None:
        def status(message: str) -> None:
            emit("run_status", {"run": run.run_id, "phase": "queued", "done": 0, "total": None,
                                "message": message})

        def searching(done: int) -> None:
            message = t("export.job.searching_count", count=done) if done else t("export.job.searching")
            emit("run_status", {"run": run.run_id, "phase": "searching", "total": None, "done": done,
                                "message": message})

        try:
            tiles = family_of(puzzle).tiles
            tiled = (self.tiles is not None and puzzle_id and tiles is not None
                     and tiles.geometry(puzzle, self.config.tile_min_cells))
            if tiled:  # a huge board: no records to stream, the page asks for tiles of any step
                meta = budgeted_tile_run(
                    self.tiles, self.budget, self.config, puzzle, puzzle_id, algorithm, options, run.cancel,
                    on_wait=status, on_search=searching, owner=run.client,
                )
                emit("run_done", {"run": run.run_id, "result": meta["result"], "records": 0,
                                  "tiles": page_summary(meta)})
                return
            with budgeted_solve(
                self.budget, self.config, puzzle, algorithm, options, run.cancel, on_wait=status,
                on_search=searching, owner=run.client,
            ) as solved:
                self._stream(run, solved, emit)
        except Stopped:
            pass  # stopped by its client or the server, which know it: a stopped run sends nothing more
        except (PuzzleError, ServerBusy) as err:
            _tell(emit, run, str(err))
        except Exception as err:  # one user's failure must not take the server down
            logging.getLogger(__name__).exception("run %s failed", run.run_id)
            _tell(emit, run, t("live.runs.internal_error", name=type(err).__name__))
        finally:
            with self._lock:
                self._live.discard(run)
                if self._runs.get((run.sid, run.slot)) is run:
                    del self._runs[(run.sid, run.slot)]

    def _stream(self, run: Run, solved: Solved, emit: Emit) -> None:
        trace = solved.trace
        assert trace is not None
        total = len(trace)
        stream_deadline = time.monotonic() + self.config.stream_timeout
        last_status = 0.0
        last_seq = -1
        for frame in frames(run.run_id, trace, self.config.frame_records, solved.snapshots, solved.named):
            if not self._wait_for_acks(run, frame["seq"] - self.config.frame_window, stream_deadline):
                return
            with run.progress:
                run.sent = frame["seq"]
            emit("run_frame", frame)
            last_seq = frame["seq"]
            now = time.monotonic()
            if now - last_status > 0.25:
                last_status = now
                sent = min(total, frame["start"] + self.config.frame_records)
                emit("run_status", {"run": run.run_id, "phase": "streaming", "done": sent, "total": total,
                                    "message": t("live.runs.streaming", value=100 * sent // max(total, 1))})
        # `run_done` means "all received": wait for the last frame's acknowledgement.
        if not self._wait_for_acks(run, last_seq, stream_deadline):
            return
        emit("run_done", {"run": run.run_id, "result": solved.json, "records": total})

    def _wait_for_acks(self, run: Run, seq: int, stream_deadline: float) -> bool:
        """Wait until frame ``seq`` is acknowledged; False when the run is cancelled, the client
        acknowledged nothing new for ``ack_timeout``, or the whole stream's time is up."""
        with run.progress:
            stalled_since, acked = time.monotonic(), run.acked
            while run.acked < seq and not run.cancel.is_set():
                now = time.monotonic()
                if run.acked != acked:
                    stalled_since, acked = now, run.acked
                if now - stalled_since > self.config.ack_timeout or now > stream_deadline:
                    run.cancel.set(t("live.runs.no_acks"))
                    return False
                run.progress.wait(0.2)
            return not run.cancel.is_set()


def _tell(emit: Emit, run: Run, error: str) -> None:
    """Send ``run_error``; if sending itself fails (the cause may be the channel), log it and stop."""
    try:
        emit("run_error", {"run": run.run_id, "error": error})
    except Exception:
        logging.getLogger(__name__).warning("run %s: could not report its error", run.run_id, exc_info=True)

