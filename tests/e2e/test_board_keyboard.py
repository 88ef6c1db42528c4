"""The board by keyboard (issue 32, static/js/board/cell_cursor.js), in a real headless Chromium and
with the keyboard only (page.keyboard: no mouse, no clicks): load a maze from the gallery, pick a
start and a goal with the cell cursor, run, step, and answer ten Predict questions on the board.

The keys: Tab reaches the board and shows the cursor; the arrow keys move it, Enter clicks its cell
(Shift+Enter: a Shift+click, the grid's goal), "," and "." step the player, Escape hides the cursor
(the arrows step the player again), Tab leaves the board."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.pages import BROWSER_TEST, judge, next_frame, open_lab, position, shooter, status_is

pytestmark = BROWSER_TEST

shot = shooter("board-keyboard")
CURSOR = "[data-testid=board-cursor]"
LIVE = "[data-testid=board-live]"


def said(page) -> str:
    """What the live region says (a repeat is told apart by a zero-width space)."""
    return page.locator(LIVE).text_content().replace("\u200b", "")


def focused(page) -> dict[str, str]:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return {id: e?.id || '', testid: e?.dataset?.testid || '', name: e?.dataset?.name || ''}; }"
    )


def tab_to(page, testid: str = "", element_id: str = "", name: str = "", limit: int = 120) -> None:
    """Press Tab until the element wanted has the focus."""
    for _ in range(limit):
        now = focused(page)
        wanted = [("testid", testid), ("id", element_id), ("name", name)]
        if any(value and now[key] == value for key, value in wanted):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid or element_id or name}")


def cursor_at(page) -> tuple[int, int]:
    """The cursor's (row, column)."""
    cursor = page.locator(CURSOR)
    assert cursor.is_visible(), "the cursor is shown"
    return int(cursor.get_attribute("data-row")), int(cursor.get_attribute("data-column"))


def walk_to(page, row: int, col: int) -> None:
    """Move the cursor to (row, col) with the arrow keys."""
    r, c = cursor_at(page)
    for _ in range(abs(row - r)):
        page.keyboard.press("ArrowDown" if row > r else "ArrowUp")
    for _ in range(abs(col - c)):
        page.keyboard.press("ArrowRight" if col > c else "ArrowLeft")
    assert cursor_at(page) == (row, col)


def gallery_by_keyboard(page, name: str) -> None:
    """The gallery, by keyboard: Tab to "Gallery…", Enter, Tab to the entry, Enter."""
    page.keyboard.press("Tab")
    tab_to(page, testid="open-gallery")
    page.keyboard.press("Enter")
    page.locator("[data-testid=gallery-dialog]").wait_for(state="visible")
    tab_to(page, name=name)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "name => document.querySelector('[data-testid=gallery] button.active')?.dataset.name === name"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'",
        arg=name,
    )
    next_frame(page)


def back_to_board(page) -> None:
    """Shift+Tab from a tool over the board back to the board (the cursor shows)."""
    for _ in range(20):
        if focused(page)["id"] == "board":
            return
        page.keyboard.press("Shift+Tab")
    raise AssertionError("Shift+Tab never reached the board")


def test_keyboard_only_load_pick_run_step_and_predict(page):
    gallery_by_keyboard(page, "braid-small")
    label = page.get_attribute("[data-testid=canvas]", "aria-label")
    assert label.startswith("Maze") and "cells" in label and "start (" in label and "goal (" in label, label

    # Start: "Set start", then Tab on to the board: the cursor shows on the start; walk to another
    # free cell (its words say "free") and press Enter.
    tab_to(page, testid="pick-start")
    page.keyboard.press("Enter")
    tab_to(page, element_id="board")
    next_frame(page)
    home = cursor_at(page)
    assert said(page).startswith(f"({home[0]}, {home[1]}): start")

    def step_to_free(direction: str) -> tuple[int, int]:
        for _ in range(30):
            page.keyboard.press(direction)
            if ": free" in said(page):
                return cursor_at(page)
        raise AssertionError("no free cell that way")

    start = step_to_free("ArrowDown")
    page.keyboard.press("Enter")
    next_frame(page)
    assert page.input_value("[data-testid=start-rc]").replace(" ", "") == f"{start[0]},{start[1]}"
    assert said(page).startswith(f"({start[0]}, {start[1]}): start")

    # Goal: Shift+Enter (a Shift+click) on a free cell far away (Ctrl+arrow: five cells).
    for _ in range(6):
        page.keyboard.press("Control+ArrowDown")
        page.keyboard.press("Control+ArrowRight")
    assert cursor_at(page) == (start[0] + 30, start[1] + 30)
    goal = step_to_free("ArrowRight")
    page.keyboard.press("Shift+Enter")
    next_frame(page)
    assert page.input_value("[data-testid=goal-rc]").replace(" ", "") == f"{goal[0]},{goal[1]}"
    shot(page, "cursor-on-goal")

    # Escape hides the cursor, Tab leaves the board (no trap); "Pan" again: a click picks nothing.
    page.keyboard.press("Escape")
    assert not page.locator(CURSOR).is_visible()
    page.keyboard.press("Tab")
    assert focused(page)["id"] != "board"
    tab_to(page, testid="pick-off")
    page.keyboard.press("Enter")

    # Run (Enter on Run), then step: the board has the focus, the cursor is hidden, → steps.
    tab_to(page, testid="run")
    page.keyboard.press("Space")  # pause at once: the keys drive the player
    page.keyboard.press("Enter")
    status_is(page, "done")
    page.keyboard.press("Space")  # pause
    page.keyboard.press("Home")
    assert focused(page)["id"] == "board" and not page.locator(CURSOR).is_visible()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert position(page)[0] == 2
    # With the cursor shown (Enter), "." and "," step; the arrows move the cursor, not the player.
    page.keyboard.press("Enter")
    assert page.locator(CURSOR).is_visible()
    page.keyboard.press("ArrowLeft")
    assert position(page)[0] == 2
    page.keyboard.press(".")
    assert position(page)[0] == 3
    page.keyboard.press(",")
    assert position(page)[0] == 2
    page.keyboard.press("Escape")

    # Predict (P), by keyboard: ten questions, each answered with the cursor and Enter on the board.
    size = page.text_content("[data-testid=maze-size]")
    width = int(size.split("×")[0])
    page.keyboard.press("p")
    assert page.get_attribute("[data-testid=predict]", "aria-pressed") == "true"
    tab_to(page, testid="speed")
    page.keyboard.press("End")  # the speed slider's end: as fast as it goes between questions
    tab_to(page, testid="run")
    page.keyboard.press("Enter")
    at = -1
    for n in range(10):
        page.wait_for_function(
            "after => document.body.dataset.exercise === 'asking'"
            " && Number(document.body.dataset.exerciseAt) > after",
            arg=at,
        )
        next_frame(page)
        at = int(page.evaluate("() => document.body.dataset.exerciseAt"))
        cell = int(page.evaluate("() => document.body.dataset.exerciseNext"))
        assert focused(page)["id"] == "board"
        if not page.locator(CURSOR).is_visible():
            page.keyboard.press("Enter")  # the cursor
        walk_to(page, cell // width, cell % width)
        page.keyboard.press("Enter")
        feedback = page.locator("[data-testid=exercise-feedback] .feedback-line").first
        assert feedback.get_attribute("data-kind") == "right", feedback.text_content()
        assert page.text_content("[data-testid=exercise-score]").strip() == f"Score: {n + 1} / {n + 1}"
        if n == 0:
            shot(page, "predict-by-cursor")
    page.wait_for_function("() => document.body.dataset.exercise === 'over'")
    assert page.evaluate("() => document.body.dataset.exerciseScore") == "10/10"


def test_keyboard_only_edits_a_maze_and_a_sliding_puzzle(page):
    # The grid's Wall tool, then Enter on a free cell: it is a wall.
    tab_to(page, testid="tool-wall")
    page.keyboard.press("Enter")
    assert page.get_attribute("[data-testid=tool-wall]", "aria-pressed") == "true"
    back_to_board(page)
    next_frame(page)
    for _ in range(30):
        page.keyboard.press("ArrowRight")
        if said(page).endswith(": free"):
            break
    row, col = cursor_at(page)
    page.keyboard.press("Enter")
    expect(page.locator(LIVE)).to_contain_text(f"({row}, {col}): wall")
    shot(page, "grid-wall-by-keyboard")

    # The sliding puzzle's editor: Edit, then Enter on a tile beside the blank slides it there.
    page.keyboard.press("Escape")
    gallery_by_keyboard(page, "sliding-aima-3-28")
    tab_to(page, testid="edit-board")
    page.keyboard.press("Enter")
    tab_to(page, element_id="board")
    assert said(page).endswith(": the blank")
    blank = cursor_at(page)
    page.keyboard.press("ArrowRight")
    assert said(page).startswith(f"({blank[0]}, {blank[1] + 1}): tile ")
    shot(page, "sliding-cursor")
    page.keyboard.press("Enter")
    expect(page.locator(LIVE)).to_contain_text(f"({blank[0]}, {blank[1] + 1}): the blank")


def test_the_cursor_reads_the_labs_heat_map(page):
    open_lab(page)
    judge(page, "2*(dr+dc)")  # twice Manhattan: it overestimates
    tab_to(page, element_id="board")
    assert page.locator(CURSOR).is_visible()
    hovers = set()
    heat = []
    for _ in range(12):
        page.keyboard.press("ArrowRight")
        hovers.add(page.text_content("[data-testid=hover]"))
        if "h/h* " in said(page):
            heat.append(said(page))
    assert len(hovers) > 3, "the hover read-out follows the cursor"
    assert heat, "a judged cell says its h/h*"
    assert any("overestimates" in s for s in heat), heat
    shot(page, "lab-heat")
