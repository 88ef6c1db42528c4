"""Zenji's rotating pipes in a real headless Chromium: the seed's board, Dijkstra, A* and free flow.

The page's answer is checked against the CLI's (``run.py solve --json``, run here); the search view's
per-rotation markers are read from the canvas (its data attributes and its pixels); the solution
replays turn by turn and then the water flows. Screenshots of the start, mid-search and the end go to
test-artifacts/ (laptop size, and full HD in presentation mode).
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.e2e.pages import (
    BROWSER_TEST,
    CANVAS,
    ROOT,
    at_end,
    canvas_data,
    position,
    shooter,
    text,
    upload,
)
from tests.helpers import venv_python

pytestmark = BROWSER_TEST

SEED = ROOT / "mazes" / "zenji-seed-001.txt"
shot = shooter("zenji")
# The frontier's colour on the board (static/js/colors.js COLORS.open, Okabe-Ito reddish purple).
FRONTIER_RGB = (0xCC, 0x79, 0xA7)


def cli(algorithm: str, flow: str) -> dict:
    """The CLI's answer for the seed's board: the oracle the page is compared with."""
    done = subprocess.run(
        [venv_python(), "run.py", "solve", str(SEED), "--algorithm", algorithm, "--flow", flow, "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(done.stdout)


def pixels_of(page, rgb: tuple[int, int, int], tolerance: int = 6) -> int:
    """How many canvas pixels have this colour (the markers are really drawn, not only counted)."""
    return page.eval_on_selector(
        CANVAS,
        """(c, [r, g, b, tol]) => {
             const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
             let n = 0;
             for (let i = 0; i < data.length; i += 4) {
               if (Math.abs(data[i] - r) <= tol && Math.abs(data[i + 1] - g) <= tol
                   && Math.abs(data[i + 2] - b) <= tol) n++;
             }
             return n;
           }""",
        [*rgb, tolerance],
    )


def run(page, algorithm: str, flow: str) -> None:
    """Run at the top speed and wait until the trace is played to its end."""
    page.select_option("[data-testid=option-flow]", flow)
    page.select_option("[data-testid=algorithm]", algorithm)
    page.fill("[data-testid=speed]", "1000")  # the trace at max speed
    page.locator("[data-testid=speed]").dispatch_event("change")
    page.click("[data-testid=run]")
    at_end(page)


def step_to(page, target: int) -> None:
    """Put the search trace's playhead at `target` records (keys: Home, then → steps)."""
    page.keyboard.press("Home")
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    assert position(page)[0] == target
    page.wait_for_function("() => document.querySelector('[data-testid=canvas]').dataset.animating !== '1'")


def replay_done(page, steps: int) -> None:
    """The solution has played by itself to the water (every turn, then the flow), and rests."""
    page.wait_for_function(
        "n => document.querySelector('[data-testid=replay-position]').textContent === `${n} / ${n}`"
        " && document.querySelector('[data-testid=canvas]').dataset.animating !== '1'",
        arg=steps, timeout=30_000,
    )


@pytest.fixture
def seed():
    assert SEED.exists(), f"the seed's board is missing: {SEED}"
    return SEED


def check_answer(page, expected: dict) -> None:
    """Cost, turns and tiles on the page equal the CLI's; the replay lists its turns and the water."""
    assert expected["found"], expected
    cost = expected["cost"]
    assert int(text(page, "cost")) == cost
    assert int(text(page, "path-length")) == len(expected["path"])
    # The state expanded last is the drain's: its g decodes to the solution's turns and tiles.
    assert int(text(page, "figure-turns")) == cost
    assert int(text(page, "figure-tiles")) == expected["tiles"]
    assert "(3, 3)" in text(page, "view-figures")  # "Rotation of (3, 3)": the drain
    steps = len(expected["moves"]) + 1  # each turned tile, then the water
    replay_done(page, steps)
    assert page.locator("[data-testid=moves] [data-testid=move]").count() == steps
    assert int(text(page, "total-turns")) == cost
    assert int(text(page, "turned-tiles")) == len(expected["moves"])
    assert int(text(page, "water-tiles")) == expected["tiles"]
    data = canvas_data(page)
    assert data["water"] == "1", data  # the water has flowed all the way
    assert data["markers"] == "0", data  # the replay shows the solution, not the search


def test_seed_board_dijkstra_astar_and_free_flow(page, seed):
    upload(page, seed)
    assert text(page, "maze-size") == "4 × 4 tiles"
    assert page.locator("[data-testid=option-flow]").is_visible()
    assert page.input_value("[data-testid=option-flow]") == "downhill"
    algorithms = page.eval_on_selector_all("[data-testid=algorithm] option", "os => os.map(o => o.value)")
    assert {"dijkstra", "astar"} <= set(algorithms), algorithms
    idle = canvas_data(page)
    assert idle["markers"] == "0" and idle["current"] == "", idle  # no search yet: pipes only
    shot(page, "start")

    # Dijkstra, downhill: the page's answer is the CLI's.
    expected = cli("dijkstra", "downhill")
    run(page, "dijkstra", "downhill")
    assert "Dijkstra" in text(page, "run-caption") and "downhill flow" in text(page, "run-caption")
    check_answer(page, expected)
    records = position(page)[1]

    # Mid-search: four markers per turnable tile (one for each distinct rotation), the frontier in
    # its colour, the expanded state's tile ringed and drawn turned, the water's route up to it.
    step_to(page, records // 2)
    data = canvas_data(page)
    assert int(data["markers"]) >= 16, data
    assert int(data["open"]) > 0 and int(data["closed"]) > 0, data
    assert data["current"] != "", data
    assert int(data["route"]) >= 2, data  # its water's route so far, from the source, is drawn
    assert pixels_of(page, FRONTIER_RGB) > 20
    assert int(text(page, "expanded")) == int(data["closed"])  # every expansion has its marker
    assert text(page, "figure-turns").isdigit() and text(page, "figure-tiles").isdigit()
    assert text(page, "solution-wait") != "" and page.locator("[data-testid=solution-wait]").is_visible()
    shot(page, "dijkstra-mid")
    page.keyboard.press("End")  # back at the end: the solved board, the water in the pipes
    replay_done(page, len(expected["moves"]) + 1)

    # The replay's own controls: back one step (the last turn), forward again (the water).
    page.click("[data-testid=replay-prev]")
    moves = page.locator("[data-testid=moves] [data-testid=move]")
    assert "current" in (moves.nth(len(expected["moves"]) - 1).get_attribute("class") or "")
    assert canvas_data(page)["water"] == "0"
    page.click("[data-testid=replay-next]")
    replay_done(page, len(expected["moves"]) + 1)
    shot(page, "dijkstra-end")

    # A*, downhill: the same optimum, with fewer or as many expansions.
    expected_astar = cli("astar", "downhill")
    run(page, "astar", "downhill")
    assert "relaxed heuristic" in text(page, "run-caption")
    check_answer(page, expected_astar)
    assert expected_astar["cost"] == expected["cost"]
    assert int(text(page, "expanded")) == expected_astar["expanded"]

    # Changing the flow makes the shown run the previous one.
    page.select_option("[data-testid=option-flow]", "free")
    assert page.locator("[data-testid=stale-badge]").is_visible()

    # A*, free flow: the frames' snapshots shade the tiles the expanded state's water passes.
    expected_free = cli("astar", "free")
    run(page, "astar", "free")
    assert "free flow" in text(page, "run-caption")
    assert not page.locator("[data-testid=stale-badge]").is_visible()
    check_answer(page, expected_free)
    total = position(page)[1]
    step_to(page, total // 2)
    used = int(canvas_data(page)["used"])
    while used < 3 and position(page)[0] < total - 1:
        page.keyboard.press("ArrowRight")
        used = int(canvas_data(page)["used"])
    assert used >= 3, "no expanded state showed the tiles its water passes"
    shot(page, "free-mid")

    # Full HD, presentation mode: the board fills the screen, mid-search and at the end.
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.keyboard.press("f")
    page.wait_for_function("() => document.documentElement.classList.contains('presenting')")
    shot(page, "free-mid-presenting-1920")
    page.keyboard.press("End")
    replay_done(page, len(expected_free["moves"]) + 1)
    shot(page, "free-end-presenting-1920")
    page.keyboard.press("f")
