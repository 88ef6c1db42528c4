"""The one error type that every parser raises: a message that names what is wrong and where."""

from __future__ import annotations

from typing import Any


class PuzzleError(ValueError):
    """A puzzle file or option is invalid.

    ``where`` names the place at fault ("line 3, column 7", "pixel (12, 40)", "field 'freeTile'");
    ``str(error)`` gives the whole one-line message for the CLI, the API and the page.
    """

    def __init__(self, message: str, where: str | None = None) -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


def show_value(value: Any, limit: int = 60) -> str:
    """A value for an error message: its repr, cut to ``limit`` characters (a file may hold megabytes
    in one field), and never an error itself (a value nested nearly as deep as the JSON decoder
    allows is too deep for ``repr``)."""
    try:
        text = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply to show"
    except ValueError:  # Python prints integers of at most 4,300 digits
        return f"an integer of about {int(value.bit_length() * 0.30103):,} digits"
    return text if len(text) <= limit else text[: limit - 3] + "..."
