"""The grid maze family: images and text files, searched by the compiled kernels (or, with
``engine="generic"``, by the pure-Python algorithms they are tested against)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from server.puzzles.errors import PuzzleError
from server.puzzles.family import Family, LoadLimits, RunControl, Solved, stem
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.problem import HEURISTICS, GridProblem
from server.puzzles.options import Option, Values
from server.search.control import CANCELLED
from server.search.problem import Problem
from server.search.stats import SearchResult

# The formats grid.image accepts (TIFF and EPS are kept away from uploads there).
IMAGE_EXTENSIONS = (".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp", ".ppm", ".pgm", ".pbm")
IMAGE_MAGIC = (b"\x89PNG", b"GIF8", b"BM", b"\xff\xd8\xff", b"RIFF")
TEXT_EXTENSIONS = (".txt", ".maze")
_GRID_CHARS = re.compile(r"[#. SG1-9\r\n]")
SNIFF_BYTES = 65_536  # how much of a text file sniffing reads


class GridFamily(Family):
    """Grid mazes (docs: README "Formats")."""

    def __init__(self) -> None:
        super().__init__(
            name="grid",
            title="Grid maze",
            puzzle_type=GridMaze,
            extensions=(*IMAGE_EXTENSIONS, *TEXT_EXTENSIONS),
            expects="a maze image (PNG, GIF, BMP, JPEG, WebP, PPM: dark walls, light floor) or a text "
            "maze ('#' wall, '.' free, 'S' start, 'G' goal, digits 1-9 weights)",
            algorithms=("bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional"),
            heuristics=HEURISTICS,
            own_options=(
                Option("diagonal", "bool", "Diagonal moves", "8 neighbours, never cutting a wall's corner",
                       default=False),
                Option("start", "point", "Start", "ROW,COL of the start (overrides the file)",
                       optional=True, control="view"),
                Option("goal", "point", "Goal", "ROW,COL of the goal (overrides the file)",
                       optional=True, control="view"),
            ),
            compiled=True,
            path_noun="cells",
            generators=("perfect", "braid"),
            generators_help="perfect (one path between any two cells) or braid (no dead ends) mazes of "
            "ROWS x COLS cells, written as PNG (2*ROWS+1 pixels high) or text for .txt",
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
            return parse_grid_image(data, stem(filename), max_pixels=limits.max_pixels)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise PuzzleError(
                f"not a text maze (byte {err.start} is not UTF-8) and not an image this app can read", "file"
            ) from None
        return parse_grid_text(text, stem(filename), max_cells=limits.max_cells)

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
        }

    def cells(self, puzzle: GridMaze) -> bytes:
        return puzzle.cells.tobytes()

    # ---- solving ---------------------------------------------------------------------------------
    def problem(self, puzzle: GridMaze, options: Values) -> Problem:
        return GridProblem(self._maze(puzzle, options), options["diagonal"])

    def solve(self, puzzle: GridMaze, algorithm: str, options: Values, control: RunControl) -> Solved:
        maze = self._maze(puzzle, options)
        self._check_heuristic(maze, options)
        if control.engine == "generic":
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
        rows, cols = np.divmod(np.asarray(result.path, dtype=np.int64), puzzle.width)
        used = {k: v for k, v in options.items() if k not in ("start", "goal")}
        used["heuristic"] = used.get("heuristic") or ""
        path = np.stack([rows, cols], axis=1).tolist()
        return {"family": self.name, **result.to_json(path), "options": used}

    def solution_image(self, solved: Solved) -> Any:
        from server.puzzles.grid.render import render_solution

        return render_solution(solved.drawn, [int(c) for c in solved.result.path])

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

    def generate(self, kind: str, rows: int, cols: int, seed: int, out: Path) -> str:
        from server.puzzles.grid.generate import generate_braid, generate_perfect, maze_to_image, maze_to_text

        maze = (generate_perfect if kind == "perfect" else generate_braid)(rows, cols, seed)
        if out.suffix.lower() == ".txt":
            out.write_text(maze_to_text(maze), encoding="utf-8")
        else:
            maze_to_image(maze).save(out)
        return f"wrote {out} ({maze.width} x {maze.height} pixels)"

    def warm_up(self, algorithm: str) -> None:
        if algorithm in self.algorithms:
            from server.puzzles.grid.kernel_search import warm_up

            warm_up(algorithm)

    # ---- helpers ---------------------------------------------------------------------------------
    @staticmethod
    def _maze(puzzle: GridMaze, options: Values) -> GridMaze:
        """The maze with the run's start and goal (checked), which must then have both."""
        maze = puzzle.with_endpoints(options.get("start"), options.get("goal"))
        maze.require_endpoints()
        return maze

    @staticmethod
    def _check_heuristic(maze: GridMaze, options: Values) -> None:
        from server.puzzles.family import search_options

        search_options(GridProblem(maze, options["diagonal"]), options)


FAMILY = GridFamily()
