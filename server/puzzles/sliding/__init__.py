"""Sliding-tile puzzles (issue 20): the 8-, 15- and 24-puzzle (docs/SLIDING.md).

Importing the package is cheap: ``SPEC`` tells the registry which files the family may claim, and
its ``FAMILY`` (in ``family.py``) is imported on first use.
"""

from ..family_spec import FamilySpec, text_with_any


def may_claim(filename: str, data: bytes) -> bool:
    """Text holding a '{' (JSON) or a digit (a board's numbers; ``SlidingFamily.sniff``)."""
    return text_with_any(data, b"{0123456789")


SPEC = FamilySpec("sliding", __name__, may_claim)

__all__ = ["SPEC"]
