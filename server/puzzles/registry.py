"""The puzzle families the product knows, and the one entry point that parses any file.

Everything outside a family's own package asks this registry (and the ``Family`` it returns)
instead of naming a family. A new family is one package with a ``SPEC`` in its ``__init__`` and one
line in ``BUILT_IN``; a test may ``register`` a family of its own.

A built-in family's module is imported when it is first needed, not with this registry: a command
that reads one file pays for one family (its parsers, its search code). ``get_family(name)`` imports
one; ``detect_family`` imports only the families whose ``SPEC.may_claim`` does not rule the file out;
whatever lists every family (``FAMILIES.values()``, ``families()``, the message for a file no family
reads) imports them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from ..i18n import t
from .errors import PuzzleError
from .family import Family, LoadLimits
from .family_spec import FamilySpec
from .options import Values

#: The built-in families' packages, in the order they are listed (and sniffed: the first of equally
#: sure families wins).
BUILT_IN = tuple(
    f"{__package__}.{name}"  # under the package's installed name (``server`` here, ``mazeviz`` from a wheel)
    for name in ("grid", "labyrinth", "step", "zenji", "sliding")
)

#: A family's sniff at least this sure is its claim on a file; a lower score is a guess (the grid's text
#: rules for any .txt, a sliding board's count of numbers): when the file then does not parse, the error
#: also says what the other families read (``load_detected``).
SURE = 0.8

# name -> the family, or its spec until the family is first needed; in listing order.
_entries: dict[str, Family | FamilySpec] = {}


def _family(name: str) -> Family:
    """The family ``name`` (KeyError if there is none), its module imported on first use."""
    entry = _entries[name]
    if isinstance(entry, FamilySpec):
        family = importlib.import_module(f"{entry.package}.family").FAMILY
        if family.name != name:
            raise ImportError(f"{entry.package}.family.FAMILY is named {family.name!r}, its spec {name!r}")
        entry = _entries[name] = family
    return entry


class _Families(Mapping[str, Family]):
    """Family name -> ``Family``, each imported on first use. Names, ``in`` and ``len`` import
    nothing; values and items import every family."""

    def __getitem__(self, name: str) -> Family:
        return _family(name)

    def __iter__(self) -> Iterator[str]:
        return iter(list(_entries))  # a copy: a test may register a family meanwhile

    def __len__(self) -> int:
        return len(_entries)

    def __contains__(self, name: object) -> bool:
        return name in _entries

    def __repr__(self) -> str:
        return f"FAMILIES({', '.join(_entries)})"


FAMILIES: Mapping[str, Family] = _Families()


def families() -> list[Family]:
    """Every family, in listing order (imports them all)."""
    return list(FAMILIES.values())


def register(family: Family) -> Family:
    """Add a family (its name must be new); returns it."""
    if family.name in _entries and _family(family.name) is not family:
        raise ValueError(f"a family named {family.name!r} is already registered")
    _entries[family.name] = family
    return family


def unregister(name: str) -> None:
    _entries.pop(name, None)


def get_family(name: str) -> Family:
    if name not in _entries:
        known = ", ".join(_entries)
        message = t("core.registry.unknown_family", name=repr(str(name)[:40]), known=known)
        raise PuzzleError(message, "family")
    return _family(name)


def family_of(puzzle: Any) -> Family:
    """The family a parsed puzzle belongs to: among the families imported so far, else the one whose
    package made the puzzle's class, else any."""
    loaded = [entry for entry in list(_entries.values()) if isinstance(entry, Family)]
    for family in loaded:
        if isinstance(puzzle, family.puzzle_type):
            return family
    modules = {cls.__module__ for cls in type(puzzle).__mro__}
    makers = [name for name, entry in list(_entries.items()) if isinstance(entry, FamilySpec)
              and any(module.startswith(entry.package + ".") for module in modules)]
    for name in [*makers, *FAMILIES]:
        family = _family(name)
        if isinstance(puzzle, family.puzzle_type):
            return family
    raise TypeError(f"no registered family parses {type(puzzle).__name__} puzzles")


def detect_family(filename: str, data: bytes) -> Family:
    """The family surest that the file is its own; a file none claims is refused, saying what each reads.

    A family whose spec rules the file out scores 0 without being imported: the pick is the one of
    sniffing every family (the first of the surest)."""
    if not data:
        raise PuzzleError(t("core.registry.file_empty"), "file")
    candidates = [_family(name) for name, entry in list(_entries.items())
                  if not isinstance(entry, FamilySpec) or entry.may_claim(filename, data)]
    scores = [(family.sniff(filename, data), family) for family in candidates]
    best, family = max(scores, key=lambda pair: pair[0], default=(0.0, None))
    if best <= 0 or family is None:
        raise PuzzleError(t("core.registry.no_puzzle_family_reads_this", value=_what_each_reads()), "file")
    return family


def from_array(array: Any) -> tuple[Family, bytes] | None:
    """The family surest that a whole-number numpy array is one of its puzzles, and the array as the text
    of that family's file (``Family.from_array``; the first of equally sure families wins); None when no
    family takes it."""
    best: tuple[float, Family, bytes] | None = None
    for family in families():
        taken = family.from_array(array)
        if taken is not None and (best is None or taken[0] > best[0]):
            best = (taken[0], family, taken[1])
    return None if best is None else (best[1], best[2])


def load_detected(family: Family, data: bytes, filename: str, options: Values, limits: LoadLimits) -> Any:
    """``family.load`` for the family ``detect_family`` picked. When its pick was a guess (a sniff under
    ``SURE``) and the file does not parse, the error says what the family found wrong and then what the
    other families read: the file may be another's, written with a slip."""
    try:
        return family.load(data, filename, options, limits)
    except PuzzleError as err:
        if family.sniff(filename, data) >= SURE:
            raise
        others = _what_each_reads(but=family.name)
        message = t("core.registry.not_this_family", message=err.message.rstrip("."), kind=family.noun,
                    others=others)
        raise PuzzleError(message, err.where) from None


def _what_each_reads(but: str | None = None) -> str:
    """"Title: what it reads; …" for every family (but one)."""
    return "; ".join(f"{t(f.title)}: {t(f.expects)}" for f in families() if f.name != but)


def load_puzzle(
    data: bytes,
    filename: str = "puzzle",
    family: str | None = None,
    *,
    options: dict[str, Any] | None = None,
    limits: LoadLimits | None = None,
) -> Any:
    """Parse ``data`` into a puzzle model; raises PuzzleError naming what is wrong and where.

    ``family`` forces the family (else it is detected, and a guess that does not parse says what the
    others read: ``load_detected``); ``options`` are load options as JSON values (validated against the
    family's schema).
    """
    chosen = get_family(family) if family else detect_family(filename, data)
    values = chosen.load_options(options or {})
    if family:
        return chosen.load(data, filename, values, limits or LoadLimits())
    return load_detected(chosen, data, filename, values, limits or LoadLimits())


def _register_built_in() -> None:
    for package in BUILT_IN:
        spec: FamilySpec = importlib.import_module(package).SPEC  # the package alone: cheap
        _entries[spec.name] = spec


_register_built_in()
