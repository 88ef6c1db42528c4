"""The grid maze family: images and text files, searched by the compiled kernels on big boards (or, on
small ones and with ``engine="generic"``, by the pure-Python algorithms they are tested against)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import numpy as np

from server.json_arrays import CellPairs, cell_path
from server.puzzles.errors import PuzzleError
from server.puzzles.family import Family, LoadLimits, RunControl, Solved, stem
from server.puzzles.grid import (  # jps and wall_follower register the grid's own algorithms
    IMAGE_EXTENSIONS,
    IMAGE_MAGIC,
    SNIFF_BYTES,
    TEXT_EXTENSIONS,
    jps,
    wall_follower,
)
from server.puzzles.grid.edit import MAX_EDIT_CELLS
from server.puzzles.grid.kernel_search import KERNEL_ALGORITHMS, kernels_loaded
from server.puzzles.grid.lattice import pixel_scale
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.problem import FEATURES, HEURISTICS, GridProblem
from server.puzzles.making import Generated, GeneratorKind, size_options
from server.puzzles.options import Option, Values
from server.search.control import CANCELLED
from server.search.problem import Problem
from server.search.stats import SearchResult

_GRID_CHARS = re.compile(r"[#. SG1-9\r\n]")


_LATTICE = "2 x ROWS + 1 by 2 x COLS + 1 board cells (walls between the maze's cells)"
_MAZE_SIZE = size_options((1, 20, 1000), (1, 20, 1000), "maze cells")
_BOARD_SIZE = size_options((2, 40, 2000), (2, 40, 2000), "board cells")
GENERATORS = (
    GeneratorKind("perfect", "Perfect maze (recursive backtracker)",
                  "long winding corridors; exactly one path between any two cells", _MAZE_SIZE, _LATTICE),
    GeneratorKind("prim", "Perfect maze (Prim)", "many short dead ends; one path between any two cells",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("kruskal", "Perfect maze (Kruskal)", "even texture; one path between any two cells",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("division", "Perfect maze (recursive division)",
                  "long straight walls, each with one gap; one path between any two cells",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("braid", "Braid maze", "a perfect maze with every dead end opened: many loops",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("rooms", "Rooms", "open rooms joined by doors, with loops", _MAZE_SIZE, _LATTICE),
    GeneratorKind("random", "Random walls", "each cell a wall by chance, always solvable", (
        *_BOARD_SIZE,
        Option("density", "float", "Wall density", "the share of cells that are walls",
               default=0.3, min=0.0, max=0.6, step=0.05),
    )),
    GeneratorKind("terrain", "Weighted terrain",
                  "free cells costing 1-9 from smooth noise: hills and valleys",
                  _BOARD_SIZE),
)


# Peak memory per cell of the compiled searches, the board's own byte included (docs/BENCHMARKS.md,
# "Memory of every grid algorithm": 5.0, 10.1 and 27.0 measured on perfect4k, rounded up).
KERNEL_BYTES_PER_CELL = {"bfs": 6, "dfs": 6, "dijkstra": 11, "greedy": 11, "astar": 11, "bidirectional": 28}
# Boards with fewer cells run the generic engine when the engine is "auto": numba's import and loading
# a kernel from its cache cost ~0.4 s, which the kernels only win back on boards about this large
# (docs/BENCHMARKS.md, "The CLI's start-up"; ``scripts/bench_cli.py --engines`` measures it).
COMPILED_MIN_CELLS = 65_536
# A pure-Python search's stored state (measured: 104 to 288 bytes per state expanded, JPS the most).
GENERIC_GRID_STATE_BYTES = 300

class GridFamily(Family):
    """Grid mazes (docs: README "Formats")."""

    def __init__(self) -> None:
        super().__init__(
            default_algorithm="bfs",  # `run.py solve` without --algorithm
            state_form="(row, col)",
            solution_notation=("moves such as RRDDL (U D L R; with diagonal moves UL UR DL DR as "
                               "tokens) or a JSON list of [row, col]"),
            name="grid",
            title="Grid maze",
            puzzle_type=GridMaze,
            extensions=(*IMAGE_EXTENSIONS, *TEXT_EXTENSIONS),
            expects="a maze image (PNG, GIF, BMP, JPEG, WebP, PPM: dark walls, light floor) or a text "
            "maze ('#' wall, '.' free, 'S' start, 'G' goal, digits 1-9 weights)",
            algorithms=(*KERNEL_ALGORITHMS, jps.JPS.name, wall_follower.WALL_LEFT.name,
                        wall_follower.WALL_RIGHT.name),
            fast_algorithms=KERNEL_ALGORITHMS,  # JPS and the wall followers run in Python
            heuristics=HEURISTICS,
            own_options=(
                Option("diagonal", "bool", "Diagonal moves", "8 neighbours, never cutting a wall's corner",
                       default=False),
                Option("start", "point", "Start", "ROW,COL of the start (overrides the file)",
                       optional=True, control="view"),
                Option("goal", "point", "Goal", "ROW,COL of the goal (overrides the file)",
                       optional=True, control="view"),
                Option("lattice", "choice", "Lattice",
                       "auto: an image drawn in k x k pixel blocks or with thin wall lines is read as its "
                       "cells; off: every pixel is a cell", default="auto",
                       choices=(("auto", "auto"), ("off", "off")), stage="load"),
            ),
            compiled=True,
            path_noun="cells",
            generators=GENERATORS,
            formats=("txt", "png"),
            features=FEATURES,
        )

    # ---- files -----------------------------------------------------------------------------------
    def sniff(self, filename: str, data: bytes) -> float:
        ext = Path(filename).suffix.lower()
        if data.startswith(IMAGE_MAGIC) or data[:2] in (b"P1", b"P2", b"P3", b"P4", b"P5", b"P6"):
            return 1.0
        if ext in IMAGE_EXTENSIONS:
            return 0.9  # the image parser says what is wrong with it
        head = data[:SNIFF_BYTES]
        try:
            text = head.decode("utf-8")
        except UnicodeDecodeError as err:
            if err.start < len(head) - 4:  # not merely a character cut at the end of the sample
                return 0.0
            text = head[: err.start].decode("utf-8")
        text = text.removeprefix("\ufeff")
        if not text.strip():
            return 0.2 if ext in TEXT_EXTENSIONS else 0.0
        share = len(_GRID_CHARS.findall(text)) / len(text)
        if "#" in text and share >= 0.9:
            return 0.8  # the text parser names any stray character
        return 0.3 if ext in TEXT_EXTENSIONS else 0.0

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> GridMaze:
        from server.puzzles.grid.image import parse_grid_image
        from server.puzzles.grid.text import parse_grid_text

        if not data:
            raise PuzzleError("the file is empty", "file")
        if self.sniff(filename, data) >= 0.9:
            return parse_grid_image(data, stem(filename), max_pixels=limits.max_pixels,
                                    lattice=options.get("lattice") or "auto", progress=limits.progress,
                                    memory=limits.memory)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise PuzzleError(
                f"not a text maze (byte {err.start} is not UTF-8) and not an image this app can read", "file"
            ) from None
        return parse_grid_text(text, stem(filename), max_cells=limits.max_cells)

    # ---- memory (docs/BENCHMARKS.md, "Memory of every grid algorithm") ------------------------------
    def load_bytes(self, data: bytes, filename: str, options: Values) -> int:
        """An image says what reading it takes once its header is read (``LoadLimits.memory``); a text
        maze: its text, its lines and a byte a cell."""
        if self.sniff(filename, data) >= 0.9:
            return 0
        return 8 * len(data)

    def state_bytes(self, puzzle: GridMaze) -> int:
        return GENERIC_GRID_STATE_BYTES

    def state_bound(self, puzzle: GridMaze, options: Values) -> int:
        return int(puzzle.cells.size)  # a state is a cell

    def search_bytes(self, puzzle: GridMaze, algorithm: str, options: Values, max_stored: int | None) -> int:
        """The kernels' arrays per cell by algorithm; the pure-Python algorithms per state stored (at
        most every cell), plus their dicts' per-cell share."""
        cells = puzzle.cells.size
        if self.runs_compiled(puzzle, algorithm, options):
            return cells * KERNEL_BYTES_PER_CELL.get(algorithm, max(KERNEL_BYTES_PER_CELL.values()))
        states = cells if max_stored is None else min(cells, max_stored)
        return states * GENERIC_GRID_STATE_BYTES + cells

    # ---- the page --------------------------------------------------------------------------------
    def info(self, puzzle: GridMaze) -> dict[str, Any]:
        return {
            "name": puzzle.name,
            "width": puzzle.width,
            "height": puzzle.height,
            "starts": [list(puzzle.rc(i)) for i in puzzle.starts[:10_000]],
            "goals": [list(puzzle.rc(i)) for i in puzzle.goals[:10_000]],
            "weighted": puzzle.weighted,
            "endpoint_problem": puzzle.endpoint_problem,
            "notes": puzzle.notes,
            "edit_max_cells": MAX_EDIT_CELLS,
            "lattice": puzzle.lattice,
        }

    def cells(self, puzzle: GridMaze) -> bytes:
        return puzzle.cells.tobytes()

    # ---- huge boards as tiles (tiles.py) ---------------------------------------------------------
    def tile_geometry(self, puzzle: GridMaze, min_cells: int) -> dict[str, int] | None:
        from server.puzzles.grid import tiles

        return tiles.geometry(puzzle) if puzzle.cells.size > min_cells else None

    def tile_run(
        self, puzzle: GridMaze, algorithm: str, options: Values, control: RunControl, folder: Path
    ) -> dict[str, Any]:
        from server.puzzles.grid import tiles

        maze = self._maze(puzzle, options)
        self._check_heuristic(maze, options)
        meta = tiles.run(maze, algorithm, options, control, folder)
        if meta["result"].get("stopped") == CANCELLED:
            meta["result"]["stopped"] = control.cancel.reason
        meta["result"]["options"] = {k: v for k, v in options.items() if k not in ("start", "goal")}
        return meta

    def tile_file_bytes(self, puzzle: GridMaze) -> int:
        return 5 * puzzle.cells.size  # int32 closed_at, block summaries, the path

    def tile_run_bytes(self, puzzle: GridMaze, algorithm: str = "bfs") -> int:
        """The search's arrays, as ``search_bytes`` (its int32 ``closed_at`` is a file mapped into memory:
        pages the kernel writes back, not the process's own)."""
        return self.search_bytes(puzzle, algorithm, {}, None)

    def draw_tile(self, puzzle: GridMaze, z: int, x: int, y: int, run: Any = None, t: int = 0) -> bytes:
        from server.puzzles.grid import tiles

        return tiles.png(tiles.draw(puzzle, z, x, y, run, t))

    def tile_frontier(self, puzzle: GridMaze, run: Any) -> bytes:
        return run.frontier_samples(puzzle)

    def tile_cell(self, puzzle: GridMaze, row: int, col: int, run: Any = None) -> dict[str, Any]:
        from server.puzzles.grid import tiles

        return tiles.cell(puzzle, row, col, run)

    def open_tile_run(self, folder: Path, meta: dict[str, Any]) -> Any:
        from server.puzzles.grid import tiles

        return tiles.StoredRun.load(folder, meta)

    # ---- solving ---------------------------------------------------------------------------------
    def problem(self, puzzle: GridMaze, options: Values) -> Problem:
        return GridProblem(self._maze(puzzle, options), options["diagonal"])

    def solve(self, puzzle: GridMaze, algorithm: str, options: Values, control: RunControl) -> Solved:
        maze = self._maze(puzzle, options)
        self._check_heuristic(maze, options)
        if not self.runs_compiled(maze, algorithm, options, control.engine):
            # The kernels know only their built-in heuristics and algorithms; a small board is done
            # by the generic engine before numba and a kernel would have loaded.
            solved = super().solve(maze, algorithm, options, control)
            solved.drawn = maze
            return solved
        from server.puzzles.grid.kernel_search import solve_grid

        result, trace = solve_grid(
            maze,
            algorithm,
            diagonal=options["diagonal"],
            heuristic=options.get("heuristic") or "",
            weight=options["weight"],
            record_trace=control.record_trace,
            max_expanded=control.max_expanded,
            cancel=control.cancel.array,
            progress=control.progress,
        )
        if result.stopped == CANCELLED:  # the kernel saw the flag: say why it was set
            result.stopped = control.cancel.reason
        return Solved(self.result_json(maze, None, result, options), trace, result, None, maze)

    def result_json(
        self, puzzle: GridMaze, problem: Problem | None, result: SearchResult, options: Values
    ) -> dict[str, Any]:
        used = {k: v for k, v in options.items() if k not in ("start", "goal")}
        used["heuristic"] = used.get("heuristic") or ""
        # [[row, col], ...]: from the array, without a list per cell where the caller writes it itself
        # (``server.json_arrays``: the CLI's --json and the HTTP solve)
        path = cell_path(result.path, puzzle.width)
        out = {"family": self.name, **result.to_json(path), "options": used}
        out["lattice"] = puzzle.lattice
        scale = pixel_scale(puzzle.lattice)
        if scale is not None and result.found:
            out["pixel_cost"] = round(result.cost * scale, 6)  # along block / corridor centres
        if result.algorithm in (wall_follower.WALL_LEFT.name, wall_follower.WALL_RIGHT.name):
            message = wall_follower.result_message(GridProblem(puzzle), result)
            if message:
                out["message"] = message
        return out

    def summary_lines(self, filename: str, result: dict[str, Any]) -> list[str]:
        lines = super().summary_lines(filename, result)
        lattice = result.get("lattice")
        if lattice:
            what = (f"{lattice['k']}-pixel blocks" if lattice["kind"] == "blocks"
                    else f"wall lines every {lattice['period']} pixels ({lattice['wall']} thick)")
            pixels = f"; {result['pixel_cost']:g} pixels along the centres" if "pixel_cost" in result else ""
            lines.append(f"lattice: {what}, costs in cells{pixels}")
        return lines

    def solution_image(self, solved: Solved) -> Any:
        from server.puzzles.grid.render import render_solution_indexed

        # A palette image (a byte a pixel) from the path's array: a 225 M-pixel maze in seconds
        path = solved.json.get("path")
        cells = path.cells if isinstance(path, CellPairs) else np.asarray(solved.result.path, dtype=np.int64)
        return render_solution_indexed(solved.drawn, cells)

    def animation_frames(
        self, puzzle: GridMaze, solved: Solved, max_frames: int, max_side: int, progress: Any = None,
    ) -> list[Any] | None:
        from server.puzzles.animation import CellBoard, search_frames
        from server.puzzles.grid.render import cell_colours

        maze = solved.drawn if isinstance(solved.drawn, GridMaze) else puzzle
        if solved.trace is None:
            return None
        board = CellBoard(maze.cells, cell_colours()[:10], maze.starts.tolist(), maze.goals.tolist())
        return search_frames(board, solved.trace, max_frames, max_side, progress)

    # ---- making and editing ------------------------------------------------------------------------
    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        from server.puzzles.grid.generate import generate_grid

        made = generate_grid(kind, values["rows"], values["cols"], values["seed"], values.get("density"),
                             record=steps)
        return Generated(made.maze, made.description, made.initial_fill, made.steps)

    def save(self, puzzle: GridMaze, fmt: str | None = None) -> bytes:
        from server.puzzles.grid.generate import maze_to_image, maze_to_text

        fmt = self.check_format(fmt, puzzle)
        if fmt == "txt":
            return maze_to_text(puzzle).encode("ascii")
        if puzzle.weighted:
            raise PuzzleError("a PNG keeps walls and free cells only, and this board has weights: "
                              "save it as txt", "format")
        buffer = io.BytesIO()
        maze_to_image(puzzle).save(buffer, "PNG", optimize=puzzle.width * puzzle.height <= 4_000_000)
        data = buffer.getvalue()
        from server.puzzles.grid.image import parse_grid_image

        again = parse_grid_image(data, puzzle.name)
        if again.lattice is not None:  # its cells happen to form a lattice of their own
            raise PuzzleError("this board's PNG would read as a lattice of larger cells: save it as txt",
                              "format")
        same = np.array_equal(again.starts, puzzle.starts) and np.array_equal(again.goals, puzzle.goals)
        if not same:  # an image's start and goal are the openings in its border
            raise PuzzleError("a PNG marks the start and goal only as openings in the border (or in "
                              "colour), and this board's differ: save it as txt", "format")
        return data

    def edit(self, puzzle: GridMaze, edits: list[dict[str, Any]]) -> GridMaze:
        from server.puzzles.grid.edit import edit_grid

        return edit_grid(puzzle, edits)

    def runs_compiled(self, maze: GridMaze, algorithm: str, options: Values, engine: str = "auto") -> bool:
        """Whether ``solve`` runs a kernel: one exists for the run, and the engine is "compiled", or
        "auto" on a board of at least ``COMPILED_MIN_CELLS`` or once this process has loaded the kernels
        (a server's later runs: loading costs nothing more, and both engines give the same result)."""
        if engine == "generic" or self.needs_generic(algorithm, options):
            return False
        return engine == "compiled" or maze.cells.size >= COMPILED_MIN_CELLS or kernels_loaded()

    def warm_up(self, algorithm: str) -> None:
        """Load the kernel ``algorithm`` runs on a big board (the CLI does it while it reads a big file)."""
        if algorithm in KERNEL_ALGORITHMS:
            from server.puzzles.grid.kernel_search import warm_up

            warm_up(algorithm)

    # ---- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _maze(puzzle: GridMaze, options: Values) -> GridMaze:
        """The maze with the run's start and goal (checked), which must then have both."""
        maze = puzzle.with_endpoints(options.get("start"), options.get("goal"))
        maze.require_endpoints()
        return maze

    def _check_heuristic(self, maze: GridMaze, options: Values) -> None:
        from server.puzzles.family import search_options

        search_options(self.run_problem(maze, options), options)

    # ---- checking a student's work -------------------------------------------------------------------
    def check_solution(self, puzzle: GridMaze, text: str, options: Values) -> Any:
        from server.puzzles.grid.check import check_grid_solution

        return check_grid_solution(self._maze(puzzle, options), text, options["diagonal"], options)

    def lab_space(self, puzzle: GridMaze, options: Values, max_states: int, max_seconds: float | None = None,
                  cancel: Any = None) -> Any:
        """Every cell at once (``grid/lab.py``); the board's cells are bounded when it is loaded."""
        from server.puzzles.grid.lab import GridSpace

        return GridSpace(self._maze(puzzle, options), options["diagonal"])

    def lab_bytes(self, puzzle: GridMaze, max_states: int) -> int:
        """Every cell is judged, whatever ``max_states``: ~25 bytes a cell on an open board (h*, h, the
        cell and state numbers), the heat map's and the chunks' work (``grid/lab.py``)."""
        from server.puzzles.grid.lab import lab_bytes

        return lab_bytes(puzzle)


FAMILY = GridFamily()
