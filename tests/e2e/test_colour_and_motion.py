"""Motion and colour (issue 32, point 2): under prefers-reduced-motion nothing moves by itself and
transitions are instant; colour is never the only carrier (frontier, expanded, path, start and goal stay
apart in a greyscale screenshot; the lab's over- and underestimates are hatched and dotted).

Screenshots, in colour and in grey: test-artifacts/colour-*.png.
"""

from __future__ import annotations

import io
import json
from itertools import combinations

import numpy as np
import pytest
from PIL import Image

from server.puzzles.grid.generate import generate_braid, maze_to_image
from tests.e2e.pages import (
    ARTIFACTS,
    BROWSER_TEST,
    CANVAS,
    at_end,
    choose_gallery,
    judge,
    next_frame,
    open_lab,
    open_tab,
    upload,
)

pytestmark = BROWSER_TEST

MEAN_APART = 25  # grey levels (0..255) between two kinds' mean grey that tell them apart
MARK_APART = 20  # or: the mean grey difference, pixel by pixel, between two cells (a mark on one of them)


@pytest.fixture
def reduced(browser, server_url, console):
    """A page that asked for reduced motion (the media feature emulated before the page loads)."""
    context, page = open_tab(browser, server_url, console, reduced_motion="reduce", bypass_csp=True)
    yield page
    context.close()
    unexpected = console.unexpected()
    assert not unexpected, "errors in the browser console:\n" + "\n".join(unexpected)


def save(image: Image.Image, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    image.save(ARTIFACTS / f"colour-{name}.png")


def canvas_image(page) -> Image.Image:
    next_frame(page)
    return Image.open(io.BytesIO(page.locator(CANVAS).screenshot())).convert("RGB")


# ---- reduced motion --------------------------------------------------------------------------------
ANIMATED = """() => {
  const moving = [];
  for (const node of document.querySelectorAll('*')) {
    const style = getComputedStyle(node);
    const seconds = (list) => list.split(',').map(s => parseFloat(s) * (s.trim().endsWith('ms') ? 0.001 : 1));
    const transition = Math.max(...seconds(style.transitionDuration));
    const animation = style.animationName !== 'none' ? Math.max(...seconds(style.animationDuration)) : 0;
    const infinite = style.animationName !== 'none' && style.animationIterationCount === 'infinite';
    if (transition > 0 || animation > 0 || infinite)
      moving.push(`${node.tagName.toLowerCase()}.${[...node.classList].join('.')}`
                  + ` ${style.transitionDuration} ${style.animationName}`);
  }
  return moving;
}"""


def test_under_reduced_motion_nothing_moves_by_itself_and_transitions_are_instant(reduced) -> None:
    page = reduced
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert page.evaluate(ANIMATED) == []
    # A run and the busy states it shows (spinner, progress bar, busy dot): still nothing animated.
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    assert page.evaluate(ANIMATED) == []
    at_end(page)
    assert page.evaluate(ANIMATED) == []
    # A sliding puzzle's move: the board shows its end at once (no animation frames).
    choose_gallery(page, "sliding-aima-3-28")
    page.keyboard.press("Escape")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)
    page.wait_for_timeout(400)
    assert page.eval_on_selector(CANVAS, "c => c.dataset.animating || '0'") == "0"
    assert page.evaluate(ANIMATED) == []
    # The solution's replay does not start by itself: the board stays as it is (a move by hand plays).
    board = page.eval_on_selector(CANVAS, "c => c.dataset.board")
    page.wait_for_timeout(1500)
    assert page.eval_on_selector(CANVAS, "c => c.dataset.board") == board, (
        "the solution replayed by itself under reduced motion (sliding_view.js replayEntered: "
        "play only when !reducedMotion())"
    )


# ---- colour is not the only carrier ------------------------------------------------------------------
def cell_crop(grey: np.ndarray, view: tuple[float, float, float], cell: int, width: int) -> np.ndarray:
    """The inside (10 %..90 %) of a cell of the canvas screenshot, in grey."""
    scale, ox, oy = view
    r, c = divmod(cell, width)
    x0, y0 = ox + c * scale, oy + r * scale
    a, b = round(0.1 * scale), round(0.9 * scale)
    crop = grey[round(y0) + a: round(y0) + b, round(x0) + a: round(x0) + b]
    side = b - a
    return crop[:side, :side].astype(np.int16)


def apart(one: np.ndarray, other: np.ndarray) -> tuple[bool, float, float]:
    side = min(one.shape[0], other.shape[0], one.shape[1], other.shape[1])
    one, other = one[:side, :side], other[:side, :side]
    mean = abs(float(one.mean()) - float(other.mean()))
    mark = float(np.abs(one - other).mean())
    return mean >= MEAN_APART or mark >= MARK_APART, mean, mark


def test_frontier_expanded_path_start_and_goal_stay_apart_in_grey(page, tmp_path) -> None:
    maze = tmp_path / "braid-grey.png"
    maze_to_image(generate_braid(25, 40, seed=32, braid=0.3)).save(maze)  # 51 x 81 cells
    upload(page, maze)
    page.eval_on_selector(CANVAS, "c => { c.dataset.wantSamples = '1'; }")
    page.select_option("[data-testid=algorithm]", "astar")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)  # A* stops at the goal: a frontier is left, the path drawn
    colour = canvas_image(page)
    grey_image = colour.convert("L")
    save(colour, "grid")
    save(grey_image, "grid-grey")
    data = page.eval_on_selector(CANVAS, "c => ({...c.dataset})")
    samples = json.loads(data["samples"])
    view = (float(data["scale"]), float(data["originX"]), float(data["originY"]))
    assert view[0] >= 6, f"cells of {view[0]:.1f} px: too small for marks (the test maze is sized for ≥ 6)"
    width = Image.open(maze).size[0]  # one pixel a cell
    grey = np.asarray(grey_image)
    kinds = {"frontier": samples["frontier"], "path": samples["path"], "start": samples["start"],
             "goal": samples["goal"]}
    assert all(cell >= 0 for cell in kinds.values()), kinds
    assert len(samples["expanded"]) >= 4, samples
    crops = {name: cell_crop(grey, view, cell, width) for name, cell in kinds.items()}
    for k, cell in enumerate(samples["expanded"]):
        crops[f"expanded{k}"] = cell_crop(grey, view, cell, width)
    failures = []
    for a, b in combinations(crops, 2):
        if a.startswith("expanded") and b.startswith("expanded"):
            continue  # expanded cells differ among themselves by g; they need not be told apart
        ok, mean, mark = apart(crops[a], crops[b])
        if not ok:
            failures.append(f"{a} vs {b}: mean grey apart by {mean:.0f}, pixels by {mark:.0f}")
    assert not failures, "kinds of cells that only colour tells apart:\n" + "\n".join(failures)


def test_the_sliding_puzzle_and_the_lab_heat_map_in_grey(page) -> None:
    """The sliding puzzle after a run, and the lab's heat map of an inadmissible heuristic on the grid:
    overestimates hatched and underestimates dotted (screenshots to look at)."""
    choose_gallery(page, "sliding-aima-3-28")
    page.keyboard.press("Escape")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)
    image = canvas_image(page)
    save(image, "sliding")
    save(image.convert("L"), "sliding-grey")

    choose_gallery(page, "seed-lee-example")
    page.keyboard.press("Escape")
    open_lab(page)
    judge(page, "2*(dr+dc)")  # overestimates where the way is straight
    heat = page.eval_on_selector(CANVAS, "c => [c.dataset.heat || '', c.dataset.heatUnder || '0']")
    coloured, over, _moves = (int(x) for x in heat[0].split())
    under = int(heat[1])
    assert over > 0 and under >= 0 and coloured >= over + under, heat
    image = canvas_image(page)
    save(image, "heat")
    save(image.convert("L"), "heat-grey")
    judge(page, "(dr+dc)/2")  # admissible: cells away from the goal under, dotted
    heat = page.eval_on_selector(CANVAS, "c => [c.dataset.heat || '', c.dataset.heatUnder || '0']")
    assert int(heat[1]) > 0, heat
    image = canvas_image(page)
    save(image, "heat-under")
    save(image.convert("L"), "heat-under-grey")
