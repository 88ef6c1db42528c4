"""Messages for people in the reader's language: one JSON catalog per language, read by server and page.

Every sentence the server writes for a person is ``t(key, **params)``: the template under ``key`` in the
current language's catalog (``server/i18n/<lang>/*.json`` and each family's ``i18n/<lang>.json``), its
``{name}`` placeholders filled. The
current language is a context variable: a request, a socket event, a run's threads and a grading job
each set it (``using``), so a parser deep below the web layer writes in its reader's language without
being told. The page's own strings live in ``static/i18n/<lang>/*.json`` and are rendered by
``static/js/i18n.js`` with the same placeholder rules (docs/ARCHITECTURE.md, "Languages").

Placeholders: ``{name}`` is the value as text (a float with the language's decimal mark); ``{name:n}``
a number grouped the language's way (6,617,994 / 6.617.994). A template may be an object of plural
forms ``{"one": …, "other": …}`` chosen by the parameter ``count``.
"""

from __future__ import annotations

import contextvars
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "de")
DEFAULT = "en"
HERE = Path(__file__).resolve().parent
# The page's catalogs under ``config.ASSETS`` (found as config finds it: config imports this module):
# static/ beside the package in a checkout, inside it in an installed wheel.
_PACKAGE = HERE.parent
PAGE_CATALOGS = (_PACKAGE if (_PACKAGE / "static").is_dir() else _PACKAGE.parent) / "static" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)(?::(\w))?\}")

_current: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=DEFAULT)


def catalog_files(root: Path, lang: str) -> list[Path]:
    """The files of ``lang``'s catalog under ``root``: ``<root>/<lang>/*.json``, and for the server's
    catalog each family's own ``server/puzzles/<family>/i18n/<lang>.json``, for the page's each family
    view's ``static/js/families/<family>/i18n/<lang>.json`` (a family brings its words)."""
    files = sorted((root / lang).glob("*.json"))
    if root == HERE:
        files += sorted((HERE.parent / "puzzles").glob(f"*/i18n/{lang}.json"))
    elif root == PAGE_CATALOGS:  # and each family view's own (static/js/families/<family>/i18n/)
        files += sorted((root.parent / "js" / "families").glob(f"*/i18n/{lang}.json"))
    return files


def read_catalog(root: Path, lang: str) -> dict[str, Any]:
    """Every file of ``catalog_files`` merged; a key in two files is an error (tests keep them unique)."""
    merged: dict[str, Any] = {}
    for path in catalog_files(root, lang):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            if key in merged:
                raise ValueError(f"{path}: key {key!r} is already in another file of {lang}")
            merged[key] = value
    return merged


@cache
def catalog(lang: str) -> dict[str, Any]:
    """The server's messages in ``lang`` (read once)."""
    return read_catalog(HERE, lang)


@cache
def page_catalog(lang: str) -> dict[str, Any]:
    """The page's strings in ``lang`` (served as ``/i18n/<lang>.json``)."""
    return read_catalog(PAGE_CATALOGS, lang)


def supported(lang: Any) -> str | None:
    """``lang`` as one of ``LANGUAGES`` ("de-CH" → "de"), or None."""
    if not isinstance(lang, str):
        return None
    base = lang.strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def language() -> str:
    """The language being written in now."""
    return _current.get()


def set_language(lang: Any) -> str:
    """Write in ``lang`` (when supported; else the default) from here on in this context."""
    chosen = supported(lang) or DEFAULT
    _current.set(chosen)
    return chosen


@contextmanager
def using(lang: Any) -> Iterator[str]:
    """Write in ``lang`` inside the block."""
    token = _current.set(supported(lang) or DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def best_match(accept_language: str | None) -> str | None:
    """The first supported language of an Accept-Language header, by its q-values."""
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        name, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        lang = supported(name)
        if lang and q > 0:
            choices.append((-q, i, lang))
    return min(choices)[2] if choices else None


SEPARATORS = {"en": (",", "."), "de": (".", ",")}  # (group, decimal) per language


def format_number(value: float, lang: str | None = None, *, grouped: bool = True, decimals: int = 3) -> str:
    """``value`` written the language's way: 6,617,994 / 6.617.994; 0.8 / 0,8 (at most ``decimals``)."""
    group, point = SEPARATORS.get(lang or language(), SEPARATORS[DEFAULT])
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, float) and not value.is_integer():
        text = f"{value:,.{decimals}f}".rstrip("0").rstrip(".")
    else:
        text = f"{int(value):,}"
    if not grouped:
        text = text.replace(",", "")
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def render(template: Any, params: dict[str, Any], lang: str) -> str:
    """A catalog template with its placeholders filled (plural forms chosen by ``count``)."""
    if isinstance(template, dict):
        count = params.get("count")
        template = template.get("one" if count == 1 else "other", template.get("other", ""))

    def fill(match: re.Match[str]) -> str:
        name, spec = match.group(1), match.group(2)
        if name not in params:
            return match.group(0)
        value = params[name]
        if spec == "n":
            return format_number(value, lang)
        if isinstance(value, float):
            return format_number(value, lang, grouped=False)
        return str(value)

    return PLACEHOLDER.sub(fill, str(template))


def t(key: str, **params: Any) -> str:
    """The message ``key`` in the current language (English when the language lacks it; the key
    itself when no catalog has it, which ``tests/test_i18n_catalogs.py`` forbids)."""
    lang = language()
    template = catalog(lang).get(key)
    if template is None:
        lang = DEFAULT
        template = catalog(DEFAULT).get(key, key)
    return render(template, params, lang)


def t_in(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang`` (for writing to someone other than the current reader)."""
    with using(lang):
        return t(key, **params)
