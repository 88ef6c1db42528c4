"""The shifting-tile labyrinth in a real headless Chromium: upload, options, run, replay, errors."""

from __future__ import annotations

import shutil

from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, PUZZLE6, at_end, next_frame, open_gallery, upload

# Whether the replay is animating (the renderer flags it on its canvas), and the animation's phase.
ANIMATION_STATE = (
    "() => { const c = document.querySelector('[data-testid=canvas]');"
    " return [c.dataset.animating === '1', c.dataset.phase]; }"
)

pytestmark = BROWSER_TEST

# Speed slider position (~2,300 steps/s): the replay's push (fly 80 ms, slide 370 ms, settle 160 ms)
# is mid-slide about 150 ms after the click.
SLOW_SPEED = "560"


def wait_replay_idle(page) -> None:
    page.wait_for_function("() => document.querySelector('[data-testid=canvas]').dataset.animating !== '1'")


def test_puzzle6_astar_combined_solves_in_3_moves_and_replays(page, puzzle6):
    upload(page, puzzle6)
    # The labyrinth's options replace the grid's start/goal picking.
    assert page.locator("[data-testid=option-moves]").is_visible()
    assert not page.locator("[data-testid=pick-start]").is_visible()
    assert not page.locator("[data-testid=option-diagonal]").is_visible()
    algorithms = page.eval_on_selector_all("[data-testid=algorithm] option", "os => os.map(o => o.value)")
    assert "astar" in algorithms and "seed-greedy" in algorithms, algorithms

    page.fill("[data-testid=option-start_col]", "1")
    page.fill("[data-testid=option-goal_col]", "2")
    page.select_option("[data-testid=option-moves]", "combined")
    page.select_option("[data-testid=algorithm]", "astar")
    page.fill("[data-testid=speed]", "1000")  # the trace at max speed
    page.click("[data-testid=run]")
    at_end(page)  # the solution shows once the trace has been played to its end
    assert page.text_content("[data-testid=cost]") == "3"
    moves = page.locator("[data-testid=moves] [data-testid=move]")
    assert moves.count() == 3
    assert page.text_content("[data-testid=insertions]") == "3"
    assert page.text_content("[data-testid=walked-cells]").isdigit()
    assert page.text_content("[data-testid=expanded]").isdigit()

    # Slow the animations down, then replay: the first move is a push.
    page.fill("[data-testid=speed]", SLOW_SPEED)
    page.locator("[data-testid=speed]").dispatch_event("change")
    ARTIFACTS.mkdir(exist_ok=True)
    page.click("[data-testid=replay-next]")
    page.wait_for_timeout(150)
    before = page.evaluate(ANIMATION_STATE)
    page.screenshot(path=str(ARTIFACTS / "labyrinth-push-mid-animation.png"))
    after = page.evaluate(ANIMATION_STATE)
    # Running before and after the shot: the shot caught the push in motion.
    assert before[0] is True and after[0] is True, (before, after)
    assert before[1] in ("fly", "slide", "settle"), before
    assert "current" in (moves.nth(0).get_attribute("class") or "")
    wait_replay_idle(page)

    # Stepping mid-animation lands the move at once: next, next straight away.
    page.click("[data-testid=replay-next]")
    page.click("[data-testid=replay-next]")
    assert "current" in (moves.nth(2).get_attribute("class") or "")
    assert page.text_content("[data-testid=replay-position]") == "3 / 3"
    wait_replay_idle(page)
    assert page.locator("[data-testid=replay-next]").is_disabled()
    next_frame(page)
    page.screenshot(path=str(ARTIFACTS / "labyrinth-final.png"))

    # Back one move, and the list follows.
    page.click("[data-testid=replay-prev]")
    assert "current" in (moves.nth(1).get_attribute("class") or "")
    assert page.text_content("[data-testid=status]") == "done"


def test_replay_play_runs_to_the_end(page, puzzle6):
    upload(page, puzzle6)
    page.fill("[data-testid=option-start_col]", "1")
    page.fill("[data-testid=option-goal_col]", "2")
    page.select_option("[data-testid=algorithm]", "astar")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)
    page.click("[data-testid=replay-play]")  # at max speed the animations are short
    page.wait_for_function(
        "() => document.querySelector('[data-testid=replay-position]').textContent === '3 / 3'"
    )
    wait_replay_idle(page)


def test_bad_csv_names_the_line(page, puzzle6, tmp_path, console):
    console.allow(r"Failed to load resource: the server responded with a status of 4\d\d")
    bad = tmp_path / "bad_row.csv"
    bad.write_text("2;8;4;7\n4;5;6;1\n0;7;2\n3;6;5;9\n5;1;0;3\n2;;;\n")
    page.set_input_files("[data-testid=upload]", str(bad))
    error = page.locator("[data-testid=error]")
    error.wait_for(state="visible")
    message = error.text_content()
    assert "bad_row.csv" in message and "line 3" in message, message
    assert "Traceback" not in message
    # The page still works: the good file loads and clears the error.
    copy = tmp_path / PUZZLE6.name
    shutil.copy(PUZZLE6, copy)
    upload(page, copy)
    assert not error.is_visible()


def test_puzzle_defaults_fill_the_form_and_switching_back_to_a_grid(page, puzzle6):
    upload(page, puzzle6)
    # The puzzle's own defaults and bounds (its info's options) are in the form.
    assert page.input_value("[data-testid=option-start_col]") == "0"
    assert page.input_value("[data-testid=option-goal_col]") == "3"
    assert page.get_attribute("[data-testid=option-start_col]", "max") == "3"
    assert page.input_value("[data-testid=option-moves]") == "combined"
    assert page.input_value("[data-testid=option-view]") == "states"
    page.select_option("[data-testid=algorithm]", "astar")
    assert not page.locator("[data-testid=option-max_depth]").is_visible()
    page.select_option("[data-testid=algorithm]", "idastar")
    assert page.locator("[data-testid=option-max_depth]").is_visible()
    page.fill("[data-testid=option-max_depth]", "6")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)
    assert page.text_content("[data-testid=cost]").isdigit()

    # A grid maze takes the board back: one canvas, the grid's panels, none of the labyrinth's.
    open_gallery(page)
    page.locator("[data-testid=gallery] button").first.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=gallery] button.active') !== null"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'"
    )
    assert page.locator("canvas").count() == 1
    assert page.locator("[data-testid=pick-start]").is_visible()
    assert page.locator("[data-testid=option-diagonal]").is_visible()
    assert page.locator("[data-testid=option-moves]").count() == 0
    assert page.locator("[data-testid=moves]").count() == 0
