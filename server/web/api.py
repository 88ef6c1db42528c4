"""The JSON API (docs/PROTOCOL.md): algorithms, gallery, upload, puzzle cells, headless solve."""

from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file

from server.budget import WorkBudget
from server.clients import RateLimits, client_id, remote_address
from server.config import Config
from server.puzzles.errors import PuzzleError
from server.puzzles.family import LoadLimits
from server.puzzles.registry import FAMILIES, detect_family, family_of, get_family, load_puzzle
from server.search.registry import ALGORITHMS
from server.solving import Solved, check_run, solve
from server.store import PuzzleStore, puzzle_id

api = Blueprint("api", __name__)


def _config() -> Config:
    return current_app.extensions["maze_config"]


def _store() -> PuzzleStore:
    return current_app.extensions["puzzle_store"]


def _budget() -> WorkBudget:
    return current_app.extensions["work_budget"]


def _take(what: str, per_minute: int) -> str:
    """Count one upload or run for this client (429 past its cap); returns the client's id."""
    client = client_id()
    rate_limits: RateLimits = current_app.extensions["rate_limits"]
    rate_limits.take(what, per_minute, client, remote_address())
    return client


def _json_body() -> Any:
    """The request's JSON, or None when it is not JSON; JSON nested past Python's recursion limit is
    refused (werkzeug's ``silent`` covers only ValueError)."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        raise PuzzleError("the JSON body is nested too deeply", "body") from None


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
            "families": [f.name for f in FAMILIES.values() if a.name in f.algorithms],
        }
        for a in ALGORITHMS.values()
    ])


@api.get("/families")
def families() -> Response:
    """Each family: its title, file types, algorithms and options schema (docs/PROTOCOL.md)."""
    return jsonify([family.describe_json() for family in FAMILIES.values()])


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
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            return image.size
    except UnidentifiedImageError:
        puzzle = load_puzzle(path.read_bytes(), path.name)
        return family_of(puzzle).size(puzzle)


@api.get("/gallery")
def gallery() -> Response:
    return jsonify(gallery_entries())


@api.post("/puzzles")
def upload() -> tuple[Response, int]:
    """Parse an uploaded file (multipart ``file``, optional ``family`` and load options as form
    fields) or a gallery puzzle (JSON ``{"gallery": name}``)."""
    client = _take("upload", _config().uploads_per_minute)
    fields = {k: v for k, v in request.form.items() if k != "family"}
    family_name = request.form.get("family") or None
    owner: str | None = client
    if request.is_json:
        body = _json_body()
        if not isinstance(body, dict):
            return bad_request('expected a JSON object like {"gallery": "name"}')
        name = body.get("gallery")
        entry = next((e for e in gallery_entries() if e["name"] == name), None)
        if entry is None:
            return bad_request(f"no gallery puzzle named {str(name)[:60]!r}", 404)
        filename = entry["file"]
        data = (_config().mazes_dir / filename).read_bytes()
        family_name, fields, owner = entry.get("family"), {}, None  # the gallery's are shared
    else:
        upload_file = request.files.get("file")
        if upload_file is None:
            return bad_request("no file in the upload (expected the form field 'file')")
        filename = (upload_file.filename or "upload")[-200:]
        data = upload_file.read()
    try:
        family = get_family(family_name) if family_name else detect_family(filename, data)
        load_options = family.text_options(fields, "load")
        key = puzzle_id(data, f"{family.name}|{sorted(load_options.items())}")
        puzzle = _store().get(key)
        if puzzle is None:
            limits = LoadLimits(max_pixels=_config().max_pixels, max_cells=_config().max_pixels)
            with _budget().loading(wait=_config().solve_wait):
                puzzle = family.load(data, filename, load_options, limits)
            _store().put(key, puzzle, owner=owner)
        elif owner is not None:
            _store().put(key, puzzle, owner=owner)  # this client holds it too
    except PuzzleError as err:  # name the user's file rather than our word "file"
        where = "" if err.where in (None, "file") else f", {err.where}"
        return bad_request(f"{filename}{where}: {err.message}")
    info = puzzle_info(key, puzzle)
    info["name"] = Path(filename).stem or info["name"]  # the same bytes may come under another name
    return jsonify(info), 201


def _get_puzzle(pid: str) -> Any:
    puzzle = _store().get(pid)
    if puzzle is None:
        raise LookupError(pid)
    return puzzle


@api.errorhandler(LookupError)
def unknown_puzzle(err: LookupError):
    pid = str(err.args[0])[:40]
    return bad_request(f"no puzzle with id {pid!r} (it may have expired: upload it again)", 404)


@api.get("/puzzles/<pid>")
def info(pid: str) -> Response:
    return jsonify(puzzle_info(pid, _get_puzzle(pid)))


@api.get("/puzzles/<pid>/cells")
def cells(pid: str) -> Response:
    puzzle = _get_puzzle(pid)
    family = family_of(puzzle)
    data = family.cells(puzzle)
    if data is None:
        return bad_request(
            f"a {family.title.lower()} has no cell grid: its board is in the puzzle info "
            f"(GET /api/puzzles/{pid})",
            404,
        )
    return Response(data, mimetype="application/octet-stream")


@api.post("/puzzles/<pid>/solve")
def solve_puzzle(pid: str) -> Response:
    puzzle = _get_puzzle(pid)
    body = _json_body()
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise PuzzleError(f"expected a JSON object, got {type(body).__name__}", "body")
    algorithm = body.get("algorithm", "bfs")
    options = {k: v for k, v in body.items() if k != "algorithm"}
    return jsonify(_solve_with_limits(puzzle, algorithm, options).json)


@api.get("/puzzles/<pid>/solution.png")
def solution_png(pid: str) -> Response:
    puzzle = _get_puzzle(pid)
    family = family_of(puzzle)
    args = dict(request.args.items())
    algorithm = args.pop("algorithm", "bfs")
    options = family.text_options(args, "run")
    solved = _solve_with_limits(puzzle, algorithm, options)
    if not solved.json["found"]:
        raise PuzzleError(solved.json.get("message") or f"{algorithm} found no path", "solution")
    image = family.solution_image(solved)
    if image is None:
        raise PuzzleError(f"solution images are not drawn for the {family.name} family")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    buffer.seek(0)
    return send_file(buffer, mimetype="image/png")


def _solve_with_limits(puzzle: Any, algorithm: Any, options: Any) -> Solved:
    """Solve within the server's budget (a worker slot, waited for a while) and limits."""
    config = _config()
    check_run(puzzle, algorithm, options)
    _take("run", config.runs_per_minute)
    with _budget().computing(wait=config.solve_wait):
        return solve(puzzle, algorithm, options, **config.search_limits(family_of(puzzle).compiled))


@api.get("/health")
def health() -> Response:
    """What the server is doing: runs, searches computing, trace memory, threads, stored puzzles."""
    import threading

    runs = current_app.extensions["run_manager"].active()
    return jsonify({
        "runs": runs, "threads": threading.active_count(), "puzzles": len(_store()), **_budget().snapshot(),
        **current_app.extensions["animations"].snapshot(),
    })


def puzzle_info(pid: str, puzzle: Any) -> dict[str, Any]:
    """What the page needs to know about a puzzle (docs/PROTOCOL.md)."""
    family = family_of(puzzle)
    return {"id": pid, "family": family.name, "algorithms": list(family.algorithms), **family.info(puzzle)}
