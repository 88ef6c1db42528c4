"""The tools in German (issue 32): a German browser (locale de-DE) sees no English word in "Your code"
(before and after a run), the generator dialog (New…), Share and Export, the board's click editor and
the assignment pages (the student's and the teacher's, made through the API).

A word is English when it is in the English page catalog (``server.i18n.page_catalog("en")``) and
not in the German one (case-insensitive, three letters or more; names such as BFS or Moodle are in
both; the lab's formula names are code). Some checks look only at these tools' own elements, the
"no English word at all" ones also at what other parts write into them (the server's verdicts, the
families' names and generator labels, the shell's dialog frame). Screenshots at 1366 × 768 go to
test-artifacts/ (german-*.png).
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from server.i18n import page_catalog
from tests.e2e.pages import ARTIFACTS

VIEWPORT = {"width": 1366, "height": 768}
PANEL = "[data-testid=code-panel]"
STATUS = "[data-testid=code-status]"
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")



def words(value: Any) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {w.lower() for text in texts for w in WORD.findall(str(text))}


def catalog_words(lang: str) -> set[str]:
    found: set[str] = set()
    for value in page_catalog(lang).values():
        found |= words(value)
    return found


def formula_names() -> set[str]:
    """The lab's formula names (row, goal_col, …): code, the same in every language."""
    from server.puzzles.registry import FAMILIES

    return {name for family in FAMILIES.values() if family.lab for name, _ in family.lab.features}


ENGLISH_ONLY = catalog_words("en") - catalog_words("de") - formula_names() - {"lee"}  # Lee: a name

# The visible text of a region (text nodes of rendered elements, options of its menus) and its
# title/aria-label/placeholder/alt attributes; code (<code>, <pre>, the editor) is not prose.
COLLECT = """([root, skip]) => {
  const region = document.querySelector(root);
  if (!region) return null;
  const out = [];
  const skipped = (node) => node.closest("code, pre, textarea, script, style" + (skip ? ", " + skip : ""));
  const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || skipped(parent)) continue;
    const shown = parent.tagName === "OPTION" || parent.checkVisibility({ visibilityProperty: true });
    if (shown && node.textContent.trim()) out.push(node.textContent.trim());
  }
  for (const element of [region, ...region.querySelectorAll("*")]) {
    if (skipped(element) && element.tagName !== "TEXTAREA") continue;
    if (element.closest("[hidden]")) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      if (element.tagName === "TEXTAREA" && name === "placeholder") continue;
      const value = element.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out;
}"""


def english_in(tab, root: str, skip: str = "") -> list[str]:
    """The English words visible in the region ``root`` (``skip``: a selector of parts not checked)."""
    texts = tab.evaluate(COLLECT, [root, skip])
    assert texts is not None, f"no {root} on the page"
    found = []
    for text in texts:
        if "://" in text:  # a link (the share link's parameters are the address's, not words)
            continue
        bad = sorted(words(text) & ENGLISH_ONLY)
        if bad:
            found.append(f"{bad} in {text[:100]!r}")
    return found


def shot(tab, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"german-{name}.png"))


def no_overflow(tab, root: str) -> list[str]:
    """Elements of ``root`` wider than their box (a German label that does not fit)."""
    return tab.evaluate(
        """root => [...document.querySelectorAll(
            ['button', 'label', 'h2', 'select'].map((s) => root + ' ' + s).join())]
          .filter((e) => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1
            && getComputedStyle(e).overflowX !== 'auto')
          .map((e) => `${e.tagName} ${e.dataset.testid || ''} ${e.textContent.trim().slice(0, 40)}`)""",
        root,
    )


@pytest.fixture
def german(browser, console):
    """A German browser (Accept-Language and navigator.language de-DE) at laptop size."""
    context = browser.new_context(locale="de-DE", viewport=VIEWPORT, bypass_csp=True)
    tab = context.new_page()
    tab.set_default_timeout(120_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    yield tab
    context.close()
    unexpected = console.unexpected()
    assert not unexpected, "errors in the browser console:\n" + "\n".join(unexpected)


def open_gallery(tab, server_url: str, name: str) -> None:
    # ?lang=de as well: the main page's <html lang> is the shell's template (P1's {{ lang }}); the
    # locale alone opens it in German once that is merged.
    tab.goto(f"{server_url}/?gallery={name}&lang=de")
    tab.locator("[data-testid=puzzle-name]").wait_for(state="visible")
    tab.wait_for_function("() => document.documentElement.lang === 'de'")


def test_your_code_is_german_before_and_after_a_run(german, server_url):
    tab = german
    open_gallery(tab, server_url, "seed-lee-example")
    tab.click("[data-testid=code]")
    tab.locator("[data-testid=code-editor]").wait_for(state="visible")
    tab.wait_for_function(f"() => document.querySelector('{PANEL}').dataset.python === 'ready'",
                          timeout=180_000)
    tab.click("[data-testid=code-api] summary")
    panel = "[data-testid=code-panel]"
    assert english_in(tab, panel, "[data-testid=code-state-form]") == []
    assert "Ausführen" in tab.text_content("[data-testid=code-run]")
    assert tab.get_attribute("[data-testid=code-editor]", "aria-label") == "Dein Python-Code"
    assert tab.text_content("[data-testid=code-status]").startswith("Python ist bereit")
    shot(tab, "code-tab")
    assert no_overflow(tab, panel) == []
    # A run of the breadth-first template: the panel's lines German, the worker's words given to Python.
    tab.select_option("[data-testid=code-template]", "bfs")
    tab.wait_for_function(f"() => document.querySelector('{STATUS}').textContent.startsWith('Die Vorlage')")
    source = tab.input_value("[data-testid=code-editor]")
    assert "TODO" in source
    solution = (
        "from collections import deque\n\n"
        "def search(problem):\n"
        "    frontier = deque([problem.start])\n"
        "    parent = {problem.start: None}\n"
        "    while frontier:\n"
        "        s = frontier.popleft()\n"
        "        if problem.is_goal(s):\n"
        "            path = []\n"
        "            while s is not None:\n"
        "                path.append(s)\n"
        "                s = parent[s]\n"
        "            return path[::-1]\n"
        "        for t, _c in problem.successors(s):\n"
        "            if t not in parent:\n"
        "                parent[t] = s\n"
        "                frontier.append(t)\n"
        "    return None\n"
    )
    tab.fill("[data-testid=code-editor]", solution)
    tab.click("[data-testid=code-run]")
    tab.wait_for_function(f"() => document.querySelector('{STATUS}').textContent.startsWith('Bewertet')",
                          timeout=180_000)
    status = tab.text_content("[data-testid=code-status]")
    assert re.search(r"Bewertet: [\d.]+ Expansionen in [\d,]+ m?s\.", status), status
    assert english_in(tab, panel, "[data-testid=code-state-form], [data-testid=code-verdict]") == []
    shot(tab, "code-run")


def test_your_code_verdict_and_state_form_are_german(german, server_url):
    """The verdict's sentences are the server's (S2), the state form the family's (P4)."""
    tab = german
    open_gallery(tab, server_url, "seed-lee-example")
    tab.click("[data-testid=code]")
    tab.locator("[data-testid=code-editor]").wait_for(state="visible")
    assert english_in(tab, "[data-testid=code-panel]") == []


def test_the_generator_dialog_is_german(german, server_url):
    tab = german
    open_gallery(tab, server_url, "seed-lee-example")
    tab.click("[data-testid=open-generate]")
    tab.locator("[data-testid=generate-go]").wait_for(state="visible")
    assert tab.text_content("[data-testid=generate-go]") == "Erzeugen"
    # The dialog's own words (the kinds' labels, help and options are the server's: below).
    # (The board's note is a template around the server's description of the board: skipped.)
    own = "#generate-dialog [data-i18n]:not([data-testid=generate-board]), #generate-dialog [data-i18n-attr]"
    texts = tab.evaluate(
        "s => [...document.querySelectorAll(s)].flatMap((e) => [e.textContent, e.title].filter(Boolean))", own
    )
    bad = [t for t in texts if words(t) & ENGLISH_ONLY]
    assert bad == [], bad
    shot(tab, "generate-dialog")
    assert no_overflow(tab, "#generate-dialog form") == []


def test_the_generator_dialog_has_no_english_word_at_all(german, server_url):
    """The heading and Close are the shell's (P1); the kinds and options the server's (S1)."""
    tab = german
    open_gallery(tab, server_url, "seed-lee-example")
    tab.click("[data-testid=open-generate]")
    tab.locator("[data-testid=generate-go]").wait_for(state="visible")
    assert english_in(tab, "[data-testid=generate-dialog]") == []


def test_share_and_export_are_german(german, server_url):
    tab = german
    open_gallery(tab, server_url, "seed-lee-example")
    assert tab.text_content("[data-testid=share]") == "Teilen"
    tab.click("[data-testid=export-menu]")
    tab.locator("[data-testid=export-png]").wait_for(state="visible")
    # (#share-tools itself, its group name, is the shell's template.)
    others = "[data-testid^=download-board], [data-testid=export-gif] .export-detail"  # the families' names
    for region in ["[data-testid=share]", "#share-tools .export-wrap"]:
        assert english_in(tab, region, others) == [], region
    shot(tab, "export-menu")
    tab.keyboard.press("Escape")
    tab.click("[data-testid=share]")
    # Without clipboard access the link shows in a dialog; with it, the status says it was copied.
    tab.wait_for_function("() => document.querySelector('[data-testid=share-status]').textContent !== ''")
    url = tab.get_attribute("[data-testid=share-status]", "data-url")
    assert url and url.endswith("lang=de"), url
    assert english_in(tab, "[data-testid=share-status]") == []
    if tab.locator("[data-testid=share-dialog]").is_visible():
        assert english_in(tab, "[data-testid=share-dialog]") == []
        shot(tab, "share-dialog")


def test_the_board_editor_is_german(german, server_url):
    tab = german
    open_gallery(tab, server_url, "sliding-aima-3-28")
    editor = tab.locator("[data-testid=edit-board]")
    editor.wait_for(state="visible")
    assert editor.text_content() == "Bearbeiten"
    texts = tab.evaluate(
        "() => [...document.querySelectorAll('.family-editor [data-i18n], .family-editor [data-i18n-attr]')]"
        ".flatMap((e) => [e.textContent, e.getAttribute('aria-label')].filter(Boolean))"
    )
    bad = [t for t in texts if words(t) & ENGLISH_ONLY]
    assert bad == [], bad


def test_the_board_editor_has_no_english_word_at_all(german, server_url):
    """Its title, tools and hints are the family view's (P4)."""
    tab = german
    open_gallery(tab, server_url, "sliding-aima-3-28")
    tab.locator("[data-testid=edit-board]").wait_for(state="visible")
    tab.click("[data-testid=edit-board]")
    assert english_in(tab, ".family-editor") == []


# ---- the assignment pages ----------------------------------------------------------------------


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Accept-Language": "de-DE"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


@pytest.fixture(scope="module")
def made(server_url) -> dict[str, Any]:
    """An assignment on Lee's example (every task, a deadline), made through the API."""
    puzzle = post(f"{server_url}/api/puzzles", {"gallery": "seed-lee-example"})
    tasks = [{"kind": "predict", "points": 2, "count": 5, "from": 0}, {"kind": "code", "points": 5},
             {"kind": "heuristic", "points": 3, "bar": True}, {"kind": "solution", "points": 2, "margin": 0}]
    return post(f"{server_url}/api/assignments", {"puzzle": puzzle["id"], "algorithm": "bfs", "tasks": tasks,
                                                  "title": "Blatt 3", "deadline": "2030-12-15T23:59:00Z"})


def test_the_students_page_is_german(german, server_url, made):
    tab = german
    tab.goto(f"{server_url}{made['class_url']}")
    tab.wait_for_function("() => document.body.dataset.ready === '1'")
    assert tab.get_attribute("html", "lang") == "de"
    assert tab.text_content("header.top h1") == "Aufgabe"
    assert tab.locator("[data-testid=language]").input_value() == "de"
    # The puzzle's, the family's and the algorithm's names and the stored note are the server's.
    skip = ("[data-testid=as-stored], [data-testid=as-puzzle], [data-testid=as-algorithm], .as-board-wrap, "
            ".as-task-text")
    own = ".as-summary, .as-identity, .as-task-head, .as-submit-row, header.top"
    for region in own.split(", "):
        assert english_in(tab, region, skip) == [], region
    deadline = tab.text_content("[data-testid=as-deadline]")
    assert "2030" in deadline and "in " in deadline, deadline  # "So., 15. Dez. 2030, 23:59 (in 4 Jahren)"
    assert "Dez" in deadline, deadline
    shot(tab, "assignment-student")
    assert no_overflow(tab, ".as-side") == []
    # The menu switches the page to English and back without a reload.
    tab.select_option("[data-testid=language]", "en")
    tab.wait_for_function("() => document.querySelector('header.top h1').textContent === 'Assignment'")
    assert tab.text_content("[data-testid=submit] >> nth=0") == "Submit"
    tab.select_option("[data-testid=language]", "de")
    tab.wait_for_function("() => document.querySelector('header.top h1').textContent === 'Aufgabe'")
    assert tab.text_content("[data-testid=submit] >> nth=0") == "Abgeben"


def test_the_students_page_has_no_english_word_at_all(german, server_url, made):
    """The task texts, the stored note and the code/lab/check panels inside are the server's and P2's."""
    tab = german
    tab.goto(f"{server_url}{made['class_url']}")
    tab.wait_for_function("() => document.body.dataset.ready === '1'")
    assert english_in(tab, "#as-main", ".as-board-wrap") == []


def test_the_teachers_page_is_german(german, server_url, made):
    tab = german
    tab.goto(f"{server_url}{made['teacher_url']}")
    tab.wait_for_function("() => document.body.dataset.ready === '1'")
    assert tab.get_attribute("html", "lang") == "de"
    assert tab.text_content("header.top h1") == "Ergebnisse"
    skip = "[data-testid=teacher-summary] > div:nth-child(-n+2) dd, .as-board-wrap"
    regions = ["[data-testid=teacher-summary]", ".as-tools", ".as-link-line", "[data-testid=results-empty]"]
    for region in regions:
        assert english_in(tab, region, skip) == [], region
    link = tab.input_value("[data-testid=teacher-class-link]")
    assert link.endswith("?lang=de"), link
    shot(tab, "assignment-teacher")
    assert no_overflow(tab, ".as-side") == []
