"""Editing the step, Zenji and labyrinth boards in a real Chromium (issue 12): each view's Edit toggle,
a click on the board sent as one edit operation, the new puzzle checked through the API (the board
changed exactly as the operation says) and the run on the board re-solved at once. One screenshot per
family goes to test-artifacts/."""

from __future__ import annotations

import json
import urllib.request

from server.puzzles.labyrinth.model import rotate
from tests.e2e.pages import (
    BROWSER_TEST,
    CANVAS,
    at_end,
    canvas_data,
    choose_gallery,
    next_frame,
    puzzle_id,
    resolved_count,
    shooter,
    status_is,
)

pytestmark = BROWSER_TEST

shot = shooter("edit")


def api_puzzle(server_url: str, pid: str) -> dict:
    with urllib.request.urlopen(f"{server_url}/api/puzzles/{pid}") as answer:
        return json.load(answer)


def run_to_end(page) -> None:
    page.click("[data-testid=preset-instant]")  # the whole trace at once
    page.click("[data-testid=run]")
    at_end(page)


def edit_on(page) -> None:
    page.click("[data-testid=edit-board]")
    assert page.get_attribute("[data-testid=edit-board]", "aria-pressed") == "true"
    assert page.text_content("[data-testid=edit-hint]").startswith("Editing: a click")


def click_and_wait(page, x: float, y: float, modifiers: list[str] | None = None) -> str:
    """Click the canvas at (x, y) CSS px from its corner; wait for the new puzzle and its re-solve."""
    old, before = puzzle_id(page), resolved_count(page)
    page.locator(CANVAS).click(position={"x": x, "y": y}, modifiers=modifiers or [])
    page.wait_for_function(
        "old => document.body.dataset.edits === 'idle' && document.body.dataset.puzzleId !== old", arg=old
    )
    page.wait_for_function("n => Number(document.body.dataset.resolved || 0) > n", arg=before)
    status_is(page, "done")
    next_frame(page)
    new = puzzle_id(page)
    assert new != old
    # Still editing after the reload (the tool is kept), the edited board named so.
    assert page.get_attribute("[data-testid=edit-board]", "aria-pressed") == "true"
    assert page.text_content("[data-testid=puzzle-name]").endswith("(edited)")
    return new


def history_and_wait(page, which: str = "undo") -> str:
    """Press Undo (or Redo); wait for the puzzle it makes and its re-solve."""
    old, before = puzzle_id(page), resolved_count(page)
    page.click(f"[data-testid={which}]")
    page.wait_for_function(
        "old => document.body.dataset.edits === 'idle' && document.body.dataset.puzzleId !== old", arg=old
    )
    page.wait_for_function("n => Number(document.body.dataset.resolved || 0) > n", arg=before)
    status_is(page, "done")
    return puzzle_id(page)


def test_step_click_marks_a_cell_and_sets_the_goal(page, server_url):
    choose_gallery(page, "step-seed-003")
    run_to_end(page)
    before = api_puzzle(server_url, puzzle_id(page))
    assert before["marks"][2][1] == "."
    edit_on(page)
    assert page.get_attribute("[data-testid=step-tool-mark]", "aria-pressed") == "true"

    def cell_xy(r: int, c: int) -> tuple[float, float]:
        d = canvas_data(page)
        mx, my = (float(v) for v in d["main"].split(","))
        unit = float(d["unit"])
        return mx + (c + 0.5) * unit, my + (r + 0.5) * unit

    # Mark: the blank cell (2, 1) becomes marked, nothing else changes.
    pid = click_and_wait(page, *cell_xy(2, 1))
    after = api_puzzle(server_url, pid)
    expected = [list(row) for row in before["marks"]]
    expected[2][1] = "X"
    assert after["marks"] == ["".join(row) for row in expected]
    assert after["start"] == before["start"] and after["goals"] == before["goals"]

    # Goal: the same cell becomes the one goal; the old goal stays a marked cell.
    page.click("[data-testid=step-tool-goal]")
    assert page.text_content("[data-testid=edit-hint]") == "Editing: a click on a cell puts the goal there."
    pid = click_and_wait(page, *cell_xy(2, 1))
    moved = api_puzzle(server_url, pid)
    assert moved["goals"] == [[2, 1]] and moved["start"] == before["start"]
    assert moved["marks"][5][5] == "X" and moved["marks"][2][1] == "Z"
    assert page.get_attribute("[data-testid=step-tool-goal]", "aria-pressed") == "true"
    shot(page, "step")

    # Undo twice: the goal back in its corner, the cell blank again — the board as loaded.
    history_and_wait(page)
    back = api_puzzle(server_url, history_and_wait(page))
    for key in ("marks", "start", "goals"):
        assert back[key] == before[key], key
    assert page.is_disabled("[data-testid=undo]")
    redone = api_puzzle(server_url, history_and_wait(page, "redo"))
    assert redone["marks"] == after["marks"]


def test_zenji_click_turns_a_tile_and_shift_click_turns_it_back(page, server_url):
    choose_gallery(page, "zenji-seed-001")
    run_to_end(page)
    before = api_puzzle(server_url, puzzle_id(page))
    edit_on(page)

    def tile_xy(r: int, c: int) -> tuple[float, float]:
        d = canvas_data(page)
        unit = float(d["unit"])
        return float(d["bx"]) + (c + 0.5) * unit, float(d["by"]) + (r + 0.5) * unit

    sides = before["tiles"][1][1]
    assert sides == [0, 0, 1, 2]
    pid = click_and_wait(page, *tile_xy(1, 1))
    after = api_puzzle(server_url, pid)
    expected = [[list(t) for t in row] for row in before["tiles"]]
    expected[1][1] = sides[-1:] + sides[:-1]  # a quarter turn clockwise: west's side comes to north
    assert after["tiles"] == expected

    pid = click_and_wait(page, *tile_xy(1, 1), modifiers=["Shift"])
    assert api_puzzle(server_url, pid)["tiles"] == before["tiles"]
    shot(page, "zenji")
    # Undo takes the counter-clockwise turn back; Ctrl+Z the clockwise one.
    assert api_puzzle(server_url, history_and_wait(page))["tiles"] == expected
    old = puzzle_id(page)
    page.locator("#board").focus()
    page.keyboard.press("Control+z")
    page.wait_for_function("old => document.body.dataset.puzzleId !== old", arg=old)
    page.wait_for_function("() => document.body.dataset.edits === 'idle'")
    assert api_puzzle(server_url, puzzle_id(page))["tiles"] == before["tiles"]

    # Set tile: the sides typed put on tile (1, 0); a bad entry is refused in the page, in words.
    page.fill("[data-testid=tile-sides]", "1020")
    assert page.get_attribute("[data-testid=zenji-tool-set]", "aria-pressed") == "true"
    pid = click_and_wait(page, *tile_xy(1, 0))
    assert api_puzzle(server_url, pid)["tiles"][1][0] == [1, 0, 2, 0]
    assert api_puzzle(server_url, history_and_wait(page))["tiles"] == before["tiles"]
    page.fill("[data-testid=tile-sides]", "12")
    page.locator(CANVAS).click(position=dict(zip(("x", "y"), tile_xy(1, 0), strict=True)))
    assert "four side codes" in page.text_content("[data-testid=error]")


def test_labyrinth_click_turns_a_board_tile_and_the_free_tile(page, server_url):
    choose_gallery(page, "labyrinth-course-5x5")
    run_to_end(page)
    before = api_puzzle(server_url, puzzle_id(page))
    edit_on(page)
    d = canvas_data(page)
    unit, bx, by = float(d["unit"]), float(d["bx"]), float(d["by"])

    pid = click_and_wait(page, bx + 2.5 * unit, by + 1.5 * unit)  # the tile at row 1, column 2
    after = api_puzzle(server_url, pid)
    expected = [list(row) for row in before["board"]]
    expected[1][2] = rotate(before["board"][1][2], 1)
    assert expected[1][2] != before["board"][1][2]
    assert after["board"] == expected and after["free_tile"] == before["free_tile"]

    d = canvas_data(page)
    unit = float(d["unit"])
    pid = click_and_wait(page, float(d["freeX"]) + unit / 2, float(d["freeY"]) + unit / 2)
    turned = api_puzzle(server_url, pid)
    assert turned["free_tile"] == rotate(before["free_tile"], 1)
    assert turned["board"] == expected
    shot(page, "labyrinth")

    # Set tile: the chosen code put down at row 0, column 0; Undo takes it back.
    code = (before["board"][0][0] + 5) % 10
    page.select_option("[data-testid=tile-code]", str(code))
    assert page.get_attribute("[data-testid=labyrinth-tool-set]", "aria-pressed") == "true"
    d = canvas_data(page)
    unit, bx, by = float(d["unit"]), float(d["bx"]), float(d["by"])
    pid = click_and_wait(page, bx + 0.5 * unit, by + 0.5 * unit)
    assert api_puzzle(server_url, pid)["board"][0][0] == code
    assert api_puzzle(server_url, history_and_wait(page))["board"] == expected


def test_a_tap_turns_a_zenji_tile_on_a_touch_screen(browser, server_url):
    """Touch arrives as pointer events too: a tap with Edit on turns the tile (no run on the board)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, has_touch=True, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server_url)
        status_is(page, "ready")
        choose_gallery(page, "zenji-seed-001")
        before = api_puzzle(server_url, puzzle_id(page))
        page.tap("[data-testid=edit-board]")
        assert page.get_attribute("[data-testid=edit-board]", "aria-pressed") == "true"
        d = canvas_data(page)
        box = page.locator(CANVAS).bounding_box()
        unit = float(d["unit"])
        old = puzzle_id(page)
        page.touchscreen.tap(box["x"] + float(d["bx"]) + 2.5 * unit, box["y"] + float(d["by"]) + 0.5 * unit)
        page.wait_for_function(
            "old => document.body.dataset.edits === 'idle' && document.body.dataset.puzzleId !== old", arg=old
        )
        after = api_puzzle(server_url, puzzle_id(page))
        sides = before["tiles"][0][2]
        assert after["tiles"][0][2] == sides[-1:] + sides[:-1]
    finally:
        context.close()
