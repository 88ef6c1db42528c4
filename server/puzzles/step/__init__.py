"""Step-cycle ("1-2-3") mazes (seed 003): moves of 1, 2, 3, 1, … cells in a straight line.

Importing the package is cheap: ``SPEC`` tells the registry which files the family may claim, and
its ``FAMILY`` (in ``family.py``) is imported on first use.
"""

from ..family_spec import FamilySpec, text_with_any


def may_claim(filename: str, data: bytes) -> bool:
    """Text holding a '{' (JSON) or the marks 'X' or 'Z' (``StepFamily.sniff``)."""
    return text_with_any(data, b"{XZ")


SPEC = FamilySpec("step", __name__, may_claim)

__all__ = ["SPEC"]
