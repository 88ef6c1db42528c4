"""The kernel's own server: ONE app per kernel (``create_app``), reached without a network.

The widget's front end is the page's (static/js/notebook/): what the page asks its server over HTTP it
asks the kernel as ``{"type": "api", id, method, path, body}``, answered by the app's test client
(``api_reply``: the JSON, or a binary body as the reply's first buffer); what it says on its socket
(``run_start``, ``run_ack``, ``run_cancel``) goes to the live layer's ``LiveRequests``, as the socket's
handlers do, and a run's events come back as widget messages (``{"type": "event", event, payload}``,
every ``bytes`` in the payload replaced by ``{"$buffer": i}`` and sent as buffer ``i``). Puzzles go in
through the page's upload (``POST /api/puzzles``), so their ids are the app's.

The app's stores live in a temporary folder removed when the kernel ends. This is the student's own
machine, as for the CLI: the per-client rates are loose (a notebook re-runs cells), the rest of the
limits the server's.
"""

from __future__ import annotations

import atexit
import io
import logging
import shutil
import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from ..i18n import supported, t, using
from ..puzzles.errors import PuzzleError
from ..puzzles.registry import get_family
from .inputs import Puzzle

API_PATHS = ("/api/", "/i18n/")  # what the widget may ask: the API and the page's catalogs
CLIENT = "notebook"  # who the kernel's runs count against (one student)
ADDRESS = "127.0.0.1"
METHODS = ("GET", "POST", "DELETE")
LOOSE_RATE = 100_000  # per minute: a notebook's loops may ask often; the work itself stays budgeted

log = logging.getLogger(__name__)


class Sender(Protocol):
    """What the bridge sends through: a widget (``anywidget.AnyWidget.send``)."""

    def send(self, content: dict[str, Any], buffers: list[Any] | None = None) -> None: ...


def with_buffers(value: Any, buffers: list[bytes] | None = None) -> tuple[Any, list[bytes]]:
    """``value`` with every bytes-like value anywhere in it replaced by ``{"$buffer": i}``, and the
    buffers in order (what the widget's front end puts back before handing the payload on)."""
    found: list[bytes] = [] if buffers is None else buffers

    def walk(item: Any) -> Any:
        if isinstance(item, bytes | bytearray | memoryview):
            found.append(bytes(item))
            return {"$buffer": len(found) - 1}
        if isinstance(item, dict):
            return {key: walk(v) for key, v in item.items()}
        if isinstance(item, list | tuple):
            return [walk(v) for v in item]
        return item

    return walk(value), found


class Bridge:
    """The kernel's app, its test client, and the live requests of its widgets."""

    def __init__(self, folder: Path | None = None, **settings: Any) -> None:
        """``settings``: ``Config`` fields over the kernel's own (the tests' small limits)."""
        from ..app import create_app
        from ..config import Config
        from ..live.requests import LiveRequests
        from ..services import services

        self.folder = folder or Path(tempfile.mkdtemp(prefix="mazeviz-"))
        if folder is None:
            atexit.register(shutil.rmtree, self.folder, True)
        self.config = Config(
            store_dir=self.folder / "puzzles", tile_dir=self.folder / "tiles",
            assignment_dir=self.folder / "assignments", graders=0,
            uploads_per_minute=LOOSE_RATE, runs_per_minute=LOOSE_RATE, code_runs_per_minute=LOOSE_RATE,
            resolves_per_minute=LOOSE_RATE, max_runs_per_client=16,  # several widgets' panels at once
            # a notebook may leave a run waiting while a cell computes: its acks come after the cell
            ack_timeout=600.0, stream_timeout=3600.0,
        )
        if settings:
            self.config = replace(self.config, **settings)
        self.app = create_app(self.config)
        self.services = services(self.app)
        self.live = LiveRequests(self.services)
        self.client = self.app.test_client()
        self._client_lock = threading.Lock()  # one request at a time through the test client
        self._send_lock = threading.RLock()  # run threads and the kernel's thread send in turn

    # -- HTTP, in-process --------------------------------------------------------------------------
    def request(self, method: str, path: str, body: Any = None, lang: str = "en", **kwargs: Any) -> Any:
        """The app's answer to ``method path`` (a werkzeug test response), in ``lang``."""
        headers = {"Accept-Language": lang}
        if body is not None:
            kwargs["json"] = body
        with self._client_lock:
            return self.client.open(path, method=method, headers=headers, **kwargs)

    def post_json(self, path: str, body: Any, lang: str = "en") -> Any:
        """The JSON answer of ``POST path``; a refusal (4xx, 5xx) raised as a PuzzleError in its words."""
        response = self.request("POST", path, body, lang)
        return _answer(response)

    def put(self, puzzle: Puzzle, lang: str = "en") -> str:
        """Store ``puzzle`` in the app as the page's upload does; its id."""
        with using(supported(lang) or "en"):
            response = self.request("POST", "/api/puzzles", lang=lang, data={
                "file": (io.BytesIO(puzzle.data), puzzle.filename), "family": puzzle.family})
            pid = _answer(response, 201)["id"]
            if puzzle.options != get_family(puzzle.family).load_options({}):  # read again with its options
                pid = _answer(self.request("POST", "/api/puzzles", {"puzzle": pid, "options": puzzle.options},
                                           lang), 201)["id"]
            return pid

    def api_reply(self, message: Any, lang: str = "en") -> tuple[dict[str, Any], list[bytes]]:
        """The answer to the widget's ``{"type": "api", id, method, path, body}``: ``api_reply`` with the
        status and the JSON, or a binary body as buffer 0."""
        ident = message.get("id") if isinstance(message, dict) else None
        reply: dict[str, Any] = {"type": "api_reply", "id": ident}
        with using(supported(lang) or "en"):
            method, path = _method_and_path(message)
            if isinstance(method, PuzzleError):
                return {**reply, "status": 400, "json": {"error": str(method)}}, []
            try:
                response = self.request(method, path, message.get("body"), lang)
            except Exception as err:  # the app answers its own errors; this is the transport's
                log.exception("the widget's request %s %s failed", method, path)
                return {**reply, "status": 500, "json": {"error": t("notebook.request_failed",
                                                                    name=type(err).__name__)}}, []
        if response.is_json:
            return {**reply, "status": response.status_code, "json": response.get_json(silent=True)}, []
        return {**reply, "status": response.status_code, "json": None, "binary": True,
                "content_type": response.content_type or "application/octet-stream"}, [response.get_data()]

    # -- the widget's messages ---------------------------------------------------------------------
    def handle(self, sender: Sender, sid: str, content: Any, lang: str = "en") -> None:
        """Answer one message of a widget (``sid``: the widget's connection, its runs' owner)."""
        from ..live.requests import answer

        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "api":
            reply, buffers = self.api_reply(content, lang)
            self.send(sender, reply, buffers)
        elif kind == "run_start":
            with self._send_lock:  # the reply goes before the run's first event (its thread waits)
                ok = answer(content, lang, lambda m: self.live.start(
                    m, sid=sid, client=CLIENT, address=ADDRESS, emit=self.emitter(sender)))
                self.send(sender, {"type": "run_reply", "run": content.get("run"), **ok})
        elif kind == "run_ack":
            answer(content, lang, lambda m: self.live.ack(m, sid))
        elif kind == "run_cancel":
            answer(content, lang, lambda m: self.live.cancel(m, sid))
        else:
            with using(supported(lang) or "en"):
                words = t("notebook.unknown_message", value=repr(str(kind)[:40]))
            self.send(sender, {"type": "error", "error": words})

    def disconnect(self, sid: str) -> None:
        """A widget closed: its runs stop."""
        self.services.runs.disconnect(sid)

    def emitter(self, sender: Sender) -> Any:
        """A run's ``emit`` (``RunManager``) that sends its events to ``sender``."""

        def emit(event: str, payload: Any) -> None:
            content, buffers = with_buffers({"type": "event", "event": event, "payload": payload})
            self.send(sender, content, buffers)

        return emit

    def send(self, sender: Sender, content: dict[str, Any], buffers: list[bytes] | None = None) -> None:
        """Send in turn: a run's threads and the kernel's own thread share the widget's comm."""
        with self._send_lock:
            sender.send(content, buffers or None)


def _method_and_path(message: Any) -> tuple[Any, str]:
    """(method, path) of an ``api`` message, or (PuzzleError, "") in words naming the field."""
    if not isinstance(message, dict):
        return PuzzleError(t("notebook.api_object", name=type(message).__name__)), ""
    method, path = message.get("method", "GET"), message.get("path")
    if not isinstance(method, str) or method.upper() not in METHODS:
        return PuzzleError(t("notebook.api_method", value=repr(str(method)[:20]), methods=", ".join(METHODS)),
                           "field 'method'"), ""
    if not isinstance(path, str) or not path.startswith(API_PATHS) or ".." in path or len(path) > 2000:
        return PuzzleError(t("notebook.api_path", value=repr(str(path)[:60])), "field 'path'"), ""
    return method.upper(), path


def _answer(response: Any, status: int = 200) -> Any:
    """The JSON of an answer with ``status``; another's error raised in its own words."""
    found = response.get_json(silent=True)
    if response.status_code != status:
        error = found.get("error") if isinstance(found, dict) else None
        raise PuzzleError(error or t("notebook.server_refused", status=response.status_code))
    return found


_bridge: Bridge | None = None
_lock = threading.Lock()


def bridge() -> Bridge:
    """The kernel's one bridge (made on first use)."""
    global _bridge
    with _lock:
        if _bridge is None:
            _bridge = Bridge()
        return _bridge
