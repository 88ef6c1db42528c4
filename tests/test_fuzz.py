"""Fuzzing (issue 8, point 6): arbitrary bytes and JSON at every parser, arbitrary payloads at every API
route and socket event; only the project's own errors and 4xx may come out.

The strategies and checks live in ``tests/fuzz_strategies.py``; ``scripts/fuzz.py`` runs the same
targets with 10,000 examples each. ``FUZZ_EXAMPLES`` sets the examples per test here (default 200).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.puzzles.errors import PuzzleError
from server.puzzles.labyrinth.parse import parse_labyrinth_json
from server.puzzles.options import Option
from server.puzzles.registry import FAMILIES
from tests import fuzz_strategies as fz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def fx() -> fz.Fixture:
    """One app for the module, with a small grid and a small labyrinth uploaded."""
    return fz.make_fixture()


# ------------------------------------------------------------------------------------------ parsers
@FUZZ
@given(case=fz.byte_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_arbitrary_bytes(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.grid_text_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_text_grids(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.csv_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_csv_boards(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.labyrinth_json_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_labyrinth_json(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.deep_json_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_deep_and_long_json(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.image_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_images(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.step_text_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_step_text_mazes(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.step_json_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_step_json(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.zenji_text_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_zenji_text_boards(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.zenji_json_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_zenji_json(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.sliding_text_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_sliding_text_boards(case, options) -> None:
    fz.check_parsers(*case, options)


@FUZZ
@given(case=fz.sliding_json_files(), options=st.none() | fz.option_dicts())
def test_parsers_take_sliding_json(case, options) -> None:
    fz.check_parsers(*case, options)


# ------------------------------------------------------------------------------------------ options
@FUZZ
@given(family=st.sampled_from(fz.FAMILY_NAMES), raw=fz.option_dicts() | fz.json_values())
def test_json_options_raise_only_puzzle_errors(family, raw) -> None:
    fz.check_json_options(family, fz.materialize(raw))


@FUZZ
@given(family=st.sampled_from(fz.FAMILY_NAMES), fields=fz.text_option_dicts(),
       stage=st.sampled_from(["run", "load"]))
def test_text_options_raise_only_puzzle_errors(family, fields, stage) -> None:
    fz.check_text_options(family, fields, stage)


# ---------------------------------------------------------------------------------------------- API
@FUZZ
@given(request=fz.upload_requests(), follow=fz.follow_ups())
def test_upload_route(fx, request, follow) -> None:
    fz.TARGETS_BY_NAME["API: POST /api/puzzles"].check(fx, request, follow)


@FUZZ
@given(case=fz.solvable_uploads())
def test_upload_then_solve(fx, case) -> None:
    fz.TARGETS_BY_NAME["API: upload a puzzle, then solve it"].check(fx, *case)


@FUZZ
@given(request=fz.solve_requests())
def test_solve_route(fx, request) -> None:
    fz.TARGETS_BY_NAME["API: POST /api/puzzles/<id>/solve"].check(fx, request)


@FUZZ
@given(request=fz.get_requests())
def test_other_routes_and_methods(fx, request) -> None:
    fz.TARGETS_BY_NAME["API: other routes and methods"].check(fx, request)


# ------------------------------------------------------------------------------------------- socket
@FUZZ
@given(events=fz.socket_sessions())
def test_socket_events(fx, events) -> None:
    fz.check_socket(fx, events)


# ---------------------------------------------------------------- regressions the fuzzing found
@pytest.mark.parametrize("text", [
    '{"board": ' + "[" * 100_000 + "]" * 100_000 + ', "free_tile": 1}',  # RecursionError in json.loads
    '{"board": [[1' + "0" * 5000 + ']], "free_tile": 1}',  # ValueError: int of more than 4300 digits
    '{"board": [[1]], "free_tile": 1' + "0" * 5000 + "}",
])
def test_labyrinth_json_too_deep_or_too_long_is_a_puzzle_error(text: str) -> None:
    with pytest.raises(PuzzleError, match="not valid JSON"):
        parse_labyrinth_json(text)


@pytest.mark.parametrize("field", ["board", "free_tile", "start_column", "moves", "family", "insert_rows"])
def test_labyrinth_json_nested_nearly_to_the_limit_is_a_puzzle_error(field: str) -> None:
    """JSON that decodes but whose value is too deep to ``repr`` in the error message."""
    text = json.dumps({"board": [[1]], "free_tile": 1, field: "@"}).replace('"@"', "[" * 5000 + "]" * 5000)
    deep = fz.near_limit(12)
    document = {"board": [[1]], "free_tile": 1, field: fz.nested(deep)}
    with pytest.raises(PuzzleError):
        parse_labyrinth_json(json.dumps(document))
    with pytest.raises(PuzzleError):
        parse_labyrinth_json(text)


def test_a_labyrinth_name_that_is_not_text_is_the_files() -> None:
    for name in (fz.nested(fz.near_limit(12)), {"a": 1}, [1, 2], True, ""):
        document = {"board": [[1]], "free_tile": 1, "name": name}
        assert parse_labyrinth_json(json.dumps(document), name="board").name == "board"
    assert parse_labyrinth_json('{"board": [[1]], "free_tile": 1, "name": 7}').name == "7"


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("raw", [
    {"weight": 10**400}, {"weight": -(10**400)}, {"start_col": 10**400}, {"goal_col": -(10**400)},
    {"max_depth": 10**400}, {"weight": 10**5000}, {"left_rows": [10**400]},
])
def test_integers_beyond_floats_are_out_of_range(family: str, raw: dict) -> None:
    for validate in (FAMILIES[family].run_options, FAMILIES[family].load_options):
        with pytest.raises(PuzzleError):
            validate(raw)


def test_options_errors_show_values_too_deep_to_repr() -> None:
    option = Option("weight", "float", "Weight", "", default=1.0, min=1.0, max=100.0)
    with pytest.raises(PuzzleError, match="expected a number"):
        option.check(fz.nested(fz.near_limit(8)))


@pytest.mark.parametrize("route", ["/api/puzzles/{grid}/solve", "/api/puzzles"])
@pytest.mark.parametrize("depth", ["near the limit", 100_000])
def test_json_bodies_nested_too_deep_are_refused(fx: fz.Fixture, route: str, depth) -> None:
    fz.probe_api_deep_json(fx, route, depth)  # a 4xx naming the body, nothing logged


# --------------------------------------- solution checkers of the step, Zenji and labyrinth families
def _checker_puzzles() -> dict[str, Any]:
    """One board a family, from the project's own examples (a generated labyrinth: no shared cases)."""
    from server.puzzles.labyrinth.generate import solvable_board
    from server.puzzles.registry import load_puzzle
    from tests.helpers import ROOT

    def read(name: str) -> Any:
        return load_puzzle((ROOT / "mazes" / name).read_bytes(), name)

    return {"step": read("step-seed-003.txt"), "zenji": read("zenji-seed-001.txt"),
            "labyrinth": solvable_board("labyrinth-course", 3, 3, 1).puzzle,
            "sliding": read("sliding-aima-3-28.txt")}


CHECKER_PUZZLES = _checker_puzzles()
CHECKER_OPTIONS = {
    "step": [{}, {"cycle": [1, 2]}],
    "zenji": [{}, {"flow": "free"}],
    "labyrinth": [{}, {"moves": "separate"}],
    "sliding": [{}],
}
# Pieces of every notation the checkers read (server/puzzles/{step,zenji,labyrinth}/check.py), so that
# the examples reach deep into each parser and into the replays, not only their first refusal.
CHECKER_TOKENS = (
    "(", ")", "[", "]", "{", "}", ",", ":", " ", "\n", "\r\n", "-", ".", "0", "1", "2", "3", "5", "7", "12",
    "99999999999", "Out[72]:", "\ufeff", '"path"', '"moves"', '"turns"', '"tile"', '"push"', '"walk"',
    '"axis"', '"index"', '"side"', '"row"', '"col"', '"left"', '"family"', '"step"', '"zenji"',
    '"labyrinth"', '"found"', '"cycle"', '"flow"', '"options"', "true", "false", "null", "turn", "once",
    "twice", "three times", "times", "clockwise", "water:", "→", "->", "# ", "  1. ", "push the free tile",
    "turn the free tile", "into", "and push it into", "row", "column", "from the", "left", "right", "top",
    "bottom", ", then ", "enter the board below column", "onto", "walk from", "to", " and ",
    "leave the board above column", "(the player is carried to column 2)", "┐", "└", "(4,1)", "(0, 0)",
    "solved it in 3 moves", "made the water flow",
    "U", "D", "L", "R", "ULDR", "tiles:", "blank:", "tile ", "up", "down", '"sliding"', '"blank"', "8", "24",
)


def _valid_answers(family: str) -> list[str]:
    """The families' own answers in each notation: mutated, they hit the replays' rules."""
    from server.solving import solve

    solved = solve(CHECKER_PUZZLES[family], "bfs" if family != "zenji" else "dijkstra", {}).json
    texts = [json.dumps(solved), json.dumps(solved["moves"] if family != "step" else solved["path"])]
    if family == "sliding":  # the blank's moves, the tiles' numbers, the boards
        texts.append(" ".join(m["blank"] for m in solved["moves"]))
        texts.append("tiles: " + " ".join(str(m["tile"]) for m in solved["moves"]))
        texts.append(json.dumps(solved["path"]))
    elif family != "step":
        texts.append("\n".join(m["text"] for m in solved["moves"]))
    else:
        texts.append("[" + ",\n ".join(f"({c}, {r})" for r, c, _ in solved["path"]) + "]")
    return texts


VALID_ANSWERS = {family: _valid_answers(family) for family in CHECKER_PUZZLES}


@st.composite
def checker_texts(draw: st.DrawFn, family: str) -> str:
    kind = draw(st.sampled_from(["tokens", "text", "mutated"]))
    if kind == "tokens":
        return "".join(draw(st.lists(st.sampled_from(CHECKER_TOKENS), max_size=40)))
    if kind == "text":
        return draw(st.text(max_size=200))
    text = draw(st.sampled_from(VALID_ANSWERS[family]))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 6))
        text = text[:at] + draw(st.sampled_from(("", *CHECKER_TOKENS))) + text[at + cut:]
    return text


def check_checker(family: str, text: str, options: dict[str, Any]) -> None:
    """Only a PuzzleError (naming where) or a verdict that serialises may come out."""
    chosen = FAMILIES[family]
    try:
        result = chosen.checker.check(CHECKER_PUZZLES[family], text, chosen.run_options(options))
    except PuzzleError as err:
        assert err.where, f"{err} names no place"
        return
    json.dumps(result.to_json())
    json.dumps(result.replay)
    assert result.valid or result.reason


@FUZZ
@given(data=st.data(), family=st.sampled_from(sorted(CHECKER_PUZZLES)))
def test_solution_checkers_raise_only_puzzle_errors(data: st.DataObject, family: str) -> None:
    text = data.draw(checker_texts(family))
    options = data.draw(st.sampled_from(CHECKER_OPTIONS[family]))
    check_checker(family, text, options)


@pytest.mark.parametrize("family", sorted(CHECKER_PUZZLES))
@pytest.mark.parametrize("piece", [
    " ", "\t", "0", "1 ", "(", ", ", " and", "turn ", "turn (0, 1) once ", "push ", "push the free tile ",
    "into row 1 from the left ", "Out[", "[", "(0, 0),", "walk from (1,1) to (1,1), ", "water: ", "(0, 0) → ",
])
def test_solution_checkers_take_long_repeated_lines_in_linear_time(family: str, piece: str) -> None:
    """A line of 20,000 repeats and a stray end: refused (or judged) at once, never a regular
    expression backtracking for minutes (a pattern with \\s*\\s* took longer than any time limit)."""
    import time

    for text in (piece * 20_000 + "x", "1. " + piece * 20_000 + "x", piece * 20_000):
        began = time.monotonic()
        check_checker(family, text, {})
        assert time.monotonic() - began < 3.0, (piece, text[-20:])


# ------------------------------------------- known bugs outside the parsers (server/web, the socket)
@pytest.mark.parametrize(
    "probe",
    [pytest.param(check, id=name, marks=pytest.mark.xfail(strict=True, reason=reason))
     for name, reason, check in fz.KNOWN_BUGS],
)
def test_known_bug(fx: fz.Fixture, probe) -> None:
    probe(fx)
