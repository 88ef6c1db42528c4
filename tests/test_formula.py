"""The heuristic lab's formula language (issue 19): allowed constructs mean what Python means, vectorised
evaluation equals scalar evaluation, hostile text is refused in one line, and fuzzed text only ever
compiles or raises ``FormulaError``."""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.formula import MAX_CHARS, FormulaError, compile_formula
from server.puzzles.errors import PuzzleError

NAMES = ("row", "col", "goal_row", "goal_col", "dr", "dc", "phase")
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "200"))

# Each formula with a hand-written Python reference over scalars (dr, dc, phase).
Reference = Callable[[float, float, float], float]
CASES: list[tuple[str, Reference]] = [
    ("dr + dc", lambda dr, dc, ph: dr + dc),
    ("2*(dr+dc)", lambda dr, dc, ph: 2 * (dr + dc)),
    ("dr - dc - 1", lambda dr, dc, ph: dr - dc - 1),
    ("dr / dc", lambda dr, dc, ph: dr / dc),
    ("dr // dc", lambda dr, dc, ph: dr // dc),
    ("dr % dc", lambda dr, dc, ph: dr % dc),
    ("dr ** 2", lambda dr, dc, ph: dr**2),
    ("-dr ** 2", lambda dr, dc, ph: -(dr**2)),
    ("dr ** -2", lambda dr, dc, ph: dr**-2),
    ("dr ** 0.5", lambda dr, dc, ph: dr**0.5),
    ("+dr", lambda dr, dc, ph: +dr),
    ("-dr", lambda dr, dc, ph: -dr),
    ("not dr", lambda dr, dc, ph: float(not dr)),
    ("dr < dc", lambda dr, dc, ph: float(dr < dc)),
    ("dr <= dc", lambda dr, dc, ph: float(dr <= dc)),
    ("dr > dc", lambda dr, dc, ph: float(dr > dc)),
    ("dr >= dc", lambda dr, dc, ph: float(dr >= dc)),
    ("dr == dc", lambda dr, dc, ph: float(dr == dc)),
    ("dr != dc", lambda dr, dc, ph: float(dr != dc)),
    ("0 <= dr < dc <= 5", lambda dr, dc, ph: float(0 <= dr < dc <= 5)),
    ("dr and dc", lambda dr, dc, ph: dr and dc),
    ("dr or dc", lambda dr, dc, ph: dr or dc),
    ("dr and dc or phase", lambda dr, dc, ph: (dr and dc) or ph),
    ("dr or dc and not phase", lambda dr, dc, ph: dr or (dc and float(not ph))),
    ("dr if phase else dc", lambda dr, dc, ph: dr if ph else dc),
    (
        "0 if dr == 0 and dc == 0 else dr + dc + phase",
        lambda dr, dc, ph: 0 if dr == 0 and dc == 0 else dr + dc + ph,
    ),
    ("abs(dr)", lambda dr, dc, ph: abs(dr)),
    ("min(dr, dc)", lambda dr, dc, ph: min(dr, dc)),
    ("max(dr, dc, phase, 1.5)", lambda dr, dc, ph: max(dr, dc, ph, 1.5)),
    ("sqrt(dr)", lambda dr, dc, ph: math.sqrt(dr)),
    ("floor(dr / 2)", lambda dr, dc, ph: math.floor(dr / 2)),
    ("ceil(dr / 2)", lambda dr, dc, ph: math.ceil(dr / 2)),
    (
        "max(dr, dc) + (sqrt(2)-1)*min(dr, dc)",
        lambda dr, dc, ph: max(dr, dc) + (math.sqrt(2) - 1) * min(dr, dc),
    ),
    ("1_000 + 2.5e3 + 0x10", lambda dr, dc, ph: 1_000 + 2.5e3 + 0x10),
]
VALUES = (-3.0, -1.5, 0.0, 0.5, 2.0, 7.0)


def reference(fn: Reference, dr: float, dc: float, ph: float) -> float:
    """Python's answer, or NaN where Python raises or leaves the reals (the formula gives NaN/inf there)."""
    try:
        value = fn(dr, dc, ph)
    except (ZeroDivisionError, ValueError, OverflowError):
        return math.nan
    return math.nan if isinstance(value, complex) else float(value)


# ------------------------------------------------------------------------------------------ meaning
@pytest.mark.parametrize(("text", "fn"), CASES, ids=[c[0] for c in CASES])
def test_each_construct_means_what_python_means(text: str, fn: Reference) -> None:
    formula = compile_formula(text, NAMES)
    combos = list(itertools.product(VALUES, VALUES, (0.0, 1.0)))
    dr, dc, ph = (np.array(c) for c in zip(*combos, strict=True))
    got = formula.evaluate({"dr": dr, "dc": dc, "phase": ph})
    assert got.dtype == np.float64 and got.shape == (len(combos),)
    for value, combo in zip(got, combos, strict=True):
        want = reference(fn, *combo)
        if math.isnan(want):  # Python raised: the formula must not have, and gives a non-finite value
            assert not math.isfinite(value), (combo, value)
        else:
            assert value == pytest.approx(want, rel=1e-12, abs=1e-12), (combo, value, want)


@pytest.mark.parametrize("text", [c[0] for c in CASES])
def test_vectorised_equals_scalar(text: str) -> None:
    formula = compile_formula(text, NAMES)
    rng = np.random.default_rng(19)
    features = {
        "dr": rng.integers(-5, 6, 300).astype(float),
        "dc": rng.normal(0, 3, 300),
        "phase": rng.integers(0, 2, 300),
    }
    whole = formula.evaluate(features)
    for i in range(0, 300, 7):
        one = formula.evaluate({k: float(v[i]) for k, v in features.items()})
        assert one.shape == ()
        np.testing.assert_array_equal(one, whole[i])


def test_api_and_broadcasting() -> None:
    formula = compile_formula("dc + 2*dr", NAMES)
    assert formula.text == "dc + 2*dr"
    assert formula.names_used == ("dr", "dc")
    dr = np.array([1.0, 2.0, 3.0])
    out = formula.evaluate({"dr": dr, "dc": 1})
    np.testing.assert_array_equal(out, [3.0, 5.0, 7.0])
    constant = compile_formula("1.5", NAMES).evaluate({"dr": dr, "dc": dr})
    np.testing.assert_array_equal(constant, [1.5, 1.5, 1.5])
    assert constant.flags.writeable
    same = compile_formula("+dr", NAMES).evaluate({"dr": dr})
    same[0] = 99.0
    assert dr[0] == 1.0  # a new array, never the caller's
    ints = compile_formula("dr / 2", NAMES).evaluate({"dr": np.array([1, 2, 3])})
    assert ints.dtype == np.float64 and list(ints) == [0.5, 1.0, 1.5]
    with pytest.raises(FormulaError, match="missing"):
        formula.evaluate({"dr": dr})


def test_arithmetic_trouble_gives_nan_or_inf_not_errors() -> None:
    dr = np.array([0.0, -4.0, 1.0, 1e12])
    with np.errstate(all="raise"):  # the formula's own errstate must win
        formula = compile_formula("1/dr + sqrt(dr) + dr // 0 + dr % 0 + (dr*1e12)**8", NAMES)
        values = formula.evaluate({"dr": dr})
    assert values.dtype == np.float64
    assert np.count_nonzero(~np.isfinite(values)) == 4


def test_sixteen_million_states_are_quick() -> None:
    import time

    rng = np.random.default_rng(1)
    dr, dc = rng.random(16_000_000), rng.random(16_000_000)
    formula = compile_formula("max(dr, dc) + 0.5*min(dr, dc)", NAMES)
    start = time.perf_counter()
    out = formula.evaluate({"dr": dr, "dc": dc})
    assert time.perf_counter() - start < 3.0
    assert out[5] == max(dr[5], dc[5]) + 0.5 * min(dr[5], dc[5])


def test_whitespace_newlines_and_columns() -> None:
    assert compile_formula("  dr +\tdc", NAMES).evaluate({"dr": 1, "dc": 2}) == 3
    assert compile_formula("(dr +\n dc)", NAMES).evaluate({"dr": 1, "dc": 2}) == 3
    with pytest.raises(FormulaError) as info:
        compile_formula("  dr + foo", NAMES)
    assert info.value.column == 8 and info.value.where == "column 8"
    assert isinstance(info.value, PuzzleError)
    assert str(info.value) == (
        "unknown name 'foo' at column 8 (the names are: row, col, goal_row, goal_col, dr, dc, phase)"
    )
    with pytest.raises(FormulaError, match="at column 14"):
        compile_formula("(dr +\n dc) + foo", NAMES)


# ------------------------------------------------------------------------------------------ hostile
HOSTILE = [
    ("__import__('os').system('x')", "attribute access is not allowed at column 17"),
    ("__import__('os')", "'__import__' is not a function at column 1"),
    ("open", "unknown name 'open' at column 1"),
    ("().__class__.__bases__", "attribute access is not allowed at column 13"),
    ("dr.real", "attribute access is not allowed at column 3"),
    ("dr[0]", "subscripts are not allowed at column 1"),
    ("[x for x in (1,)]", "comprehensions are not allowed at column 1"),
    ("lambda: 1", "lambda is not allowed at column 1"),
    ("2**2**100", "the exponent of ** must be a number from -8 to 8 at column 4"),
    ("9**999999", "the exponent of ** must be a number from -8 to 8 at column 4"),
    ("dr**dc", "the exponent of ** must be a number from -8 to 8 at column 5"),
    ("dr**9", "the exponent of ** must be a number from -8 to 8"),
    ("'a'*9", "strings are not allowed at column 1"),
    ("b'a'", "bytes are not allowed at column 1"),
    ("f'{dr}'", "f-strings are not allowed at column 1"),
    ("None", "None is not allowed"),
    ("True + 1", "True is not allowed"),
    ("1j", "complex numbers are not allowed"),
    ("1e13", "numbers must be at most 1e+12 in size at column 1"),
    ("foo + 1", "unknown name 'foo' at column 1 (the names are: row, col"),
    ("dr +", "syntax error at column 5"),
    ("dr + + ) ", "syntax error at column 8"),
    ("x" * 600, "the formula is 600 characters long; at most 500 are allowed"),
    ("(" * 300 + "dr" + ")" * 300, "the formula is 602 characters long"),
    ("(" * 240 + "dr" + ")" * 240, "syntax error at column 201: too many nested parentheses"),
    ("-" * 40 + "dr", "the formula is nested more than 30 deep at column 31"),
    ("+".join(["dr"] * 120), "the formula has 239 parts; at most 200 are allowed"),
    ("(dr := 1)", "the walrus operator := is not allowed at column 2"),
    ("min(dr)", "min() needs two or more arguments at column 1"),
    ("max(*dr)", "starred arguments are not allowed at column 5"),
    ("abs(x=dr)", "keyword arguments are not allowed at column 5"),
    ("abs(dr, dc)", "abs() takes exactly one argument"),
    ("abs", "'abs' is a function; call it like abs(x) at column 1"),
    ("(dr, dc)", "tuples are not allowed at column 1"),
    ("{dr: 1}", "dicts are not allowed"),
    ("dr @ dc", "the operator @ is not allowed"),
    ("dr | dc", "the operator | is not allowed"),
    ("~dr", "the operator ~ is not allowed"),
    ("dr in dc", "the comparison 'in' is not allowed"),
    ("dr is dc", "the comparison 'is' is not allowed"),
    ("dr\x00", "the character '\\x00' is not allowed at column 3"),
    ("dr + é", "the character 'é' is not allowed at column 6"),
    ("", "the formula is empty"),
    ("  \n ", "the formula is empty"),
    ("dr # comment", None),
]


@pytest.mark.parametrize(("text", "message"), HOSTILE, ids=[h[0][:30] for h in HOSTILE])
def test_hostile_text_is_refused_in_one_line(text: str, message: str | None) -> None:
    if message is None:  # a comment is harmless
        compile_formula(text, NAMES)
        return
    with pytest.raises(FormulaError) as info:
        compile_formula(text, NAMES)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_declared_names_are_checked() -> None:
    for bad in (["abs"], ["dr", "dr"], ["not a name"], ["lambda"]):
        with pytest.raises(ValueError):
            compile_formula("1", bad)
    assert len("x" * MAX_CHARS) == 500
    compile_formula("+".join(["dr"] * 20), NAMES)


# ------------------------------------------------------------------------------------------ fuzzing
TOKENS = [
    *NAMES, "abs", "min", "max", "sqrt", "floor", "ceil", "foo", "__import__", "0", "1", "2", "0.5", "8",
    "1e12", "9", "(", ")", ",", "+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!=",
    "and", "or", "not", "if", "else", ".", "[", "]", "'s'", ":=", "lambda", ":", "=",
]  # fmt: skip
token_text = st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join)
FUZZ = settings(max_examples=EXAMPLES, deadline=2000, suppress_health_check=list(HealthCheck))
# ast.parse warns about text such as "1and"; harmless, and then the text is compiled or refused as usual
quiet = pytest.mark.filterwarnings("ignore::SyntaxWarning")


def check_text(text: str) -> None:
    """Either a FormulaError, or a formula whose evaluation is a float64 array of the states' shape."""
    try:
        formula = compile_formula(text, NAMES)
    except FormulaError as error:
        assert str(error) and "\n" not in str(error)
        return
    rng = np.random.default_rng(0)
    features = {name: rng.integers(-4, 5, 9).astype(float) for name in NAMES}
    features["phase"] = 1.0
    out = formula.evaluate(features)
    assert out.dtype == np.float64 and out.shape == (9,)


@quiet
@FUZZ
@given(text=st.text(max_size=120))
def test_fuzz_arbitrary_text(text: str) -> None:
    check_text(text)


@quiet
@FUZZ
@given(text=token_text)
def test_fuzz_token_soup(text: str) -> None:
    check_text(text)


@quiet
@FUZZ
@given(text=st.text(alphabet="dr+-*/()%<>=!*, 0129.minaxbsqrtfloceilndoe", max_size=80))
def test_fuzz_formula_alphabet(text: str) -> None:
    check_text(text)
