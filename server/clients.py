"""Per-client caps: how often a client may upload, run, edit, re-solve and export (rate limits), and
how much work it may have going at once (runs, GIF exports). One client past its cap is refused at
once with a message saying when to try again; it never slows the others.

A client is one browser: a random id in Flask's signed session cookie (``c:<id>``), set by the page
and by the API's first answer. A request that does not send one (a script without cookies, a
browser's very first request) is its address's client (``ip:<address>``, the address as
``remote_address`` gives it: behind ``trusted_proxies`` the one the proxies name), so every cookie-less
request from one address counts against one client's caps (GIF exports, runs, puzzles kept) instead
of being a new client each time. Each rate also holds per address, ``clients_per_ip`` times looser (a
classroom behind one NAT address keeps working): the address's cookie-less client has a client's
window like any browser, so a script flooding without cookies leaves the address's room to the
browsers behind it. ``client_ids`` says whose jobs a request may see: its own client's, and its address's
cookie-less client's (anyone there can be that client by sending no cookie).

**One process or several.** Without ``Config.redis_url`` everything here is counted in this process's
memory. With it, several server processes behind one proxy count together in that Redis, so N
processes allow what one allows (a client's HTTP requests and its socket may reach different ones):

- rates: a moving one-minute log per (what, who) in a sorted set ``maze:rate:<what>:<who>`` (``who``
  is ``c:<client id>`` or ``ip:<address>`` for a client, ``addr:<address>`` for the address's window;
  members are event ids scored by Redis's clock in ms),
  checked and counted by one Lua script, so two processes cannot both take the last one; each key
  expires a minute after its last event.
- work at once: leases. ``maze:lease:runs:<client>`` (one member per socket slot holding a run),
  ``maze:lease:gif:<client>`` and ``maze:lease:gif-all`` (one member per GIF export queued or
  rendering) are sorted sets of lease ids scored by their expiry; taking one checks the cap and adds
  the lease in one script, the owning process renews its leases every third of
  ``redis_lease_seconds`` (30 s) while the work goes on and removes them when it ends, so the leases
  of a process that died expire within ``redis_lease_seconds`` instead of capping a client forever.

**Redis going away after start** (decided for a class whose Redis blips: keep working). A check that
cannot reach Redis (refused, or no answer within ``redis_link.REDIS_TIMEOUT``, 2 s) never fails a
request: rates then *fail open to this process's own count* (every process keeps a local copy of
the windows, so an abuser is still held to the per-process limit, N processes together allow up to
N times it) and caps fall back to this process's own count of its work. A warning is logged at most
once a minute; after a failure Redis is not asked again for ``SharedRedis.RETRY_SECONDS`` (5 s), so a
hung Redis costs one timeout per few seconds, not one per request. Leases taken while Redis was away
are added at the next renewal once it answers again.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from flask import request, session

if TYPE_CHECKING:
    from server.config import Config

log = logging.getLogger(__name__)
T = TypeVar("T")


class TooMany(Exception):
    """A client went past one of its caps (HTTP 429; ``{ok: false, error}`` on the socket)."""


_ASKED = "maze_client"  # where a request keeps its answer: one client for the whole request


def client_id() -> str:
    """This request's client, whose caps and rates its work counts against: ``c:<id>`` when the
    request sent a session cookie holding a client id, else its address's client ``ip:<address>``.

    An HTTP request without one is given a new random id in its session cookie, so that the browser's
    (or a cookie-keeping script's) next requests are that client; this request stays its address's
    (the same answer every time it is asked). A socket's events never make one: their session is the
    cookie's at connect time and never reaches the browser (a socket without it is its address's
    client for its whole life)."""
    asked = getattr(request, _ASKED, None)
    if asked is not None:
        return asked
    try:
        sent = session.get("client")
    except RuntimeError:  # no session (a socket handler after the session was dropped)
        sent, writable = None, False
    else:
        writable = getattr(request, "sid", None) is None  # an HTTP request, not a socket's event
    if isinstance(sent, str) and 0 < len(sent) <= 32:
        who = f"c:{sent}"
    else:
        who = f"ip:{remote_address()}"
        if writable:
            session["client"] = secrets.token_urlsafe(12)  # this client from the next request on
    setattr(request, _ASKED, who)
    return who


def client_ids() -> tuple[str, ...]:
    """The clients this request may act for (whose jobs it may poll, download or cancel): its client,
    and its address's cookie-less client, which anyone at the address can be by sending no cookie —
    so a job started by a request without a cookie stays its maker's when the maker keeps the cookie
    that request's answer set. A browser's own jobs are never another browser's at the address."""
    mine, address = client_id(), f"ip:{remote_address()}"
    return (mine,) if mine == address else (mine, address)


def remote_address() -> str:
    """The request's address: the peer's, or behind ``trusted_proxies`` the one they name (ProxyFix)."""
    return str(request.remote_addr or "unknown")[:64]


# ---- the shared Redis ------------------------------------------------------------------------------
class RedisDown(Exception):
    """Redis did not answer (or was given up on for a few seconds): the caller falls back."""


class SharedRedis:
    """This process's client of the shared Redis (``redis_link.connect``), with a breaker: after a
    failure it is not asked again for ``RETRY_SECONDS``; failures are logged at most once a minute."""

    RETRY_SECONDS = 5.0
    WARN_SECONDS = 60.0

    def __init__(self, url: str) -> None:
        from server.redis_link import connect, safe_url

        self.url = url
        self.where = safe_url(url)
        self.client = connect(url)
        self._down_until = 0.0
        self._warned = float("-inf")
        self._lock = threading.Lock()

    def script(self, source: str) -> Any:
        """A Lua script (run by its hash, loaded again after a restart of Redis)."""
        return self.client.register_script(source)

    def call(self, what: str, action: Callable[[Any], T]) -> T:
        """``action(client)``; RedisDown when Redis fails (or failed less than RETRY_SECONDS ago)."""
        import redis

        if time.monotonic() < self._down_until:
            raise RedisDown(f"Redis at {self.where} failed a moment ago")
        try:
            return action(self.client)
        except redis.RedisError as err:
            now = time.monotonic()
            with self._lock:
                self._down_until = now + self.RETRY_SECONDS
                warn = now - self._warned >= self.WARN_SECONDS
                if warn:
                    self._warned = now
            if warn:
                log.warning(
                    "Redis at %s does not answer (%s: %s, while %s): rate limits and caps count this "
                    "process alone until it does (asked again every %g s)",
                    self.where, type(err).__name__, err, what, self.RETRY_SECONDS,
                )
            raise RedisDown(str(err)) from err


_SHARED: dict[str, SharedRedis] = {}
_SHARED_LOCK = threading.Lock()


def shared_redis(url: str | None) -> SharedRedis | None:
    """The one place the backend is chosen: None (this process alone) without a URL, else this
    process's client of that Redis (one per URL; ``RedisUnavailable`` when it does not answer now)."""
    if not url:
        return None
    with _SHARED_LOCK:
        found = _SHARED.get(url)
        if found is None:
            found = _SHARED[url] = SharedRedis(url)
        return found


def _key_part(text: str) -> str:
    return text.replace(" ", "-")


# ---- rates -----------------------------------------------------------------------------------------
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


class RateLimits:
    """Moving one-minute windows of events per (what, key): in this process's memory, and with a
    ``SharedRedis`` counted in Redis too (the local windows then only record, for a fallback)."""

    WINDOW = 60.0
    MAX_KEYS = 100_000  # windows kept at most; the oldest are forgotten first
    PREFIX = "maze:rate:"

    def __init__(self, clients_per_ip: int, shared: SharedRedis | None = None) -> None:
        self.clients_per_ip = clients_per_ip
        self.shared = shared
        self._events: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._process = secrets.token_hex(6)
        self._script = shared.script(RATE_SCRIPT) if shared is not None else None

    @classmethod
    def for_config(cls, config: Config) -> RateLimits:
        """The limits of ``config``: shared through ``config.redis_url``'s Redis when it is set."""
        return cls(config.clients_per_ip, shared_redis(config.redis_url))

    def take(self, what: str, per_minute: int, client: str, address: str) -> None:
        """Count one ``what`` for this client and address, or raise TooMany saying when to retry. The
        address's cookie-less client (``ip:<address>``) has a client's window like any other, apart
        from the address's own (``addr:<address>``): a script flooding without cookies is held to one
        client's rate, and the browsers behind its address keep theirs."""
        per_address = per_minute * self.clients_per_ip
        checks = [((what, client), per_minute), ((what, f"addr:{address}"), per_address)]
        if self.shared is not None:
            try:
                refused = self._take_shared(checks)
            except RedisDown:
                pass  # fail open to this process's own count
            else:
                if refused is not None:
                    index, wait = refused
                    raise self._too_many(what, checks[index], wait)
                now = time.monotonic()
                with self._lock:
                    for key, _ in checks:
                        self._window(key, now).append(now)
                return
        now = time.monotonic()
        with self._lock:
            for key, limit in checks:
                window = self._window(key, now)
                if len(window) >= limit:
                    raise self._too_many(what, (key, limit), window[0] + self.WINDOW - now)
            for key, _ in checks:
                self._events[key].append(now)

    def _take_shared(self, checks: list[tuple[tuple[str, str], int]]) -> tuple[int, float] | None:
        """Count in Redis: None, or (the index of the full check, seconds until it has room)."""
        keys = [f"{self.PREFIX}{_key_part(what)}:{who}" for (what, who), _ in checks]
        event = f"{self._process}:{next(self._ids)}"
        args = [int(self.WINDOW * 1000), event, *(limit for _, limit in checks)]
        index, wait_ms = self.shared.call("counting a rate", lambda r: self._script(keys, args, client=r))  # type: ignore[union-attr]
        return None if int(index) == 0 else (int(index) - 1, int(wait_ms) / 1000)

    @staticmethod
    def _too_many(what: str, check: tuple[tuple[str, str], int], seconds: float) -> TooMany:
        (_, who_key), limit = check
        wait = max(1, int(seconds + 1))
        who = "this address" if who_key.startswith("addr:") else "this client"
        return TooMany(f"too many {what}s: at most {limit} a minute for {who}; try again in {wait} s")

    def _window(self, key: tuple[str, str], now: float) -> deque[float]:
        window = self._events.get(key)
        if window is None:
            if len(self._events) >= self.MAX_KEYS:
                self._forget_idle(now)
            window = self._events[key] = deque()
        while window and window[0] <= now - self.WINDOW:
            window.popleft()
        return window

    def _forget_idle(self, now: float) -> None:
        for key in [k for k, w in self._events.items() if not w or w[-1] <= now - self.WINDOW]:
            del self._events[key]
        while len(self._events) >= self.MAX_KEYS:  # all busy: drop the oldest
            del self._events[next(iter(self._events))]


# ---- work at once: leases --------------------------------------------------------------------------
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


class Leases:
    """Work at once counted across processes (``maze:lease:<name>``). Without Redis every lease is
    granted: the caller's own count of its work is then the whole check (as in one process)."""

    PREFIX = "maze:lease:"
    GRACE = 0.5  # a lease's ``alive`` is asked only after this long (its owner registers the work)

    def __init__(self, shared: SharedRedis | None, seconds: float) -> None:
        self.shared = shared
        self.seconds = seconds
        self._held: dict[str, _Lease] = {}
        self._lock = threading.Lock()
        self._renewing = threading.Lock()  # renewals and releases in turn: a release stays released
        self._thread: threading.Thread | None = None
        self._take = shared.script(LEASE_SCRIPT) if shared is not None else None
        self._renew = shared.script(RENEW_SCRIPT) if shared is not None else None

    def take(
        self, lease: str, caps: Sequence[tuple[str, int]], alive: Callable[[], bool] | None = None,
    ) -> int | None:
        """Hold ``lease`` in each set ``(name, cap)``: None when held (or Redis cannot answer: the
        caller's own count decides), else the index of the first set at its cap. The lease lasts
        until ``release`` or, if given, until ``alive()`` says False (asked twice a second)."""
        if self.shared is None:
            return None
        keys = [f"{self.PREFIX}{_key_part(name)}" for name, _ in caps]
        args = [lease, int(self.seconds * 1000), *(cap for _, cap in caps)]
        try:
            full = int(self.shared.call("taking a lease", lambda r: self._take(keys, args, client=r)))  # type: ignore[misc]
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
            if held is None or self.shared is None:
                return
            commands = [("zrem", key, lease) for key in held.keys]
            with contextlib.suppress(RedisDown):  # it expires by itself
                self.shared.call("releasing a lease", lambda r: _pipelined(r, commands))

    def held(self) -> list[str]:
        """The leases this process holds (for tests and health)."""
        with self._lock:
            return list(self._held)

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
        assert self.shared is not None and self._renew is not None
        ms = int(self.seconds * 1000)
        with self._renewing:
            with self._lock:
                held = [(name, lease.keys) for name, lease in self._held.items()]

            def renew(r: Any) -> None:
                pipe = r.pipeline(transaction=False)
                for name, keys in held:
                    self._renew(keys, [name, ms], client=pipe)  # type: ignore[misc]
                pipe.execute()

            with contextlib.suppress(RedisDown):  # leases not renewed in time expire
                self.shared.call("renewing leases", renew)


def _pipelined(r: Any, commands: list[tuple[Any, ...]]) -> list[Any]:
    pipe = r.pipeline(transaction=False)
    for name, *args in commands:
        getattr(pipe, name)(*args)
    return pipe.execute()


_LEASES: dict[tuple[str | None, float], Leases] = {}


def leases_for(config: Config) -> Leases:
    """This process's leases in ``config``'s Redis (one object per Redis and lease length; without
    Redis one that grants every lease)."""
    key = (config.redis_url or None, config.redis_lease_seconds)
    with _SHARED_LOCK:
        found = _LEASES.get(key)
    if found is None:
        made = Leases(shared_redis(config.redis_url), config.redis_lease_seconds)
        with _SHARED_LOCK:
            found = _LEASES.setdefault(key, made)
    return found
