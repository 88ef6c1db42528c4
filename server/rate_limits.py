"""How often a client may upload, run, edit, re-solve and export: moving one-minute windows of events
per (what, who). One client past its rate is refused at once (``TooMany``) with a message saying when
to try again; it never slows the others. Each rate also holds per address, ``clients_per_ip`` times
looser (a classroom behind one NAT address keeps working); the address's cookie-less client
(``ip:<address>``, server/clients.py) has a client's window like any browser, so a script flooding
without cookies leaves the address's room to the browsers behind it.

Two kinds, one interface (``RateLimits``), chosen once by ``rate_limits_for``:
``LocalRateLimits`` counts in this process's memory; ``RedisRateLimits`` (with ``Config.redis_url``)
counts in Redis, so N server processes allow what one allows: a sorted set ``maze:rate:<what>:<who>``
per window (``who`` is ``c:<client id>`` or ``ip:<address>`` for a client, ``addr:<address>`` for the
address's window; members are event ids scored by Redis's clock in ms), checked and counted by one Lua
script, so two processes cannot both take the last one; each key expires a minute after its last
event. When Redis does not answer, it fails open to this process's own count (a local copy of the
windows it keeps for that): an abuser is still held to the per-process rate.
"""

from __future__ import annotations

import itertools
import re
import secrets
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, Protocol

from .clients import RedisDown, SharedRedis, TooMany, key_part, shared_redis
from .i18n import t

if TYPE_CHECKING:
    from .config import Config

WINDOW = 60.0  # seconds: every rate is "at most N a minute"
Check = tuple[tuple[str, str], int]  # ((what, who), at most this many in the window)


class RateLimits(Protocol):
    """Counts events against their rates."""

    def take(self, what: str, per_minute: int, client: str, address: str) -> None:
        """Count one ``what`` for this client and address, or raise TooMany saying when to retry. The
        address's cookie-less client (``ip:<address>``) has a client's window like any other, apart
        from the address's own (``addr:<address>``): a script flooding without cookies is held to one
        client's rate, and the browsers behind its address keep theirs."""


def rate_limits_for(config: Config) -> RateLimits:
    """The one place the kind is chosen: in Redis when ``config.redis_url`` is set, else in memory."""
    shared = shared_redis(config.redis_url)
    if shared is None:
        return LocalRateLimits(config.clients_per_ip)
    return RedisRateLimits(config.clients_per_ip, shared)


def _checks(what: str, per_minute: int, client: str, address: str, clients_per_ip: int) -> list[Check]:
    return [((what, client), per_minute), ((what, f"addr:{address}"), per_minute * clients_per_ip)]


def _too_many(what: str, check: Check, seconds: float) -> TooMany:
    (_, who_key), limit = check
    wait = max(1, int(seconds + 1))
    who = t("limits.who.address") if who_key.startswith("addr:") else t("limits.who.client")
    key = "limits.what." + re.sub(r"[^a-z]+", "_", what.lower()).strip("_")
    shown = t(key) if t(key) != key else f"{what}s"  # the bucket's name, in the plural
    return TooMany(t("limits.rate_limits.too_many_s_at_most", what=shown, limit=limit, who=who, wait=wait))


# ---- this process's memory ---------------------------------------------------------------------------
class LocalRateLimits:
    """Moving one-minute windows of events per (what, who) in this process's memory."""

    MAX_KEYS = 100_000  # windows kept at most; the oldest are forgotten first

    def __init__(self, clients_per_ip: int) -> None:
        self.clients_per_ip = clients_per_ip
        self._events: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, what: str, per_minute: int, client: str, address: str) -> None:
        checks = _checks(what, per_minute, client, address, self.clients_per_ip)
        now = time.monotonic()
        with self._lock:
            for key, limit in checks:
                window = self._window(key, now)
                if len(window) >= limit:
                    raise _too_many(what, (key, limit), window[0] + WINDOW - now)
            for key, _ in checks:
                self._events[key].append(now)

    def record(self, what: str, per_minute: int, client: str, address: str) -> None:
        """Count one ``what`` without checking it (counted elsewhere; kept here for a fallback)."""
        now = time.monotonic()
        with self._lock:
            for key, _ in _checks(what, per_minute, client, address, self.clients_per_ip):
                self._window(key, now).append(now)

    def _window(self, key: tuple[str, str], now: float) -> deque[float]:
        window = self._events.get(key)
        if window is None:
            if len(self._events) >= self.MAX_KEYS:
                self._forget_idle(now)
            window = self._events[key] = deque()
        while window and window[0] <= now - WINDOW:
            window.popleft()
        return window

    def _forget_idle(self, now: float) -> None:
        for key in [k for k, w in self._events.items() if not w or w[-1] <= now - WINDOW]:
            del self._events[key]
        while len(self._events) >= self.MAX_KEYS:  # all busy: drop the oldest
            del self._events[next(iter(self._events))]


# ---- Redis -----------------------------------------------------------------------------------------------
# KEYS: the windows; ARGV: window (ms), the event's id, then each key's limit. Returns {0, 0} when
# counted, else {the full key's index (1-based), ms until its oldest event leaves the window}.
RATE_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= tonumber(ARGV[i + 2]) then
    local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    local since = oldest[2] and tonumber(oldest[2]) or now
    return {i, since + window - now}
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('PEXPIRE', key, window)
end
return {0, 0}
"""


class RedisRateLimits:
    """The windows in Redis, counted by ``RATE_SCRIPT`` for every process together; a local copy of
    this process's own events answers while Redis does not (failing open to the per-process rate)."""

    PREFIX = "maze:rate:"

    def __init__(self, clients_per_ip: int, shared: SharedRedis) -> None:
        self.clients_per_ip = clients_per_ip
        self.shared = shared
        self.local = LocalRateLimits(clients_per_ip)  # this process's own count: the fallback
        self._script = shared.script(RATE_SCRIPT)
        self._ids = itertools.count()
        self._process = secrets.token_hex(6)

    def take(self, what: str, per_minute: int, client: str, address: str) -> None:
        checks = _checks(what, per_minute, client, address, self.clients_per_ip)
        keys = [f"{self.PREFIX}{key_part(kind)}:{who}" for (kind, who), _ in checks]
        args = [int(WINDOW * 1000), f"{self._process}:{next(self._ids)}", *(limit for _, limit in checks)]
        try:
            index, wait_ms = self.shared.call("counting a rate", lambda r: self._script(keys, args, client=r))
        except RedisDown:
            self.local.take(what, per_minute, client, address)  # fail open to this process's own count
            return
        if int(index):
            raise _too_many(what, checks[int(index) - 1], int(wait_ms) / 1000)
        self.local.record(what, per_minute, client, address)
