"""The "New…" dialog in a real browser: every generator kind makes a board that a search solves, its
file (Export ▸ Board file) uploads again as the same puzzle, the grid's making is animated and ends
on exactly the board, and the server's refusal of an option shows in the dialog."""

from __future__ import annotations

import re

import pytest

from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, at_end, next_frame, status_is, upload

pytestmark = BROWSER_TEST

GRID_KINDS = ["perfect", "prim", "kruskal", "division", "braid", "rooms", "random", "terrain"]
CANVAS = "() => document.querySelector('[data-testid=canvas]').toDataURL()"
NAME_ENDS = "tail => document.querySelector('[data-testid=puzzle-name]').textContent.endsWith(tail)"
CLEAR_NAME = "() => { document.querySelector('[data-testid=puzzle-name]').textContent = ''; }"
OTHER_FAMILIES = [("step", "step"), ("zenji", "zenji-downhill"), ("labyrinth", "labyrinth-course")]
CELLS = """async id => {
  const answer = await fetch(`/api/puzzles/${id}/cells`);
  return Array.from(new Uint8Array(await answer.arrayBuffer()));
}"""


def open_dialog(page) -> None:
    page.click("[data-testid=open-generate]")
    page.locator("[data-testid=generate-dialog]").wait_for(state="visible")


def fill_dialog(page, kind: str, family: str | None = None, rows: int = 8, cols: int = 10, seed: int = 3,
                animate: bool | None = False) -> None:
    open_dialog(page)
    if family:
        page.select_option("[data-testid=generate-family]", family)
    page.select_option("[data-testid=generate-kind]", kind)
    page.fill("[data-testid=generate-rows]", str(rows))
    page.fill("[data-testid=generate-cols]", str(cols))
    page.fill("[data-testid=generate-seed]", str(seed))
    if animate is not None and page.is_visible("[data-testid=generate-animate]"):
        page.set_checked("[data-testid=generate-animate]", animate)


def generate(page, kind: str, family: str | None = None, seed: int = 3, **fields) -> dict:
    """Make a puzzle through the dialog; wait until it is shown. Returns the server's answer."""
    fill_dialog(page, kind, family, seed=seed, **fields)
    page.evaluate(CLEAR_NAME)  # the same title shown again is then seen as a new load
    with page.expect_response(lambda r: r.url.endswith("/api/generate")) as answer:
        page.click("[data-testid=generate-go]")
    assert answer.value.status == 201, answer.value.text()
    info = answer.value.json()
    page.wait_for_function(NAME_ENDS, arg=f"seed {seed}")
    status_is(page, "ready")
    assert not page.is_visible("[data-testid=generate-dialog]")
    next_frame(page)
    return info


def solve(page, algorithm: str | None = None) -> float:
    """Run the search (the menu's choice unless named), jump to its end; the path's cost."""
    if algorithm:
        page.select_option("[data-testid=algorithm]", algorithm)
    page.click("[data-testid=run]")
    status_is(page, "done")
    page.click("[data-testid=last]")
    at_end(page)
    cost = page.text_content("[data-testid=cost]").replace(",", "")
    assert re.fullmatch(r"\d+(\.\d+)?", cost), f"no path found: cost {cost!r}"
    return float(cost)


def families(page) -> dict:
    return {f["name"]: f for f in page.evaluate("() => fetch('/api/families').then(r => r.json())")}


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_each_grid_kind_is_solved_and_its_file_opens_as_the_same_puzzle(page, kind, tmp_path):
    made = generate(page, kind)
    title = page.text_content("[data-testid=puzzle-name]")
    assert " · 8 × 10 · " in title and title.endswith(" · seed 3"), title
    assert made["generated"]["description"] in page.text_content("[data-testid=notes]")
    solve(page, "bfs")

    fmt = families(page)["grid"]["formats"][0]
    page.click("[data-testid=export-menu]")
    with page.expect_download() as download:
        page.click(f"[data-testid=download-board-{fmt}]")
    saved = tmp_path / download.value.suggested_filename
    assert saved.suffix == f".{fmt}" and "seed_3" in saved.stem, saved.name
    download.value.save_as(saved)

    uploading = lambda r: r.url.endswith("/api/puzzles") and r.request.method == "POST"  # noqa: E731
    with page.expect_response(uploading) as answer:
        upload(page, saved)
    uploaded = answer.value.json()
    assert uploaded["id"] == made["id"], "the downloaded file is not the generated puzzle"
    assert page.evaluate(CELLS, uploaded["id"]) == page.evaluate(CELLS, made["id"])


def test_the_making_is_animated_and_ends_on_exactly_the_board(page):
    generate(page, "prim", rows=20, cols=20, seed=7, animate=False)
    assert "making" not in page.evaluate("() => ({...document.body.dataset})")
    still = page.evaluate(CANVAS)
    assert page.text_content("[data-testid=puzzle-name]") == "Perfect maze (Prim) · 20 × 20 · seed 7"

    generate(page, "prim", rows=20, cols=20, seed=7, animate=True)
    assert page.evaluate("() => document.body.dataset.making") == "1"
    page.wait_for_timeout(400)
    assert page.evaluate(CANVAS) != still, "nothing is being made on the board"
    page.wait_for_function("() => !document.body.dataset.making", timeout=10_000)
    next_frame(page)
    assert page.evaluate(CANVAS) == still, "the animation did not end on the generated board"

    # A key press skips to the end at once.
    generate(page, "prim", rows=20, cols=20, seed=7, animate=True)
    assert page.evaluate("() => document.body.dataset.making") == "1"
    page.keyboard.press("Shift")
    page.wait_for_function("() => !document.body.dataset.making", timeout=1_000)
    next_frame(page)
    assert page.evaluate(CANVAS) == still

    # So does Run: the search starts on the finished board.
    generate(page, "prim", rows=20, cols=20, seed=7, animate=True)
    page.evaluate("() => document.querySelector('[data-testid=run]').click()")
    page.wait_for_function("() => !document.body.dataset.making", timeout=1_000)
    solve(page)


def test_a_refused_option_is_shown_in_the_dialog(page, console):
    console.allow(r"status of 400")
    fill_dialog(page, "perfect", rows=5000)
    page.click("[data-testid=generate-go]")
    error = page.locator("[data-testid=generate-error]")
    error.wait_for(state="visible")
    assert error.get_attribute("role") == "alert"
    assert "rows" in error.text_content() and "1000" in error.text_content()
    assert page.is_visible("[data-testid=generate-dialog]")
    assert page.get_attribute("[data-testid=generate-rows]", "aria-invalid") == "true"
    assert page.text_content("[data-testid=puzzle-name]") != ""  # the page still shows its puzzle

    page.fill("[data-testid=generate-rows]", "6")
    page.evaluate(CLEAR_NAME)
    page.click("[data-testid=generate-go]")
    page.wait_for_function(NAME_ENDS, arg="seed 3")
    assert not page.is_visible("[data-testid=generate-dialog]")


def test_a_weighted_board_refused_as_png_says_why(page, console):
    console.allow(r"status of 400")
    generate(page, "terrain")
    page.click("[data-testid=export-menu]")
    page.click("[data-testid=download-board-png]")
    banner = page.locator("[data-testid=error]")
    banner.wait_for(state="visible")
    assert "weights" in banner.text_content(), banner.text_content()


@pytest.mark.parametrize(("family", "kind"), OTHER_FAMILIES)
def test_other_families_generate_boards_their_default_algorithm_solves(page, family, kind):
    fill_dialog(page, kind, family, rows=5, cols=5)
    assert not page.is_visible("[data-testid=generate-animate]"), "only the grid view animates the making"
    page.keyboard.press("Escape")
    made = generate(page, kind, family, rows=5, cols=5)
    assert made["family"] == family and made["generated"]["kind"] == kind
    solve(page)


def test_the_dialog_at_laptop_and_phone_sizes(browser, server_url, console):
    ARTIFACTS.mkdir(exist_ok=True)
    for name, width, height in (("laptop", 1366, 768), ("phone", 390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        tab = context.new_page()
        tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
        tab.goto(server_url)
        tab.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'ready'")
        fill_dialog(tab, "random", rows=30, cols=40, seed=12)
        tab.click("[data-testid=generate-random-seed]")
        seed = tab.input_value("[data-testid=generate-seed]")
        assert seed.isdigit() and seed != "12"
        box = tab.locator("[data-testid=generate-dialog]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
        go = tab.locator("[data-testid=generate-go]").bounding_box()
        assert go["y"] + go["height"] <= height, "Generate is off the screen"
        assert tab.is_visible("[data-testid=generate-density]")
        tab.screenshot(path=str(ARTIFACTS / f"generate-dialog-{name}.png"))
        tab.click("[data-testid=generate-go]")
        tab.wait_for_function(NAME_ENDS, arg=f"seed {seed}")
        tab.wait_for_function("() => !document.body.dataset.making", timeout=10_000)
        tab.click("[data-testid=export-menu]")
        tab.locator("[data-testid=download-board-txt]").wait_for(state="visible")
        tab.screenshot(path=str(ARTIFACTS / f"generate-export-{name}.png"))
        context.close()
