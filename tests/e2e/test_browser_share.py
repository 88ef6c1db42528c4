"""Share and export in a real headless Chromium: a share link reopens the same puzzle, algorithm,
options and step (the canvas pixel for pixel); the board as PNG, the result as JSON (equal to
`run.py solve --json`) and an animated GIF made by the server download and decode."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from PIL import Image

from tests.e2e.pages import (
    ARTIFACTS,
    BROWSER_TEST,
    ROOT,
    at_end,
    canvas_size_and_hash,
    choose_gallery,
    fnv,
    next_frame,
    position,
    status_is,
)

pytestmark = BROWSER_TEST

ERROR = "[data-testid=error]"
STATUS_LINE = "[data-testid=share-status]"
STARTS_WITH = "([s, t]) => document.querySelector(s).textContent.startsWith(t)"
NO_CLIPBOARD = "() => Object.defineProperty(navigator, 'clipboard', {value: undefined, configurable: true})"
def watch(tab, console) -> None:
    tab.set_default_timeout(120_000)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))


def run_astar_octile(page, weight: str = "1") -> None:
    choose_gallery(page, "seed-lee-example")
    page.select_option("[data-testid=algorithm]", "astar")
    page.select_option("[data-testid=option-heuristic]", "octile")
    page.fill("[data-testid=option-weight]", weight)
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)


def open_export(page, item: str) -> None:
    page.click("[data-testid=export-menu]")
    page.click(f"[data-testid={item}]")


def test_a_share_link_reopens_the_puzzle_algorithm_options_and_step(page, server_url, console):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    run_astar_octile(page, weight="1.5")
    page.click("[data-testid=first]")
    for _ in range(12):
        page.keyboard.press("Shift+ArrowRight")
    at, total = position(page)
    assert at == 120 and total > 120
    next_frame(page)
    original = canvas_size_and_hash(page)

    page.click("[data-testid=share]")
    page.wait_for_function(STARTS_WITH, arg=[STATUS_LINE, "Link copied"])
    url = page.evaluate("() => navigator.clipboard.readText()")
    assert url == page.get_attribute(STATUS_LINE, "data-url")
    assert url.startswith(f"{server_url}/?gallery=seed-lee-example&algorithm=astar&")
    for part in ("heuristic=octile", "weight=1.5", "diagonal=false", "at=120"):
        assert part in url, url
    assert url.endswith("&lang=en"), url  # the link opens in the language it was shared in

    other = page.context.new_page()
    watch(other, console)
    other.goto(url)
    status_is(other, "done")
    other.wait_for_function(
        "t => document.querySelector('[data-testid=position]').textContent === t", arg=f"120 / {total:,}"
    )
    next_frame(other)
    assert other.text_content("[data-testid=puzzle-name]") == page.text_content("[data-testid=puzzle-name]")
    assert other.input_value("[data-testid=algorithm]") == "astar"
    assert other.input_value("[data-testid=option-heuristic]") == "octile"
    assert other.input_value("[data-testid=option-weight]") == "1.5"
    assert not other.is_checked("[data-testid=option-diagonal]")
    assert other.text_content("[data-testid=expanded]") == page.text_content("[data-testid=expanded]")
    assert canvas_size_and_hash(other) == original, "the reopened board differs from the shared one"
    assert not other.is_visible(ERROR)
    other.close()


def test_png_and_json_downloads(page, console):
    run_astar_octile(page)
    with page.expect_download() as download:
        open_export(page, "export-png")
    png = download.value
    assert png.suggested_filename == "seed-lee-example-astar.png"
    width, height, canvas_hash = canvas_size_and_hash(page)
    with Image.open(png.path()) as image:
        assert image.format == "PNG" and image.size == (width, height)
        assert fnv(image.convert("RGBA").tobytes()) == canvas_hash, "the PNG is not the board as shown"

    with page.expect_download() as download:
        open_export(page, "export-json")
    saved = download.value
    assert saved.suggested_filename == "seed-lee-example-astar.json"
    result = json.loads(saved.path().read_text(encoding="utf-8"))
    cli = subprocess.run(
        [sys.executable, "run.py", "solve", "mazes/seed-lee-example.txt", "--family", "grid",
         "--algorithm", "astar", "--heuristic", "octile", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
    )
    expected = json.loads(cli.stdout)
    result.pop("seconds")
    expected.pop("seconds")
    assert result == expected
    assert "saved as JSON" in page.text_content(STATUS_LINE)


def test_a_gif_export_shows_its_progress_then_downloads(page):
    choose_gallery(page, "perfect-small")
    page.select_option("[data-testid=algorithm]", "bfs")
    page.fill("[data-testid=speed]", "1000")
    page.click("[data-testid=run]")
    at_end(page)
    page.evaluate(
        """s => { const node = document.querySelector(s); window.shareTexts = [];
                 new MutationObserver(() => window.shareTexts.push(node.textContent))
                   .observe(node, {childList: true, characterData: true, subtree: true}); }""",
        STATUS_LINE,
    )
    with page.expect_download(timeout=120_000) as download:
        open_export(page, "export-gif")
    gif = download.value
    assert gif.suggested_filename == "perfect-small-bfs.gif"
    with Image.open(io.BytesIO(gif.path().read_bytes())) as image:
        assert image.format == "GIF" and 2 <= image.n_frames <= 120 and max(image.size) <= 640
    texts = page.evaluate("() => window.shareTexts")
    assert any(t.startswith("Rendering GIF…") for t in texts), texts
    page.wait_for_function(STARTS_WITH, arg=[STATUS_LINE, "GIF saved"])


def test_the_gif_item_says_why_a_labyrinth_has_none(page):
    choose_gallery(page, "labyrinth-course-5x5")
    page.click("[data-testid=export-menu]")
    item = page.locator("[data-testid=export-gif]")
    assert item.get_attribute("aria-disabled") == "true"
    assert "Not drawn for a shifting-tile labyrinth" in item.get_attribute("title")
    assert "grid mazes" in item.text_content()
    assert page.get_attribute("[data-testid=export-json]", "aria-disabled") == "true"  # no run yet
    assert page.get_attribute("[data-testid=export-png]", "aria-disabled") == "false"
    item.click(force=True)  # Playwright waits for aria-disabled items to be enabled
    assert page.is_visible("[data-testid=export-gif]"), "a disabled item must not act (nor close the menu)"
    page.keyboard.press("Escape")
    assert not page.is_visible("[data-testid=export-gif]")


def test_without_a_clipboard_an_uploads_link_shows_selected_in_a_dialog(page, server_url, console, tmp_path):
    maze = tmp_path / "little-room.txt"
    maze.write_text("#######\n#S....#\n#.###.#\n#....G#\n#######\n", encoding="utf-8")
    page.set_input_files("[data-testid=upload]", str(maze))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=puzzle-name]').textContent === 'little-room'"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'"
    )
    page.evaluate(NO_CLIPBOARD)
    page.click("[data-testid=share]")
    dialog = page.locator("[data-testid=share-dialog]")
    dialog.wait_for(state="visible")
    url, focused, start, end, length = page.evaluate(
        """() => { const i = document.querySelector('[data-testid=share-url]');
                  const focused = document.activeElement === i;
                  return [i.value, focused, i.selectionStart, i.selectionEnd, i.value.length]; }"""
    )
    assert url.startswith(f"{server_url}/?puzzle=") and "at=" not in url  # no run yet: no step
    assert focused and (start, end) == (0, length), "the link must be selected for copying"
    assert "upload" in dialog.text_content()
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")

    other = page.context.new_page()
    watch(other, console)
    other.goto(url)
    other.wait_for_function(
        "() => document.querySelector('[data-testid=puzzle-name]').textContent === 'little-room'"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'"
    )
    assert other.input_value("[data-testid=algorithm]") == page.input_value("[data-testid=algorithm]")
    other.close()


def test_bad_link_parameters_show_the_error_banner_naming_them(page, server_url, console):
    console.allow(r"Failed to load resource: the server responded with a status of 40[04]")
    cases = [
        ("gallery=seed-lee-example&algorithm=astar&weight=abc&at=5", "“weight”"),
        ("gallery=seed-lee-example&algorithm=astar&colour=red", "“colour”"),
        ("gallery=no-such-maze", "“gallery”"),
        ("gallery=seed-lee-example&at=soon", "“at”"),
        ("puzzle=0123456789abcdef0123&algorithm=bfs&at=3", "no longer holds"),
    ]
    for query, words in cases:
        page.goto(f"{server_url}/?{query}")
        page.locator(ERROR).wait_for(state="visible")
        message = page.text_content(ERROR)
        assert words in message, (query, message)
    page.goto(f"{server_url}/?gallery=seed-lee-example&algorithm=bfs&at=99999")
    status_is(page, "done")
    page.locator(ERROR).wait_for(state="visible")
    assert "past the end" in page.text_content(ERROR)
    at, total = position(page)
    assert at == total


def test_screenshots_of_the_export_controls(browser, server_url, console):
    """The menu at a laptop's and a projector's size (test-artifacts/, looked at by people)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1366, 768), (1920, 1080)):
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        tab = context.new_page()
        watch(tab, console)
        tab.goto(f"{server_url}/?gallery=seed-lee-example&algorithm=astar&heuristic=manhattan&at=150")
        status_is(tab, "done")
        tab.click("[data-testid=export-menu]")
        next_frame(tab)
        menu = tab.locator("#export-menu").bounding_box()
        assert menu["x"] >= 0 and menu["x"] + menu["width"] <= width and menu["y"] + menu["height"] <= height
        tab.screenshot(path=str(ARTIFACTS / f"export-menu-{width}.png"))
        context.close()
