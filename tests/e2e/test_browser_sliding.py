"""Sliding-tile puzzles (issue 20) in a real headless Chromium: the gallery's 8-puzzle (AIMA figure 3.28)
solved by A* (Manhattan) with its whole state space drawn beside the board and lit as the search expands it,
the solution replayed with the tiles sliding; h1 against h2 in the comparison view (each panel lights
its own state space, h1 more of it); a 15-puzzle solved by IDA*; a tile slid by a click and taken back
by Undo. The page's answers are checked against the CLI's (``run.py solve --json``). Screenshots go to
/tmp/shots20/ and test-artifacts/.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

from tests.e2e.pages import (
    ARTIFACTS,
    BROWSER_TEST,
    CANVAS,
    ROOT,
    at_end,
    canvas_data,
    choose_gallery,
    next_frame,
    puzzle_id,
    solve_json,
    status_is,
    text,
    upload,
)

pytestmark = BROWSER_TEST

SHOTS = Path("/tmp/shots20")
PANEL = "[data-testid=compare-panel]"
# AIMA figure 3.28 (bundled in the gallery, and written here for the editor's test): 26 moves to the
# blank-first goal.
GALLERY_AIMA = ROOT / "mazes" / "sliding-aima-3-28.txt"
AIMA = "7 2 4\n5 0 6\n8 3 1\ngoal: 0 1 2 3 4 5 6 7 8\n"
# Pixels of the state space's lit colours (sliding_renderer.js: pale orange → dark orange), weighted by
# how deep the orange is (a bin all expanded counts more than one with a single state expanded).
LIT_PIXELS = """c => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    const [r, g, b] = [d[i], d[i + 1], d[i + 2]];
    if (r > g + 25 && r > b + 60) n += (r - b) / 255;
  }
  return Math.round(n);
}"""


def shot(page, name: str) -> None:
    """Save the page as /tmp/shots20/<name>.png (and a copy under test-artifacts/)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    ARTIFACTS.mkdir(exist_ok=True)
    next_frame(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    shutil.copy(SHOTS / f"{name}.png", ARTIFACTS / f"sliding-{name}.png")


def board_file(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / f"{name}.txt"
    path.write_text(content)
    return path


def wait_space(page, selector: str = CANVAS) -> None:
    """Until the canvas draws the 8-puzzle's 181,440 states."""
    page.wait_for_function(
        "s => [...document.querySelectorAll(s)].every(c => c.dataset.spaceStates === '181440')", arg=selector,
        timeout=30_000,
    )


def run(page, algorithm: str, heuristic: str | None = None) -> None:
    page.select_option("[data-testid=algorithm]", algorithm)
    if heuristic:
        page.select_option("[data-testid=option-heuristic]", heuristic)
    page.fill("[data-testid=speed]", "1000")  # the trace at max speed
    page.locator("[data-testid=speed]").dispatch_event("change")
    page.click("[data-testid=run]")
    at_end(page)


def test_8puzzle_astar_lights_its_state_space_and_replays_sliding(page):
    path = GALLERY_AIMA
    choose_gallery(page, "sliding-aima-3-28")
    data = canvas_data(page)
    assert data["n"] == "3" and data["board"] == "7,2,4,5,0,6,8,3,1"
    wait_space(page)
    assert canvas_data(page)["spaceLit"] == "0"

    run(page, "astar", "manhattan")
    oracle = solve_json(path, "--algorithm", "astar", "--heuristic", "manhattan")
    assert oracle["cost"] == 26
    page.locator("[data-testid=solution-moves]").wait_for(state="visible")
    assert text(page, "solution-moves") == "26"
    assert text(page, "optimal-moves") == "26"  # the start's distance in the page's state space
    assert page.locator("[data-testid=move]").count() == 26
    assert page.locator("[data-testid=move]").first.text_content().startswith("Slide ")
    data = canvas_data(page)
    lit = int(data["spaceLit"])
    assert 26 < lit <= oracle["expanded"] < 181440
    assert data["spacePath"] == "27"
    assert page.eval_on_selector(CANVAS, LIT_PIXELS) > 50  # the lit states are drawn

    # The solution plays by itself (at the trace's top speed, at once) to the goal.
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-position]').textContent === '26 / 26'"
    )
    assert canvas_data(page)["board"] == "0,1,2,3,4,5,6,7,8"
    # At a normal pace a tile slides: the first move, 5 right.
    page.click("[data-testid=preset-normal]")
    page.locator("[data-testid=move]").first.click()
    page.click("[data-testid=replay-prev]")
    assert text(page, "replay-position") == "0 / 26"
    page.click("[data-testid=replay-next]")
    page.wait_for_function("() => document.querySelector('[data-testid=canvas]').dataset.phase === 'slide'")
    page.wait_for_function("() => document.querySelector('[data-testid=canvas]').dataset.phase === ''")
    assert canvas_data(page)["board"] == "7,2,4,0,5,6,8,3,1"
    for _ in range(3):
        page.click("[data-testid=replay-next]")
    page.wait_for_function("() => document.querySelector('[data-testid=canvas]').dataset.phase === ''")
    shot(page, "8puzzle-astar-manhattan")

    # The playhead's figures: g, h and the real distance h* of the state being expanded.
    page.keyboard.press("Home")
    for _ in range(4):  # to the first expansion (after the start's open record)
        page.keyboard.press("ArrowRight")
        next_frame(page)
        if text(page, "figure-hstar") != "—":
            break
    # At the first expansion the start itself: g 0, h its Manhattan distance, h* its 26 moves.
    assert text(page, "figure-hstar") == "26"
    assert text(page, "figure-g") == "0"
    assert text(page, "figure-h") == "18"

    # On a projector: full HD, presentation mode; the replay's buttons in a bar above the board.
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.keyboard.press("End")
    page.click("[data-testid=present]")
    page.locator("[data-testid=bar-replay]").wait_for(state="visible")
    page.click("[data-testid=bar-replay-prev]")
    shot(page, "8puzzle-astar-present-1920")
    page.click("[data-testid=present]")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.keyboard.press("Home")
    for _ in range(2):
        page.keyboard.press("ArrowRight")

    # Explain mode: the frontier's first boards (the trace names its states: frames' `named`); the
    # first is the next board expanded.
    page.click("[data-testid=explain]")
    for _ in range(8):  # the start's children join the frontier
        page.keyboard.press("ArrowRight")
    next_frame(page)
    boards = page.locator("[data-testid=explain-next] canvas")
    assert boards.count() >= 2
    first = boards.first.get_attribute("data-tiles").split(",")
    # Each board's label is the family's notation: rows, "_" the blank.
    label = boards.first.get_attribute("aria-label")
    assert re.fullmatch(r"(?:[_\d] ){2}[_\d](?: / (?:[_\d] ){2}[_\d]){2}", label), label
    shown = canvas_data(page)["board"]
    for _ in range(12):
        page.keyboard.press("ArrowRight")
        next_frame(page)
        if canvas_data(page)["board"] != shown:
            break
    assert canvas_data(page)["board"].split(",") == first
    note = page.locator("[data-testid=explain-note]").text_content()
    assert "cannot be rebuilt" not in note, note
    for _ in range(300):  # further into the search: more of the space lit
        page.keyboard.press("ArrowRight")
    shot(page, "8puzzle-astar-explain")
    page.click("[data-testid=explain]")


def test_compare_h1_and_h2_each_light_their_own_state_space(page):
    page.set_viewport_size({"width": 1600, "height": 1000})
    choose_gallery(page, "sliding-aima-3-28")
    page.click("[data-testid=compare]")
    page.locator("[data-testid=compare-view]").wait_for(state="visible")
    panels = page.locator(PANEL)
    while panels.count() > 2:
        panels.last.locator("[data-testid=compare-remove]").click()
    while panels.count() < 2:
        page.click("[data-testid=compare-add]")
    for i, heuristic in enumerate(("misplaced", "manhattan")):
        panels.nth(i).locator("[data-testid=panel-algorithm]").select_option("astar")
        panels.nth(i).locator("[data-testid=panel-option-heuristic]").select_option(heuristic)
    wait_space(page, "[data-testid=panel-canvas]")
    page.click("[data-testid=run]")
    status_is(page, "done")
    page.keyboard.press("End")
    page.locator("[data-testid=compare-table]").wait_for(state="visible")
    next_frame(page)
    lit = page.eval_on_selector_all(
        "[data-testid=panel-canvas]", "cs => cs.map(c => Number(c.dataset.spaceLit))"
    )
    h1, h2 = lit
    assert h1 > h2 > 26, lit
    drawn = page.eval_on_selector_all(
        "[data-testid=panel-canvas]", f"cs => cs.map({LIT_PIXELS})"
    )
    assert drawn[0] > drawn[1] > 0, drawn
    legend = page.locator("[data-testid=compare-chart-legend] .legend-item").all_inner_texts()
    assert len(legend) == 2 and len(set(legend)) == 2, legend  # each A* named with its heuristic
    assert "h₁" in legend[0] and "h₂" in legend[1], legend
    shot(page, "8puzzle-compare-h1-h2")


def easy_15(seed: int = 20, walk: int = 40) -> str:
    """A 15-puzzle a random walk of the blank away from the goal (no step straight back)."""
    rng = random.Random(seed)
    tiles = [*range(1, 16), 0]
    blank, last = 15, None
    for _ in range(walk):
        r, c = divmod(blank, 4)
        options = [(dr, dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                   if 0 <= r + dr < 4 and 0 <= c + dc < 4 and (dr, dc) != last]
        dr, dc = rng.choice(options)
        cell = (r + dr) * 4 + c + dc
        tiles[blank], tiles[cell] = tiles[cell], 0
        blank, last = cell, (-dr, -dc)
    return "\n".join(" ".join(str(t) for t in tiles[k:k + 4]) for k in range(0, 16, 4)) + "\n"


def test_15puzzle_idastar(page, tmp_path):
    path = board_file(tmp_path, "fifteen", easy_15())
    upload(page, path)
    assert canvas_data(page)["n"] == "4"
    assert canvas_data(page)["spaceStates"] == ""  # no state space beside a 15-puzzle
    run(page, "idastar", "manhattan")
    oracle = solve_json(path, "--algorithm", "idastar", "--heuristic", "manhattan")
    page.locator("[data-testid=solution-moves]").wait_for(state="visible")
    assert text(page, "solution-moves") == str(oracle["cost"])
    assert page.locator("[data-testid=move]").count() == oracle["cost"]
    cost = oracle["cost"]
    page.wait_for_function(
        "n => document.querySelector('[data-testid=replay-position]').textContent === `${n} / ${n}`", arg=cost
    )
    assert canvas_data(page)["board"] == ",".join(str(t) for t in [*range(1, 16), 0])
    page.click("[data-testid=preset-normal]")
    page.locator("[data-testid=move]").nth(2).click()  # the board after 3 moves
    assert text(page, "replay-position") == f"3 / {cost}"
    shot(page, "15puzzle-idastar")


def test_slide_a_tile_by_clicking_and_undo(page, tmp_path):
    path = board_file(tmp_path, "aima-edit", AIMA)
    upload(page, path)
    first = puzzle_id(page)
    page.click("[data-testid=edit-board]")
    assert page.get_attribute("[data-testid=edit-board]", "aria-pressed") == "true"
    data = canvas_data(page)
    unit, bx, by = float(data["unit"]), float(data["bx"]), float(data["by"])
    # The blank is in the middle (1, 1); tile 2 above it slides down.
    page.locator(CANVAS).click(position={"x": bx + 1.5 * unit, "y": by + 0.5 * unit})
    page.wait_for_function(
        "old => document.body.dataset.edits === 'idle' && document.body.dataset.puzzleId !== old", arg=first
    )
    next_frame(page)
    assert canvas_data(page)["board"] == "7,0,4,5,2,6,8,3,1"
    # A tile not next to the blank does not move.
    page.locator(CANVAS).click(position={"x": bx + 2.5 * unit, "y": by + 2.5 * unit})
    next_frame(page)
    assert canvas_data(page)["board"] == "7,0,4,5,2,6,8,3,1"
    edited = puzzle_id(page)
    page.click("[data-testid=undo]")
    page.wait_for_function(
        "old => document.body.dataset.edits === 'idle' && document.body.dataset.puzzleId !== old", arg=edited
    )
    page.wait_for_function(
        "() => document.querySelector('[data-testid=canvas]').dataset.board === '7,2,4,5,0,6,8,3,1'"
    )
    # The goal: this board.
    undone = puzzle_id(page)
    page.click("[data-testid=sliding-goal-here]")
    page.wait_for_function(
        "old => document.body.dataset.edits === 'idle' && document.body.dataset.puzzleId !== old", arg=undone
    )
    wait_space(page)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=canvas]').dataset.startDistance === '0'"
    )
