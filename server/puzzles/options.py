"""Options schemas: each family declares its options once; validation, CLI flags and the page's
controls all come from that declaration.

Two ways in: ``validate_json`` for the API and the socket (strict: a string is not a number, NaN,
infinity and out-of-range values are refused) and ``parse_text`` for form fields and command-line
values (strings parsed by type). Both return a plain ``dict`` with every option of the requested
stage, defaults filled in, and raise ``PuzzleError`` naming the field at fault.

``whole`` (and ``whole_list``, ``whole_text``) is the one check of a whole number anywhere a message
carries one: the schemas' ints, the editors' cells and counts, a socket frame number, a query's row.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import t
from .errors import PuzzleError, show_value

TYPES = ("bool", "int", "float", "choice", "point", "int_list", "text", "trace")
STAGES = ("run", "load", "both")
MAX_LIST = 1_000  # items in an int_list: far more than any board has rows
MAX_TEXT = 200  # characters of a choice or a number typed as text
MAX_LONG_TEXT = 500  # characters of a "text" option (a heuristic formula: ``server/formula.py``'s bound)
# Characters of a "trace" option (a student's recorded run: ids and commas), within a socket message's
# 1 MB (``server/app.py``'s max_http_buffer_size) beside the rest of a run request.
MAX_TRACE = 900_000
_TRACE_CHARS = frozenset("0123456789,;")
_STORED_RUN = re.compile(r"run:[0-9a-f]{20}")

Values = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """One user-settable option of a family.

    ``stage``: "run" (a search option), "load" (read with the file) or "both". ``control``:
    "form" (the page draws a control) or "view" (the family's view supplies it, e.g. a clicked
    start). ``algorithms``: the control only matters for these algorithms (None: for all).
    ``optional``: ``None`` is allowed and means "the puzzle's or the family's default".
    """

    name: str
    type: str
    label: str
    help: str
    default: Any = None
    optional: bool = False
    min: float | None = None
    max: float | None = None
    step: float | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, label)
    stage: str = "run"
    control: str = "form"
    algorithms: tuple[str, ...] | None = None
    #: Values for the placeholders of ``help`` when it is a catalog key (e.g. the formula's features).
    help_params: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        assert self.type in TYPES, self.type
        assert self.stage in STAGES, self.stage

    @property
    def choice_values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.choices)

    @property
    def where(self) -> str:
        return f"option '{self.name}'"

    def to_json(self) -> dict[str, Any]:
        """The option as the page and ``/api/families`` see it."""
        out: dict[str, Any] = {
            "name": self.name, "type": self.type, "label": t(self.label),
            "help": t(self.help, **{k: t(v) for k, v in self.help_params}) if self.help else "",
            "default": self.default, "optional": self.optional, "stage": self.stage,
            "control": self.control, "algorithms": list(self.algorithms) if self.algorithms else None,
        }
        for key in ("min", "max", "step"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.type == "choice":
            out["choices"] = [{"value": value, "label": t(label)} for value, label in self.choices]
        return out

    # ---- checking one value ------------------------------------------------------------------
    def check(self, value: Any) -> Any:
        """A JSON value of this option, checked; raises PuzzleError naming the option."""
        if value is None or (value == "" and self.type == "choice"):  # "": "no choice", the default
            if self.optional:
                return None
            raise PuzzleError(t("core.options.value_required"), self.where)
        check = getattr(self, f"_check_{self.type}")
        return check(value)

    def _check_bool(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise PuzzleError(t("core.options.expected_true_or_false_got",
                                value=show_value(value)), self.where)
        return value

    def _check_int(self, value: Any) -> int:
        return whole(value, self._low, self._high, self.where)

    def _check_float(self, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PuzzleError(t("core.options.expected_number_got", value=show_value(value)), self.where)
        if isinstance(value, int) and abs(value) > _LARGEST_FLOAT:  # JSON integers have no size limit
            self._in_range(value)
            raise PuzzleError(t("core.options.expected_number_that_fits_float",
                                value=show_value(value)), self.where)
        if not math.isfinite(value):
            raise PuzzleError(t("core.options.expected_finite_number_got",
                                value=show_value(value)), self.where)
        return float(self._in_range(float(value)))

    def _check_choice(self, value: Any) -> str:
        if not isinstance(value, str) or value not in self.choice_values:
            raise PuzzleError(
                t("core.options.not_one", value=show_value(value),
                  join=', '.join(self.choice_values)), self.where
            )
        return value

    def _check_text(self, value: Any) -> str:
        if not isinstance(value, str):
            raise PuzzleError(t("core.options.expected_text_got", value=show_value(value)), self.where)
        if len(value) > MAX_LONG_TEXT:
            raise PuzzleError(t("core.options.text_characters_long_at_most", n_value=len(value),
                                MAX_LONG_TEXT=MAX_LONG_TEXT),
                              self.where)
        return value

    def _check_trace(self, value: Any) -> str:
        if not isinstance(value, str):
            raise PuzzleError(t("core.options.expected_recorded_run_as_text",
                                value=show_value(value)), self.where)
        if len(value) > MAX_TRACE:
            raise PuzzleError(t("core.options.recorded_run_characters_long_at", n_value=len(value),
                                MAX_TRACE=MAX_TRACE), self.where)
        if _STORED_RUN.fullmatch(value):  # a run uploaded in parts and kept on the server (student mode)
            return value
        if value and (value.count(";") != 1 or not _TRACE_CHARS.issuperset(value)):
            raise PuzzleError(t("core.options.expected_expanded_ids_path_moves"), self.where)
        return value

    def _check_point(self, value: Any) -> tuple[int, int]:
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise PuzzleError(t("core.options.expected_row_col_got", value=show_value(value)), self.where)
        row, col = (whole(v, -MAX_WHOLE, MAX_WHOLE, self.where, "[row, col]") for v in value)
        if row < 0 or col < 0:
            raise PuzzleError(t("core.options.expected_row_col_got_2", value=show_value(value)), self.where)
        return row, col

    def _check_int_list(self, value: Any) -> list[int]:
        if not isinstance(value, list | tuple) or len(value) > MAX_LIST:
            raise PuzzleError(t("core.options.expected_list_whole_numbers_got",
                                value=show_value(value)), self.where)
        return [whole(v, self._low, self._high, self.where, "core.what.whole_list") for v in value]

    @property
    def _low(self) -> float:
        """The smallest whole number the option takes (no ``min``: the 32-bit range every kernel holds)."""
        return -MAX_WHOLE if self.min is None else self.min

    @property
    def _high(self) -> float:
        return MAX_WHOLE if self.max is None else self.max

    def _in_range(self, number: float) -> float:
        if (self.min is not None and number < self.min) or (self.max is not None and number > self.max):
            low = "" if self.min is None else _number(self.min)
            high = "" if self.max is None else _number(self.max)
            raise PuzzleError(t("core.options.outside_2", number=_number(number), low=low,
                                high=high), self.where)
        return number

    # ---- reading one value from text (forms, the command line) -----------------------------
    def parse(self, text: str) -> Any:
        """The value of a text field (a form or a command-line flag), checked."""
        if self.type in ("text", "trace"):
            return self.check(text.strip() if isinstance(text, str) else text)
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise PuzzleError(t("core.options.expected_short_text_value"), self.where)
        text = text.strip()
        if text == "" and self.optional:
            return None
        try:
            if self.type == "bool":
                lowered = text.lower()
                if lowered not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                    raise ValueError
                return lowered in ("true", "1", "yes", "on")
            if self.type == "int":
                return self.check(int(text))
            if self.type == "float":
                return self.check(float(text))
            if self.type == "point":
                return self.check([int(v) for v in text.replace(" ", "").split(",")])
            if self.type == "int_list":
                return self.check([int(v) for v in text.replace(" ", "").split(",") if v])
        except PuzzleError:
            raise  # read, but not allowed (out of range): say so, not "cannot read"
        except ValueError:
            raise PuzzleError(t("core.options.cannot_read_as", text=repr(text),
                                TEXT_FORMS=t(_TEXT_FORMS[self.type])), self.where) from None
        return self.check(text)


_TEXT_FORMS = {  # catalog keys
    "bool": "core.what.bool", "int": "core.what.whole", "float": "core.what.number", "point": "ROW,COL",
    "int_list": "core.what.int_list", "choice": "core.what.choice", "text": "core.what.text",
}


def _number(number: float) -> str:
    """``number`` for a message: a whole number below 10^15 in digits (a seed's 2147483647, not
    2.14748e+09), another as ``:g`` shows it (1e+20), an integer beyond any float by its length."""
    if isinstance(number, int) and abs(number) < 10**15:
        return str(number)
    if isinstance(number, float) and number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    try:
        return f"{number:g}"
    except OverflowError:  # JSON integers have no size limit (and Python prints at most 4,300 digits)
        return t("core.show.long_integer", digits=int(int(number).bit_length() * 0.30103) + 1)


_LARGEST_FLOAT = int(sys.float_info.max)


# ---- whole numbers: the one check of an integer in a message --------------------------------------
MAX_WHOLE = 2**31 - 1  # the bound of a whole number nothing else bounds: every kernel's int32 holds it
_WHOLE_TEXT = re.compile(r"[+-]?[0-9]{1,30}")  # ASCII digits only (int() also reads '1_000' and '١')


def as_whole(value: Any) -> int | None:
    """The whole number a JSON value stands for — an int, or a float without a fraction (2.0, -0.0,
    1e20) — or None for anything else: true and false (Python's bools are ints), NaN, the
    infinities, 0.5, strings of digits, lists. Never a machine integer: an int of any size stays one,
    for the caller to compare with its bounds."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def whole(value: Any, low: float, high: float, where: str, what: str = "core.what.whole",
          span: str = "") -> int:
    """``value`` (from JSON) as a whole number in ``low..high``, or a PuzzleError naming ``where``:
    "expected ``what``, got …" or "… is outside low..high" (``span``: the range in words, "the board
    of 80 cells"). Every integer a message carries (an edit's cell or count, a generator's size, a run
    option, a frame number) is checked here, before it meets numpy, numba or ``range``: JSON hands
    Python ints of any size (2**64, 10**4000), floats as large as 1e308 and, from Python's decoder,
    NaN and Infinity."""
    number = as_whole(value)
    if number is None:
        raise PuzzleError(t("core.options.expected_got", what=t(what), value=show_value(value)), where)
    if not low <= number <= high:
        raise PuzzleError(t("core.options.outside", number=_number(number),
                            value=t(span) if span else f'{_number(low)}..{_number(high)}'), where)
    return number


def whole_list(value: Any, low: float, high: float, where: str, what: str, limit: int,
               span: str = "") -> list[int]:
    """A list of at most ``limit`` whole numbers, each in ``low..high`` (``whole``'s rules). A list of
    plain ints (a brush stroke of a million cells) is checked by its smallest and largest at C speed;
    otherwise each item, naming the first that is wrong (``where``, item N, 1-based)."""
    if not isinstance(value, list) or len(value) > limit:
        got = t("core.what.of_them", count=len(value)) if isinstance(value, list) else show_value(value)
        raise PuzzleError(t("core.options.expected_list_at_most_whole", limit=limit, got=got), where)
    if all(type(v) is int for v in value) and (not value or (low <= min(value) and max(value) <= high)):
        return value
    return [whole(v, low, high, f"{where}, item {k + 1}", what, span) for k, v in enumerate(value)]


def whole_text(text: Any, low: float, high: float, where: str, what: str = "core.what.whole") -> int:
    """A whole number written as text (a query parameter): an optional sign and at most 30 ASCII
    digits, around it only spaces; then ``whole``'s range. '1e20', 'NaN', '0.5', '1_000' are refused."""
    if not isinstance(text, str) or not _WHOLE_TEXT.fullmatch(text.strip()):
        raise PuzzleError(t("core.options.expected_got_2", what=t(what), text=show_value(text)), where)
    return whole(int(text), low, high, where, what)


def _stage_options(schema: Sequence[Option], stage: str) -> list[Option]:
    """The options of ``stage`` ("run" or "load"); "both" options belong to each."""
    return [o for o in schema if o.stage in (stage, "both")]


def validate_json(schema: Sequence[Option], raw: Any, stage: str = "run") -> Values:
    """Check an options object from the API or the socket; every option of ``stage`` is in the result."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise PuzzleError(t("core.options.options_must_be_object_got", name=type(raw).__name__), "options")
    allowed = {o.name: o for o in _stage_options(schema, stage)}
    unknown = [str(k) for k in raw if k not in allowed]
    if unknown:
        names = ", ".join(repr(k[:40]) for k in sorted(unknown)[:5])
        raise PuzzleError(t("core.options.unknown_option_s_this_family", names=names,
                            allowed=_names(allowed)), "options")
    return {name: option.check(raw.get(name, option.default)) for name, option in allowed.items()}


def parse_text(schema: Sequence[Option], fields: Mapping[str, str], stage: str) -> Values:
    """Options given as text (form fields, CLI flags); fields the schema does not know are refused."""
    allowed = {o.name: o for o in _stage_options(schema, stage)}
    unknown = [str(k) for k in fields if k not in allowed]
    if unknown:
        names = ", ".join(repr(k[:40]) for k in sorted(unknown)[:5])
        raise PuzzleError(t("core.options.unknown_option_s_this_family", names=names,
                            allowed=_names(allowed)), "options")
    return {
        name: option.parse(fields[name]) if name in fields else option.check(option.default)
        for name, option in allowed.items()
    }


def _names(allowed: Mapping[str, Option]) -> str:
    return ", ".join(allowed) or t("core.options.none_at_this_stage")


# ---- the options every family shares: the search's heuristic and A*'s weight ---------------------
YOURS = "yours"  # the heuristic choice that evaluates the run's ``formula`` (the heuristic lab)


def heuristic_option(names: Sequence[str], algorithms: Sequence[str], help: str = "",
                     yours: bool = False) -> Option:
    """The shared ``heuristic`` choice; ``yours``: also "yours", the ``formula`` option's heuristic."""
    choices = tuple((n, n) for n in names) + (((YOURS, "core.option.heuristic.yours"),) if yours else ())
    return Option(
        "heuristic", "choice", "core.option.heuristic.label",
        help or "core.option.heuristic.help",
        default=None, optional=True, choices=choices, algorithms=tuple(algorithms),
    )


def formula_option(features: Sequence[str], algorithms: Sequence[str]) -> Option:
    """The shared ``formula`` text: the heuristic "yours" evaluates it over these feature names."""
    return Option(
        "formula", "text", "core.option.formula.label", "core.option.formula.help",
        default="", algorithms=tuple(algorithms), help_params=(("features", ", ".join(features)),),
    )


def code_option(algorithm: str) -> Option:
    """The shared ``code``: a student's recorded run that the hidden algorithm ``code`` replays (student
    mode, docs/STUDENT.md); the page supplies it, no form shows it."""
    return Option(
        "code", "trace", "core.option.code.label", "core.option.code.help",
        default="", control="view", algorithms=(algorithm,),
    )


def weight_option(algorithms: Sequence[str]) -> Option:
    return Option(
        "weight", "float", "core.option.weight.label", "core.option.weight.help",
        default=1.0, min=1.0, max=100.0, step=0.1, algorithms=tuple(algorithms),
    )
