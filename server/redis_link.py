"""The one way the server reaches Redis (``run.py serve --redis URL`` or ``MAZE_REDIS_URL``): a client
that has answered a PING, or a ``RedisUnavailable`` that says in words what is wrong and where."""

from __future__ import annotations

from typing import Any

REDIS_TIMEOUT = 2.0  # seconds to connect or answer; a Redis that takes longer counts as down


class RedisUnavailable(RuntimeError):
    """Redis cannot be reached (refused, unknown host, wrong password, not Redis at all)."""


def connect(url: str) -> Any:
    """A ``redis.Redis`` for ``url`` that answered a PING; raises ``RedisUnavailable`` otherwise."""
    import redis

    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=REDIS_TIMEOUT, socket_timeout=REDIS_TIMEOUT, health_check_interval=30
        )
        client.ping()
    except ValueError as err:  # a malformed URL
        raise RedisUnavailable(f"the Redis URL {url!r} is not valid: {err}") from err
    except redis.RedisError as err:
        raise RedisUnavailable(f"Redis at {safe_url(url)} does not answer: {err}") from err
    return client


def safe_url(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password:
        host = parts.hostname or ""
        netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts)


SECRET_KEY = "maze:secret-key"


def shared_secret(client: Any, candidate: str) -> str:
    """The session secret every process on this Redis uses: the first process's ``candidate``, kept
    in Redis (no expiry) so later processes and restarts read the same one."""
    client.set(SECRET_KEY, candidate, nx=True)
    value = client.get(SECRET_KEY)
    return value.decode() if isinstance(value, bytes) else str(value)
