"""Exports the server renders: animated GIFs of a search (docs/PROTOCOL.md, "Share and export").

An export is a job: a thread that solves with the trace recorded through ``solving.budgeted_solve``
(trace memory and a compute slot from the server's ``WorkBudget``: the same budget and limits as any
run, the slot kept while the frames are drawn and encoded), asks the puzzle's family for frames
(the family's ``animation``: ``Animation.frames``) and encodes them with Pillow. Its
progress (searching, frames rendered, encoding) is polled over HTTP; the finished GIF is kept for
``animation_ttl`` (10 min), the store capped in bytes and in count (the oldest finished exports go
first, the newest stays whatever the caps). Every failure ends the job with a message; nothing
raises out of it.

Without ``Config.redis_url`` the jobs and GIFs are kept in this process's memory. With it, a job
renders on the process that received its POST, and any process answers its polls, download and
cancel from Redis (server/clients.py says how Redis failures are handled):

- ``maze:gif:<job>``: a hash — ``status`` (the JSON a poll answers, published by the owner every
  quarter second while the job runs, expiring ``redis_lease_seconds`` after the last publication, so
  a job whose process died vanishes), ``cancel`` (set by whichever process got the DELETE; the owner
  stops the job at its next publication), and once finished ``gif`` (the bytes; empty unless done)
  with the final status, the hash then expiring ``animation_ttl`` after the job finished.
- ``maze:gif-store`` (finished job ids by time, ms) and ``maze:gif-sizes`` (job id -> bytes): the
  store's caps ``animation_store_count`` and ``animation_store_bytes`` hold across processes, enforced
  by the script that stores a finished job. ``animation_max_bytes`` is checked before storing.
- the caps ``max_animations_per_client`` and ``max_animation_jobs`` are leases (clients.py):
  ``maze:lease:gif:<client>`` and ``maze:lease:gif-all``, held from the POST until the job ends.

If Redis cannot take a finished job, it stays in this process's memory (today's store) and is
answered here only; a poll that reaches a process while Redis is away and the job is not local gets
a 503 saying so.

A job belongs to the client that started it (``AnimationJob.client``, ``clients.client_id`` of the
POST; in Redis the hash's ``owner``): its status, GIF and cancel are answered only to a request that
may act for that client (``clients.client_ids``), and any other gets what an unknown id gets (None:
a 404), so a job id seen elsewhere neither reveals the job nor lets another stop it.
"""

from __future__ import annotations

import io
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from server.budget import ServerBusy, WorkBudget
from server.clients import RedisDown, TooMany, leases_for, shared_redis
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


# KEYS: the job's hash, the store (ids by finishing time), the sizes; ARGV: the job id, its final
# status (JSON), the GIF (empty unless done), animation_ttl (ms), the store's caps (count, bytes), the
# jobs' key prefix, its owner. Stores the job, forgets the store's entries past their time, then drops
# the oldest finished jobs while over a cap (the newest stays).
STORE_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'gif', ARGV[3], 'owner', ARGV[8])
redis.call('HDEL', KEYS[1], 'cancel')
redis.call('PEXPIRE', KEYS[1], ttl)
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl)) do
  redis.call('HDEL', KEYS[3], old)
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], string.len(ARGV[3]))
local ids = redis.call('ZRANGE', KEYS[2], 0, -1)
local total = 0
for _, id in ipairs(ids) do total = total + tonumber(redis.call('HGET', KEYS[3], id) or '0') end
local count = #ids
local i = 1
while count > 1 and (count > tonumber(ARGV[5]) or total > tonumber(ARGV[6])) do
  local oldest = ids[i]
  total = total - tonumber(redis.call('HGET', KEYS[3], oldest) or '0')
  redis.call('ZREM', KEYS[2], oldest)
  redis.call('HDEL', KEYS[3], oldest)
  redis.call('DEL', ARGV[7] .. oldest)
  count = count - 1
  i = i + 1
end
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
return count
"""
# KEYS: the job's hash; ARGV: its status (JSON), how long it lasts (ms), its owner. A finished job (it
# has a ``gif`` field) is never overwritten by a late publication. Returns the ``cancel`` field.
PUBLISH_SCRIPT = """
if redis.call('HEXISTS', KEYS[1], 'gif') == 1 then return false end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'owner', ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return redis.call('HGET', KEYS[1], 'cancel')
"""


class AnimationExports:
    """Starts GIF exports, reports their progress and keeps the finished GIFs for a while (in this
    process's memory, or in Redis for every process: see the module's docstring)."""

    PREFIX = "maze:gif:"
    STORE = "maze:gif-store"
    SIZES = "maze:gif-sizes"
    PUBLISH_EVERY = 0.25  # seconds between publications of a running job's progress to Redis

    def __init__(self, config: Config, budget: WorkBudget) -> None:
        self.config = config
        self.budget = budget
        self._jobs: OrderedDict[str, AnimationJob] = OrderedDict()  # oldest first
        self._lock = threading.Lock()
        self.shared = shared_redis(config.redis_url)
        self.leases = leases_for(config)
        self._publisher: threading.Thread | None = None
        if self.shared is not None:
            self._store_script = self.shared.script(STORE_SCRIPT)
            self._publish_script = self.shared.script(PUBLISH_SCRIPT)

    # ---- the API's side ------------------------------------------------------------------------
    def start(self, puzzle: Any, algorithm: str, options: Values, client: str, name: str) -> AnimationJob:
        """Start an export of checked options; raises TooMany (the client's cap of exports at once)
        or ServerBusy (the server's)."""
        config = self.config
        with self._lock:
            self._expire(time.monotonic())
            busy = [j for j in self._jobs.values() if j.state not in FINAL]
            cap = config.max_animations_per_client
            refuse_client = TooMany(
                f"at most {cap} GIF exports at once for this client; wait until one is done"
            )
            # The server's cap first: a client at its cap while the server is full is told to retry
            # in a moment, not to wait for its own exports (those may be another's at its address).
            if len(busy) >= config.max_animation_jobs:
                raise ServerBusy(
                    f"the server is busy ({len(busy)} GIF exports are rendering); try again in a moment"
                )
            if sum(1 for j in busy if j.client == client) >= cap:
                raise refuse_client
            job = AnimationJob(secrets.token_urlsafe(12), client, f"{file_stem(name, algorithm)}.gif")
            full = self.leases.take(  # with Redis: the same caps across processes
                f"gif:{job.job_id}", [("gif-all", config.max_animation_jobs), (f"gif:{client}", cap)],
            )
            if full == 1:
                raise refuse_client
            if full == 0:
                raise ServerBusy(
                    f"the server is busy ({config.max_animation_jobs} GIF exports are rendering); "
                    "try again in a moment"
                )
            self._jobs[job.job_id] = job
        if self.shared is not None:
            self._publish([job])  # pollable from any process at once
        thread = threading.Thread(
            target=self._execute, args=(job, puzzle, algorithm, options), daemon=True,
            name=f"export-{job.job_id}",
        )
        thread.start()
        if self.shared is not None:
            self._start_publisher()
        return job

    def get(self, job_id: str, clients: Sequence[str]) -> AnimationJob | None:
        """A job of this process started by one of ``clients`` (``clients.client_ids``): every job
        without Redis; with it, those running here (and those Redis could not take when they
        finished). None for another client's job, as for an unknown one."""
        with self._lock:
            self._expire(time.monotonic())
            job = self._jobs.get(job_id)
        return job if job is not None and job.client in clients else None

    def status(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        """What a poll by a request acting for ``clients`` answers (``AnimationJob.to_json``), from this
        process or Redis; None when no process has it or it is another client's. ServerBusy when
        Redis does not answer and the job is not here."""
        job = self.get(job_id, clients)
        if job is not None:
            return job.to_json()
        found = self._shared_fields(job_id, clients, "status")
        return None if found is None else json.loads(found[0])

    def download(self, job_id: str, clients: Sequence[str]) -> tuple[dict[str, Any], bytes | None] | None:
        """A job's status and, when it is done, its GIF; None when no process has it or it is
        another client's."""
        job = self.get(job_id, clients)
        if job is not None:
            return job.to_json(), job.gif if job.state == "done" else None
        found = self._shared_fields(job_id, clients, "status", "gif")
        if found is None:
            return None
        status = json.loads(found[0])
        return status, (found[1] if status.get("state") == "done" and found[1] else None)

    def cancel(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        """Cancel a job of one of ``clients`` (here, or through Redis on the process rendering it); its
        status, or None (unknown, or another client's: nothing is cancelled then)."""
        job = self.get(job_id, clients)
        if job is not None:
            if job.state not in FINAL:
                job.stopped.set()
                job.cancel.set(CANCELLED)
            return job.to_json()
        status = self.status(job_id, clients)
        if status is not None and status.get("state") not in FINAL and self.shared is not None:
            key = self.PREFIX + job_id
            try:
                self.shared.call("cancelling a GIF export", lambda r: r.hset(key, "cancel", "1"))
            except RedisDown:
                raise ServerBusy(self._unreachable()) from None
        return status

    def snapshot(self) -> dict[str, int]:
        """This process's exports: running, and bytes of finished GIFs held in its memory."""
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
        # The work is over: its lease goes first, so a poll that sees the job final finds it gone too.
        self.leases.release(f"gif:{job.job_id}")
        with self._lock:
            job.gif = gif
            job.message = message
            if state == "error":
                job.error = message
            job.finished = time.monotonic()
            job.state = state  # last: a job is FINAL only once its fields are in place
            if self.shared is None:
                self._expire(job.finished)
                return
        stored = self._store_shared(job)
        with self._lock:
            if stored:
                self._jobs.pop(job.job_id, None)  # Redis answers for it from now on
            self._expire(time.monotonic())

    # ---- Redis ---------------------------------------------------------------------------------
    def _unreachable(self) -> str:
        return "the shared store of GIF exports (Redis) does not answer; try again in a moment"

    def _shared_fields(self, job_id: str, clients: Sequence[str], *fields: str) -> list[Any] | None:
        """Fields of the job's hash in Redis (None without Redis, when it has no such job, or when the
        job's owner is none of ``clients``)."""
        if self.shared is None:
            return None
        key = self.PREFIX + job_id
        try:
            found = self.shared.call("reading a GIF export", lambda r: r.hmget(key, [*fields, "owner"]))
        except RedisDown:
            raise ServerBusy(self._unreachable()) from None
        owner = found[-1].decode() if isinstance(found[-1], bytes) else found[-1]
        if found[0] is None or owner not in clients:
            return None
        return found[:-1]

    def _store_shared(self, job: AnimationJob) -> bool:
        """Put a finished job into Redis under the store's caps; False when Redis cannot take it."""
        config = self.config
        keys = [self.PREFIX + job.job_id, self.STORE, self.SIZES]
        args = [
            job.job_id, json.dumps(job.to_json()), job.gif or b"", int(config.animation_ttl * 1000),
            config.animation_store_count, config.animation_store_bytes, self.PREFIX, job.client,
        ]
        try:
            self.shared.call("storing a GIF export", lambda r: self._store_script(keys, args, client=r))  # type: ignore[union-attr]
        except RedisDown:
            return False
        return True

    def _publish(self, jobs: list[AnimationJob]) -> None:
        """Write running jobs' progress to Redis; stop those another process was asked to cancel."""
        ms = int(self.config.redis_lease_seconds * 1000)

        def publish(r: Any) -> list[Any]:
            pipe = r.pipeline(transaction=False)
            for job in jobs:
                args = [json.dumps(job.to_json()), ms, job.client]
                self._publish_script([self.PREFIX + job.job_id], args, client=pipe)
            return pipe.execute()

        try:
            cancels = self.shared.call("publishing GIF exports", publish)  # type: ignore[union-attr]
        except RedisDown:
            return
        for job, cancel in zip(jobs, cancels, strict=True):
            if cancel and job.state not in FINAL:
                job.stopped.set()
                job.cancel.set(CANCELLED)

    def _start_publisher(self) -> None:
        with self._lock:
            if self._publisher is not None:
                return
            self._publisher = threading.Thread(
                target=self._publish_running, daemon=True, name="export-status"
            )
            self._publisher.start()

    def _publish_running(self) -> None:
        """Publish this process's running jobs until none is left."""
        while True:
            time.sleep(self.PUBLISH_EVERY)
            with self._lock:
                running = [j for j in self._jobs.values() if j.state not in FINAL]
                if not running:
                    self._publisher = None
                    return
            self._publish(running)

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
            owner=job.client,  # its maker's share of the budget
        ) as solved:
            if solved is None or job.stopped.is_set():
                raise _Stopped

            def progress(done: int, total: int) -> None:
                if job.stopped.is_set():
                    raise _Stopped
                job.done, job.total = done, total
                job.message = f"rendering: {done} / {total} frames"

            job.state, job.message = "rendering", "rendering"
            frames = family.need("animation").frames(
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
