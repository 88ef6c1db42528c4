"""The teacher's live table: ``assignment_watch`` ``{"id", "token"}`` joins the room
``assignment:<id>`` when the token is the assignment's teacher token (ack ``{"ok": true}``, else
``{"ok": false, "error": words}``). The graders and the submit endpoint emit ``assignment_update``
``{"id", "submission", "status"}`` to that room (no names, no answers): the page then asks
``/results`` again. With Redis the emit goes through the message queue, so a grader in another
process reaches the page (docs/PROTOCOL.md, "Assignments")."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_socketio import SocketIO, join_room

from server.assignments.model import same_secret
from server.services import services


def room(aid: str) -> str:
    """The Socket.IO room of an assignment's teachers."""
    return f"assignment:{aid}"


def register_assignment_watch(socketio: SocketIO, app: Flask) -> None:
    """Answer ``assignment_watch`` with ``app``'s assignment store."""
    store = services(app).assignments

    @socketio.on("assignment_watch")
    def assignment_watch(*args: Any) -> dict[str, Any]:
        message = args[0] if args else None
        if not isinstance(message, dict):
            return {"ok": False, "error": "assignment_watch expects an object {id, token}"}
        aid, token = message.get("id"), message.get("token")
        if not isinstance(aid, str) or not aid or len(aid) > 64:
            return {"ok": False, "error": "field 'id': expected the assignment's id"}
        if not isinstance(token, str) or not token:
            return {"ok": False, "error": "field 'token': expected the teacher link's token"}
        try:
            found = store.get(aid)
        except Exception:  # the store away a moment: said in words
            return {"ok": False, "error": "the assignments cannot be read right now; try again"}
        if found is None:
            return {"ok": False, "error": f"No assignment {aid[:40]} (it may have been deleted)"}
        if not same_secret(token, found.token_hash):
            return {"ok": False, "error": f"This teacher link is not valid for assignment {aid[:40]}"}
        join_room(room(aid))
        return {"ok": True}
