"""The heuristic lab in a real headless Chromium: a formula judged beside the board, its heat map drawn.

maze3 (Lee's example): Manhattan distance (``dr + dc``) is admissible and consistent over its 433
reachable cells; twice it overestimates (the count the page shows is the server's); a bad formula is
refused in one line naming the column; "Use as heuristic" puts the formula into the options, A* runs
it to the optimum and the share link keeps it. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

from tests.e2e.pages import (
    BROWSER_TEST,
    CANVAS,
    at_end,
    canvas_data,
    canvas_hash,
    judge,
    next_frame,
    open_lab,
    puzzle_id,
    shooter,
    text,
    upload,
)

pytestmark = BROWSER_TEST
shot = shooter("lab")


def heat_counts(page) -> tuple[int, int, int] | None:
    """(cells coloured, cells hatched, arrows) the board says it draws, or None without a heat map."""
    value = canvas_data(page).get("heat")
    return tuple(int(x) for x in value.split()) if value else None


def test_manhattan_on_maze3_is_admissible_and_consistent_with_its_heat_map(page, maze3):
    upload(page, maze3)
    open_lab(page)
    names = page.locator("[data-testid=lab-name]").all_text_contents()
    assert {"row", "col", "goal_row", "goal_col", "dr", "dc"} <= set(names)
    meaning = page.get_attribute("[data-testid=lab-name]:text-is('dr')", "title")
    assert meaning, "a feature's meaning is its tooltip"
    next_frame(page)
    before = canvas_hash(page)

    judge(page, "dr + dc")
    assert text(page, "lab-headline") == "Admissible and consistent over 433 reachable states."
    assert text(page, "lab-over").startswith("No state overestimates")
    assert text(page, "lab-moves").startswith("No move breaks consistency")
    assert text(page, "lab-goal") == "h at the goal: 0."
    assert heat_counts(page) == (433, 0, 0)
    assert canvas_hash(page) != before, "the heat map is drawn on the board"
    assert page.is_visible("[data-testid=lab-legend]")
    shot(page, "maze3-manhattan")

    # The heat map follows its checkbox; clearing the formula removes it.
    page.uncheck("[data-testid=lab-show-heat]")
    next_frame(page)
    assert heat_counts(page) is None and canvas_hash(page) == before
    page.check("[data-testid=lab-show-heat]")
    next_frame(page)
    assert heat_counts(page) == (433, 0, 0)
    page.click("[data-testid=lab-clear]")
    next_frame(page)
    assert heat_counts(page) is None and canvas_hash(page) == before
    assert page.input_value("[data-testid=lab-formula]") == ""
    assert not page.is_visible("[data-testid=lab-headline]")


def test_twice_manhattan_is_not_admissible_with_its_count_and_worst_case(page, maze3):
    upload(page, maze3)
    answer = page.request.post(
        f"{page.url.split('?')[0].rstrip('/')}/api/puzzles/{puzzle_id(page)}/heuristic",
        data={"formula": "2*(dr+dc)", "options": {}},
    ).json()
    assert answer["overestimates"] > 0
    open_lab(page)
    judge(page, "2*(dr+dc)")
    assert text(page, "lab-headline") == "Not admissible and not consistent over 433 reachable states."
    over = text(page, "lab-over").replace("\xa0", " ")  # a short state is never split over two lines
    assert over.startswith(f"{answer['overestimates']:,} states overestimate (h > h*)."), over
    worst = answer["worst"]
    row, col = worst["state"]
    assert worst["text"] == f"({row}, {col})", "the server writes the state in the family's notation"
    assert f"h = {worst['h']} where h* = {worst['h_star']} at ({row}, {col})" in over
    assert text(page, "lab-moves").startswith(f"{answer['inconsistent_moves']:,} moves break consistency")
    coloured, hatched, arrows = heat_counts(page)
    assert coloured == 433 and hatched == answer["overestimates"]
    assert 0 < arrows <= 25, "the 25 worst inconsistent moves are drawn by default"
    page.select_option("[data-testid=lab-arrows]", "0")
    next_frame(page)
    assert heat_counts(page) == (433, hatched, 0)
    page.select_option("[data-testid=lab-arrows]", "25")
    next_frame(page)
    shot(page, "maze3-double-manhattan")


def test_a_bad_formula_is_refused_in_one_line_naming_where(page, maze3, console):
    console.allow("status of 400")  # the server refuses the formula: the page says why
    upload(page, maze3)
    open_lab(page)
    judge(page, "dr + dc")
    assert heat_counts(page) is not None
    judge(page, "dr +* dc")
    error = text(page, "lab-error")
    assert error and "\n" not in error
    assert re.search(r"column \d+", error), error
    assert page.get_attribute("[data-testid=lab-formula]", "aria-invalid") == "true"
    assert heat_counts(page) is None, "a refused formula leaves no heat map"
    assert not page.is_visible("[data-testid=lab-headline]")
    judge(page, "__import__('os')")
    assert text(page, "lab-error"), "a name beyond the features is refused"


def test_use_as_heuristic_runs_a_star_with_it_and_the_share_link_keeps_it(page, maze3, server_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    upload(page, maze3)
    open_lab(page)
    judge(page, "dr + dc")
    page.click("[data-testid=lab-use]")
    assert page.input_value("[data-testid=algorithm]") == "astar"
    assert page.input_value("[data-testid=option-heuristic]") == "yours"
    assert page.input_value("[data-testid=option-formula]") == "dr + dc"
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)
    assert text(page, "cost") == "52", "A* with an admissible heuristic finds the optimum"
    assert "your h = dr + dc" in text(page, "run-caption")
    assert not page.is_visible("[data-testid=error]")

    page.click("[data-testid=share]")
    page.wait_for_function("() => document.querySelector('.share-status')?.dataset.url")
    url = page.evaluate("() => document.querySelector('.share-status').dataset.url")
    assert "algorithm=astar" in url and "heuristic=yours" in url, url
    assert re.search(r"formula=dr(\+|%20)%2B(\+|%20)dc", url), url

    other = page.context.new_page()
    other.goto(url)
    other.wait_for_function("() => document.querySelector('[data-testid=status]').textContent === 'done'")
    assert other.input_value("[data-testid=option-formula]") == "dr + dc"
    assert other.input_value("[data-testid=option-heuristic]") == "yours"
    assert (other.text_content("[data-testid=cost]") or "").strip() == "52"
    other.close()


def test_heuristic_yours_without_a_formula_is_refused_naming_the_formula(page, maze3):
    upload(page, maze3)
    page.select_option("[data-testid=algorithm]", "astar")
    page.select_option("[data-testid=option-heuristic]", "yours")
    page.click("[data-testid=run]")
    assert page.is_visible("[data-testid=option-formula-error]")
    assert "formula" in text(page, "option-formula-error")
    assert text(page, "status") == "ready", "no run starts"
    # Typing a formula chooses "yours" by itself.
    page.select_option("[data-testid=option-heuristic]", "manhattan")
    page.fill("[data-testid=option-formula]", "max(dr, dc)")
    page.dispatch_event("[data-testid=option-formula]", "change")
    assert page.input_value("[data-testid=option-heuristic]") == "yours"


def test_the_lab_on_a_phone(browser, server_url, maze3):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, bypass_csp=True, is_mobile=True, has_touch=True
    )
    phone = context.new_page()
    phone.goto(server_url)
    phone.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'ready'")
    upload(phone, maze3)
    open_lab(phone)
    judge(phone, "dr + dc")
    assert text(phone, "lab-headline").startswith("Admissible and consistent")
    box = phone.locator("[data-testid=lab-panel]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, "the lab fits the phone's width"
    assert phone.locator(CANVAS).bounding_box()["width"] > 300
    shooter("lab-phone")(phone, "maze3-manhattan")
    context.close()
