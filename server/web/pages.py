"""The page blueprint: the single-page app."""

from __future__ import annotations

from flask import Blueprint, render_template

from server.clients import client_id

pages = Blueprint("pages", __name__)


@pages.get("/")
def index() -> str:
    client_id()  # the browser gets its client id (a session cookie) with the page
    return render_template("index.html")
