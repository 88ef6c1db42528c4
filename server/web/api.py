"""The JSON API (docs/PROTOCOL.md): algorithms, gallery, upload, puzzle cells, headless solve."""

from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file

from .. import json_arrays
from ..budget import ServerBusy
from ..clients import TooMany, client_id, client_ids
from ..i18n import t
from ..puzzles.errors import PuzzleError, where_text
from ..puzzles.family import LoadLimits
from ..puzzles.registry import (
    FAMILIES,
    detect_family,
    family_of,
    get_family,
    load_detected,
    load_puzzle,
)
from ..search.registry import ALGORITHMS
from ..services import services
from ..solving import Solved, check_run, search_plan, solve
from ..store import Source, puzzle_id
from ..uploads import HEADER, Tracker, check_upload_id, progress_registry
from .common import (
    answer_errors,
    error,
    json_body,
    puzzle_info,
    stored_puzzle,
    take,
)

api = Blueprint("api", __name__)


answer_errors(api)
bad_request = error  # the name the rest of this module uses


@api.get("/algorithms")
def algorithms() -> Response:
    families = list(FAMILIES.values())  # first: importing a family registers its own algorithms
    return jsonify([
        {
            "name": a.name,
            "label": a.label_text,
            "summary": a.summary_text,
            "uses_heuristic": a.uses_heuristic,
            "uses_weight": a.uses_weight,
            "families": [f.name for f in families if a.name in f.algorithms],
        }
        for a in list(ALGORITHMS.values())
    ])


@api.get("/families")
def families() -> Response:
    """Each family: its title, file types, algorithms and options schema (docs/PROTOCOL.md)."""
    return jsonify([family.describe_json() for family in FAMILIES.values()])


def gallery_entries() -> list[dict[str, Any]]:
    """The bundled mazes of ``mazes/gallery.json``, each with its size."""
    return _read_gallery(services().config.mazes_dir)


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
    """The gallery, its titles and descriptions in the reader's language (``gallery.<name>.*`` keys,
    else the JSON's own text)."""
    return jsonify([translated_entry(entry) for entry in gallery_entries()])


def translated_entry(entry: dict[str, Any]) -> dict[str, Any]:
    shown = dict(entry)
    name = entry.get("name")
    for field in ("title", "description"):
        key = f"gallery.{name}.{field}"
        text = t(key)
        if field in entry and text != key:
            shown[field] = text
    return shown


@api.post("/puzzles")
def upload() -> tuple[Response, int]:
    """Parse an uploaded file (multipart ``file``, optional ``family`` and load options as form
    fields), a gallery puzzle (JSON ``{"gallery": name}``) or a stored puzzle's file read again with
    other load options (JSON ``{"puzzle": id, "options": {...}}``). With a header ``X-Upload-Id`` its
    phases are pollable at ``GET /api/uploads/<id>`` meanwhile (server/uploads.py)."""
    shared = services()
    upload_id = check_upload_id(request.headers.get(HEADER))
    tracker = progress_registry(shared.config.redis_url).tracker(upload_id, client_id())  # its maker's
    try:
        answer, status = _upload(shared, tracker)
    except Exception as err:  # the app answers it (400, 413, 429, 503); the polls hear its words
        tracker.fail(str(err) if isinstance(err, PuzzleError | ServerBusy | TooMany) else t("upload.failed"))
        raise
    if status == 201:
        tracker.finish()
    else:
        tracker.fail((answer.get_json(silent=True) or {}).get("error") or t("upload.failed"))
    return answer, status


def _upload(shared: Any, tracker: Tracker) -> tuple[Response, int]:
    """``upload``'s work, telling ``tracker`` its phases. The body itself is memory too (its file's bytes
    and the form parser's copy): reserved from the client's share before it is read, so one client's
    many parallel 64 MB uploads wait behind each other instead of filling the process."""
    client = take("upload", shared.config.uploads_per_minute)
    tracker("received")
    received = shared.budget.reserve(
        BODY_COPIES * (request.content_length or 0), wait=shared.config.solve_wait, owner=client,
        what="to receive this upload", need="receiving this upload",
        on_wait=lambda message: tracker("received", None, message[:1].upper() + message[1:]),
    )
    try:
        return _read_upload(shared, tracker, client)
    finally:
        shared.budget.release(received, client)


BODY_COPIES = 2  # an upload's bytes are held twice while it is read: the form parser's and the file's


def _read_upload(shared: Any, tracker: Tracker, client: str) -> tuple[Response, int]:
    fields = {k: v for k, v in request.form.items() if k != "family"}
    family_name = request.form.get("family") or None
    owner: str | None = client
    json_options: dict[str, Any] | None = None  # load options given as JSON (else form fields, as text)
    if request.is_json:
        body = json_body()
        if not isinstance(body, dict):
            return bad_request(t("web.api.expected_gallery_name_or_puzzle"))
        if "puzzle" in body:  # a stored puzzle's file read again with other load options
            pid = body.get("puzzle")
            source = shared.store.source(pid) if isinstance(pid, str) else None
            if source is None:
                return bad_request(t("web.api.this_puzzle_s_file_not"), 404)
            options = body.get("options")
            if not isinstance(options, dict):
                return bad_request(t("web.api.expected_options_object_load_options"))
            filename, data, family_name = source.filename, source.data, source.family
            json_options = {**source.options, **options}  # JSON values: checked strictly, not as text
        else:
            name = body.get("gallery")
            entry = next((e for e in gallery_entries() if e["name"] == name), None)
            if entry is None:
                return bad_request(t("web.api.no_gallery_puzzle_named", value=repr(str(name)[:60])), 404)
            filename = entry["file"]
            data = (shared.config.mazes_dir / filename).read_bytes()
            family_name, fields, owner = entry.get("family"), {}, None  # the gallery's are shared
    else:
        upload_file = request.files.get("file")
        if upload_file is None:
            return bad_request(t("web.api.no_file_upload_expected_form"))
        filename = (upload_file.filename or "upload")[-200:]
        data = upload_file.read()
    try:
        family = get_family(family_name) if family_name else detect_family(filename, data)
        if json_options is None:
            load_options = family.text_options(fields, "load")
        else:
            load_options = family.load_options(json_options)
        # Archived with what parsing it again needs, the gallery's too: with several processes the
        # page's socket may be on another process than this request, which must find the id.
        source = Source(data, family.name, filename, load_options)
        key = puzzle_id(data, f"{family.name}|{sorted(load_options.items())}")
        puzzle = shared.store.cached(key)
        if puzzle is None:
            held = [0]  # the memory the load reserved from the work budget, once its header was read

            def waiting(message: str) -> None:
                tracker("received", None, message[:1].upper() + message[1:])

            def memory(nbytes: int) -> None:  # the family's estimate once a header says the size
                held[0] = shared.budget.resize(
                    held[0], held[0] + nbytes, wait=shared.config.solve_wait, on_wait=waiting,
                    what="to read this image", owner=client, need="reading this file",
                )

            limits = LoadLimits(max_pixels=shared.config.max_pixels, max_cells=shared.config.max_pixels,
                                progress=tracker, memory=memory)
            try:
                memory(family.load_bytes(data, filename, load_options))  # known before parsing starts
                with shared.budget.loading(wait=shared.config.solve_wait, owner=client):
                    # detected: a guess that does not parse also says what the other families read
                    puzzle = (family.load(data, filename, load_options, limits) if family_name
                              else load_detected(family, data, filename, load_options, limits))
            finally:
                shared.budget.release(held[0], client)
            tracker("storing")
            shared.store.put(key, puzzle, owner=owner, source=source)
        elif owner is not None:
            shared.store.put(key, puzzle, owner=owner, source=source)  # this client holds it too
    except PuzzleError as err:  # name the user's file rather than our word "file"
        where = "" if err.where in (None, "file") else f", {where_text(err.where)}"
        return bad_request(t("web.api.text", filename=filename, where=where, message=err.message))
    info = puzzle_info(key, puzzle)
    info["name"] = Path(filename).stem or info["name"]  # the same bytes may come under another name
    return jsonify(info), 201


@api.get("/uploads/<upload_id>")
def upload_progress(upload_id: str) -> Response:
    """How far the server is with an upload (``X-Upload-Id``): ``{phase, fraction, message}``;
    ``phase`` "unknown" for an id no process has heard of (yet, or any more) or another client's (an
    upload is answered to its maker only: ``clients.client_ids``). Not rate-limited: the page polls
    it every ~300 ms while its POST is pending, and it costs a lookup."""
    check_upload_id(upload_id)
    found = progress_registry(services().config.redis_url).status(upload_id, client_ids())
    return jsonify(found or {**_UNKNOWN_UPLOAD, "message": t(_UNKNOWN_UPLOAD["message"])})


@api.delete("/uploads/<upload_id>")
def cancel_upload(upload_id: str) -> Response:
    """Ask an upload being read to stop (its POST then answers 400 "the upload was cancelled"); only
    its maker may: another client's upload is "unknown" and goes on."""
    check_upload_id(upload_id)
    found = progress_registry(services().config.redis_url).cancel(upload_id, client_ids())
    return jsonify(found or {**_UNKNOWN_UPLOAD, "message": t(_UNKNOWN_UPLOAD["message"])})


_UNKNOWN_UPLOAD = {
    "phase": "unknown", "fraction": None,
    "message": "upload.unknown",  # a catalog key: the poll writes it
}


@api.get("/puzzles/<pid>")
def info(pid: str) -> Response:
    return jsonify(puzzle_info(pid, stored_puzzle(pid)))


@api.get("/puzzles/<pid>/cells")
def cells(pid: str) -> Response:
    """The board's cells, a byte each (rate-limited with the uploads: a board is a file's worth); a
    board drawn as tiles is never sent whole (its page asks for tiles)."""
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    shared = services()
    take("board", shared.config.uploads_per_minute * 4)
    if family.tiles is not None and family.tiles.geometry(puzzle, shared.config.tile_min_cells) is not None:
        width, height = family.size(puzzle)
        return bad_request(
            t("web.api.this_board_has_cells_more", value=width * height,
              tile_min_cells=shared.config.tile_min_cells, pid=pid), 400,
        )
    data = family.cells(puzzle)
    if data is None:
        return bad_request(
            t("web.api.has_no_cell_grid_its", lower=family.noun, pid=pid),
            404,
        )
    return Response(data, mimetype="application/octet-stream")


@api.post("/puzzles/<pid>/solve")
def solve_puzzle(pid: str) -> Response:
    puzzle = stored_puzzle(pid)
    body = json_body()
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise PuzzleError(t("web.api.expected_json_object_got", name=type(body).__name__), "body")
    algorithm = body.get("algorithm", "bfs")
    options = {k: v for k, v in body.items() if k != "algorithm"}
    result = _solve_with_limits(puzzle, algorithm, options, compact=True).json
    # What jsonify writes (the app's JSON settings, a newline), a grid path straight from its array
    provider = current_app.json
    text = json_arrays.encode(result, sort_keys=getattr(provider, "sort_keys", True),
                              ensure_ascii=getattr(provider, "ensure_ascii", True))
    return Response(text + b"\n", mimetype=getattr(provider, "mimetype", "application/json"))


@api.get("/puzzles/<pid>/solution.png")
def solution_png(pid: str) -> Response:
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    args = dict(request.args.items())
    algorithm = args.pop("algorithm", "bfs")
    options = family.text_options(args, "run")
    picture = family.need("solution_image")  # refused after the options are checked, before any search
    solved = _solve_with_limits(puzzle, algorithm, options)
    if not solved.json["found"]:
        raise PuzzleError(solved.json.get("message") or t("web.api.no_path", algorithm=algorithm), "solution")
    image = picture.draw(solved)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    buffer.seek(0)
    return send_file(buffer, mimetype="image/png")


def _solve_with_limits(puzzle: Any, algorithm: Any, options: Any, compact: bool = False) -> Solved:
    """Solve within the server's budget (a worker slot, waited for a while) and limits; ``compact``:
    see ``solving.solve`` (the result is then written with ``json_arrays``)."""
    shared = services()
    settings = shared.config
    values = check_run(puzzle, algorithm, options)
    owner = take("run", settings.runs_per_minute)
    limits, need = search_plan(shared.budget, settings, puzzle, algorithm, values, owner)
    held = shared.budget.reserve(need, wait=settings.solve_wait, owner=owner, need="searching this puzzle")
    try:
        with shared.budget.computing(wait=settings.solve_wait, owner=owner):
            return solve(puzzle, algorithm, options, compact=compact, **limits)
    finally:
        shared.budget.release(held, owner)


@api.get("/health")
def health() -> Response:
    """What the server is doing: runs, searches computing, trace memory, threads, stored puzzles."""
    import threading

    shared = services()
    return jsonify({
        "runs": shared.runs.active(), "threads": threading.active_count(), "puzzles": len(shared.store),
        **shared.budget.snapshot(), **shared.animations.snapshot(),
    })

