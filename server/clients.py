"""Who a client is, and the Redis through which several server processes count clients together.

A client is one browser: a random id in Flask's signed session cookie (``c:<id>``), set by the page
and by the API's first answer. A request that does not send one (a script without cookies, a
browser's very first request) is its address's client (``ip:<address>``, the address as
``remote_address`` gives it: behind ``trusted_proxies`` the one the proxies name), so every cookie-less
request from one address counts against one client's caps (GIF exports, runs, puzzles kept, rates:
server/rate_limits.py, server/leases.py) instead of being a new client each time. ``client_ids`` says
whose jobs a request may see: its own client's, and its address's cookie-less client's (anyone there
can be that client by sending no cookie).

**One process or several.** Without ``Config.redis_url`` every count is this process's own. With it,
several server processes behind one proxy count together in that Redis (``shared_redis``: one
``SharedRedis`` per URL), so N processes allow what one allows (a client's HTTP requests and its
socket may reach different ones). Each count chooses its kind once, from ``shared_redis``'s answer
(``rate_limits_for``, ``leases_for``, the GIF store, the upload progress).

**Redis going away after start** (decided for a class whose Redis blips: keep working). A check that
cannot reach Redis (refused, or no answer within ``redis_link.REDIS_TIMEOUT``, 2 s) never fails a
request: ``SharedRedis.call`` raises ``RedisDown`` and the caller falls back — rates *fail open to
this process's own count* (every process keeps a local copy of the windows, so an abuser is still held
to the per-process limit, N processes together allow up to N times it) and caps fall back to this
process's own count of its work. A warning is logged at most once a minute; after a failure Redis is
not asked again for ``SharedRedis.RETRY_SECONDS`` (5 s), so a hung Redis costs one timeout per few
seconds, not one per request. Leases taken while Redis was away are added at the next renewal once it
answers again.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import request, session

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
        from .redis_link import connect, safe_url

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


def key_part(text: str) -> str:
    """``text`` (a name like "GIF export") as part of a Redis key: no spaces."""
    return text.replace(" ", "-")
