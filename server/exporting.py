"""GIF export jobs (docs/PROTOCOL.md, "Share and export"): started, run, polled and cancelled.

An export is a job: a thread that solves with the trace recorded through ``solving.budgeted_solve``
(memory and a compute slot paid as ``server.paid_work`` pays for all work: the same budget and limits
as any run, the slot kept while the frames are drawn and encoded), draws the frames of the family's
``animation`` part and encodes them (server/gif_encoding.py). Its progress (searching, frames
rendered, encoding) is polled over HTTP; once finished it is handed to the GIF store
(server/gif_store.py: in this process, or in Redis for every process), which keeps it under its caps
and answers for it from then on. Every failure ends the job with a message; nothing raises out of it.

The caps on work at once, ``max_animations_per_client`` and ``max_animation_jobs``, are this process's
count of its running jobs and leases (server/leases.py: ``maze:lease:gif:<client>`` and
``maze:lease:gif-all`` with Redis), held from the POST until the job ends.

A job belongs to the client that started it (``AnimationJob.client``, ``clients.client_id`` of the
POST): its status, GIF and cancel are answered only to a request that may act for that client
(``clients.client_ids``), and any other gets what an unknown id gets (None: a 404), so a job id seen
elsewhere neither reveals the job nor lets another stop it.
"""

from __future__ import annotations

import contextvars
import logging
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .budget import ServerBusy, WorkBudget
from .clients import TooMany
from .config import Config
from .gif_encoding import Gif, draw_frames, encode_gif, file_stem, frame_bytes
from .gif_store import Finished, GifStore, gif_store_for
from .i18n import language, t, using
from .leases import Leases, leases_for
from .paid_work import Stopped
from .puzzles.errors import PuzzleError
from .puzzles.options import Values
from .search.control import CANCELLED, CancelFlag
from .solving import budgeted_solve

log = logging.getLogger(__name__)


@dataclass(eq=False)
class AnimationJob:
    """One GIF export while it runs: its state (``queued``, ``searching``, ``rendering``,
    ``encoding``) and progress. Finished, it is a ``gif_store.Finished`` (``done``, ``error`` or
    ``cancelled``)."""

    job_id: str
    client: str
    filename: str
    state: str = "queued"
    done: int = 0
    total: int = 0
    message: str = "export.job.waiting"  # a catalog key, or words already written
    cancel: CancelFlag = field(default_factory=CancelFlag)  # stops it (a time limit ends only the search)
    expanded: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    lang: str = field(default_factory=language)  # its maker's language (the request that started it)

    def to_json(self) -> dict[str, Any]:
        """What a poll answers while it runs."""
        searching = self.state == "searching"
        with using(self.lang):  # a poll of another process, or the publisher's thread, writes as its maker
            message = (t("export.job.searching_count", count=int(self.expanded[0])) if searching
                       else t(self.message))
        return {"job": self.job_id, "state": self.state, "done": self.done, "total": self.total,
                "message": message}

    def finished(self, state: str, message: str, gif: Gif | None = None) -> Finished:
        """The job ended ``state``: what a poll answers from then on, and the GIF when it is done."""
        status = {**self.to_json(), "state": state, "message": message}
        if state == "error":
            status["error"] = message
        if state == "done" and gif is not None:
            status.update(
                url=f"/api/animations/{self.job_id}.gif", filename=self.filename, bytes=len(gif.data),
                frames=gif.frames, width=gif.width, height=gif.height, seconds=round(gif.seconds, 2),
            )
        return Finished(self.job_id, self.client, status, gif.data if gif is not None else None)


class AnimationExports:
    """Starts GIF exports, runs them, and answers their polls, downloads and cancels: the running ones
    from this process, the others from the GIF store."""

    def __init__(self, config: Config, budget: WorkBudget) -> None:
        self.config = config
        self.budget = budget
        self.store: GifStore = gif_store_for(config)  # in this process, or Redis: chosen once
        self.leases: Leases = leases_for(config)
        self._running: dict[str, AnimationJob] = {}
        self._lock = threading.Lock()

    # ---- the API's side ------------------------------------------------------------------------
    def start(self, puzzle: Any, algorithm: str, options: Values, client: str, name: str) -> AnimationJob:
        """Start an export of checked options; raises TooMany (the client's cap of exports at once)
        or ServerBusy (the server's)."""
        config = self.config
        cap = config.max_animations_per_client
        refuse_client = TooMany(t("export.exporting.at_most_gif_exports_at", cap=cap))
        with self._lock:
            running = list(self._running.values())
            # The server's cap first: a client at its cap while the server is full is told to retry
            # in a moment, not to wait for its own exports (those may be another's at its address).
            if len(running) >= config.max_animation_jobs:
                raise ServerBusy(
                    t("export.exporting.server_busy_gif_exports_are", n_running=len(running))
                )
            if sum(1 for j in running if j.client == client) >= cap:
                raise refuse_client
            job = AnimationJob(secrets.token_urlsafe(12), client, f"{file_stem(name, algorithm)}.gif")
            full = self.leases.take(  # with Redis: the same caps across processes
                f"gif:{job.job_id}", [("gif-all", config.max_animation_jobs), (f"gif:{client}", cap)],
            )
            if full == 1:
                raise refuse_client
            if full == 0:
                raise ServerBusy(
                    t("export.exporting.server_busy_gif_exports_are_2",
                      max_animation_jobs=config.max_animation_jobs)
                )
            self._running[job.job_id] = job
        self.store.watch(job)  # before it can end: the store stops watching it when it is kept
        threading.Thread(  # in the caller's language (server.i18n)
            target=contextvars.copy_context().run, args=(self._execute, job, puzzle, algorithm, options),
            daemon=True,
            name=f"export-{job.job_id}",
        ).start()
        return job

    def status(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        """What a poll by a request acting for ``clients`` answers; None when no process has the job
        or it is another client's. ServerBusy when the store cannot answer."""
        job = self._mine(job_id, clients)
        return job.to_json() if job is not None else self.store.status(job_id, clients)

    def download(self, job_id: str, clients: Sequence[str]) -> tuple[dict[str, Any], bytes | None] | None:
        """A job's status and, when it is done, its GIF; None as for ``status``."""
        job = self._mine(job_id, clients)
        return (job.to_json(), None) if job is not None else self.store.download(job_id, clients)

    def cancel(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        """Cancel a job of one of ``clients`` (here, or on the process running it); its status, or None
        (unknown, or another client's: nothing is cancelled then)."""
        job = self._mine(job_id, clients)
        if job is None:
            return self.store.cancel(job_id, clients)
        job.cancel.set(CANCELLED)
        return job.to_json()

    def snapshot(self) -> dict[str, int]:
        """This process's exports: running, and bytes of finished GIFs held in its memory."""
        with self._lock:
            running = len(self._running)
        return {"animations": running, "animation_bytes": self.store.held_bytes()}

    def _mine(self, job_id: str, clients: Sequence[str]) -> AnimationJob | None:
        """The job running here, if one of ``clients`` started it."""
        with self._lock:
            job = self._running.get(job_id)
        return job if job is not None and job.client in clients else None

    # ---- the job -------------------------------------------------------------------------------
    def _execute(self, job: AnimationJob, puzzle: Any, algorithm: str, options: Values) -> None:
        outcome = job.finished("error", t("export.job.ended"))
        try:
            gif, stopped = self._render(job, puzzle, algorithm, options)
            message = t("export.job.done", frames=gif.frames, mb=format(len(gif.data) / 1e6, ".2f"))
            if stopped:
                message += t("export.job.stopped_early", stopped=stopped)
            outcome = job.finished("done", message, gif)
        except Stopped:
            outcome = job.finished("cancelled", t("export.job.cancelled"))
        except (PuzzleError, ServerBusy) as err:
            outcome = job.finished("error", str(err))
        except Exception as err:  # one export's failure must not take the server down
            log.exception("export %s failed", job.job_id)
            message = t("web.app.internal_error_server_keeps_running", name=type(err).__name__)
            outcome = job.finished("error", message)
        finally:
            self._finish(job, outcome)  # the budget is released by then (``paid_work``)

    def _finish(self, job: AnimationJob, outcome: Finished) -> None:
        # The work is over: its lease goes first, so a poll that sees the job final finds it gone too.
        self.leases.release(f"gif:{job.job_id}")
        # Kept before it leaves the running: a poll sees it running until the store answers for it,
        # finished and with the older ones it made room for gone. (Seen finished before it was stored,
        # a poll on another process could still get a GIF this one's storing was about to evict.)
        self.store.keep(outcome)
        with self._lock:
            self._running.pop(job.job_id, None)

    def _render(
        self, job: AnimationJob, puzzle: Any, algorithm: str, options: Values,
    ) -> tuple[Gif, str | None]:
        """The job's work: the GIF, and why its search stopped early (None: it did not)."""
        config = self.config

        def waiting(message: str) -> None:
            job.message = message

        def searching(_done: int) -> None:
            job.state, job.message = "searching", t("export.job.searching")

        def drawn(done: int, total: int) -> None:
            if job.cancel.stopped:
                raise Stopped
            job.done, job.total = done, total
            job.message = t("export.job.rendering_frames", done=done, total=total)

        with budgeted_solve(
            self.budget, config, puzzle, algorithm, options, job.cancel, extra_bytes=frame_bytes(config),
            wait=config.animation_wait, on_wait=waiting, on_search=searching, progress=job.expanded,
            keep_slot=True,  # rendering and encoding compute too
            owner=job.client,  # its maker's share of the budget
        ) as solved:
            job.state, job.message = "rendering", t("export.job.rendering")
            frames = draw_frames(puzzle, solved, config, drawn)
            job.state, job.message = "encoding", t("export.job.encoding", frames=len(frames))
            gif = encode_gif(frames, config)
        if job.cancel.stopped:
            raise Stopped
        return gif, solved.json.get("stopped")
