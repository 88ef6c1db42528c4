"""The reader's language for each request, and the page's catalogs.

A request is answered in the language its ``?lang=`` names, else its ``lang`` cookie (the page's
language menu sets it), else the browser's Accept-Language, else English (``server/i18n``).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from flask import Blueprint, Flask, Response, abort, request

from ..i18n import DEFAULT, LANGUAGES, best_match, page_catalog, render, set_language, supported, t
from ..i18n import language as current_language

language = Blueprint("language", __name__)
COOKIE = "lang"


def request_language() -> str:
    """The language this request should be answered in."""
    return (
        supported(request.args.get("lang"))
        or supported(request.cookies.get(COOKIE))
        or best_match(request.headers.get("Accept-Language"))
        or DEFAULT
    )


def environ_language(environ: dict) -> str:
    """The language of a socket's handshake (its cookie, else its Accept-Language)."""
    cookies = environ.get("HTTP_COOKIE", "")
    for part in cookies.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and supported(value):
            return supported(value) or DEFAULT
    return best_match(environ.get("HTTP_ACCEPT_LANGUAGE")) or DEFAULT


@cache
def page_strings_body(lang: str) -> tuple[str, str]:
    """The page's catalog in ``lang`` as JSON, and its tag (made once: the catalogs do not change)."""
    body = json.dumps(page_catalog(lang), ensure_ascii=False, sort_keys=True)
    return body, hashlib.sha256(body.encode()).hexdigest()[:16]


@language.get("/i18n/<lang>.json")
def page_strings(lang: str) -> Response:
    """The page's catalog in ``lang`` (``static/i18n/<lang>/*.json`` merged), cached by its hash."""
    if lang not in LANGUAGES:
        abort(404, description=t("web.no_language", lang=lang[:20], languages=", ".join(LANGUAGES)))
    body, tag = page_strings_body(lang)
    if request.if_none_match.contains(tag):
        return Response(status=304)
    response = Response(body, mimetype="application/json")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def install(app: Flask) -> None:
    """Every request of ``app`` written in its reader's language; templates get ``t`` and ``lang``."""
    app.register_blueprint(language)

    @app.before_request
    def choose_language() -> None:
        set_language(request_language())

    @app.teardown_request
    def forget_language(_error: BaseException | None) -> None:
        # The thread serves others next (and a test calls the server's code directly after a request):
        # what it writes outside a request is in the default language again.
        set_language(DEFAULT)

    def page_t(key: str, **params: object) -> str:
        lang = current_language()
        table = page_catalog(lang)
        return render(table.get(key, page_catalog(DEFAULT).get(key, key)), dict(params), lang)

    app.jinja_env.globals["t"] = page_t
    app.jinja_env.globals["languages"] = LANGUAGES

    @app.context_processor
    def the_language() -> dict[str, str]:
        return {"lang": current_language()}
