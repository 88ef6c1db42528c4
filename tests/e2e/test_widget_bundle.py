"""The notebook widget's bundle (static/build/widget.js, issue 33) in Chromium without Jupyter.

A tiny HTML page (served by Playwright's routing) imports the bundle and calls its anywidget
``render`` with a fake ``model`` whose ``send`` goes to Python through ``page.expose_function``.
Python plays the kernel: with ``server.notebook.bridge`` (the kernel's own side of the widget) its
``Bridge`` answers every message; without it, a minimal one here does: ``api`` requests answered by
the real Flask app's test client, ``run_start`` a run on the live layer's ``RunManager``. What the
kernel sends is queued and fetched by the page every 30 ms (Playwright's sync API is driven from the
test's thread only), bytes sent as buffers with ``{"$buffer": i}`` in their place, as the widget
protocol says.
"""

from __future__ import annotations

import base64
import io
import json
import subprocess
import threading
from collections import deque
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from server.notebook.bridge import Bridge, bridge
from server.services import services
from server.solving import solve as solve_cli
from tests.conftest import missing
from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, ROOT

pytestmark = BROWSER_TEST

BUILD = ROOT / "static" / "build"
ORIGIN = "http://mazeviz.test"
SID = "notebook-widget-test"

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/widget.css"></head>
<body><div id="out"></div>
<script type="module">
import widget from "/widget.js";
const handlers = new Set();
const view = (text) => {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new DataView(bytes.buffer); // as anywidget hands buffers over
};
const deliver = (messages) => {
  for (const m of messages || []) for (const h of [...handlers]) h(m.content, (m.buffers || []).map(view));
};
const traits = await window.pyTraits();
const changes = new Map(); // "change:<trait>" -> its handlers
const model = {
  get: (name) => traits[name],
  send: (content) => { window.pySend(content).then(deliver); },
  on: (event, handler) => {
    if (event === "msg:custom") handlers.add(handler);
    else changes.set(event, [...(changes.get(event) || []), handler]);
  },
  off: (event, handler) => {
    if (event === "msg:custom") handlers.delete(handler);
    else changes.set(event, (changes.get(event) || []).filter((h) => h !== handler));
  },
};
// The kernel sets a trait again (a cell assigns widget.runs = ...).
window.setTrait = (name, value) => {
  traits[name] = value;
  for (const h of changes.get(`change:${name}`) || []) h();
};
setInterval(async () => deliver(await window.pyPoll()), 30);
window.cleanup = widget.render({ model, el: document.getElementById("out") });
</script></body></html>
"""


def message(content: dict[str, Any], buffers: list[bytes] = ()) -> dict[str, Any]:
    """A kernel message as the page's fake model hands it on: buffers as base64."""
    return {"content": content, "buffers": [base64.b64encode(b).decode("ascii") for b in buffers]}


class FakeKernel:
    """The kernel's side of the widget protocol: the real ``Bridge`` (server/notebook/bridge.py), its
    messages queued for the page's poll instead of a comm."""

    def __init__(self, traits: dict[str, Any], bridge: Bridge | None = None, **settings: Any) -> None:
        """``bridge``: that one (the kernel's own), else a new one with ``settings`` over its config."""
        self.bridge = bridge or Bridge(**settings)
        self.app = self.bridge.app
        self.traits = traits
        self.queue: deque[dict[str, Any]] = deque()
        self.lock = threading.Lock()
        self.sent: list[dict[str, Any]] = []  # what the widget sent, for the assertions

    def put(self, data: bytes, filename: str) -> str:
        """A puzzle stored in the kernel's app as the page's upload does; its id."""
        answer = self.bridge.request("POST", "/api/puzzles", data={"file": (io.BytesIO(data), filename)})
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()["id"]

    def close(self) -> None:
        """The widget is gone: its runs stop."""
        services(self.app).runs.disconnect(SID)

    def send(self, content: dict[str, Any], buffers: list[bytes] | None = None) -> None:
        """The bridge's Sender: what the kernel sends the widget, queued for the page's poll."""
        with self.lock:
            self.queue.append(message(content, buffers or []))

    def from_page(self, content: dict[str, Any]) -> list[dict[str, Any]]:
        """The widget's ``model.send``, answered by the bridge (through ``send``)."""
        self.sent.append(content)
        self.bridge.handle(self, SID, content, self.traits.get("lang") or "en")
        return []

    def poll(self) -> list[dict[str, Any]]:
        with self.lock:
            out = list(self.queue)
            self.queue.clear()
        return out


@pytest.fixture(scope="module")
def bundle() -> Path:
    """static/build/widget.js and widget.css, built now (scripts/build_widget.sh)."""
    try:
        subprocess.run(["bash", "scripts/build_widget.sh"], cwd=ROOT, check=True, capture_output=True,
                       text=True, timeout=300)
    except FileNotFoundError:
        missing("bash is not installed")
    except subprocess.CalledProcessError as err:
        pytest.fail(f"scripts/build_widget.sh failed:\n{err.stdout}\n{err.stderr}")
    return BUILD


def open_widget(browser: Any, bundle: Path, kernel: FakeKernel, console: Any, **context: Any) -> Any:
    """A page running the bundle's render() against ``kernel``."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, **context)
    tab = ctx.new_page()
    tab.set_default_timeout(60_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    files = {"/widget.js": (bundle / "widget.js", "text/javascript"),
             "/widget.css": (bundle / "widget.css", "text/css")}

    def serve(route: Any) -> None:
        path = route.request.url[len(ORIGIN):].split("?")[0]
        if path in files:
            file, kind = files[path]
            route.fulfill(status=200, content_type=kind, body=file.read_bytes())
        elif path in ("/", "/index.html"):
            route.fulfill(status=200, content_type="text/html", body=HARNESS)
        else:  # the widget fetches nothing itself: everything goes through the comm
            console.errors.append(f"the widget asked the network for {route.request.url}")
            route.fulfill(status=404, body="")

    tab.route(f"{ORIGIN}/**", serve)
    tab.expose_function("pyTraits", lambda: kernel.traits)
    tab.expose_function("pySend", kernel.from_page)
    tab.expose_function("pyPoll", kernel.poll)
    tab.goto(f"{ORIGIN}/")
    return tab


def maze3_kernel(maze3: Path, settings: dict[str, Any] | None = None, **traits: Any) -> FakeKernel:
    runs = [{"algorithm": "bfs", "options": {}, "label": "BFS"}]
    kernel = FakeKernel({"view": "single", "runs": runs, "verdicts": [None], "lang": "en", "error": "",
                         **traits}, **(settings or {}))
    kernel.traits["puzzle"] = kernel.put(maze3.read_bytes(), "maze3.png")
    return kernel


def test_the_bundle_shows_maze3_and_bfs_costs_52_at_the_end(browser, bundle, maze3, console) -> None:
    verdict = {"verdict": "matches", "messages": ["Matches BFS's order: the same 346 expansions."]}
    kernel = maze3_kernel(maze3, verdicts=[verdict])  # as for a student's entry: the page's verdict view
    tab = open_widget(browser, bundle, kernel, console)
    try:
        root = tab.locator("[data-testid=mazeviz]")
        canvas = root.locator("[data-testid=canvas]")
        canvas.wait_for(state="visible")
        box = canvas.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 100, box
        assert root.evaluate("e => e.classList.contains('mazeviz-widget')")
        # The run ends (its status line says so), then End jumps there: the cost is the page's figure.
        status = "[data-testid=mazeviz] [data-testid=as-board-status]"
        tab.wait_for_function(f"() => document.querySelector('{status}')?.textContent.startsWith('done')")
        root.locator("[data-testid=last]").click()
        cost = root.locator("[data-testid=cost]")
        tab.wait_for_function("() => document.querySelector('[data-testid=mazeviz] [data-testid=cost]')"
                              ".textContent === '52'")
        assert cost.text_content() == "52"
        # The keys as on the page, with the focus on the board: Home to the start, End to the end.
        board = root.locator("[data-testid=as-board]")
        board.focus()
        tab.keyboard.press("Home")
        tab.wait_for_function("() => document.querySelector('[data-testid=mazeviz] [data-testid=cost]')"
                              ".textContent === '—'")
        tab.keyboard.press("End")
        tab.wait_for_function("() => document.querySelector('[data-testid=mazeviz] [data-testid=cost]')"
                              ".textContent === '52'")
        assert root.locator("[data-testid=optimal]").text_content()  # BFS's verdict in words
        assert root.locator("[data-testid=legend] .legend-item").count() >= 4  # the legend
        assert root.locator("[data-testid=code-headline]").text_content().startswith("Matches BFS's order:")
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "widget-bundle-maze3.png"), full_page=True)
        kinds = {m["type"] for m in kernel.sent}
        assert {"api", "run_start", "run_ack"} <= kinds, kinds
        paths = {m["path"] for m in kernel.sent if m["type"] == "api"}
        assert "/i18n/en.json" in paths and any(p.startswith("/api/puzzles/") for p in paths), paths
        # The cleanup anywidget calls when the output goes: the widget leaves and stops listening.
        tab.evaluate("() => window.cleanup()")
        assert root.count() == 0
        assert console.errors == [], console.errors
    finally:
        kernel.close()
        tab.context.close()


def test_under_reduced_motion_the_run_plays_to_its_end_at_once_in_german(
    browser, bundle, maze3, console,
) -> None:
    kernel = maze3_kernel(maze3, lang="de")
    tab = open_widget(browser, bundle, kernel, console, reduced_motion="reduce")
    try:
        tab.wait_for_function("() => document.querySelector('[data-testid=mazeviz] [data-testid=cost]')"
                              "?.textContent === '52'")
        heading = tab.locator("[data-testid=mazeviz] h3").first.text_content()
        de = json.loads((ROOT / "static" / "i18n" / "de" / "shell.json").read_text(encoding="utf-8"))
        assert heading == de["shell.at_this_step"]
        # The widget is written in German; the notebook's own page keeps its language.
        assert tab.locator("[data-testid=mazeviz]").get_attribute("lang") == "de"
        assert tab.evaluate("() => document.documentElement.lang") == ""
        # The kernel sets the runs again: the widget shows the new run (one board, the old run gone).
        tab.evaluate("() => window.setTrait('runs', [{algorithm: 'dfs', options: {}, label: 'DFS'}])")
        tab.wait_for_function("() => document.querySelector('[data-testid=mazeviz] [data-testid=cost]')"
                              "?.textContent.match(/^[0-9]+$/) && document.querySelectorAll("
                              "'[data-testid=mazeviz] [data-testid=canvas]').length === 1")
        starts = [m["algorithm"] for m in kernel.sent if m["type"] == "run_start"]
        assert starts == ["bfs", "dfs"], starts
        assert console.errors == [], console.errors
    finally:
        kernel.close()
        tab.context.close()


def test_an_error_from_the_kernel_is_shown_in_words_instead_of_the_board(browser, bundle, console) -> None:
    sentence = "No maze here: the file is empty."
    kernel = FakeKernel({"view": "single", "puzzle": "", "runs": [], "verdicts": [], "lang": "en",
                         "error": sentence})
    tab = open_widget(browser, bundle, kernel, console)
    try:
        said = tab.locator("[data-testid=mazeviz] [data-testid=mazeviz-message]")
        said.wait_for()
        assert said.text_content() == sentence
        assert tab.locator("[data-testid=mazeviz] canvas").count() == 0
        assert console.errors == [], console.errors
    finally:
        tab.context.close()


def test_compare_runs_the_panels_on_one_timeline_and_shows_the_table(browser, bundle, maze3, console) -> None:
    runs = [{"algorithm": "bfs", "options": {}, "label": "BFS"},
            {"algorithm": "astar", "options": {"heuristic": "manhattan"}, "label": "A*"}]
    kernel = maze3_kernel(maze3, view="compare", runs=runs, verdicts=[None, None])
    tab = open_widget(browser, bundle, kernel, console)
    try:
        root = tab.locator("[data-testid=mazeviz]")
        panels = root.locator("[data-testid=panel-canvas]")
        panels.first.wait_for(state="visible")
        assert panels.count() == 2
        assert root.locator("[data-testid=compare-leave]").is_hidden()
        tab.wait_for_function("() => document.querySelector('[data-testid=mazeviz] [data-testid=status]')"
                              "?.textContent.startsWith('done')")
        root.locator("[data-testid=compare-last]").click()
        rows = root.locator("[data-testid=compare-table] [data-testid=compare-row]")
        rows.first.wait_for()
        assert rows.count() == 2
        costs = [rows.nth(k).locator("[data-col=cost]").text_content() for k in range(2)]
        assert costs == ["52", "52"], costs
        starts = [m for m in kernel.sent if m["type"] == "run_start"]
        assert [m["algorithm"] for m in starts] == ["bfs", "astar"]
        assert {m["slot"].split(":")[-1] for m in starts} == {"p0", "p1"}  # this view's p0 and p1
        assert starts[1]["options"].get("heuristic") == "manhattan", starts[1]["options"]
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / "widget-bundle-compare.png"), full_page=True)
        assert console.errors == [], console.errors
    finally:
        kernel.close()
        tab.context.close()


def test_a_huge_board_is_refused_in_words_not_drawn(browser, bundle, maze3, console) -> None:
    kernel = maze3_kernel(maze3, settings={"tile_min_cells": 100})  # maze3 counts as huge here
    tab = open_widget(browser, bundle, kernel, console)
    try:
        said = tab.locator("[data-testid=mazeviz] [data-testid=mazeviz-message]")
        said.wait_for()
        en = json.loads((ROOT / "static" / "i18n" / "en" / "notebook.json").read_text(encoding="utf-8"))
        assert said.text_content() == en["notebook.too_big"]
        assert tab.locator("[data-testid=mazeviz] canvas").count() == 0
        assert not [m for m in kernel.sent if m["type"] == "run_start"]
        assert console.errors == [], console.errors
    finally:
        kernel.close()
        tab.context.close()


FAMILY_FILES = [  # one bundled file per family: (file, algorithm)
    ("step-seed-003.txt", "bfs"),
    ("labyrinth-course-5x5.json", "bfs"),
    ("zenji-seed-001.txt", "bfs"),
    ("sliding-aima-3-28.txt", "astar"),
    ("weighted-swamp.txt", "dijkstra"),
]


@pytest.mark.parametrize(("name", "algorithm"), FAMILY_FILES)
def test_every_family_plays_to_its_cost_in_the_widget(browser, bundle, console, name, algorithm) -> None:
    """Each family's view, in the widget: the board is drawn, and at the end the cost is the CLI's."""
    path = ROOT / "mazes" / name
    runs = [{"algorithm": algorithm, "options": {}, "label": algorithm}]
    kernel = FakeKernel({"view": "single", "runs": runs, "verdicts": [None], "lang": "en", "error": ""})
    kernel.traits["puzzle"] = kernel.put(path.read_bytes(), name)
    puzzle = services(kernel.app).store.get(kernel.traits["puzzle"])
    expected = solve_cli(puzzle, algorithm, {}).json["cost"]
    tab = open_widget(browser, bundle, kernel, console)
    try:
        root = tab.locator("[data-testid=mazeviz]")
        expect(root.locator("canvas").first).to_be_visible()
        expect(root.locator("[data-testid=as-board-status]")).to_contain_text("done")
        root.locator("[data-testid=last]").click()
        expect(root.locator("[data-testid=cost]")).to_have_text(f"{expected:g}" if isinstance(expected, float)
                                                                else str(expected))
        tab.screenshot(path=str(ARTIFACTS / f"widget-bundle-{path.stem}.png"), full_page=True)
        assert console.errors == [], console.errors
    finally:
        kernel.close()
        tab.context.close()


def test_mazeviz_compare_with_a_students_search_beside_bfs_and_astar(browser, bundle, maze3, console) -> None:
    """What ``mazeviz.compare(puzzle, ["bfs", "astar", search])`` makes, played: three panels, the student's
    search one of them, all three at cost 52 in the table."""
    import runpy

    from server.notebook import api
    search = runpy.run_path(str(ROOT / "tests" / "code_programs" / "bfs.py"))["search"]
    widget = api.compare(str(maze3), ["bfs", "astar", search])
    traits = {name: getattr(widget, name) for name in ("view", "puzzle", "runs", "verdicts", "lang", "error")}
    assert traits["error"] == "", traits["error"]
    kernel = FakeKernel(traits, bridge())  # the kernel's own: it holds the student's run
    tab = open_widget(browser, bundle, kernel, console)
    try:
        root = tab.locator("[data-testid=mazeviz]")
        panels = root.locator("[data-testid=panel-canvas]")
        expect(panels).to_have_count(3)
        expect(root.locator("[data-testid=status]")).to_contain_text("done")
        root.locator("[data-testid=compare-last]").click()
        rows = root.locator("[data-testid=compare-table] [data-testid=compare-row]")
        expect(rows).to_have_count(3)
        costs = [rows.nth(k).locator("[data-col=cost]").text_content() for k in range(3)]
        assert costs == ["52", "52", "52"], costs
        assert "code" in [m["algorithm"] for m in kernel.sent if m["type"] == "run_start"]
        tab.screenshot(path=str(ARTIFACTS / "widget-bundle-compare-search.png"), full_page=True)
        assert console.errors == [], console.errors
    finally:
        kernel.close()
        tab.context.close()
