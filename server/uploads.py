"""How far the server is with an upload (docs/PROTOCOL.md, "Uploads with progress").

The page names its upload with a random id (header ``X-Upload-Id``: 1 to 40 of ``A-Z a-z 0-9 _ -``)
and, while its POST is pending, polls ``GET /api/uploads/<id>``; the POST's handler writes the
phases here: ``received`` (the file is in, waiting for a slot and memory), ``decode`` (the fraction
of the compressed bytes decoded), ``cells`` (rows classified), ``lattice``, ``storing``, then
``done`` or ``error`` (with the error's words) — each ``{phase, fraction, message}``, the fraction in
[0, 1] or null where a phase has no measure. A ``DELETE`` of the id asks the upload to stop: its next
report raises a PuzzleError ("cancelled") that the POST answers with a 400.

An upload belongs to the client that sent it (``clients.client_id`` of the POST): a poll or a DELETE
is answered only for a request that may act for that client (``clients.client_ids``); for any other
the id is unknown, as if no process had heard of it (its file name and progress are the maker's, and
only the maker may stop it). A POST reusing another client's id starts an entry of its own (the
other's cancel is not carried over to it).

Entries are kept ``PROGRESS_TTL`` (a minute) after their last report, in this process's memory (at
most ``MAX_ENTRIES``, the oldest dropped first) and, with ``Config.redis_url``, in Redis too, so that
any process may answer a poll (several processes share one Redis: the POST and its polls may land on
different ones). The Redis key is a hash ``maze:upload:<id>`` — ``status`` (the JSON a poll answers),
``owner`` (the client that sent it; empty: anyone's, for callers that name none) and ``cancel`` (set
by whichever process got its owner's DELETE) — expiring a minute after its last write.
Reports are written at most every ``PUBLISH_EVERY`` seconds within a phase (every change of phase at
once). Redis failing is never the upload's failure: the entry then lives in this process only.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from .clients import RedisDown, SharedRedis, shared_redis
from .i18n import t
from .puzzles.errors import PuzzleError

UPLOAD_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
HEADER = "X-Upload-Id"
PROGRESS_TTL = 60.0  # seconds an entry lives after its last report
PUBLISH_EVERY = 0.2  # seconds between writes of one upload's progress within a phase
MAX_ENTRIES = 4096  # entries this process keeps in memory (uploads are rate-limited per client anyway)
PREFIX = "maze:upload:"

MESSAGES = {  # catalog keys: a report writes t(key) in the uploader's language
    "received": "upload.phase.received",
    "decode": "upload.phase.decode",
    "cells": "upload.phase.cells",
    "lattice": "upload.phase.lattice",
    "storing": "upload.phase.storing",
    "done": "upload.phase.done",
}

# KEYS: the upload's hash; ARGV: its status (JSON), how long it lasts (ms), its owner. Returns its
# cancel field. A hash of another owner (another client's upload under the same id) is replaced whole.
PUBLISH_SCRIPT = """
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[3] then
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'owner', ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return redis.call('HGET', KEYS[1], 'cancel')
"""
# KEYS: the upload's hash; ARGV: the clients the asking request may act for. Sets its cancel field
# when one of them owns it (or it has no owner); returns 1 then, else 0 (unknown, or another's).
CANCEL_SCRIPT = """
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then return 0 end
local mine = owner == ''
for _, client in ipairs(ARGV) do
  if client == owner then mine = true end
end
if not mine then return 0 end
redis.call('HSET', KEYS[1], 'cancel', '1')
return 1
"""


def check_upload_id(text: str | None) -> str | None:
    """The header's upload id (None when the request has none); a PuzzleError naming the header
    when it is not 1 to 40 of A-Z, a-z, 0-9, "_" and "-"."""
    if text is None or text == "":
        return None
    if not UPLOAD_ID.fullmatch(text):
        raise PuzzleError(
            t("upload.uploads.upload_id_header_expected_letters", HEADER=repr(HEADER), text=repr(text[:50])),
        )
    return text


class Cancelled(PuzzleError):
    """The page asked this upload to stop."""

    def __init__(self) -> None:
        super().__init__(t("upload.cancelled"), "upload")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _mine(owner: str, clients: Sequence[str]) -> bool:
    """Whether a request acting for ``clients`` may see an upload of ``owner`` ("": anyone's)."""
    return owner == "" or owner in clients


class UploadProgress:
    """The registry: ``report`` (the POST's side), ``status`` and ``cancel`` (the polls' side), each
    upload answered only to its owner's requests."""

    def __init__(self, redis_url: str | None = None) -> None:
        # upload id -> (status, time of the report, cancelled, owner)
        self._entries: OrderedDict[str, tuple[dict[str, Any], float, bool, str]] = OrderedDict()
        self._lock = threading.Lock()
        self.shared: SharedRedis | None = shared_redis(redis_url)
        self._script = self.shared.script(PUBLISH_SCRIPT) if self.shared is not None else None
        self._cancel = self.shared.script(CANCEL_SCRIPT) if self.shared is not None else None

    # ---- the POST's side -----------------------------------------------------------------------
    def tracker(self, upload_id: str | None, owner: str = "") -> Tracker:
        """Reports of one upload by the client ``owner`` (``clients.client_id``; "": answered to
        anyone); a tracker that does nothing when the request named no id."""
        return Tracker(self, upload_id, owner)

    def _write(self, upload_id: str, owner: str, status: dict[str, Any], publish: bool) -> bool:
        """Keep ``status``; True when the upload was asked to stop (here or, when publishing, in Redis)."""
        now = time.monotonic()
        with self._lock:
            self._expire(now)
            old = self._entries.pop(upload_id, None)
            cancelled = bool(old and old[2] and old[3] == owner)  # another's cancel is not this one's
            self._entries[upload_id] = (status, now, cancelled, owner)
            while len(self._entries) > MAX_ENTRIES:
                self._entries.popitem(last=False)
        if publish and self.shared is not None:
            key = PREFIX + upload_id
            args = [json.dumps(status), int(PROGRESS_TTL * 1000), owner]
            try:
                flag = self.shared.call(
                    "publishing an upload's progress", lambda r: self._script([key], args, client=r),  # type: ignore[misc]
                )
            except RedisDown:
                flag = None
            cancelled = cancelled or bool(flag)
        return cancelled

    # ---- the polls' side -----------------------------------------------------------------------
    def status(self, upload_id: str, clients: Sequence[str] = ()) -> dict[str, Any] | None:
        """What a poll by a request acting for ``clients`` (``clients.client_ids``) answers:
        ``{phase, fraction, message}``, or None when no process has it or it is another client's."""
        with self._lock:
            self._expire(time.monotonic())
            found = self._entries.get(upload_id)
        if found is not None:
            return dict(found[0]) if _mine(found[3], clients) else None
        if self.shared is None:
            return None
        key = PREFIX + upload_id
        try:
            raw, owner = self.shared.call(
                "reading an upload's progress", lambda r: r.hmget(key, ["status", "owner"]),
            )
        except RedisDown:
            return None
        if raw is None or owner is None or not _mine(_text(owner), clients):
            return None
        return json.loads(raw)

    def cancel(self, upload_id: str, clients: Sequence[str] = ()) -> dict[str, Any] | None:
        """Ask the upload to stop at its next report, when a request acting for ``clients`` owns it;
        its status (None when no process has it or it is another client's: nothing is asked then)."""
        with self._lock:
            found = self._entries.get(upload_id)
            if found is not None and _mine(found[3], clients):
                self._entries[upload_id] = (found[0], found[1], True, found[3])
        if self.shared is not None and self._cancel is not None:
            key, args = PREFIX + upload_id, list(clients)
            with contextlib.suppress(RedisDown):  # then only this process's upload hears it
                self.shared.call(
                    "cancelling an upload", lambda r: self._cancel([key], args, client=r),  # type: ignore[misc]
                )
        return self.status(upload_id, clients)

    def _expire(self, now: float) -> None:
        """Drop entries past their time (held lock; the oldest report first)."""
        while self._entries:
            upload_id, (_, when, _, _) = next(iter(self._entries.items()))
            if now - when <= PROGRESS_TTL:
                return
            del self._entries[upload_id]

    def __len__(self) -> int:
        with self._lock:
            self._expire(time.monotonic())
            return len(self._entries)


class Tracker:
    """One upload's reports: ``tracker(phase, fraction)`` is a ``LoadLimits.progress``; ``finish``
    and ``fail`` end it. Raises ``Cancelled`` from a report once the page asked to stop."""

    def __init__(self, registry: UploadProgress, upload_id: str | None, owner: str = "") -> None:
        self.registry = registry
        self.upload_id = upload_id
        self.owner = owner
        self._phase = ""
        self._published = 0.0

    def __call__(self, phase: str, fraction: float | None = None, message: str | None = None) -> None:
        if self.upload_id is None:
            return
        now = time.monotonic()
        changed = phase != self._phase
        publish = changed or now - self._published >= PUBLISH_EVERY
        if publish:
            self._published = now
        self._phase = phase
        status = {
            "phase": phase,
            "fraction": None if fraction is None else round(min(1.0, max(0.0, float(fraction))), 4),
            "message": t(message or MESSAGES.get(phase, phase)),
        }
        stop = self.registry._write(self.upload_id, self.owner, status, publish)
        if stop and phase not in ("done", "error"):
            raise Cancelled

    def finish(self) -> None:
        self("done", 1.0)

    def fail(self, message: str) -> None:
        self("error", None, message)


_REGISTRIES: dict[str | None, UploadProgress] = {}
_REGISTRIES_LOCK = threading.Lock()


def progress_registry(redis_url: str | None) -> UploadProgress:
    """This process's registry for ``redis_url`` (one per URL; None: memory only)."""
    key = redis_url or None
    with _REGISTRIES_LOCK:
        found = _REGISTRIES.get(key)
        if found is None:
            found = _REGISTRIES[key] = UploadProgress(key)
        return found
