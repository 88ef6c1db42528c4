"""Fixtures for the browser tests: the app in a subprocess, Debian's Chromium driven by Playwright.

The server runs in its own process because Flask-SocketIO's test client patches the shared
SocketIO object for the rest of a pytest process (docs: DESIGN "Stack facts").
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import missing
from tests.e2e.pages import ARTIFACTS, CHROMIUM, MAZE3, PUZZLE6, ROOT, case
from tests.helpers import answering, venv_python

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """Start ``run.py serve`` on a free port, wait until it answers, stop it at the end.

    With ``MAZE_E2E_URL`` set, test that already running server instead.
    """
    if os.environ.get("MAZE_E2E_URL"):
        yield os.environ["MAZE_E2E_URL"].rstrip("/")
        return
    port = _free_port()
    log = ARTIFACTS / "server.log"
    ARTIFACTS.mkdir(exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen(
            [venv_python(), "run.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    url = f"http://127.0.0.1:{port}"
    with answering(proc, f"{url}/api/algorithms", log, "the server"):
        yield url


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session."""
    if not CHROMIUM.exists():
        missing(f"no Chromium at {CHROMIUM} (install Debian's chromium package)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class ConsoleWatch:
    """Collects console errors and uncaught page errors; a test may allow expected ones."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def maze3() -> Path:
    """The shared cases' maze3.png (Lee's example: BFS finds cost 52)."""
    return case(MAZE3)


@pytest.fixture
def puzzle6() -> Path:
    """The shared cases' labyrinth Puzzle_6.csv."""
    return case(PUZZLE6)


@pytest.fixture
def console() -> ConsoleWatch:
    return ConsoleWatch()


@pytest.fixture
def page(browser, server_url, console, request):
    """A fresh laptop-sized page on the app; fails the test on any unexpected console error."""
    # Playwright's string predicates (wait_for_function) are evaluated with eval, which the page's
    # CSP forbids: the tests' own scripts bypass it. test_the_page_works_under_its_content_security_policy
    # drives a page with the CSP in force.
    context = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    tab = context.new_page()
    tab.set_default_timeout(120_000)  # the first search compiles the kernels (several seconds)
    tab.on("console", lambda m: m.type == "error" and console.errors.append(f"console.error: {m.text}"))
    tab.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    tab.goto(server_url)
    tab.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'ready'")
    yield tab
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        tab.screenshot(path=str(ARTIFACTS / f"failed-{request.node.name}.png"))
    context.close()
    unexpected = console.unexpected()
    assert not unexpected, "errors in the browser console:\n" + "\n".join(unexpected)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Expose each phase's report on the test item (the page fixture screenshots failures)."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
