"""The board speaks (issue 32, static/js/board/): a polite live region says what the step at the
playhead did — the state, what happened to it, its g (and h for A*), the frontier — in full at each
step, at most every few seconds while playing, and the verdict at the end; in the page's language.
The canvas has a text alternative (the puzzle, its size, start and goal)."""

from __future__ import annotations

import itertools
import re

from playwright.sync_api import expect

from tests.e2e.pages import BROWSER_TEST, next_frame, shooter

pytestmark = BROWSER_TEST

LIVE = "[data-testid=board-live]"
shot = shooter("live-region")


def live(page) -> str:
    return page.locator(LIVE).text_content().replace("\u200b", "")


def run_astar_to_end(page, found: str) -> None:
    """A* on the board at full speed, until the verdict is said (`found`: its first words)."""
    page.select_option("[data-testid=algorithm]", "astar")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    expect(page.locator(LIVE)).to_contain_text(found, timeout=120_000)


def step_texts(page, steps: int) -> list[str]:
    """Home, then → `steps` times: what the live region says after each."""
    page.keyboard.press("Home")
    next_frame(page)
    said = []
    for _ in range(steps):
        page.keyboard.press("ArrowRight")
        next_frame(page)
        said.append(live(page))
    return said


def check_live_region(page, step: str, expanded: str, frontier: str) -> None:
    region = page.locator(LIVE)
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
    assert page.evaluate("() => document.activeElement.id") == "board", "Run gives the board the keys"
    said = step_texts(page, 6)
    for n, (before, after) in enumerate(itertools.pairwise(said), start=2):
        assert before != after, f"→ changes the live text ({before!r})"
        assert after.startswith(f"{step} {n}: "), after
    pattern = re.compile(rf"^{step} \d+: \(\d+, \d+\) {expanded}, g \d+, h \d+; \d+ {frontier}$")
    assert any(pattern.match(s) for s in said), said
    assert all(re.search(r"\(\d+, \d+\) .*g \d+", s) for s in said), "every step names its state and g"


def test_stepping_says_the_state_and_its_g_in_english(page):
    label = page.get_attribute("[data-testid=canvas]", "aria-label")
    assert re.match(r"^Maze “.+”, \d+ × \d+ cells, start \(\d+, \d+\), goal \(\d+, \d+\)$", label), label
    assert page.get_attribute("[data-testid=canvas]", "role") == "img"
    run_astar_to_end(page, "Path found: cost")
    assert "optimal" in live(page)
    check_live_region(page, "Step", "expanded", "in the frontier")
    description = page.text_content("[data-testid=board-description]")
    assert "Shown: step 6 of" in description and description.startswith("Maze “")
    shot(page, "english")

    # Playing: at most one sentence every few seconds.
    page.click("[data-testid=preset-slow]")
    page.evaluate(
        "() => { window.__said = 0; new MutationObserver(() => window.__said++)"
        ".observe(document.querySelector('[data-testid=board-live]'),"
        " {childList: true, characterData: true, subtree: true}); }"
    )
    page.keyboard.press("Space")
    page.wait_for_timeout(2500)
    page.keyboard.press("Space")
    assert page.evaluate("() => window.__said") <= 2, "throttled while playing"


def test_stepping_speaks_german_in_a_german_browser(browser, server_url):
    context = browser.new_context(locale="de-DE", viewport={"width": 1366, "height": 768}, bypass_csp=True)
    try:
        tab = context.new_page()
        tab.set_default_timeout(120_000)
        # The browser's language decides; ?lang=de too, as a share link would, while the page's
        # template still says <html lang="en"> (the language menu's part of issue 32).
        tab.goto(f"{server_url}/?lang=de")
        canvas = tab.locator("[data-testid=canvas]")
        expect(canvas).to_have_attribute("aria-label", re.compile(r"^Labyrinth „"))
        label = canvas.get_attribute("aria-label")
        german = r"^Labyrinth „.+“, \d+ × \d+ Zellen, Start \(\d+, \d+\), Ziel \(\d+, \d+\)$"
        assert re.match(german, label), label
        run_astar_to_end(tab, "Pfad gefunden: Kosten")
        check_live_region(tab, "Schritt", "expandiert", "in der Frontier")
        said = live(tab)
        for english in ("Step", "expanded", "generated", "frontier", "in the"):
            assert english not in said, said
        shot(tab, "german")
    finally:
        context.close()
