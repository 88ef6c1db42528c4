"""Socket.IO handlers: start and cancel runs; a disconnect stops the client's runs."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_socketio import SocketIO

from server.live.runs import RunManager
from server.puzzles.errors import PuzzleError
from server.solving import check_run


def register_handlers(socketio: SocketIO, app: Flask) -> None:
    manager = RunManager(app.extensions["maze_config"])
    app.extensions["run_manager"] = manager

    @socketio.on("run_start")
    def run_start(message: Any) -> dict[str, Any]:
        sid = request.sid
        try:
            if not isinstance(message, dict):
                raise PuzzleError("run_start expects an object")
            run_id = str(message.get("run") or "")
            if not run_id:
                raise PuzzleError("missing run id", "field 'run'")
            puzzle = app.extensions["puzzle_store"].get(str(message.get("puzzle", "")))
            if puzzle is None:
                raise PuzzleError("unknown puzzle id (it may have expired: load it again)", "field 'puzzle'")
            algorithm = message.get("algorithm", "")
            # Refused in the ack, before any thread starts.
            options = check_run(puzzle, algorithm, message.get("options"))
        except PuzzleError as err:
            return {"ok": False, "error": str(err)}

        def emit(event: str, payload: Any) -> None:
            socketio.emit(event, payload, to=sid)

        manager.start(sid, str(message.get("slot") or "main"), run_id, puzzle, algorithm, options, emit)
        return {"ok": True}

    @socketio.on("run_ack")
    def run_ack(message: Any) -> None:
        if isinstance(message, dict):
            manager.ack(request.sid, str(message.get("run", "")))

    @socketio.on("run_cancel")
    def run_cancel(message: Any) -> None:
        if isinstance(message, dict):
            manager.cancel(request.sid, str(message.get("run", "")))

    @socketio.on("disconnect")
    def disconnect(*_args: Any) -> None:
        manager.disconnect(request.sid)
