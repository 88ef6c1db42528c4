"""The solution checker in a real headless Chromium: a solution pasted beside the board, judged and
replayed on it.

maze3: the CLI's own optimal moves (``run.py solve --json``, as a move string) are judged legal and
optimal and replayed cell by cell to the goal; a move into a wall is reported at its number and the
walk is replayed up to it, the move marked; a text in no notation is refused naming where. Zenji
(seed 001): the CLI's ``solve --json`` answer is judged and replayed by the Zenji view's own replay.
"""

from __future__ import annotations

import json
import re

from tests.e2e.pages import (
    BROWSER_TEST,
    ROOT,
    canvas_data,
    canvas_hash,
    check_solution,
    choose_gallery,
    move_string,
    next_frame,
    open_lab,
    position,
    shooter,
    solve_json,
    text,
    upload,
)

pytestmark = BROWSER_TEST
shot = shooter("check")


def replay_to_end(page) -> None:
    """Play the checked solution's replay at full speed to its end."""
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=last]")
    next_frame(page)


def test_the_optimal_moves_of_maze3_are_legal_and_optimal_and_replayed(page, maze3):
    moves = move_string(solve_json(maze3)["path"])
    upload(page, maze3)
    open_lab(page, "check")
    before = canvas_hash(page)
    check_solution(page, moves)
    assert text(page, "check-verdict") == "Legal, cost 52; the optimum is 52 (optimal)."
    assert text(page, "status") == "checked"
    assert "checked solution: Legal, cost 52" in text(page, "run-caption")
    replay_to_end(page)
    at, total = position(page)
    assert at == total == 53, "the path's 53 cells, start included, replayed one by one"
    assert text(page, "cost") == "52"
    assert text(page, "optimal") == "Legal, cost 52; the optimum is 52 (optimal)"
    assert canvas_hash(page) != before, "the path is drawn"


def test_a_move_into_a_wall_is_reported_at_its_number_and_marked(page, maze3):
    moves = move_string(solve_json(maze3)["path"])
    bad = moves[:4] + "L" + moves[5:]  # the fifth move goes back left; the sixth then runs into a wall
    upload(page, maze3)
    open_lab(page, "check")
    check_solution(page, bad)
    verdict = text(page, "check-verdict")
    assert re.match(r"Move 6 \(D\) from \(6, 2\) enters a wall at \(7, 2\)\.$", verdict), verdict
    assert "move 6 is marked" in text(page, "check-details")
    assert "illegal" in page.get_attribute("[data-testid=lab-panel]", "data-checked")
    replay_to_end(page)
    assert position(page) == (6, 6), "the walk up to the illegal move: the start and five legal moves"
    assert text(page, "optimal").startswith("Move 6 (D)")
    shot(page, "maze3-illegal")


def test_a_detour_is_legal_and_not_optimal(page, maze3):
    moves = move_string(solve_json(maze3)["path"])
    detour = moves[:2] + "UD" + moves[2:]
    upload(page, maze3)
    open_lab(page, "check")
    check_solution(page, detour)
    assert text(page, "check-verdict") == "Legal, cost 54; the optimum is 52 (not optimal)."


def test_a_text_in_no_notation_is_refused_naming_where(page, maze3, console):
    console.allow("status of 400")
    upload(page, maze3)
    open_lab(page, "check")
    check_solution(page, "RRD\nDX")
    error = text(page, "check-error")
    assert "line 2, column 2" in error, error
    assert not page.is_visible("[data-testid=check-verdict]")


def test_a_path_as_python_prints_it_then_a_bad_paste_leaves_no_old_verdict(page, maze3, console):
    console.allow("status of 400")
    path = [tuple(cell) for cell in solve_json(maze3)["path"]]
    upload(page, maze3)
    open_lab(page, "check")
    check_solution(page, str(path))  # print(path) in the student's notebook: a list of tuples
    assert text(page, "check-verdict") == "Legal, cost 52; the optimum is 52 (optimal)."
    check_solution(page, str(path)[:-1])  # the closing bracket lost in the paste
    assert "not valid JSON or a Python list" in text(page, "check-error")
    assert not page.is_visible("[data-testid=check-verdict]")  # the old verdict is gone
    assert not page.is_visible("[data-testid=check-details]")


def test_moves_that_end_off_the_goal_say_so_on_the_board_too(page):
    """AIMA's 8-puzzle: "D R U L" is legal and ends where it began; the board's caption at the last
    move agrees with the verdict instead of calling that board the goal."""
    upload(page, ROOT / "mazes" / "sliding-aima-3-28.txt")
    open_lab(page, "check")
    check_solution(page, "D R U L")
    assert "not the goal" in text(page, "check-verdict")
    replay_to_end(page)
    page.wait_for_function(
        "() => /Move 4 of 4/.test(document.querySelector('[data-testid=canvas]').dataset.caption)"
    )
    caption = canvas_data(page)["caption"]
    assert caption.endswith("· not the goal") and "to go" not in caption, caption


def test_a_solution_dropped_on_the_box_is_checked(page, maze3):
    moves = move_string(solve_json(maze3)["path"])
    upload(page, maze3)
    open_lab(page, "check")
    page.evaluate("() => { delete document.querySelector('[data-testid=lab-panel]').dataset.checked; }")
    transfer = page.evaluate_handle(
        """text => { const t = new DataTransfer();
        t.items.add(new File([text], 'answer.txt', {type: 'text/plain'})); return t; }""",
        moves,
    )
    page.dispatch_event("[data-testid=check-input]", "drop", {"dataTransfer": transfer})
    page.wait_for_function("() => document.querySelector('[data-testid=lab-panel]').dataset.checked")
    assert page.input_value("[data-testid=check-input]") == moves
    assert text(page, "check-verdict").startswith("Legal, cost 52")


def test_zenji_seed_001_its_solve_json_is_judged_and_replayed_by_the_zenji_view(page):
    answer = solve_json(ROOT / "mazes" / "zenji-seed-001.txt", "--algorithm", "dijkstra")
    choose_gallery(page, "zenji-seed-001")
    open_lab(page, "check")
    check_solution(page, json.dumps(answer))
    verdict = text(page, "check-verdict")
    assert verdict == f"Legal, cost {answer['cost']}; the optimum is {answer['cost']} (optimal).", verdict
    page.wait_for_function("() => document.querySelectorAll('[data-testid=moves] [data-testid=move]').length")
    items = page.locator("[data-testid=moves] [data-testid=move]").count()
    assert items == len(answer["moves"]) + 1, "each turn, then the water"
    page.click("[data-testid=replay-next]")
    page.wait_for_function("() => document.querySelector('[data-testid=canvas]').dataset.animating === '0'")
    assert canvas_data(page).get("phase", "") == ""
    shot(page, "zenji-seed-001")
