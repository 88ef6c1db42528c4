"""One transport bar for any clock: the single view's bar and the comparison's are built from the same
list of controls (static/js/playback/transport_bar.js), in the same order, and each control drives
its own clock — the −10/+10 buttons included, which the single view gained from that list."""

from __future__ import annotations

from tests.e2e.pages import BROWSER_TEST, position, run_to_end, status_is, upload

pytestmark = BROWSER_TEST

LABELS = ("sel => [...document.querySelectorAll(sel + ' .player > button')]"
          ".map(b => b.getAttribute('aria-label'))")


def test_both_bars_have_the_same_controls_and_each_drives_its_clock(page, maze3):
    upload(page, maze3)
    total = run_to_end(page, "bfs")
    single = page.evaluate(LABELS, "#bar")
    # −10 is named by what it shows (WCAG 2.5.3), then what it does
    assert single[:3] == ["First step", "−10 Ten steps back", "One step back"], single
    page.click("[data-testid=first]")
    page.click("[data-testid=step10]")
    page.click("[data-testid=step10]")
    page.click("[data-testid=step-back]")
    assert position(page) == (19, total)
    page.click("[data-testid=back10]")
    assert position(page) == (9, total)

    page.click("[data-testid=compare]")
    page.click("[data-testid=run]")
    status_is(page, "done")
    compare = page.evaluate(LABELS, ".cmp-bar")
    assert compare == single
    page.click("[data-testid=compare-first]")
    page.click("[data-testid=compare-step10]")
    page.click("[data-testid=compare-step]")
    assert page.text_content("[data-testid=compare-position]").startswith("step 11 / ")
    page.keyboard.press("Shift+ArrowLeft")  # the keys drive the clock in front: the comparison's
    assert page.text_content("[data-testid=compare-position]").startswith("step 1 / ")
