"""The page as a teacher on a projector and a student on a laptop or phone use it (issue 9).

Figures that follow the playhead, a classroom pace, presentation mode, the numbers explained, stale
runs named, a layout that fits, keyboard-only use and plain messages — each checked in Chromium.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.e2e.pages import (
    BROWSER_TEST,
    at_end,
    bfs_distance,
    choose_gallery,
    image_rows,
    next_frame,
    open_gallery,
    open_tab,
    position,
    shooter,
    status_is,
    text,
    upload,
)

pytestmark = BROWSER_TEST

shot = shooter("classroom")


def figure(page, testid: str) -> int | None:
    """A figure of the side panel as a number (its digits are grouped by CSS), None for "—"."""
    value = text(page, testid)
    return None if value == "—" else int(value)


def server_result(page, server_url: str, path: Path, algorithm: str) -> dict:
    """The server's own result for the same file and algorithm (the HTTP API, not the page)."""
    answer = page.request.post(
        f"{server_url}/api/puzzles",
        multipart={"file": {"name": path.name, "mimeType": "image/png", "buffer": path.read_bytes()}},
    )
    assert answer.ok, answer.text()
    pid = answer.json()["id"]
    solved = page.request.post(f"{server_url}/api/puzzles/{pid}/solve", data={"algorithm": algorithm})
    assert solved.ok, solved.text()
    return solved.json()


def new_page(browser, server_url: str, console, width: int, height: int, **context):
    """A page at another size (the `page` fixture is a 1366 x 768 laptop)."""
    ctx, tab = open_tab(browser, server_url, console, viewport={"width": width, "height": height},
                        bypass_csp=True, **context)
    tab.wait_for_function("document.querySelector('[data-testid=gallery] button.active') !== null")
    status_is(tab, "ready")
    return ctx, tab


# ---- 1. figures at the playhead ------------------------------------------------------------------

def test_astar_paused_at_step_10_shows_no_ending_and_jump_to_end_shows_it(page, maze3, server_url):
    upload(page, maze3)
    page.select_option("[data-testid=algorithm]", "astar")
    page.click("[data-testid=run]")  # at the default, classroom pace
    status_is(page, "done")
    # The search is computed and delivered, and the status says so without claiming the animation ended.
    assert text(page, "status") == "done"
    assert "in" in text(page, "status-detail")
    at, total = position(page)
    assert at < total, "at the default pace the trace cannot be over already"
    # After Run the keys work at once: Home, then ten steps forward.
    page.keyboard.press("Home")
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    next_frame(page)
    assert position(page)[0] == 10
    assert text(page, "playhead") == f"Paused at step 10 of {total}"
    expanded = figure(page, "expanded")
    assert expanded is not None and expanded <= 10, expanded
    assert figure(page, "generated") is not None
    assert text(page, "cost") == "—" and text(page, "path-length") == "—"
    assert text(page, "optimal") == "", "the verdict must wait for the end of the trace"
    assert "Cost" not in text(page, "figures") and "optimal" not in text(page, "figures")
    # The state being expanded: g, h and f for A*, with f = g + h (weight 1).
    g, h, f = (float(text(page, f"figure-{k}")) for k in "ghf")
    assert f == g + h and h > 0, (g, h, f)
    shot(page, "astar-step-10")

    page.click("[data-testid=last]")  # jump to the end
    next_frame(page)
    assert text(page, "cost") == "52"
    assert text(page, "path-length") == "53"
    assert text(page, "optimal").startswith("optimal"), text(page, "optimal")
    assert text(page, "playhead").startswith("At the end")
    # The playhead's figures at the end are the server's figures for the run.
    result = server_result(page, server_url, maze3, "astar")
    assert figure(page, "expanded") == result["expanded"]
    assert figure(page, "generated") == result["generated"]
    assert figure(page, "max-frontier") == result["max_frontier"]
    shot(page, "astar-end")

    # Back one step: the ending is hidden again.
    page.keyboard.press("ArrowLeft")
    next_frame(page)
    assert text(page, "cost") == "—" and text(page, "optimal") == ""


@pytest.mark.parametrize("algorithm", ["bfs", "astar", "dfs", "bidirectional"])
def test_figures_at_the_end_equal_the_servers(page, maze3, server_url, algorithm):
    upload(page, maze3)
    page.select_option("[data-testid=algorithm]", algorithm)
    page.click("[data-testid=preset-instant]")
    page.click("[data-testid=run]")
    at_end(page)
    result = server_result(page, server_url, maze3, algorithm)
    shown = {k: figure(page, k) for k in ("expanded", "generated", "max-frontier")}
    assert shown == {
        "expanded": result["expanded"],
        "generated": result["generated"],
        "max-frontier": result["max_frontier"],
    }
    # Stepping back far and forward again gives the same counts (checkpointed counting).
    page.keyboard.press("Home")
    assert figure(page, "expanded") == 0 and figure(page, "generated") == 0
    page.keyboard.press("End")
    next_frame(page)
    assert {k: figure(page, k) for k in shown} == shown


def test_dfs_verdict_names_the_optimum(page, maze3):
    upload(page, maze3)
    page.select_option("[data-testid=algorithm]", "dfs")
    page.click("[data-testid=preset-instant]")
    page.click("[data-testid=run]")
    at_end(page)
    assert text(page, "cost") == "108"
    verdict = text(page, "optimal")
    assert verdict == "not optimal: cost 108, the optimum is 52", verdict
    assert "guaranteed" not in verdict
    shot(page, "dfs-verdict")


# ---- 2. a classroom pace -------------------------------------------------------------------------

def test_the_default_pace_plays_maze3_bfs_in_10_to_30_seconds(page, maze3):
    upload(page, maze3)
    page.select_option("[data-testid=algorithm]", "bfs")
    assert page.get_attribute("[data-testid=preset-normal]", "aria-pressed") == "true"
    page.click("[data-testid=run]")
    started = time.monotonic()
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=position]').textContent.startsWith('0 /')"
    )
    label = text(page, "speed-label")
    assert re.search(r"\d+ steps/s", label), label
    page.wait_for_function(
        "() => { const [at, of] = document.querySelector('[data-testid=position]').textContent.split(' / ');"
        " return at === of && at !== '0'; }",
        timeout=45_000, polling=100,
    )
    seconds = time.monotonic() - started
    assert 10 <= seconds <= 30, f"maze3's BFS played in {seconds:.1f} s at the default pace"
    print(f"maze3 BFS at the default pace: {seconds:.1f} s ({label})")
    # The other presets: slow is slower, instant is "max"; the slider shows the same speed.
    page.click("[data-testid=preset-slow]")
    slow = text(page, "speed-label")
    assert int(slow.split()[0].replace(",", "")) < int(label.split()[0].replace(",", ""))
    page.click("[data-testid=preset-instant]")
    assert text(page, "speed-label").startswith("max")
    assert page.input_value("[data-testid=speed]") == "1000"


# ---- 3. presentation mode ------------------------------------------------------------------------

def test_presentation_mode_fills_the_screen_and_large_text_keeps_the_numbers(
    browser, server_url, console, maze3
):
    ctx, tab = new_page(browser, server_url, console, 1920, 1080)
    try:
        upload(tab, maze3)
        tab.select_option("[data-testid=algorithm]", "bfs")
        tab.click("[data-testid=preset-instant]")
        tab.click("[data-testid=run]")
        at_end(tab)
        tab.keyboard.press("Home")
        for _ in range(40):
            tab.keyboard.press("Shift+ArrowRight")  # 400 steps: the wave half way
        tab.keyboard.press("f")
        next_frame(tab)
        next_frame(tab)
        assert tab.get_attribute("[data-testid=present]", "aria-pressed") == "true"
        assert not tab.locator(".panel.left").is_visible() and not tab.locator(".panel.right").is_visible()
        box = tab.locator("[data-testid=canvas]").bounding_box()
        share = box["width"] * box["height"] / (1920 * 1080)
        print(f"presentation mode: the canvas covers {share:.1%} of the viewport")
        assert share >= 0.80, share
        # The compact bar: the player and the key figures stay in sight.
        for testid in ("play", "step-back", "step", "last", "scrub", "figures"):
            assert tab.locator(f"[data-testid={testid}]").is_visible(), testid
        figures = text(tab, "figures")
        assert "Step 400 of" in figures and "Expanded" in figures, figures
        canvas = tab.locator("[data-testid=canvas]")
        assert canvas.get_attribute("data-numbers") == "1"
        normal_px = int(canvas.get_attribute("data-number-px"))
        shot(tab, "present")

        tab.click("[data-testid=large-text]")
        next_frame(tab)
        next_frame(tab)
        assert canvas.get_attribute("data-numbers") == "1", "large text must keep the wave numbers drawn"
        large_px = int(canvas.get_attribute("data-number-px"))
        assert large_px > normal_px, (normal_px, large_px)
        assert large_px >= 20, large_px
        figures_size = tab.eval_on_selector(
            "[data-testid=figures]", "e => parseFloat(getComputedStyle(e).fontSize)"
        )
        assert figures_size >= 26, figures_size  # the key figures grow too
        box = canvas.bounding_box()
        share = box["width"] * box["height"] / (1920 * 1080)
        print(f"presentation mode, large text: the canvas covers {share:.1%}")
        shot(tab, "present-large")

        tab.keyboard.press("f")
        next_frame(tab)
        assert tab.locator(".panel.left").is_visible() and tab.locator(".panel.right").is_visible()
    finally:
        ctx.close()


# ---- 4. the numbers explained --------------------------------------------------------------------

def test_every_figure_has_a_definition_and_the_hover_shows_g_h_f(page, maze3):
    upload(page, maze3)
    page.select_option("[data-testid=algorithm]", "astar")
    page.click("[data-testid=preset-instant]")
    page.click("[data-testid=run]")
    at_end(page)
    definitions = page.eval_on_selector_all(
        ".panel.right .stat",
        "ss => ss.map(s => [s.querySelector('dt').textContent, s.querySelector('.def')?.textContent || ''])",
    )
    named = {dt: d for dt, d in definitions}
    names = ("Expanded", "Generated", "Frontier", "Max frontier", "Records", "Path cost", "Path length")
    for name in (*names, "g", "h", "f"):
        assert named.get(name, "").strip(), f"no definition beside {name}: {named}"
    assert named["Path cost"] != named["Path length"]
    # The legend, the hover and the panel say g (cost so far).
    assert "g (cost so far)" in text(page, "legend")
    canvas = page.locator("[data-testid=canvas]")
    box = canvas.bounding_box()
    scale, ox, oy = canvas.evaluate(
        "c => [c.dataset.scale, c.dataset.originX, c.dataset.originY].map(Number)"
    )
    start_row, start_col = 4, 1  # maze3's start
    page.mouse.move(box["x"] + ox + (start_col + 0.5) * scale, box["y"] + oy + (start_row + 1.5) * scale)
    hover = text(page, "hover")
    assert re.search(r"g \d+ \(cost so far\) · h \d+ · f \d+", hover), hover


# ---- 5. stale runs named -------------------------------------------------------------------------

def test_a_changed_choice_marks_the_shown_run_as_the_previous_one(page, maze3):
    upload(page, maze3)
    assert "Not searched yet" in text(page, "run-caption")
    page.select_option("[data-testid=algorithm]", "bfs")
    page.click("[data-testid=preset-instant]")
    page.click("[data-testid=run]")
    at_end(page)
    assert text(page, "run-caption").startswith("Shown: Breadth-first")
    assert not page.locator("[data-testid=stale-badge]").is_visible()
    page.select_option("[data-testid=algorithm]", "astar")
    caption = text(page, "run-caption")
    assert "previous run" in caption and "Breadth-first" in caption and "A*" in caption, caption
    assert text(page, "run-label").startswith("Previous run: Breadth-first")
    assert page.locator("[data-testid=stale-badge]").is_visible()
    shot(page, "stale")
    # Back to BFS: the board shows that run again; an option change marks it again.
    page.select_option("[data-testid=algorithm]", "bfs")
    assert not page.locator("[data-testid=stale-badge]").is_visible()
    page.check("[data-testid=option-diagonal]")
    assert page.locator("[data-testid=stale-badge]").is_visible()
    page.click("[data-testid=run]")
    at_end(page)
    assert "8 directions" in text(page, "run-caption")
    assert not page.locator("[data-testid=stale-badge]").is_visible()


# ---- 6. layout that fits -------------------------------------------------------------------------

CONTROLS_OVERLAP = """panel => {
  const visible = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const controls = [...panel.querySelectorAll('button, select, input, textarea, label.upload-button')]
    .filter(e => !(e.type === 'file')).filter(visible);
  // A control scrolled out of the panel's scrolling part is clipped there: compare what is shown.
  const clip = (e, r) => { const s = e.closest('.panel-scroll'); if (!s) return r;
    const c = s.getBoundingClientRect();
    return {left: Math.max(r.left, c.left), right: Math.min(r.right, c.right),
            top: Math.max(r.top, c.top), bottom: Math.min(r.bottom, c.bottom)}; };
  const boxes = controls.map(e => { const r = clip(e, e.getBoundingClientRect());
    return {name: e.dataset.testid || e.id || e.textContent.trim().slice(0, 20), r}; });
  const problems = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i].r, b = boxes[j].r;
    const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (dx > 0.5 && dy > 0.5) problems.push(`${boxes[i].name} overlaps ${boxes[j].name}`);
  }
  for (const [k, e] of controls.entries()) {
    e.scrollIntoView({block: 'nearest'});
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const what = hit ? (hit.dataset.testid || hit.id || hit.tagName) : 'nothing';
    if (!hit || !(hit === e || e.contains(hit) || hit.contains(e) && hit.tagName === 'LABEL'))
      problems.push(`${boxes[k].name} is covered by ${what}`);
    if (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      problems.push(`${boxes[k].name} is off the screen`);
  }
  return {count: controls.length, problems};
}"""


def check_panel_controls(page, algorithms: list[str]) -> list[str]:
    problems = []
    for algorithm in algorithms:
        page.select_option("[data-testid=algorithm]", algorithm)
        next_frame(page)
        report = page.eval_on_selector(".panel.left", CONTROLS_OVERLAP)
        assert report["count"] >= 5, report
        problems += [f"{algorithm}: {p}" for p in report["problems"]]
        page.eval_on_selector(".panel.left .panel-scroll", "e => e.scrollTo(0, 0)")
    return problems


def test_no_side_panel_control_overlaps_another_at_1366_for_any_algorithm(page, maze3, puzzle6):
    upload(page, maze3)
    algorithms = page.eval_on_selector_all("[data-testid=algorithm] option", "os => os.map(o => o.value)")
    problems = check_panel_controls(page, algorithms)
    page.select_option("[data-testid=algorithm]", "astar")
    shot(page, "panel-astar-1366")
    upload(page, puzzle6)
    algorithms = page.eval_on_selector_all("[data-testid=algorithm] option", "os => os.map(o => o.value)")
    problems += check_panel_controls(page, algorithms)
    page.select_option("[data-testid=algorithm]", "idastar")
    shot(page, "panel-labyrinth-idastar-1366")
    assert not problems, "\n".join(problems)


def test_on_a_phone_the_board_comes_into_view_after_run(browser, server_url, console, maze3):
    ctx, tab = new_page(browser, server_url, console, 390, 844, has_touch=True, is_mobile=True)
    try:
        upload(tab, maze3)
        hints = " ".join(tab.locator(".panel.left .hint, [data-testid=endpoint-problem]").all_text_contents())
        assert "shift" not in hints.lower() and "Tap" in hints, hints
        tab.click("[data-testid=run]")
        tab.wait_for_function(
            "() => { const r = document.querySelector('[data-testid=canvas]').getBoundingClientRect();"
            " return r.top >= -1 && r.bottom <= innerHeight + 1; }",
            timeout=10_000,
        )
        box = tab.locator("[data-testid=canvas]").bounding_box()
        assert box["height"] > 300, box
        assert tab.locator("[data-testid=figures]").is_visible()
        shot(tab, "phone-after-run")
    finally:
        ctx.close()


def test_every_gallery_entry_is_visible_at_1920(browser, server_url, console):
    ctx, tab = new_page(browser, server_url, console, 1920, 1080)
    try:
        entries = tab.request.get(f"{server_url}/api/gallery").json()
        open_gallery(tab)
        next_frame(tab)
        buttons = tab.locator("[data-testid=gallery] button")
        assert buttons.count() == len(entries) >= 9
        for k in range(buttons.count()):
            button = buttons.nth(k)
            box = button.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 1080 and box["x"] + box["width"] <= 1920, box
            description = button.locator(".gallery-description")
            assert description.is_visible() and description.text_content().strip()
            size = button.locator(".gallery-size").text_content()
            assert re.fullmatch(r"\d+ × \d+ (cells|tiles)", size), size
        # Grouped by family, a heading each.
        headings = tab.locator("[data-testid=gallery] h3").all_text_contents()
        assert len(headings) == len({e["family"] for e in entries}) and "Grid mazes" in headings, headings
        shot(tab, "gallery-1920")
    finally:
        ctx.close()


# ---- keyboard only -------------------------------------------------------------------------------

def tab_to(page, predicate: str, limit: int = 60) -> None:
    """Press Tab until the focused element satisfies `predicate` (a JS function of it)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => ({predicate})(document.activeElement)"):
            return
    raise AssertionError(f"Tab never reached an element with {predicate}")


def test_keyboard_only_load_run_pause_step_back_jump_to_end(page):
    tab_to(page, "e => e.dataset.testid === 'open-gallery'")
    page.keyboard.press("Enter")
    assert page.locator("[data-testid=gallery-dialog]").is_visible()
    tab_to(page, "e => e.dataset.name === 'rooms'")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=puzzle-name]').textContent === 'Rooms'"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'"
    )
    # The next key press starts the search: focus is on Run.
    assert page.evaluate("document.activeElement.dataset.testid") == "run"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => Number(document.querySelector('[data-testid=position]').textContent"
        ".split(' / ')[0].replace(/,/g, '')) >= 30"
    )
    page.keyboard.press(" ")  # pause
    assert page.locator("[data-testid=play]").is_visible()
    at, total = position(page)
    assert 30 <= at < total
    page.keyboard.press("Shift+ArrowLeft")
    assert position(page)[0] == at - 10
    status_is(page, "done")
    page.keyboard.press("End")
    next_frame(page)
    assert position(page) == (total, total)
    assert text(page, "cost") not in ("", "—") and text(page, "optimal")
    # The shortcuts are listed in the page with "?".
    page.keyboard.press("?")
    assert page.locator("[data-testid=keys-dialog]").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("[data-testid=keys-dialog]").is_visible()


def test_start_and_goal_typed_from_the_keyboard(page, maze3):
    upload(page, maze3)
    page.focus("[data-testid=start-rc]")
    page.keyboard.type("4, 1")
    page.keyboard.press("Tab")
    page.keyboard.type("1, 2")  # the goal field is next
    page.keyboard.press("Tab")
    assert "start (4, 1)" in text(page, "picked") and "goal (1, 2)" in text(page, "picked")
    # A wall or a cell off the maze is refused with a message, never moved to a free cell.
    page.fill("[data-testid=goal-rc]", "0, 0")
    page.keyboard.press("Tab")
    assert "wall" in text(page, "endpoint-error")
    page.click("[data-testid=run]")
    assert "wall" in text(page, "error")
    page.fill("[data-testid=goal-rc]", "1, 2")
    page.keyboard.press("Tab")
    assert not page.locator("[data-testid=endpoint-error]").is_visible()
    page.click("[data-testid=preset-instant]")
    page.click("[data-testid=run]")
    at_end(page)
    assert text(page, "cost") == str(bfs_distance(image_rows(maze3), (4, 1), (1, 2)))
    assert "start (4, 1)" in text(page, "run-caption") and "goal (1, 2)" in text(page, "run-caption")


# ---- 7. messages, sizes, labels ------------------------------------------------------------------

def test_an_out_of_range_column_is_refused_not_moved(page, puzzle6):
    upload(page, puzzle6)
    assert text(page, "maze-size") == "4 × 5 tiles"
    page.fill("[data-testid=option-start_col]", "9")
    page.keyboard.press("Tab")
    field = text(page, "option-start_col-error")
    assert "Start column" in field and "9" in field and "0 to 3" in field, field
    page.click("[data-testid=run]")
    error = text(page, "error")
    assert "Start column" in error and "9" in error, error
    assert text(page, "status") == "ready" and text(page, "cost") == "—"
    page.fill("[data-testid=option-start_col]", "1")
    page.keyboard.press("Tab")
    assert not page.locator("[data-testid=option-start_col-error]").is_visible()


def test_the_labyrinths_two_players_are_labelled(page, puzzle6):
    upload(page, puzzle6)
    assert text(page, "player-label") == "Search trace"
    page.fill("[data-testid=option-start_col]", "1")
    page.fill("[data-testid=option-goal_col]", "2")
    page.select_option("[data-testid=algorithm]", "astar")
    page.click("[data-testid=preset-instant]")
    page.click("[data-testid=run]")
    status_is(page, "done")
    page.keyboard.press("Home")
    assert page.locator("[data-testid=solution-wait]").is_visible()  # the solution waits for the end
    assert not page.locator("[data-testid=moves]").is_visible()
    page.keyboard.press("End")
    next_frame(page)
    assert "Solution replay" in text(page, "replay-title")
    assert page.locator("[data-testid=moves]").is_visible() and text(page, "cost") == "3"
    assert text(page, "replay-play") == "▶ Play moves"
    shot(page, "labyrinth-labelled")


def test_the_labyrinth_gallery_sizes_read_width_by_height(page):
    choose_gallery(page, "labyrinth-course-7x6")
    assert text(page, "puzzle-name").startswith("Shifting tiles")
    assert text(page, "maze-size") == "6 × 7 tiles"
    open_gallery(page)
    size = page.text_content("[data-testid=gallery] button[data-name='labyrinth-course-7x6'] .gallery-size")
    assert size == "6 × 7 tiles"
    page.keyboard.press("Escape")
