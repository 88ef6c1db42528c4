"""The puzzle families the product knows, and the one entry point that parses any file.

Everything outside a family's own package asks this registry (and the ``Family`` it returns)
instead of naming a family. A new family is one package and one line in ``_register_built_in``;
a test may ``register`` a family of its own.
"""

from __future__ import annotations

from typing import Any

from server.puzzles.errors import PuzzleError
from server.puzzles.family import Family, LoadLimits

FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Add a family (its name must be new); returns it."""
    if family.name in FAMILIES and FAMILIES[family.name] is not family:
        raise ValueError(f"a family named {family.name!r} is already registered")
    FAMILIES[family.name] = family
    return family


def unregister(name: str) -> None:
    FAMILIES.pop(name, None)


def get_family(name: str) -> Family:
    family = FAMILIES.get(name)
    if family is None:
        known = ", ".join(FAMILIES)
        message = f"the family {str(name)[:40]!r} is not supported yet; choose one of: {known}"
        raise PuzzleError(message, "family")
    return family


def family_of(puzzle: Any) -> Family:
    """The family a parsed puzzle belongs to."""
    for family in FAMILIES.values():
        if isinstance(puzzle, family.puzzle_type):
            return family
    raise TypeError(f"no registered family parses {type(puzzle).__name__} puzzles")


def detect_family(filename: str, data: bytes) -> Family:
    """The family surest that the file is its own; a file none claims is refused, saying what each reads."""
    if not data:
        raise PuzzleError("the file is empty", "file")
    scores = [(family.sniff(filename, data), family) for family in FAMILIES.values()]
    best, family = max(scores, key=lambda pair: pair[0])
    if best <= 0:
        expected = "; ".join(f"{f.title}: {f.expects}" for f in FAMILIES.values())
        raise PuzzleError(f"no puzzle family reads this file. Expected one of: {expected}", "file")
    return family


def load_puzzle(
    data: bytes,
    filename: str = "puzzle",
    family: str | None = None,
    *,
    options: dict[str, Any] | None = None,
    limits: LoadLimits | None = None,
) -> Any:
    """Parse ``data`` into a puzzle model; raises PuzzleError naming what is wrong and where.

    ``family`` forces the family (else it is detected); ``options`` are load options as JSON values
    (validated against the family's schema).
    """
    chosen = get_family(family) if family else detect_family(filename, data)
    values = chosen.load_options(options or {})
    return chosen.load(data, filename, values, limits or LoadLimits())


def _register_built_in() -> None:
    from server.puzzles.grid import FAMILY as GRID
    from server.puzzles.labyrinth import FAMILY as LABYRINTH
    from server.puzzles.sliding import FAMILY as SLIDING
    from server.puzzles.step import FAMILY as STEP
    from server.puzzles.zenji import FAMILY as ZENJI

    for family in (GRID, LABYRINTH, STEP, ZENJI, SLIDING):
        register(family)


_register_built_in()
