"""The comparison view in a real headless Chromium: 2–4 algorithms side by side on one puzzle.

Grid (maze3: BFS, A*, DFS), labyrinth (Puzzle_6: BFS, A*, seed 000's greedy method, checked against
``run.py compare --json`` run here), the CSV and JSON downloads against the table, and a Zenji board
and a step maze. The shared timeline is moved away and back: every panel's canvas is the same, pixel
for pixel. Screenshots mid-comparison and at the end, at 1366 × 768 and 1920 × 1080, go to
test-artifacts/compare-*.png.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

from server.comparing import COLUMNS
from tests.e2e.pages import (
    BROWSER_TEST,
    MAZE3,
    PUZZLE6,
    ROOT,
    case,
    choose_gallery,
    next_frame,
    shooter,
    status_is,
    upload,
)
from tests.helpers import venv_python

pytestmark = BROWSER_TEST

shot = shooter("compare")
PANEL = "[data-testid=compare-panel]"

# Each row of the table, from its cells' data attributes (the raw values, not the formatted text).
TABLE_ROWS = """() => [...document.querySelectorAll('[data-testid=compare-table] [data-testid=compare-row]')]
.map(tr => {
  const row = {};
  for (const td of tr.querySelectorAll('[data-col]')) row[td.dataset.col] = td.dataset.value;
  row.options = tr.querySelector('[data-col=algorithm]').dataset.options;
  return row;
})"""
# Every panel's canvas as a PNG data URL: two equal strings are the same pixels.
CANVASES = "() => [...document.querySelectorAll('[data-testid=panel-canvas]')].map(c => c.toDataURL())"


def open_compare(page) -> None:
    page.click("[data-testid=compare]")
    page.locator("[data-testid=compare-view]").wait_for(state="visible")
    assert page.locator("[data-testid=run]").count() == 1  # the single view lends its test id
    assert page.locator("[data-testid=status]").count() == 1


def choose(page, algorithms: list[str]) -> None:
    """As many panels as algorithms, each set to its algorithm, in order."""
    panels = page.locator(PANEL)
    while panels.count() < len(algorithms):
        page.click("[data-testid=compare-add]")
    while panels.count() > len(algorithms):
        panels.last.locator("[data-testid=compare-remove]").click()
    for i, name in enumerate(algorithms):
        panels.nth(i).locator("[data-testid=panel-algorithm]").select_option(name)


def run_to_end(page) -> None:
    """Run every panel, wait until every trace is in, then jump the timeline to its end (End key)."""
    page.click("[data-testid=run]")
    status_is(page, "done")
    page.keyboard.press("End")
    page.locator("[data-testid=compare-table]").wait_for(state="visible")
    next_frame(page)


def rows(page) -> list[dict]:
    return page.evaluate(TABLE_ROWS)


def step_shown(page) -> tuple[int, int]:
    text = page.text_content("[data-testid=compare-position]").replace(",", "")
    at, of = text.removeprefix("step ").split(" / ")
    return int(at), int(of)


def seek(page, k: int) -> None:
    """Set the shared timeline (the range input) and wait until every panel has drawn step k."""
    page.fill("[data-testid=timeline]", str(k))
    page.wait_for_function("k => document.querySelector('[data-testid=compare-position]').textContent"
                           ".replace(/,/g, '').startsWith(`step ${k} /`)", arg=k)
    next_frame(page)
    next_frame(page)


def cli_compare(path: Path, algorithms: str, *flags: str) -> list[dict]:
    """``run.py compare … --json``: the oracle the page's table is compared with."""
    done = subprocess.run(
        [venv_python(), "run.py", "compare", str(path), "--algorithms", algorithms, *flags, "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )
    return json.loads(done.stdout)


def test_grid_bfs_astar_dfs_side_by_side_with_one_timeline(page):
    maze3 = case(MAZE3)
    open_compare(page)
    upload(page, maze3)  # the page's file picker works in the comparison view
    choose(page, ["bfs", "astar", "dfs"])
    panels = page.locator(PANEL)
    boxes = [panels.nth(i).locator("[data-testid=panel-canvas]").bounding_box() for i in range(3)]
    assert all(b["width"] > 100 and b["height"] > 100 for b in boxes), boxes
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"] and len({round(b["y"]) for b in boxes}) == 1, boxes
    # The algorithm menus offer the CLI's names of the grid's algorithms only.
    options = panels.first.locator("[data-testid=panel-algorithm] option")
    offered = options.evaluate_all("os => os.map(o => o.value)")
    grid_menu = ["bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional",
                 "jps", "wall_left", "wall_right"]
    assert offered == grid_menu, offered
    assert panels.nth(1).locator("[data-testid=panel-option-heuristic]").is_visible()
    assert not panels.nth(0).locator("[data-testid=panel-option-heuristic]").is_visible()

    run_to_end(page)
    table = rows(page)
    assert [r["algorithm"] for r in table] == ["bfs", "astar", "dfs"]
    assert [r["cost"] for r in table[:2]] == ["52", "52"]
    assert [r["optimal_achieved"] for r in table[:2]] == ["true", "true"]
    dfs_cost = float(table[2]["cost"])
    assert dfs_cost >= 52
    assert table[2]["optimal_guaranteed"] == "false"
    assert table[2]["optimal_achieved"] == ("false" if dfs_cost > 52 else "true")
    assert int(table[1]["expanded"]) < int(table[0]["expanded"])  # A* expands fewer than BFS here
    # Every panel is at its end: a badge says where its search finished; the longest one sets the end.
    expanded = [int(r["expanded"]) for r in table]
    badges = page.locator(f"{PANEL} [data-testid=panel-badge]").all_text_contents()
    assert badges == [f"Finished at step {n}" for n in expanded], badges
    assert step_shown(page) == (max(expanded), max(expanded))
    assert "not optimal" in panels.nth(2).locator("[data-testid=panel-result]").text_content()
    shot(page, "grid-end-1366")

    # The shared timeline: each panel at its k-th expansion; DFS, done at 165, stays at its end.
    k = 200
    seek(page, k)
    assert not page.locator("[data-testid=compare-table]").is_visible()  # the table waits for the end
    figures = page.locator(f"{PANEL} [data-testid=panel-expanded]").all_text_contents()
    assert [int(f.replace(",", "")) for f in figures] == [min(k, n) for n in expanded], figures
    badge = panels.nth(2).locator("[data-testid=panel-badge]").text_content()
    assert badge == f"Finished at step {expanded[2]}"
    assert not panels.nth(0).locator("[data-testid=panel-badge]").is_visible()
    before = page.evaluate(CANVASES)
    shot(page, "grid-mid-1366")
    seek(page, 37)  # away (backwards: each panel replays its trace) …
    assert page.evaluate(CANVASES) != before
    seek(page, 310)  # … past the point …
    seek(page, k)  # … and back
    assert page.evaluate(CANVASES) == before

    # The single view's keys drive the shared timeline.
    page.locator("[data-testid=compare-leave]").focus()
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert step_shown(page)[0] == k + 9
    page.keyboard.press("Home")
    assert step_shown(page)[0] == 0
    page.keyboard.press("End")
    page.locator("[data-testid=compare-table]").wait_for(state="visible")

    # Projector sizes: the same comparison at 1920 × 1080.
    page.set_viewport_size({"width": 1920, "height": 1080})
    next_frame(page)
    shot(page, "grid-end-1920")
    seek(page, k)
    shot(page, "grid-mid-1920")

    # Back to the single view: the same puzzle, its own Run button and status again.
    page.click("[data-testid=compare-leave]")
    assert page.locator("[data-testid=canvas]").is_visible()
    assert page.text_content("[data-testid=puzzle-name]") == "maze3"
    assert page.locator("[data-testid=run]").count() == 1 and page.locator("[data-testid=run]").is_visible()
    assert page.locator("[data-testid=upload]").count() == 1
    assert page.locator(PANEL).count() == 0 and page.locator("[data-testid=compare-chart]").count() == 0
    status_is(page, "ready")
    page.click("[data-testid=run]")  # the single view runs as before
    status_is(page, "done")


def test_labyrinth_puzzle6_against_the_cli(page):
    puzzle6 = case(PUZZLE6)
    page.set_viewport_size({"width": 1920, "height": 1080})
    open_compare(page)
    upload(page, puzzle6)
    # The rules of the puzzle are set once, for every panel.
    page.fill("[data-testid=compare-option-start_col]", "1")
    page.fill("[data-testid=compare-option-goal_col]", "2")
    page.select_option("[data-testid=compare-option-moves]", "combined")
    assert page.locator(f"{PANEL} [data-testid=panel-option-moves]").count() == 0
    choose(page, ["bfs", "astar", "seed-greedy"])
    page.click("[data-testid=run]")
    status_is(page, "done")
    seek(page, 5)
    shot(page, "labyrinth-mid-1920")
    page.click("[data-testid=compare-last]")
    page.locator("[data-testid=compare-table]").wait_for(state="visible")
    shot(page, "labyrinth-end-1920")

    table = rows(page)
    flags = ("--start-col", "1", "--goal-col", "2", "--moves", "combined")
    oracle = cli_compare(puzzle6, "bfs,astar,seed-greedy", *flags)
    names = ["bfs", "astar", "seed-greedy"]
    assert [r["algorithm"] for r in table] == [o["algorithm"] for o in oracle] == names
    assert [r["cost"] for r in table[:2]] == ["3", "3"]
    for row, expected in zip(table, oracle, strict=True):
        for column in ("cost", "moves", "expanded", "generated", "max_frontier"):
            assert float(row[column]) == float(expected[column]), (row["algorithm"], column, row, expected)
        for column in ("optimal_guaranteed", "optimal_achieved"):
            assert row[column] == json.dumps(expected[column]), (row["algorithm"], column, row, expected)
    greedy = table[2]
    assert greedy["optimal_achieved"] == ("false" if float(greedy["cost"]) > 3 else "true")
    assert "moves=combined" in greedy["options"] and "start_col=1" in greedy["options"]

    # Each panel's solution replays move by move (its buttons after the verdict).
    astar = page.locator(PANEL).nth(1)
    assert astar.locator("[data-testid=move]").count() == 3
    astar.locator("[data-testid=replay-next]").click()
    assert astar.locator("[data-testid=replay-position]").text_content() == "1 / 3"
    shot(page, "labyrinth-replay-1920")


def test_downloads_match_the_table(page):
    maze3 = case(MAZE3)
    open_compare(page)
    upload(page, maze3)
    choose(page, ["bfs", "dfs", "astar", "greedy"])
    page.locator(PANEL).nth(2).locator("[data-testid=panel-option-weight]").fill("2")
    run_to_end(page)
    shown = rows(page)
    assert len(shown) == 4
    shot(page, "grid4-end-1366")
    page.set_viewport_size({"width": 1920, "height": 1080})
    shot(page, "grid4-end-1920")

    with page.expect_download() as info:
        page.click("[data-testid=compare-csv]")
    download = info.value
    assert download.suggested_filename == "maze3-comparison.csv"
    text = Path(download.path()).read_text()
    reader = csv.DictReader(io.StringIO(text))
    assert tuple(reader.fieldnames) == COLUMNS
    from_csv = list(reader)

    with page.expect_download() as info:
        page.click("[data-testid=compare-json]")
    from_json = json.loads(Path(info.value.path()).read_text())
    assert [tuple(obj) for obj in from_json] == [COLUMNS] * 4

    for row, line, obj in zip(shown, from_csv, from_json, strict=True):
        assert line["algorithm"] == obj["algorithm"] == row["algorithm"]
        assert line["options"] == obj["options"] == row["options"]
        for column in ("cost", "moves", "expanded", "generated", "max_frontier", "seconds"):
            assert float(line[column]) == float(obj[column]) == float(row[column]), column
        for column in ("optimal_guaranteed", "optimal_achieved"):
            assert json.dumps(obj[column]) == row[column]
            assert line[column] == {"true": "True", "false": "False"}[row[column]]  # as the CLI's CSV
        assert line["found"] == "True" and obj["found"] is True
    assert "weight=2" in from_json[2]["options"] and "diagonal=False" in from_json[2]["options"]


@pytest.mark.parametrize(("entry", "algorithms"), [
    ("zenji-seed-001", ["dijkstra", "astar"]),
    ("step-seed-003", ["bfs", "astar"]),
])
def test_zenji_and_step_compared(page, entry, algorithms):
    choose_gallery(page, entry)
    open_compare(page)
    choose(page, algorithms)
    page.click("[data-testid=compare-preset-instant]")
    run_to_end(page)
    table = rows(page)
    assert [r["algorithm"] for r in table] == algorithms
    assert table[0]["cost"] == table[1]["cost"]  # both optimal
    assert [r["optimal_achieved"] for r in table] == ["true", "true"]
    # A step back leaves the end: the table waits again.
    page.keyboard.press("ArrowLeft")
    assert not page.locator("[data-testid=compare-table]").is_visible()
    shot(page, f"{entry}-1366")
    page.click("[data-testid=compare-leave]")
    assert page.locator("[data-testid=canvas]").is_visible()
    assert page.locator("[data-testid=gallery] button.active").get_attribute("data-name") == entry
    # Back in the comparison: the same choices, ready to run again.
    open_compare(page)
    menus = page.locator(f"{PANEL} [data-testid=panel-algorithm]")
    assert menus.evaluate_all("s => s.map(e => e.value)") == algorithms
    assert not page.locator("[data-testid=compare-results]").is_visible()
    run_to_end(page)
    assert [r["cost"] for r in rows(page)] == [r["cost"] for r in table]


def test_a_refused_run_shows_its_error_in_its_panel(page, console):
    choose_gallery(page, "zenji-free-5x5")  # free flow: no bidirectional search (its backward half)
    open_compare(page)
    choose(page, ["bidirectional", "astar"])
    page.click("[data-testid=run]")
    status_is(page, "error")
    panels = page.locator(PANEL)
    assert panels.nth(0).locator("[data-testid=panel-badge]").text_content().startswith("Error: ")
    assert "Algorithm 1" in page.text_content("[data-testid=error]")
    page.click("[data-testid=compare-last]")
    assert "Finished at step" in panels.nth(1).locator("[data-testid=panel-badge]").text_content()
    assert not page.locator("[data-testid=compare-table]").is_visible()  # not every search finished


def test_stop_cancels_every_panel_and_the_status_line_says_so(page, maze3):
    """Stop: each panel's Stage says "cancelled"; the status line and every panel's badge show it."""
    upload(page, maze3)
    open_compare(page)
    choose(page, ["bfs", "astar"])
    # Run and Stop in one task: every search is stopped while it is still starting.
    page.evaluate("() => { document.querySelector('[data-testid=run]').click();"
                  " document.querySelector('[data-testid=compare-stop]').click(); }")
    assert page.text_content("[data-testid=status]") == "cancelled"
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=panel-badge]')]"
        ".every(b => !b.hidden && b.textContent === 'Stopped at step 0')"
    )
    assert page.locator("[data-testid=compare-stop]").is_hidden()
    run_to_end(page)  # and Run all works again
