"""The one error type that every parser raises: a message that names what is wrong and where."""

from __future__ import annotations


class PuzzleError(ValueError):
    """A puzzle file or option is invalid.

    ``where`` names the place at fault ("line 3, column 7", "pixel (12, 40)", "field 'freeTile'");
    ``str(error)`` gives the whole one-line message for the CLI, the API and the page.
    """

    def __init__(self, message: str, where: str | None = None) -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)
