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

from ..clients import TooMany, client_id, remote_address
from ..i18n import supported, t, using
from ..puzzles.errors import PuzzleError
from ..puzzles.options import MAX_WHOLE, whole
from ..services import services
from ..solving import check_run
from ..web.language import environ_language


def register_handlers(socketio: SocketIO, app: Flask) -> None:
    """Answer the live events of ``app``'s clients with its services (``server.services``)."""
    shared = services(app)
    config, manager, rate_limits, store = shared.config, shared.runs, shared.rate_limits, shared.store

    what = {"run": "live.field.run", "slot": "live.field.slot", "puzzle": "live.field.puzzle",
            "algorithm": "live.field.algorithm"}  # catalog keys

    def text_field(message: dict[str, Any], name: str, default: str | None = None) -> str:
        """A short non-empty string field; PuzzleError naming it otherwise."""
        value = message.get(name, default)
        if not isinstance(value, str) or not value:
            got = t("live.field.nothing") if value is None else type(value).__name__
            raise PuzzleError(t("live.handlers.missing_non_empty_string_got", what=t(what[name]),
                                got=got), f"field '{name}'")
        if len(value) > config.max_id_length:
            raise PuzzleError(t("live.handlers.longer_than_characters",
                                max_id_length=config.max_id_length), f"field '{name}'")
        return value

    def seq_field(message: dict[str, Any]) -> int:
        return whole(message.get("seq"), 0, MAX_WHOLE, "field 'seq'", "live.what.frame")

    def an_object(message: Any, event: str) -> dict[str, Any]:
        if not isinstance(message, dict):
            raise PuzzleError(t("live.handlers.expects_object_got", event=event, name=type(message).__name__))
        return message

    def answered(handler):
        """The handler's errors become the acknowledgement ``{ok: false, error}``."""

        def wrapper(*args: Any) -> dict[str, Any]:
            message = args[0] if args else None
            # The message's own "lang" (the page's menu), else the socket's handshake: every answer,
            # and a run's messages (its threads copy this context), in the reader's language.
            lang = message.get("lang") if isinstance(message, dict) else None
            with using(supported(lang) or environ_language(request.environ)):  # this event only
                try:
                    return handler(message) or {"ok": True}
                except (PuzzleError, TooMany) as err:
                    return {"ok": False, "error": str(err)}

        wrapper.__name__ = handler.__name__
        return wrapper

    @socketio.on("run_start")
    @answered
    def run_start(message: Any) -> dict[str, Any]:
        message = an_object(message, "run_start")
        run_id = text_field(message, "run")
        slot = text_field(message, "slot", "main")
        puzzle_id = text_field(message, "puzzle")
        puzzle = store.get(puzzle_id)
        if puzzle is None:
            raise PuzzleError(t("live.handlers.unknown_puzzle_id_it_may"), "field 'puzzle'")
        algorithm = text_field(message, "algorithm")
        options = check_run(puzzle, algorithm, message.get("options"))  # refused before any thread starts
        client = client_id()
        if message.get("instant") is True:  # the editor's re-solve after a change of the board
            rate_limits.take("re-solve", config.resolves_per_minute, client, remote_address())
        else:
            rate_limits.take("run", config.runs_per_minute, client, remote_address())
        sid = request.sid

        def emit(event: str, payload: Any) -> None:
            # A run's client is on this process (its socket is here), so its messages skip the message
            # queue: with Redis they would otherwise all be copied through it (600 MB for the load
            # test's 50 runs), and a Redis outage would stall the runs streaming here.
            socketio.emit(event, payload, to=sid, ignore_queue=True)

        manager.start(sid, slot, run_id, puzzle, algorithm, options, emit, client, puzzle_id)
        return {"ok": True}

    @socketio.on("run_ack")
    @answered
    def run_ack(message: Any) -> None:
        message = an_object(message, "run_ack")
        manager.ack(request.sid, text_field(message, "run"), seq_field(message))

    @socketio.on("run_cancel")
    @answered
    def run_cancel(message: Any) -> None:
        message = an_object(message, "run_cancel")
        manager.cancel(request.sid, text_field(message, "run"))

    @socketio.on("disconnect")
    def disconnect(*_args: Any) -> None:
        manager.disconnect(request.sid)

    @socketio.on("*")
    def unknown_event(event: Any, *_args: Any) -> dict[str, Any]:
        expected = t("live.handlers.events")
        return {"ok": False, "error": t("live.handlers.unknown_event_expected", value=repr(str(event)[:40]),
                                        expected=expected)}
