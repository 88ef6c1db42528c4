"""The page blueprint: the single-page app."""

from __future__ import annotations

from flask import Blueprint, render_template

pages = Blueprint("pages", __name__)


@pages.get("/")
def index() -> str:
    return render_template("index.html")
