"""The maze-search visualizer's server: ``create_app`` builds the Flask app with its Socket.IO layer."""

from __future__ import annotations

from server.app import create_app, socketio

__all__ = ["create_app", "socketio"]
