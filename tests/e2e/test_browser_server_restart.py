"""The page when its server dies in the middle of a run and comes back: it says so in words, keeps what
arrived, and once the server is up again (same address; the puzzle from Redis) runs the search again
without a reload. Two real processes on one real Redis; the page talks to A, B keeps serving."""

from __future__ import annotations

import pytest

from tests.e2e.pages import BROWSER_TEST, MAZE3, at_end, status_is, text
from tests.serve_process import ServeProcess

pytest_plugins = ["tests.redis_server"]
pytestmark = BROWSER_TEST


@pytest.fixture
def servers(redis_url, tmp_path):
    a = ServeProcess(tmp_path, "a", "--redis", redis_url)
    b = ServeProcess(tmp_path, "b", "--redis", redis_url)
    for name, server in (("a", a), ("b", b)):
        server.env["MAZE_STORE_DIR"] = str(tmp_path / f"store-{name}")
        server.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_the_page_says_its_server_died_and_recovers_when_it_is_back(browser, console, servers):
    a, b = servers
    console.allow(r"WebSocket|ERR_CONNECTION_REFUSED|socket\.io")  # the browser's own words while A is down
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, bypass_csp=True)
    page = ctx.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda e: console.errors.append(f"pageerror: {e}"))
    try:
        page.goto(a.url)
        status_is(page, "ready")
        page.set_input_files("[data-testid=upload]", str(MAZE3))
        page.wait_for_function("document.querySelector('[data-testid=puzzle-name]').textContent === 'maze3'")
        puzzle = page.evaluate("document.body.dataset.puzzleId")
        # A big board searched on A: its stream is under way when A dies.
        page.select_option("[data-testid=algorithm]", "bfs")
        page.evaluate(
            "async () => { const r = await fetch('/api/generate', {method: 'POST', headers: {'Content-Type':"
            " 'application/json'}, body: JSON.stringify({kind: 'random', rows: 1500, cols: 1500, seed: 5})});"
            " document.body.dataset.big = (await r.json()).id; }"
        )
        big = page.evaluate("document.body.dataset.big")
        page.goto(f"{a.url}/?puzzle={big}&algorithm=bfs")
        status_is(page, "ready")
        page.click("[data-testid=run]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=status]').textContent.startsWith('streaming')"
        )
        a.kill()
        page.wait_for_function("() => document.querySelector('[data-testid=status]').textContent === 'error'")
        assert "Lost the connection to the server" in text(page, "error")
        # B was never touched: it serves the same puzzle meanwhile.
        import urllib.request

        with urllib.request.urlopen(f"{b.url}/api/puzzles/{puzzle}", timeout=10) as answer:
            assert answer.status == 200
        # A is back on the same address: without a reload, the page's socket reconnects and Run works.
        a.start()
        page.click("[data-testid=preset-instant]")
        page.click("[data-testid=run]")
        at_end(page)
        assert text(page, "error") == ""
        assert text(page, "cost") not in ("", "—")
        # And the puzzle uploaded before A died opens on A again (from Redis): maze3, BFS, 52.
        page.goto(f"{a.url}/?puzzle={puzzle}&algorithm=bfs")
        status_is(page, "ready")
        page.click("[data-testid=preset-instant]")
        page.click("[data-testid=run]")
        at_end(page)
        assert text(page, "cost") == "52"
    finally:
        ctx.close()
