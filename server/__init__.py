"""The maze-search visualizer (``mazeviz`` when installed): ``create_app`` builds the Flask app with its
Socket.IO layer; ``show``, ``compare``, ``solve``, ``load`` and ``example`` are the notebook's API
(``server/notebook/``: ``import mazeviz; mazeviz.show("maze.png", algorithm="bfs")``).

Everything is imported on first use: the CLI's ``solve`` does not pay for Flask, and ``import mazeviz``
imports neither Flask nor anywidget nor IPython.
"""

from __future__ import annotations

from typing import Any

APP = ("create_app", "socketio")
NOTEBOOK = ("show", "compare", "solve", "load", "example", "Puzzle", "Result")
__all__ = [*APP, *NOTEBOOK]


def __getattr__(name: str) -> Any:
    if name in APP:
        from . import app

        return getattr(app, name)
    if name in NOTEBOOK:
        from .notebook import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
