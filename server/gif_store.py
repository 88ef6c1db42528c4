"""Where GIF exports are seen by whoever polls them: finished ones kept for ``animation_ttl`` (10 min),
capped in bytes (``animation_store_bytes``) and count (``animation_store_count``; the oldest finished go
first, the newest stays whatever the caps), and — across processes — the ones still running.

Two kinds, one interface (``GifStore``), chosen once by ``gif_store_for`` (as server/archive.py
chooses its kind): ``LocalGifStore`` keeps finished exports in this process's memory (a job runs and
is answered here only); ``RedisGifStore`` (with ``Config.redis_url``) keeps them in Redis, where any
process answers a job's polls, download and cancel:

- ``maze:gif:<job>``: a hash — ``status`` (the JSON a poll answers, published by the owner every
  quarter second while the job runs, expiring ``redis_lease_seconds`` after the last publication, so
  a job whose process died vanishes), ``cancel`` (set by whichever process got the DELETE; the owner
  stops the job at its next publication), ``owner`` (the client that started it), and once finished
  ``gif`` (the bytes; empty unless done) with the final status, the hash then expiring
  ``animation_ttl`` after the job finished.
- ``maze:gif-store`` (finished job ids by finishing order, scored in ms) and ``maze:gif-sizes`` (job id
  -> bytes): the caps hold across processes, enforced by the one script that stores a finished job,
  so the job is seen finished only once the older ones it made room for are gone.

If Redis cannot take a finished job, it is kept in this process's memory (a ``LocalGifStore``) and
answered here only; a poll that reaches a process while Redis is away and the job is not local gets
``ServerBusy`` (a 503) saying so.

Every lookup names the clients the request may act for (``clients.client_ids``): a job of another
client is answered as an unknown one (None), so a job id seen elsewhere neither reveals the job nor
lets another stop it.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .budget import ServerBusy
from .clients import RedisDown, SharedRedis, shared_redis
from .config import Config
from .i18n import t
from .search.control import CANCELLED, CancelFlag

FINAL = ("done", "error", "cancelled")
UNREACHABLE = "store.gif.unreachable"  # a catalog key


@dataclass(frozen=True)
class Finished:
    """A finished export: what a poll answers (``status``) and, when it is done, the GIF."""

    job_id: str
    client: str
    status: dict[str, Any]
    gif: bytes | None = None
    at: float = field(default_factory=time.monotonic)  # when it finished (this process's clock)

    @property
    def size(self) -> int:
        return len(self.gif or b"")


class Running(Protocol):
    """A job running in this process, as the store sees it (``exporting.AnimationJob``)."""

    job_id: str
    client: str
    cancel: CancelFlag

    def to_json(self) -> dict[str, Any]:
        """What a poll answers while it runs."""


class GifStore(Protocol):
    """Finished GIF exports kept for a while, and this process's running jobs seen by the others."""

    def watch(self, job: Running) -> None:
        """``job`` started here: other processes may poll and cancel it until it is kept."""

    def keep(self, done: Finished) -> None:
        """Keep a finished job under the caps. Once this returns, a poll of any process sees it
        finished, and the older ones it made room for are gone; before, it is still running."""

    def status(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        """What a poll answers of a job not running here, or None (unknown, gone, another client's)."""

    def download(self, job_id: str, clients: Sequence[str]) -> tuple[dict[str, Any], bytes | None] | None:
        """A job's status and, when it is done, its GIF; None as for ``status``."""

    def cancel(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        """Ask the process running ``job_id`` to stop it; its status, or None as for ``status``."""

    def held_bytes(self) -> int:
        """Bytes of finished GIFs held in this process's memory."""


def gif_store_for(config: Config) -> GifStore:
    """The one place the kind is chosen: Redis when ``config.redis_url`` is set, else this process."""
    shared = shared_redis(config.redis_url)
    return LocalGifStore(config) if shared is None else RedisGifStore(config, shared)


# ---- this process's memory -----------------------------------------------------------------------------
class LocalGifStore:
    """Finished exports in this process's memory, in the order they finished."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._kept: OrderedDict[str, Finished] = OrderedDict()  # oldest first
        self._lock = threading.Lock()

    def watch(self, job: Running) -> None:
        pass  # polled and cancelled in this process only: the runner answers for it

    def keep(self, done: Finished) -> None:
        with self._lock:
            self._kept[done.job_id] = done
            self._expire()

    def status(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        found = self._find(job_id, clients)
        return None if found is None else found.status

    def download(self, job_id: str, clients: Sequence[str]) -> tuple[dict[str, Any], bytes | None] | None:
        found = self._find(job_id, clients)
        return None if found is None else (found.status, found.gif)

    def cancel(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        return self.status(job_id, clients)  # finished: nothing left to stop

    def held_bytes(self) -> int:
        with self._lock:
            return sum(done.size for done in self._kept.values())

    def _find(self, job_id: str, clients: Sequence[str]) -> Finished | None:
        with self._lock:
            self._expire()
            found = self._kept.get(job_id)
        return found if found is not None and found.client in clients else None

    def _expire(self) -> None:
        """Drop the finished past their time, then the oldest past the caps (the lock held)."""
        config, now = self.config, time.monotonic()
        for done in [d for d in self._kept.values() if now - d.at > config.animation_ttl]:
            del self._kept[done.job_id]
        stored = sum(done.size for done in self._kept.values())
        # The newest stays whatever the caps (the client polling it gets it); older ones make room.
        while len(self._kept) > 1 and (
            len(self._kept) > config.animation_store_count or stored > config.animation_store_bytes
        ):
            _, oldest = self._kept.popitem(last=False)
            stored -= oldest.size


# ---- Redis ---------------------------------------------------------------------------------------------
# KEYS: the job's hash, the store (ids by finishing order), the sizes; ARGV: the job id, its final
# status (JSON), the GIF (empty unless done), animation_ttl (ms), the store's caps (count, bytes), the
# jobs' key prefix, its owner. Stores the job, forgets the store's entries past their time, then drops
# the oldest finished jobs while over a cap (the newest stays). The job is scored after every other
# one: two finishing in the same millisecond (or by a Redis whose clock stepped back) still keep their
# order, where equal scores would sort by id and could drop the newest.
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
local score = now
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
if last[2] and tonumber(last[2]) >= score then score = tonumber(last[2]) + 1 end
redis.call('ZADD', KEYS[2], score, ARGV[1])
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


class RedisGifStore:
    """Finished exports in Redis for every process (see the module's docstring), this process's running
    ones published there while they run; a ``LocalGifStore`` holds what Redis could not take."""

    PREFIX = "maze:gif:"
    STORE = "maze:gif-store"
    SIZES = "maze:gif-sizes"
    PUBLISH_EVERY = 0.25  # seconds between publications of a running job's progress

    def __init__(self, config: Config, shared: SharedRedis) -> None:
        self.config = config
        self.shared = shared
        self.local = LocalGifStore(config)  # finished jobs Redis could not take: answered here only
        self._store = shared.script(STORE_SCRIPT)
        self._publish_script = shared.script(PUBLISH_SCRIPT)
        self._watched: dict[str, Running] = {}
        self._publisher: threading.Thread | None = None
        self._lock = threading.Lock()

    def watch(self, job: Running) -> None:
        self._publish([job])  # pollable from any process at once
        with self._lock:
            self._watched[job.job_id] = job
            if self._publisher is None:
                self._publisher = threading.Thread(target=self._publish_running, daemon=True,
                                                   name="export-status")
                self._publisher.start()

    def keep(self, done: Finished) -> None:
        config = self.config
        keys = [self.PREFIX + done.job_id, self.STORE, self.SIZES]
        args = [
            done.job_id, json.dumps(done.status), done.gif or b"", int(config.animation_ttl * 1000),
            config.animation_store_count, config.animation_store_bytes, self.PREFIX, done.client,
        ]
        try:
            self.shared.call("storing a GIF export", lambda r: self._store(keys, args, client=r))
        except RedisDown:
            self.local.keep(done)
        with self._lock:
            self._watched.pop(done.job_id, None)

    def status(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        found = self.local.status(job_id, clients)  # only what Redis could not take: never both
        if found is not None:
            return found
        fields = self._fields(job_id, clients, "status")
        return None if fields is None else json.loads(fields[0])

    def download(self, job_id: str, clients: Sequence[str]) -> tuple[dict[str, Any], bytes | None] | None:
        found = self.local.download(job_id, clients)
        if found is not None:
            return found
        fields = self._fields(job_id, clients, "status", "gif")
        if fields is None:
            return None
        status = json.loads(fields[0])
        return status, (fields[1] if status.get("state") == "done" and fields[1] else None)

    def cancel(self, job_id: str, clients: Sequence[str]) -> dict[str, Any] | None:
        status = self.status(job_id, clients)
        if status is not None and status.get("state") not in FINAL:
            key = self.PREFIX + job_id
            try:
                self.shared.call("cancelling a GIF export", lambda r: r.hset(key, "cancel", "1"))
            except RedisDown:
                raise ServerBusy(t(UNREACHABLE)) from None
        return status

    def held_bytes(self) -> int:
        return self.local.held_bytes()

    def _fields(self, job_id: str, clients: Sequence[str], *fields: str) -> list[Any] | None:
        """Fields of the job's hash (None when Redis has no such job, or its owner is none of
        ``clients``); ServerBusy when Redis does not answer."""
        key = self.PREFIX + job_id
        try:
            found = self.shared.call("reading a GIF export", lambda r: r.hmget(key, [*fields, "owner"]))
        except RedisDown:
            raise ServerBusy(t(UNREACHABLE)) from None
        owner = found[-1].decode() if isinstance(found[-1], bytes) else found[-1]
        if found[0] is None or owner not in clients:
            return None
        return found[:-1]

    def _publish(self, jobs: list[Running]) -> None:
        """Write running jobs' progress to Redis; stop those another process was asked to cancel."""
        ms = int(self.config.redis_lease_seconds * 1000)

        def publish(r: Any) -> list[Any]:
            pipe = r.pipeline(transaction=False)
            for job in jobs:
                self._publish_script([self.PREFIX + job.job_id], [json.dumps(job.to_json()), ms, job.client],
                                     client=pipe)
            return pipe.execute()

        try:
            cancels = self.shared.call("publishing GIF exports", publish)
        except RedisDown:
            return
        for job, cancel in zip(jobs, cancels, strict=True):
            if cancel:
                job.cancel.set(CANCELLED)

    def _publish_running(self) -> None:
        """Publish this process's running jobs until none is left."""
        while True:
            time.sleep(self.PUBLISH_EVERY)
            with self._lock:
                running = list(self._watched.values())
                if not running:
                    self._publisher = None
                    return
            self._publish(running)
