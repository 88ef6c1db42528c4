"""The puzzle archive: the stored files (the original bytes and what parsing them needs) kept beyond
the server process, so a share link to an upload, a generated or an edited puzzle outlives a restart
and any server sharing the archive can load it. ``PuzzleStore`` (server/store.py) keeps the parsed
puzzles in memory in front of it.

Two kinds, one interface (``PuzzleArchive``): ``DiskArchive`` (files in ``Config.store_dir``, the
default) and ``RedisArchive`` (keys in ``Config.redis_url``'s Redis, shared by several servers). Both
are content-addressed by the puzzle id (``puzzle_id``), capped in bytes and in age (since last use),
the least recently used dropped first. A damaged entry is dropped and reads as missing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .safe_paths import HEX20, BadKey, key_path

log = logging.getLogger(__name__)

ID_PATTERN = HEX20  # what ``puzzle_id`` makes; nothing else is looked up (safe_paths checks it)
FAN_OUT = re.compile(r"[0-9a-f]{2}")  # the folders of ``DiskArchive``: an id's first two digits
DISK_MAGIC = b"maze-puzzle 1\n"  # a disk file: this line, the metadata as one JSON line, the bytes


def puzzle_id(data: bytes, family: str | None) -> str:
    """The id of a file read by ``family``: 20 hex digits of a hash of both (the same on any server)."""
    return hashlib.sha256((family or "").encode() + b"\0" + data).hexdigest()[:20]


@dataclass(frozen=True)
class Source:
    """A stored puzzle's file and how to parse it again: ``registry`` family name, the file name (the
    puzzle's name comes from it) and the validated load options (JSON values)."""

    data: bytes = field(repr=False)
    family: str
    filename: str
    options: dict[str, Any]

    @property
    def id(self) -> str:
        """The puzzle's id: a hash of the bytes, the family and the load options."""
        return puzzle_id(self.data, f"{self.family}|{sorted(self.options.items())}")

    def meta(self) -> bytes:
        """Everything but the bytes, as one line of JSON."""
        meta = {"family": self.family, "filename": self.filename, "options": self.options}
        return json.dumps({**meta, "size": len(self.data)}, separators=(",", ":")).encode()

    @classmethod
    def from_parts(cls, meta: bytes, data: bytes) -> Source:
        """The inverse of ``meta`` plus the bytes; ValueError (or KeyError, TypeError) when damaged."""
        fields = json.loads(meta)
        if not isinstance(fields, dict) or fields["size"] != len(data):
            raise ValueError("damaged puzzle metadata")
        if not isinstance(fields["options"], dict):
            raise ValueError("damaged puzzle metadata")
        return cls(data, str(fields["family"]), str(fields["filename"]), fields["options"])

    @property
    def size(self) -> int:
        return len(self.data) + len(self.meta())


class PuzzleArchive(Protocol):
    """Where stored files outlive the process. Methods may raise OSError or a Redis error when the
    archive cannot be reached; ``PuzzleStore`` then carries on in memory."""

    where: str  # for logs and messages

    def put(self, key: str, source: Source) -> None:
        """Keep ``source`` under ``key`` (``source.id``); an existing entry is only marked as used."""

    def get(self, key: str) -> Source | None:
        """The entry under ``key`` (marked as used), or None when missing, expired or damaged."""

    def drop(self, key: str) -> None:
        """Forget ``key`` (e.g. its entry did not parse back to the same id)."""


# ---- files on disk ----------------------------------------------------------------------------------
class DiskArchive:
    """One file a puzzle, ``<root>/<id[:2]>/<id>``, written to a temporary file and renamed into place
    (a crash leaves no half file under an id). A file's modification time is its last use (touched on
    every put and read). Capped in bytes (all files together) and in age: a read of an expired file
    removes it; a sweep (at start, when this process's estimate passes the cap, and every
    ``sweep_every`` seconds on a put, which also covers other processes sharing the folder) removes
    expired files, then the least recently used until the total fits."""

    def __init__(self, root: Path, max_bytes: int, max_age: float, sweep_every: float = 600.0) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.sweep_every = sweep_every
        self.where = f"folder {self.root}"
        self._lock = threading.Lock()
        self._estimate = 0  # bytes on disk as far as this process knows (exact after a sweep)
        self._swept = 0.0
        self.root.mkdir(parents=True, exist_ok=True)
        self.sweep()

    def path(self, key: str) -> Path:
        """``<root>/<id[:2]>/<id>`` for a puzzle id (``ID_PATTERN``) whose file stays in the folder (a
        link planted there cannot lead out); else ``safe_paths.BadKey``, a LookupError."""
        return key_path(self.root, key, ID_PATTERN, key[:2], what="puzzle")

    def put(self, key: str, source: Source) -> None:
        path = self.path(key)
        size = len(DISK_MAGIC) + source.size + 1
        if size > self.max_bytes:
            log.warning("puzzle %s (%d bytes) is past the archive's cap; kept in memory only", key, size)
            return
        try:
            os.utime(path)  # there already: only its use counts
            return
        except FileNotFoundError:
            pass
        path.parent.mkdir(exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(DISK_MAGIC + source.meta() + b"\n")
                out.write(source.data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, path)  # atomic: readers see the old file, none, or the whole new one
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        with self._lock:
            self._estimate += size
            due = self._estimate > self.max_bytes or time.monotonic() - self._swept > self.sweep_every
        if due:
            self.sweep()

    def get(self, key: str) -> Source | None:
        try:
            path = self.path(key)
        except BadKey:
            return None  # not a puzzle id, or a link out of the folder: never read
        try:
            if not path.is_file() or path.is_symlink():
                return None
            if time.time() - path.stat().st_mtime > self.max_age:
                self._remove(path)
                return None
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            if not raw.startswith(DISK_MAGIC):
                raise ValueError("not an archived puzzle")
            meta, _, data = raw[len(DISK_MAGIC):].partition(b"\n")
            source = Source.from_parts(meta, data)
        except (ValueError, KeyError, TypeError) as err:
            log.warning("archived puzzle %s is damaged (%s); removed", key, err)
            self._remove(path)
            return None
        with contextlib.suppress(FileNotFoundError):  # swept meanwhile: still served this time
            os.utime(path, follow_symlinks=False)
        return source

    def drop(self, key: str) -> None:
        with contextlib.suppress(BadKey):
            self._remove(self.path(key))

    def sweep(self) -> None:
        """Remove expired files and stale temporary files, then the least recently used past the cap."""
        with self._lock:
            now = time.time()
            files: list[tuple[float, int, Path]] = []
            for folder in self.root.iterdir():
                if not FAN_OUT.fullmatch(folder.name) or folder.is_symlink() or not folder.is_dir():
                    continue  # not of this archive's making: never followed, nothing in it removed
                for entry in os.scandir(folder):
                    named = entry.name.startswith(".tmp-") or ID_PATTERN.fullmatch(entry.name)
                    if not named or not entry.is_file(follow_symlinks=False):
                        continue
                    try:
                        stat = entry.stat(follow_symlinks=False)
                    except FileNotFoundError:
                        continue
                    path = Path(entry.path)
                    if entry.name.startswith(".tmp-"):
                        if now - stat.st_mtime > 3600:  # left by a crash
                            self._remove(path)
                    elif now - stat.st_mtime > self.max_age:
                        self._remove(path)
                    else:
                        files.append((stat.st_mtime, stat.st_size, path))
            total = sum(size for _, size, _ in files)
            files.sort()
            for _, size, path in files:
                if total <= self.max_bytes:
                    break
                self._remove(path)
                total -= size
            self._estimate, self._swept = total, time.monotonic()

    def _remove(self, path: Path) -> None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


# ---- Redis ----------------------------------------------------------------------------------------
PREFIX = "maze:puzzle:"  # + id: a hash {meta, data}, expiring after the age cap, refreshed on use
USED = "maze:puzzles:used"  # sorted set: id -> time of last use (seconds)
SIZES = "maze:puzzles:sizes"  # hash: id -> bytes it holds
TOTAL = "maze:puzzles:bytes"  # the sum of SIZES

_LUA_DROP = """
local function drop(id)
  local size = redis.call('HGET', KEYS[2], id)
  if size then
    redis.call('DECRBY', KEYS[3], tonumber(size))
    redis.call('HDEL', KEYS[2], id)
  end
  redis.call('ZREM', KEYS[1], id)
  redis.call('DEL', ARGV[1] .. id)
end
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) + tonumber(t[2]) / 1e6
end
"""

# KEYS: USED, SIZES, TOTAL; ARGV: prefix, id, ttl, max bytes, size, meta, data
_LUA_PUT = _LUA_DROP + """
local id, ttl, cap, size = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local key, t = ARGV[1] .. id, now()
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t - ttl, 'LIMIT', 0, 1000)) do drop(old) end
if redis.call('EXISTS', key) == 0 then
  drop(id)
  redis.call('HSET', key, 'meta', ARGV[6], 'data', ARGV[7])
  redis.call('HSET', KEYS[2], id, size)
  redis.call('INCRBY', KEYS[3], size)
end
redis.call('EXPIRE', key, ttl)
redis.call('ZADD', KEYS[1], t, id)
local dropped = 0
while tonumber(redis.call('GET', KEYS[3]) or '0') > cap do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0)
  if #oldest == 0 or oldest[1] == id then break end
  drop(oldest[1])
  dropped = dropped + 1
end
return dropped
"""

# KEYS: USED, SIZES, TOTAL; ARGV: prefix, id, ttl
_LUA_GET = _LUA_DROP + """
local id, ttl = ARGV[2], tonumber(ARGV[3])
local key = ARGV[1] .. id
local found = redis.call('HMGET', key, 'meta', 'data')
if not found[1] or not found[2] then
  drop(id)  -- expired or evicted: forget its size too
  return false
end
redis.call('EXPIRE', key, ttl)
redis.call('ZADD', KEYS[1], 'XX', now(), id)
return found
"""

# KEYS: USED, SIZES, TOTAL; ARGV: prefix, id
_LUA_FORGET = _LUA_DROP + "drop(ARGV[2])\nreturn 1\n"


class RedisArchive:
    """Keys in Redis, shared by every server using it: ``maze:puzzle:<id>`` (a hash of ``meta``, the
    JSON metadata, and ``data``, the file's bytes) expiring ``max_age`` seconds after its last use
    (refreshed on every read); ``maze:puzzles:used`` (ids by last use), ``maze:puzzles:sizes`` and
    ``maze:puzzles:bytes`` account for the bytes held, which a put keeps under ``max_bytes`` by
    dropping the least recently used (each step one Lua script, atomic across servers)."""

    def __init__(self, client: Any, max_bytes: int, max_age: float, where: str = "Redis") -> None:
        self.client = client
        self.max_bytes = max_bytes
        self.ttl = max(1, int(max_age))
        self.where = where
        self._put = client.register_script(_LUA_PUT)
        self._get = client.register_script(_LUA_GET)
        self._forget = client.register_script(_LUA_FORGET)

    def put(self, key: str, source: Source) -> None:
        meta = source.meta()
        size = len(meta) + len(source.data)
        if size > self.max_bytes:
            log.warning("puzzle %s (%d bytes) is past the Redis store's cap; kept in memory only", key, size)
            return
        dropped = self._put(keys=[USED, SIZES, TOTAL],
                            args=[PREFIX, key, self.ttl, self.max_bytes, size, meta, source.data])
        if dropped:
            log.info("Redis puzzle store: %d least recently used puzzle(s) dropped to stay under %d bytes",
                     dropped, self.max_bytes)

    def get(self, key: str) -> Source | None:
        if not ID_PATTERN.fullmatch(key):
            return None
        found = self._get(keys=[USED, SIZES, TOTAL], args=[PREFIX, key, self.ttl])
        if not found:
            return None
        try:
            return Source.from_parts(found[0], found[1])
        except (ValueError, KeyError, TypeError) as err:
            log.warning("puzzle %s in Redis is damaged (%s); removed", key, err)
            self.drop(key)
            return None

    def drop(self, key: str) -> None:
        if ID_PATTERN.fullmatch(key):
            self._forget(keys=[USED, SIZES, TOTAL], args=[PREFIX, key])
