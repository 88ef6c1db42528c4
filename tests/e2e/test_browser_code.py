"""Your code (docs/STUDENT.md) in a real headless Chromium: a student's Python run in the page by
Pyodide in a Web Worker, judged by the server, played on the board as the algorithm ``code``.

The gallery's Lee example (maze3, cost 52) with BFS chosen: ``bfs.py`` matches BFS's order, animates
to cost 52, and the menu keeps BFS; ``bfs_stack.py`` differs at a named expansion with both states
named; ``endless.py`` is stopped at the time limit while the page keeps answering (the search's Run
and Explain work meanwhile and after); the next run gets a fresh Python. A* on a Zenji board and
BFS on seed 003's step maze match too; the comparison offers "Your code" beside BFS on one timeline.
The page's load with the panel closed is measured (printed) and fetches nothing of Pyodide until the
panel opens. Screenshots go to test-artifacts/ (docs/screenshot-code.png is the best of them).
"""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.pages import (
    ARTIFACTS,
    BROWSER_TEST,
    ROOT,
    at_end,
    choose_gallery,
    next_frame,
    position,
    run_to_end,
    shooter,
    status_is,
    text,
    upload,
)

PYODIDE = ROOT / "static" / "vendor" / "pyodide"
PROGRAMS = ROOT / "tests" / "code_programs"
PANEL = "[data-testid=code-panel]"
EDITOR_HOLDS = "t => document.querySelector('[data-testid=code-editor]').value === t"

pytestmark = [
    *BROWSER_TEST,
    pytest.mark.skipif(not (PYODIDE / "pyodide.mjs").exists(),
                       reason="static/vendor/pyodide is absent (scripts/setup.sh fetches it)"),
]
shot = shooter("code")


# ---- helpers ---------------------------------------------------------------------------------------

def open_code(page) -> None:
    """Open the "Your code" panel beside the board (Python starts loading in its worker)."""
    if page.get_attribute("[data-testid=code]", "aria-pressed") != "true":
        page.click("[data-testid=code]")
    page.locator("[data-testid=code-editor]").wait_for(state="visible")


def python_ready(page, timeout: float = 90_000) -> None:
    """Wait until the panel's worker has started Python."""
    page.wait_for_function(
        "() => document.querySelector('[data-testid=code-panel]').dataset.python === 'ready'", timeout=timeout
    )


def open_program(page, name: str) -> str:
    """Open ``tests/code_programs/<name>`` through the panel's Open .py input; its text."""
    source = (PROGRAMS / name).read_text()
    page.set_input_files("[data-testid=code-file]", str(PROGRAMS / name))
    page.wait_for_function(EDITOR_HOLDS, arg=source)
    return source


def ended(page) -> int:
    return int(page.evaluate(f"() => Number(document.querySelector('{PANEL}').dataset.ended || 0)"))


def run_code(page, timeout: float = 120_000) -> None:
    """Press the panel's Run and wait until the run ended (judged, stopped or refused)."""
    before = ended(page)
    page.click("[data-testid=code-run]")
    page.wait_for_function(
        "n => Number(document.querySelector('[data-testid=code-panel]').dataset.ended || 0) > n",
        arg=before, timeout=timeout,
    )
    next_frame(page)


def hold(page, template: str) -> list:
    """Hold back the answers for ``templates/<template>.py``: the routes, to continue when the test says."""
    held: list = []
    page.route(f"**/code/templates/{template}.py", lambda route: held.append(route))
    return held


def wait_held(page, held: list) -> None:
    """Wait until a held request is in (Playwright hands it over while the test waits)."""
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page asked for the template"


def tone(page) -> str:
    """The verdict's colour: good (green), warn (amber) or bad (red)."""
    return page.eval_on_selector("[data-testid=code-headline]", "e => e.classList[1] || ''")


def headline(page) -> str:
    return text(page, "code-headline")


def choose_algorithm(page, name: str) -> None:
    page.select_option("[data-testid=algorithm]", name)


def max_speed(page) -> None:
    page.fill("[data-testid=speed]", "1000")  # the slider's end: "max"


def responds(page) -> float:
    """Seconds the page takes to run a small script: its main thread is free."""
    started = time.monotonic()
    page.evaluate("() => document.querySelectorAll('button').length")
    return time.monotonic() - started


# ---- the acceptance ----------------------------------------------------------------------------------

def test_bfs_py_on_maze3_matches_bfs_animates_to_cost_52_and_keeps_the_menu(page, maze3):
    upload(page, maze3)
    choose_algorithm(page, "bfs")
    open_code(page)
    open_program(page, "bfs.py")
    max_speed(page)
    run_code(page)
    assert page.get_attribute(PANEL, "data-verdict") == "matches", text(page, "code-verdict")
    assert "matches" in headline(page).lower()
    lead = "[data-testid=code-headline] strong"
    weight = page.eval_on_selector(lead, "e => getComputedStyle(e).fontWeight")
    assert weight in ("700", "bold"), "the verdict's lead is bold"
    assert tone(page) == "good", "matches: green"
    at_end(page)
    assert text(page, "cost") == "52"
    assert "your code" in text(page, "run-caption")
    assert page.input_value("[data-testid=algorithm]") == "bfs", "the menu keeps the algorithm compared with"
    assert not page.is_visible("[data-testid=stale-badge]")
    shot(page, "maze3-matches")

    # Explain mode has no listing of the student's code: it names the run and what each record did.
    page.click("[data-testid=explain]")
    page.locator("[data-testid=explain-panel]").wait_for(state="visible")
    assert text(page, "explain-title") == "Your code"
    assert text(page, "explain-now").startswith("On the path your program returned")
    page.click("[data-testid=step-back]")
    next_frame(page)
    assert text(page, "explain-now")
    assert not page.is_visible("[data-testid=code-panel]"), "one panel beside the board at a time"


def test_a_stack_instead_of_a_queue_differs_at_a_named_expansion(page, maze3):
    upload(page, maze3)
    choose_algorithm(page, "bfs")
    open_code(page)
    open_program(page, "bfs_stack.py")
    max_speed(page)
    run_code(page)
    assert page.get_attribute(PANEL, "data-verdict") == "differs", text(page, "code-verdict")
    line = headline(page)
    assert re.search(r"differs .*at expansion \d+", line, re.I), line
    states = text(page, "code-states")
    assert re.search(r"^yours: \(\d+, \d+\) · BFS: \(\d+, \d+\)$", states), states
    assert re.search(r"Your search differs at expansion \d+ from BFS: yours: \(", line), line
    assert tone(page) == "warn", "differs: amber"
    at_end(page)
    assert text(page, "cost") not in ("", "—")
    shot(page, "maze3-differs")


def test_an_endless_program_is_stopped_at_the_limit_and_the_page_keeps_answering(page, maze3):
    upload(page, maze3)
    choose_algorithm(page, "bfs")
    open_code(page)
    python_ready(page)
    open_program(page, "endless.py")
    assert page.input_value("[data-testid=code-limit]") == "5"
    before = ended(page)
    started = time.monotonic()
    page.click("[data-testid=code-run]")
    page.wait_for_function("() => document.querySelector('[data-testid=code-panel]').dataset.running")
    time.sleep(1.5)  # the program is looping now
    assert responds(page) < 1.0, "the page's main thread is free while Python loops"
    page.click("[data-testid=explain]")  # a click on Explain works meanwhile
    page.locator("[data-testid=explain-panel]").wait_for(state="visible")
    page.click("[data-testid=code]")  # back to the panel
    page.wait_for_function(
        "n => Number(document.querySelector('[data-testid=code-panel]').dataset.ended || 0) > n", arg=before,
        timeout=30_000,
    )
    took = time.monotonic() - started
    assert took < 5 + 4, f"stopped within the limit (took {took:.1f} s)"
    status = text(page, "code-status")
    assert status == "Stopped after 5 s: your program did not finish (an endless loop?).", status
    assert "Stopped after 5 s" in text(page, "code-verdict")

    # The page still responds: the search's own Run works, and Explain.
    assert run_to_end(page, "bfs") > 0
    assert text(page, "cost") == "52"
    page.click("[data-testid=explain]")
    page.locator("[data-testid=explain-panel]").wait_for(state="visible")
    assert "Breadth-first" in text(page, "explain-title")

    # The next run gets a fresh Python.
    page.click("[data-testid=code]")
    open_program(page, "bfs.py")
    max_speed(page)
    run_code(page)
    assert page.get_attribute(PANEL, "data-verdict") == "matches", text(page, "code-verdict")


def test_astar_py_on_a_zenji_board_matches_astar(page):
    choose_gallery(page, "zenji-seed-001")
    choose_algorithm(page, "astar")
    open_code(page)
    open_program(page, "astar.py")
    max_speed(page)
    run_code(page)
    assert page.get_attribute(PANEL, "data-verdict") == "matches", text(page, "code-verdict")
    at_end(page)
    assert text(page, "cost") not in ("", "—")
    assert page.input_value("[data-testid=algorithm]") == "astar"


def test_bfs_py_on_the_step_maze_of_seed_003_matches_bfs(page):
    choose_gallery(page, "step-seed-003")
    choose_algorithm(page, "bfs")
    open_code(page)
    open_program(page, "bfs.py")
    max_speed(page)
    run_code(page)
    assert page.get_attribute(PANEL, "data-verdict") == "matches", text(page, "code-verdict")
    at_end(page)
    assert text(page, "cost") not in ("", "—")


def test_your_code_in_the_comparison_beside_bfs(page, maze3):
    upload(page, maze3)
    choose_algorithm(page, "bfs")
    open_code(page)
    open_program(page, "bfs_stack.py")
    max_speed(page)
    run_code(page)
    assert page.get_attribute(PANEL, "data-verdict") == "differs"
    page.click("[data-testid=compare]")
    page.locator("[data-testid=compare-view]").wait_for(state="visible")
    menus = page.locator("[data-testid=panel-algorithm]")
    assert "code" in menus.nth(1).locator("option").evaluate_all("os => os.map(o => o.value)")
    menus.nth(0).select_option("bfs")
    menus.nth(1).select_option("code")
    page.click("[data-testid=run]")
    status_is(page, "done")
    page.click("[data-testid=compare-last]")
    next_frame(page)
    captions = page.locator("[data-testid=panel-caption]").all_text_contents()
    assert captions[1].startswith("Your code"), captions
    results = page.locator("[data-testid=panel-result]").all_text_contents()
    assert results[0].startswith("cost 52") and results[1].startswith("cost "), results
    counts = page.locator("[data-testid=panel-expanded]").all_text_contents()
    expanded = [int(t.replace(",", "")) for t in counts]
    assert all(n > 0 for n in expanded), expanded
    shot(page, "compare")


# ---- the panel's parts -------------------------------------------------------------------------------

def test_an_error_is_shown_with_its_line_and_the_cursor_goes_there(page):
    open_code(page)
    open_program(page, "crash.py")
    run_code(page)
    error = text(page, "code-error")
    assert "KeyError" in error and "line 7" in error, error
    page.click("[data-testid=code-goto]")
    line = page.eval_on_selector(
        "[data-testid=code-editor]", "e => e.value.slice(0, e.selectionStart).split('\\n').length"
    )
    assert line == 7
    assert page.evaluate("() => document.activeElement.dataset.testid") == "code-editor"


def test_a_returned_value_that_is_no_path_is_named_and_the_order_still_judged(page):
    choose_algorithm(page, "bfs")
    open_code(page)
    open_program(page, "not_a_list.py")
    run_code(page)
    assert "PathError" in text(page, "code-error")
    assert page.get_attribute(PANEL, "data-verdict") == "no path", text(page, "code-verdict")
    assert tone(page) == "bad", "no path: red"


def test_the_servers_refusals_are_shown_in_its_words(page, console):
    import json

    console.allow("status of (400|429|503)")
    open_code(page)
    open_program(page, "bfs.py")
    for status, error in ((400, "option 'diagonal': expected true or false"),
                          (429, "Too many runs of your code: wait a minute."),
                          (503, "The server is busy: try again in a moment.")):
        body = json.dumps({"error": error})
        page.route("**/code/rules", lambda route, *_, s=status, b=body: route.fulfill(
            status=s, content_type="application/json", body=b))
        run_code(page)
        assert text(page, "code-problem") == error
        assert "could not be fetched" in text(page, "code-status")
        assert page.is_enabled("[data-testid=code-run]"), "the next Run may try again"
        page.unroute("**/code/rules")
    run_code(page)
    assert page.get_attribute(PANEL, "data-verdict") == "matches", text(page, "code-verdict")


def test_a_non_text_or_large_file_is_refused_and_the_text_is_kept(page, tmp_path):
    open_code(page)
    source = open_program(page, "bfs.py")
    binary = tmp_path / "maze.py"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    page.set_input_files("[data-testid=code-file]", str(binary))
    page.locator("[data-testid=code-file-error]").wait_for(state="visible")
    assert "not a text file" in text(page, "code-file-error")
    large = tmp_path / "large.py"
    large.write_text("# padding\n" * 30_000)
    page.set_input_files("[data-testid=code-file]", str(large))
    page.wait_for_function(
        "() => /at most 256 KB/.test(document.querySelector('[data-testid=code-file-error]').textContent)"
    )
    assert page.input_value("[data-testid=code-editor]") == source


def test_the_editor_indents_with_tab_and_keeps_its_text_over_a_reload(page):
    open_code(page)
    page.fill("[data-testid=code-editor]", "")
    page.click("[data-testid=code-editor]")
    page.keyboard.type("def search(problem):")
    page.keyboard.press("Enter")
    page.keyboard.type("return None")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    value = page.input_value("[data-testid=code-editor]")
    assert value == "def search(problem):\n    return None\n    " + "    ", repr(value)
    page.wait_for_timeout(600)  # saved after a pause
    page.reload()
    status_is(page, "ready")
    open_code(page)
    assert page.input_value("[data-testid=code-editor]") == value


@pytest.mark.parametrize("before_it_came", ["nothing", "a click", "typing"])
def test_the_starting_template_never_mixes_into_what_the_student_began(page, before_it_came):
    """A fresh browser starts from the breadth-first template, fetched when the panel opens. On a slow
    machine it may come after the student clicked into the empty editor or began to type: then it is
    dropped, never put under the cursor. The template's answer is held back here until then (once, a
    loaded machine made the typed text land inside the template: "…for nxt, _cosdef search(problem):")."""
    held = hold(page, "bfs")
    open_code(page)
    wait_held(page, held)
    editor = "[data-testid=code-editor]"
    typed = "def search(problem):"
    if before_it_came != "nothing":
        page.click(editor)
    if before_it_came == "typing":
        page.keyboard.type(typed)
    with page.expect_request_finished(lambda r: r.url.endswith("/code/templates/bfs.py")):
        held[0].continue_()
    # The answer handled: the editor says what it started from, or (before the fix) holds the template.
    page.wait_for_function(
        "e => e.dataset.start || e.value.includes('Breadth-first')",
        arg=page.query_selector(editor), timeout=20_000,
    )
    template = (ROOT / "static" / "js" / "code" / "templates" / "bfs.py").read_text()
    if before_it_came == "nothing":
        assert page.input_value(editor) == template
        assert page.get_attribute(editor, "data-start") == "fallback"
        return
    if before_it_came == "a click":
        page.keyboard.type(typed)
    page.keyboard.press("Enter")
    page.keyboard.type("return None")
    assert page.input_value(editor) == f"{typed}\n    return None"
    assert page.get_attribute(editor, "data-start") == "none"


def test_a_template_chosen_comes_late_and_keeps_what_was_typed_meanwhile(page):
    """Choosing a template replaces the text (Ctrl+Z brings it back), but one that arrives after the
    student typed on keeps their text and says so; of two chosen in a row, the later one wins."""
    open_code(page)
    editor = "[data-testid=code-editor]"
    page.fill(editor, "x = 1")
    held = hold(page, "dfs")
    page.select_option("[data-testid=code-template]", "dfs")
    wait_held(page, held)
    page.click(editor)
    page.keyboard.press("End")
    page.keyboard.type("2")
    with page.expect_request_finished(lambda r: r.url.endswith("/code/templates/dfs.py")):
        held[0].continue_()
    page.wait_for_function(
        "() => /came after you typed/.test(document.querySelector('[data-testid=code-status]').textContent)"
    )
    assert page.input_value(editor) == "x = 12"
    # Two choices: the first's answer held back until the second is in; the second's text stays.
    held.clear()
    page.select_option("[data-testid=code-template]", "dfs")
    wait_held(page, held)
    page.select_option("[data-testid=code-template]", "bfs")
    bfs = (ROOT / "static" / "js" / "code" / "templates" / "bfs.py").read_text()
    page.wait_for_function(EDITOR_HOLDS, arg=bfs)
    with page.expect_request_finished(lambda r: r.url.endswith("/code/templates/dfs.py")):
        held[0].continue_()
    page.wait_for_timeout(300)  # nothing to wait for: the late answer must change nothing
    assert page.input_value(editor) == bfs, "the earlier choice's late answer is dropped"


def test_a_template_loads_into_the_editor(page):
    names = sorted(p.stem for p in (ROOT / "static" / "js" / "code" / "templates").glob("*.py"))
    if "bfs" not in names:
        pytest.skip("no templates yet")
    open_code(page)
    page.fill("[data-testid=code-editor]", "x = 1")
    page.select_option("[data-testid=code-template]", "bfs")
    template = (ROOT / "static" / "js" / "code" / "templates" / "bfs.py").read_text()
    page.wait_for_function(EDITOR_HOLDS, arg=template)


# ---- the page's load ----------------------------------------------------------------------------------

LOAD_FIGURES = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  const size = (r) => r.transferSize || r.encodedBodySize || 0;
  const bytes = resources.reduce((sum, r) => sum + size(r), size(nav));
  return {dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, bytes, requests: resources.length + 1};
}"""


def test_the_page_loads_nothing_of_python_until_the_panel_opens(browser, server_url):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    try:
        tab = context.new_page()
        tab.set_default_timeout(120_000)
        urls: list[str] = []
        tab.on("request", lambda request: urls.append(request.url))
        tab.goto(server_url)
        tab.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'ready'")
        tab.wait_for_function("() => document.body.dataset.puzzleId")
        tab.wait_for_function("() => performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
        figures = tab.evaluate(LOAD_FIGURES)
        print(f"\npage load, 'Your code' closed: DOMContentLoaded {figures['dcl']:.0f} ms,"
              f" load {figures['load']:.0f} ms,"
              f" {figures['bytes'] / 1024:.0f} KB in {figures['requests']} requests")
        tab.wait_for_timeout(500)
        pyodide = [u for u in urls if "/static/vendor/pyodide/" in u]
        assert not pyodide, "nothing of Pyodide before the panel opens"
        assert not [u for u in urls if "/static/js/code/code_panel.js" in u or "/worker.js" in u]

        tab.click("[data-testid=code]")
        tab.locator("[data-testid=code-editor]").wait_for(state="visible")
        status = text(tab, "code-status")
        assert status.startswith("Loading Python") or "ready" in status, status
        started = time.monotonic()
        python_ready(tab)
        python = time.monotonic() - started
        pyodide = [u for u in urls if "/static/vendor/pyodide/" in u]
        assert pyodide, "opening the panel starts Python"
        print(f"'Your code' opened: Python ready after {python:.1f} s, {len(pyodide)} Pyodide requests")
    finally:
        context.close()


# ---- screenshots ----------------------------------------------------------------------------------

def test_screenshots_of_the_panel_on_a_laptop_and_a_projector(browser, server_url, maze3):
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height, large in ((1366, 768, False), (1920, 1080, True)):
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        try:
            tab = context.new_page()
            tab.set_default_timeout(120_000)
            tab.goto(server_url)
            tab.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'ready'")
            tab.wait_for_function("() => document.body.dataset.puzzleId")
            if large:
                tab.click("[data-testid=large-text]")
            upload(tab, maze3)
            choose_algorithm(tab, "bfs")
            open_code(tab)
            for name, verdict in (("bfs.py", "matches"), ("bfs_stack.py", "differs")):
                open_program(tab, name)
                max_speed(tab)
                run_code(tab)
                assert tab.get_attribute(PANEL, "data-verdict") == verdict, text(tab, "code-verdict")
                at_end(tab)
                tab.evaluate("() => document.activeElement?.blur()")
                # The code in sight from `def search` on (the module's docstring above it).
                tab.eval_on_selector("[data-testid=code-editor]", """e => {
                  const line = e.value.split('\\n').findIndex((l) => l.startsWith('def search'));
                  e.scrollTop = Math.max(0, line) * parseFloat(getComputedStyle(e).lineHeight);
                }""")
                next_frame(tab)
                tag = f"{width}x{height}{'-large' if large else ''}-{verdict}"
                tab.screenshot(path=str(ARTIFACTS / f"code-{tag}.png"))
            assert position(tab)[0] > 0
        finally:
            context.close()
