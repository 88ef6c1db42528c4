"""WCAG 2.1 AA, checked (issue 32, point 2): axe-core over every main state of every family, in
English and in German.

axe-core is vendored by scripts/setup.sh (npm, pinned, sha256-checked) into static/vendor/axe-core/ and
injected here only: the page never loads it. Its rules tagged wcag2a, wcag2aa, wcag21a, wcag21aa and
wcag22aa run on each state; a violation fails with its rule, the elements and the rule's help. One page
per family and language walks the states in sequence (before a run; the dialogs: gallery, New…, keys,
share/export, make-an-assignment; after a run; explain, lab, code, predict; the comparison; presentation
mode); the tiled board has its own server (a small tile threshold) and test.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from server.puzzles.grid.generate import generate_braid, maze_to_image
from tests.conftest import missing
from tests.e2e.pages import (
    ARTIFACTS,
    BROWSER_TEST,
    ROOT,
    at_end,
    choose_gallery,
    next_frame,
    open_tab,
    status_is,
)
from tests.serve_process import serving

pytestmark = BROWSER_TEST

AXE = ROOT / "static" / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
LOCALES = {"en": "en-US", "de": "de-DE"}
# One bundled puzzle of each family (mazes/gallery.json).
FAMILIES = {
    "grid": "seed-lee-example",
    "labyrinth": "labyrinth-course-5x5",
    "step": "step-seed-003",
    "zenji": "zenji-seed-001",
    "sliding": "sliding-aima-3-28",
}
RUN_AXE = """async tags => {
  const result = await window.axe.run(document, {
    runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'],
  });
  return result.violations.map(v => ({
    rule: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({ target: n.target.join(' '), html: n.html.slice(0, 160),
                               summary: (n.failureSummary || '').slice(0, 300) })),
  }));
}"""


def axe_violations(page) -> list[dict[str, Any]]:
    """The violations of axe-core's WCAG 2.x A/AA rules on the page as it is now."""
    if not AXE.exists():
        missing(f"axe-core is not vendored (expected {AXE}): run scripts/setup.sh")
    if not page.evaluate("() => Boolean(window.axe)"):
        # The tests' contexts bypass the page's CSP (conftest), so the script tag runs.
        page.add_script_tag(path=str(AXE))
    next_frame(page)
    return page.evaluate(RUN_AXE, TAGS)


def describe(found: dict[str, list[dict[str, Any]]]) -> str:
    """Each violation once (rule, element), with the states it was seen in."""
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for state, violations in found.items():
        for v in violations:
            for node in v["nodes"]:
                entry = seen.setdefault((v["rule"], node["target"]), {**v, "node": node, "states": []})
                entry["states"].append(state)
    lines = []
    for (rule, target), entry in seen.items():
        node = entry["node"]
        lines.append(f"{rule} ({entry['impact']}): {entry['help']}; in {', '.join(entry['states'])}")
        lines.append(f"    {target}: {node['html']}")
        if node["summary"]:
            lines.append("      " + node["summary"].replace("\n", "\n      "))
    return "\n".join(lines)


class Walk:
    """Visits the states of one page, collecting axe's violations of each (the test fails at the end
    with all of them, so one run lists every violation)."""

    def __init__(self, page, name: str) -> None:
        self.page = page
        self.name = name
        self.found: dict[str, list[dict[str, Any]]] = {}
        self.checked: list[str] = []
        self.skipped: list[str] = []

    def check(self, state: str) -> None:
        violations = axe_violations(self.page)
        self.checked.append(state)
        if violations:
            self.found[state] = violations

    def usable(self, testid: str) -> bool:
        control = self.page.locator(f"[data-testid={testid}]").first
        return control.count() > 0 and control.is_visible() and control.is_enabled()

    def toggle(self, state: str, testid: str, shown: str, close: Callable[[], None] | None = None) -> None:
        """Press ``testid``, wait for ``shown`` (a selector), check, then close (the same button again
        unless ``close`` says otherwise)."""
        if not self.usable(testid):
            self.skipped.append(state)
            return
        self.page.click(f"[data-testid={testid}]")
        self.page.locator(shown).first.wait_for(state="visible")
        self.page.wait_for_timeout(300)  # let the panel fill (its first answer from the server)
        self.check(state)
        if close is not None:
            close()
        else:
            self.page.click(f"[data-testid={testid}]")
        next_frame(self.page)

    def escape(self) -> None:
        self.page.keyboard.press("Escape")
        next_frame(self.page)

    def shot(self, state: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"axe-{self.name}-{state}.png"))

    def verdict(self) -> None:
        assert self.checked, "no state was checked"
        assert not self.found, (
            f"axe-core found violations on {self.name} (states checked: {', '.join(self.checked)}; "
            f"skipped: {', '.join(self.skipped) or 'none'}):\n" + describe(self.found)
        )


def run_to_end(page) -> None:
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)


@pytest.fixture(params=list(LOCALES), ids=list(LOCALES))
def language(request) -> str:
    return request.param


@pytest.fixture
def tab(browser, server_url, console, language):
    context, page = open_tab(browser, server_url, console, locale=LOCALES[language], bypass_csp=True)
    yield page
    context.close()
    unexpected = console.unexpected()
    assert not unexpected, "errors in the browser console:\n" + "\n".join(unexpected)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_state_of_every_family_has_no_axe_violation(tab, family, language) -> None:
    page = tab
    walk = Walk(page, f"{family}-{language}")
    choose_gallery(page, FAMILIES[family])
    walk.escape()  # the gallery closes on its choice; Escape for good measure
    walk.check("before a run")
    # The dialogs and menus of the header.
    walk.toggle("gallery", "open-gallery", "[data-testid=gallery-dialog]", walk.escape)
    walk.toggle("new", "open-generate", "[data-testid=generate-dialog]", walk.escape)
    walk.toggle("keys", "keys", "[data-testid=keys-dialog]", walk.escape)
    walk.toggle("assignment", "assign", "dialog[open]", walk.escape)
    # The editor: the grid's tools beside the board, the other families' "Edit the board".
    if walk.usable("edit-board"):
        page.click("[data-testid=edit-board]")
        next_frame(page)
        walk.check("editor")
        page.click("[data-testid=edit-board]")
        next_frame(page)
    elif walk.usable("tool-wall"):
        page.click("[data-testid=tool-wall]")
        walk.check("editor")
        if walk.usable("tool-pan"):
            page.click("[data-testid=tool-pan]")
    else:
        walk.skipped.append("editor")
    # A run to its end.
    run_to_end(page)
    walk.check("after a run")
    walk.toggle("share/export", "export-menu", "[data-testid=export-png]", walk.escape)
    walk.toggle("explain", "explain", "[data-testid=explain-panel]")
    walk.toggle("lab", "lab", "[data-testid=lab-panel]")
    walk.toggle("code", "code", "[data-testid=code-panel]")
    walk.toggle("predict", "predict", "[data-testid=exercise-panel]")
    walk.toggle("presentation", "present", "body", walk.escape)
    if walk.usable("compare"):
        page.click("[data-testid=compare]")
        page.locator("[data-testid=compare-view]").wait_for(state="visible")
        walk.check("comparison")
        # Its run to the end: the timeline at its last step, the table of results shown.
        page.click("[data-testid=compare-preset-instant]")
        page.click("[data-testid=run]")
        status_is(page, "done")
        page.keyboard.press("End")
        page.locator("[data-testid=compare-table]").wait_for(state="visible")
        walk.check("comparison at its end")
        page.click("[data-testid=compare-leave]")
    else:
        walk.skipped.append("comparison")
    walk.shot("end")
    walk.verdict()


# ---- the tiled board: a maze over the server's tile threshold ---------------------------------------
@pytest.fixture(scope="module")
def tiled_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("axe-tiles-server")
    env = {"MAZE_TILE_MIN_CELLS": "100000", "MAZE_TILE_DIR": str(folder / "tiles")}
    yield from serving(folder, "axe-tiles", env=env)


@pytest.mark.parametrize("locale", list(LOCALES.values()))
def test_the_tiled_board_has_no_axe_violation(browser, tiled_server, console, tmp_path, locale) -> None:
    maze = tmp_path / "braid400.png"
    maze_to_image(generate_braid(300, 400, seed=22, braid=0.2)).save(maze)  # 601 x 801 cells
    context, page = open_tab(browser, tiled_server.url, console, locale=locale, bypass_csp=True)
    try:
        walk = Walk(page, f"tiles-{locale}")
        page.set_input_files("[data-testid=upload]", str(maze))
        page.wait_for_selector("[data-testid=canvas][data-tiles-settled='board']", state="attached")
        walk.check("tiled board")
        page.fill("[data-testid=speed]", "1000")
        page.click("[data-testid=run]")
        status_is(page, "done")
        next_frame(page)
        walk.check("tiled board after a run")
        walk.verdict()
    finally:
        context.close()
