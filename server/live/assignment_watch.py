"""The teacher's live table: ``assignment_watch`` ``{"id", "token"}`` joins the room
``assignment:<id>`` when the token is the assignment's teacher token (ack ``{"ok": true}``, else
``{"ok": false, "error": words}``). The graders and the submit endpoint emit ``assignment_update``
``{"id", "submission", "status"}`` to that room (no names, no answers): the page then asks
``/results`` again. With Redis the emit goes through the message queue, so a grader in another
process reaches the page (docs/PROTOCOL.md, "Assignments")."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_socketio import SocketIO, join_room

from ..assignments.model import same_secret
from ..i18n import supported, t, using
from ..services import services
from ..web.language import environ_language


def room(aid: str) -> str:
    """The Socket.IO room of an assignment's teachers."""
    return f"assignment:{aid}"


def register_assignment_watch(socketio: SocketIO, app: Flask) -> None:
    """Answer ``assignment_watch`` with ``app``'s assignment store."""
    store = services(app).assignments

    @socketio.on("assignment_watch")
    def assignment_watch(*args: Any) -> dict[str, Any]:
        message = args[0] if args else None
        lang = message.get("lang") if isinstance(message, dict) else None
        with using(supported(lang) or environ_language(request.environ)):  # the teacher's language
            return _watch(message)

    def _watch(message: Any) -> dict[str, Any]:
        if not isinstance(message, dict):
            return {"ok": False, "error": t("live.assignment_watch.assignment_watch_expects_object_id")}
        aid, token = message.get("id"), message.get("token")
        if not isinstance(aid, str) or not aid or len(aid) > 64:
            return {"ok": False, "error": t("live.assignment_watch.field_id_expected_assignment_s")}
        if not isinstance(token, str) or not token:
            return {"ok": False, "error": t("live.assignment_watch.field_token_expected_teacher_link")}
        try:
            found = store.get(aid)
        except Exception:  # the store away a moment: said in words
            return {"ok": False, "error": t("live.assignment_watch.assignments_cannot_be_read_right")}
        if found is None:
            return {"ok": False, "error": t("live.assignment_watch.no_assignment_it_may_have", aid=aid[:40])}
        if not same_secret(token, found.token_hash):
            return {"ok": False, "error": t("live.assignment_watch.this_teacher_link_not_valid",
                                            aid=aid[:40])}
        join_room(room(aid))
        return {"ok": True}
