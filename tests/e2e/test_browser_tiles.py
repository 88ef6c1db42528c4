"""A huge board in the page (issue 22, point 2): a maze over the server's tile_min_cells is drawn from
the server's tiles; Run sends no records, the Player counts expansions, End shows the board after
the last one (the path), a step back the one before, and the tiles asked are those of the step shown."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from server.puzzles.grid.generate import generate_braid, maze_to_image
from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, own_server_tab, text
from tests.serve_process import serving

pytestmark = BROWSER_TEST


@pytest.fixture(scope="module")
def tiled_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiles-server")
    env = {"MAZE_TILE_MIN_CELLS": "100000", "MAZE_TILE_DIR": str(folder / "tiles")}
    yield from serving(folder, "tiles", env=env)


@pytest.fixture(scope="module")
def maze_png(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiles") / "braid400.png"
    maze_to_image(generate_braid(300, 400, seed=22, braid=0.2)).save(path)  # 601 x 801 = 481,401 cells
    return path


@pytest.fixture
def tab(browser, tiled_server, console):
    yield from own_server_tab(browser, tiled_server.url, console)


def settled(page, step) -> None:
    page.wait_for_selector(f"[data-testid=canvas][data-tiles-settled='{step}']", state="attached")


def canvas_png(page) -> Image.Image:
    return Image.open(io.BytesIO(page.locator("[data-testid=canvas]").screenshot())).convert("RGB")


def path_pixels(image: Image.Image) -> int:
    pixels = np.asarray(image, dtype=np.int16)
    near = np.abs(pixels - np.array([0xD5, 0x5E, 0x00])).max(axis=2) < 24
    return int(near.sum())


def test_a_huge_board_is_drawn_from_tiles_at_every_step(tab, maze_png) -> None:
    tiles_asked: list[str] = []
    tab.on("request", lambda r: "/tiles/" in r.url and tiles_asked.append(r.url))
    tab.set_input_files("[data-testid=upload]", str(maze_png))
    settled(tab, "board")
    assert "801 × 601 = 481,401 cells" in text(tab, "tiled-note")
    assert not any("/runs/" in url for url in tiles_asked) and tiles_asked  # the board alone
    # The tools that need every record in the page are off, saying why.
    for testid in ("compare", "lab", "code", "explain", "predict"):
        assert tab.is_disabled(f"[data-testid={testid}]"), testid
    assert "drawn as tiles" in tab.get_attribute("[data-testid=explain]", "title")
    board = canvas_png(tab)

    tab.select_option("[data-testid=algorithm]", "bfs")
    tab.click("[data-testid=run]")
    tab.wait_for_selector("[data-testid=canvas]")
    tab.wait_for_function("() => /done/.test(document.querySelector('[data-testid=status]').textContent)")
    if tab.locator("[data-testid=pause]").is_visible():
        tab.click("[data-testid=pause]")  # the run plays from its start after Run
    tab.click("[data-testid=last]")
    steps = int(text(tab, "position").split("/")[-1].strip().replace(",", ""))
    settled(tab, steps)
    end = canvas_png(tab)
    assert text(tab, "cost") not in ("", "—") and text(tab, "path-length") not in ("", "—")
    assert any("/runs/" in url and url.endswith(f"t={steps}") for url in tiles_asked)
    # The end shows the path (vermillion, #D55E00); the board alone only the goal's marker and the
    # minimap's frame in nearby colours.
    shown_alone = path_pixels(board)
    assert path_pixels(end) > shown_alone + 2000, (path_pixels(end), shown_alone)

    tab.click("[data-testid=step-back]")  # one step back: the path goes, the expansions stay
    settled(tab, steps - 1)
    assert path_pixels(canvas_png(tab)) < shown_alone + 500
    tab.click("[data-testid=first]")
    settled(tab, 0)

    # A share link at a step opens the same run at that step (the kept run is found at once).
    for _ in range(3):
        tab.click("[data-testid=step10]")
    settled(tab, 30)
    tab.click("[data-testid=share]")
    tab.wait_for_selector("[data-testid=share-status][data-url]", state="attached")
    url = tab.get_attribute("[data-testid=share-status]", "data-url")
    assert "at=30" in url, url
    other = tab.context.new_page()
    other.goto(url)
    other.wait_for_function(
        "t => document.querySelector('[data-testid=position]').textContent === t", arg=f"30 / {steps:,}"
    )
    settled(other, 30)
    assert other.is_hidden("[data-testid=error]") or text(other, "error") == ""
    other.close()
    tab.click("[data-testid=first]")
    settled(tab, 0)

    # Zoomed in, the finest level's tiles are asked for.
    tiles_asked.clear()
    tab.locator("[data-testid=canvas]").focus()
    for _ in range(6):
        tab.keyboard.press("+")
    tab.wait_for_timeout(800)
    settled(tab, 0)
    assert any("/tiles/0/" in url for url in tiles_asked), tiles_asked[:5]
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / "tiles-zoomed.png"))

    # A click in "Set start" mode picks the cell under the pointer, as on a board drawn whole.
    tab.click("[data-testid=pick-start]")
    box = tab.locator("[data-testid=canvas]").bounding_box()
    tab.mouse.click(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.4)
    row, col = (int(v) for v in tab.input_value("[data-testid=start-rc]").split(","))
    assert 0 <= row < 601 and 0 <= col < 801

    # The hover read-out asks the server for the cell under the pointer.
    tab.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    tab.wait_for_function("() => /^row \\d+, col \\d+ · /.test(document.getElementById('hover').textContent)")
