"""Server settings in one object; tests and the CLI override fields with ``create_app(config)``.
Every limit the server enforces is here (the README's "Limits" section lists them)."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .i18n import t

# Where things are. In a checkout the package is ``server/`` and static/, templates/, mazes/ and var/ sit
# beside it; in an installed wheel the package is ``mazeviz/`` (site-packages) with static/, templates/ and
# mazes/ inside it, and what the server writes goes to a folder of the user's (never into site-packages).
PACKAGE_DIR = Path(__file__).resolve().parent
ROOT = PACKAGE_DIR.parent
INSTALLED = (PACKAGE_DIR / "static").is_dir()  # a wheel's layout (pyproject.toml, setup.py)
ASSETS = PACKAGE_DIR if INSTALLED else ROOT  # the folder holding static/, templates/, mazes/


def _data_dir() -> Path:
    """``var/`` in a checkout; installed, ``$MAZEVIZ_HOME``, else ``$XDG_CACHE_HOME/mazeviz``, else
    ``~/.cache/mazeviz``."""
    if not INSTALLED:
        return ROOT / "var"
    if os.environ.get("MAZEVIZ_HOME"):
        return Path(os.environ["MAZEVIZ_HOME"]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "mazeviz"


DATA_DIR = _data_dir()  # where var/ things go: puzzles, tiles, assignments, pattern databases


def _numba_cache_outside_the_package() -> None:
    """Installed, numba's on-disk cache of the compiled kernels (``cache=True``) goes to DATA_DIR/numba
    (``NUMBA_CACHE_DIR``, unless set) instead of beside the kernels' sources in site-packages."""
    if not INSTALLED or os.environ.get("NUMBA_CACHE_DIR"):
        return
    os.environ["NUMBA_CACHE_DIR"] = str(DATA_DIR / "numba")
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba read its settings already: once more, for kernels not yet made
        numba_config.reload_config()


_numba_cache_outside_the_package()


def _secret_key() -> str:
    """From ``MAZE_SECRET_KEY``; else random per process (sessions then last as long as the process)."""
    return os.environ.get("MAZE_SECRET_KEY") or secrets.token_hex(32)


# A frame's size. With a message queue (Redis) every emit passes through Redis pub/sub, base64-encoded
# (4/3 the bytes), and Redis drops a subscriber whose output buffer passes 32 MB: one 33 MB message
# silently stopped a python-socketio server (python-socketio #1581). A frame (``frame_records`` records of
# 9 bytes: kind, cell, value) stays far below that; snapshots riding with the expanded states of the
# families that draw their own (a few dozen to a few hundred bytes each) add to it.
FRAME_RECORD_BYTES = 1 + 4 + 4
MAX_FRAME_BYTES = 4 * 1024 * 1024  # encoded, records only: an eighth of Redis's limit
MAX_FRAME_RECORDS = MAX_FRAME_BYTES * 3 // (4 * FRAME_RECORD_BYTES)  # 349,525


# Bytes of work memory a pixel of ``max_pixels`` brings (``Config.work_bytes``): reading a colour image
# takes ~5 a pixel, a compiled BFS over its cells 5, a tile run 4; one client holds 3/4 of the budget.
PIXEL_WORK_BYTES = 8
# How long the quick search for an optimum beside a non-optimal answer may run (server/judging.py);
# a family that estimates a search's memory counts that search too.
OPTIMUM_SECONDS = 1.0


@dataclass
class Config:
    # Uploads
    max_upload_bytes: int = 64 * 1024 * 1024
    # A JSON body of the API (a solve, a lab or code request, the upload's JSON form; not a file): refused
    # with 413 before it is parsed (8 MB of JSON can be 190 MB of Python objects, 64 MB 1.5 GB). Above the
    # largest field a body carries (a solution of max_solution_bytes, escaped; a verdict's 150,000 ids),
    # so a field's own limit speaks first. An edit may carry a whole board: 8 MB (web/making.py).
    max_json_bytes: int = 4 * 1024 * 1024
    max_pixels: int = 50_000_000  # anonymous uploads (also cells of a text grid); `serve --max-pixels`
    # Searches: every entry point (socket, HTTP solve, solution image) shares one budget
    max_expanded: int = 50_000_000  # compiled searches (a family's fast path)
    max_expanded_generic: int = 2_000_000  # pure-Python searches
    max_stored_generic: int = 500_000  # states a pure-Python search may hold (~100 MB on a 12 x 12 board)
    max_seconds: float = 120.0
    max_concurrent_runs: int = 4  # searches computing at once on this server; more wait their turn
    solve_wait: float = 20.0  # an HTTP solve or upload waits this long for a free slot, then gets a 503
    max_concurrent_loads: int = 2  # uploads parsed at once (a 50 M-pixel image takes ~0.2 GB briefly)
    # Streaming
    frame_records: int = 32_768  # records per frame (~300 KB of binary); at most MAX_FRAME_RECORDS
    frame_window: int = 4  # frames sent beyond the highest acknowledged one
    ack_timeout: float = 30.0  # a client that acknowledges nothing new for this long loses the run
    stream_timeout: float = 600.0  # a whole stream, however steadily acknowledged
    # The work budget (server/budget.py): the memory every kind of work holds at once — traces held for
    # streaming, searches, uploads being read, the lab — each reserved before it starts; one client
    # holds at most 3/4 of it. 1 GiB: a 50 M-pixel colour image is read (~0.4 GB) by one client while
    # another still gets a quarter.
    trace_budget_bytes: int = 1024 * 1024 * 1024
    # Per client (one browser; each cap also holds per IP address, `clients_per_ip` times looser)
    max_runs_per_client: int = 4  # runs at once, one per slot (a comparison shows up to four)
    uploads_per_minute: int = 30
    runs_per_minute: int = 60  # socket runs and HTTP solves together
    # The editor: each change of a board is a new puzzle, re-solved at once while the pointer moves
    # (one request in flight per client, so this rate is reached only by a drag of over a minute).
    edits_per_minute: int = 1800
    resolves_per_minute: int = 1800  # runs started with "instant": true (the editor's re-solves)
    max_puzzles_per_client: int = 20  # puzzles a client keeps in the store; older ones are dropped
    clients_per_ip: int = 40
    # With `redis_url` (server/clients.py): work at once (runs, GIF exports) is counted across server
    # processes by leases that the owner renews every third of this; a dead process's leases expire
    # after it (and its exports' progress, so a poller learns the export is gone).
    redis_lease_seconds: float = 30.0
    max_id_length: int = 64  # run ids, slots, puzzle ids, algorithm names
    # The teacher's lab (server/web/lab.py): a heuristic judged over every reachable state, a solution
    # checked against the optimum; each takes a compute slot like a search, and its memory from the budget
    lab_max_states: int = 1_000_000  # states a pure-Python walk holds (a grid judges every cell it loaded)
    lab_max_seconds: float = 30.0  # a walk stops here and says so
    lab_heat_cells: int = 4_000_000  # boards up to this many cells get a heat map; larger: the verdict only
    labs_per_minute: int = 30  # heuristic judgements per client
    checks_per_minute: int = 30  # solution checks per client
    max_solution_bytes: int = 1024 * 1024  # a pasted or dropped solution
    # Student mode (docs/STUDENT.md): the space a student's own search runs over in the page.
    code_max_states: int = 200_000  # states walked and sent (~12 MB of JSON at most)
    code_max_seconds: float = 20.0  # the walk and the verdict's own search, each
    code_runs_per_minute: int = 30  # spaces and verdicts per client
    code_max_animated: int = 150_000  # a student's expansions replayed on the board (the verdict covers all)
    code_steps: int = 150_000  # calls of successors a program may make by default: at least this, and
    # enough for every state of the puzzle where it is known (an 8-puzzle: 181,440), up to code_max_steps
    code_max_steps: int = 1_000_000  # the most a student may choose in the panel
    # Animated GIFs of a search (server/exporting.py): each is a search under the limits above
    animation_max_frames: int = 120
    animation_max_side: int = 640  # pixels on the longer side
    animation_seconds: float = 8.0  # about how long a GIF plays (frame delays of 20 to 800 ms)
    animation_hold_seconds: float = 1.5  # the last frame (the path) stays this long
    animation_max_bytes: int = 16 * 1024 * 1024  # one GIF; a bigger one is refused
    animation_store_bytes: int = 64 * 1024 * 1024  # finished GIFs kept, all together
    animation_store_count: int = 32  # finished (or failed) exports kept; the oldest go first
    animation_ttl: float = 600.0  # seconds a finished GIF stays downloadable
    animation_wait: float = 120.0  # an export waits this long for memory and a worker, then fails
    animations_per_minute: int = 10  # per client
    max_animations_per_client: int = 2  # queued or rendering at once
    max_animation_jobs: int = 8  # queued or rendering at once, all clients (503 past it)
    # Puzzle store (server/store.py): parsed puzzles in memory (least recently used dropped first), in
    # front of an archive of every upload's, generated and edited puzzle's file that outlives a restart:
    # Redis when `redis_url` is set, else files in `store_dir`. Each archive drops what was unused for
    # `store_max_age_days` and, past its byte cap, the least recently used first.
    store_max_cells: int = 400_000_000
    # None: $MAZE_STORE_DIR, else var/puzzles in the project (gitignored); under `testing` None keeps
    # puzzles in memory only (tests give a folder of their own).
    store_dir: Path | None = None
    store_max_bytes: int = 2 * 1024**3  # the files in store_dir, all together
    store_max_age_days: float = 30.0  # an archived puzzle unused (not stored or read) this long is dropped
    store_redis_max_bytes: int = 512 * 1024**2  # puzzles' bytes held in Redis, enforced by the store itself
    # Huge boards (README "Huge mazes"): a board of more cells than `tile_min_cells` is drawn in the page as
    # server-rendered tiles, and a run keeps each cell's expansion number in a file of `tile_dir` (any
    # process draws any step from it; with several hosts the folder must be shared) instead of streaming
    # records. Finished runs are kept up to `tile_store_bytes`, the least recently used dropped first.
    tile_min_cells: int = 20_000_000
    tile_dir: Path | None = None  # None: $MAZE_TILE_DIR, else var/tiles (under `testing`: a temporary folder)
    tile_store_bytes: int = 8 * 1024**3
    # Tile images per client: a page playing a run zoomed in asks a few hundred a second (each step's
    # visible tiles, at most 6 in flight), so this only stops a runaway script; what bounds the work is
    # `tile_renders_at_once`, tiles drawn at once in a process (others wait, then get a 503 to retry).
    tiles_per_minute: int = 60_000
    tile_renders_at_once: int = 2
    mazes_dir: Path = field(default_factory=lambda: ASSETS / "mazes")
    engine: str = "auto"  # "generic" runs the pure-Python algorithms even where a fast path exists
    testing: bool = False
    secret_key: str = field(default_factory=_secret_key)
    # engine.io keeps one thread per connection asleep for a ping interval, and a closed tab's thread
    # lingers until it wakes: a short interval frees it within a second (a ping is a few bytes).
    socket_ping_interval: float = 1.0
    # Proxies in front of the server whose X-Forwarded-For/-Proto/-Host headers are trusted (nginx: 1):
    # the per-IP limits then count the browser's address, not the proxy's. 0: no proxy, headers ignored.
    trusted_proxies: int = 0
    # The origins Socket.IO accepts; None: the server's own origin only.
    socket_origins: list[str] | None = None
    # msgpack sends a binary frame as one WebSocket message; Flask-SocketIO's test client only speaks
    # the default serializer, so the live-layer tests use "default".
    serializer: str = "msgpack"
    message_queue: str | None = None  # e.g. redis://…, to run several servers (see docs)
    # Redis (``serve --redis URL`` or MAZE_REDIS_URL): several server processes share the puzzle store,
    # the per-client limits, GIF export jobs and Socket.IO's messages through it; None: this process alone.
    redis_url: str | None = None
    # Assignments (server/assignments/): a teacher's exercise, the class's submissions, their grading.
    # Kept on disk in `assignment_dir` (None: $MAZE_ASSIGNMENT_DIR, else var/assignments; under `testing`
    # a temporary folder unless one is given), or in Redis with `redis_url`.
    assignment_dir: Path | None = None
    assignment_retention_days: int = 180  # deleted this long after its deadline (else its creation)
    graders: int = 1  # grader threads per server process (0: none; `run.py grader --redis URL` grades)
    assignments_per_hour: int = 30  # assignments a client may create
    submissions_per_minute: int = 10  # submissions per client
    max_submissions_per_assignment: int = 5000  # all students and tasks together
    max_code_bytes: int = 256 * 1024  # a code task's program
    grading_visibility_seconds: float = 15.0  # a job unrenewed this long (its grader died) is taken again
    grading_hold_seconds: float = 0.0  # tests and benchmarks only: a grader holds each job this long first
    # Grading sandbox (server/sandbox.py): what one student's program may use while it is graded
    sandbox_memory_bytes: int = 512 * 1024**2  # address space of each process inside (MemoryError past it)
    sandbox_seconds: float = 5.0  # wall clock per program (CPU seconds: the same, rounded up)
    sandbox_output_bytes: int = 32 * 1024**2  # what it writes, the harness's answer included

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Config:
        """A Config with every ``MAZE_<FIELD>`` of the environment applied (``MAZE_MAX_CONCURRENT_RUNS=8``,
        ``MAZE_CLIENTS_PER_IP=200``): how a deployment (systemd, docker) raises a limit without code.
        ``overrides`` (the CLI's flags) win. A value that does not parse as its field's type, or a
        ``MAZE_`` name that is no field, raises ValueError naming it."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        known = {f.name: f for f in fields(cls)}
        for name, text in environ.items():
            if not name.startswith("MAZE_") or name in _NOT_FIELDS:
                continue
            field_name = name[len("MAZE_"):].lower()
            if field_name not in known or field_name in _NOT_FROM_ENV:
                raise ValueError(f"{name} is not a setting (see server/config.py for the names)")
            values[field_name] = _parse(name, text, known[field_name].type)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def __post_init__(self) -> None:
        """Refuse a ``frame_records`` whose frames could pass ``MAX_FRAME_BYTES`` (see above)."""
        if not 1 <= self.frame_records <= MAX_FRAME_RECORDS:
            raise ValueError(
                f"frame_records={self.frame_records} is out of range: 1 to {MAX_FRAME_RECORDS:,} (a frame of "
                f"{FRAME_RECORD_BYTES} bytes a record must stay below {MAX_FRAME_BYTES // 2**20} MB)"
            )

    def work_bytes(self) -> int:
        """What a work budget must be to read and search (compiled BFS) an image of ``max_pixels``:
        ``PIXEL_WORK_BYTES`` a pixel, or ``trace_budget_bytes`` if larger. ``serve --max-pixels``
        raises the budget to it unless MAZE_TRACE_BUDGET_BYTES says otherwise."""
        return max(self.trace_budget_bytes, self.max_pixels * PIXEL_WORK_BYTES)

    def expansion_limit(self, compiled: bool) -> int:
        """Compiled searches (a family's fast path) get the big limit, and at least ``max_pixels``:
        a server that accepts an image of N pixels lets a compiled search expand every one of its
        cells (a grid's states are its cells, diagonal moves or not), so ``serve --max-pixels``
        raises both. Pure Python is ~100 x slower: ``max_expanded_generic`` alone."""
        return max(self.max_expanded, self.max_pixels) if compiled else self.max_expanded_generic

    def expansion_setting(self, compiled: bool) -> str:
        """What raises ``expansion_limit`` (said after a search's "limit: more than N states expanded")."""
        if not compiled:
            return t("solve.setting.expanded_generic")
        return t("solve.setting.expanded_compiled")

    def search_limits(self, compiled: bool) -> dict[str, Any]:
        """The limits of one search (keyword arguments of ``solving.solve``)."""
        return {
            "max_expanded": self.expansion_limit(compiled),
            "max_seconds": self.max_seconds,
            "max_stored": None if compiled else self.max_stored_generic,
            "expanded_setting": self.expansion_setting(compiled),
        }


# MAZE_ variables that are read elsewhere (not Config fields), and fields no environment should set.
_NOT_FIELDS = {"MAZE_E2E_URL", "MAZE_SECRET_KEY", "MAZE_REDIS_URL", "MAZE_STORE_DIR", "MAZE_TILE_DIR"}
_NOT_FROM_ENV = {"testing", "secret_key", "serializer", "engine"}


def _parse(name: str, text: str, kind: Any) -> Any:
    """``text`` as a value of the field type ``kind`` (given as the annotation's text)."""
    kind = str(kind)
    try:
        if kind.startswith("bool"):
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(text)
        if kind.startswith("int"):
            return int(text.replace("_", ""))
        if kind.startswith("float"):
            return float(text)
        if kind.startswith("Path"):
            return Path(text)
        if kind.startswith("list"):
            return [part.strip() for part in text.split(",") if part.strip()]
        return text  # str, str | None
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a valid {kind}") from None
