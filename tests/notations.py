"""The course documents' own notations, cut from the German seed documents at run time (never copied into
the repository): seed 003's maze as printed (with its index row and column) and as its notebook's
``labyrinth = [...]``, seed 001's README with its Markdown tables, and AIMA figure 3.28's 8-puzzle on one
line with '/' between rows. The seeds are found beside the shared cases (``tests.conftest.SHARED_CASES``);
a test that needs them is skipped without them (failed in CI)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import SHARED_CASES, missing

SEEDS = SHARED_CASES.parent / "seeds"
# AIMA (3rd ed.) figure 3.28, as a textbook prints a board; its goal puts the blank first: 26 moves.
AIMA_LINE = "7 2 4 / 5 0 6 / 8 3 1"
AIMA_GOAL_LINE = "0 1 2 / 3 4 5 / 6 7 8"
AIMA_WITH_GOAL = f"{AIMA_LINE}\ngoal: {AIMA_GOAL_LINE}\n"


def seed(number: int) -> str:
    """The text of seed document ``number`` (``../shared/seeds/00N_*.txt``)."""
    found = sorted(SEEDS.glob(f"{number:03d}_*.txt")) if SEEDS.is_dir() else []
    if not found:
        missing(f"seed document {number:03d} is absent (expected {SEEDS}/{number:03d}_*.txt)")
    return found[0].read_text(encoding="utf-8")


def _cut(pattern: str, text: str, what: str) -> str:
    match = re.search(pattern, text, re.DOTALL)
    assert match, f"the seed no longer holds {what}"
    return match.group(1)


def seed003_printed() -> str:
    """Seed 003's maze as it prints it: the first ```python block (an index row above the list, each
    row's number before it)."""
    return _cut(r"```python\n(.*?)\n\s*```", seed(3), "its printed maze")


def seed003_notebook() -> str:
    """The notebook's cell ``labyrinth = [ … ]``."""
    return _cut(r"(labyrinth = \[\n.*?\n\]\n)", seed(3), "the notebook's 'labyrinth = ['")


def seed001_section() -> str:
    """Seed 001's README section "Karte und Weg" with all its tables: the coordinate example, the board,
    the one-tile figure."""
    return _cut(r"(## Karte und Weg\n.*?)\n## A\*", seed(1), "the section 'Karte und Weg'")


def seed001_board_table() -> str:
    """Only the board's table: its header, separator and the rows of '3, 2, 2, 3' cells."""
    return _cut(r"\n((?:\|[^\n]*\n){2}(?:\|[^\n]*\d, \d, \d, \d[^\n]*\n)+)", seed(1), "the board's table")


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path
