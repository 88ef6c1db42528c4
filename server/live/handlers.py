"""Socket.IO handlers: start, acknowledge and cancel runs; a disconnect stops the client's runs.

``run_start``, ``run_ack`` and ``run_cancel`` answer a malformed message (any value, or none) with
``{ok: false, error}`` naming the field, and a refused start (rate limit, per-client cap) in words
the same way; any other event name gets ``{ok: false, error}`` from the catch-all. The answer reaches
clients that asked for an acknowledgement. Nothing these handlers do with a client's message raises.

What still raises is outside them (tests/fuzz_strategies.py, ``KNOWN_BUGS``): python-socketio
refuses a packet it cannot decode (too deeply nested, malformed) before any handler runs, logging
the error and answering nothing; and an event literally named ``*`` is dispatched by Flask-SocketIO
to the catch-all with its first argument taken for the sid, which raises inside Flask-SocketIO
(no argument, or an object) or is answered ``['', 400]``.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_socketio import SocketIO

from ..clients import client_id, remote_address
from ..i18n import t
from ..services import services
from ..web.language import environ_language
from .requests import LiveRequests, answer


def register_handlers(socketio: SocketIO, app: Flask) -> None:
    """Answer the live events of ``app``'s clients with its services (``server.services``); the
    requests themselves are ``LiveRequests``' (the notebook's widget makes the same)."""
    shared = services(app)
    manager = shared.runs
    live = LiveRequests(shared)

    def answered(handler):
        """The handler's errors become the acknowledgement ``{ok: false, error}``, in the message's
        "lang", else the socket's handshake's language."""

        def wrapper(*args: Any) -> dict[str, Any]:
            return answer(args[0] if args else None, environ_language(request.environ), handler)

        wrapper.__name__ = handler.__name__
        return wrapper

    @socketio.on("run_start")
    @answered
    def run_start(message: Any) -> dict[str, Any]:
        sid = request.sid

        def emit(event: str, payload: Any) -> None:
            # A run's client is on this process (its socket is here), so its messages skip the message
            # queue: with Redis they would otherwise all be copied through it (600 MB for the load
            # test's 50 runs), and a Redis outage would stall the runs streaming here.
            socketio.emit(event, payload, to=sid, ignore_queue=True)

        return live.start(message, sid=sid, client=client_id(), address=remote_address(), emit=emit)

    @socketio.on("run_ack")
    @answered
    def run_ack(message: Any) -> None:
        live.ack(message, request.sid)

    @socketio.on("run_cancel")
    @answered
    def run_cancel(message: Any) -> None:
        live.cancel(message, request.sid)

    @socketio.on("disconnect")
    def disconnect(*_args: Any) -> None:
        manager.disconnect(request.sid)

    @socketio.on("*")
    def unknown_event(event: Any, *_args: Any) -> dict[str, Any]:
        expected = t("live.handlers.events")
        return {"ok": False, "error": t("live.handlers.unknown_event_expected", value=repr(str(event)[:40]),
                                        expected=expected)}
