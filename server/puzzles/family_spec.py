"""What the registry knows of a built-in family before importing it: its name, its package, and which
files it may claim.

A family's module imports its parsers, search views and numpy code; a command that reads one file
needs one family. So each built-in package's ``__init__`` holds a ``FamilySpec`` (cheap to import),
and ``registry`` imports the package's ``FAMILY`` only when it is needed. ``may_claim`` is a loose,
cheap test: it must be true whenever the family's ``sniff`` gives more than 0 (it may be true more
often), so detection that skips the families it rules out picks the same family as sniffing them all
(``tests/test_registry.py`` checks both over every sample file).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

#: How much of a file the text families' ``sniff`` decodes (each reads at least this much).
TEXT_SNIFF_BYTES = 4096


@dataclass(frozen=True)
class FamilySpec:
    """A built-in family not yet imported: ``package`` holds its ``FAMILY``; ``may_claim(filename, data)``
    is False only for a file its ``sniff`` scores 0."""

    name: str
    package: str
    may_claim: Callable[[str, bytes], bool]


def suffix(filename: str) -> str:
    """The file's extension in lower case, as the families' ``sniff`` reads it ("" without one)."""
    return PurePath(filename).suffix.lower()


def may_be_text(data: bytes) -> bool:
    """Whether the first ``TEXT_SNIFF_BYTES`` could be UTF-8 text to a family that decodes them: an
    error is allowed only in the last 3 bytes (a character cut by the sample), the most lenient of
    the text families' rules, so a file this refuses is one every text family scores 0."""
    sample = data[:TEXT_SNIFF_BYTES]
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as err:
        return err.start >= len(sample) - 3
    return True


def text_with_any(data: bytes, marks: bytes) -> bool:
    """Text (``may_be_text``) whose sample holds at least one of the bytes ``marks``."""
    sample = data[:TEXT_SNIFF_BYTES]
    return may_be_text(data) and any(mark in sample for mark in marks)
