"""Share and export over HTTP (docs/PROTOCOL.md, "Share and export"): a share link's parameters checked
against the family's options schema, and animated GIFs of a search rendered as jobs
(``server/exporting.py``; finished ones kept by ``server/gif_store.py``: with Redis any server process
answers a job's polls, download and cancel).
A job is answered to its maker only (``clients.client_ids``): for another client it does not exist."""

from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, jsonify, request, send_file

from ..clients import client_id, client_ids, remote_address
from ..i18n import language, t
from ..puzzles.errors import PuzzleError
from ..puzzles.registry import FAMILIES, family_of
from ..services import services
from ..solving import check_run
from .common import answer_errors, error, json_body, stored_puzzle

exports = Blueprint("exports", __name__)

# The page's own parameters of a share link and of the address bar (static/js/share/link.js); the
# rest are run options (no family's option takes one of these names: tests/test_export.py).
PAGE_PARAMETERS = ("gallery", "puzzle", "at", "exercise", "compare", "panels", "drawer", "lang")


answer_errors(exports)


# ---- share links -----------------------------------------------------------------------------------
@exports.get("/puzzles/<pid>/run-options")
def run_options(pid: str) -> Response:
    """A share link's algorithm and options, given as text (``?algorithm=astar&heuristic=octile``),
    checked one by one against the family's schema: ``{algorithm, options}`` with typed values, or a
    400 naming the parameter at fault."""
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    schema = {o.name: o for o in family.options if o.stage in ("run", "both")}
    out: dict[str, Any] = {}
    algorithm = None
    for name in request.args:
        values = request.args.getlist(name)
        where = f"parameter '{name[:40]}'"
        if len(values) > 1:
            raise PuzzleError(t("web.exports.given_more_than_once"), where)
        if name in PAGE_PARAMETERS:
            continue
        if name == "algorithm":
            algorithm = values[0]
            if not algorithm or len(algorithm) > services().config.max_id_length:
                raise PuzzleError(t("web.exports.expected_algorithm_name"), where)
            try:
                family.check_algorithm(algorithm)
            except PuzzleError as err:
                raise PuzzleError(err.message, where) from None
            continue
        option = schema.get(name)
        if option is None:
            takes = ", ".join(["algorithm", *schema]) or "none"
            raise PuzzleError(t("web.exports.not_option_family_it_takes", name=family.name,
                                takes=takes), where)
        try:
            out[name] = option.parse(values[0])
        except PuzzleError as err:
            raise PuzzleError(err.message, where) from None
    return jsonify({"algorithm": algorithm, "options": out})


# ---- animated GIFs -----------------------------------------------------------------------------------
@exports.post("/puzzles/<pid>/animation")
def start_animation(pid: str) -> tuple[Response, int]:
    """Start a GIF export: a JSON object with ``algorithm`` and run options (as for ``…/solve``);
    202 and the job (poll ``GET /api/animations/<job>``)."""
    puzzle = stored_puzzle(pid)
    shared = services()
    settings = shared.config
    body = json_body()
    if not isinstance(body, dict):
        got = "nothing" if body is None else type(body).__name__
        raise PuzzleError(t("web.exports.expected_json_object_like_algorithm", got=got), "body")
    algorithm = body.get("algorithm")
    if not isinstance(algorithm, str) or not algorithm or len(algorithm) > settings.max_id_length:
        raise PuzzleError(
            t("web.exports.expected_algorithm_name_string_characters", max_id_length=settings.max_id_length),
            "field 'algorithm'",
        )
    family = family_of(puzzle)
    if family.animation is None:
        plural = "s" if language() == "en" else ""
        drawn = ", ".join(f.noun + plural for f in FAMILIES.values() if f.animation) or t("web.exports.none")
        return error(
            t("web.exports.gif_export_not_drawn_for", lower=family.noun, drawn=drawn),
            400,
        )
    if family.tiles is not None and family.tiles.geometry(puzzle, settings.tile_min_cells) is not None:
        return error(
            t("web.exports.gif_export_needs_search_s", tile_min_cells=settings.tile_min_cells),
            400,
        )
    options = check_run(puzzle, algorithm, {k: v for k, v in body.items() if k != "algorithm"})
    client = client_id()
    shared.rate_limits.take("GIF export", settings.animations_per_minute, client, remote_address())
    name = str(family.info(puzzle).get("name") or "puzzle")
    job = shared.animations.start(puzzle, algorithm, options, client, name)
    response = jsonify(job.to_json())
    response.headers["Location"] = f"/api/animations/{job.job_id}"
    return response, 202


def _missing(job_id: str) -> tuple[Response, int]:
    minutes = services().config.animation_ttl / 60
    return error(
        t("web.exports.no_gif_export_finished_ones", job_id=repr(job_id[:40]),
          minutes=format(minutes, 'g')), 404
    )


def _valid(job_id: str) -> bool:
    return len(job_id) <= services().config.max_id_length


@exports.get("/animations/<job_id>.gif")
def animation_gif(job_id: str):
    """The finished GIF (from whichever server process rendered it); 409 while it is not ready."""
    found = services().animations.download(job_id, client_ids()) if _valid(job_id) else None
    if found is None:
        return _missing(job_id)
    status, gif = found
    if status.get("state") != "done" or gif is None:
        reason = status.get("error") or status.get("message")
        return error(t("web.exports.gif_not_ready", get=status.get('state'), reason=reason), 409)
    response = send_file(
        io.BytesIO(gif), mimetype="image/gif", as_attachment=True,
        download_name=str(status.get("filename") or "export.gif"),
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


@exports.get("/animations/<job_id>")
def animation_status(job_id: str):
    status = services().animations.status(job_id, client_ids()) if _valid(job_id) else None
    return _missing(job_id) if status is None else jsonify(status)


@exports.delete("/animations/<job_id>")
def animation_cancel(job_id: str):
    status = services().animations.cancel(job_id, client_ids()) if _valid(job_id) else None
    return _missing(job_id) if status is None else jsonify(status)
