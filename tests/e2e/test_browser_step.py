"""The step-cycle ("1-2-3") maze in a real headless Chromium: upload the seed, run BFS and A*, read the
per-phase marks off the canvas, step through the trace, replay the solution, switch the views, and
present it on a projector-sized screen with large text."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import missing
from tests.e2e.pages import (
    BROWSER_TEST,
    ROOT,
    at_end,
    canvas_data,
    choose_gallery,
    next_frame,
    position,
    shooter,
    status_is,
    text,
    upload,
)

pytestmark = BROWSER_TEST

SEED = ROOT / "mazes" / "step-seed-003.txt"
SEED_ROWS = SEED.read_text().splitlines() if SEED.exists() else []
START, GOAL = (0, 0), (5, 5)
shot = shooter("step")

# static/js/colors.js: what an unreached state's mark, a marked cell and a frontier state look like.
UNREACHED = (255, 255, 255)
FREE = (0xF6, 0xF4, 0xEF)
FRONTIER = (0xCC, 0x79, 0xA7)
PATH = (0xD5, 0x5E, 0x00)

# The canvas's pixel at CSS point (x, y), as [r, g, b].
PIXEL = """([x, y]) => {
  const c = document.querySelector('[data-testid=canvas]');
  const dpr = c.width / parseFloat(c.style.width);
  const d = c.getContext('2d').getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data;
  return [d[0], d[1], d[2]];
}"""


@pytest.fixture
def seed() -> Path:
    if not SEED.exists():
        missing(f"the step-cycle seed maze is absent (expected {SEED})")
    return SEED


def per_phase(value: str) -> list[int]:
    return [int(v) for v in value.split(",")] if value else []


def mark_pixel(page, cell: tuple[int, int], phase: int) -> tuple[int, int, int]:
    """The colour inside the mark of state (cell, phase) on the maze, clear of its digit."""
    data = canvas_data(page)
    x0, y0 = (float(v) for v in data["main"].split(","))
    unit = float(data["unit"])
    cx, cy = (float(v) for v in data["marks"].split(";")[phase].split(","))
    w, h = (float(v) for v in data["markSize"].split(","))
    r, c = cell
    return tuple(page.evaluate(PIXEL, [x0 + c * unit + cx - 0.36 * w, y0 + r * unit + cy - 0.36 * h]))


def layer_pixel(page, cell: tuple[int, int], phase: int) -> tuple[int, int, int]:
    """The colour of cell `cell` on the layer of `phase` (near its lower right corner, clear of text)."""
    data = canvas_data(page)
    lx, ly = (float(v) for v in data["layers"].split(";")[phase].split(","))
    unit = float(data["layerUnit"])
    r, c = cell
    return tuple(page.evaluate(PIXEL, [lx + (c + 0.88) * unit, ly + (r + 0.88) * unit]))


def near(colour: tuple[int, int, int], expected: tuple[int, int, int], tolerance: int = 32) -> bool:
    """The same colour up to the canvas's smoothing at a cell's edge (which shifts with the board's
    size, e.g. when the page header grows), still far from every other colour of the view."""
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


def landed(page) -> None:
    """Wait until the replayed jump has landed (the renderer flags a jump in the air on its canvas)."""
    page.wait_for_function("() => document.querySelector('[data-testid=canvas]').dataset.animating !== '1'")


def run(page, algorithm: str) -> None:
    page.select_option("[data-testid=algorithm]", algorithm)
    page.click("[data-testid=preset-instant]")  # the whole trace at once
    page.click("[data-testid=run]")
    at_end(page)


def test_seed_bfs_and_astar_take_15_moves_with_a_mark_per_phase(page, seed):
    upload(page, seed)
    # The family's own option and panels replace the grid's.
    assert page.input_value("[data-testid=option-cycle]").replace(" ", "") == "1,2,3"
    assert page.locator("[data-testid=step-mode-both]").get_attribute("aria-pressed") == "true"
    assert not page.locator("[data-testid=pick-start]").is_visible()
    algorithms = page.eval_on_selector_all("[data-testid=algorithm] option", "os => os.map(o => o.value)")
    assert {"bfs", "astar"} <= set(algorithms), algorithms
    data = canvas_data(page)
    assert data["phases"] == "3" and data["mode"] == "both"
    assert len(data["layers"].split(";")) == 3
    assert text(page, "maze-size") == "6 × 8 cells"
    # Before a run every mark is unreached; the layers show the maze's marked cells.
    for phase in range(3):
        assert mark_pixel(page, START, phase) == UNREACHED
        assert layer_pixel(page, START, phase) == FREE
    shot(page, "start-1366")

    run(page, "bfs")
    assert text(page, "cost") == "15"
    assert text(page, "path-length") == "16"
    assert text(page, "optimal").startswith("optimal")
    moves = page.locator("[data-testid=moves] [data-testid=move]")
    assert moves.count() == 15
    assert moves.nth(0).text_content() == "1 south: (0, 0) → (1, 0)"
    assert text(page, "replay-position") == "all 15"
    assert canvas_data(page)["solution"] == "15/15"
    # At the end the solution's path is drawn on the layers (the goal state, moves made: 15).
    assert near(layer_pixel(page, GOAL, 0), PATH)
    shot(page, "end-1366")

    # The replay: Next starts at the first move, Prev goes back; the list follows.
    page.click("[data-testid=replay-next]")
    assert text(page, "replay-position") == "1 / 15"
    assert "current" in (moves.nth(0).get_attribute("class") or "")
    page.click("[data-testid=replay-next]")
    page.click("[data-testid=replay-next]")
    assert text(page, "replay-position") == "3 / 15"
    assert "current" in (moves.nth(2).get_attribute("class") or "")
    page.click("[data-testid=replay-prev]")
    assert "current" in (moves.nth(1).get_attribute("class") or "")
    landed(page)
    next_frame(page)
    assert canvas_data(page)["solution"] == "2/15"
    shot(page, "replay-1366")

    # Back into the search: step 30 of the trace. The marks show each phase's state on its own.
    page.keyboard.press("Home")
    for _ in range(3):
        page.keyboard.press("Shift+ArrowRight")
    next_frame(page)
    assert position(page)[0] == 30
    assert text(page, "cost") == "—", "the ending waits for the end of the trace"
    data = canvas_data(page)
    closed, opened = per_phase(data["closed"]), per_phase(data["open"])
    assert sum(1 for n in closed if n > 0) >= 2, closed  # expanded states in several layers
    assert sum(closed) == int(text(page, "expanded")), (closed, text(page, "expanded"))
    assert sum(opened) == int(text(page, "frontier")), (opened, text(page, "frontier"))
    assert data["current"], "the state being expanded is marked"
    r, c, phase = (int(v) for v in data["current"].split(","))
    assert text(page, "figure-phase") == str(phase)
    assert text(page, "figure-next") == str((1, 2, 3)[phase])
    # ... framed in black on its own layer (the frame's top edge, half way along the cell).
    lx, ly = (float(v) for v in data["layers"].split(";")[phase].split(","))
    unit = float(data["layerUnit"])
    frame = page.evaluate(PIXEL, [lx + (c + 0.5) * unit, ly + r * unit + 1.5])
    # Black, give or take the canvas's smoothing of a thin line (a dark grey, not a hue of the g ramp).
    assert max(frame) < 100 and max(frame) - min(frame) < 16, frame
    start_mark = mark_pixel(page, START, 0)
    assert start_mark not in (UNREACHED, FREE, FRONTIER), start_mark  # expanded: a colour of the g ramp
    assert mark_pixel(page, GOAL, 0) == UNREACHED  # the goal is 15 moves away
    assert layer_pixel(page, START, 0) == start_mark  # the same state, the same colour on its layer
    assert layer_pixel(page, GOAL, 1) == FREE
    # One step on, the expansion's first jump is drawn (and said in the caption, on the canvas).
    page.keyboard.press("ArrowRight")
    next_frame(page)
    assert position(page)[0] == 31
    shot(page, "mid-1366")

    # Step back and forth: the marks follow the playhead.
    page.keyboard.press("Shift+ArrowLeft")
    next_frame(page)
    assert position(page)[0] == 21
    earlier = sum(per_phase(canvas_data(page)["closed"]))
    assert earlier < sum(closed)
    page.keyboard.press("ArrowRight")
    next_frame(page)
    assert position(page)[0] == 22
    page.keyboard.press("Home")
    next_frame(page)
    assert mark_pixel(page, START, 0) == UNREACHED

    # A*: the same 15 moves, with h and f of the state at the playhead.
    run(page, "astar")
    assert text(page, "cost") == "15"
    assert "manhattan heuristic" in text(page, "run-caption")
    page.keyboard.press("Home")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    next_frame(page)
    g, h, f = (float(text(page, f"figure-{k}")) for k in "ghf")
    assert f == g + h, (g, h, f)
    assert text(page, "status") == "done"


def test_a_cycle_of_1_2_changes_the_layers_and_the_answer(page, seed, console):
    upload(page, seed)
    page.fill("[data-testid=option-cycle]", "1, 2")
    page.locator("[data-testid=option-cycle]").dispatch_event("change")
    next_frame(page)
    data = canvas_data(page)
    assert data["phases"] == "2" and len(data["layers"].split(";")) == 2  # the idle board redraws
    run(page, "bfs")
    assert text(page, "cost") == "7"
    assert "cycle 1,2" in text(page, "run-caption")
    assert page.locator("[data-testid=moves] [data-testid=move]").count() == 7
    # A changed cycle marks the shown run as the previous one; a bad cycle is refused in words.
    page.fill("[data-testid=option-cycle]", "1, 0")
    page.locator("[data-testid=option-cycle]").dispatch_event("change")
    assert page.locator("[data-testid=stale-badge]").is_visible()
    page.click("[data-testid=run]")
    error = text(page, "error")
    assert error.startswith("Step cycle:") and "0" in error, error
    assert canvas_data(page)["phases"] == "2", "the shown run keeps its layers"


def test_views_and_presentation_on_a_projector(browser, server_url, console, seed):
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
    tab = ctx.new_page()
    tab.set_default_timeout(60_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    try:
        tab.goto(server_url)
        status_is(tab, "ready")
        choose_gallery(tab, "step-seed-003")  # the seed is in the gallery too
        assert text(tab, "puzzle-name") == "1-2-3 maze (seed 003)"
        run(tab, "bfs")
        assert text(tab, "cost") == "15"
        tab.keyboard.press("Home")
        for _ in range(4):
            tab.keyboard.press("Shift+ArrowRight")
        tab.keyboard.press("ArrowRight")  # step 41: an expansion and the jump it generates
        next_frame(tab)
        both = canvas_data(tab)
        assert float(both["unit"]) >= 50 and float(both["layerUnit"]) >= 30, both
        shot(tab, "mid-1920")

        tab.click("[data-testid=step-mode-layers]")
        next_frame(tab)
        layers = canvas_data(tab)
        assert layers["mode"] == "layers" and layers["main"] == ""
        assert float(layers["layerUnit"]) > float(both["layerUnit"])
        shot(tab, "layers-1920")
        tab.click("[data-testid=step-mode-board]")
        next_frame(tab)
        board = canvas_data(tab)
        assert board["mode"] == "board" and board["layers"] == ""
        assert float(board["unit"]) > float(both["unit"])
        tab.click("[data-testid=step-mode-both]")

        # Presentation mode with large text: the board fills the screen, the text grows.
        tab.click("[data-testid=large-text]")
        tab.keyboard.press("f")
        next_frame(tab)
        next_frame(tab)
        assert not tab.locator(".panel.right").is_visible()
        box = tab.locator("[data-testid=canvas]").bounding_box()
        share = box["width"] * box["height"] / (1920 * 1080)
        assert share >= 0.6, share
        presented = canvas_data(tab)
        assert float(presented["unit"]) > float(both["unit"]), (presented["unit"], both["unit"])
        figures = text(tab, "figures")
        assert "Next move" in figures and "Phase" in figures, figures
        shot(tab, "present-large-1920")
        tab.keyboard.press("End")
        next_frame(tab)
        assert "Cost 15" in text(tab, "figures")
        # The side panels are hidden: the replay's bar above the board drives the solution.
        bar = tab.locator("[data-testid=bar-replay]")
        assert bar.is_visible()
        tab.click("[data-testid=bar-replay-next]")
        tab.click("[data-testid=bar-replay-next]")
        assert text(tab, "bar-replay-position") == "2 / 15"
        assert text(tab, "replay-position") == "2 / 15"
        landed(tab)
        next_frame(tab)
        shot(tab, "present-end-1920")
        tab.keyboard.press("f")
        next_frame(tab)
        assert not bar.is_visible(), "outside presentation mode the panel's replay is the one"
        tab.click("[data-testid=large-text]")
    finally:
        ctx.close()
    unexpected = console.unexpected()
    assert not unexpected, "errors in the browser console:\n" + "\n".join(unexpected)
