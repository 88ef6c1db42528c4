"""Exports the server renders: animated GIFs of a search (docs/PROTOCOL.md, "Share and export").

An export is a job: a thread that solves with the trace recorded through ``solving.budgeted_solve``
(trace memory and a compute slot from the server's ``WorkBudget``: the same budget and limits as any
run, the slot kept while the frames are drawn and encoded), asks the puzzle's family for frames
(``Family.animation_frames``: None when the family draws none) and encodes them with Pillow. Its
progress (searching, frames rendered, encoding) is polled over HTTP; the finished GIF is kept in
memory for a while, the store capped in bytes and in count (the oldest finished exports go first).
Every failure ends the job with a message; nothing raises out of it.
"""

from __future__ import annotations

import io
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from server.budget import ServerBusy, WorkBudget
from server.clients import TooMany
from server.config import Config
from server.puzzles.errors import PuzzleError
from server.puzzles.options import Values
from server.puzzles.registry import family_of
from server.search.control import CANCELLED, CancelFlag
from server.solving import budgeted_solve

FINAL = ("done", "error", "cancelled")
MIN_DELAY_MS, MAX_DELAY_MS = 20, 800  # browsers play delays under 20 ms at 100 ms


class _Stopped(Exception):
    """The job was cancelled while it rendered."""


@dataclass(eq=False)
class AnimationJob:
    """One GIF export: its state (``queued``, ``searching``, ``rendering``, ``encoding``, then
    ``done``, ``error`` or ``cancelled``), progress and, once done, the GIF."""

    job_id: str
    client: str
    filename: str
    state: str = "queued"
    done: int = 0
    total: int = 0
    message: str = "waiting for a worker"
    error: str | None = None
    gif: bytes | None = None
    frames: int = 0
    width: int = 0
    height: int = 0
    seconds: float = 0.0
    created: float = field(default_factory=time.monotonic)
    finished: float | None = None
    cancel: CancelFlag = field(default_factory=CancelFlag)  # stops the search (limits set it too)
    stopped: threading.Event = field(default_factory=threading.Event)  # the user cancelled
    expanded: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "job": self.job_id, "state": self.state, "done": self.done, "total": self.total,
            "message": self.message,
        }
        if self.state == "searching":
            out["message"] = f"searching: {int(self.expanded[0]):,} expanded"
        if self.state == "done" and self.gif is not None:
            out.update(
                url=f"/api/animations/{self.job_id}.gif", filename=self.filename, bytes=len(self.gif),
                frames=self.frames, width=self.width, height=self.height, seconds=round(self.seconds, 2),
            )
        if self.error is not None:
            out["error"] = self.error
        return out


def file_stem(*parts: str) -> str:
    """A download's name from its parts: letters, digits, dots, dashes and underscores only."""
    words = [re.sub(r"[^A-Za-z0-9._-]+", "_", str(p)).strip("._-")[:60] for p in parts]
    return "-".join(w for w in words if w) or "export"


def gif_durations(frames: int, config: Config) -> list[int]:
    """Frame delays (ms): the whole GIF lasts about ``animation_seconds``, its last frame
    ``animation_hold_seconds`` of it, every other frame 20 to 800 ms (GIF counts in 10 ms)."""
    hold = round(config.animation_hold_seconds * 1000)
    if frames <= 1:
        return [hold] * frames
    rest = config.animation_seconds * 1000 - hold
    delay = int(min(MAX_DELAY_MS, max(MIN_DELAY_MS, round(rest / (frames - 1) / 10) * 10)))
    return [delay] * (frames - 1) + [hold]


def encode_gif(frames: list[Any], durations: list[int]) -> bytes:
    """An endlessly looping GIF of PIL images (palette images keep their palette: no quantising)."""
    buffer = io.BytesIO()
    frames[0].save(
        buffer, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False,
    )
    return buffer.getvalue()


class AnimationExports:
    """Starts GIF exports, reports their progress and keeps the finished GIFs for a while."""

    def __init__(self, config: Config, budget: WorkBudget) -> None:
        self.config = config
        self.budget = budget
        self._jobs: OrderedDict[str, AnimationJob] = OrderedDict()  # oldest first
        self._lock = threading.Lock()

    # ---- the API's side ------------------------------------------------------------------------
    def start(self, puzzle: Any, algorithm: str, options: Values, client: str, name: str) -> AnimationJob:
        """Start an export of checked options; raises TooMany (the client's cap of exports at once)
        or ServerBusy (the server's)."""
        config = self.config
        with self._lock:
            self._expire(time.monotonic())
            busy = [j for j in self._jobs.values() if j.state not in FINAL]
            cap = config.max_animations_per_client
            if sum(1 for j in busy if j.client == client) >= cap:
                raise TooMany(
                    f"at most {cap} GIF exports at once for this client; wait until one is done"
                )
            if len(busy) >= config.max_animation_jobs:
                raise ServerBusy(
                    f"the server is busy ({len(busy)} GIF exports are rendering); try again in a moment"
                )
            job = AnimationJob(secrets.token_urlsafe(12), client, f"{file_stem(name, algorithm)}.gif")
            self._jobs[job.job_id] = job
        thread = threading.Thread(
            target=self._execute, args=(job, puzzle, algorithm, options), daemon=True,
            name=f"export-{job.job_id}",
        )
        thread.start()
        return job

    def get(self, job_id: str) -> AnimationJob | None:
        with self._lock:
            self._expire(time.monotonic())
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> AnimationJob | None:
        job = self.get(job_id)
        if job is not None and job.state not in FINAL:
            job.stopped.set()
            job.cancel.set(CANCELLED)
        return job

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            finished = [j for j in self._jobs.values() if j.state in FINAL]
            return {
                "animations": len(self._jobs) - len(finished),
                "animation_bytes": sum(len(j.gif or b"") for j in finished),
            }

    # ---- the store -----------------------------------------------------------------------------
    def _expire(self, now: float) -> None:
        """Drop finished jobs past their time, then the oldest finished ones past the caps (held lock)."""
        config = self.config
        finished = [j for j in self._jobs.values() if j.state in FINAL]
        for job in finished:
            if job.finished is not None and now - job.finished > config.animation_ttl:
                del self._jobs[job.job_id]
        finished = [j for j in self._jobs.values() if j.state in FINAL]
        stored = sum(len(j.gif or b"") for j in finished)
        # The newest stays whatever the caps (the client polling it gets it); older ones make room.
        while len(finished) > 1 and (
            len(finished) > config.animation_store_count or stored > config.animation_store_bytes
        ):
            oldest = min(finished, key=lambda j: j.finished or 0.0)
            finished.remove(oldest)
            stored -= len(oldest.gif or b"")
            del self._jobs[oldest.job_id]

    def _finish(self, job: AnimationJob, state: str, message: str, gif: bytes | None = None) -> None:
        with self._lock:
            job.gif = gif
            job.message = message
            if state == "error":
                job.error = message
            job.finished = time.monotonic()
            job.state = state  # last: a job is FINAL only once its fields are in place
            self._expire(job.finished)

    # ---- the job -------------------------------------------------------------------------------
    def _execute(self, job: AnimationJob, puzzle: Any, algorithm: str, options: Values) -> None:
        outcome: tuple[str, str, bytes | None] = ("error", "the export ended unexpectedly", None)
        try:
            outcome = self._render(job, puzzle, algorithm, options)
        except _Stopped:
            outcome = ("cancelled", "cancelled", None)
        except (PuzzleError, ServerBusy) as err:
            outcome = ("error", str(err), None)
        except Exception as err:  # one export's failure must not take the server down
            logging.getLogger(__name__).exception("export %s failed", job.job_id)
            outcome = ("error", f"internal error ({type(err).__name__}); the server keeps running", None)
        finally:
            self._finish(job, *outcome)  # the budget is released by then (``budgeted_solve``)

    def _render(
        self, job: AnimationJob, puzzle: Any, algorithm: str, options: Values,
    ) -> tuple[str, str, bytes | None]:
        """The job's work: ("done", message, the GIF)."""
        config = self.config
        family = family_of(puzzle)
        frame_bytes = config.animation_max_frames * config.animation_max_side**2  # palette frames

        def waiting(message: str) -> None:
            job.message = message

        def searching(_done: int) -> None:
            job.state, job.message = "searching", "searching"

        with budgeted_solve(
            self.budget, config, puzzle, algorithm, options, job.cancel, extra_bytes=frame_bytes,
            wait=config.animation_wait, on_wait=waiting, on_search=searching, progress=job.expanded,
            keep_slot=True,  # rendering and encoding compute too
        ) as solved:
            if solved is None or job.stopped.is_set():
                raise _Stopped

            def progress(done: int, total: int) -> None:
                if job.stopped.is_set():
                    raise _Stopped
                job.done, job.total = done, total
                job.message = f"rendering: {done} / {total} frames"

            job.state, job.message = "rendering", "rendering"
            frames = family.animation_frames(
                puzzle, solved, config.animation_max_frames, config.animation_max_side, progress,
            )
            if not frames:
                raise PuzzleError(f"the {family.title.lower()} family draws no animation", "algorithm")
            job.state, job.message = "encoding", f"encoding {len(frames)} frames"
            durations = gif_durations(len(frames), config)
            gif = encode_gif(frames, durations)
        if job.stopped.is_set():
            raise _Stopped
        if len(gif) > config.animation_max_bytes:
            limit = config.animation_max_bytes / 1e6
            raise PuzzleError(
                f"the GIF would be {len(gif) / 1e6:.1f} MB, more than the limit of {limit:.0f} MB",
                "animation",
            )
        job.frames, (job.width, job.height) = len(frames), frames[0].size
        job.seconds = sum(durations) / 1000
        stopped = solved.json.get("stopped")
        note = f"; the search stopped early ({stopped}): the GIF shows what it searched" if stopped else ""
        return "done", f"{len(frames)} frames, {len(gif) / 1e6:.2f} MB{note}", gif
