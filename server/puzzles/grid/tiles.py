"""Huge grid mazes in the page as tiles: a search kept as each cell's expansion number, on disk, and
tiles drawn from it at any step (``tile_kernels.py`` says how).

A run's folder (made by ``server/tile_runs.py``, filled here) holds:

- ``closed_at.npy``: int32 per cell, the kernel's expansion numbers (``NEVER``: not expanded);
  memory-mapped, so every server process reads one copy from the page cache;
- ``path.npy``: the path's cells in order; ``blocks.npz``: the 8 x 8 block summaries;
- ``frontier.npy``: the frontier's size at every ``sample_every``-th step and after the last one (the
  figures at the playhead); made when first asked for, not by the run (a pass over every cell that
  would delay the run's end by seconds on a 225 M-cell board).

Tiles are PNGs of at most ``TILE`` x ``TILE`` pixels; at level z a pixel covers 2**z x 2**z cells,
level 0 shows every cell and ``levels(width, height) - 1`` the whole board in one tile.
"""

from __future__ import annotations

import io
import math
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from ...i18n import t
from ...search.control import CANCELLED
from ..capabilities import Tiles
from ..errors import PuzzleError
from ..family import RunControl, search_options
from ..options import Values
from .kernel_search import KERNEL_ALGORITHMS, solve_grid
from .model import GridMaze
from .problem import run_maze

TILE = 256
MAX_SAMPLES = 262_144  # frontier samples kept per run (1 MB)
NEVER = np.iinfo(np.int32).max

# The page's palette (static/js/colors.js; tests/test_grid_tiles.py checks they agree).
WALL, FREE, HEAVY = "#1f2328", "#f6f4ef", "#b3aa98"
OPEN, PATH = "#CC79A7", "#D55E00"
OPEN_BACK, CLOSED_BACK = "#0072B2", "#56B4E9"  # bidirectional search's backward side
VIRIDIS = ("#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c",
           "#22a884", "#44bf70", "#7ad151", "#bddf26", "#fde725")
RAMP_FROM = 0.25


def levels(width: int, height: int) -> int:
    """How many levels the pyramid has: the last shows the whole board in one tile."""
    return 1 + max(0, math.ceil(math.log2(max(width, height, 1) / TILE)))


def geometry(maze: GridMaze) -> dict[str, int]:
    """What the page's tile viewer needs to know of the board."""
    width, height = maze.width, maze.height
    return {"width": width, "height": height, "tile": TILE, "levels": levels(width, height)}


def _rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], np.float64)


def colour_tables() -> tuple[np.ndarray, np.ndarray]:
    """(colours, ramp): rows 0 wall, 1..9 free by weight, 10 open, 11 path, 12 and 13 the backward
    side's open and closed (bidirectional search); 256 ramp colours."""
    colours = np.zeros((14, 3), np.float64)
    colours[0] = _rgb(WALL)
    for w in range(1, 10):
        colours[w] = _rgb(FREE) + (_rgb(HEAVY) - _rgb(FREE)) * (w - 1) / 8
    colours[10], colours[11] = _rgb(OPEN), _rgb(PATH)
    colours[12], colours[13] = _rgb(OPEN_BACK), _rgb(CLOSED_BACK)
    ramp = np.zeros((256, 3), np.float64)
    stops = np.array([_rgb(h) for h in VIRIDIS])
    for i in range(256):
        x = (RAMP_FROM + (1 - RAMP_FROM) * i / 255) * (len(VIRIDIS) - 1)
        k = min(len(VIRIDIS) - 2, math.floor(x))
        ramp[i] = stops[k] + (stops[k + 1] - stops[k]) * (x - k)
    # JavaScript's Math.round of x.5 rounds up; numpy's rint would round half to even.
    return np.floor(colours + 0.5).astype(np.int64), np.floor(ramp + 0.5).astype(np.int64)


COLOURS, RAMP = colour_tables()


# --- a run ---------------------------------------------------------------------------------------


def run(maze: GridMaze, algorithm: str, options: dict[str, Any], control: RunControl, folder: Path) -> dict:
    """Search ``maze`` keeping each cell's expansion number in ``folder``; returns the run's meta."""
    from . import tile_kernels as tk

    if algorithm not in KERNEL_ALGORITHMS:
        raise PuzzleError(
            t(
                "grid.does_not_run_on_board",
                algorithm=algorithm,
                width=maze.width,
                height=maze.height,
                kernel_algorithms=", ".join(KERNEL_ALGORITHMS),
            ),
            t("grid.algorithm"),
        )
    n = maze.cells.size
    closed_at = np.lib.format.open_memmap(folder / "closed_at.npy", mode="w+", dtype=np.int32, shape=(n,))
    closed_at.fill(NEVER)
    result, _ = solve_grid(
        maze, algorithm, diagonal=options["diagonal"], heuristic=options.get("heuristic") or "",
        weight=options["weight"], record_trace=False, max_expanded=control.max_expanded,
        cancel=control.cancel.array, progress=control.progress, closed_at=closed_at,
    )
    cells = maze.cells.reshape(-1)
    width, height = maze.width, maze.height
    moves = 8 if options["diagonal"] else 4
    closed, first, latest, last_cell = tk.block_summary(closed_at, width, height)
    np.savez(folder / "blocks.npz", closed=closed, first=first, latest=latest)
    path = np.asarray(result.path, dtype=np.int64)
    np.save(folder / "path.npy", path)
    seeds = np.asarray(maze.starts, dtype=np.int64)
    back_seeds = np.asarray(maze.goals if algorithm == "bidirectional" else [], dtype=np.int64)
    phantoms = tk.phantom_cells(cells, closed_at, width, height, moves, last_cell,
                                _generated_last(maze, algorithm, result, last_cell, moves))
    expanded = int(result.expanded)
    every = max(1, math.ceil((expanded + 1) / MAX_SAMPLES))
    samples = expanded // every + 1
    summary = result.to_json([])
    summary["path"] = []
    summary["path_length"] = len(path)
    return {
        **geometry(maze),
        "diagonal": bool(options["diagonal"]),
        "expanded": expanded,
        "steps": expanded + (1 if result.found else 0),  # the last step draws the path
        "sample_every": every,
        "samples": samples,
        "seeds": seeds.tolist(),
        "back_seeds": back_seeds.tolist(),
        "phantoms": phantoms.tolist(),
        "result": summary,
    }


def _generated_last(maze: GridMaze, algorithm: str, result: Any, last_cell: int, moves: int) -> np.ndarray:
    """The moves the last expansion generated before the search ended (see ``phantom_cells``)."""
    every_move = np.arange(moves, dtype=np.int64)
    if result.stopped or last_cell < 0:
        return np.empty(0, np.int64)  # a limit or a stop is noticed right after a cell is closed
    if not result.found or algorithm == "bidirectional":
        return every_move  # the frontier ran out, or the stopping rule came between expansions
    if algorithm not in ("bfs", "dfs"):
        return np.empty(0, np.int64)  # best-first tests the goal when it expands it
    # BFS and DFS test the goal on generation: the moves up to the goal's were made.
    from .tile_kernels import MOVE_COL, MOVE_ROW

    goal = int(result.path[-1])
    r, c = divmod(last_cell, maze.width)
    order = list(range(moves)) if algorithm == "bfs" else list(range(moves - 1, -1, -1))  # DFS: reversed
    for i, d in enumerate(order):
        if (r + MOVE_ROW[d]) * maze.width + c + MOVE_COL[d] == goal:
            return np.array(order[: i + 1], np.int64)
    return every_move


# --- reading a run back --------------------------------------------------------------------------


@dataclass
class StoredRun:
    """A finished run's arrays, memory-mapped from its folder."""

    meta: dict[str, Any]
    closed_at: np.ndarray
    path_sorted: np.ndarray
    closed: np.ndarray
    first: np.ndarray
    latest: np.ndarray
    folder: Path
    seeds: np.ndarray
    back_seeds: np.ndarray
    phantoms: np.ndarray

    @classmethod
    def load(cls, folder: Path, meta: dict[str, Any]) -> StoredRun:
        blocks = np.load(folder / "blocks.npz")
        return cls(
            meta,
            np.load(folder / "closed_at.npy", mmap_mode="r"),
            np.sort(np.load(folder / "path.npy")),
            blocks["closed"], blocks["first"], blocks["latest"],
            folder,
            np.asarray(meta["seeds"], np.int64),
            np.asarray(meta.get("back_seeds", []), np.int64),
            np.asarray(meta["phantoms"], np.int64),
        )

    def frontier_samples(self, maze: GridMaze) -> bytes:
        """The frontier's size at steps 0, ``sample_every``, 2 ``sample_every``, ... and, last, after
        the last expansion: int32 little-endian. Counted on first use (any process) and kept."""
        path = self.folder / "frontier.npy"
        try:
            return np.load(path).astype("<i4").tobytes()
        except (OSError, ValueError):
            pass
        from . import tile_kernels as tk

        meta = self.meta
        every, samples, expanded = meta["sample_every"], meta["samples"], meta["expanded"]
        moves = 8 if meta["diagonal"] else 4
        seeds = np.concatenate([self.seeds, self.back_seeds])
        opened, reached = tk.opened_counts(maze.cells.reshape(-1), self.closed_at, maze.width, maze.height,
                                           moves, seeds, every, samples)
        steps = np.arange(samples, dtype=np.int64) * every
        frontier = np.append((opened - steps).clip(0), int(reached) - len(self.phantoms) - expanded)
        part = self.folder / f".frontier-{os.getpid()}-{threading.get_ident()}.npy"
        try:  # written whole, then renamed: a reader never sees half a file
            np.save(part, frontier.astype(np.int32))
            os.replace(part, path)
        except OSError:
            part.unlink(missing_ok=True)  # the run was dropped meanwhile: the answer still stands
        return frontier.astype("<i4").tobytes()


# --- drawing -------------------------------------------------------------------------------------

_BLOCKS_LOCK = threading.Lock()
_BLOCKS: OrderedDict[int, tuple[GridMaze, tuple[np.ndarray, np.ndarray, np.ndarray]]] = OrderedDict()


def _maze_blocks(maze: GridMaze) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The maze's block summaries, kept for the few most recent boards of this process."""
    from . import tile_kernels as tk

    with _BLOCKS_LOCK:
        held = _BLOCKS.get(id(maze))
        if held is not None and held[0] is maze:
            _BLOCKS.move_to_end(id(maze))
            return held[1]
    blocks = tk.maze_blocks(maze.cells.reshape(-1), maze.width, maze.height)
    with _BLOCKS_LOCK:
        _BLOCKS[id(maze)] = (maze, blocks)
        while len(_BLOCKS) > 4:
            _BLOCKS.popitem(last=False)
    return blocks


def check_tile(maze: GridMaze, z: int, x: int, y: int) -> None:
    """Refuse a tile outside the pyramid, naming it."""
    top = levels(maze.width, maze.height) - 1
    side = TILE << z if 0 <= z <= top else 0
    if not side or not (0 <= x * side < maze.width and 0 <= y * side < maze.height):
        raise PuzzleError(
            t("grid.no_tile_levels_0_level", z=z, x=x, y=y, top=top, tile=TILE), t("grid.tile")
        )


def draw(maze: GridMaze, z: int, x: int, y: int, stored: StoredRun | None = None, t: int = 0) -> np.ndarray:
    """Tile (z, x, y) of the board, after ``t`` expansions of ``stored`` (None: the board alone)."""
    from . import tile_kernels as tk

    check_tile(maze, z, x, y)
    scale = 1 << z
    row0, col0 = y * TILE * scale, x * TILE * scale
    cells = maze.cells.reshape(-1)
    empty_i64 = np.empty(0, np.int64)
    searched = stored is not None
    last = max(1, stored.meta["expanded"] - 1) if searched else 1
    show_path = searched and t >= stored.meta["steps"] and stored.meta["result"]["found"]
    path = stored.path_sorted if searched else empty_i64
    if scale <= tk.DIRECT_SCALE:
        closed_at = stored.closed_at if searched else np.empty(0, np.int32)
        moves = 8 if searched and stored.meta["diagonal"] else 4
        seeds = stored.seeds if searched else empty_i64
        back_seeds = stored.back_seeds if searched else empty_i64
        phantoms = stored.phantoms if searched else empty_i64
        return tk.draw_direct(cells, closed_at, maze.width, maze.height, row0, col0, scale, TILE, int(t),
                              last, moves, seeds, back_seeds, phantoms, path, show_path, COLOURS, RAMP)
    total, free, weights = _maze_blocks(maze)
    if searched:
        closed, first, latest = stored.closed, stored.first, stored.latest
    else:
        closed, first, latest = np.empty(0, np.uint8), np.empty(0, np.int32), np.empty(0, np.int32)
    return tk.draw_blocks(total, free, weights, closed, first, latest, maze.width, maze.height, row0, col0,
                          scale, TILE, int(t), last, path, show_path, COLOURS, RAMP)


def cell(maze: GridMaze, row: int, col: int, stored: StoredRun | None = None) -> dict[str, Any]:
    """A cell for the hover read-out: its weight (0: wall) and, in a run, the step that expanded it
    (``expanded_at``: closed from that step on) and the step it was reached at (``reached_at``: open
    from then until it is expanded); None for never."""
    if not (0 <= row < maze.height and 0 <= col < maze.width):
        raise PuzzleError(
            t("grid.no_cell_on_x_board", row=row, col=col, height=maze.height, width=maze.width),
            t("grid.cell"),
        )
    out: dict[str, Any] = {"row": row, "col": col, "weight": int(maze.cells[row, col])}
    if stored is not None and out["weight"]:
        from . import tile_kernels as tk

        flat = row * maze.width + col
        value = int(stored.closed_at[flat])
        moves = 8 if stored.meta["diagonal"] else 4
        first = int(tk._first_reacher(maze.cells.reshape(-1), stored.closed_at, maze.width, maze.height,
                                      row, col, moves)) & tk.ORDER_MASK
        seed = flat in set(stored.seeds.tolist()) | set(stored.back_seeds.tolist())
        out["expanded_at"] = None if value == NEVER else (value & tk.ORDER_MASK) + 1
        out["reached_at"] = 0 if seed else (None if first == tk.ORDER_MASK else first + 1)
    return out


class GridTiles(Tiles):
    """The grid family's tiles: the functions above over a run's folder."""

    def geometry(self, puzzle: GridMaze, min_cells: int) -> dict[str, int] | None:
        return geometry(puzzle) if puzzle.cells.size > min_cells else None

    def run(self, puzzle: GridMaze, algorithm: str, options: Values, control: RunControl,
            folder: Path) -> dict[str, Any]:
        maze = run_maze(puzzle, options)
        search_options(self.family.run_problem(maze, options), options)  # the heuristic, checked first
        meta = run(maze, algorithm, options, control, folder)
        if meta["result"].get("stopped") == CANCELLED:  # the kernel saw the flag: say why it was set
            meta["result"]["stopped"] = control.cancel.reason
        meta["result"]["options"] = {k: v for k, v in options.items() if k not in ("start", "goal")}
        return meta

    def file_bytes(self, puzzle: GridMaze) -> int:
        return 5 * puzzle.cells.size  # int32 closed_at, block summaries, the path

    def run_bytes(self, puzzle: GridMaze, algorithm: str) -> int:
        """The search's arrays, as ``search_bytes`` (its int32 ``closed_at`` is a file mapped into memory:
        pages the kernel writes back, not the process's own)."""
        return self.family.search_bytes(puzzle, algorithm, {}, None)

    def open(self, folder: Path, meta: dict[str, Any]) -> StoredRun:
        return StoredRun.load(folder, meta)

    def draw(self, puzzle: GridMaze, z: int, x: int, y: int, run: Any = None, t: int = 0) -> bytes:
        return png(draw(puzzle, z, x, y, run, t))

    def frontier(self, puzzle: GridMaze, run: StoredRun) -> bytes:
        return run.frontier_samples(puzzle)

    def cell(self, puzzle: GridMaze, row: int, col: int, run: Any = None) -> dict[str, Any]:
        return cell(puzzle, row, col, run)


def png(pixels: np.ndarray) -> bytes:
    """A tile as PNG, compressed for speed (a tile is drawn once and cached by the browser)."""
    out = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels), "RGB").save(out, "PNG", compress_level=1)
    return out.getvalue()


def warm_up() -> None:
    """Compile (or load from numba's cache) every tile kernel, on a small board: a first huge run
    then waits for no compiler. ``precompile.compile_all`` calls it, so the set-up does it once."""
    import tempfile

    from .generate import generate_braid

    maze = generate_braid(40, 40, seed=1)
    with tempfile.TemporaryDirectory() as folder:
        options = {"diagonal": False, "heuristic": "", "weight": 1.0}
        meta = run(maze, "bfs", options, RunControl(), Path(folder))
        stored = StoredRun.load(Path(folder), meta)
        stored.frontier_samples(maze)
        draw(maze, 0, 0, 0, stored, meta["steps"])  # from the cells
        draw(maze, 0, 0, 0, None, 0)
        from . import tile_kernels as tk

        total, free, weights = _maze_blocks(maze)
        for closed, first, latest in ((stored.closed, stored.first, stored.latest),
                                      (np.empty(0, np.uint8), np.empty(0, np.int32), np.empty(0, np.int32))):
            # from the block summaries (a level this small board does not have: the kernel alone)
            tk.draw_blocks(total, free, weights, closed, first, latest, maze.width, maze.height, 0, 0, 16,
                           TILE, 1, 1, stored.path_sorted, True, COLOURS, RAMP)
