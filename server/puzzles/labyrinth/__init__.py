"""The shifting-tile labyrinth: model, parsers, search views, seed 000's method, result in words.

Importing the package is cheap: ``SPEC`` tells the registry which files the family may claim, and
its ``FAMILY`` (in ``family.py``) is imported on first use.
"""

from ..family_spec import FamilySpec, may_be_text, suffix, text_with_any


def may_claim(filename: str, data: bytes) -> bool:
    """Text named .csv or .json, or holding a '{' (JSON) or a CSV separator (``LabyrinthFamily.sniff``)."""
    return may_be_text(data) and (suffix(filename) in (".csv", ".json") or text_with_any(data, b"{,;"))


SPEC = FamilySpec("labyrinth", __name__, may_claim)

__all__ = ["SPEC"]
