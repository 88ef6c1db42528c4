"""docs/ARCHITECTURE.md matches the tree: every file it names exists where it says, and every folder
of the code is covered.

How the page names files: a path from the project's root (``server/puzzles/family.py``), or a name
relative to a folder named earlier in the same table row or paragraph (``server/web/`` … ``api.py``;
``grid/tiles.py`` after ``server/puzzles/``). A name that resolves nowhere fails, and so does a name
that exists only somewhere the text does not point to.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
CODE = re.compile(r"`([^`\s]+)`")
FILE = re.compile(r"^[\w./-]+\.(py|js|md|html|css|json|sh|toml|txt)$")
# Every folder below these must be named (a file in it, or the folder itself).
COVERED = ("server", "static/js", "static/css", "templates", "scripts", "tests", "docs", "mazes")


def blocks(text: str) -> list[str]:
    """Table rows and paragraphs: the units within which a named folder is the base of bare names."""
    out: list[str] = []
    for part in re.split(r"\n\s*\n", text):
        rows = [line for line in part.splitlines() if line.startswith("|")]
        prose = "\n".join(line for line in part.splitlines() if not line.startswith("|"))
        out.extend([*rows, prose])
    return out


def resolve(token: str, bases: list[Path]) -> Path | None:
    """Where ``token`` is: from the root, or below a base (a bare name only in a base itself; a name
    with a folder, like ``grid/tiles.py`` or ``explain/``, also below a base's parent)."""
    if "/" in token:  # a folder ("explain/") or a path in one ("grid/tiles.py")
        bases = bases + [base.parent for base in bases]
    for base in [ROOT, *reversed(bases)]:  # the folder named last first
        if (base / token).exists():
            return base / token
    return None


def places(block: str) -> list[tuple[str, Path | None]]:
    """Each file or folder ``block`` names, in order, with where it resolves (None: nowhere). A folder
    named (``server/web/``, then ``web/``) or a file's folder becomes a base for the names after it."""
    bases: list[Path] = []
    out = []
    for token in (t.rstrip(".,;:") for t in CODE.findall(block)):
        if "<" in token or not (FILE.match(token) or token.endswith("/")):
            continue  # a placeholder (``<name>``) or not a path
        found = resolve(token, bases)
        out.append((token, found))
        if found is not None:
            bases.append(found if found.is_dir() else found.parent)
    return out


def test_every_file_the_page_names_exists_where_it_says() -> None:
    text = DOC.read_text(encoding="utf-8")
    missing = [token for block in blocks(text) for token, found in places(block) if found is None]
    assert not missing, f"ARCHITECTURE.md names files that are not where it says: {sorted(set(missing))}"


def test_every_folder_of_the_code_is_covered() -> None:
    text = DOC.read_text(encoding="utf-8")
    mentioned = set()
    for block in blocks(text):
        for _, found in places(block):
            if found is not None:
                mentioned.add(found if found.is_dir() else found.parent)
    uncovered = []
    for top in COVERED:
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]:
            if not folder.is_dir() or "__pycache__" in folder.parts or "vendor" in folder.parts:
                continue
            if folder.name.startswith(".") or "node_modules" in folder.parts:
                continue
            if folder not in mentioned:
                uncovered.append(str(folder.relative_to(ROOT)))
    assert not uncovered, f"ARCHITECTURE.md says nothing of these folders: {uncovered}"
