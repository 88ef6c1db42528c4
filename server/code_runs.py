"""Student mode's recorded runs, kept on the server under an id (docs/PROTOCOL.md, "Student mode").

A run of a student's search can hold a million expansions: its record (the packed ids) travels to the
server in parts (``POST …/code/runs``, at most ``PART_CHARS`` characters each), never as one message
larger than a request or a socket message may be. Once judged, the run is kept for the replay
(``run:<id>`` in the run option ``code``, server/search/algorithms/replay.py) for ``TTL`` seconds.

**Kept in this process's memory** (decided for now): capped in bytes (the oldest go first) and in age.
Behind several server processes, the parts, the verdict and the socket's run must reach the process
that holds the run; one that does not hold it says so in words ("not kept on this server … run your
code again"), never with a wrong run.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from server.puzzles.errors import PuzzleError
from server.search.algorithms.replay import RecordedRun

PART_CHARS = 512 * 1024  # characters of packed ids in one part
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
            raise PuzzleError(f"a part holds at most {PART_CHARS:,} characters, this one {len(text):,}",
                              "field 'text'")
        now = time.monotonic()
        with self._lock:
            self._sweep(now)
            if part == 0:
                run = secrets.token_hex(10)
                self._runs[run] = Upload(owner, puzzle, parts)
            upload = self._runs.get(run or "")
            if upload is None or upload.owner != owner or upload.puzzle != puzzle:
                raise PuzzleError("this run is not kept on this server (it expired, or another process "
                                  "holds it): run your code again", "field 'run'")
            if upload.judged is not None or part != len(upload.texts) or parts != upload.parts:
                raise PuzzleError(f"expected part {len(upload.texts)} of {upload.parts}, got part {part} of "
                                  f"{parts}", "field 'part'")
            upload.texts.append(text)
            upload.used = now
            self._runs.move_to_end(run)
            self._sweep(now)
            return run

    def text(self, run: str, owner: str, puzzle: str) -> str:
        """The whole packed text of an uploaded run; PuzzleError when it is unknown or incomplete."""
        with self._lock:
            upload = self._runs.get(run)
            if upload is None or upload.owner != owner or upload.puzzle != puzzle:
                raise PuzzleError("this run is not kept on this server (it expired, or another process "
                                  "holds it): run your code again", "field 'run'")
            if len(upload.texts) != upload.parts:
                raise PuzzleError(f"the run has {len(upload.texts)} of its {upload.parts} parts",
                                  "field 'run'")
            return "".join(upload.texts)

    def keep(self, run: str | None, owner: str, puzzle: str, judged: RecordedRun) -> str:
        """Keep a judged run for its replay (under ``run``, or a new id); the id. Its parts are dropped."""
        now = time.monotonic()
        with self._lock:
            if run is None or run not in self._runs:
                run = secrets.token_hex(10)
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
            if upload is None or upload.judged is None:
                return None
            upload.used = time.monotonic()
            return upload.judged


RUNS = RecordedRuns()  # this process's: the web layer and the replay share it
