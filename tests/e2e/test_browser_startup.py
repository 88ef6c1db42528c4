"""The page takes a file at the first instant: chosen before its script runs, or before its set-up
requests have returned, the user's maze is opened (and searched), never replaced by the gallery's
default. Each moment is made certain by holding back one response with Playwright's routing."""

from __future__ import annotations

import threading

import pytest

from tests.e2e.pages import BROWSER_TEST, MAZE3, at_end, next_frame, status_is

pytestmark = BROWSER_TEST


def _held(tab, pattern: str) -> threading.Event:
    """Hold every response whose URL matches `pattern` until the returned event is set."""
    release = threading.Event()
    held = []

    def hold(route):
        held.append(route)

    tab.route(pattern, hold)

    def let_go() -> None:
        for route in held:
            route.continue_()
        tab.unroute(pattern)

    release.let_go = let_go  # type: ignore[attr-defined]
    release.held = held  # type: ignore[attr-defined]
    return release


def _open_tab(browser, console):
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    tab = ctx.new_page()
    tab.set_default_timeout(60_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    return ctx, tab


def _solves_maze3_with_bfs(tab) -> None:
    tab.wait_for_function(
        "() => document.querySelector('[data-testid=puzzle-name]').textContent === 'maze3'"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'"
    )
    # Nothing replaces it afterwards (the gallery's default was what used to).
    tab.wait_for_timeout(1500)
    assert tab.text_content("[data-testid=puzzle-name]") == "maze3"
    assert tab.locator("[data-testid=gallery] button.active").count() == 0
    assert tab.text_content("[data-testid=error]") == ""
    tab.select_option("[data-testid=algorithm]", "bfs")
    tab.click("[data-testid=preset-instant]")
    tab.click("[data-testid=run]")
    at_end(tab)
    assert tab.text_content("[data-testid=cost]") == "52"


@pytest.mark.parametrize("moment", ["before-the-script", "before-set-up"])
def test_a_file_chosen_at_the_first_instant_is_the_one_opened(browser, server_url, console, moment):
    ctx, tab = _open_tab(browser, console)
    try:
        # Before the script: the page's module is held back, so the file picker is on the page with
        # no listener yet. Before set-up: the script runs, but the server's families are held back.
        pattern = "**/static/js/app.js" if moment == "before-the-script" else "**/api/families"
        held = _held(tab, pattern)
        tab.goto(server_url, wait_until="commit")
        tab.wait_for_selector("[data-testid=upload]", state="attached")
        if moment == "before-set-up":
            while not held.held:  # the script has run and asked for the families
                tab.wait_for_timeout(50)
        tab.set_input_files("[data-testid=upload]", str(MAZE3))
        tab.wait_for_timeout(300)
        if moment == "before-set-up":
            # Waiting for set-up, the page says it is busy with the file rather than ready.
            next_frame(tab)
            assert tab.text_content("[data-testid=status]") == "parsing…"
        assert held.held, f"nothing matched {pattern}: the test did not hold the moment it means to"
        held.let_go()
        _solves_maze3_with_bfs(tab)
        status_is(tab, "done")
    finally:
        ctx.close()
    assert not console.unexpected(), console.unexpected()
