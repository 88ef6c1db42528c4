"""Every malformed number is a 400 (issue 28, point 5): at every place a message carries a number — each
family's edit operations, each generator's options, each family's run and load options over every
endpoint that takes them (solve, heuristic, check, code space and verdict, GIF export, share-link
parameters, the solution image, the socket's ``run_start``), the verdict's state ids, the tile
endpoints' query and path numbers — a table of hostile values: huge (1e20, 1e308, 2**64, 2**1000, a
literal of 5,000 digits), negative, -0.0, NaN and Infinity (as Python's JSON reads them), a fraction
where a whole number belongs, true/false, a string of digits, nested lists. The answer is a 2xx where
the value is legal, else a 4xx ``{error}`` naming the field; never a 500, a traceback or a logged error.

What is legal is what the endpoint's own contract says (the family's schema, ``rule_options``, the
generator's schema): a value the schema refuses must be refused by the endpoint, naming the field.
Also JSON bodies: over ``max_json_bytes`` (a 413 before parsing, with or without a Content-Length),
nested deeply, or not JSON at all (a 400 naming the body, never taken for "no body").
"""

from __future__ import annotations

import copy
import io
import json
import math
import re
import time
from typing import Any

import pytest

from server import socketio
from server.judging import rule_options
from server.puzzles.errors import PuzzleError
from server.puzzles.grid.generate import generate_braid
from server.puzzles.options import MAX_WHOLE, whole, whole_list, whole_text
from server.puzzles.registry import FAMILIES
from server.services import services
from server.web.making import MAX_EDIT_BODY
from tests import fuzz_strategies as fz
from tests.helpers import make_app, pump

BIG = "\x00a literal of 5,000 digits"  # a marker: JSON text only (Python's json reads up to 4,300)
NUMBERS: tuple[Any, ...] = (1e20, -1e20, 1e308, -1e308, -0.0, math.nan, math.inf, -math.inf, 2**64, -(2**64),
                            2**1000, BIG, -1, 0, 1, 0.5, 2.0, True, False, "12", "", [[1]], [1], {"n": 1},
                            None)
# The same as text: query parameters and share links.
TEXTS = ("1e20", "-1e20", "1e308", "1e999", "-0", "-0.0", "NaN", "nan", "Infinity", "-inf", str(2**64),
         "99999999999999999999", "1" * 5000, "-1", "0", "0.5", "2.0", "true", "[1]", "", " 7 ", "1_000",
         "١", "１", "0x10", "1,1e20", "99999999999999999999,0", "0,-1")


def text_of(value: Any) -> bytes:
    """``value`` as the JSON text a client could send (NaN, Infinity, the 5,000-digit literal)."""
    return json.dumps(value, allow_nan=True).replace(json.dumps(BIG), "1" + "0" * 5000).encode()


def show(value: Any) -> str:
    return "10**5000" if value is BIG else fz._short(value, 40)


def has_big(value: Any) -> bool:
    return json.dumps(BIG)[1:-1] in json.dumps(value, allow_nan=True)


# ------------------------------------------------------------------------------------------ the app
GENERATED = {"grid": ("perfect", 4, 5), "labyrinth": ("labyrinth-course", 3, 3), "step": ("step", 4, 5),
             "zenji": ("zenji-downhill", 3, 3), "sliding": ("sliding-random", 3, 3)}


class Fx:
    app: Any
    client: Any
    ids: dict[str, str]
    answers: dict[str, str]  # a family's own solve --json of its board: a solution the checker reads
    tiled_key: str


@pytest.fixture(scope="module")
def fx(tmp_path_factory) -> Fx:
    """One app: a small generated board of each family, and a tiled grid ("huge") with a kept run."""
    limits = dict(max_expanded=20_000, max_expanded_generic=2_000, max_stored_generic=50_000, max_seconds=2.0,
                  lab_max_states=5_000, code_max_states=5_000, animation_max_frames=4, max_runs_per_client=64,
                  tile_min_cells=10_000, tile_dir=tmp_path_factory.mktemp("tiles"), frame_window=2,
                  store_dir=tmp_path_factory.mktemp("puzzles"),  # files kept: a stored file read again
                  ack_timeout=3.0, max_concurrent_runs=2, max_puzzles_per_client=10**6, clients_per_ip=10**3)
    rates = {name: 10**9 for name in ("uploads_per_minute", "runs_per_minute", "edits_per_minute",
                                      "labs_per_minute", "checks_per_minute", "code_runs_per_minute",
                                      "animations_per_minute", "tiles_per_minute", "resolves_per_minute")}
    app = make_app(**limits, **rates, max_animations_per_client=10**6, max_animation_jobs=10**6)
    out = Fx()
    out.app, out.client, out.ids, out.answers = app, app.test_client(), {}, {}
    for name, (kind, rows, cols) in GENERATED.items():
        made = out.client.post("/api/generate", json={"kind": kind, "rows": rows, "cols": cols, "seed": 2})
        assert made.status_code == 201, made.get_json()
        out.ids[name] = made.get_json()["id"]
        if name == "sliding":  # a known board: the blank at cell 7, one slide from the goal
            tiles = [1, 2, 3, 4, 5, 6, 7, 0, 8]
            made = out.client.post(f"/api/puzzles/{out.ids[name]}/edit",
                                   json={"edits": [{"op": "set", "tiles": tiles}]})
            out.ids[name] = made.get_json()["id"]
        solved = out.client.post(f"/api/puzzles/{out.ids[name]}/solve", json={"algorithm": "bfs"})
        out.answers[name] = solved.get_data(as_text=True)
    services(app).store.put("huge", generate_braid(60, 80, seed=9, braid=0.3))  # 121 x 161 cells: tiles
    socket = socketio.test_client(app)
    socket.emit("run_start", {"run": "t", "puzzle": "huge", "algorithm": "bfs", "options": {}})
    out.tiled_key = pump(socket, "run_done", "t")[-1]["tiles"]["key"]
    socket.disconnect()
    yield out
    services(app).runs.shutdown("bye", lambda *a: None)


def answered(fx: Fx, response: Any, what: str, names: tuple[str, ...] = (), refused: bool = False) -> int:
    """No 5xx, no traceback; a 4xx is ``{error}``, naming one of ``names`` when given; ``refused``: the
    value is not legal, so a 2xx is wrong too. Returns the status."""
    status, body = response.status_code, response.get_data()
    assert status < 500 and b"Traceback" not in body, f"{what}: {status} {body[:300]!r}"
    if status >= 400:
        payload = response.get_json(silent=True)
        assert isinstance(payload, dict) and isinstance(payload.get("error"), str) and payload["error"], (
            f"{what}: {status} without {{error}}: {body[:300]!r}")
        assert not names or any(n in payload["error"] for n in names), (
            f"{what}: {status} {payload['error']!r} names none of {names}")
    else:
        assert not refused, f"{what}: {status} for a value the schema refuses: {body[:200]!r}"
    return status


def post(fx: Fx, url: str, payload: Any, what: str, names: tuple[str, ...] = (), refused: bool = False,
         big: bool = False) -> int:
    """POST ``payload`` as JSON text; a body holding the 5,000-digit literal is refused naming the body."""
    with fz.logged_errors() as records:
        response = fx.client.post(url, data=text_of(payload), content_type="application/json")
    fz.assert_nothing_logged(records)
    if big:
        names, refused = ("body",), True
    return answered(fx, response, what, names, refused)


def schema_refuses(check: Any, raw: Any) -> bool:
    """Whether the endpoint's own contract (a schema's check) refuses ``raw``."""
    if has_big(raw):
        return True
    try:
        check(raw)
    except PuzzleError:
        return True
    return False


# -------------------------------------------------------------------------- the helper itself
@pytest.mark.parametrize("value", NUMBERS, ids=show)
def test_whole_takes_whole_numbers_in_range_and_names_the_rest(value: Any) -> None:
    legal = (not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)
             and float(value).is_integer() and 0 <= value <= 9)
    if legal:
        assert whole(value, 0, 9, "field 'n'") == int(value) and type(whole(value, 0, 9, "x")) is int
    else:
        with pytest.raises(PuzzleError) as caught:
            whole(value, 0, 9, "field 'n'", "a digit")
        assert caught.value.where == "field 'n'" and len(str(caught.value)) < 200
    with pytest.raises(PuzzleError, match="item 3: 10 is outside 0..9" if legal else "item 2"):
        whole_list([1, value, 10], 0, 9, "field 'l'", "a digit", 5)  # the first item wrong, named


def test_whole_says_an_integer_too_long_to_print_in_a_short_line() -> None:
    for value in (10**5000, -(10**5000)):  # Python itself prints at most 4,300 digits
        with pytest.raises(PuzzleError, match=r"an integer of about 5,001 digits is outside 0\.\.9"):
            whole(value, 0, 9, "field 'n'")


def test_whole_list_checks_a_long_list_of_ints_at_once() -> None:
    big = list(range(1_000_000))
    began = time.monotonic()
    assert whole_list(big, 0, 999_999, "cells", "a cell", 10**6) is big
    assert time.monotonic() - began < 0.5
    with pytest.raises(PuzzleError, match="item 1000001: 1000000 is outside the board"):
        whole_list([*big, 10**6], 0, 999_999, "cells", "a cell", 2 * 10**6, "the board")
    with pytest.raises(PuzzleError, match="at most 3 whole numbers"):
        whole_list([1, 2, 3, 4], 0, 9, "cells", "a cell", 3)


@pytest.mark.parametrize("text", TEXTS)
def test_whole_text_reads_ascii_digits_only(text: str) -> None:
    if plain_integer(text) and abs(int(text)) <= MAX_WHOLE:
        assert whole_text(text, -MAX_WHOLE, MAX_WHOLE, "query 'row'") == int(text)
    else:
        with pytest.raises(PuzzleError) as caught:
            whole_text(text, -MAX_WHOLE, MAX_WHOLE, "query 'row'")
        assert caught.value.where == "query 'row'" and len(str(caught.value)) < 200


# ---------------------------------------------------------------------------------------- edits
# One operation of each kind a family's editor takes (server/puzzles/*/edit.py), each legal on its board.
EDITS = {
    "grid": [{"op": "paint", "value": 1, "cells": [3, 4]}, {"op": "start", "cell": [1, 1]},
             {"op": "goal", "cell": [1, 1]}, {"op": "resize", "rows": 4, "cols": 4},
             {"op": "cells", "rows": 1, "cols": 2, "values": "AQE="}],
    "labyrinth": [{"op": "tile", "cell": [0, 0], "code": 1}, {"op": "turn", "cell": [0, 0], "times": 1},
                  {"op": "free", "code": 2}, {"op": "turn_free", "times": 1},
                  {"op": "columns", "start_col": 0, "goal_col": 1},
                  {"op": "insertions", "left_rows": [0], "right_rows": [1], "top_cols": [0],
                   "bottom_cols": [1]},
                  {"op": "resize", "rows": 3, "cols": 4}],
    "step": [{"op": "mark", "cell": [0, 0], "marked": True}, {"op": "start", "cell": [0, 0]},
             {"op": "goal", "cell": [1, 1], "add": True}, {"op": "cycle", "cycle": [1, 2]},
             {"op": "resize", "rows": 4, "cols": 4}],
    "zenji": [{"op": "turn", "cell": [0, 0], "times": 1},
              {"op": "tile", "cell": [1, 1], "sides": [0, 1, 2, 0]},
              {"op": "resize", "rows": 4, "cols": 4}],
    "sliding": [{"op": "slide", "cell": 8}, {"op": "slide", "cell": [1, 1]},
                {"op": "set", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0]},
                {"op": "set_goal", "tiles": [1, 2, 3, 4, 5, 6, 7, 8, 0]}],
}


def numeric_positions(op: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Where a number sits in ``op``: each number field, each list of numbers and its first two items."""
    out: list[tuple[Any, ...]] = []
    for key, value in op.items():
        if isinstance(value, bool) or key == "op":
            continue
        if isinstance(value, int):
            out.append((key,))
        elif isinstance(value, list):
            out += [(key,), *((key, i) for i in range(min(2, len(value))))]
    return out


def placed(template: dict[str, Any], position: tuple[Any, ...], value: Any) -> dict[str, Any]:
    op = copy.deepcopy(template)
    inner = op
    for step in position[:-1]:
        inner = inner[step]
    inner[position[-1]] = value
    return op


EDIT_CASES = [pytest.param(family, op, position, id=f"{family}-{op['op']}-{'.'.join(map(str, position))}")
              for family, ops in EDITS.items() for op in ops for position in numeric_positions(op)]


def test_every_edit_template_is_legal(fx: Fx) -> None:
    """The table's operations go through as they are: the values below are what make them fail."""
    for family, ops in EDITS.items():
        for op in ops:
            answer = fx.client.post(f"/api/puzzles/{fx.ids[family]}/edit", json={"edits": [op]})
            assert answer.status_code == 201, (family, op, answer.get_json())


@pytest.mark.parametrize(("family", "template", "position"), EDIT_CASES)
def test_numbers_in_edit_operations(fx: Fx, family: str, template: dict, position: tuple) -> None:
    url = f"/api/puzzles/{fx.ids[family]}/edit"
    for value in NUMBERS:
        op = placed(template, position, value)
        post(fx, url, {"edits": [op]}, f"edit {family} {op['op']} {position}={show(value)}", ("edit 1",),
             big=value is BIG)


# ----------------------------------------------------------------------------------- generators
def generator_cases() -> list[Any]:
    cases = []
    for family in FAMILIES.values():
        for kind in family.maker.generators:
            for option in kind.options:
                if option.type in ("int", "float", "int_list", "point"):
                    case_id = f"{kind.name}-{option.name}"
                    cases.append(pytest.param(family.name, kind.name, option.name, id=case_id))
    return cases


def small_values(kind: Any) -> dict[str, Any]:
    """The kind's options with rows and columns near 3 (within its range): a legal, cheap request."""
    out = {}
    for option in kind.options:
        value = option.default
        if option.name in ("rows", "cols"):
            value = int(min(max(3, option.min or 3), option.max or 3))
        out[option.name] = value
    return out


@pytest.mark.parametrize(("family", "kind_name", "name"), generator_cases())
def test_numbers_in_generator_options(fx: Fx, family: str, kind_name: str, name: str) -> None:
    kind = FAMILIES[family].maker.generator(kind_name)
    base = {"kind": kind_name, **small_values(kind)}
    assert not schema_refuses(kind.check, {k: v for k, v in base.items() if k != "kind"})
    option = next(o for o in kind.options if o.name == name)
    for value in (*NUMBERS, *(([value] for value in NUMBERS) if option.type == "int_list" else ())):
        options = {**base, name: value}
        refused = schema_refuses(kind.check, {k: v for k, v in options.items() if k != "kind"})
        post(fx, "/api/generate", options, f"generate {kind_name} {name}={show(value)}",
             (f"option '{name}'",), refused, big=has_big(value))


# ---------------------------------------------------------------------------------- run options
def numeric_options(stage: str) -> list[Any]:
    cases = []
    for family in FAMILIES.values():
        for option in family.options:
            if option.type in ("int", "float", "int_list", "point") and option.stage in (stage, "both"):
                cases.append(pytest.param(family.name, option.name, id=f"{family.name}-{option.name}"))
    return cases


def option_values(option_type: str) -> list[Any]:
    """The table, and for lists and points the table inside them (a hostile item in a legal shape)."""
    values = list(NUMBERS)
    if option_type == "point":
        values += [[value, 0] for value in NUMBERS] + [[0, value] for value in NUMBERS]
    if option_type == "int_list":
        values += [[value] for value in NUMBERS] + [[1, value] for value in NUMBERS]
    return values


def algorithm_for(family: Any, option_name: str) -> str:
    """An algorithm that uses the option (max_depth: a depth-limited search), else the default."""
    option = next(o for o in family.options if o.name == option_name)
    if option.algorithms:
        return next((a for a in family.algorithms if a in option.algorithms), family.default_algorithm)
    return family.default_algorithm


@pytest.mark.parametrize(("family_name", "name"), numeric_options("run"))
def test_numbers_in_run_options_over_http(fx: Fx, family_name: str, name: str) -> None:
    """``…/solve``, ``…/animation`` (top-level options), ``…/heuristic``, ``…/check``, ``…/code/space``
    and ``…/code/verdict`` (an ``options`` object)."""
    family = FAMILIES[family_name]
    pid, algorithm = fx.ids[family_name], algorithm_for(family, name)
    named = (f"option '{name}'",)
    for value in option_values(next(o for o in family.options if o.name == name).type):
        what, big = f"{family_name} {name}={show(value)}", has_big(value)
        run_refused = schema_refuses(family.run_options, {name: value})
        rules_refused = schema_refuses(lambda raw, f=family: rule_options(f, raw), {name: value})
        by_run, by_rules = named if run_refused else (), named if rules_refused else ()
        post(fx, f"/api/puzzles/{pid}/solve", {"algorithm": algorithm, name: value}, f"solve {what}", by_run,
             run_refused, big)
        if family.animation is not None:
            post(fx, f"/api/puzzles/{pid}/animation", {"algorithm": algorithm, name: value}, f"GIF {what}",
                 by_run, run_refused, big)
        post(fx, f"/api/puzzles/{pid}/heuristic", {"formula": "0", "options": {name: value}},
             f"heuristic {what}", by_rules, rules_refused, big)
        post(fx, f"/api/puzzles/{pid}/check", {"solution": fx.answers[family_name], "options": {name: value}},
             f"check {what}", by_rules, rules_refused, big)
        post(fx, f"/api/puzzles/{pid}/code/space", {"options": {name: value}}, f"space {what}", by_rules,
             rules_refused, big)
        post(fx, f"/api/puzzles/{pid}/code/verdict",
             {"algorithm": "bfs", "expanded": [0], "path": None, "options": {name: value}},
             f"verdict {what}", by_run, run_refused, big)


@pytest.mark.parametrize("family_name", sorted(FAMILIES))
def test_numbers_in_a_verdict_s_state_ids(fx: Fx, family_name: str) -> None:
    url = f"/api/puzzles/{fx.ids[family_name]}/code/verdict"
    for field in ("expanded", "path"):
        for value in NUMBERS:
            for ids in (value, [value], [0, value]):
                maybe = (ids is None and field == "path") or (
                    isinstance(ids, list) and all(not_clearly_wrong(v) for v in ids))
                body = {"algorithm": "bfs", "expanded": [0], "path": None, field: ids}
                post(fx, url, body, f"verdict {field}={show(ids)}", (f"field '{field}'",), not maybe,
                     has_big(ids))


def not_clearly_wrong(value: Any) -> bool:
    """Could be a state id (0, 1, 2.0, -0.0, whether this puzzle has that many states or not)."""
    return (not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)
            and value == int(value) and 0 <= value <= 10**6)


@pytest.mark.parametrize(("family_name", "name"), numeric_options("load"))
def test_numbers_in_load_options_of_a_stored_file_read_again(fx: Fx, family_name: str, name: str) -> None:
    """``POST /api/puzzles {"puzzle": id, "options": {...}}``: load options as JSON."""
    family = FAMILIES[family_name]
    for value in option_values(next(o for o in family.options if o.name == name).type):
        refused = schema_refuses(family.load_options, {name: value})
        post(fx, "/api/puzzles", {"puzzle": fx.ids[family_name], "options": {name: value}},
             f"reload {family_name} {name}={show(value)}", (f"option '{name}'",), refused, has_big(value))


@pytest.mark.parametrize(("family_name", "name"), numeric_options("run"))
def test_numbers_in_run_options_over_the_socket(fx: Fx, family_name: str, name: str) -> None:
    family = FAMILIES[family_name]
    client = socketio.test_client(fx.app)
    try:
        with fz.logged_errors() as records:
            for k, value in enumerate(option_values(next(o for o in family.options if o.name == name).type)):
                if has_big(value) or re.search(r"\d{101}", json.dumps(value, allow_nan=True)):
                    continue  # python-socketio's decoder refuses ints of over 100 digits first (KNOWN_BUGS)
                message = {"run": f"n{k}", "puzzle": fx.ids[family_name],
                           "algorithm": algorithm_for(family, name), "options": {name: value}}
                ack = client.emit("run_start", message, callback=True)
                what = f"run_start {family_name} {name}={show(value)}"
                assert isinstance(ack, dict) and isinstance(ack.get("ok"), bool), f"{what}: {ack!r}"
                if schema_refuses(family.run_options, {name: value}):
                    assert ack["ok"] is False and f"option '{name}'" in ack["error"], f"{what}: {ack!r}"
                elif ack["ok"]:
                    client.emit("run_cancel", {"run": f"n{k}"})
        fz.assert_nothing_logged(records)
    finally:
        client.disconnect()


@pytest.mark.parametrize(("family_name", "name"), numeric_options("run"))
def test_numbers_as_text_in_share_links_and_solution_images(fx: Fx, family_name: str, name: str) -> None:
    family = FAMILIES[family_name]
    option = next(o for o in family.options if o.name == name)
    algorithm = algorithm_for(family, name)
    for text in TEXTS:
        try:
            option.parse(text)
            refused = False
        except PuzzleError:
            refused = True
        query = {"algorithm": algorithm, name: text}
        for route, named in (("run-options", f"parameter '{name}'"), ("solution.png", f"option '{name}'")):
            with fz.logged_errors() as records:
                response = fx.client.get(f"/api/puzzles/{fx.ids[family_name]}/{route}", query_string=query)
            fz.assert_nothing_logged(records)
            answered(fx, response, f"{route} {family_name} {name}={text[:30]!r}", (named,) if refused else (),
                     refused)


# ------------------------------------------------------------------------------------------ tiles
def plain_integer(text: str) -> bool:
    """An optional minus and at most 30 ASCII digits, spaces around (what a query's whole number is)."""
    digits = text.strip().removeprefix("-")
    return digits.isascii() and digits.isdigit() and len(digits) <= 30


@pytest.mark.parametrize("text", TEXTS)
def test_numbers_in_the_tile_endpoints_queries(fx: Fx, text: str) -> None:
    key = fx.tiled_key
    legal = plain_integer(text) and abs(int(text)) <= MAX_WHOLE
    with fz.logged_errors() as records:
        for name, other in (("row", "col"), ("col", "row")):
            for run in ({}, {"run": key}):
                query = {name: text, other: "1", **run}
                response = fx.client.get("/api/puzzles/huge/cell", query_string=query)
                answered(fx, response, f"cell {name}={text[:30]!r}", () if legal else (f"query '{name}'",),
                         not legal)
        response = fx.client.get(f"/api/puzzles/huge/runs/{key}/tiles/0/0/0.png", query_string={"t": text})
        answered(fx, response, f"tile t={text[:30]!r}", ("query 't'",) if not legal else ())
    fz.assert_nothing_logged(records)


@pytest.mark.parametrize("zxy", ["99999999999999999999/0/0", "0/99999999999999999999/0", "0/0/" + "9" * 5000,
                                 "64/0/0", "63/0/0", "-1/0/0", "0/-1/0", "1e3/0/0", "0.5/0/0"])
def test_numbers_in_the_tile_paths(fx: Fx, zxy: str) -> None:
    with fz.logged_errors() as records:
        for url in (f"/api/puzzles/huge/tiles/{zxy}.png",
                    f"/api/puzzles/huge/runs/{fx.tiled_key}/tiles/{zxy}.png?t=0"):
            assert 400 <= answered(fx, fx.client.get(url), url[:80]) < 500
    fz.assert_nothing_logged(records)


# ------------------------------------------------------------------------------------- JSON bodies
def json_routes(fx: Fx) -> list[str]:
    grid = fx.ids["grid"]
    return [f"/api/puzzles/{grid}/{tail}" for tail in ("solve", "edit", "heuristic", "check", "code/space",
                                                       "code/verdict", "animation")] + ["/api/generate",
                                                                                         "/api/puzzles"]


def limit_of(url: str) -> tuple[int, str]:
    """A route's JSON limit: the config's 4 MB, an edit's 8 MB (it may carry a whole board)."""
    return (MAX_EDIT_BODY, "8 MB") if url.endswith("/edit") else (4 * 1024 * 1024, "4 MB")


def test_a_json_body_over_the_limit_is_a_413_before_it_is_parsed(fx: Fx, monkeypatch) -> None:
    assert services(fx.app).config.max_json_bytes == 4 * 1024 * 1024
    parsed: list[int] = []
    provider, loads = fx.app.json, fx.app.json.loads
    monkeypatch.setattr(provider, "loads", lambda data, **kw: parsed.append(len(data)) or loads(data, **kw))
    over = b'{"algorithm": "bfs", "pad": "' + b"x" * (8 * 1024 * 1024) + b'"}'
    whole_64 = b"[ " + b"0," * (32 * 1024 * 1024 - 2) + b"0]"  # 64 MB: the upload limit, not this one
    assert len(whole_64) == 64 * 1024 * 1024
    for url, body in [*((url, over) for url in json_routes(fx)), (json_routes(fx)[0], whole_64)]:
        parsed.clear()
        answer = fx.client.post(url, data=body, content_type="application/json")
        # refused by its Content-Length: never read, never parsed (the session cookie is JSON too: small)
        assert max(parsed, default=0) < 1024, url
        assert answer.status_code == 413, (url, answer.status_code, answer.get_data()[:200])
        error = answer.get_json()["error"]
        assert f"limit of {limit_of(url)[1]}" in error and error.startswith("body:"), url


class Endless(io.RawIOBase):
    """A chunked body without a length: as many bytes as anyone reads, counted."""

    def __init__(self) -> None:
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = len(buffer)
        buffer[:n] = (b'["' + b"x" * n)[:n] if self.read_bytes == 0 else b"x" * n
        self.read_bytes += n
        return n


def chunked(fx: Fx, url: str, stream: Any) -> Any:
    """POST ``stream`` as a body without a Content-Length (as a server hands a chunked request on)."""
    return fx.client.post(url, content_type="application/json",
                          environ_overrides={"wsgi.input": stream, "wsgi.input_terminated": True})


def test_a_chunked_json_body_is_read_no_further_than_the_limit(fx: Fx) -> None:
    for url in json_routes(fx):
        stream = Endless()
        limit, words = limit_of(url)
        answer = chunked(fx, url, stream)
        assert answer.status_code == 413 and f"limit of {words}" in answer.get_json()["error"], url
        assert limit < stream.read_bytes <= limit + 1, (url, stream.read_bytes)
    answer = chunked(fx, json_routes(fx)[0], io.BytesIO(b'{"algorithm": "bfs"}'))
    assert answer.status_code == 200 and answer.get_json()["found"]  # a chunked body within the limit


def test_the_limit_is_a_setting_and_an_edit_may_carry_a_whole_board(tmp_path) -> None:
    from server.config import Config

    assert Config.from_env({"MAZE_MAX_JSON_BYTES": "4096"}).max_json_bytes == 4096
    app = make_app(max_json_bytes=4096)
    client = app.test_client()
    made = client.post("/api/generate", json={"kind": "random", "rows": 60, "cols": 60, "seed": 1,
                                              "density": 0})
    pid = made.get_json()["id"]
    padded = {"algorithm": "bfs", "pad": "x" * 5000}
    refused = client.post(f"/api/puzzles/{pid}/solve", json=padded)
    assert refused.status_code == 413 and "limit of 4,096 bytes" in refused.get_json()["error"]
    import base64

    board = {"op": "cells", "rows": 60, "cols": 60, "values": base64.b64encode(bytes([1]) * 3600).decode()}
    stroke = {"op": "paint", "value": 0, "cells": list(range(60, 1200))}
    edited = client.post(f"/api/puzzles/{pid}/edit", json={"edits": [board, stroke]})
    assert edited.status_code == 201, edited.get_json()  # ~10 KB: an edit's own, larger limit


BROKEN_BODIES = {
    "deep lists": b"[" * 100_000 + b"]" * 100_000, "deep objects": b'{"a": ' * 50_000 + b"1" + b"}" * 50_000,
    "cut short": b'{"algorithm": "bfs",', "not text": b"\xff\xfe\x00garbage",
    "5,000 digits": b'{"weight": 1' + b"0" * 5000 + b"}", "NaN": b"NaN", "unclosed": b"[1, 2",
}


@pytest.mark.parametrize("body", list(BROKEN_BODIES.values()), ids=list(BROKEN_BODIES))
def test_a_json_body_deep_or_broken_is_refused_naming_the_body(fx: Fx, body: bytes) -> None:
    for url in json_routes(fx):
        with fz.logged_errors() as records:
            answer = fx.client.post(url, data=body, content_type="application/json")
        fz.assert_nothing_logged(records)
        assert 400 <= answered(fx, answer, f"{url} {body[:20]!r}") < 500
        if body != b"NaN":  # NaN is JSON to Python: a body that is no object, said by each route its way
            assert "body" in answer.get_json()["error"], (url, answer.get_json())


def test_an_empty_json_body_is_no_body(fx: Fx) -> None:
    """A POST with only the header is still a solve with the defaults (as before)."""
    answer = fx.client.post(f"/api/puzzles/{fx.ids['grid']}/solve", data=b"", content_type="application/json")
    assert answer.status_code == 200 and answer.get_json()["algorithm"] == "bfs"
