"""The grid maze family: images and text files, searched by the compiled kernels on big boards (or, on
small ones and with ``engine="generic"``, by the pure-Python algorithms they are tested against)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...i18n import t
from ...json_arrays import cell_path
from ...search.control import CANCELLED
from ...search.problem import Problem
from ...search.stats import SearchResult
from ..capabilities import StudentForm
from ..errors import PuzzleError
from ..family import Family, LoadLimits, RunControl, Solved, search_options, stem
from ..options import Option, Values
from . import jps, wall_follower  # they register the grid's own algorithms
from .check import GridChecker
from .edit import MAX_EDIT_CELLS, GridEditor
from .formats import (
    IMAGE_EXTENSIONS,
    IMAGE_MAGIC,
    OTHER_NOTATIONS,
    PNM_MAGIC,
    SNIFF_BYTES,
    TEXT_EXTENSIONS,
)
from .generate import GridMaker
from .image import parse_grid_image
from .kernel_search import KERNEL_ALGORITHMS, kernels_loaded, solve_grid
from .kernel_search import warm_up as warm_up_kernel
from .lab import GridLab
from .lattice import pixel_scale
from .model import GridMaze
from .problem import HEURISTICS, GridProblem, run_maze
from .render import GridAnimation, GridSolutionImage
from .save import GridSaver
from .text import parse_grid_text
from .tiles import GridTiles

_GRID_CHARS = re.compile(r"[#. SG1-9\r\n]")


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
            name="grid",
            title="grid.grid_maze_2",
            puzzle_type=GridMaze,
            extensions=(*IMAGE_EXTENSIONS, *TEXT_EXTENSIONS),
            expects="grid.maze_image_png_gif_bmp",
            algorithms=(*KERNEL_ALGORITHMS, jps.JPS.name, wall_follower.WALL_LEFT.name,
                        wall_follower.WALL_RIGHT.name),
            fast_algorithms=KERNEL_ALGORITHMS,  # JPS and the wall followers run in Python
            heuristics=HEURISTICS,
            own_options=(
                Option("diagonal", "bool", "grid.diagonal_moves", "grid.8_neighbours_never_cutting_wall",
                       default=False),
                Option("start", "point", "grid.option.start", "grid.row_col_start_overrides_file",
                       optional=True, control="view"),
                Option("goal", "point", "grid.option.goal", "grid.row_col_goal_overrides_file",
                       optional=True, control="view"),
                Option("lattice", "choice", "grid.option.lattice",
                       "grid.auto_image_drawn_in_k", default="auto",
                       choices=(("auto", "grid.choice.auto"), ("off", "grid.choice.off")), stage="load"),
            ),
            compiled=True,
            path_noun="cells",
            tiles=GridTiles(self),
            lab=GridLab(self),
            checker=GridChecker(self),
            maker=GridMaker(self),
            saver=GridSaver(self),
            editor=GridEditor(self),
            animation=GridAnimation(self),
            solution_image=GridSolutionImage(self),
            student=StudentForm("grid.state_form"),
        )

    # ---- files -----------------------------------------------------------------------------------
    def from_array(self, array: Any) -> tuple[float, bytes] | None:
        from .arrays import maze_text  # only for a notebook's array

        text = maze_text(array)
        return None if text is None else (0.5, text)  # any 0–9 matrix: a guess a surer family beats

    def sniff(self, filename: str, data: bytes) -> float:
        ext = Path(filename).suffix.lower()
        if data.startswith(IMAGE_MAGIC) or data[:2] in PNM_MAGIC:
            return 1.0
        if ext in IMAGE_EXTENSIONS:
            return 0.9  # the image parser says what is wrong with it
        text = self.sample_text(data, SNIFF_BYTES)
        if text is None:
            return 0.0
        if not text.strip():
            return 0.2 if ext in TEXT_EXTENSIONS else 0.0
        share = len(_GRID_CHARS.findall(text)) / len(text)
        if "#" in text and share >= 0.9:
            return 0.8  # the text parser names any stray character
        if OTHER_NOTATIONS.search(text):
            return 0.0  # another family's notation (formats.py): not a guess for the grid
        return 0.3 if ext in TEXT_EXTENSIONS else 0.0

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> GridMaze:
        if not data:
            raise PuzzleError(t("grid.file_empty"), t("grid.file"))
        if self.sniff(filename, data) >= 0.9:
            return parse_grid_image(data, stem(filename), max_pixels=limits.max_pixels,
                                    lattice=options.get("lattice") or "auto", progress=limits.progress,
                                    memory=limits.memory)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise PuzzleError(
                t("grid.not_text_maze_byte_not", start=err.start), t("grid.file")
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

    # ---- solving ---------------------------------------------------------------------------------
    def problem(self, puzzle: GridMaze, options: Values) -> Problem:
        return GridProblem(run_maze(puzzle, options), options["diagonal"])

    def solve(self, puzzle: GridMaze, algorithm: str, options: Values, control: RunControl) -> Solved:
        maze = run_maze(puzzle, options)
        search_options(self.run_problem(maze, options), options)  # the heuristic, checked first
        if not self.runs_compiled(maze, algorithm, options, control.engine):
            # The kernels know only their built-in heuristics and algorithms; a small board is done
            # by the generic engine before numba and a kernel would have loaded.
            solved = super().solve(maze, algorithm, options, control)
            solved.drawn = maze
            return solved
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
            what = (
                t("grid.pixel_blocks", k=lattice["k"])
                if lattice["kind"] == "blocks"
                else t("grid.wall_lines_every_pixels_thick", period=lattice["period"], wall=lattice["wall"])
            )
            pixels = (
                t("grid.pixels_along_centres", pixel_cost=f"{result['pixel_cost']:g}")
                if "pixel_cost" in result
                else ""
            )
            lines.append(t("grid.lattice_costs_in_cells", what=what, pixels=pixels))
        return lines

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
            warm_up_kernel(algorithm)


FAMILY = GridFamily()
