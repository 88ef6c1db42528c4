"""Student mode's recorded runs, kept on the server under an id (docs/PROTOCOL.md, "Student mode").

A run of a student's search can hold a million expansions: its record (the packed ids) travels to the
server in parts (``POST …/code/runs``, at most ``PART_CHARS`` characters each), never as one message
larger than a request or a socket message may be. Once judged, the run is kept for the replay
(``run:<id>`` in the run option ``code``, server/search/algorithms/replay.py) for ``TTL`` seconds.

**Where.** Without ``Config.redis_url``, in this process's memory: capped in bytes (the oldest go
first) and in age. With it (several server processes behind one proxy: a client's parts, its verdict
and its socket may reach different ones), in that Redis, so any process finds them:
``maze:code-run:<id>`` (a hash: ``owner``, ``puzzle``, ``parts``, ``received``), ``…:text`` (the parts
so far, appended in order) and ``…:judged`` (the judged run as JSON: the packed ids, their count, the
path, how many are animated), each expiring ``TTL`` after its last write; Redis's own memory policy
bounds them. A judged run is also kept in the memory of the process that judged it. When Redis does
not answer, the request is refused in words ("try again in a moment"), never answered with a wrong run.
A run that is not found says so ("not kept on this server … run your code again").
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from .budget import ServerBusy
from .clients import RedisDown, SharedRedis
from .i18n import t
from .puzzles.errors import PuzzleError
from .search.algorithms.replay import RecordedRun, pack_ids, unpack_ids

PART_CHARS = 512 * 1024  # characters of packed ids in one part
KEY = "maze:code-run:"
NOT_KEPT = "code.runs.not_kept"  # catalog keys
UNREACHABLE = "code.runs.unreachable"
TTL = 30 * 60.0  # seconds a run is kept after its last use
MAX_BYTES = 256 * 1024 * 1024  # every run kept in this process, parts and judged runs


@dataclass
class Upload:
    """A run arriving in parts, then judged: who sent it, on which puzzle, its parts so far."""

    owner: str
    puzzle: str
    parts: int
    texts: list[str] = field(default_factory=list)
    judged: RecordedRun | None = None
    used: float = field(default_factory=time.monotonic)

    @property
    def size(self) -> int:
        judged = self.judged
        ids = 0 if judged is None else 8 * (len(judged.expanded) + len(judged.path or ()))
        return sum(len(t) for t in self.texts) + ids + 200


class RecordedRuns:
    """The runs kept in this process (thread-safe)."""

    def __init__(self, max_bytes: int = MAX_BYTES, ttl: float = TTL) -> None:
        self.max_bytes = max_bytes
        self.ttl = ttl
        self._runs: OrderedDict[str, Upload] = OrderedDict()
        self._lock = threading.Lock()
        self.shared: SharedRedis | None = None

    def share(self, shared: SharedRedis | None) -> None:
        """Keep the runs in this Redis from now on (None: in this process)."""
        self.shared = shared

    def _redis(self, what: str, action: Any) -> Any:
        assert self.shared is not None
        try:
            return self.shared.call(what, action)
        except RedisDown:
            raise ServerBusy(t(UNREACHABLE)) from None

    def _sweep(self, now: float) -> None:
        while self._runs:
            key, oldest = next(iter(self._runs.items()))
            if now - oldest.used <= self.ttl and sum(u.size for u in self._runs.values()) <= self.max_bytes:
                break
            del self._runs[key]

    def add_part(self, run: str | None, owner: str, puzzle: str, part: int, parts: int, text: str) -> str:
        """Part ``part`` of ``parts`` of a run (a new run for part 0, ``run`` None); the run's id.
        PuzzleError naming the field when the part is out of turn or the run unknown."""
        if len(text) > PART_CHARS:
            raise PuzzleError(t("code.code_runs.part_holds_at_most_characters", PART_CHARS=PART_CHARS,
                                n_text=len(text)),
                              "field 'text'")
        if self.shared is not None:
            return self._shared_part(run, owner, puzzle, part, parts, text)
        now = time.monotonic()
        with self._lock:
            self._sweep(now)
            if part == 0:
                run = secrets.token_hex(10)
                self._runs[run] = Upload(owner, puzzle, parts)
            upload = self._runs.get(run or "")
            if upload is None or upload.owner != owner or upload.puzzle != puzzle:
                raise PuzzleError(t(NOT_KEPT), "field 'run'")
            if upload.judged is not None or part != len(upload.texts) or parts != upload.parts:
                raise PuzzleError(t("code.code_runs.expected_part_got_part_2", n_texts=len(upload.texts),
                                    parts=upload.parts, part=part, parts2=parts), "field 'part'")
            upload.texts.append(text)
            upload.used = now
            self._runs.move_to_end(run)
            self._sweep(now)
            return run

    def text(self, run: str, owner: str, puzzle: str) -> str:
        """The whole packed text of an uploaded run; PuzzleError when it is unknown or incomplete."""
        if self.shared is not None:
            return self._shared_text(run, owner, puzzle)
        with self._lock:
            upload = self._runs.get(run)
            if upload is None or upload.owner != owner or upload.puzzle != puzzle:
                raise PuzzleError(t(NOT_KEPT), "field 'run'")
            if len(upload.texts) != upload.parts:
                raise PuzzleError(t("code.code_runs.run_has_its_parts_2", n_texts=len(upload.texts),
                                    parts=upload.parts),
                                  "field 'run'")
            return "".join(upload.texts)

    def keep(self, run: str | None, owner: str, puzzle: str, judged: RecordedRun) -> str:
        """Keep a judged run for its replay (under ``run``, or a new id); the id. Its parts are dropped."""
        now = time.monotonic()
        if self.shared is not None:
            run = run or secrets.token_hex(10)
            record = json.dumps({"expanded": pack_ids(judged.expanded), "count": len(judged.expanded),
                                 "path": judged.path, "animated": judged.animated})
            ttl = int(self.ttl)

            def store(r: Any) -> None:
                pipe = r.pipeline()
                pipe.set(f"{KEY}{run}:judged", record, ex=ttl)
                pipe.hset(f"{KEY}{run}", mapping={"owner": owner, "puzzle": puzzle, "parts": 0,
                                                  "received": 0})
                pipe.expire(f"{KEY}{run}", ttl)
                pipe.delete(f"{KEY}{run}:text")
                pipe.execute()

            self._redis("keeping a student's run", store)
        with self._lock:
            run = run or secrets.token_hex(10)
            if run not in self._runs:
                self._runs[run] = Upload(owner, puzzle, 0)
            upload = self._runs[run]
            upload.texts, upload.parts, upload.judged, upload.used = [], 0, judged, now
            self._runs.move_to_end(run)
            self._sweep(now)
            return run

    def judged(self, run: str) -> RecordedRun | None:
        """A judged run by its id (the replay's lookup), or None."""
        with self._lock:
            upload = self._runs.get(run)
            if upload is not None and upload.judged is not None:
                upload.used = time.monotonic()
                return upload.judged
        if self.shared is None:
            return None
        text = self._redis("reading a student's run", lambda r: r.get(f"{KEY}{run}:judged"))
        if text is None:
            return None
        record = json.loads(text)
        ids = unpack_ids(record["expanded"], record["count"])
        return RecordedRun(ids, record["path"], record["animated"])

    # ---- in Redis ---------------------------------------------------------------------------------
    def _shared_part(self, run: str | None, owner: str, puzzle: str, part: int, parts: int, text: str) -> str:
        ttl = int(self.ttl)
        if part == 0:
            run = secrets.token_hex(10)

            def begin(r: Any) -> None:
                pipe = r.pipeline()
                pipe.hset(f"{KEY}{run}", mapping={"owner": owner, "puzzle": puzzle, "parts": parts,
                                                   "received": 0})
                pipe.set(f"{KEY}{run}:text", "", ex=ttl)
                pipe.expire(f"{KEY}{run}", ttl)
                pipe.execute()

            self._redis("starting a student's run", begin)
        key = f"{KEY}{run}"
        head = self._redis("reading a student's run", lambda r: r.hmget(key, "owner", "puzzle", "parts",
                                                                          "received"))
        if head[0] is None or _text(head[0]) != owner or _text(head[1]) != puzzle:
            raise PuzzleError(t(NOT_KEPT), "field 'run'")
        want, received = int(head[2]), int(head[3])
        if part != received or parts != want or not want:
            raise PuzzleError(t("code.code_runs.expected_part_got_part", received=received, want=want,
                                part=part, parts=parts),
                              "field 'part'")

        def append(r: Any) -> None:
            pipe = r.pipeline()
            pipe.append(f"{key}:text", text)
            pipe.hincrby(key, "received", 1)
            pipe.expire(key, ttl)
            pipe.expire(f"{key}:text", ttl)
            pipe.execute()

        self._redis("adding a part of a student's run", append)
        assert run is not None
        return run

    def _shared_text(self, run: str, owner: str, puzzle: str) -> str:
        key = f"{KEY}{run}"

        def read(r: Any) -> tuple[Any, Any]:
            return r.hmget(key, "owner", "puzzle", "parts", "received"), r.get(f"{key}:text")

        head, text = self._redis("reading a student's run", read)
        if head[0] is None or _text(head[0]) != owner or _text(head[1]) != puzzle or text is None:
            raise PuzzleError(t(NOT_KEPT), "field 'run'")
        if int(head[2]) != int(head[3]):
            raise PuzzleError(t("code.code_runs.run_has_its_parts", value=int(head[3]),
                                value2=int(head[2])), "field 'run'")
        return _text(text)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


RUNS = RecordedRuns()  # this process's: the web layer and the replay share it
