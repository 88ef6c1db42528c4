"""Grid mazes: images and text files; model, parsers, search view, compiled kernels, generator, renderer.

Importing the package is cheap: ``SPEC`` tells the registry which files the family may claim, and
its ``FAMILY`` (in ``family.py``, its parsers and search code) is imported on first use.
"""

from ..family_spec import FamilySpec, suffix
from .formats import IMAGE_EXTENSIONS, IMAGE_MAGIC, PNM_MAGIC, SNIFF_BYTES, TEXT_EXTENSIONS


def may_claim(filename: str, data: bytes) -> bool:
    """An image by its magic or name, a text maze by its name or a '#' (``GridFamily.sniff``)."""
    return (data.startswith(IMAGE_MAGIC) or data[:2] in PNM_MAGIC
            or suffix(filename) in IMAGE_EXTENSIONS + TEXT_EXTENSIONS or b"#" in data[:SNIFF_BYTES])


SPEC = FamilySpec("grid", __name__, may_claim)

__all__ = ["SPEC"]
