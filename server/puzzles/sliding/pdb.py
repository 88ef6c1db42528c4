"""Additive disjoint pattern databases for the sliding-tile puzzles (Korf & Felner 2002).

The tiles are grouped by their goal **positions** (cells), not their numbers: a board is relabelled
so that each tile bears the cell it must reach (``fast.py``), and one set of tables serves every
goal with the blank's goal cell outside the groups; a goal with the blank in another corner is
mapped onto the blank-first one by a flip of the square (``symmetry``), so the 15-puzzle needs one
set of tables on disk for Korf's goal and the usual blank-last goal alike (other blank cells: a
split of their own, built on first use). The 15-puzzle uses a 6-6-3 split; the 8-puzzle
a 4-4 split (small enough to test against exact distances). The 24-puzzle has none: its 6-6-6-6
split needs tables of 25^6 (sparse) or 25!/19! ≈ 127 M (compact) entries each, and building them
(the blank's 19 cells as well) is beyond this machine's budget.

Each table counts only its own tiles' moves, in the abstract space where the other tiles are
indistinguishable: built by a backward 0-1 breadth-first search over (placement of the group,
blank cell) — a group tile's move costs 1, the blank's moves through other cells cost 0 — then
minimised over the blank's cell (``sliding_kernels.build_pattern_table``). So the tables add up
admissibly. One byte an entry, indexed ``sum_j cell_j · n²^j`` (sparse: 16^6 = 16.8 MB for a six-tile
table of the 15-puzzle, of which 5.8 M entries are placements) so that a search updates the index
by the moved tile's term alone.

Tables are built once and cached on disk under ``var/pdb/`` (``MAZE_PDB_DIR`` overrides), one file
a table named by the format version, the board size and the group's cells, plus a JSON note of
its build time. Writes are atomic (a temporary file in the same folder, fsynced, then renamed
over the name), and a file whose size is not the table's is rebuilt, so a half-written cache file is
never read.

    python -m server.puzzles.sliding.pdb          # build (if needed) and print memory and build time
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...config import DATA_DIR
from ...i18n import t

VERSION = 1  # the file format and the build's semantics; bump to invalidate every cache file

# The 6-6-3 split of the 15-puzzle for the blank-first goal (0 1 2 … 15, Korf's): the top row's tiles
# {1, 2, 3}, the left block {4, 5, 8, 9, 12, 13} and the right block {6, 7, 10, 11, 14, 15}, as in
# Korf & Felner's figure. (The 180° turn of a blank-last split tried first, {3, 6, 7, 10, 11, 15},
# {1, 2, 4, 5, 8, 9}, {12, 13, 14}, generated 1.8 times as many nodes on Korf's 100.)
SPLIT_4_BLANK_FIRST = ((4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15), (1, 2, 3))


def pdb_dir() -> Path:
    """Where the tables are cached: ``$MAZE_PDB_DIR``, else ``var/pdb/`` in the project (installed:
    ``DATA_DIR/pdb``)."""
    env = os.environ.get("MAZE_PDB_DIR")
    return Path(env) if env else DATA_DIR / "pdb"


def available(n: int) -> bool:
    """Whether this module has a split for n × n boards (3 and 4)."""
    return n in (3, 4)


def symmetry(n: int, blank_goal: int) -> tuple[int, ...]:
    """A symmetry of the square, as a map of cells (its own inverse), that takes the blank's goal cell
    to cell 0 when that is a corner (a flip of the rows, of the columns, or both: the 180° turn), else
    the identity. A board and its image have the same distance to their goals, so the tables of the
    blank-first goal serve all four corners (the usual blank-last goal among them)."""
    last = n - 1
    r, c = divmod(blank_goal, n)
    if r not in (0, last) or c not in (0, last):
        return tuple(range(n * n))
    return tuple(
        (last - rr if r == last else rr) * n + (last - cc if c == last else cc)
        for rr, cc in (divmod(x, n) for x in range(n * n))
    )


def groups_for(n: int, blank_goal: int) -> tuple[tuple[int, ...], ...]:
    """The groups (tuples of goal cells) for n × n boards whose goal has the blank on ``blank_goal``.

    15-puzzle: ``SPLIT_4_BLANK_FIRST`` for the blank in the first cell (the fast path maps the other
    corners onto it: ``symmetry``); for another cell, that split with the blank's goal cell and cell 0
    swapped. 8-puzzle: the other eight cells in reading order, four and four.
    """
    cells = n * n
    if not 0 <= blank_goal < cells:
        raise ValueError(f"blank goal cell {blank_goal} is off a {n}x{n} board")
    if n == 4:
        swap = {blank_goal: 0, 0: blank_goal}
        return tuple(tuple(sorted(swap.get(c, c) for c in g)) for g in SPLIT_4_BLANK_FIRST)
    if n == 3:
        others = [c for c in range(cells) if c != blank_goal]
        return (tuple(others[:4]), tuple(others[4:]))
    raise ValueError(f"no pattern databases for {n}x{n} boards (only 3x3 and 4x4)")


def _file(n: int, group: tuple[int, ...], directory: Path) -> Path:
    cells = "-".join(f"{c:02d}" for c in group)
    return directory / f"sliding-pdb-v{VERSION}-{n}x{n}-{cells}.u8"


def _sizes(n: int, k: int) -> tuple[int, int]:
    """(table entries, abstract states of the build) for a group of k tiles."""
    cells = n * n
    states = cells - k
    for j in range(k):
        states *= cells - j
    return cells**k, states


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file, or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def build_table(n: int, group: tuple[int, ...], cancel: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Build one table (no cache): (uint8 table of n²^k entries, seconds)."""
    from . import sliding_kernels as kern

    entries, states = _sizes(n, len(group))
    if entries * n * n >= 2**31:
        raise ValueError(f"a {len(group)}-tile group of a {n}x{n} board is too big for this builder")
    cancel = np.zeros(1, np.uint8) if cancel is None else cancel
    progress = np.zeros(1, np.int64)
    # compile (or load) the kernel first, untimed
    kern.build_pattern_table(np.int64(2), np.zeros(1, np.int64), np.zeros(1, np.uint8), progress)
    clock = time.perf_counter()
    table, visited = kern.build_pattern_table(np.int64(n), np.asarray(group, np.int64), cancel, progress)
    seconds = time.perf_counter() - clock
    if table.shape[0] == 0:
        raise InterruptedError(t("sliding.pattern_database_build_cancelled"))
    if visited != states:
        raise AssertionError(f"pattern database {group}: {visited} states reached, {states} expected")
    return table, seconds


_lock = threading.Lock()  # guards ``_locks``
_locks: dict[tuple[int, tuple[int, ...], str], threading.Lock] = {}  # one a table: builds of two run at once
_tables: dict[tuple[int, tuple[int, ...], str], tuple[np.ndarray, dict]] = {}


def load_table(
    n: int, group: tuple[int, ...], directory: Path | None = None, cancel: np.ndarray | None = None
) -> tuple[np.ndarray, dict]:
    """One table and its note ({entries, bytes, build_seconds, file, built_now}): from memory, else
    from the disk cache, else built (``cancel`` set: InterruptedError) and cached."""
    directory = pdb_dir() if directory is None else Path(directory)
    key = (n, tuple(group), str(directory))
    with _lock:
        table_lock = _locks.setdefault(key, threading.Lock())
    with table_lock:
        if key in _tables:
            return _tables[key]
        path = _file(n, group, directory)
        entries, states = _sizes(n, len(group))
        note_path = path.with_suffix(".json")
        table = None
        note: dict = {}
        if path.is_file() and path.stat().st_size == entries:
            table = np.fromfile(path, np.uint8)
            try:
                note = json.loads(note_path.read_text())
            except (OSError, ValueError):
                note = {}
            note["built_now"] = False
        if table is None or table.shape[0] != entries:
            table, seconds = build_table(n, group, cancel)
            _write_atomic(path, table.tobytes())
            note = {"build_seconds": round(seconds, 3), "abstract_states": states, "version": VERSION}
            _write_atomic(note_path, json.dumps(note).encode())
            note["built_now"] = True
        note.update(
            {
                "group": list(group),
                "entries": entries,
                "placements": states // (n * n - len(group)),
                "bytes": int(table.nbytes),
                "file": str(path),
                "build_memory_bytes": int(entries * 4 + entries + states * 4),
            }
        )
        _tables[key] = (table, note)
        return table, note


@dataclass(frozen=True)
class PatternDatabase:
    """A split's tables, as ``sliding_kernels.ida_star`` reads them."""

    n: int
    groups: tuple[tuple[int, ...], ...]
    table: np.ndarray  # uint8, the groups' tables one after another
    offsets: np.ndarray  # int64, where each group's table starts
    group: np.ndarray  # int64 by label (goal cell): its group, -1 for none (the blank's goal cell)
    slot: np.ndarray  # int64 by label: its place j in its group (the index's digit)
    powers: np.ndarray  # int64: n²^j
    notes: tuple[dict, ...]

    @property
    def nbytes(self) -> int:
        return int(self.table.nbytes)


_databases: dict[tuple[int, int, str], PatternDatabase] = {}


def cached(n: int, blank_goal: int, directory: Path | None = None) -> bool:
    """Whether every table of that split is in memory or on disk (so ``database`` builds nothing).
    ``blank_goal`` as ``database`` takes it (the fast path maps corners to 0 first: ``symmetry``)."""
    directory = pdb_dir() if directory is None else Path(directory)
    if (n, blank_goal, str(directory)) in _databases:
        return True
    return all(
        _file(n, g, directory).is_file() and _file(n, g, directory).stat().st_size == _sizes(n, len(g))[0]
        for g in groups_for(n, blank_goal)
    )


def database(
    n: int, blank_goal: int, directory: Path | None = None, cancel: np.ndarray | None = None
) -> PatternDatabase:
    """The additive tables for n × n boards whose goal has the blank on ``blank_goal`` (cached in
    memory; from disk or built on first use: ``cancel``, a uint8[1] flag, stops a build)."""
    directory = pdb_dir() if directory is None else Path(directory)
    key = (n, blank_goal, str(directory))
    found = _databases.get(key)
    if found is not None:
        return found
    groups = groups_for(n, blank_goal)
    cells = n * n
    building = [g for g in groups if not _file(n, g, directory).is_file()]
    if len(building) > 1:  # the kernel releases the GIL: build the big tables side by side
        with ThreadPoolExecutor(max_workers=min(len(building), os.cpu_count() or 1)) as pool:
            list(pool.map(lambda g: load_table(n, g, directory, cancel), building))
    loaded = [load_table(n, g, directory, cancel) for g in groups]
    offsets = np.zeros(len(groups), np.int64)
    at = 0
    for i, (table, _) in enumerate(loaded):
        offsets[i] = at
        at += table.shape[0]
    group = np.full(cells, -1, np.int64)
    slot = np.zeros(cells, np.int64)
    for g, cells_of in enumerate(groups):
        for j, c in enumerate(cells_of):
            group[c] = g
            slot[c] = j
    powers = np.array([cells**j for j in range(max(len(g) for g in groups))], np.int64)
    db = PatternDatabase(
        n=n,
        groups=groups,
        table=np.concatenate([t for t, _ in loaded]),
        offsets=offsets,
        group=group,
        slot=slot,
        powers=powers,
        notes=tuple(note for _, note in loaded),
    )
    _databases[key] = db
    return db


def heuristic(goal: bytes, n: int) -> Callable[[bytes], int]:
    """The additive pattern-database heuristic towards ``goal`` as a Python function of a board's
    bytes (for the generic searches; the fast path reads the tables in its kernel). A goal with the
    blank in a corner is looked up through ``symmetry``, as the fast path does."""
    goal = bytes(goal)
    sigma = symmetry(n, goal.index(0))
    db = database(n, sigma[goal.index(0)])
    cells = n * n
    table = db.table.tobytes()  # a byte an entry (34 MB), as fast to index as a list of 34 M ints
    # per group: its table's offset and, slot by slot, the tile whose (mapped) goal is that cell
    plan = [(int(db.offsets[g]), [goal[sigma[c]] for c in cells_of]) for g, cells_of in enumerate(db.groups)]
    powers = [cells**j for j in range(len(db.powers))]

    def h(state: bytes) -> int:
        where = [0] * cells
        for cell, tile in enumerate(state):
            where[tile] = sigma[cell]
        total = 0
        for offset, tiles in plan:
            total += table[offset + sum(where[t] * p for t, p in zip(tiles, powers, strict=False))]
        return total

    return h


def stats(n: int = 4, blank_goal: int = 0, directory: Path | None = None) -> dict:
    """Memory and build time of a split's tables (building them if needed): {split, tables: [...],
    bytes, build_seconds, build_memory_bytes}. ``build_seconds`` sums the times measured when each
    table was built (kept in its note beside the cache file); the big tables build in parallel
    threads, so the wall time of a first build is about the largest table's."""
    db = database(n, blank_goal, directory)
    tables = [dict(note) for note in db.notes]
    return {
        "n": n,
        "blank_goal": blank_goal,
        "split": "-".join(str(len(g)) for g in db.groups),
        "tables": tables,
        "bytes": db.nbytes,
        "build_seconds": round(sum(t.get("build_seconds", float("nan")) for t in tables), 3),
        "build_memory_bytes": max(t["build_memory_bytes"] for t in tables),
    }


def describe(info: dict) -> str:
    """The figures of ``stats`` in a few lines."""
    lines = [
        t(
            "sliding.x_pattern_databases_blank_goal",
            n=info["n"],
            split=info["split"],
            blank_goal=info["blank_goal"],
            value=f"{info['bytes'] / 1e6:.1f}",
            build_seconds=f"{info['build_seconds']:.1f}",
            value2=f"{info['build_memory_bytes'] / 1e6:.0f}",
        )
    ]
    for table in info["tables"]:
        lines.append(
            t(
                "sliding.cells_bytes_placements_built_in",
                group=table["group"],
                entries=table["entries"],
                placements=table["placements"],
                get=f"{table.get('build_seconds', float('nan')):.2f}",
                value=" (now)" if table.get("built_now") else " (cached)",
                file=table["file"],
            )
        )
    return "\n".join(lines)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=4)
    parser.add_argument(
        "--blank-goal", type=int, action="append", help=t("sliding.default_0_serves_every_corner")
    )
    args = parser.parse_args()
    for blank in args.blank_goal or [0]:
        print(describe(stats(args.n, blank)))


if __name__ == "__main__":
    main()
