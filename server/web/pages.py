"""The page blueprint: the single-page app."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..clients import client_id

pages = Blueprint("pages", __name__)


@pages.get("/")
def index() -> str:
    # The browser gets its client id (a session cookie) with the page, so that its first API calls
    # and its socket are its own client, not its address's (``clients.client_id``).
    client_id()
    return render_template("index.html")
