"""Where assignments and their submissions are kept: an ``AssignmentStore`` (a Protocol) of two kinds,
chosen once (``open_assignment_store``), like the puzzle archive (server/archive.py):

* ``DiskAssignments``: ``<assignment_dir>/<id>/assignment.json``, ``…/puzzle`` (the pinned puzzle's
  ``Source``) and ``…/submissions/<sid>.json``; every file written to a temporary file, fsynced,
  renamed into place and its folder fsynced, so what a student was told is received survives a
  ``kill -9`` or a power cut.
* ``RedisAssignments``: ``maze:assignment:<id>`` (a hash: the assignment, the pinned source, and one
  field a submission), written before the 202 is answered; it expires after ``keep_until``.

**Pinned puzzle**: an assignment keeps its own copy of its puzzle's file; ``pinned_puzzle`` puts it
back into the puzzle store when the archive no longer has it. **Retention**: ``sweep`` deletes an
assignment ``retention_days`` after its deadline (else its creation). Attempts are numbered under a
lock (per process on disk — one server process writes a folder —, a Lua script in Redis).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from ..archive import Source
from ..i18n import t
from ..safe_paths import BadKey, key_path
from .model import Assignment, Submission, student_key

log = logging.getLogger(__name__)

ID_FORM = re.compile(r"[A-Za-z0-9_-]{12}")  # class ids (model.new_id)
SID_FORM = re.compile(r"[A-Za-z0-9_-]{16}")  # submission ids
PREFIX = "maze:assignment:"  # + id: a hash {assignment, source_meta, source_data, s:<sid>…, version}
INDEX = "maze:assignments"  # a set of every assignment id (for the sweep and the queue's refill)


class Refused(Exception):
    """A submission the store will not take: ``status`` (403, 429) and the words."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class AssignmentStore(Protocol):
    """Assignments and submissions kept beyond the process (see the module's docstring)."""

    where: str

    def create(self, assignment: Assignment, source: Source | None) -> None: ...
    def get(self, aid: str) -> Assignment | None: ...
    def save(self, assignment: Assignment) -> None: ...
    def delete(self, aid: str) -> bool: ...
    def source(self, aid: str) -> Source | None: ...
    def add_submission(self, assignment: Assignment, submission: Submission,
                       max_total: int) -> Submission: ...
    def submission(self, aid: str, sid: str) -> Submission | None: ...
    def put_submission(self, submission: Submission) -> None: ...
    def submissions(self, aid: str) -> list[Submission]: ...
    def version(self, aid: str) -> int: ...
    def ids(self) -> list[str]: ...


def pending(store: AssignmentStore) -> list[tuple[str, str, float]]:
    """(assignment, submission, received) of every submission still queued or being graded, oldest first."""
    found = []
    for aid in store.ids():
        with contextlib.suppress(Exception):
            found += [(aid, s.id, s.received) for s in store.submissions(aid)
                      if s.status in ("queued", "grading")]
    return sorted(found, key=lambda x: x[2])


def sweep(store: AssignmentStore, now: float | None = None) -> int:
    """Delete every assignment past its ``keep_until``; how many went."""
    now = now or time.time()
    gone = 0
    for aid in store.ids():
        found = store.get(aid)
        if found is not None and found.keep_until() < now and store.delete(aid):
            gone += 1
    return gone


def pinned_puzzle(store: AssignmentStore, puzzles: Any, assignment: Assignment) -> Any:
    """The assignment's puzzle from the puzzle store (``puzzles``, a ``PuzzleStore``); when the store and
    its archive no longer have it, parsed again from the assignment's own copy and put back (into the
    archive too). RuntimeError in words when neither has it."""
    puzzle = puzzles.get(assignment.puzzle)
    if puzzle is not None:
        return puzzle
    source = store.source(assignment.id)
    if source is None or puzzles.reload is None:
        raise RuntimeError(t("assign.store.puzzle_gone", puzzle=assignment.puzzle))
    puzzle = puzzles.reload(source)
    if puzzle is None:
        raise RuntimeError(t("assign.store.puzzle_broken", puzzle=assignment.puzzle))
    puzzles.put(assignment.puzzle, puzzle, source=source if source.id == assignment.puzzle else None)
    return puzzle


def _refusal(assignment: Assignment, submission: Submission, max_total: int, what: str) -> str:
    if what == "full":
        return t("assign.store.full", most=max_total)
    return t("assign.store.no_attempts", attempts=assignment.attempts, task=submission.task)


def _check_attempts(assignment: Assignment, submission: Submission, others: list[Submission],
                    max_total: int) -> int:
    """The attempt number ``submission`` gets, or ``Refused``."""
    if len(others) >= max_total:
        raise Refused(_refusal(assignment, submission, max_total, "full"), 429)
    me = student_key(submission.student)
    mine = [s for s in others if s.task == submission.task and student_key(s.student) == me]
    if assignment.attempts is not None and len(mine) >= assignment.attempts:
        raise Refused(_refusal(assignment, submission, max_total, "used"), 403)
    return len(mine) + 1


# ---- on disk --------------------------------------------------------------------------------------
def write_atomically(path: Path, data: bytes) -> None:
    """``data`` into ``path``: a temporary file fsynced, renamed into place, the folder fsynced."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


class DiskAssignments:
    """One folder an assignment (see the module's docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)  # made with the first assignment
        self.where = f"folder {self.root}"
        self._lock = threading.RLock()
        self._versions: dict[str, int] = {}

    def _folder(self, aid: str) -> Path:
        return key_path(self.root, aid, ID_FORM, what="assignment")

    def _sync_root(self) -> None:
        """The root's entries (a new assignment's folder) to disk."""
        fd = os.open(self.root, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def create(self, assignment: Assignment, source: Source | None) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        folder = self._folder(assignment.id)
        (folder / "submissions").mkdir(parents=True, exist_ok=False)
        if source is not None:
            write_atomically(folder / "puzzle", source.meta() + b"\n" + source.data)
        write_atomically(folder / "assignment.json", json.dumps(assignment.to_json()).encode())
        self._sync_root()  # the new folder's own entry in the root

    def get(self, aid: str) -> Assignment | None:
        try:
            path = self._folder(aid) / "assignment.json"
            return Assignment.from_json(json.loads(path.read_bytes()))
        except (BadKey, FileNotFoundError, NotADirectoryError):
            return None
        except (ValueError, KeyError, TypeError) as err:
            log.warning("assignment %s is damaged (%s)", aid, err)
            return None

    def save(self, assignment: Assignment) -> None:
        folder = self._folder(assignment.id)
        if folder.is_dir():
            write_atomically(folder / "assignment.json", json.dumps(assignment.to_json()).encode())
            self._bump(assignment.id)

    def delete(self, aid: str) -> bool:
        try:
            folder = self._folder(aid)
        except BadKey:
            return False
        if not folder.is_dir():
            return False
        # Renamed first (atomic), then removed: no reader sees half an assignment.
        gone = folder.with_name(f".gone-{aid}-{time.monotonic_ns()}")
        try:
            folder.rename(gone)
        except FileNotFoundError:
            return False
        shutil.rmtree(gone, ignore_errors=True)
        return True

    def source(self, aid: str) -> Source | None:
        try:
            raw = (self._folder(aid) / "puzzle").read_bytes()
            meta, _, data = raw.partition(b"\n")
            return Source.from_parts(meta, data)
        except (BadKey, OSError, ValueError, KeyError, TypeError):
            return None

    def add_submission(self, assignment: Assignment, submission: Submission, max_total: int) -> Submission:
        with self._lock:
            submission.attempt = _check_attempts(assignment, submission, self.submissions(assignment.id),
                                                 max_total)
            self.put_submission(submission)
        return submission

    def _submission_path(self, aid: str, sid: str) -> Path:
        """``<id>/submissions/<sid>.json`` (the sid checked by ``key_path``, then the suffix added)."""
        path = key_path(self._folder(aid) / "submissions", sid, SID_FORM, what="submission")
        return path.with_name(path.name + ".json")

    def submission(self, aid: str, sid: str) -> Submission | None:
        try:
            return Submission.from_json(json.loads(self._submission_path(aid, sid).read_bytes()))
        except (BadKey, FileNotFoundError, NotADirectoryError):
            return None
        except (ValueError, KeyError, TypeError) as err:
            log.warning("submission %s of %s is damaged (%s)", sid, aid, err)
            return None

    def put_submission(self, submission: Submission) -> None:
        path = self._submission_path(submission.assignment, submission.id)
        if not path.parent.is_dir():
            raise LookupError(submission.assignment)  # deleted meanwhile
        write_atomically(path, json.dumps(submission.to_json()).encode())
        self._bump(submission.assignment)

    def submissions(self, aid: str) -> list[Submission]:
        try:
            folder = self._folder(aid) / "submissions"
            names = sorted(p.name for p in folder.iterdir()
                           if p.name.endswith(".json") and SID_FORM.fullmatch(p.name[:-5]))
        except (BadKey, OSError):
            return []
        found = []
        for name in names:
            sub = self.submission(aid, name[:-5])
            if sub is not None:
                found.append(sub)
        return sorted(found, key=lambda s: (s.received, s.id))

    def version(self, aid: str) -> int:
        """Changes seen by this process, plus the files' latest modification (another process's writes)."""
        try:
            folder = self._folder(aid) / "submissions"
            latest = max((p.stat().st_mtime_ns for p in folder.iterdir()), default=0)
        except (BadKey, OSError):
            latest = 0
        return self._versions.get(aid, 0) + latest // 1_000_000

    def _bump(self, aid: str) -> None:
        with self._lock:
            self._versions[aid] = self._versions.get(aid, 0) + 1

    def ids(self) -> list[str]:
        try:
            return sorted(p.name for p in self.root.iterdir() if ID_FORM.fullmatch(p.name) and p.is_dir())
        except OSError:
            return []


# ---- Redis ----------------------------------------------------------------------------------------
# KEYS: the assignment's hash; ARGV: sid, submission JSON, student key + "|" + task, attempts (0 = any),
# max total. Numbers the attempt and stores it in one step: a list of [attempt] or [error, status].
_LUA_ADD = """
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then return {'gone', 404} end
local total = tonumber(redis.call('HGET', key, 'count') or '0')
if total >= tonumber(ARGV[5]) then return {'full', 429} end
local used = tonumber(redis.call('HGET', key, 'a:' .. ARGV[3]) or '0')
local most = tonumber(ARGV[4])
if most > 0 and used >= most then return {'used', 403} end
redis.call('HINCRBY', key, 'count', 1)
redis.call('HINCRBY', key, 'a:' .. ARGV[3], 1)
redis.call('HINCRBY', key, 'version', 1)
local sub = cjson.decode(ARGV[2])
sub['attempt'] = used + 1
redis.call('HSET', key, 's:' .. ARGV[1], cjson.encode(sub))
return {used + 1}
"""


class RedisAssignments:
    """Every assignment a hash in Redis (see the module's docstring); its key expires at ``keep_until``."""

    def __init__(self, client: Any, where: str = "Redis") -> None:
        self.client = client
        self.where = where
        self._add = client.register_script(_LUA_ADD)

    @staticmethod
    def _key(aid: str) -> str | None:
        return PREFIX + aid if isinstance(aid, str) and ID_FORM.fullmatch(aid) else None

    def create(self, assignment: Assignment, source: Source | None) -> None:
        key = self._key(assignment.id)
        assert key is not None
        fields: dict[str, Any] = {"assignment": json.dumps(assignment.to_json()), "version": 0, "count": 0}
        if source is not None:
            fields.update(source_meta=source.meta(), source_data=source.data)
        pipe = self.client.pipeline()
        pipe.hset(key, mapping=fields)
        pipe.expireat(key, int(assignment.keep_until()) + 1)
        pipe.sadd(INDEX, assignment.id)
        pipe.execute()

    def get(self, aid: str) -> Assignment | None:
        key = self._key(aid)
        raw = self.client.hget(key, "assignment") if key else None
        if raw is None:
            if key:
                self.client.srem(INDEX, aid)
            return None
        return Assignment.from_json(json.loads(raw))

    def save(self, assignment: Assignment) -> None:
        key = self._key(assignment.id)
        if key and self.client.exists(key):
            pipe = self.client.pipeline()
            pipe.hset(key, "assignment", json.dumps(assignment.to_json()))
            pipe.hincrby(key, "version", 1)
            pipe.expireat(key, int(assignment.keep_until()) + 1)
            pipe.execute()

    def delete(self, aid: str) -> bool:
        key = self._key(aid)
        if key is None:
            return False
        self.client.srem(INDEX, aid)
        return bool(self.client.delete(key))

    def source(self, aid: str) -> Source | None:
        key = self._key(aid)
        if key is None:
            return None
        meta, data = self.client.hmget(key, "source_meta", "source_data")
        if meta is None or data is None:
            return None
        try:
            return Source.from_parts(meta, data)
        except (ValueError, KeyError, TypeError):
            return None

    def add_submission(self, assignment: Assignment, submission: Submission, max_total: int) -> Submission:
        key = self._key(assignment.id)
        who = f"{student_key(submission.student)}|{submission.task}"
        answer = self._add(keys=[key], args=[submission.id, json.dumps(submission.to_json()), who,
                                             assignment.attempts or 0, max_total])
        if len(answer) == 2:
            what = answer[0].decode() if isinstance(answer[0], bytes) else answer[0]
            if what == "gone":
                raise LookupError(assignment.id)
            raise Refused(_refusal(assignment, submission, max_total, what), int(answer[1]))
        submission.attempt = int(answer[0])
        return submission

    def submission(self, aid: str, sid: str) -> Submission | None:
        key = self._key(aid)
        if key is None or not isinstance(sid, str) or not SID_FORM.fullmatch(sid):
            return None
        raw = self.client.hget(key, "s:" + sid)
        return None if raw is None else Submission.from_json(json.loads(raw))

    def put_submission(self, submission: Submission) -> None:
        key = self._key(submission.assignment)
        if key is None or not self.client.exists(key):
            raise LookupError(submission.assignment)
        pipe = self.client.pipeline()
        pipe.hset(key, "s:" + submission.id, json.dumps(submission.to_json()))
        pipe.hincrby(key, "version", 1)
        pipe.execute()

    def submissions(self, aid: str) -> list[Submission]:
        key = self._key(aid)
        if key is None:
            return []
        found = []
        for _name, raw in self.client.hscan_iter(key, match="s:*"):
            with contextlib.suppress(ValueError, KeyError, TypeError):
                found.append(Submission.from_json(json.loads(raw)))
        return sorted(found, key=lambda s: (s.received, s.id))

    def version(self, aid: str) -> int:
        key = self._key(aid)
        return int(self.client.hget(key, "version") or 0) if key else 0

    def ids(self) -> list[str]:
        return sorted(m.decode() if isinstance(m, bytes) else m for m in self.client.smembers(INDEX))


def open_assignment_store(config: Any) -> AssignmentStore:
    """Redis when ``config.redis_url`` is set, else the folder ``assignment_dir`` (None:
    ``$MAZE_ASSIGNMENT_DIR``, else ``var/assignments`` (installed:
    ``DATA_DIR/assignments``); under ``testing`` a new temporary folder)."""
    if config.redis_url:
        from ..redis_link import connect, safe_url

        return RedisAssignments(connect(config.redis_url), f"Redis at {safe_url(config.redis_url)}")
    folder = config.assignment_dir
    if folder is None:
        if config.testing:  # one folder for the test process's apps (ids are random)
            folder = Path(tempfile.gettempdir()) / f"maze-assignments-test-{os.getpid()}"
        else:
            from ..config import DATA_DIR

            folder = Path(os.environ.get("MAZE_ASSIGNMENT_DIR") or DATA_DIR / "assignments")
    return DiskAssignments(Path(folder))
