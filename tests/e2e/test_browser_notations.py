"""The course documents' own notations uploaded through the page's file picker (issue 30): seed 003's
printed maze and its notebook's list, seed 001's README section with its tables, and AIMA's 8-puzzle on
one line with '/' between rows, each cut from the seed documents at run time (``tests/notations.py``).
Each is shown under its name, read by its own family (the page's puzzle, and its notes say how), and a
run reaches the family's optimum: 15 jumps, 7 quarter turns, 26 moves. A text no family is sure of shows
in the error banner what every family reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import notations
from tests.e2e.pages import BROWSER_TEST, at_end, puzzle_id, shooter, text, upload

pytestmark = BROWSER_TEST
shot = shooter("notations")

CASES = [
    # (file name, the text, family, what the notes say it was read as, algorithm, cost)
    ("seed003-printed.txt", notations.seed003_printed, "step",
     "read as seed 003's printed list (with its index row and column)", "bfs", 15),
    ("labyrinth.py", notations.seed003_notebook, "step", "read as the Python list labyrinth = […]", "astar",
     15),
    ("karte-und-weg.md", notations.seed001_section, "zenji",
     "read as a Markdown table (its rows of tiles at lines 18-21)", "dijkstra", 7),
    ("aima-3-28.txt", lambda: notations.AIMA_WITH_GOAL, "sliding", "read as text, one line, '/' between rows",
     "astar", 26),
]


def family_of_shown(page) -> str:
    """The family of the puzzle the page shows, as the server describes it."""
    return page.evaluate("id => fetch('/api/puzzles/' + id).then(r => r.json()).then(info => info.family)",
                         puzzle_id(page))


@pytest.mark.parametrize("name, cut, family, read_as, algorithm, cost", CASES, ids=[c[0] for c in CASES])
def test_each_notation_uploads_under_its_family_and_reaches_its_optimum(
    page, tmp_path: Path, name, cut, family, read_as, algorithm, cost
) -> None:
    accepted = (page.get_attribute("[data-testid=upload]", "accept") or "").split(",")
    assert {".txt", ".md", ".py"} <= set(accepted)  # the picker offers the documents' own files
    path = notations.write(tmp_path, name, cut())
    upload(page, path)  # waits until the puzzle's name is the file's and the page is ready
    assert text(page, "puzzle-name") == path.stem
    assert family_of_shown(page) == family
    assert read_as in text(page, "notes")
    assert page.locator("[data-testid=error]").is_hidden()
    page.select_option("[data-testid=algorithm]", algorithm)
    page.click("[data-testid=preset-instant]")  # the whole trace at once
    page.click("[data-testid=run]")
    at_end(page)
    assert text(page, "cost") == str(cost)
    assert text(page, "optimal").startswith("optimal")
    shot(page, path.stem)


def test_a_text_no_family_is_sure_of_says_what_each_family_reads(page, console, tmp_path: Path) -> None:
    console.allow("status of 400")  # the refused upload's answer
    path = notations.write(tmp_path, "notes.txt", "Labyrinth aus der Vorlesung\n")
    page.set_input_files("[data-testid=upload]", str(path))
    banner = page.locator("[data-testid=error]")
    banner.wait_for(state="visible")
    message = banner.text_content() or ""
    assert "notes.txt, line 1, column 1: unknown character 'L'" in message, message
    assert "Not a grid maze? The others read: " in message
    for words in ("seed 003's Python list", "seed 001's Markdown table", "7 2 4 / 5 0 6 / 8 3 1"):
        assert words in message
    box = banner.bounding_box()
    assert box is not None and box["height"] < 0.5 * page.viewport_size["height"]  # readable, not a wall
    shot(page, "no-family-is-sure")
