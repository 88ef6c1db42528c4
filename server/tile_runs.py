"""Runs on huge boards, kept on disk for their tiles (a family's ``tiles``: ``Tiles.run``, ``Tiles.draw``).

A board of more than ``Config.tile_min_cells`` cells is not streamed record by record: its run
writes per-cell arrays into a folder of ``Config.tile_dir`` (the grid family: each cell's
expansion number), and the page asks for tiles of any step, which any server process draws from
those files. A run is named by a hash of the puzzle's id, the algorithm and its options (searches
are deterministic), so the same run asked again, by anyone, is found instead of computed.

A folder is made under a temporary name and renamed when complete, so a half-written run is never
read, and two processes computing the same run at once both end with the one folder. Folders are
dropped least recently used first past ``tile_store_bytes`` (a use touches ``meta.json``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .budget import ServerBusy, TooBig, WorkBudget
from .config import DATA_DIR, Config
from .i18n import t
from .paid_work import paid_work
from .puzzles.family import RunControl
from .puzzles.options import Values
from .puzzles.registry import family_of
from .safe_paths import HEX32, key_path
from .search.control import CancelFlag, deadline
from .solving import name_the_setting

META = "meta.json"
OPEN_RUNS = 8  # runs whose arrays a process keeps mapped
OWNER_SHARE = 4  # one client keeps at most this fraction (1/4) of the store's bytes in runs
IN_USE_SECONDS = 900.0  # a run shown or played (its meta touched) this recently is never dropped


def tile_dir(config: Config) -> Path:
    """Where runs are kept: the setting, else $MAZE_TILE_DIR, else var/tiles (installed: DATA_DIR/tiles;
    tests: a temp folder)."""
    if config.tile_dir is not None:
        return Path(config.tile_dir)
    if os.environ.get("MAZE_TILE_DIR"):
        return Path(os.environ["MAZE_TILE_DIR"])
    if config.testing:
        return Path(tempfile.mkdtemp(prefix="maze-tiles-"))
    return DATA_DIR / "tiles"


def run_key(puzzle_id: str, algorithm: str, options: dict[str, Any]) -> str:
    """The name of a run: the same puzzle, algorithm and options give the same run."""
    text = json.dumps([puzzle_id, algorithm, options], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class TileRuns:
    """The folder of finished runs, and the runs this process has open."""

    def __init__(self, root: Path, max_bytes: int) -> None:
        self.root = root
        self.max_bytes = max_bytes
        self._open: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def folder(self, key: str) -> Path:
        """The run's folder: ``key`` must be a run key (32 hex digits, ``run_key``) whose folder stays
        in the store (a link planted there cannot lead out); else ``BadKey``, a LookupError."""
        return key_path(self.root, key, HEX32, what="run")

    def meta(self, key: str) -> dict[str, Any] | None:
        """A finished run's meta (touched: recently used), or None; BadKey for a key that is not one."""
        path = self.folder(key) / META
        try:
            if path.is_symlink():
                return None  # not of this store's making: never read or touched
            meta = json.loads(path.read_text())
            os.utime(path, follow_symlinks=False)
        except (OSError, ValueError):
            return None
        return meta

    def produce(
        self, key: str, make: Callable[[Path], dict[str, Any]], size: int = 0, owner: str | None = None,
    ) -> dict[str, Any]:
        """The run ``key``: found, or made by ``make(folder)`` (which fills the folder and returns the
        meta) and kept for ``owner`` (room made first: ``make_room``). An error in ``make`` leaves
        nothing behind. BadKey for a key that is not one."""
        folder = self.folder(key)
        found = self.meta(key)
        if found is not None:
            return found
        self.root.mkdir(parents=True, exist_ok=True)
        self.make_room(size, owner)
        work = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=self.root))
        try:
            meta = make(work)
            meta["key"] = key
            meta["owner"] = owner_tag(owner)
            (work / META).write_text(json.dumps(meta))
            try:
                work.rename(folder)
            except OSError:  # another process finished the same run first: keep theirs
                shutil.rmtree(work, ignore_errors=True)
                return self.meta(key) or meta
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        self.evict(reserve=0)
        return meta

    def make_room(self, size: int, owner: str | None) -> None:
        """Room for a new run of ``size`` bytes of ``owner``: its own least recently used runs go first
        past its share (``max_bytes // OWNER_SHARE``), then anyone's idle ones past the cap; runs in use
        (shown or played within ``IN_USE_SECONDS``) are never dropped. TooBig when the run alone is over
        the share; ServerBusy when the runs in use leave no room now."""
        share = self.max_bytes // OWNER_SHARE
        if owner is not None and size > share:
            raise TooBig(t("solve.tile_runs.this_run_s_tiles_take", value=format(size / 1e6, ',.0f'),
                           value2=format(share / 1e6, ',.0f'), OWNER_SHARE=OWNER_SHARE))
        if owner is not None:
            tag = owner_tag(owner)
            mine = sum(run.size for run in self._runs() if run.owner == tag)
            if mine + size > share:
                self._drop_until(lambda run: run.owner == tag, mine + size - share)
        if not self.evict(reserve=size):
            raise ServerBusy(t("solve.tile_runs.server_s_tile_store_full"))

    def opened(self, key: str, load: Callable[[Path, dict[str, Any]], Any]) -> Any | None:
        """The run's arrays as ``load(folder, meta)`` reads them, kept for the next tile; None if gone.
        BadKey for a key that is not one."""
        folder = self.folder(key)
        with self._lock:
            held = self._open.get(key)
            if held is not None:
                self._open.move_to_end(key)
                return held
        meta = self.meta(key)
        if meta is None:
            return None
        try:
            loaded = load(folder, meta)
        except (OSError, ValueError, KeyError):
            return None  # dropped (or being dropped) meanwhile
        with self._lock:
            self._open[key] = loaded
            while len(self._open) > OPEN_RUNS:
                self._open.popitem(last=False)
        return loaded

    def evict(self, reserve: int) -> bool:
        """Drop the least recently used idle runs until they and ``reserve`` more bytes fit the cap;
        False when the runs in use leave no room."""
        runs = self._runs()
        over = sum(run.size for run in runs) + reserve - self.max_bytes
        return over <= 0 or self._drop_until(lambda run: True, over, runs)

    def _drop_until(self, which: Callable[[_Kept], bool], over: int, runs: list[_Kept] | None = None) -> bool:
        """Drop idle runs ``which`` selects, least recently used first, until ``over`` bytes are gone."""
        now = time.time()
        for run in sorted(runs if runs is not None else self._runs(), key=lambda r: r.used):
            if over <= 0:
                break
            if not which(run) or now - run.used < IN_USE_SECONDS:
                continue
            with self._lock:
                self._open.pop(run.folder.name, None)
            shutil.rmtree(run.folder, ignore_errors=True)
            over -= run.size
        return over <= 0

    def _runs(self) -> list[_Kept]:
        """The finished runs in the folder (a crashed process's half-made ones are swept meanwhile)."""
        if not self.root.exists():
            return []
        runs = []
        for folder in self.root.iterdir():
            if folder.is_symlink() or not folder.is_dir():
                continue  # not a run of this store's making: never followed, never removed
            meta = folder / META
            if not HEX32.fullmatch(folder.name) or meta.is_symlink() or not meta.is_file():
                if folder.name.startswith(".") and time.time() - folder.stat().st_mtime > 3600:
                    shutil.rmtree(folder, ignore_errors=True)  # a crashed process's half-made run
                continue
            size = sum(f.lstat().st_size for f in folder.iterdir() if not f.is_symlink() and f.is_file())
            try:
                owner = json.loads(meta.read_text()).get("owner")
            except (OSError, ValueError, AttributeError):
                owner = None
            runs.append(_Kept(folder, size, meta.stat().st_mtime, owner))
        return runs


@dataclass(frozen=True)
class _Kept:
    folder: Path
    size: int
    used: float  # its meta's mtime: touched by every use
    owner: str | None  # ``owner_tag`` of the client that made it


def owner_tag(owner: str | None) -> str | None:
    """How a run's maker is kept in its meta: a hash, not the client's id or address."""
    return None if owner is None else hashlib.sha256(owner.encode()).hexdigest()[:16]


def page_summary(meta: dict[str, Any]) -> dict[str, Any]:
    """What the page is told of a finished run (``run_done``'s ``tiles``): its key, steps and sampling."""
    keys = ("key", "width", "height", "tile", "levels", "expanded", "steps", "sample_every", "samples")
    return {k: meta[k] for k in keys if k in meta}


def budgeted_tile_run(
    runs: TileRuns,
    budget: WorkBudget,
    config: Config,
    puzzle: Any,
    puzzle_id: str,
    algorithm: str,
    options: Values,
    cancel: CancelFlag,
    on_wait: Callable[[str], None] | None = None,
    on_search: Callable[[int], None] | None = None,
    owner: str | None = None,
) -> dict[str, Any]:
    """The run of ``puzzle`` (stored under ``puzzle_id``): kept from before, or searched now as
    ``paid_work`` pays for work (its memory, a compute slot, its progress told to ``on_search``) within
    ``config``'s limits. ``Stopped`` when ``cancel`` was stopped while waiting or searching: such a run
    is not kept (one stopped by a limit is, under its limits)."""
    family = family_of(puzzle)
    tiles = family.need("tiles")
    limits = config.search_limits(True)
    bounds = [limits["max_expanded"], limits["max_seconds"]]
    key = run_key(puzzle_id, algorithm, {**family.run_identity(algorithm, options), "_limits": bounds})
    found = runs.meta(key)
    if found is not None:
        return found
    need = tiles.run_bytes(puzzle, algorithm)
    with paid_work(budget, cancel, need, "searching this board", owner=owner, on_wait=on_wait,
                   what="to search this board") as work:
        counter = np.zeros(1, np.int64)
        control = RunControl(limits["max_expanded"], limits["max_seconds"], cancel, counter)

        def make(folder: Path) -> dict[str, Any]:
            meta = tiles.run(puzzle, algorithm, options, control, folder)
            work.check()  # stopped by its user or the server: ``produce`` keeps nothing
            meta["puzzle"] = puzzle_id
            name_the_setting(meta["result"], limits)  # kept so: the run found again says it too
            return meta

        def search() -> dict[str, Any]:
            with deadline(cancel, limits["max_seconds"]):
                return runs.produce(key, make, size=tiles.file_bytes(puzzle), owner=owner)

        return work.search(search, counter, on_search)
