"""The address bar follows the page (static/js/shell/address.js), in the share links' format: a
reload after an upload and a run shows the same puzzle, algorithm and step; the comparison is a
history entry of its own (Back returns to the single view, Forward to the comparison); a gallery
puzzle's address opened in a new tab shows that puzzle; an upload the server no longer holds is said
in words and the default puzzle shown."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tests.e2e.pages import (
    BROWSER_TEST,
    choose_gallery,
    next_frame,
    position,
    run_to_end,
    status_is,
    text,
    upload,
)

pytestmark = BROWSER_TEST

COMPARE = "[data-testid=compare-view]"
ERROR = "[data-testid=error]"


def query(page) -> dict[str, str]:
    """The page's address parameters (one value each), from the page itself (Playwright's page.url may
    lag behind a replaceState)."""
    url = page.evaluate("() => location.href")
    return {name: values[0] for name, values in parse_qs(urlsplit(url).query).items()}


def wait_for_address(page, **expected: str | None) -> None:
    """Wait until the address has these parameters (None: absent): it follows the page soon, not at once."""
    page.wait_for_function(
        """expected => {
            const params = new URLSearchParams(location.search);
            return Object.entries(expected).every(([name, value]) => params.get(name) === value);
        }""",
        arg=expected,
    )


def shown(page, name: str) -> None:
    """Wait until the page shows the puzzle `name`, ready."""
    page.wait_for_function(
        "name => document.querySelector('[data-testid=puzzle-name]').textContent === name"
        " && document.querySelector('[data-testid=status]').textContent !== 'loading'",
        arg=name,
    )


def test_a_reload_after_an_upload_and_a_run_shows_the_same_puzzle_algorithm_and_step(page, maze3):
    upload(page, maze3)
    total = run_to_end(page, "bfs")
    page.click("[data-testid=first]")
    for _ in range(3):
        page.keyboard.press("Shift+ArrowRight")
    assert position(page)[0] == 30
    puzzle = page.evaluate("() => document.body.dataset.puzzleId")
    wait_for_address(page, puzzle=puzzle, algorithm="bfs", at="30", gallery=None)

    page.reload()
    shown(page, "maze3")
    status_is(page, "done")
    page.wait_for_function(
        "t => document.querySelector('[data-testid=position]').textContent === t", arg=f"30 / {total:,}"
    )
    assert page.input_value("[data-testid=algorithm]") == "bfs"
    assert page.evaluate("() => document.body.dataset.puzzleId") == puzzle
    assert not page.is_visible(ERROR)


def test_back_leaves_the_comparison_for_the_single_view_and_forward_returns(page):
    choose_gallery(page, "seed-lee-example")
    wait_for_address(page, gallery="seed-lee-example")
    page.click("[data-testid=compare]")
    page.locator(COMPARE).wait_for(state="visible")
    wait_for_address(page, gallery="seed-lee-example", compare="1")

    page.go_back()
    page.locator(COMPARE).wait_for(state="hidden")
    assert page.is_visible("[data-testid=canvas]")
    assert text(page, "puzzle-name") == "Lee's wavefront example"
    assert "compare" not in query(page)

    page.go_forward()
    page.locator(COMPARE).wait_for(state="visible")
    assert query(page).get("compare") == "1"


def test_back_returns_to_the_puzzle_opened_before(page, maze3):
    choose_gallery(page, "seed-lee-example")
    wait_for_address(page, gallery="seed-lee-example")
    upload(page, maze3)
    wait_for_address(page, gallery=None, puzzle=page.evaluate("() => document.body.dataset.puzzleId"))
    page.go_back()
    shown(page, "Lee's wavefront example")
    assert query(page).get("gallery") == "seed-lee-example"
    page.go_forward()
    shown(page, "maze3")


def test_a_gallery_puzzles_address_opens_it_in_a_new_tab(page, server_url):
    choose_gallery(page, "sliding-aima-3-28")
    page.select_option("[data-testid=algorithm]", "astar")
    wait_for_address(page, gallery="sliding-aima-3-28", algorithm="astar")
    name = text(page, "puzzle-name")
    tab = page.context.new_page()
    tab.goto(page.evaluate("() => location.href"))
    shown(tab, name)
    status_is(tab, "ready")
    assert tab.input_value("[data-testid=algorithm]") == "astar"
    # The tab opened on that address: another puzzle opened there is a new entry, and Back returns.
    choose_gallery(tab, "seed-lee-example")
    wait_for_address(tab, gallery="seed-lee-example")
    tab.go_back()
    shown(tab, name)
    tab.close()


def test_the_drawer_beside_the_board_is_in_the_address(page):
    page.click("[data-testid=explain]")
    wait_for_address(page, drawer="explain")
    page.reload()
    status_is(page, "ready")
    page.locator("[data-testid=explain-panel]").wait_for(state="visible")
    page.click("[data-testid=explain]")
    wait_for_address(page, drawer=None)


def test_an_upload_the_server_no_longer_holds_is_said_and_the_default_shown(page, server_url, console):
    console.allow(r"Failed to load resource: the server responded with a status of 404")
    page.goto(f"{server_url}/?puzzle=0123456789abcdef0123&algorithm=bfs")
    page.locator(ERROR).wait_for(state="visible")
    assert "no longer holds" in page.text_content(ERROR)
    shown(page, "Lee's wavefront example")
    next_frame(page)
    wait_for_address(page, gallery="seed-lee-example", puzzle=None)
    assert page.is_visible(ERROR)
    assert "The default puzzle is shown instead." in page.text_content(ERROR)



def test_the_comparisons_panels_are_in_the_address_and_a_reload_keeps_them(page):
    choose_gallery(page, "seed-lee-example")
    page.click("[data-testid=compare]")
    page.locator(COMPARE).wait_for(state="visible")
    page.click("[data-testid=compare-add]")
    panels = page.locator("[data-testid=panel-algorithm]")
    panels.nth(2).select_option("dfs")
    wait_for_address(page, compare="1", panels="bfs,astar,dfs")
    page.reload()
    page.locator(COMPARE).wait_for(state="visible")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=panel-algorithm]').length === 3")
    assert [panels.nth(k).input_value() for k in range(3)] == ["bfs", "astar", "dfs"]
    assert text(page, "status") == "ready", "the comparison is not run again: Run all waits"
    page.go_back()  # the reload kept the history: Back still leaves the comparison
    page.locator(COMPARE).wait_for(state="hidden")
