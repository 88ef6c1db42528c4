"""The page in a real headless Chromium: upload, gallery, run, player, errors, picking endpoints."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.e2e.pages import (
    ARTIFACTS,
    BROWSER_TEST,
    bfs_distance,
    canvas_hash,
    cell_point,
    next_frame,
    open_gallery,
    run_to_end,
    upload,
)

pytestmark = BROWSER_TEST

PATH_RGB = (0xD5, 0x5E, 0x00)  # Okabe–Ito vermillion, the path colour (static/js/colors.js)

STATUS = "[data-testid=status]"


# ---- helpers -----------------------------------------------------------------------------------

def count_pixels(page, rgb: tuple[int, int, int], tolerance: int = 20) -> int:
    """How many canvas pixels are within `tolerance` of `rgb` (per channel)."""
    return page.evaluate(
        """([r, g, b, tol]) => {
          const c = document.querySelector('[data-testid=canvas]');
          const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
          let n = 0;
          for (let i = 0; i < d.length; i += 4) {
            const near = Math.abs(d[i] - r) <= tol && Math.abs(d[i + 1] - g) <= tol;
            if (near && Math.abs(d[i + 2] - b) <= tol) n++;
          }
          return n;
        }""",
        [*rgb, tolerance],
    )


def click_cell(page, row: int, col: int, shift: bool = False) -> None:
    """Click the centre of a cell, using the view transform the renderer publishes on the canvas."""
    next_frame(page)  # a banner that came or went may have resized and refitted the board
    page.mouse.move(*cell_point(page, row, col))
    if shift:
        page.keyboard.down("Shift")
    page.mouse.down()
    page.mouse.up()
    if shift:
        page.keyboard.up("Shift")


# ---- tests -------------------------------------------------------------------------------------

def test_upload_maze3_bfs_finds_cost_52_and_draws_the_path(page, maze3):
    upload(page, maze3)
    before = count_pixels(page, PATH_RGB)
    run_to_end(page, "bfs")
    assert page.text_content("[data-testid=cost]") == "52"
    assert page.text_content("[data-testid=expanded]").isdigit()
    assert "optimal" in page.text_content("[data-testid=optimal]")
    after = count_pixels(page, PATH_RGB)
    # 53 path cells of ~20 x 20 screen pixels each; before the run only the goal marker is vermillion.
    assert after > 3000 and after > 5 * before, (before, after)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "maze3-bfs-done.png"))


def test_stop_cancels_the_run_and_the_status_line_says_so(page, maze3):
    """Stop: the Stage stops its run and says "cancelled"; the page shows that, hides Stop, and runs again."""
    upload(page, maze3)
    # Run and Stop in one task: the run is stopped while it is still starting, whatever the machine's load.
    page.evaluate("() => { document.querySelector('[data-testid=run]').click();"
                  " document.querySelector('[data-testid=cancel]').click(); }")
    assert page.text_content(STATUS) == "cancelled"
    assert page.locator("[data-testid=cancel]").is_hidden()
    page.wait_for_timeout(500)  # nothing of the stopped run arrives to say otherwise
    assert page.text_content(STATUS) == "cancelled"
    run_to_end(page, "bfs")
    assert page.text_content("[data-testid=cost]") == "52"


def test_gallery_loads_and_runs_a_maze(page):
    open_gallery(page)
    buttons = page.locator("[data-testid=gallery] button")
    assert buttons.count() >= 1, "the gallery is empty"
    last = buttons.nth(buttons.count() - 1)
    title = last.locator("span").first.text_content()
    assert title
    last.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=gallery] button.active') !== null"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'"
    )
    assert page.text_content("[data-testid=puzzle-name]") == title  # the header shows the title, not the id
    run_to_end(page, "astar")
    cost = page.text_content("[data-testid=cost]")
    assert cost.replace(".", "", 1).isdigit(), cost
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "gallery-astar-done.png"))


def bad_files(tmp_path, maze3):
    """Each bad input of the issue, with words its error message must contain."""
    fake = tmp_path / "not-really.png"
    fake.write_text("this is a text file wearing a .png name\n")
    truncated = tmp_path / "truncated.png"
    truncated.write_bytes(maze3.read_bytes()[: len(maze3.read_bytes()) // 2])
    black = tmp_path / "all-black.png"
    Image.new("L", (30, 20), 0).save(black)
    return [(fake, "not an image"), (truncated, "truncated"), (black, "no free")]


@pytest.mark.parametrize("case", [0, 1, 2], ids=["text-named-png", "truncated-png", "no-free-pixel"])
def test_bad_upload_shows_a_plain_error_and_the_page_keeps_working(page, maze3, tmp_path, console, case):
    console.allow(r"Failed to load resource: the server responded with a status of 4\d\d")
    bad, words = bad_files(tmp_path, maze3)[case]
    page.set_input_files("[data-testid=upload]", str(bad))
    error = page.locator("[data-testid=error]")
    error.wait_for(state="visible")
    message = error.text_content()
    assert message.strip(), "the error element is empty"
    assert words in message and bad.name in message, message
    assert "Traceback" not in message and "File \"" not in message
    # Plain words: the file's name once, no library or exception class names.
    assert message.count(bad.name) == 1, message
    assert "Pillow" not in message and "Error:" not in message, message
    assert page.text_content(STATUS) != "parsing…"
    # The page still works: a valid upload succeeds and clears the error.
    upload(page, maze3)
    assert not error.is_visible()
    run_to_end(page, "bfs")
    assert page.text_content("[data-testid=cost]") == "52"


def test_step_back_and_forward_change_the_canvas(page, maze3):
    upload(page, maze3)
    empty = canvas_hash(page)
    run_to_end(page, "bfs")
    end = canvas_hash(page)
    assert end != empty
    for _ in range(10):
        page.click("[data-testid=step-back]")
    next_frame(page)
    back = canvas_hash(page)
    assert back != end, "stepping back did not change the board"
    for _ in range(10):
        page.click("[data-testid=step]")
    next_frame(page)
    assert canvas_hash(page) == end, "stepping forward again did not restore the board"
    # Scrubbing to the start shows the untouched maze again.
    page.fill("[data-testid=scrub]", "0")
    next_frame(page)
    next_frame(page)
    assert page.text_content("[data-testid=position]").startswith("0 /")
    assert canvas_hash(page) == empty


AMBIGUOUS = [
    "#.#####.#",
    "#.......#",
    "#.#####.#",
    "#.#...#.#",
    "#.#.#.#.#",
    "#...#...#",
    "####.####",
]


def test_pick_start_and_goal_on_an_ambiguous_maze(page, tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    path = tmp_path / "two-openings.png"
    image = image_module.new("RGB", (len(AMBIGUOUS[0]), len(AMBIGUOUS)))
    for r, line in enumerate(AMBIGUOUS):
        for c, ch in enumerate(line):
            image.putpixel((c, r), (0, 0, 0) if ch == "#" else (255, 255, 255))
    image.save(path)

    upload(page, path)
    banner = page.locator("[data-testid=endpoint-problem]")
    assert banner.is_visible(), "the page does not say that the start is ambiguous"
    assert "start" in banner.text_content()

    start, goal = (1, 1), (5, 7)
    click_cell(page, *start)
    click_cell(page, *goal, shift=True)
    picked = page.text_content("[data-testid=picked]")
    assert "start (1, 1)" in picked and "goal (5, 7)" in picked, picked
    assert not banner.is_visible()

    run_to_end(page, "bfs")
    assert page.text_content("[data-testid=cost]") == str(bfs_distance(AMBIGUOUS, start, goal))


def test_options_form_is_built_from_the_schema(page, maze3):
    upload(page, maze3)
    shown = lambda name: page.locator(f"[data-testid=option-{name}]").is_visible()  # noqa: E731
    page.select_option("[data-testid=algorithm]", "bfs")
    assert shown("diagonal") and not shown("heuristic") and not shown("weight")
    page.select_option("[data-testid=algorithm]", "astar")
    assert shown("heuristic") and shown("weight")
    # A change of move rule selects the heuristic recommended for it.
    page.check("[data-testid=option-diagonal]")
    assert page.input_value("[data-testid=option-heuristic]") == "octile"
    page.uncheck("[data-testid=option-diagonal]")
    assert page.input_value("[data-testid=option-heuristic]") == "manhattan"
    page.check("[data-testid=option-diagonal]")
    # Typed values go to the server (which refuses a wrong type): the run completes with them.
    page.fill("[data-testid=option-weight]", "2")
    run_to_end(page, "astar")
    title = page.get_attribute("[data-testid=optimal]", "title")
    assert title == "A* · octile heuristic, weight 2 · 8 directions, no corner cutting", title


def test_the_page_works_under_its_content_security_policy(browser, server_url, console, maze3):
    """A tab with the CSP in force (no bypass): upload, run, done, and no violation reported."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1366, "height": 768})
    tab = context.new_page()
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    tab.add_init_script(
        "window.__csp = []; document.addEventListener('securitypolicyviolation',"
        " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    answer = tab.goto(server_url)
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    assert answer.headers["x-content-type-options"] == "nosniff"
    status = tab.locator("[data-testid=status]")
    expect(status).to_have_text("ready", timeout=60_000)
    tab.set_input_files("[data-testid=upload]", str(maze3))
    expect(tab.locator("[data-testid=puzzle-name]")).to_have_text("maze3")
    expect(status).to_have_text("ready")
    tab.select_option("[data-testid=algorithm]", "astar")
    tab.fill("[data-testid=speed]", "1000")
    tab.click("[data-testid=run]")
    expect(status).to_have_text("done", timeout=60_000)
    expect(tab.locator("[data-testid=cost]")).to_have_text("52")
    assert tab.evaluate("window.__csp") == []
    assert console.errors == []
    context.close()
