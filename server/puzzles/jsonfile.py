"""Reading a puzzle file's JSON, for every family: each way ``json.loads`` fails becomes one PuzzleError;
and a solution handed in as JSON or as a Python literal (``read_value``)."""

from __future__ import annotations

import ast
import json
from typing import Any

from ..i18n import t
from .errors import PuzzleError


def read_json(text: str) -> Any:
    """The JSON value of ``text`` (a leading byte-order mark is ignored); raises PuzzleError naming where."""
    try:
        return json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as err:
        raise PuzzleError(t("core.jsonfile.not_valid_json",
                            msg=err.msg), f"line {err.lineno}, column {err.colno}") from None
    except RecursionError:  # Python's decoder recurses once per level of nesting
        raise PuzzleError(t("core.jsonfile.not_valid_json_here_lists"), "file") from None
    except ValueError:  # Python refuses to read integers of more than 4,300 digits
        raise PuzzleError(t("core.jsonfile.not_valid_json_here_number"), "file") from None


def read_value(text: str) -> Any:
    """A solution as a student hands it in: JSON, or the same value as Python prints it (lists or tuples
    of tuples or lists, ``'strings'``, ``True``/``None``), read by ``ast.literal_eval``, which evaluates
    literals only, never code; tuples become lists, as JSON has them. Raises PuzzleError naming where:
    the JSON error, or the Python one for a text only Python reads (tuples, single quotes)."""
    try:
        return read_json(text)
    except PuzzleError as json_error:
        body = text.lstrip("\ufeff").strip()
        try:
            value = ast.literal_eval(body)
        except SyntaxError as err:
            if not _pythonic(body):
                raise json_error from None
            raise PuzzleError(t("core.jsonfile.not_valid_json_or_python", msg=err.msg),
                              f"line {err.lineno}, column {err.offset}") from None
        except (ValueError, TypeError, RecursionError, MemoryError):
            if not _pythonic(body):
                raise json_error from None
            raise PuzzleError(t("core.jsonfile.not_python_list_numbers_strings"), "file") from None
        return _as_json(value)


def _pythonic(body: str) -> bool:
    """Whether a text that is not JSON looks like Python's own printing (so its error is Python's)."""
    return "(" in body or "'" in body or "None" in body or "True" in body or "False" in body


def _as_json(value: Any) -> Any:
    """``value`` with every tuple a list; a literal JSON has no word for (a set, bytes) is refused."""
    if isinstance(value, (list, tuple)):
        return [_as_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_json(item) for key, item in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise PuzzleError(t("core.jsonfile.python_not_solution_s_notation", name=type(value).__name__), "file")
