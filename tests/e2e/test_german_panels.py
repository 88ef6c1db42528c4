"""The side panels in German (issue 32): explain mode, the heuristic lab, Predict and the comparison,
opened in a German browser after a run of A* on maze3, show no English word of the page catalog in
their own text, and numbers with German marks (6.617.994, 0,8).

"No English word" as in test_german_page.py: a word (three letters or more) of the English page catalog
that the German catalog does not have, case-insensitively; names are allowed. Only the panels' own
elements are compared: words the server writes (algorithms' labels, the lab's feature meanings, the
runs' descriptions) and the family views' (state names) are translated by other helpers; the
assertions that depend on them are marked SERVER. A screenshot of each panel goes to test-artifacts/."""

from __future__ import annotations

import re

from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, LAB, next_frame, open_lab
from tests.e2e.test_german_page import english_words_in, german_tab, overflowing, run_to_end, upload_maze3

pytestmark = BROWSER_TEST

# A number grouped the English way (6,617,994) or a decimal point before one or two digits (0.8).
ENGLISH_NUMBER = re.compile(r"\d,\d{3}(?!\d)|(?<![\d.])\d+\.\d{1,2}(?![\d.])")


def text_of(tab, selector: str) -> str:
    return tab.evaluate("s => [...document.querySelectorAll(s)].map(n => n.innerText).join('\\n')", selector)


def shot(tab, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"german-{name}-1366.png"))


def check(text: str, what: str) -> None:
    left = english_words_in(text)
    assert left == [], f"English words in {what}: {left}\n{text}"
    assert not ENGLISH_NUMBER.search(text), f"an English number in {what}: {ENGLISH_NUMBER.search(text)}"


def test_explain_lab_and_predict_are_german(browser, server_url, console, maze3):
    context, tab = german_tab(browser, server_url, console)
    try:
        upload_maze3(tab, maze3)
        run_to_end(tab, "astar")

        # Explain mode at a step in the middle of the run: the sentence, the frontier, the code.
        tab.click("[data-testid=explain]")
        panel = tab.locator("[data-testid=explain-panel]")
        panel.wait_for(state="visible")
        tab.keyboard.press("Home")
        for _ in range(12):
            tab.keyboard.press("ArrowRight")
        next_frame(tab)
        assert "Schritt für Schritt" in tab.text_content("[data-testid=explain-title]")
        code = tab.locator("[data-testid=explain-code]")
        assert code.get_attribute("tabindex") == "0"
        assert code.get_attribute("aria-label") == "Der Code des Algorithmus"
        assert "Priorität: f = g + w·h" in code.inner_text()  # a comment translated, the code kept
        assert "heappush(frontier" in code.inner_text()
        # Code stays code (identifiers, keywords: "None", "add"); its comments are words for people.
        comments = [line.split("# ", 1)[1] for line in code.inner_text().splitlines() if "# " in line]
        check("\n".join(comments), "the code's comments")
        check(text_of(tab, "[data-testid=explain-title], [data-testid=explain-now]"
                      ", [data-testid=explain-note], .explain-next-title, [data-testid=explain-next] th"),
              "explain mode")
        # SERVER/P4: the state names and figures of the frontier table are the family view's.
        shot(tab, "explain")
        tab.click("[data-testid=explain]")

        # The lab: a formula judged, its verdict in German.
        open_lab(tab)
        tab.fill("[data-testid=lab-formula]", "dr + dc")
        tab.press("[data-testid=lab-formula]", "Enter")
        tab.locator("[data-testid=lab-headline]").wait_for(state="visible", timeout=60_000)
        headline = tab.text_content("[data-testid=lab-headline]")
        assert headline.startswith("Zulässig und konsistent"), headline
        assert "Kein Zustand überschätzt" in tab.text_content("[data-testid=lab-over]")
        check(text_of(tab, f"{LAB} .lab-form, {LAB} [data-testid=lab-verdict], {LAB} [data-testid=lab-legend]"
                      f", {LAB} .lab-actions, [data-testid=lab-tab-heuristic], [data-testid=lab-tab-check]"
                      f", {LAB} [data-testid=lab-features] > .muted"),  # P3: the "code" tab is the editor's
              "the lab")
        shot(tab, "lab")
        open_lab(tab, "check")
        check(text_of(tab, f"{LAB} [data-testid=lab-check]"), "the lab's check tab")
        # SERVER: the placeholder begins with the family's notation (the server's words); the rest is ours.
        placeholder = tab.get_attribute("[data-testid=check-input]", "placeholder") or ""
        assert placeholder.endswith("hier eingefügt."), placeholder
        tab.click("[data-testid=lab]")

        # Predict: on, a run, a question; its choices are buttons reached by keyboard.
        tab.click("[data-testid=predict]")
        exercise = tab.locator("[data-testid=exercise-panel]")
        exercise.wait_for(state="visible")
        tab.click("[data-testid=run]")
        question = tab.locator("[data-testid=exercise-question]")
        question.filter(has_text="Frage 1").wait_for(timeout=120_000)
        choices = tab.locator("[data-testid=exercise-choices] button")
        assert choices.count() > 0
        choices.first.focus()
        assert tab.evaluate("() => document.activeElement.closest('[data-testid=exercise-choices]') !== null")
        check(text_of(tab, "[data-testid=exercise-panel] .exercise-title"
                      ", [data-testid=exercise-panel] .exercise-head, [data-testid=exercise-question]"
                      ", [data-testid=exercise-note]"), "Predict")
        shot(tab, "predict")
        tab.keyboard.press("Enter")  # the focused choice answers
        tab.locator("[data-testid=exercise-feedback] > *").first.wait_for(timeout=30_000)
        feedback = tab.text_content("[data-testid=exercise-feedback]")
        assert "Richtig:" in feedback or "Nicht ganz:" in feedback, feedback
        check(feedback, "Predict's feedback")
        # SERVER/P4: the feedback names states in the family view's words and the algorithm by its label.
        tab.click("[data-testid=predict]")
    finally:
        context.close()
    assert not console.errors, console.errors


def test_the_comparison_is_german(browser, server_url, console, maze3):
    context, tab = german_tab(browser, server_url, console)
    try:
        upload_maze3(tab, maze3)
        tab.click("[data-testid=compare]")
        tab.locator("[data-testid=compare-view]").wait_for(state="visible")
        assert tab.text_content("[data-testid=compare-leave]") == "← Ein Algorithmus"
        tab.click("[data-testid=run]")
        tab.locator("[data-testid=compare-position]").wait_for()
        tab.wait_for_function("() => document.querySelector('[data-testid=status]').textContent === 'fertig'",
                              timeout=120_000)
        tab.keyboard.press("End")
        tab.locator("[data-testid=compare-table]").wait_for(state="visible", timeout=60_000)
        next_frame(tab)
        head = text_of(tab, "[data-testid=compare-table] thead")
        assert "Expandiert" in head and "Kosten" in head and "Optimal erreicht" in head
        check(text_of(tab, "[data-testid=compare-table] thead, [data-testid=compare-best], .cmp-results h2"
                      ", [data-testid=compare-chart-legend] ~ *, [data-testid=compare-leave]"
                      ", [data-testid=compare-add]"),
              "the comparison's table")
        figures = text_of(tab, "[data-testid=panel-figures] .fig-label")
        assert "Expandiert" in figures, figures
        check(figures, "the panels' figures")
        # The figures of the table: German groups (the expansions of BFS on maze3 pass a thousand).
        cells = text_of(tab, "[data-testid=compare-table] td.num")
        assert not ENGLISH_NUMBER.search(cells), cells
        # The step buttons' names contain their visible text (WCAG 2.5.3).
        for button in tab.locator("[data-testid=compare-view] .cmp-bar button").all():
            shown = (button.inner_text() or "").strip()
            name = button.get_attribute("aria-label") or shown
            assert shown in name, (shown, name)
        shot(tab, "compare")
        assert not overflowing(tab), overflowing(tab)
        # SERVER: the panels' captions (the runs' descriptions) and the algorithm menus are the server's.
    finally:
        context.close()
    assert not console.errors, console.errors


def test_a_switch_of_language_rewrites_the_panels(browser, server_url, console, maze3):
    """The menu switches explain mode's sentence and code comments and the lab's verdict without a reload."""
    context, tab = german_tab(browser, server_url, console)
    try:
        upload_maze3(tab, maze3)
        run_to_end(tab, "astar")
        tab.click("[data-testid=explain]")
        tab.locator("[data-testid=explain-panel]").wait_for(state="visible")
        tab.keyboard.press("Home")
        for _ in range(12):
            tab.keyboard.press("ArrowRight")
        next_frame(tab)
        assert tab.text_content("[data-testid=explain-now]").startswith("Nimmt")
        tab.select_option("[data-testid=language]", "en")
        tab.locator("[data-testid=explain-now]").filter(has_text="Popped").wait_for()
        assert "# priority: f = g + w·h" in tab.inner_text("[data-testid=explain-code]")
        assert tab.text_content("[data-testid=explain-title]") == "A*: the code, step by step"
        tab.select_option("[data-testid=language]", "de")
        tab.locator("[data-testid=explain-now]").filter(has_text="Nimmt").wait_for()
        tab.click("[data-testid=explain]")
        open_lab(tab)
        tab.fill("[data-testid=lab-formula]", "dr + dc")
        tab.press("[data-testid=lab-formula]", "Enter")
        tab.locator("[data-testid=lab-headline]").filter(has_text="Zulässig").wait_for(timeout=60_000)
        tab.select_option("[data-testid=language]", "en")
        tab.locator("[data-testid=lab-headline]").filter(has_text="Admissible and consistent").wait_for()
    finally:
        context.close()
    assert not console.errors, console.errors
