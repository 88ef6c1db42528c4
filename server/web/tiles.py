"""Huge boards as tiles over HTTP (docs/PROTOCOL.md, "Tiles"): a board too big to draw cell by cell
in the page (``info.deep_zoom``) is shown as PNG tiles of a pyramid, of the board alone or after any step
of a run kept by ``server/tile_runs.py``. Tiles never change for a given URL (puzzle ids and run keys
are content hashes), so they are cached by the browser for good; any server process can draw them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, jsonify, request

from ..budget import ServerBusy
from ..i18n import t
from ..puzzles.errors import PuzzleError, show_value
from ..puzzles.options import MAX_WHOLE, whole_text
from ..puzzles.registry import family_of
from ..safe_paths import HEX32, BadKey, check_key
from ..services import services
from ..tile_runs import page_summary
from .common import answer_errors, stored_puzzle, take

tiles = Blueprint("tiles", __name__)
answer_errors(tiles)


class UnknownRun(LookupError):
    """No kept run under this key for this puzzle (dropped since, never made, or not a run key at
    all: ``safe_paths.BadKey``): a 404 in words, the same whatever the reason."""

    def __init__(self, pid: str, key: object) -> None:
        shown = str(key)[:40]
        super().__init__(
            t("web.tiles.no_run", run=repr(shown), pid=repr(pid[:40]))
        )


@tiles.errorhandler(UnknownRun)
def unknown_run(err: UnknownRun) -> tuple[Response, int]:
    return jsonify(error=str(err.args[0])), 404

FOREVER = "public, max-age=31536000, immutable"


def _tiled(pid: str) -> Any:
    puzzle = stored_puzzle(pid)
    tiles = family_of(puzzle).tiles
    if tiles is None or tiles.geometry(puzzle, services().config.tile_min_cells) is None:
        raise PuzzleError(t("web.tiles.this_puzzle_drawn_whole_page"), "puzzle")
    return puzzle


def _run(pid: str, key: str) -> tuple[Any, Any]:
    """The puzzle and its kept run ``key`` (the URL's ``<key>`` or the query's ``run``): a key that is
    not a run key (32 hex digits, ``tile_runs.run_key``) is never looked up, and answers as a run
    that is not there (``UnknownRun``)."""
    puzzle = _tiled(pid)
    try:
        meta = services().tiles.meta(check_key(key, HEX32, "run"))
    except BadKey:
        meta = None
    if meta is None or meta.get("puzzle") != pid:
        raise UnknownRun(pid, key)  # dropped since, or never made: run it again
    return puzzle, meta


def _opened(pid: str, key: str, puzzle: Any) -> Any:
    """The run's arrays (``_run`` checked ``key``); UnknownRun when it was dropped meanwhile."""
    try:
        stored = services().tiles.opened(key, family_of(puzzle).need("tiles").open)
    except BadKey:
        stored = None
    if stored is None:
        raise UnknownRun(pid, key)
    return stored


RENDER_WAIT = 5.0  # seconds a tile waits for one of the process's drawing slots, then 503


def _png(draw: Callable[[], bytes], client: str) -> Response:
    """A tile drawn by ``draw`` in one of the process's drawing slots (``WorkBudget.drawing``: each
    takes a core for up to ~50 ms, and one client draws at most its share of them at once); 503
    (retry soon) when none frees in time."""
    try:
        with services().budget.drawing(wait=RENDER_WAIT, owner=client):
            data = draw()
    except ServerBusy:
        busy = jsonify(error=t("web.tiles.server_drawing_other_tiles_try"))
        busy.status_code = 503
        busy.headers["Retry-After"] = "1"
        return busy
    response = Response(data, mimetype="image/png")
    response.headers["Cache-Control"] = FOREVER
    return response


@tiles.get("/puzzles/<pid>/tiles/<int:z>/<int:x>/<int:y>.png")
def board_tile(pid: str, z: int, x: int, y: int) -> Response:
    """A tile of the board alone."""
    client = take("tile", services().config.tiles_per_minute)
    puzzle = _tiled(pid)
    return _png(lambda: family_of(puzzle).need("tiles").draw(puzzle, z, x, y), client)


@tiles.get("/puzzles/<pid>/runs/<key>")
def run_meta(pid: str, key: str) -> Response:
    """A kept run: its steps, sampling and result (what ``run_done`` told the page that ran it)."""
    _, meta = _run(pid, key)
    return jsonify({**page_summary(meta), "result": meta["result"]})


@tiles.get("/puzzles/<pid>/runs/<key>/frontier")
def run_frontier(pid: str, key: str) -> Response:
    """The frontier's size at every ``sample_every``-th step and after the last: int32, little-endian."""
    puzzle, _ = _run(pid, key)
    tiles = family_of(puzzle).need("tiles")
    stored = _opened(pid, key, puzzle)
    response = Response(tiles.frontier(puzzle, stored), mimetype="application/octet-stream")
    response.headers["Cache-Control"] = FOREVER
    return response


@tiles.get("/puzzles/<pid>/runs/<key>/tiles/<int:z>/<int:x>/<int:y>.png")
def run_tile(pid: str, key: str, z: int, x: int, y: int) -> Response:
    """A tile after ``t`` steps of the run (query ``t``, 0 .. its ``steps``)."""
    client = take("tile", services().config.tiles_per_minute)
    puzzle, meta = _run(pid, key)
    text = request.args.get("t", "")
    try:
        step = whole_text(text, 0, meta["steps"], "query 't'")
    except PuzzleError:  # '1e20', 'NaN', 99999999999999999999, -1: said the same way
        raise PuzzleError(t("web.tiles.t_must_be_step_number", meta=meta['steps'], text=show_value(text)),
                          "query 't'") from None
    tiles = family_of(puzzle).need("tiles")
    stored = _opened(pid, key, puzzle)
    return _png(lambda: tiles.draw(puzzle, z, x, y, stored, step), client)


@tiles.get("/puzzles/<pid>/cell")
def cell(pid: str) -> Response:
    """A cell of the board (query ``row``, ``col``), and of the run ``run`` when given: the hover read-out."""
    take("tile", services().config.tiles_per_minute)
    puzzle = _tiled(pid)
    # whole numbers of ASCII digits within int32 (the family names its board for any other cell)
    row, col = (whole_text(request.args.get(name, ""), -MAX_WHOLE, MAX_WHOLE, f"query '{name}'", what)
                for name, what in (("row", "web.what.row"), ("col", "web.what.column")))
    stored = None
    key = request.args.get("run")
    if key:  # checked by ``_run`` before it is looked up: a run key, never a path
        _run(pid, key)
        stored = _opened(pid, key, puzzle)
    return jsonify(family_of(puzzle).need("tiles").cell(puzzle, row, col, stored))
