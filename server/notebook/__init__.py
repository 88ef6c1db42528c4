"""The notebook's API (``import mazeviz``): ``load``, ``solve``, ``show``, ``compare`` (``api.py``).

Imported on first use: ``import mazeviz`` (this package's parent) imports neither anywidget nor
IPython nor Flask; ``show`` and ``compare`` bring the widget and the kernel's in-process server
(``bridge.py``), ``load`` and ``solve`` neither.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Puzzle", "Result", "compare", "load", "show", "solve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
