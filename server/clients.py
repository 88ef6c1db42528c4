"""Per-client caps: how often a client may upload and start runs. One client past its cap is refused
at once with a message saying when to try again; it never slows the others.

A client is one browser (a random id in Flask's signed session cookie, set by the page and the
API); a script without cookies is a new client on every request, so each cap also holds per IP
address, ``clients_per_ip`` times looser (a classroom behind one NAT address keeps working).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque

from flask import request, session


class TooMany(Exception):
    """A client went past one of its caps (HTTP 429; ``{ok: false, error}`` on the socket)."""


def client_id() -> str:
    """This request's client: its session's id (made on first use), else its address."""
    try:
        cid = session.get("client")
        if not isinstance(cid, str) or len(cid) > 32:
            cid = secrets.token_urlsafe(12)
            session["client"] = cid
        return f"c:{cid}"
    except RuntimeError:  # no session (a socket handler after the session was dropped)
        return f"ip:{remote_address()}"


def remote_address() -> str:
    return str(request.remote_addr or "unknown")[:64]


class RateLimits:
    """Sliding one-minute windows of events per (what, key)."""

    WINDOW = 60.0
    MAX_KEYS = 100_000  # windows kept at most; the oldest are forgotten first

    def __init__(self, clients_per_ip: int) -> None:
        self.clients_per_ip = clients_per_ip
        self._events: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, what: str, per_minute: int, client: str, address: str) -> None:
        """Count one ``what`` for this client and address, or raise TooMany saying when to retry."""
        now = time.monotonic()
        with self._lock:
            per_address = per_minute * self.clients_per_ip
            checks = [((what, client), per_minute), ((what, f"ip:{address}"), per_address)]
            for key, limit in checks:
                window = self._window(key, now)
                if len(window) >= limit:
                    wait = max(1, int(window[0] + self.WINDOW - now + 1))
                    who = "this client" if key[1] == client else "this address"
                    raise TooMany(
                        f"too many {what}s: at most {limit} a minute for {who}; try again in {wait} s"
                    )
            for key, _ in checks:
                self._events[key].append(now)

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
