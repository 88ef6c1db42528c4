"""`mazeviz.show` in a real JupyterLab 4, in Chromium: the wheel installed into a fresh virtual environment
with JupyterLab, a notebook run cell by cell, the widget's board and figures read inside the cell's output.

No server process of ours runs: the widget's front end (the page's modules, bundled) talks to the kernel only.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import ARTIFACTS, MAZE3, case
from tests.helpers import answering
from tests.wheel_env import NOTEBOOK_EXTRAS, wheel_venv

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# A student's BFS (FIFO queue, the goal test on generation), as student mode's tests run it.
BFS = (Path(__file__).resolve().parents[1] / "code_programs" / "bfs.py").read_text()

SEED_003 = """labyrinth = [
  ['S', ' ', ' ', ' ', ' ', ' '],
  ['X', 'X', 'X', 'X', 'X', 'X'],
  ['X', ' ', 'X', ' ', ' ', 'X'],
  ['X', ' ', 'X', 'X', 'X', 'X'],
  ['X', ' ', 'X', ' ', ' ', 'X'],
  ['X', ' ', ' ', ' ', ' ', 'Z'],
  ['X', ' ', ' ', ' ', ' ', 'X'],
  ['X', 'X', 'X', 'X', 'X', 'X'],
]
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _notebook(cells: list[str]) -> dict:
    return {
        "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "cells": [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
                   "source": source} for i, source in enumerate(cells)],
    }


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """JupyterLab from the fresh environment, on a free port, with no token; its root folder."""
    venv = wheel_venv(NOTEBOOK_EXTRAS)
    root = tmp_path_factory.mktemp("lab")
    home = root / ".home"
    port = _free_port()
    env = {
        **os.environ, "HOME": str(home), "MAZEVIZ_HOME": str(home / "mazeviz"),
        "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"), "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '')}",
    }
    env.pop("PYTHONPATH", None)  # the kernel imports mazeviz from the environment, nothing from the checkout
    log = ARTIFACTS / "jupyterlab.log"
    ARTIFACTS.mkdir(exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(venv / "bin" / "jupyter-lab"), "--no-browser", "--ip=127.0.0.1", f"--port={port}",
             "--allow-root", "--IdentityProvider.token=", "--ServerApp.password=",
             "--ServerApp.disable_check_xsrf=True",
             "--LabApp.expose_app_in_browser=True", f"--ServerApp.root_dir={root}",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    with answering(proc, f"{url}/api/status", log, "JupyterLab", within=120):
        yield url, root


@pytest.fixture
def lab_page(browser, lab) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    context.close()


def _run_notebook(page: Page, url: str, root: Path, name: str, cells: list[str]) -> None:
    """Write the notebook, open it in JupyterLab and run every cell."""
    (root / name).write_text(json.dumps(_notebook(cells)))
    page.goto(f"{url}/lab/tree/{name}")
    expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=60_000)
    # The kernel is connected and idle before the cells are run (the status bar says so).
    expect(page.get_by_text("Python 3 (ipykernel) | Idle")).to_be_visible(timeout=60_000)
    first_prompt = page.locator(".jp-Notebook .jp-Cell .jp-InputPrompt").first
    for _ in range(3):  # a run asked for while the session still connects can be dropped: ask again
        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        try:
            expect(first_prompt).not_to_have_text("[ ]:", timeout=20_000)
            return
        except AssertionError:
            continue
    raise AssertionError("JupyterLab did not run the notebook's cells")


def _widget(page: Page, index: int):
    """The index-th mazeviz widget among the notebook's outputs, once its board is drawn."""
    widget = page.locator(".jp-OutputArea-output [data-testid=mazeviz]").nth(index)
    expect(widget).to_be_visible(timeout=90_000)
    expect(widget.locator("canvas").first).to_be_visible(timeout=60_000)
    return widget


def _at_the_end(widget) -> None:
    """Press the transport bar's End once the run has arrived (the button is enabled then)."""
    last = widget.locator("[data-testid=last]")
    expect(last).to_be_enabled(timeout=60_000)
    last.click()


def test_show_bfs_student_search_and_seed_003_in_jupyterlab(lab, lab_page: Page) -> None:
    url, root = lab
    maze3 = case(MAZE3)
    cells = [
        f"import mazeviz\nmazeviz.show({str(maze3)!r}, algorithm='bfs')",
        BFS + f"\nmazeviz.show({str(maze3)!r}, search=search, algorithm='bfs')",
        SEED_003 + "\nmazeviz.show(labyrinth, algorithm='bfs')",
    ]
    _run_notebook(lab_page, url, root, "check.ipynb", cells)

    board = _widget(lab_page, 0)
    _at_the_end(board)
    expect(board.locator("[data-testid=cost]")).to_have_text("52", timeout=30_000)
    lab_page.screenshot(path=str(ARTIFACTS / "jupyterlab-show.png"))

    theirs = _widget(lab_page, 1)
    expect(theirs.locator("[data-testid=code-headline]")).to_contain_text("matches", timeout=60_000)
    _at_the_end(theirs)
    expect(theirs.locator("[data-testid=cost]")).to_have_text("52", timeout=30_000)
    news = lab_page.get_by_role("button", name="No", exact=True)  # JupyterLab's question about its news
    if news.count():
        news.first.click()
        expect(lab_page.get_by_text("Would you like to get notified")).to_be_hidden()
    theirs.locator("[data-testid=code-headline]").scroll_into_view_if_needed()
    lab_page.screenshot(path=str(ARTIFACTS / "jupyterlab-search.png"))  # README's screenshot-jupyterlab.png

    seed = _widget(lab_page, 2)
    _at_the_end(seed)
    expect(seed.locator("[data-testid=cost]")).to_have_text("15", timeout=30_000)
    seed.scroll_into_view_if_needed()
    lab_page.screenshot(path=str(ARTIFACTS / "jupyterlab-seed-003.png"))
