"""Stored puzzles: parsed ones in this process's memory, in front of an archive of their files that
outlives the process (server/archive.py).

What is kept where:

- **Memory** (``PuzzleStore`` itself): parsed puzzles by id, the least recently used dropped first
  past ``Config.store_max_cells`` (the cost each family counts), and at most
  ``Config.max_puzzles_per_client`` per client (a client's upload past it drops its oldest one from
  memory unless another client or the gallery holds it too). Gallery puzzles and puzzles put without
  a ``Source`` live here only.
- **The archive**: every upload, generated and edited puzzle's file (the original bytes, family,
  file name and load options), content-addressed by the same id. ``Config.redis_url`` set: Redis
  (``RedisArchive``, shared by every server on it, capped by ``store_redis_max_bytes``); else files in
  ``Config.store_dir`` (``DiskArchive``, capped by ``store_max_bytes``). Both drop what was unused for
  ``store_max_age_days`` and, past their byte cap, the least recently used first. The per-client cap
  does not apply here: a client's older share links keep working however many puzzles it adds, as
  long as the byte and age caps allow.

A ``get`` that misses memory reads the archive, checks the file hashes to the id asked for (else the
entry is damaged: dropped, a miss), parses it again through the family's ``load`` with the upload
limits and a load slot of the work budget, and keeps the result in memory. The archive failing
(Redis gone, a disk error) never fails a request: a put keeps the puzzle in memory only and logs a
warning, a get answers from memory only; after a failure the archive is left alone for
``ARCHIVE_RETRY`` seconds, then tried again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .archive import ID_PATTERN, DiskArchive, PuzzleArchive, RedisArchive, Source, puzzle_id
from .i18n import t

if TYPE_CHECKING:
    from .budget import WorkBudget
    from .config import Config

__all__ = ["PuzzleStore", "Source", "open_archive", "open_store", "puzzle_id"]

log = logging.getLogger(__name__)

ARCHIVE_RETRY = 5.0  # seconds the store stays in memory only after the archive failed


class PuzzleStore:
    """A thread-safe LRU of parsed puzzles bounded by their total cost (cells, as their family
    counts), and by how many each client keeps: a client's upload past ``per_client`` drops its
    oldest one (unless another client or the gallery holds it too). With an ``archive`` (and a
    ``reload`` that parses a ``Source``), puzzles put with their source are kept there too and a
    memory miss is read back from it (see the module's docstring)."""

    def __init__(self, max_cells: int, per_client: int | None = None, archive: PuzzleArchive | None = None,
                 reload: Callable[[Source], Any] | None = None) -> None:
        self.max_cells = max_cells
        self.per_client = per_client
        self.archive = archive
        self.reload = reload
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._owners: dict[str, set[str]] = {}  # key -> clients holding it (absent: shared, e.g. gallery)
        self._by_client: dict[str, OrderedDict[str, None]] = {}
        self._cells = 0
        self._lock = threading.Lock()
        self._archive_down_until = 0.0

    def put(self, key: str, puzzle: Any, cells: int | None = None, owner: str | None = None,
            source: Source | None = None) -> None:
        """Keep ``puzzle``; ``cells`` is its cost (default: what its family counts); ``owner`` the
        client that uploaded it (None: shared); ``source`` its file, kept in the archive too (its id
        must be ``key``)."""
        if source is not None and source.id != key:
            raise ValueError(f"the source's id {source.id} is not the key {key}")
        if cells is None:
            from .puzzles.registry import family_of

            cells = family_of(puzzle).cost(puzzle)
        with self._lock:
            if key not in self._items:
                self._items[key] = (puzzle, cells)
                self._cells += cells
                if owner is not None:
                    self._owners[key] = set()
            self._items.move_to_end(key)
            if owner is None:
                self._owners.pop(key, None)  # shared from now on
            elif key in self._owners:
                self._own(owner, key)
            while self._cells > self.max_cells and len(self._items) > 1:
                self._drop(next(iter(self._items)))
        if source is not None and self.archive is not None:
            self._archived("put", self.archive.put, key, source)

    def cached(self, key: str) -> Any | None:
        """The puzzle under ``key`` if it is in memory (the archive is not asked)."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def get(self, key: str) -> Any | None:
        """The puzzle under ``key``: from memory, else parsed again from the archive; None if neither
        has it. A puzzle that cannot be parsed again (e.g. the limits have shrunk) is a miss; a
        PuzzleError in words when no load slot frees up in time."""
        puzzle = self.cached(key)
        if puzzle is not None or self.archive is None or self.reload is None or not ID_PATTERN.fullmatch(key):
            return puzzle
        source = self._archived("get", self.archive.get, key)
        if source is None:
            return None
        if source.id != key:
            log.warning("archived puzzle %s does not hash to its id (damaged); removed", key)
            self._archived("drop", self.archive.drop, key)
            return None
        puzzle = self.reload(source)
        if puzzle is not None:
            self.put(key, puzzle)  # shared: no client's cap drops it
        return puzzle

    def source(self, key: str) -> Source | None:
        """The archived file of the puzzle ``key`` and how it was read (None: not archived, or no archive)."""
        if self.archive is None or not ID_PATTERN.fullmatch(key):
            return None
        return self._archived("get", self.archive.get, key)

    def __len__(self) -> int:
        return len(self._items)

    def _archived(self, what: str, method: Callable[..., Any], *args: Any) -> Any:
        """Call the archive; on any failure log a warning, leave it alone for a while, answer None."""
        if time.monotonic() < self._archive_down_until:
            return None
        try:
            return method(*args)
        except Exception as err:  # Redis gone, disk full…: memory carries on
            self._archive_down_until = time.monotonic() + ARCHIVE_RETRY
            where = getattr(self.archive, "where", "the archive")
            log.warning("puzzle store: %s in %s failed (%s); memory only for %g s",
                        what, where, err, ARCHIVE_RETRY)
            return None

    def _own(self, owner: str, key: str) -> None:
        mine = self._by_client.setdefault(owner, OrderedDict())
        mine[key] = None
        mine.move_to_end(key)
        self._owners[key].add(owner)
        while self.per_client is not None and len(mine) > self.per_client:
            old, _ = mine.popitem(last=False)
            holders = self._owners.get(old)
            if holders is not None:
                holders.discard(owner)
                if not holders:
                    self._drop(old)

    def _drop(self, key: str) -> None:
        _, cells = self._items.pop(key)
        self._cells -= cells
        for owner in self._owners.pop(key, ()):
            mine = self._by_client.get(owner)
            if mine is not None:
                mine.pop(key, None)
                if not mine:
                    del self._by_client[owner]


def open_archive(config: Config) -> PuzzleArchive | None:
    """The archive ``config`` asks for: Redis when ``redis_url`` is set (``RedisUnavailable`` in words
    when it does not answer at start), else the folder ``store_dir`` (None: ``MAZE_STORE_DIR`` or
    ``var/puzzles`` in the project (installed: ``DATA_DIR/puzzles``); under ``testing`` no archive unless
    a folder is given)."""
    max_age = config.store_max_age_days * 86400.0
    if config.redis_url:
        from .redis_link import connect, safe_url

        client = connect(config.redis_url)
        where = f"Redis at {safe_url(config.redis_url)}"
        return RedisArchive(client, config.store_redis_max_bytes, max_age, where)
    folder = config.store_dir
    if folder is None and not config.testing:
        from .config import DATA_DIR

        folder = Path(os.environ.get("MAZE_STORE_DIR") or DATA_DIR / "puzzles")
    if folder is None:
        return None
    return DiskArchive(Path(folder), config.store_max_bytes, max_age)


def open_store(config: Config, budget: WorkBudget) -> PuzzleStore:
    """The store of ``config``'s caps and archive; puzzles read back from the archive are parsed like
    an upload (the upload limits, a load slot of ``budget``)."""
    from .budget import ServerBusy
    from .puzzles.errors import PuzzleError
    from .puzzles.family import LoadLimits
    from .puzzles.registry import get_family

    def reload(source: Source) -> Any | None:
        try:
            family = get_family(source.family)
            options = family.load_options(source.options)
            if Source(source.data, family.name, source.filename, options).id != source.id:
                raise PuzzleError(t("store.store.load_options_read_back_differently"))
            limits = LoadLimits(max_pixels=config.max_pixels, max_cells=config.max_pixels)
            with budget.loading(wait=config.solve_wait):
                return family.load(source.data, source.filename, options, limits)
        except ServerBusy as err:  # the socket answers PuzzleErrors in words, HTTP with a 400
            message = t("store.reading_back", err=err)
            raise PuzzleError(message, "puzzle") from err
        except PuzzleError as err:
            log.warning("archived puzzle %s does not load any more: %s", source.id, err)
            return None

    return PuzzleStore(config.store_max_cells, config.max_puzzles_per_client, open_archive(config), reload)
