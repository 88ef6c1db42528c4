"""Generating, editing and downloading puzzles over HTTP (docs/PROTOCOL.md, "Generate and edit").

A generated or edited puzzle is stored like an upload, under the content hash of the file its
family saves it as, so every algorithm, the comparison view, share links and exports work on it as
on an uploaded file — and uploading its downloaded file finds the same puzzle.
"""

from __future__ import annotations

import base64
from typing import Any

import numpy as np
from flask import Blueprint, Response, jsonify, request

from ..i18n import t
from ..puzzles.errors import PuzzleError, show_value
from ..puzzles.family import Family
from ..puzzles.making import edit_list
from ..puzzles.registry import FAMILIES, family_of, get_family
from ..services import services
from ..store import Source, puzzle_id
from .common import (
    answer_errors,
    json_body,
    puzzle_info,
    stored_puzzle,
    take,
)

making = Blueprint("making", __name__)

MAX_ANIMATED_STEPS = 1_000_000  # generation steps sent for the page to animate (8 bytes each)
# An edit's JSON body (or max_json_bytes, if larger): the editor's undo of a clear or a resize sends the
# whole board as one operation (a grid's "cells": base64 of up to 5 million cells, 6.7 MB).
MAX_EDIT_BODY = 8 * 1024 * 1024
MIMETYPES = {"txt": "text/plain", "png": "image/png", "json": "application/json", "csv": "text/csv"}


answer_errors(making)


def _body(limit: int | None = None) -> dict[str, Any]:
    body = json_body(limit)
    if not isinstance(body, dict):
        raise PuzzleError(t("web.making.expected_json_object"), "body")
    return body


def keep(family: Family, puzzle: Any, owner: str) -> str:
    """Store a made puzzle under the id an upload of its saved file would get; returns the id."""
    saver = family.need("saver")
    fmt = saver.default_format(puzzle)
    data = saver.save(puzzle, fmt)
    # archived under the name a download gets, so parsing it again names the puzzle as before
    source = Source(data, family.name, f"{_file_stem(family, puzzle)}.{fmt}", family.text_options({}, "load"))
    key = puzzle_id(data, f"{family.name}|{sorted(source.options.items())}")
    services().store.put(key, puzzle, owner=owner, source=source)
    return key


def _file_stem(family: Family, puzzle: Any, wanted: Any = None) -> str:
    """A safe file name for the puzzle: ``wanted``, else its name, else "puzzle"."""
    wanted = str(wanted or family.info(puzzle).get("name") or "puzzle")[:80]
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in wanted).strip(".") or "puzzle"


def _family_of_kind(kind: Any, family_name: Any) -> Family:
    if family_name is not None:
        return get_family(str(family_name)[:40])
    for family in FAMILIES.values():
        if family.maker is not None and any(g.name == kind for g in family.maker.generators):
            return family
    kinds = ", ".join(g.name for f in FAMILIES.values() if f.maker for g in f.maker.generators)
    raise PuzzleError(t("web.making.no_generator_named_choose_one", kind=show_value(kind),
                        kinds=kinds), "kind")


@making.post("/generate")
def generate() -> tuple[Response, int]:
    """``{kind, rows, cols, seed, ...the kind's options, family?, steps?}`` -> the new puzzle's info,
    plus ``generated``: what was made and, with ``steps: true``, how (for the page's animation)."""
    shared = services()
    client = take("generate", shared.config.uploads_per_minute)
    body = _body()
    kind = body.get("kind")
    family = _family_of_kind(kind, body.get("family"))
    maker = family.need("maker")
    generator = maker.generator(kind)
    values = generator.check({k: v for k, v in body.items() if k not in ("kind", "family", "steps")})
    with shared.budget.loading(wait=shared.config.solve_wait, owner=client):
        made = maker.generate(generator.name, values, steps=body.get("steps") is True)
    key = keep(family, made.puzzle, client)
    info = puzzle_info(key, made.puzzle)
    generated: dict[str, Any] = {"kind": generator.name, "options": values, "description": made.description}
    if made.steps is not None and 0 < len(made.steps) <= MAX_ANIMATED_STEPS:
        steps = np.ascontiguousarray(made.steps, dtype="<i4")
        generated.update(initial_fill=made.initial_fill, steps=base64.b64encode(steps.tobytes()).decode())
    info["generated"] = generated
    return jsonify(info), 201


@making.post("/puzzles/<pid>/edit")
def edit(pid: str) -> tuple[Response, int]:
    """``{edits: [...]}`` (the family's operations) -> the edited puzzle's info (a new id)."""
    client = take("edit", services().config.edits_per_minute)
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    editor = family.need("editor")
    limit = max(services().config.max_json_bytes, MAX_EDIT_BODY)
    edited = editor.edit(puzzle, edit_list(_body(limit).get("edits")))
    key = keep(family, edited, client)
    return jsonify(puzzle_info(key, edited)), 201


@making.get("/puzzles/<pid>/file")
def download(pid: str) -> Response:
    """The puzzle in its family's file format (``?format=txt``; default: the one that keeps everything)."""
    puzzle = stored_puzzle(pid)
    family = family_of(puzzle)
    saver = family.need("saver")
    fmt = saver.check_format(request.args.get("format"), puzzle)
    data = saver.save(puzzle, fmt)
    filename = f"{_file_stem(family, puzzle, request.args.get('name'))}.{fmt}"
    return Response(data, mimetype=MIMETYPES.get(fmt, "application/octet-stream"),
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})
