"""What every browser test shares: where things are, and how to wait for the page."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import IN_CI, missing

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"  # gitignored
CASES = ROOT.parent / "shared" / "cases"
CHROMIUM = Path("/usr/bin/chromium")
MAZE3 = CASES / "images" / "lee" / "maze3.png"
PUZZLE6 = CASES / "labyrinth" / "Puzzle_6.csv"
CANVAS = "[data-testid=canvas]"
# The canvas's width, height and FNV-1a hash of its RGBA bytes (``fnv`` computes the same in Python).
CANVAS_HASH = """() => {
  const c = document.querySelector('[data-testid=canvas]');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 2166136261;
  for (let i = 0; i < d.length; i++) { h ^= d[i]; h = Math.imul(h, 16777619); }
  return [c.width, c.height, h >>> 0];
}"""
BROWSER_TEST = [
    pytest.mark.e2e,
    # In CI a missing Chromium fails (the browser fixture says so) instead of skipping.
    pytest.mark.skipif(
        not CHROMIUM.exists() and not IN_CI, reason=f"no Chromium at {CHROMIUM} (Debian package chromium)"
    ),
]


def case(path: Path) -> Path:
    """A file of the shared cases; skipped (failed in CI) when the shared folder is absent."""
    if not path.exists():
        missing(f"the shared cases folder is absent (expected {path})")
    return path


def shooter(prefix: str) -> Callable[[Any, str], None]:
    """``shot(page, name)``: once the page has drawn, save it as ``ARTIFACTS/<prefix>-<name>.png``."""

    def shot(page, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        next_frame(page)
        page.screenshot(path=str(ARTIFACTS / f"{prefix}-{name}.png"))

    return shot


def text(page, testid: str) -> str:
    """The stripped text of the element ``[data-testid=<testid>]`` ("" when it has none)."""
    return (page.text_content(f"[data-testid={testid}]") or "").strip()


def canvas_data(page) -> dict[str, str]:
    """The canvas's data attributes (what the renderer publishes about its drawing)."""
    return page.eval_on_selector(CANVAS, "c => ({...c.dataset})")


def canvas_size_and_hash(page) -> tuple[int, int, int]:
    """The canvas's width, height and hash of its pixels (``CANVAS_HASH``)."""
    width, height, digest = page.evaluate(CANVAS_HASH)
    return width, height, digest


def canvas_hash(page) -> int:
    """A hash of the canvas pixels, to tell whether two moments look the same."""
    return canvas_size_and_hash(page)[2]


def fnv(data: bytes) -> int:
    """The hash ``CANVAS_HASH`` computes, over RGBA bytes."""
    h = 2166136261
    for byte in data:
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
    return h


def puzzle_id(page) -> str:
    """The id of the puzzle the page shows."""
    return page.evaluate("() => document.body.dataset.puzzleId")


def resolved_count(page) -> int:
    """How many re-solves after an edit the page has drawn."""
    return int(page.evaluate("() => Number(document.body.dataset.resolved || 0)"))


def status_word(text: str, lang: str) -> str:
    """The status line's word ``text`` (English: "done", "ready") as the page writes it in ``lang``."""
    if lang == "en":
        return text
    from server.i18n import page_catalog

    keys = [k for k, v in page_catalog("en").items() if k.startswith("status.") and v == text]
    return page_catalog(lang).get(keys[0], text) if keys else text


def ready_word(page) -> str:
    """The status line's "ready" in the page's language."""
    return status_word("ready", page.evaluate("document.documentElement.lang") or "en")


def status_is(page, text: str, timeout: float = 120_000) -> None:
    """Wait until the status line says ``text`` (an English word, said in the page's language)."""
    text = status_word(text, page.evaluate("document.documentElement.lang") or "en")
    page.wait_for_function(
        "t => document.querySelector('[data-testid=status]').textContent === t", arg=text, timeout=timeout
    )


def cell_point(page, row: int, col: int) -> tuple[float, float]:
    """The page point at the centre of a grid cell, from the view transform the renderer publishes."""
    canvas = page.locator("[data-testid=canvas]")
    box = canvas.bounding_box()
    view = "c => [c.dataset.scale, c.dataset.originX, c.dataset.originY].map(Number)"
    scale, ox, oy = canvas.evaluate(view)
    return box["x"] + ox + (col + 0.5) * scale, box["y"] + oy + (row + 0.5) * scale


def next_frame(page) -> None:
    """Let the page draw: two animation frames."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def upload(page, path: Path) -> None:
    """Upload a file through the file picker and wait until the puzzle is drawn."""
    page.set_input_files("[data-testid=upload]", str(path))
    page.wait_for_function(
        "([name, ready]) => document.querySelector('[data-testid=puzzle-name]').textContent === name"
        " && document.querySelector('[data-testid=status]').textContent === ready",
        arg=[path.stem, ready_word(page)],
    )
    next_frame(page)


def at_end(page, timeout: float = 120_000) -> None:
    """Wait until the whole trace is received and the playhead is at its end (where the result shows)."""
    status_is(page, "done", timeout)
    page.wait_for_function(
        "() => { const [at, of] = document.querySelector('[data-testid=position]').textContent.split(' / ');"
        " return at === of && at !== '0'; }",
        timeout=timeout,
    )
    next_frame(page)


def run_to_end(page, algorithm: str = "bfs") -> int:
    """Run ``algorithm`` at max speed, wait until the whole trace is received and played; its length."""
    page.select_option("[data-testid=algorithm]", algorithm)
    page.fill("[data-testid=speed]", "1000")  # the slider's end: "max"
    page.click("[data-testid=run]")
    at_end(page)
    return position(page)[1]


def position(page) -> tuple[int, int]:
    """The player's position and the trace's length, from the "174 / 757" read-out."""
    at, of = page.text_content("[data-testid=position]").replace(",", "").split(" / ")
    return int(at), int(of)


def open_gallery(page) -> None:
    page.click("[data-testid=open-gallery]")
    page.locator("[data-testid=gallery-dialog]").wait_for(state="visible")


def choose_gallery(page, name: str) -> None:
    """Load a bundled puzzle through the gallery dialog and wait until it is shown."""
    open_gallery(page)
    page.click(f"[data-testid=gallery] button[data-name='{name}']")
    page.wait_for_function(
        "([name, ready]) =>"
        " document.querySelector('[data-testid=gallery] button.active')?.dataset.name === name"
        " && document.querySelector('[data-testid=status]').textContent === ready",
        arg=[name, ready_word(page)],
    )
    next_frame(page)


def bfs_distance(rows: list[str], start: tuple[int, int], goal: tuple[int, int]) -> int:
    """Moves on the shortest 4-neighbour path over non-'#' cells: the tests' own oracle."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            return seen[(r, c)]
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            inside = 0 <= nr < len(rows) and 0 <= nc < len(rows[0])
            if inside and rows[nr][nc] != "#" and (nr, nc) not in seen:
                seen[(nr, nc)] = seen[(r, c)] + 1
                queue.append((nr, nc))
    raise AssertionError("no path in the test maze")


def image_rows(path: Path) -> list[str]:
    """A maze image as text rows, one pixel a cell: '#' for dark pixels, '.' for light ones."""
    from PIL import Image

    image = Image.open(path).convert("L")
    width, height = image.size
    light = lambda r, c: image.getpixel((c, r)) >= 128  # noqa: E731
    return ["".join("." if light(r, c) else "#" for c in range(width)) for r in range(height)]


# ---- the teacher's lab (static/js/lab/) -----------------------------------------------------------
LAB = "[data-testid=lab-panel]"


def open_lab(page, tab: str = "heuristic") -> None:
    """Open the lab beside the board on its ``heuristic`` or ``check`` tab."""
    if page.get_attribute("[data-testid=lab]", "aria-pressed") != "true":
        page.click("[data-testid=lab]")
    page.click(f"[data-testid=lab-tab-{tab}]")
    page.locator(LAB).wait_for(state="visible")


def judge(page, formula: str, timeout: float = 60_000) -> None:
    """Type ``formula`` in the lab, press Enter, wait for its verdict or its error."""
    page.fill("[data-testid=lab-formula]", formula)
    page.press("[data-testid=lab-formula]", "Enter")
    page.wait_for_function(
        "f => { const p = document.querySelector('[data-testid=lab-panel]');"
        " return !p.dataset.judging && (p.dataset.judged === f"
        " || !document.querySelector('[data-testid=lab-error]').hidden); }",
        arg=formula, timeout=timeout,
    )
    next_frame(page)


def check_solution(page, solution: str, timeout: float = 60_000) -> None:
    """Paste ``solution`` into the checker, press Check, wait for its verdict or its error."""
    page.evaluate("() => { delete document.querySelector('[data-testid=lab-panel]').dataset.checked; }")
    page.fill("[data-testid=check-input]", solution)
    page.click("[data-testid=check-run]")
    page.wait_for_function(
        "() => { const p = document.querySelector('[data-testid=lab-panel]');"
        " return !p.dataset.checking && (p.dataset.checked"
        " || !document.querySelector('[data-testid=check-error]').hidden); }",
        timeout=timeout,
    )
    next_frame(page)


def solve_json(path: Path, *flags: str) -> dict[str, Any]:
    """``run.py solve PATH --json`` (the CLI's answer, the tests' oracle)."""
    import json
    import subprocess

    from tests.helpers import venv_python

    out = subprocess.run([venv_python(), "run.py", "solve", str(path), "--json", *flags],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def move_string(path: list[list[int]]) -> str:
    """A grid path ([row, col] cells) as its moves, U D L R."""
    from itertools import pairwise

    names = {(-1, 0): "U", (1, 0): "D", (0, -1): "L", (0, 1): "R"}
    return "".join(names[(b[0] - a[0], b[1] - a[1])] for a, b in pairwise(path))


def open_tab(browser, url: str, console, **context: Any) -> tuple[Any, Any]:
    """(context, tab): a tab in a browser context of its own (a 1366 x 768 laptop unless ``context``
    says otherwise), its console errors collected into ``console`` like the ``page`` fixture's, once
    the page at ``url`` is ready."""
    browser_context = browser.new_context(**{"viewport": {"width": 1366, "height": 768}, **context})
    tab = browser_context.new_page()
    tab.set_default_timeout(120_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    tab.goto(url)
    status_is(tab, "ready")
    return browser_context, tab


def own_server_tab(browser, url: str, console, **context: Any):
    """``open_tab`` for a fixture to ``yield from``: closed after the test, which fails on console errors."""
    browser_context, tab = open_tab(browser, url, console, **context)
    yield tab
    browser_context.close()
    unexpected = console.unexpected()
    assert not unexpected, "errors in the browser console:\n" + "\n".join(unexpected)
