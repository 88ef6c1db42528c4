"""The JSON API (docs/PROTOCOL.md): algorithms, gallery, upload, puzzle cells, headless solve."""

from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file

from server.config import Config
from server.puzzles.errors import PuzzleError
from server.puzzles.grid_model import GridMaze
from server.puzzles.grid_problem import HEURISTICS
from server.puzzles.labyrinth_model import LabyrinthPuzzle
from server.puzzles.labyrinth_parse import LabyrinthOptions
from server.puzzles.registry import IMAGE_EXTENSIONS, Puzzle, load_puzzle, puzzle_family
from server.search.registry import ALGORITHMS, FAMILY_ALGORITHMS
from server.solving import RunOptions, solve
from server.store import PuzzleStore, puzzle_id

api = Blueprint("api", __name__)


def _config() -> Config:
    return current_app.extensions["maze_config"]


def _store() -> PuzzleStore:
    return current_app.extensions["puzzle_store"]


def bad_request(message: str, status: int = 400) -> tuple[Response, int]:
    return jsonify(error=message), status


@api.errorhandler(PuzzleError)
def puzzle_error(err: PuzzleError):
    return bad_request(str(err))


@api.get("/algorithms")
def algorithms() -> Response:
    return jsonify([
        {
            "name": a.name,
            "label": a.label,
            "summary": a.summary,
            "uses_heuristic": a.uses_heuristic,
            "uses_weight": a.uses_weight,
            "families": [f for f, names in FAMILY_ALGORITHMS.items() if a.name in names],
        }
        for a in ALGORITHMS.values()
    ])


@api.get("/families")
def families() -> Response:
    from server.puzzles.labyrinth_problem import HEURISTICS as LABYRINTH_HEURISTICS

    return jsonify({
        "labyrinth": {"heuristics": list(LABYRINTH_HEURISTICS)},
        "grid": {
            "heuristics": list(HEURISTICS),
            "heuristics_diagonal": ["octile", "chebyshev", "euclidean", "manhattan"],
        }
    })


def gallery_entries() -> list[dict[str, Any]]:
    """The bundled mazes of ``mazes/gallery.json``, each with its size."""
    return _read_gallery(_config().mazes_dir)


@lru_cache(maxsize=4)
def _read_gallery(mazes_dir: Path) -> list[dict[str, Any]]:
    path = mazes_dir / "gallery.json"
    if not path.exists():
        return []
    entries = json.loads(path.read_text(encoding="utf-8"))
    for entry in entries:
        entry["width"], entry["height"] = _size_of(mazes_dir / entry["file"])
    return entries


def _size_of(path: Path) -> tuple[int, int]:
    """(width, height) of a bundled file: an image's header, else the parsed puzzle (small files)."""
    from PIL import Image

    if path.suffix.lower() in IMAGE_EXTENSIONS:
        with Image.open(path) as image:
            return image.size
    puzzle = load_puzzle(path.read_bytes(), path.name)
    if isinstance(puzzle, LabyrinthPuzzle):
        return puzzle.cols, puzzle.rows
    return puzzle.width, puzzle.height


@api.get("/gallery")
def gallery() -> Response:
    return jsonify(gallery_entries())


@api.post("/puzzles")
def upload() -> tuple[Response, int]:
    """Parse an uploaded file (multipart ``file``) or a gallery maze (JSON ``{"gallery": name}``)."""
    family = request.form.get("family") or None
    if request.is_json:
        body = request.get_json(silent=True) or {}
        name = body.get("gallery")
        entry = next((e for e in gallery_entries() if e["name"] == name), None)
        if entry is None:
            return bad_request(f"no gallery maze named {name!r}", 404)
        filename = entry["file"]
        data = (_config().mazes_dir / filename).read_bytes()
        family = entry.get("family")
    else:
        upload_file = request.files.get("file")
        if upload_file is None:
            return bad_request("no file in the upload (expected the form field 'file')")
        filename = upload_file.filename or "upload"
        data = upload_file.read()
    labyrinth = _labyrinth_options(request.form)
    key = puzzle_id(data, f"{family}|{labyrinth}")
    puzzle = _store().get(key)
    if puzzle is None:
        try:
            puzzle = load_puzzle(data, filename, family, max_pixels=_config().max_pixels, labyrinth=labyrinth)
        except PuzzleError as err:  # name the user's file rather than our word "file"
            where = "" if err.where in (None, "file") else f", {err.where}"
            return bad_request(f"{filename}{where}: {err.message}")
        _store().put(key, puzzle)
    info = puzzle_info(key, puzzle)
    info["name"] = Path(filename).stem or info["name"]  # the same bytes may come under another name
    return jsonify(info), 201


def _labyrinth_options(form: Any) -> LabyrinthOptions:
    """The labyrinth options an upload may carry as form fields (see docs/PROTOCOL.md)."""
    run = RunOptions.from_json({k: form[k] for k in ("moves", "start_col", "goal_col") if form.get(k)})
    return LabyrinthOptions(moves=run.moves, start_col=run.start_col, goal_col=run.goal_col)


def _get_puzzle(pid: str) -> Puzzle:
    puzzle = _store().get(pid)
    if puzzle is None:
        raise LookupError(pid)
    return puzzle


@api.errorhandler(LookupError)
def unknown_puzzle(err: LookupError):
    return bad_request(f"no puzzle with id {err.args[0]!r} (it may have expired: upload it again)", 404)


@api.get("/puzzles/<pid>")
def info(pid: str) -> Response:
    return jsonify(puzzle_info(pid, _get_puzzle(pid)))


@api.get("/puzzles/<pid>/cells")
def cells(pid: str) -> Response:
    maze = _get_puzzle(pid)
    return Response(maze.cells.tobytes(), mimetype="application/octet-stream")


@api.post("/puzzles/<pid>/solve")
def solve_puzzle(pid: str) -> Response:
    puzzle = _get_puzzle(pid)
    body = request.get_json(silent=True) or {}
    algorithm = str(body.get("algorithm", "bfs"))
    options = RunOptions.from_json({k: v for k, v in body.items() if k != "algorithm"})
    solved = _solve_with_limits(puzzle, algorithm, options)
    return jsonify(solved.json)


@api.get("/puzzles/<pid>/solution.png")
def solution_png(pid: str) -> Response:
    from server.puzzles.grid_render import render_solution

    puzzle = _get_puzzle(pid)
    options = RunOptions.from_json({k: v for k, v in request.args.items() if k in ("heuristic", "weight")})
    if not isinstance(puzzle, GridMaze):
        raise PuzzleError("solution images are drawn for grid mazes only")
    solved = _solve_with_limits(puzzle, request.args.get("algorithm", "bfs"), options)
    image = render_solution(puzzle, [int(c) for c in solved.result.path])
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    buffer.seek(0)
    return send_file(buffer, mimetype="image/png")


def _solve_with_limits(puzzle: Puzzle, algorithm: str, options: RunOptions):  # -> Solved
    """Solve within the server's limits for this family (solve() checks the algorithm)."""
    config = _config()
    limit = config.expansion_limit(puzzle_family(puzzle))
    return solve(puzzle, algorithm, options, max_expanded=limit, max_seconds=config.max_seconds)


def puzzle_info(pid: str, puzzle: Puzzle) -> dict[str, Any]:
    """What the page needs to know about a puzzle (docs/PROTOCOL.md)."""
    family = puzzle_family(puzzle)
    if family == "labyrinth":
        return labyrinth_info(pid, puzzle)
    return {
        "id": pid,
        "name": puzzle.name,
        "family": puzzle_family(puzzle),
        "width": puzzle.width,
        "height": puzzle.height,
        "starts": [list(puzzle.rc(i)) for i in puzzle.starts[:10_000]],
        "goals": [list(puzzle.rc(i)) for i in puzzle.goals[:10_000]],
        "weighted": puzzle.weighted,
        "endpoint_problem": puzzle.endpoint_problem,
        "notes": puzzle.notes,
        "algorithms": list(FAMILY_ALGORITHMS["grid"]),
    }


def labyrinth_info(pid: str, puzzle: LabyrinthPuzzle) -> dict[str, Any]:
    from server.puzzles.labyrinth_problem import HEURISTICS

    return {
        "id": pid,
        "name": puzzle.name,
        "family": "labyrinth",
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "width": puzzle.cols,
        "height": puzzle.rows,
        "board": puzzle.board_rows(),
        "free_tile": puzzle.free,
        "start_col": puzzle.start_col,
        "goal_col": puzzle.goal_col,
        "moves": puzzle.moves,
        "insertions": [point.to_json() for point in puzzle.insertions],
        "rotate_free": puzzle.rotate_free,
        "algorithms": list(FAMILY_ALGORITHMS["labyrinth"]),
        "heuristics": list(HEURISTICS),
        "notes": [f"read as {puzzle.source_format} format"],
    }
