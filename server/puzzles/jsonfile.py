"""Reading a puzzle file's JSON, for every family: each way ``json.loads`` fails becomes one PuzzleError."""

from __future__ import annotations

import json
from typing import Any

from server.puzzles.errors import PuzzleError


def read_json(text: str) -> Any:
    """The JSON value of ``text`` (a leading byte-order mark is ignored); raises PuzzleError naming where."""
    try:
        return json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as err:
        raise PuzzleError(f"not valid JSON: {err.msg}", f"line {err.lineno}, column {err.colno}") from None
    except RecursionError:  # Python's decoder recurses once per level of nesting
        raise PuzzleError("not valid JSON here: lists or objects nested too deeply", "file") from None
    except ValueError:  # Python refuses to read integers of more than 4,300 digits
        raise PuzzleError("not valid JSON here: a number with too many digits", "file") from None
