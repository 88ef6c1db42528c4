"""The maze-search visualizer's server: ``create_app`` builds the Flask app with its Socket.IO layer.

The web stack is imported on first use, so that the CLI's ``solve`` does not pay for Flask.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "socketio"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module 'server' has no attribute {name!r}")
