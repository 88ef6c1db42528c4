"""Zenji (seed 001): rotating pipe tiles, water from the source to the drain for the fewest turns.

Importing the package is cheap: ``SPEC`` tells the registry which files the family may claim, and
its ``FAMILY`` (in ``family.py``) is imported on first use.
"""

from ..family_spec import FamilySpec, text_with_any


def may_claim(filename: str, data: bytes) -> bool:
    """Text holding a '{' (JSON), a digit (a tile's side codes) or a '|' (a Markdown table's; its board may
    lie beyond the sample: ``ZenjiFamily.sniff``)."""
    return text_with_any(data, b"{0123456789|")


SPEC = FamilySpec("zenji", __name__, may_claim)

__all__ = ["SPEC"]
