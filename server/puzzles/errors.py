"""The one error type that every parser raises: a message that names what is wrong and where."""

from __future__ import annotations

import re
from typing import Any

from ..i18n import DEFAULT, language, t

#: The usual forms of ``where``, each a catalog key with its parts (written in the reader's language;
#: English keeps ``where`` as it is). Matched whole, in order; a form not here stays as written.
WHERE_FORMS = [
    (re.compile(r"line (?P<line>\d+), column (?P<column>\d+)"), "core.where.line_column"),
    (re.compile(r"line (?P<line>\d+)"), "core.where.line"),
    (re.compile(r"lines (?P<first>\d+)-(?P<last>\d+)"), "core.where.lines"),
    (re.compile(r"field (?P<name>'[^']*'), row (?P<row>\d+)"), "core.where.field_row"),
    (re.compile(r"field (?P<name>'[^']*')"), "core.where.field"),
    (re.compile(r"option (?P<name>'[^']*')"), "core.where.option"),
    (re.compile(r"pixel (?P<at>\(.*\))"), "core.where.pixel"),
    (re.compile(r"path item (?P<n>\d+)"), "core.where.path_item"),
    (re.compile(r"edit (?P<n>\d+)"), "core.where.edit"),
    (re.compile(r"algorithm (?P<name>.+)"), "core.where.algorithm"),
    (re.compile(r"file"), "core.where.file"),
    (re.compile(r"cell"), "core.where.cell"),
    (re.compile(r"board"), "core.where.board"),
]

ITEM = re.compile(r"(?P<where>.+), item (?P<n>\d+)")


def where_text(where: str) -> str:
    """``where`` in the reader's language ("line 3, column 7" → "Zeile 3, Spalte 7")."""
    if language() == DEFAULT:
        return where
    item = ITEM.fullmatch(where)
    if item:  # "field 'path', item 3": the place, then the item
        return t("core.where.item", where=where_text(item.group("where")), n=item.group("n"))
    for pattern, key in WHERE_FORMS:
        match = pattern.fullmatch(where)
        if match:
            return t(key, **match.groupdict())
    return where


class PuzzleError(ValueError):
    """A puzzle file or option is invalid.

    ``where`` names the place at fault ("line 3, column 7", "pixel (12, 40)", "field 'freeTile'");
    ``str(error)`` gives the whole one-line message for the CLI, the API and the page.
    """

    def __init__(self, message: str, where: str | None = None) -> None:
        self.message = message
        self.where = where
        super().__init__(f"{where_text(where)}: {message}" if where else message)


def show_value(value: Any, limit: int = 60) -> str:
    """A value for an error message: its repr, cut to ``limit`` characters (a file may hold megabytes
    in one field), and never an error itself (a value nested nearly as deep as the JSON decoder
    allows is too deep for ``repr``)."""
    try:
        text = repr(value)
    except RecursionError:
        return t("core.show.too_deep", name=type(value).__name__)
    except ValueError:  # Python prints integers of at most 4,300 digits
        return t("core.show.long_integer", digits=int(value.bit_length() * 0.30103))
    return text if len(text) <= limit else text[: limit - 3] + "..."
