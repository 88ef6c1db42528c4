"""Fuzzing the editors and generators (issue 12): any list of edit operations on any family's board, and
any generator request, either works — and then the board saves and loads back unchanged — or is refused
with a PuzzleError; nothing else may come out. ``FUZZ_EXAMPLES`` sets the examples per test (default 200).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.puzzles.errors import PuzzleError
from server.puzzles.making import edit_list
from server.puzzles.registry import FAMILIES
from tests import fuzz_strategies as fz

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

# The operations each family knows (docs/PROTOCOL.md, "Generate and edit"), and a few it does not.
OPS = ("paint", "start", "goal", "clear", "resize", "cells", "mark", "cycle", "turn", "tile", "flow",
       "free", "turn_free", "columns", "insertions", "rules", "slide", "set", "set_goal", "fly", "")
FIELDS = ("cell", "value", "cells", "rows", "cols", "values", "marked", "add", "cycle", "times", "sides",
          "flow", "code", "start_col", "goal_col", "left_rows", "right_rows", "push_columns", "moves",
          "rotate_free", "tiles")


def small_ints() -> st.SearchStrategy[int]:
    return st.integers(-2, 12) | st.integers(-(2**40), 2**40)


def field_values() -> st.SearchStrategy[Any]:
    """Mostly values a field could take on a small board; now and then any JSON at all."""
    cell = st.lists(small_ints(), min_size=2, max_size=2)
    return st.one_of(
        small_ints(), cell, st.lists(small_ints(), max_size=6), st.booleans(),
        st.sampled_from(["downhill", "free", "combined", "separate", "AAEC", "!!", ""]),
        fz.json_values(max_leaves=4),
    )


# Each operation's fields with values near what a small board takes (so that many edits go through).
CELL = st.lists(st.integers(-1, 8), min_size=2, max_size=2)
WELL_FORMED = {
    "paint": {"value": st.integers(-1, 10), "cells": st.lists(st.integers(-1, 45), max_size=8)},
    "start": {"cell": CELL}, "goal": {"cell": CELL, "add": st.booleans()},
    "clear": {}, "resize": {"rows": st.integers(0, 9), "cols": st.integers(0, 9)},
    "mark": {"cell": CELL, "marked": st.booleans()},
    "cycle": {"cycle": st.lists(st.integers(0, 4), max_size=4)},
    "turn": {"cell": CELL, "times": st.integers(-1, 5)},
    "tile": {"cell": CELL, "sides": st.lists(st.integers(0, 5), min_size=3, max_size=5),
             "code": st.integers(-1, 11)},
    "flow": {"flow": st.sampled_from(["downhill", "free", "uphill"])},
    "free": {"code": st.integers(-1, 11)}, "turn_free": {"times": st.integers(-1, 5)},
    "columns": {"start_col": st.integers(-1, 8), "goal_col": st.integers(-1, 8)},
    "insertions": {"left_rows": st.lists(st.integers(-1, 8), max_size=4),
                   "right_rows": st.lists(st.integers(-1, 8), max_size=4), "push_columns": st.booleans()},
    "rules": {"moves": st.sampled_from(["combined", "separate", "diagonal"]), "rotate_free": st.booleans()},
    "slide": {"cell": st.integers(-1, 9) | CELL},
    "set": {"tiles": st.permutations(list(range(9))) | st.permutations(list(range(16)))
            | st.lists(st.integers(-1, 9), max_size=10)},
    "set_goal": {"tiles": st.permutations(list(range(9))) | st.lists(st.integers(-1, 9), max_size=10)},
}


FAMILY_OPS = {
    "grid": ("paint", "start", "goal", "clear", "resize"),
    "step": ("mark", "start", "goal", "cycle", "resize"),
    "zenji": ("turn", "tile", "flow", "resize"),
    "labyrinth": ("tile", "turn", "free", "turn_free", "columns", "insertions", "rules", "resize"),
    "sliding": ("slide", "set", "set_goal"),
}


@st.composite
def edit_ops(draw: st.DrawFn, family: str | None = None) -> list[Any]:
    ops = []
    for _ in range(draw(st.integers(0, 3))):
        roll = draw(st.integers(0, 9))
        if roll == 0:
            ops.append(draw(fz.json_values(max_leaves=4)))  # not an operation at all
        elif roll < 4:  # any name, any fields, any values
            op: dict[str, Any] = {"op": draw(st.sampled_from(OPS))}
            for name in draw(st.lists(st.sampled_from(FIELDS), max_size=4, unique=True)):
                op[name] = draw(field_values())
            ops.append(op)
        else:  # a well-formed operation, its fields mostly there
            own = FAMILY_OPS.get(family or "", ())
            name = draw(st.sampled_from(own if own and roll > 4 else sorted(WELL_FORMED)))
            fields = WELL_FORMED[name]
            kept = draw(st.lists(st.sampled_from(sorted(fields)), unique=True)) if fields else []
            ops.append({"op": name, **{f: draw(fields[f]) for f in fields if f in kept or roll > 6}})
    return ops


@pytest.fixture(scope="module")
def boards() -> dict[str, tuple[Any, Any]]:
    """A small generated board of each family: {family name: (family, puzzle)}."""
    out = {}
    for family in FAMILIES.values():
        kind = family.maker.generators[0]
        try:
            values = kind.check({"rows": 7 if family.name == "labyrinth" else 5,
                                 "cols": 7 if family.name == "labyrinth" else 6, "seed": 3})
        except PuzzleError:  # a family of its own sizes (square sliding-tile boards): its defaults
            values = kind.check({"seed": 3})
        out[family.name] = (family, family.maker.generate(kind.name, values).puzzle)
    return out


@FUZZ
@given(name=st.sampled_from(sorted(FAMILIES)), data=st.data())
def test_any_edit_works_or_is_refused_in_words(boards, name, data) -> None:
    family, puzzle = boards[name]
    ops = data.draw(edit_ops(name))
    try:
        edited = family.editor.edit(puzzle, edit_list(ops))
    except PuzzleError:
        return
    saver = family.need("saver")
    data = saver.save(edited)
    again = family.load(data, f"edited.{saver.default_format(edited)}", family.text_options({}, "load"),
                        fz.LoadLimits())
    assert saver.save(again) == data  # saved, loaded, saved: the same file


@FUZZ
@given(kind=st.sampled_from([k.name for f in FAMILIES.values() if f.maker for k in f.maker.generators]
                            + ["nope"]),
       body=st.dictionaries(st.sampled_from(["rows", "cols", "seed", "density", "cycle", "extra"]),
                            field_values(), max_size=4))
def test_any_generator_request_works_or_is_refused_in_words(kind, body) -> None:
    family = next((f for f in FAMILIES.values()
                   if f.maker is not None and any(k.name == kind for k in f.maker.generators)), None)
    try:
        if family is None:
            raise PuzzleError("no such kind")
        generator = family.maker.generator(kind)
        values = generator.check(body)
        if values["rows"] * values["cols"] > 40_000:
            return  # big boards are the benchmarks' business, not the fuzzer's
        made = family.maker.generate(generator.name, values)
    except PuzzleError:
        return
    assert family.saver.save(made.puzzle)
