"""The family views in German (issue 32): one bundled puzzle of each family, its default algorithm run
to the end in a German browser, and no English word left in the family's own elements (the legend
under the board, its panels beside it, its banner).

A word counts as English when it is in the English page catalog and not in the German one (words of
three letters or more, case-insensitive; names such as "Manhattan" are in both). The parts of the
family hosts that other helpers translate are checked apart, marked as depending on their work: the
click editor's panel (static/js/edit/, P3), the history buttons (the shell, P1) and the texts the
server writes into the panel (the solution's moves and notices: S1, S2).
"""

from __future__ import annotations

import re

import pytest

from server.i18n import page_catalog
from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, next_frame

pytestmark = BROWSER_TEST

# One bundled puzzle of each family (mazes/gallery.json).
PUZZLES = {
    "grid": "seed-lee-example",
    "labyrinth": "labyrinth-course-5x5",
    "step": "step-seed-003",
    "zenji": "zenji-seed-001",
    "sliding": "sliding-aima-3-28",
}
# The family's own elements: the legend, its hosts.
HOSTS = ["#legend", "#family-panel-left", "#family-panel-right", "#family-banner"]
# Inside them, what others write (checked apart, see the module's docstring).
OTHERS = [".family-editor", "[data-testid=undo]", "[data-testid=redo]", "[data-testid=moves]", ".notice"]
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

# Every visible text and title/aria-label/placeholder under `roots`, skipping hidden elements and
# the subtrees `skip` matches; `only` instead keeps just the subtrees `skip` matches.
TEXTS = """([roots, skip, only]) => {
  const out = [];
  const skipped = (el) => skip.some((s) => el.closest(s));
  for (const selector of roots) {
    const root = document.querySelector(selector);
    if (!root || root.hidden) continue;
    for (const el of [root, ...root.querySelectorAll('*')]) {
      if (el.closest('[hidden]') || !el.checkVisibility()) continue;
      if (skipped(el) !== only) continue;
      for (const node of el.childNodes) {
        if (node.nodeType === 3 && node.textContent.trim()) out.push(node.textContent.trim());
      }
      for (const name of ['title', 'aria-label', 'placeholder']) {
        if (el.getAttribute(name)) out.push(el.getAttribute(name));
      }
    }
  }
  return out;
}"""


def _words(catalog: dict) -> set[str]:
    words: set[str] = set()
    for value in catalog.values():
        forms = value.values() if isinstance(value, dict) else [value]
        for form in forms:
            words.update(w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", str(form))))
    return words


@pytest.fixture(scope="module")
def english_only() -> set[str]:
    """Words of the English page catalog that the German one never uses."""
    return _words(page_catalog("en")) - _words(page_catalog("de"))


@pytest.fixture
def german(browser, server_url, console):
    """A German browser (Accept-Language and navigator.language de-DE) at 1366 × 768."""
    context = browser.new_context(locale="de-DE", viewport={"width": 1366, "height": 768}, bypass_csp=True)
    # The locale alone makes the page German once the template writes the server's language into
    # <html lang> (the shell's part); the choice remembered as the language menu remembers it makes
    # this test independent of that.
    context.add_init_script("try { localStorage.setItem('mazeviz.lang', 'de'); } catch (e) {}")
    tab = context.new_page()
    tab.set_default_timeout(120_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    yield tab
    context.close()
    unexpected = console.unexpected()
    assert not unexpected, "errors in the browser console:\n" + "\n".join(unexpected)


def _status_is(page, *keys: str) -> None:
    """The status line says one of `keys` (status.<key>), in English or German (the shell's words)."""
    words = {"ready": ["ready", "bereit"], "done": ["done", "fertig"]}
    accepted = [w for key in keys for w in words[key]]
    page.wait_for_function(
        """([accepted, keys]) => { const s = document.querySelector('[data-testid=status]');
             return accepted.includes(s.textContent.trim()) || keys.includes(s.dataset.i18n || ''); }""",
        arg=[accepted, [f"status.{k}" for k in keys]],
    )


def _open_and_run(page, server_url: str, family: str) -> None:
    """Open the family's bundled puzzle in German, run its default algorithm, play the trace to its end."""
    page.goto(f"{server_url}/?gallery={PUZZLES[family]}")
    _status_is(page, "ready")
    page.wait_for_function("() => Boolean(document.body.dataset.puzzleId)")
    assert page.evaluate("() => document.documentElement.lang") == "de"
    page.fill("[data-testid=speed]", "1000")  # the trace at max speed
    page.locator("[data-testid=speed]").dispatch_event("change")
    page.click("[data-testid=run]")
    _status_is(page, "done")
    page.wait_for_function(
        "() => { const [at, of] = document.querySelector('[data-testid=position]').textContent.split(' / ');"
        " return at === of && at !== '0'; }"
    )
    # The solution views reveal their solution at the trace's end (zenji and sliding play it).
    page.wait_for_timeout(1500)
    next_frame(page)


def _english(page, english_only: set[str], only_others: bool) -> dict[str, list[str]]:
    """English words in the family's elements: {word: [texts it is in]}."""
    texts = page.evaluate(TEXTS, [HOSTS, OTHERS, only_others])
    found: dict[str, list[str]] = {}
    for text in texts:
        for word in WORD.findall(text):
            if word.lower() in english_only:
                found.setdefault(word, []).append(text[:80])
    return found


@pytest.mark.parametrize("family", list(PUZZLES))
def test_the_family_view_speaks_german_after_a_run(german, server_url, english_only, family):
    _open_and_run(german, server_url, family)
    ARTIFACTS.mkdir(exist_ok=True)
    german.screenshot(path=str(ARTIFACTS / f"german-{family}.png"))
    texts = german.evaluate(TEXTS, [["#legend"], [], False])
    assert texts, "the legend under the board is empty"
    found = _english(german, english_only, only_others=False)
    assert not found, f"English words in the {family} view's own elements: {found}"


@pytest.mark.parametrize("family", list(PUZZLES))
def test_what_others_write_into_the_family_hosts_is_german_too(german, server_url, english_only, family):
    _open_and_run(german, server_url, family)
    found = _english(german, english_only, only_others=True)
    assert not found, f"English words written by others in the {family} hosts: {found}"
