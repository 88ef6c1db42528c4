"""The catalogs: both languages have every key with the same placeholders, every key the code asks for
exists, the server writes no sentence for people without a catalog, and the templates hold no words of
their own (the page's code is checked by ESLint's rule scripts/eslint/ui_text.js)."""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest

from server.i18n import HERE, LANGUAGES, PAGE_CATALOGS, PLACEHOLDER, read_catalog

ROOT = Path(__file__).resolve().parent.parent
ERRORS_FOR_PEOPLE = {"PuzzleError", "TooMany", "ServerBusy", "TooBig", "Stopped"}


def placeholders(template) -> set[str]:
    texts = template.values() if isinstance(template, dict) else [template]
    return {m.group(1) for text in texts for m in PLACEHOLDER.finditer(str(text))}


@pytest.mark.parametrize("root", [HERE, PAGE_CATALOGS], ids=["server", "page"])
def test_every_language_has_every_key_with_the_same_placeholders(root: Path) -> None:
    catalogs = {lang: read_catalog(root, lang) for lang in LANGUAGES}
    keys = set().union(*catalogs.values())
    for lang, catalog in catalogs.items():
        missing = sorted(keys - set(catalog))
        assert not missing, f"{root.name}/{lang} lacks {len(missing)} keys: {missing[:20]}"
        empty = [k for k, v in catalog.items() if not v]
        assert not empty, f"{lang}: empty templates {empty[:20]}"
    for key in keys:
        wanted = {lang: placeholders(c[key]) for lang, c in catalogs.items()}
        assert len({frozenset(p) for p in wanted.values()}) == 1, f"{key}: placeholders differ {wanted}"


def server_keys_used() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    for path in sorted((ROOT / "server").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            called = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id
            if called in {"t", "t_in"} and node.args:
                key = node.args[0] if node.func.id == "t" else node.args[1] if len(node.args) > 1 else None
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    used.setdefault(key.value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return used


def test_every_key_the_server_asks_for_exists() -> None:
    catalog = read_catalog(HERE, "en")
    missing = {k: v for k, v in server_keys_used().items() if k not in catalog}
    assert not missing, f"keys not in server/i18n/en: {dict(list(missing.items())[:20])}"


def test_the_server_writes_no_sentence_outside_a_catalog() -> None:
    """An error for people (PuzzleError, TooMany, …) is raised with ``t(...)`` or a value made of one,
    never a literal or an f-string."""
    found = []
    for path in sorted((ROOT / "server").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ERRORS_FOR_PEOPLE and node.args):
                first = node.args[0]
                literal = isinstance(first, ast.Constant) and isinstance(first.value, str) \
                    and re.search(r"[A-Za-z]{2,}", first.value)
                if isinstance(first, ast.JoinedStr) or literal:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"{len(found)} errors written without the catalog: {found[:30]}"


JS_KEY = re.compile(
    r"""(?:\bt\(|\bsetText\([^,()]+,\s*|\bsetAttr\([^,()]+,\s*[^,()]+,\s*|\bt:\s*|data-i18n=)["'`]([\w.-]+)["'`]""")
TEMPLATE_KEY = re.compile(r"""\bt\(\s*['"]([\w.-]+)['"]""")


def page_keys_used() -> dict[str, list[str]]:
    used: dict[str, list[str]] = {}
    files = [*(ROOT / "static" / "js").rglob("*.js"), *(ROOT / "templates").glob("*.html")]
    for path in sorted(files):
        text = path.read_text(encoding="utf-8")
        for pattern in (JS_KEY, TEMPLATE_KEY):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                used.setdefault(match.group(1), []).append(f"{path.relative_to(ROOT)}:{line}")
    return used


def test_every_key_the_page_asks_for_exists() -> None:
    catalog = read_catalog(PAGE_CATALOGS, "en")
    missing = {k: v for k, v in page_keys_used().items() if k not in catalog}
    assert not missing, f"keys not in static/i18n/en: {dict(list(missing.items())[:20])}"


class Words(HTMLParser):
    """Text and text attributes of a template written literally (not ``{{ t(...) }}``)."""

    TEXT_ATTRS: ClassVar[set[str]] = {"title", "aria-label", "placeholder", "alt", "aria-description"}

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs) -> None:
        if tag in {"script", "style"}:
            self.skip += 1
        for name, value in attrs:
            if name in self.TEXT_ATTRS and value and self.literal(value):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag) -> None:
        if tag in {"script", "style"}:
            self.skip -= 1

    def handle_data(self, data) -> None:
        if not self.skip and self.literal(data):
            self.found.append(data.strip()[:60])

    @staticmethod
    def literal(text: str) -> bool:
        bare = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", " ", text, flags=re.S)
        return re.search(r"[A-Za-zÄÖÜäöüß]{2,}", bare) is not None


@pytest.mark.parametrize("template", sorted(p.name for p in (ROOT / "templates").glob("*.html")))
def test_templates_hold_no_words_of_their_own(template: str) -> None:
    parser = Words()
    parser.feed((ROOT / "templates" / template).read_text(encoding="utf-8"))
    assert not parser.found, f"{template}: words not from the catalog: {parser.found[:20]}"
