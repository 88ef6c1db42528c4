"""How much work a client may have going at once (runs, GIF exports), counted across server processes:
leases. The owner of the work counts its own (it knows its runs and exports); a lease makes the same cap
hold for every process on one Redis.

Two kinds, one interface (``Leases``), chosen once by ``leases_for``: ``LocalLeases`` (one process
alone: every lease is granted, the owner's own count is the whole check) and ``RedisLeases``.
``maze:lease:runs:<client>`` (one member per socket slot holding a run), ``maze:lease:gif:<client>``
and ``maze:lease:gif-all`` (one member per GIF export queued or rendering) are sorted sets of lease ids
scored by their expiry; taking one checks the cap and adds the lease in one script, the owning process
renews its leases every third of ``redis_lease_seconds`` (30 s) while the work goes on and removes them
when it ends, so the leases of a process that died expire within ``redis_lease_seconds`` instead of
capping a client forever. When Redis does not answer, a lease is held here (the owner's own count
decides) and added to Redis at the next renewal that reaches it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .clients import RedisDown, SharedRedis, key_part, shared_redis

if TYPE_CHECKING:
    from .config import Config


class Leases(Protocol):
    """Work at once, counted across processes."""

    def take(
        self, lease: str, caps: Sequence[tuple[str, int]], alive: Callable[[], bool] | None = None,
    ) -> int | None:
        """Hold ``lease`` in each set ``(name, cap)``: None when held (or nothing can say otherwise:
        the owner's own count decides), else the index of the first set at its cap. The lease lasts
        until ``release`` or, if given, until ``alive()`` says False (asked twice a second)."""

    def release(self, lease: str) -> None:
        """The work ended: drop its lease."""


_LEASES: dict[tuple[str | None, float], Leases] = {}
_LEASES_LOCK = threading.Lock()


def leases_for(config: Config) -> Leases:
    """This process's leases for ``config`` (one object per Redis and lease length): the one place the
    kind is chosen, ``RedisLeases`` with ``config.redis_url``, else ``LocalLeases``."""
    key = (config.redis_url or None, config.redis_lease_seconds)
    with _LEASES_LOCK:
        found = _LEASES.get(key)
    if found is None:
        shared = shared_redis(config.redis_url)
        made = LocalLeases() if shared is None else RedisLeases(shared, config.redis_lease_seconds)
        with _LEASES_LOCK:
            found = _LEASES.setdefault(key, made)
    return found


class LocalLeases:
    """One process alone: every lease is granted, the owner's own count of its work is the whole check."""

    def take(
        self, lease: str, caps: Sequence[tuple[str, int]], alive: Callable[[], bool] | None = None,
    ) -> int | None:
        return None

    def release(self, lease: str) -> None:
        pass


# ---- Redis -----------------------------------------------------------------------------------------------
# KEYS: the lease sets; ARGV: the lease id, its length (ms), then each set's cap. Returns 0 when held
# (renewed if held already), else the index (1-based) of the first set at its cap.
LEASE_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, ARGV[1]) and redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + ms, ARGV[1])
  redis.call('PEXPIRE', key, ms)
end
return 0
"""
# KEYS: the lease sets; ARGV: the lease id, its length (ms). Held again for that long from now.
RENEW_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', key, tonumber(ARGV[2]))
end
return 0
"""


@dataclass
class _Lease:
    keys: list[str]
    alive: Callable[[], bool] | None
    since: float


class RedisLeases:
    """Leases in Redis (``maze:lease:<name>``), renewed by one thread of this process while it holds any."""

    PREFIX = "maze:lease:"
    GRACE = 0.5  # a lease's ``alive`` is asked only after this long (its owner registers the work)

    def __init__(self, shared: SharedRedis, seconds: float) -> None:
        self.shared = shared
        self.seconds = seconds
        self._held: dict[str, _Lease] = {}
        self._lock = threading.Lock()
        self._renewing = threading.Lock()  # renewals and releases in turn: a release stays released
        self._thread: threading.Thread | None = None
        self._take = shared.script(LEASE_SCRIPT)
        self._renew = shared.script(RENEW_SCRIPT)

    def take(
        self, lease: str, caps: Sequence[tuple[str, int]], alive: Callable[[], bool] | None = None,
    ) -> int | None:
        keys = [f"{self.PREFIX}{key_part(name)}" for name, _ in caps]
        args = [lease, int(self.seconds * 1000), *(cap for _, cap in caps)]
        try:
            full = int(self.shared.call("taking a lease", lambda r: self._take(keys, args, client=r)))
        except RedisDown:
            full = 0  # held here; added to Redis at the next renewal that reaches it
        if full:
            return full - 1
        with self._lock:
            self._held[lease] = _Lease(keys, alive, time.monotonic())
            if self._thread is None:
                self._thread = threading.Thread(target=self._keep, daemon=True, name="leases")
                self._thread.start()
        return None

    def release(self, lease: str) -> None:
        """The work ended: drop its lease (if Redis cannot answer, it expires by itself)."""
        with self._renewing:
            with self._lock:
                held = self._held.pop(lease, None)
            if held is None:
                return
            commands = [("zrem", key, lease) for key in held.keys]
            with contextlib.suppress(RedisDown):  # it expires by itself
                self.shared.call("releasing a lease", lambda r: _pipelined(r, commands))

    def _keep(self) -> None:
        """Drop the leases whose work ended; renew the rest every third of their length."""
        tick = min(0.25, self.seconds / 4)
        renew_at = time.monotonic() + self.seconds / 3
        while True:
            time.sleep(tick)
            now = time.monotonic()
            with self._lock:
                if not self._held:
                    self._thread = None
                    return
                ended = [
                    name for name, lease in self._held.items()
                    if lease.alive is not None and now - lease.since > self.GRACE and not lease.alive()
                ]
            for name in ended:
                self.release(name)
            if now >= renew_at:
                renew_at = now + self.seconds / 3
                self._renew_all()

    def _renew_all(self) -> None:
        ms = int(self.seconds * 1000)
        with self._renewing:
            with self._lock:
                held = [(name, lease.keys) for name, lease in self._held.items()]

            def renew(r: Any) -> None:
                pipe = r.pipeline(transaction=False)
                for name, keys in held:
                    self._renew(keys, [name, ms], client=pipe)
                pipe.execute()

            with contextlib.suppress(RedisDown):  # leases not renewed in time expire
                self.shared.call("renewing leases", renew)


def _pipelined(r: Any, commands: list[tuple[Any, ...]]) -> list[Any]:
    pipe = r.pipeline(transaction=False)
    for name, *args in commands:
        getattr(pipe, name)(*args)
    return pipe.execute()
