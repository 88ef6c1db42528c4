"""Issue 30's smaller points in a real headless Chromium, each shown failing on the code before it:
"Use as heuristic" then Run shows the run (its path and expanded cells; the lab's heat map makes way)
and the figures' h and f;
at 1366 × 768 the comparison's boards keep ~300 px after Run all (the table and chart fold below);
Undo back to the original puzzle gives back its name (and its address); a count and a cost in one
verdict are written one way ("1,234 moves read" beside "cost 1,234"). Screenshots of the comparison
at 1366 × 768 and 1920 × 1080 go to test-artifacts/layout-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.pages import (
    BROWSER_TEST,
    at_end,
    canvas_data,
    cell_point,
    check_solution,
    choose_gallery,
    judge,
    move_string,
    open_lab,
    shooter,
    solve_json,
    text,
    upload,
)
from tests.e2e.test_browser_address import wait_for_address

pytestmark = BROWSER_TEST
shot = shooter("layout")
PANEL_BOARDS = """() => [...document.querySelectorAll('[data-testid=compare-panel] canvas')]
    .map(c => { const r = c.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; })"""


def run_all_to_the_table(page, algorithms: list[str]) -> None:
    """Open the comparison with these algorithms, Run all, go to the end: the table shows."""
    page.click("[data-testid=compare]")
    page.locator("[data-testid=compare-view]").wait_for(state="visible")
    panels = page.locator("[data-testid=compare-panel]")
    while panels.count() < len(algorithms):
        page.click("[data-testid=compare-add]")
    for k, algorithm in enumerate(algorithms):
        panels.nth(k).locator("select").first.select_option(algorithm)
    page.click("[data-testid=run]")
    page.wait_for_function("() => document.querySelector('[data-testid=status]').textContent === 'done'")
    page.click("[data-testid=compare-last]")
    page.locator("[data-testid=compare-table]").wait_for(state="visible")


@pytest.mark.parametrize(("puzzle", "algorithms"), [
    ("sliding-aima-3-28", ["bfs", "astar"]),
    ("maze3", ["bfs", "astar"]),
    ("maze3", ["bfs", "astar", "dfs"]),
])
def test_comparison_boards_keep_300_px_at_1366_by_768_after_run_all(page, maze3, puzzle, algorithms):
    if puzzle == "maze3":
        upload(page, maze3)
    else:
        choose_gallery(page, puzzle)
    run_all_to_the_table(page, algorithms)
    boards = page.evaluate(PANEL_BOARDS)
    assert len(boards) == len(algorithms)
    for width, height in boards:
        assert min(width, height) >= 290, f"a board of {width} × {height} px at 1366 × 768: {boards}"
    if puzzle == "sliding-aima-3-28":
        shot(page, "compare-8-puzzle-1366")
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.locator("[data-testid=compare-table]").wait_for(state="visible")
        shot(page, "compare-8-puzzle-1920")
        # On a 1080p screen everything fits: the boards, the timeline, the table and the chart.
        assert page.evaluate("() => { const c = document.querySelector('.compare');"
                             " return c.scrollHeight <= c.clientHeight + 1; }")


def test_use_as_heuristic_then_run_shows_the_run_not_the_heat_map(page, maze3):
    upload(page, maze3)
    open_lab(page)
    judge(page, "dr + dc")
    assert canvas_data(page).get("heat"), "the verdict's heat map is on the board"
    page.click("[data-testid=lab-use]")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)
    assert text(page, "cost") == "52"
    assert not canvas_data(page).get("heat"), "the heat map hides the run's cells: it makes way for the run"
    # h and f of the state expanded at the playhead: the goal at the end (h = 0, f = g = 52), then
    # the start (h = dr + dc of the start, f = 0 + h).
    assert (text(page, "figure-h"), text(page, "figure-f")) == ("0", "52")
    page.click("[data-testid=first]")
    for _ in range(5):  # the start is expanded after a record or two (put on the frontier first)
        if text(page, "figure-g") == "0":
            break
        page.click("[data-testid=step]")
    assert text(page, "figure-g") == "0"
    h = text(page, "figure-h")
    assert h not in ("", "—") and int(h) > 0 and text(page, "figure-f") == h
    assert not page.is_visible("[data-testid=lab-panel]")
    shot(page, "use-as-heuristic-run")
    page.click("[data-testid=lab]")  # the Lab button brings the verdict and its heat map back
    page.locator("[data-testid=lab-panel]").wait_for(state="visible")
    assert canvas_data(page).get("heat")


def serpentine(path: Path, corridors: int = 24, width: int = 50) -> Path:
    """A text maze whose only way winds through `corridors` rows of `width` cells (> 1,000 moves)."""
    rows = ["#" * (width + 2)]
    for k in range(corridors):
        rows.append("#" + "." * width + "#")
        if k < corridors - 1:
            gap = width if k % 2 == 0 else 1  # the wall row's one opening, at alternate ends
            rows.append("#" * gap + "." + "#" * (width + 1 - gap))
    rows.append("#" * (width + 2))
    rows[1] = "#S" + rows[1][2:]
    last = rows[-2]
    rows[-2] = (last[:-2] + "G#") if corridors % 2 == 1 else ("#G" + last[2:])
    path.write_text("\n".join(rows) + "\n")
    return path


def test_a_count_and_a_cost_in_one_verdict_are_written_one_way(page, tmp_path):
    maze = serpentine(tmp_path / "serpentine.txt")
    cells = solve_json(maze)["path"]
    moves = len(cells) - 1
    assert moves > 1000
    upload(page, maze)
    open_lab(page, "check")
    check_solution(page, move_string(cells))
    grouped = f"{moves:,}"
    assert text(page, "check-verdict") == f"Legal, cost {grouped}; the optimum is {grouped} (optimal)."
    assert text(page, "check-details").startswith(f"{grouped} moves read")


def test_undo_back_to_the_original_gives_back_its_name_and_address(page):
    choose_gallery(page, "rooms")
    name = text(page, "puzzle-name")
    original = page.evaluate("() => document.body.dataset.puzzleId")
    page.click("[data-testid=tool-wall]")
    # A wall across the opening in column 10 (rows 2 to 9), as a user draws it.
    page.mouse.move(*cell_point(page, 2, 10))
    page.mouse.down()
    page.mouse.move(*cell_point(page, 9, 10), steps=4)
    page.mouse.up()
    page.wait_for_function("() => document.body.dataset.edits === 'idle'")
    page.wait_for_function("id => document.body.dataset.puzzleId !== id", arg=original)
    assert text(page, "puzzle-name") == f"{name} (edited)"

    page.click("[data-testid=undo]")
    page.wait_for_function("id => document.body.dataset.puzzleId === id", arg=original)
    page.wait_for_function("() => document.body.dataset.edits === 'idle'")
    assert text(page, "puzzle-name") == name  # no "(edited)": it is the gallery's puzzle again
    wait_for_address(page, gallery="rooms", puzzle=None)
