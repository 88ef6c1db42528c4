"""A large upload in the page (issue 22, point 3): a generated 36 M-pixel RGB maze image sent to a server
started with a raised ``--max-pixels``; the status line says how many megabytes are sent, then the
server's phases (decoding with a percentage, reading cells), then the board is there. And an upload
cancelled while it is sent leaves the page as it was, without an error."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, own_server_tab, status_is, text
from tests.serve_process import serving

pytestmark = BROWSER_TEST

SIDE = 6000  # 36 M pixels, under the raised limit below and over what decodes between two polls

# Every distinct text of the status line, in order, from the moment the page is set up.
WATCH_STATUS = """() => {
  window.seenStatus = [];
  const status = document.querySelector('[data-testid=status]');
  const note = () => {
    const now = status.textContent;
    if (window.seenStatus[window.seenStatus.length - 1] !== now) window.seenStatus.push(now);
  };
  new MutationObserver(note).observe(status, {childList: true, characterData: true, subtree: true});
}"""


@pytest.fixture(scope="module")
def big_server(tmp_path_factory):
    yield from serving(tmp_path_factory.mktemp("upload-server"), "upload", "--max-pixels", "60000000")


@pytest.fixture(scope="module")
def big_png(tmp_path_factory):
    """A 6000 x 6000 RGB maze: vertical corridors joined along the top, openings top and bottom left,
    speckled so that it is a few megabytes (its bytes take a moment to send)."""
    rng = np.random.default_rng(22)
    grey = np.zeros((SIDE, SIDE), np.uint8)
    grey[1:-1, 1:-1] = 255
    grey[2:-1, 2::4] = 0
    grey[0, 1] = grey[-1, 1] = 255
    free = grey == 255
    grey[free] = 200 + rng.integers(0, 56, int(free.sum()), dtype=np.uint8)  # light: still free
    path = tmp_path_factory.mktemp("upload") / "big36.png"
    Image.fromarray(grey, "L").convert("RGB").save(path, "PNG", compress_level=1)
    return path


@pytest.fixture
def tab(browser, big_server, console):
    yield from own_server_tab(browser, big_server.url, console, bypass_csp=True)


def test_a_large_upload_shows_its_bytes_then_the_servers_phases_then_the_board(tab, big_png) -> None:
    tab.evaluate(WATCH_STATUS)
    tab.set_input_files("[data-testid=upload]", str(big_png))
    tab.wait_for_function("() => document.querySelector('[data-testid=puzzle-name]').textContent === 'big36'")
    status_is(tab, "ready")
    seen = tab.evaluate("window.seenStatus")
    megabytes = big_png.stat().st_size / 1e6
    uploading = [s for s in seen if s.startswith("Uploading big36.png: ")]
    assert uploading and uploading[-1] == f"Uploading big36.png: {megabytes:.1f} of {megabytes:.1f} MB", seen
    decoding = [s for s in seen if s.startswith("Decoding the image… ")]
    assert decoding and all(s.endswith(" %") for s in decoding), seen
    assert any(s.startswith("Reading cells… ") for s in seen), seen
    # In this order: sent, decoded, cells read, then the board.
    order = [seen.index(uploading[0]), seen.index(decoding[0]),
             next(i for i, s in enumerate(seen) if s.startswith("Reading cells")), seen.index("ready")]
    assert order == sorted(order), seen
    assert text(tab, "error") == ""
    assert text(tab, "maze-size").startswith(f"{SIDE} × {SIDE}")
    assert tab.is_hidden("[data-testid=busy-cancel]") and tab.is_hidden("[data-testid=progress]")
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / "upload-progress-board.png"))


def test_an_upload_cancelled_while_it_is_sent_leaves_the_page_as_it_was(tab, big_png) -> None:
    before = tab.evaluate("document.body.dataset.puzzleId")
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {  # ~1 MB/s up: the upload takes seconds
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": 1_000_000,
    })
    tab.evaluate(WATCH_STATUS)
    tab.set_input_files("[data-testid=upload]", str(big_png))
    tab.wait_for_function(
        "() => /^Uploading big36.png: [0-9.]+ of [0-9.]+ MB$/"
        ".test(document.querySelector('[data-testid=status]').textContent)"
    )
    tab.click("[data-testid=busy-cancel]")
    status_is(tab, "ready")
    assert "the upload was cancelled" in text(tab, "status-detail")
    assert text(tab, "error") == ""
    assert tab.evaluate("document.body.dataset.puzzleId") == before
    assert tab.is_hidden("[data-testid=busy-cancel]")
