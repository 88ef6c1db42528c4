"""A maze image drawn on a lattice in the page (issue 22, point 4): read as its cells, it says so, and
"read every pixel instead" reads the same file again pixel by pixel (a new puzzle)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from server.puzzles.grid.generate import generate_perfect
from tests.e2e.pages import BROWSER_TEST, status_is, text, upload

pytestmark = BROWSER_TEST


@pytest.fixture(scope="module")
def lattice_png(tmp_path_factory):
    cells = generate_perfect(12, 15, seed=5).cells  # 25 x 31 cells
    pixels = np.kron(cells, np.ones((8, 8), np.uint8)) * 255  # each cell an 8 x 8 block
    path = tmp_path_factory.mktemp("lattice") / "blocks8.png"
    Image.fromarray(pixels.astype(np.uint8), "L").save(path)
    return path


def test_a_lattice_image_is_read_as_cells_and_again_as_pixels_on_request(page, lattice_png) -> None:
    upload(page, lattice_png)
    assert text(page, "maze-size").startswith("31 × 25")
    assert "8-pixel blocks" in text(page, "lattice-note")
    before = page.evaluate("document.body.dataset.puzzleId")
    page.click("[data-testid=lattice-off]")
    page.wait_for_function(f"() => document.body.dataset.puzzleId !== {before!r}")
    status_is(page, "ready")
    assert text(page, "maze-size").startswith("248 × 200")
    assert page.is_hidden("[data-testid=lattice-note]")
