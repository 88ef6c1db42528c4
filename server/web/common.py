"""What every blueprint of the JSON API shares: a client's rate limits, the request's JSON body, a
stored puzzle by id and its info, a compute slot with its memory (``working``), and errors answered
as ``{error}`` — a PuzzleError with 400, an unknown or expired puzzle id with 404. The app's
settings, store and budget are ``services()``."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from flask import Blueprint, Response, abort, current_app, jsonify, make_response, request

from ..clients import client_id, remote_address
from ..i18n import t
from ..puzzles.errors import PuzzleError
from ..puzzles.registry import family_of
from ..services import services


def take(what: str, per_minute: int) -> str:
    """Count one ``what`` (an upload, a run, an edit…) for this client (429 past its cap); its id."""
    client = client_id()
    services().rate_limits.take(what, per_minute, client, remote_address())
    return client


DRAIN_SECONDS = 10.0  # a refused body is read and dropped for at most this long


def drain_body() -> None:
    """Read what is left of the request's body into nothing (at most MAX_CONTENT_LENGTH, 64 KB at a
    time, for ``DRAIN_SECONDS``), before the answer goes: a request refused before its body was read
    (a 413, a 429, a 503) would otherwise reach a client still sending as a broken pipe, not as words.
    No memory is kept. A body of no said length (chunked) may never end: it is not read."""
    if request.content_length is None:
        return
    end = time.monotonic() + DRAIN_SECONDS
    with contextlib.suppress(Exception):  # a client that went away: nothing to answer
        while time.monotonic() < end and request.stream.read(1 << 16):
            pass


def json_body(limit: int | None = None) -> Any:
    """The request's JSON, or None when it is not JSON or empty. A body of more than ``limit`` bytes
    (default: the config's ``max_json_bytes``) is refused with 413 before it is parsed: by its
    Content-Length, or, a chunked body without one, after reading one byte past the limit. JSON that
    does not decode, or is nested past Python's recursion limit, is a PuzzleError naming the body."""
    if not request.is_json:
        return None
    limit = services().config.max_json_bytes if limit is None else limit

    def too_large(length: int | None) -> NoReturn:
        # A response of its own: the app's 413 handler speaks of uploads.
        size = t("web.common.more") if length is None else t("web.common.bytes_more", count=length)
        words = (t("web.common.mb", mb=limit // 2**20) if limit % 2**20 == 0
                 else t("web.common.bytes", count=limit))
        abort(make_response(jsonify(error=t("web.common.body_json_body_than_limit", size=size,
                                            words=words)), 413))

    length = request.content_length
    if length is not None:
        if length > limit:
            too_large(length)
        data = request.get_data(cache=True)  # at most ``length`` bytes
    else:  # no length said (Transfer-Encoding: chunked): read no more than one byte past the limit
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = request.stream.read(min(limit + 1 - got, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            too_large(None)
        data = b"".join(chunks)
    if not data.strip():
        return None  # no body at all (a POST with only the header)
    try:
        return current_app.json.loads(data)
    except RecursionError:
        raise PuzzleError(t("web.common.json_body_nested_too_deeply"), "body") from None
    except json.JSONDecodeError as err:  # said, not taken for "no body" (a solve would use the defaults)
        raise PuzzleError(t("web.common.not_valid_json_at_line", msg=err.msg, lineno=err.lineno,
                            colno=err.colno),
                          "body") from None
    except UnicodeDecodeError:
        raise PuzzleError(t("web.common.not_valid_json_body_not"), "body") from None
    except ValueError:  # Python reads integers of at most 4,300 digits
        raise PuzzleError(t("web.common.not_valid_json_here_number"), "body") from None


def stored_puzzle(pid: str) -> Any:
    """The puzzle stored under ``pid``; LookupError (a 404) when there is none."""
    shared = services()
    puzzle = shared.store.get(pid) if len(pid) <= shared.config.max_id_length else None
    if puzzle is None:
        raise LookupError(pid)
    return puzzle


def puzzle_info(pid: str, puzzle: Any) -> dict[str, Any]:
    """What the page needs to know about a puzzle (docs/PROTOCOL.md)."""
    family = family_of(puzzle)
    checker, tiles = family.checker, family.tiles
    return {"id": pid, "family": family.name, "algorithms": list(family.algorithms),
            "solution_notation": t(checker.notation) if checker and checker.notation else "",
            **family.info(puzzle),
            # a board too big to draw cell by cell: the page shows tiles (server/web/tiles.py)
            "deep_zoom": tiles.geometry(puzzle, services().config.tile_min_cells) if tiles else None}


def error(message: str, status: int = 400) -> tuple[Response, int]:
    return jsonify(error=message), status


def answer_errors(blueprint: Blueprint) -> None:
    """Answer the blueprint's PuzzleErrors with 400 and unknown puzzle ids with 404, in words."""

    @blueprint.errorhandler(PuzzleError)
    def puzzle_error(err: PuzzleError):
        return error(str(err))

    @blueprint.errorhandler(LookupError)
    def unknown_puzzle(err: LookupError):
        pid = str(err.args[0])[:40]
        return error(t("web.common.no_puzzle_with_id_it", pid=repr(pid)), 404)


def json_object(*required: str) -> dict[str, Any]:
    """The request's JSON body, which must be an object (``required``: the fields the message names)."""
    body = json_body()
    if not isinstance(body, dict):
        fields = f" with {', '.join(required)}" if required else ""
        raise PuzzleError(t("web.common.expected_json_object", fields=fields), "body")
    return body


@contextmanager
def working(nbytes: int, need: str = "this work") -> Iterator[None]:
    """A compute slot and ``nbytes`` of the work budget for the block, both from this client's share
    (503 when none frees in time; 400 naming ``need`` — "judging this heuristic" — when ``nbytes`` is
    more than one client may ever hold)."""
    shared = services()
    owner = client_id()
    held = shared.budget.reserve(nbytes, wait=shared.config.solve_wait, owner=owner, need=need)
    try:
        with shared.budget.computing(wait=shared.config.solve_wait, owner=owner):
            yield
    finally:
        shared.budget.release(held, owner)
