"""The grading queue: jobs (an assignment's id and a submission's id) waiting for a grader.

Two kinds, one interface (``GradingQueue``), chosen once (``open_queue``):

* ``LocalQueue``: in this process. It holds nothing that is not on disk too: a submission is stored
  (status ``queued``) before its job is put here, and a new process re-fills the queue from the
  submissions still ``queued`` or ``grading`` (``store.pending``), so a ``kill -9`` loses no job.
* ``RedisQueue``: a Redis stream (``maze:assignments:jobs``) with one consumer group (``graders``):
  XADD puts a job, XREADGROUP gives it to one grader, XACK + XDEL finish it. A job a grader took and
  never finished (the grader died) is taken again by another with XAUTOCLAIM once it has been idle
  ``visibility`` seconds; a live grader renews its claim (``renew``: XCLAIM by itself, which resets the
  idle time) every third of that while it judges, so a long judgement is never taken from it and a dead
  grader's job waits only ``visibility``. Any server process and any ``run.py grader --redis URL`` take
  jobs.

``ahead(sid)``: the jobs before it not yet finished (those being graded count).
"""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

STREAM = "maze:assignments:jobs"
GROUP = "graders"


@dataclass(frozen=True)
class Job:
    assignment: str
    submission: str
    entry: str | None = None  # the stream entry's id (Redis)
    consumer: str | None = None  # the grader that took it (Redis)


class GradingQueue(Protocol):
    def put(self, job: Job) -> None: ...
    def take(self, consumer: str, timeout: float) -> Job | None: ...
    def done(self, job: Job) -> None: ...
    def renew(self, job: Job) -> None: ...
    def ahead(self, sid: str) -> int: ...


class LocalQueue:
    """Jobs in this process's memory (see the module's docstring)."""

    def __init__(self) -> None:
        self._waiting: collections.deque[Job] = collections.deque()
        self._taken: dict[str, Job] = {}
        self._known: set[str] = set()
        self._cond = threading.Condition()

    def put(self, job: Job) -> None:
        with self._cond:
            if job.submission in self._known:
                return  # re-filled and put again: one job a submission
            self._known.add(job.submission)
            self._waiting.append(job)
            self._cond.notify()

    def take(self, consumer: str, timeout: float) -> Job | None:
        end = time.monotonic() + timeout
        with self._cond:
            while not self._waiting:
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            job = self._waiting.popleft()
            self._taken[job.submission] = job
            return job

    def done(self, job: Job) -> None:
        with self._cond:
            self._taken.pop(job.submission, None)
            self._known.discard(job.submission)

    def renew(self, job: Job) -> None:
        """Nothing: a job of this process is never taken by another."""

    def ahead(self, sid: str) -> int:
        with self._cond:
            for i, job in enumerate(self._waiting):
                if job.submission == sid:
                    return len(self._taken) + i
            return 0


class RedisQueue:
    """A Redis stream with a consumer group (see the module's docstring)."""

    def __init__(self, client: Any, visibility: float) -> None:
        import redis

        self.client = client
        self.visibility_ms = max(1, int(visibility * 1000))
        self._errors = redis.ResponseError
        self._ensure_group()

    def _ensure_group(self) -> None:
        """The stream and its consumer group (made again if Redis lost them: a restart, a flush)."""
        try:
            self.client.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
        except self._errors as err:
            if "BUSYGROUP" not in str(err):
                raise

    def put(self, job: Job) -> None:
        self.client.xadd(STREAM, {"a": job.assignment, "s": job.submission})

    @staticmethod
    def _job(entry: Any, consumer: str) -> Job:
        eid, fields = entry
        text = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
                for k, v in fields.items()}
        return Job(text["a"], text["s"], eid.decode() if isinstance(eid, bytes) else eid, consumer)

    def renew(self, job: Job) -> None:
        """Tell the group ``job``'s grader is alive: its idle time starts again (XCLAIM by itself)."""
        if job.entry is not None and job.consumer is not None:
            self.client.xclaim(STREAM, GROUP, job.consumer, 0, [job.entry], justid=True)

    def take(self, consumer: str, timeout: float) -> Job | None:
        try:
            return self._take(consumer, timeout)
        except self._errors as err:
            if "NOGROUP" not in str(err):
                raise
            self._ensure_group()
            return None

    def _take(self, consumer: str, timeout: float) -> Job | None:
        # First a dead grader's job (idle past the visibility timeout), then a new one.
        claimed = self.client.xautoclaim(STREAM, GROUP, consumer, self.visibility_ms, "0-0", count=1)
        entries = claimed[1] if len(claimed) > 1 else []
        entries = [e for e in entries if e and e[1]]  # a deleted entry comes back as (id, None)
        if entries:
            return self._job(entries[0], consumer)
        read = self.client.xreadgroup(GROUP, consumer, {STREAM: ">"}, count=1,
                                      block=max(1, int(timeout * 1000)))
        for _stream, found in read or []:
            for entry in found:
                if entry[1]:
                    return self._job(entry, consumer)
                self.client.xack(STREAM, GROUP, entry[0])
        return None

    def done(self, job: Job) -> None:
        if job.entry is not None:
            pipe = self.client.pipeline()
            pipe.xack(STREAM, GROUP, job.entry)
            pipe.xdel(STREAM, job.entry)
            pipe.execute()

    def waiting(self) -> set[str]:
        """The submissions with an entry in the stream (queued or being graded)."""
        found = set()
        for _eid, fields in self.client.xrange(STREAM, "-", "+"):
            sid = fields.get(b"s", fields.get("s"))
            found.add(sid.decode() if isinstance(sid, bytes) else sid)
        return found

    def ahead(self, sid: str) -> int:
        """Entries before the submission's (an entry is deleted once its job is done)."""
        for count, (_eid, fields) in enumerate(self.client.xrange(STREAM, "-", "+", count=10_000)):
            if fields.get(b"s", fields.get("s")) in (sid, sid.encode()):
                return count
        return 0


def open_queue(config: Any) -> GradingQueue:
    """Redis's stream when ``config.redis_url`` is set, else this process's queue."""
    if config.redis_url:
        from ..redis_link import connect

        return RedisQueue(connect(config.redis_url), config.grading_visibility_seconds)
    return LocalQueue()
