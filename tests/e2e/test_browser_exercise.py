"""Exercise mode (static/js/exercise/, the header's Predict) in a real headless Chromium: the player stops
before each expansion with a choice and the student predicts the state expanded next, on the board or
in the frontier's list. The right answer is the trace's own next close record, which the page
publishes on <body data-exercise-next> (static/js/shell/probes.js) while a question waits."""

from __future__ import annotations

import re

import pytest

from tests.e2e.pages import (
    BROWSER_TEST,
    cell_point,
    choose_gallery,
    image_rows,
    next_frame,
    position,
    shooter,
    status_is,
    text,
    upload,
)
from tests.e2e.test_browser_share import watch

pytestmark = BROWSER_TEST

PANEL = "[data-testid=exercise-panel]"
CHOICE = "[data-testid=exercise-choice]"
shot = shooter("exercise")


def body(page) -> dict[str, str]:
    """The exercise's probes: state, the question's step (at), its answer (next) and the score."""
    return page.evaluate(
        "() => { const d = document.body.dataset; return {state: d.exercise, at: d.exerciseAt,"
        " next: d.exerciseNext, score: d.exerciseScore}; }"
    )


def wait_question(page, after: int = -1) -> dict[str, str]:
    """Wait until a question waits at a step past `after`; its probes."""
    page.wait_for_function(
        "after => document.body.dataset.exercise === 'asking'"
        " && Number(document.body.dataset.exerciseAt) > after",
        arg=after,
    )
    next_frame(page)
    return body(page)


def start_predicting(page, algorithm: str) -> None:
    page.select_option("[data-testid=algorithm]", algorithm)
    page.click("[data-testid=predict]")
    assert page.get_attribute("[data-testid=predict]", "aria-pressed") == "true"
    assert page.locator(PANEL).is_visible()
    page.fill("[data-testid=speed]", "1000")  # between questions, as fast as it goes
    page.click("[data-testid=run]")


def choices(page) -> dict[int, str]:
    """The list's states: cell -> label."""
    return dict(page.eval_on_selector_all(
        CHOICE, "bs => bs.map(b => [Number(b.dataset.cell), b.querySelector('.choice-label').textContent])"
    ))


def test_bfs_on_maze3_full_marks_by_clicking_the_board_then_a_wrong_click_and_a_skip(page, maze3):
    upload(page, maze3)
    width = len(image_rows(maze3)[0])
    start_predicting(page, "bfs")

    # Ten questions (the panel's default), each answered by clicking the state the trace expands next.
    at = -1
    asked = []
    for n in range(10):
        q = wait_question(page, at)
        at = int(q["at"])
        assert position(page)[0] == at, "the player stops before the expansion asked about"
        listed = choices(page)
        assert len(listed) >= 2, "a question has a choice"
        cell = int(q["next"])
        assert cell in listed, "the answer is on the frontier listed"
        if n == 0:
            question = f"Question 1 of 10, step {at:,}: Which state is expanded next?"
            assert text(page, "exercise-question").startswith(question)
            shot(page, "bfs-question")
        page.mouse.click(*cell_point(page, cell // width, cell % width))
        asked.append(at)
        feedback = page.locator("[data-testid=exercise-feedback] .feedback-line").first
        assert feedback.get_attribute("data-kind") == "right", feedback.text_content()
        right = f"✓ Right: {listed[cell]}, the oldest state on the frontier"
        assert feedback.text_content().startswith(right)
        assert text(page, "exercise-score") == f"Score: {n + 1} / {n + 1}"
    page.wait_for_function("() => document.body.dataset.exercise === 'over'")
    assert len(set(asked)) == 10 and asked == sorted(asked)
    assert text(page, "exercise-final") == "You predicted 10 of 10 expansions."
    assert body(page)["score"] == "10/10"
    status_is(page, "done")
    page.wait_for_function(
        "() => { const [a, b] = document.querySelector('[data-testid=position]').textContent.split(' / ');"
        " return a === b; }"
    )  # after the last question the search plays on to its end
    shot(page, "bfs-full-marks")

    # Home starts over; all questions this time, and a wrong click: a frontier state that is not next.
    page.select_option("[data-testid=exercise-ask]", "0")
    page.click("[data-testid=first]")
    page.click("[data-testid=play]")
    q = wait_question(page)
    assert text(page, "exercise-score") == "Score: 0 / 0"
    assert text(page, "exercise-question").startswith("Question 1, step")
    listed = choices(page)
    answer = int(q["next"])
    wrong = next(c for c in listed if c != answer)
    page.mouse.click(*cell_point(page, wrong // width, wrong % width))
    feedback = page.locator("[data-testid=exercise-feedback] .feedback-line").first
    said = feedback.text_content()
    assert feedback.get_attribute("data-kind") == "wrong"
    assert said.startswith(f"✗ Not quite: {listed[answer]} is expanded next, not {listed[wrong]}.")
    assert "Breadth-first search expands the oldest state on the frontier: " in said
    joined = re.search(r"joined it at step ([\d,]+), yours at step ([\d,]+)\.", said)
    assert joined, said
    assert int(joined[1].replace(",", "")) < int(joined[2].replace(",", "")) <= int(q["at"])
    assert page.locator(f"{CHOICE}.answer").get_attribute("data-cell") == str(answer)
    assert page.locator(f"{CHOICE}.chosen-wrong").get_attribute("data-cell") == str(wrong)
    assert text(page, "exercise-score") == "Score: 0 / 1"
    assert position(page)[0] == int(q["at"]), "a wrong answer waits for Continue"
    shot(page, "bfs-wrong")
    page.click("[data-testid=exercise-continue]")
    q2 = wait_question(page, int(q["at"]))

    # A click off the frontier is not an answer: it says why.
    first_cell = next(i for i, ch in enumerate("".join(image_rows(maze3))) if ch == ".")
    page.mouse.click(*cell_point(page, first_cell // width, first_cell % width))
    if first_cell not in choices(page):
        assert "is not on the frontier" in text(page, "exercise-note")
        assert body(page)["state"] == "asking" and text(page, "exercise-score") == "Score: 0 / 1"

    # Play (space) does not pass a question; → does, and that counts as not answered, said so.
    page.keyboard.press("Space")
    next_frame(page)
    assert position(page)[0] == int(q2["at"]) and body(page)["state"] == "asking"
    page.keyboard.press("ArrowRight")
    next_frame(page)
    feedback = page.locator("[data-testid=exercise-feedback] .feedback-line").first
    assert feedback.get_attribute("data-kind") == "skipped"
    assert "counts as not answered" in feedback.text_content()
    assert text(page, "exercise-score") == "Score: 0 / 2"

    # The comparison view turns exercise mode off.
    page.click("[data-testid=compare]")
    assert page.get_attribute("[data-testid=predict]", "aria-pressed") == "false"
    assert page.evaluate("() => document.body.dataset.exercise") == "off"


def test_astar_on_a_step_maze_answered_through_the_list(page):
    choose_gallery(page, "step-seed-003")
    start_predicting(page, "astar")
    at = -1
    for n in range(5):
        q = wait_question(page, at)
        at = int(q["at"])
        listed = choices(page)
        keys = page.locator(f"{CHOICE}[data-cell='{q['next']}'] .choice-keys").text_content()
        assert re.fullmatch(r"f \d+ = g \d+ \+ h \d+", keys), keys
        if n == 0:
            shot(page, "step-astar-question")
        # Through the keyboard: focus the answer and press Enter (Space on a choice picks it too).
        page.focus(f"{CHOICE}[data-cell='{q['next']}']")
        page.keyboard.press("Enter" if n % 2 else "Space")
        feedback = page.locator("[data-testid=exercise-feedback] .feedback-line").first
        assert feedback.get_attribute("data-kind") == "right", feedback.text_content()
        assert f"Right: {listed[int(q['next'])]}, the smallest f" in feedback.text_content()
    q = wait_question(page, at)
    listed = choices(page)
    answer = int(q["next"])
    wrong = next(c for c in listed if c != answer)
    page.click(f"{CHOICE}[data-cell='{wrong}']")
    said = page.locator("[data-testid=exercise-feedback] .feedback-line").first.text_content()
    assert said.startswith(f"✗ Not quite: {listed[answer]} is expanded next, not {listed[wrong]}.")
    assert "A* expands the smallest f = g + h" in said
    assert re.search(r"has f = \d+|both have f = \d+", said), said
    assert "phase" in listed[answer]
    assert text(page, "exercise-score") == "Score: 5 / 6"
    shot(page, "step-astar-wrong")


def test_a_share_link_with_exercise_opens_predict_on(page, server_url, console):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    choose_gallery(page, "seed-lee-example")
    page.select_option("[data-testid=algorithm]", "dfs")
    page.click("[data-testid=predict]")
    page.click("[data-testid=share]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=share-status]').textContent"
        ".startsWith('Exercise link copied')"
    )
    url = page.evaluate("() => navigator.clipboard.readText()")
    assert url.startswith(f"{server_url}/?gallery=seed-lee-example&algorithm=dfs&"), url
    assert url.endswith(("&exercise=1", "&exercise=1&lang=en")), url  # the link keeps the page's language
    assert "at=" not in url

    other = page.context.new_page()
    watch(other, console)
    other.goto(url)
    other.wait_for_function(
        "() => document.querySelector('[data-testid=predict]').getAttribute('aria-pressed') === 'true'"
        " && document.querySelector('[data-testid=algorithm]').value === 'dfs'"
    )
    assert other.locator(PANEL).is_visible()
    assert text(other, "exercise-question").startswith("Press Run")
    other.fill("[data-testid=speed]", "1000")
    other.click("[data-testid=run]")
    q = wait_question(other)
    other.click(f"{CHOICE}[data-cell='{q['next']}']")
    feedback = other.locator("[data-testid=exercise-feedback] .feedback-line").first
    assert "the newest state on the frontier" in feedback.text_content()
    shot(other, "share-dfs")

    # A link without it opens as before; a bad value is named.
    other.goto(url.replace("&exercise=1", ""))
    status_is(other, "ready")
    other.wait_for_function("() => document.querySelector('[data-testid=algorithm]').value === 'dfs'")
    assert other.get_attribute("[data-testid=predict]", "aria-pressed") == "false"
    other.goto(url.replace("exercise=1", "exercise=yes"))
    other.wait_for_function("() => !document.querySelector('[data-testid=error]').hidden")
    assert "“exercise”" in text(other, "error")
    other.close()


def test_on_a_projector_with_large_text_a_zenji_board_by_clicking_a_tile(browser, server_url, console):
    """A teacher's screen: 1920 × 1080, large text. A Zenji tile holds a state per rotation: a click on
    the tile of the next state answers (the list narrows when several of its rotations wait)."""
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
    tab = ctx.new_page()
    watch(tab, console)
    try:
        tab.goto(server_url)
        status_is(tab, "ready")
        tab.click("[data-testid=large-text]")
        choose_gallery(tab, "zenji-downhill-6x6")
        start_predicting(tab, "bfs")
        q = wait_question(tab)
        listed = choices(tab)
        answer = int(q["next"])
        assert re.fullmatch(r"\(\d+,\s\d+\)\sturned\s\d", listed[answer]), listed
        # The tile of the answer, from where the renderer says the tiles are (zenji_renderer.js). The
        # trace numbers Zenji's states (frames' `named`): the answer's cell is tile * 4 + rotation.
        layout = tab.eval_on_selector("[data-testid=canvas]", "c => ({...c.dataset})")
        box = tab.locator("[data-testid=canvas]").bounding_box()
        cols = 6
        tile = int(tab.evaluate("() => document.body.dataset.exerciseNextCell")) // 4
        unit = float(layout["unit"])
        x = box["x"] + float(layout["bx"]) + (tile % cols + 0.5) * unit
        y = box["y"] + float(layout["by"]) + (tile // cols + 0.5) * unit
        tab.mouse.click(x, y)
        next_frame(tab)
        same_tile = [c for c, label in listed.items()
                     if label.replace("\xa0", " ").startswith(f"({tile // cols}, {tile % cols}) ")]
        if len(same_tile) > 1:
            assert sorted(choices(tab)) == sorted(same_tile), "the list narrows to the tile's states"
            tab.click(f"{CHOICE}[data-cell='{answer}']")
        feedback = tab.locator("[data-testid=exercise-feedback] .feedback-line").first
        assert feedback.get_attribute("data-kind") == "right", feedback.text_content()
        q = wait_question(tab, int(q["at"]))
        wrong = next(c for c in choices(tab) if c != int(q["next"]))
        tab.click(f"{CHOICE}[data-cell='{wrong}']")
        shot(tab, "zenji-1920-large")
    finally:
        ctx.close()
    assert not console.unexpected(), console.unexpected()


@pytest.mark.parametrize(
    ("puzzle", "algorithm", "says"),
    [
        ("weighted-swamp", "dijkstra", "expands the smallest g"),
        ("rooms", "greedy", "expands the smallest h"),
        ("sliding-aima-3-28", "idastar", "keeps no frontier"),
        ("seed-lee-example", "bidirectional", "the side whose frontier is smaller"),
        ("labyrinth-course-5x5", "astar", "expands the smallest f = g + h"),
        ("sliding-aima-3-28", "bfs", "expands the oldest state on the frontier"),
        ("zenji-free-5x5", "dijkstra", "expands the smallest g"),
    ],
)
def test_every_family_and_rule_through_the_list(page, puzzle, algorithm, says):
    """The list works for every family: right answers play on, a wrong one names the rule."""
    choose_gallery(page, puzzle)
    offered = page.eval_on_selector_all("[data-testid=algorithm] option", "os => os.map(o => o.value)")
    if algorithm not in offered:
        pytest.skip(f"{puzzle} offers no {algorithm}")
    start_predicting(page, algorithm)
    q = wait_question(page)
    page.click(f"{CHOICE}[data-cell='{q['next']}']")
    first_line = page.locator("[data-testid=exercise-feedback] .feedback-line").first
    assert first_line.get_attribute("data-kind") == "right"
    q = wait_question(page, int(q["at"]))
    wrong = next(c for c in choices(page) if c != int(q["next"]))
    page.click(f"{CHOICE}[data-cell='{wrong}']")
    said = page.locator("[data-testid=exercise-feedback] .feedback-line").first.text_content()
    assert said.startswith("✗ Not quite:") and says in said, said
    assert text(page, "exercise-score") == "Score: 1 / 2"
    page.click("[data-testid=exercise-continue]")
    page.wait_for_function("at => Number(document.body.dataset.exerciseAt) > at"
                           " || document.body.dataset.exercise === 'over'",
                           arg=int(q["at"]))
    shot(page, f"{puzzle}-{algorithm}")
