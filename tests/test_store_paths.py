"""No path out of a store (server/safe_paths.py): a puzzle id or a run key from a request becomes a
file name only when it has its store's exact form and its path stays in the store's folder. Absolute
paths, ``..`` (plain or URL-encoded), keys of the wrong length or case, and symbolic links planted in
the store that point out of it are answered like an unknown id (404 in words, never a 200 or a 500),
and the planted folder outside is never read, touched, written or removed."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from server.archive import DISK_MAGIC, DiskArchive, Source
from server.puzzles.family import RunControl
from server.puzzles.grid.generate import generate_braid
from server.puzzles.registry import family_of
from server.safe_paths import HEX20, HEX32, BadKey, check_key, key_path
from server.services import services
from server.solving import check_run
from server.tile_runs import META, TileRuns
from tests.helpers import live_app

KEY = "0123456789abcdef0123456789abcdef"  # a well-formed run key (32 hex digits)
PID = "0123456789abcdef0123"  # a well-formed puzzle id (20 hex digits)


# ---- a planted folder outside the store, and proof it was left alone -------------------------------
def _freeze(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every file under ``folder`` with its (size, mtime, atime), after setting each atime well before
    its mtime: on a ``relatime`` mount any read then moves the atime, so a read shows."""
    seen = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            stat = path.stat()
            os.utime(path, ns=(stat.st_mtime_ns - 10**12, stat.st_mtime_ns))
            stat = path.stat()
            seen[str(path.relative_to(folder))] = (stat.st_size, stat.st_mtime_ns, stat.st_atime_ns)
    return seen


def _untouched(folder: Path, frozen: dict[str, tuple[int, int, int]]) -> None:
    now = {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns, p.stat().st_atime_ns)
        for p in sorted(folder.rglob("*")) if p.is_file()
    }
    assert now == frozen  # no file read (atime), changed (mtime, size), added or removed


BAD_KEYS = [
    "", ".", "..", "../planted", "../../planted", "..%2fplanted", "%2e%2e", "%2e%2e%2fplanted",
    "/", "/etc", "a/b", "a\\b", "~", "\x00", KEY.upper(), KEY[:-1], KEY + "0", KEY[:-1] + "g",
    " " + KEY, KEY + "\n", "0" * 64,
]


# ---- safe_paths itself -----------------------------------------------------------------------------
def test_key_path_takes_only_keys_of_the_store_s_form(tmp_path: Path) -> None:
    assert key_path(tmp_path, KEY, HEX32) == tmp_path.resolve() / KEY
    assert key_path(tmp_path, PID, HEX20, PID[:2]) == tmp_path.resolve() / PID[:2] / PID
    for bad in [*BAD_KEYS, str(tmp_path / "x"), 7, None, b"0" * 32]:
        with pytest.raises(BadKey) as refused:
            key_path(tmp_path, bad, HEX32, what="run")
        assert isinstance(refused.value, LookupError) and "no run" in str(refused.value)
    assert check_key(KEY, HEX32) == KEY


def test_a_link_in_the_store_pointing_out_is_a_bad_key(tmp_path: Path) -> None:
    root, outside = tmp_path / "store", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / KEY).symlink_to(outside, target_is_directory=True)
    with pytest.raises(BadKey):
        key_path(root, KEY, HEX32)
    inner = "f" * 32  # a link to a folder inside the store is refused too: a key names its own folder
    (root / inner).symlink_to(root / KEY)
    with pytest.raises(BadKey):
        key_path(root, inner, HEX32)


# ---- the tile store --------------------------------------------------------------------------------
def _real_run(root: Path, maze: Any, pid: str = "huge") -> str:
    """A finished run of ``maze`` kept in ``root`` under ``KEY`` (as the socket's tiled runs make it)."""
    runs = TileRuns(root, 10**9)
    family = family_of(maze)
    values = check_run(maze, "astar", None)

    def make(folder: Path) -> dict[str, Any]:
        meta = family.tiles.run(maze, "astar", values, RunControl(), folder)
        meta["puzzle"] = pid
        return meta

    runs.produce(KEY, make)
    return KEY


@pytest.fixture
def maze() -> Any:
    return generate_braid(20, 24, seed=3, braid=0.5)  # 41 x 49 = 2,009 cells


@pytest.fixture
def planted(tmp_path: Path, maze: Any) -> Path:
    """A copy of a real run, outside the tile store: what an attacker would want the server to serve."""
    source = tmp_path / "made"
    _real_run(source, maze)
    folder = tmp_path / "planted"
    shutil.copytree(source / KEY, folder)
    shutil.rmtree(source)
    return folder


def test_the_tile_store_never_leaves_its_folder(tmp_path: Path, maze: Any, planted: Path) -> None:
    root = tmp_path / "tiles"
    root.mkdir()
    runs = TileRuns(root, max_bytes=0)  # every eviction would drop everything it may
    linked = "e" * 32
    (root / linked).symlink_to(planted, target_is_directory=True)
    frozen = _freeze(planted)
    made: list[Path] = []
    family = family_of(maze)
    for key in [*BAD_KEYS, str(planted), os.path.relpath(planted, root), linked]:
        for call in (
            lambda k: runs.meta(k),
            lambda k: runs.opened(k, family.tiles.open),
            lambda k: runs.produce(k, lambda folder: made.append(folder) or {}),
        ):
            with pytest.raises(BadKey):
                call(key)
    assert made == []  # nothing was made for a bad key
    runs.evict(reserve=10**9)  # a link in the store is never followed nor removed
    _untouched(planted, frozen)
    assert (root / linked).is_symlink()
    # A link planted in a real run's folder in place of its meta is not read or touched either.
    real = TileRuns(tmp_path / "real", 10**9)
    _real_run(real.root, maze)
    assert real.meta(KEY)["puzzle"] == "huge"
    (real.root / KEY / META).unlink()
    (real.root / KEY / META).symlink_to(planted / META)
    assert real.meta(KEY) is None and real.opened(KEY, family.tiles.open) is None
    real.evict(reserve=10**9)
    _untouched(planted, frozen)


# ---- the puzzle archive ----------------------------------------------------------------------------
def _archived_file(source: Source) -> bytes:
    return DISK_MAGIC + source.meta() + b"\n" + source.data


def test_the_puzzle_archive_never_leaves_its_folder(tmp_path: Path) -> None:
    item = Source(b"#####\n#S.G#\n#####\n", "grid", "m.txt", {})
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / item.id).write_bytes(_archived_file(item))  # an archived puzzle's file, but out of the store
    (outside / ("b" * 20)).write_bytes(b"x" * 100)
    day = 86_400
    old = time.time() - 10 * day  # expired for the archive: a sweep would remove it if it got there
    for path in outside.iterdir():
        os.utime(path, (old, old))
    frozen = _freeze(outside)
    root = tmp_path / "puzzles"
    root.mkdir()
    (root / item.id[:2]).mkdir()
    (root / item.id[:2] / item.id).symlink_to(outside / item.id)  # a planted link in place of a file
    (root / "bb").symlink_to(outside, target_is_directory=True)  # a planted link in place of a folder
    (root / "zz").symlink_to(outside, target_is_directory=True)  # and one not even named like a folder
    archive = DiskArchive(root, max_bytes=10, max_age=day)  # starting sweeps: all is expired or too big
    assert archive.get(item.id) is None
    assert archive.get("b" * 20) is None
    for key in [*BAD_KEYS, str(outside / item.id), f"../outside/{item.id}", "../" * 5 + "etc/passwd"]:
        assert archive.get(key) is None
        archive.drop(key)
        with pytest.raises(BadKey):
            archive.path(key)
    archive.drop(item.id)  # the link itself may go; never what it points to
    archive.drop("b" * 20)
    archive.sweep()
    _untouched(outside, frozen)


# ---- over HTTP -------------------------------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path, maze: Any, planted: Path) -> Any:
    """An app whose small maze ``huge`` is drawn as tiles, with one real run kept under ``KEY``."""
    root = tmp_path / "tiles"
    app = live_app({"huge": maze}, tile_min_cells=1_000, tile_dir=root)
    _real_run(root, maze)
    return app


def _paths(key: str) -> list[str]:
    return [
        f"/api/puzzles/huge/runs/{key}",
        f"/api/puzzles/huge/runs/{key}/frontier",
        f"/api/puzzles/huge/runs/{key}/tiles/0/0/0.png?t=1",
    ]


def _refused(answer: Any, what: str) -> None:
    assert answer.status_code == 404, (what, answer.status_code, answer.get_data(as_text=True)[:200])


def test_the_tile_endpoints_take_only_run_keys(tmp_path: Path, server: Any, planted: Path) -> None:
    http = server.test_client()
    root = services(server).tiles.root
    # The real run answers (the planted folder is its copy: the same meta, the same puzzle id).
    assert http.get(f"/api/puzzles/huge/runs/{KEY}").status_code == 200
    assert http.get(f"/api/puzzles/huge/cell?row=1&col=1&run={KEY}").get_json()["expanded_at"] is not None
    linked = "d" * 32
    (root / linked).symlink_to(planted, target_is_directory=True)
    frozen = _freeze(planted)
    relative = os.path.relpath(planted, root)
    runs = [
        str(planted), relative, relative.replace(".", "%2e"), relative.replace("/", "%2f"),
        linked, KEY.upper(), KEY[:-1], KEY + "0", "%2e%2e", "..", "../..", "/" + KEY, KEY + "/..",
    ]
    for run in runs:
        answer = http.get(f"/api/puzzles/huge/cell?row=1&col=1&run={run}")
        _refused(answer, run)
        assert "no run" in answer.get_json()["error"] and "run it again" in answer.get_json()["error"]
    for key in [linked, KEY.upper(), KEY[:-1], KEY + "0", "%2e%2e", "a" * 300]:
        for path in _paths(key):
            answer = http.get(path)
            _refused(answer, path)
            assert "no run" in answer.get_json()["error"], path  # refused in the endpoint's words
    for path in _paths("..%2f..%2fplanted"):  # a slash in the key: no such URL at all
        _refused(http.get(path), path)
    # The query string taken raw (a browser or script may send it encoded any way).
    for raw in (f"run={planted}", "run=..%2F..%2Fplanted", "run=%2E%2E", f"run=%2F{str(planted)[1:]}"):
        _refused(http.get("/api/puzzles/huge/cell", query_string=f"row=1&col=1&{raw}"), raw)
    _untouched(planted, frozen)
    assert sorted(p.name for p in planted.iterdir()) == sorted(frozen)  # no frontier file written there
