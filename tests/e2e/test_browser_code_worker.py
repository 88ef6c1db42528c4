"""The student-code worker (static/js/code/worker.js) in headless Chromium, under the page's CSP: Pyodide
loads, a run answers as the CPython harness does, the network is gone for the student's code, a crash of
Python is reported and the next run gets a fresh one, and a worker stuck in an endless program is
terminated and replaced. Prints how long Pyodide takes to load (no time is asserted)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.conftest import missing
from tests.e2e.pages import BROWSER_TEST, ROOT
from tests.test_code_harness import OPEN3, WALLED, harness, program, space_of

pytestmark = BROWSER_TEST

VENDOR = ROOT / "static" / "vendor" / "pyodide"

# Creates the worker as the page does; every message it posts is kept with its time since creation.
START = """() => {
  if (window.__worker) window.__worker.terminate();
  window.__msgs = [];
  const t0 = performance.now();
  window.__worker = new Worker("/static/js/code/worker.js", {type: "module"});
  window.__worker.onmessage = (e) => window.__msgs.push({...e.data, at: (performance.now() - t0) / 1000});
  window.__worker.onerror = (e) => window.__msgs.push({type: "workererror", message: String(e.message)});
  return true;
}"""
# Posts one run and waits for its "done" (or a worker error); the messages of this run.
RUN = """async ({code, space, steps, timeout}) => {
  const before = window.__msgs.length;
  window.__worker.postMessage({type: "run", code, space, steps});
  const began = performance.now();
  while (performance.now() - began < timeout) {
    const last = (m, k) => k >= before && (m.type === "done" || m.type === "workererror");
    const end = window.__msgs.findIndex(last);
    if (end >= 0) return window.__msgs.slice(before, end + 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return window.__msgs.slice(before);
}"""


@pytest.fixture(scope="module")
def tab(browser, server_url):
    """The app's page with its CSP in force (no bypass: the worker must load under it)."""
    if not (VENDOR / "pyodide.asm.wasm").exists():
        missing(f"Pyodide is not in {VENDOR.relative_to(ROOT)} (scripts/setup.sh fetches pyodide@314.0.7)")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(120_000)
    answer = page.goto(server_url)
    assert "'wasm-unsafe-eval'" in answer.headers["content-security-policy"]
    yield page
    context.close()


def start(tab) -> None:
    tab.evaluate(START)


def run(tab, code: str, space: dict[str, Any], steps: int = 150_000, timeout: float = 120) -> list[dict]:
    """The worker's messages for one run, ending with its "done"."""
    messages = tab.evaluate(RUN, {"code": code, "space": space, "steps": steps, "timeout": timeout * 1000})
    assert messages and messages[-1]["type"] == "done", f"no done from the worker: {messages}"
    return messages


def done_of(messages: list[dict]) -> dict[str, Any]:
    done = dict(messages[-1])
    for key in ("type", "at"):
        done.pop(key)
    return done


def same_as_the_harness(done: dict[str, Any], code: str, space: dict[str, Any], steps: int = 150_000) -> None:
    ours = harness.run_student(code, json.dumps(space), steps, None)
    assert done["expanded"] == harness.pack_ids(ours["expanded"]) and done["count"] == len(ours["expanded"])
    for key in ("path", "illegal", "error", "stopped", "reached"):
        assert done[key] == ours[key], key


def test_pyodide_loads_under_the_csp_and_runs_as_the_harness_does(tab) -> None:
    began = time.monotonic()
    start(tab)
    space = space_of(WALLED)
    messages = run(tab, program("bfs"), space)
    ready = next(m for m in tab.evaluate("window.__msgs") if m["type"] == "ready")
    print(
        f"\nPyodide load: {ready['at']:.2f} s from new Worker to ready (the worker's own count "
        f"{ready['seconds']:.2f} s; first run done {time.monotonic() - began:.2f} s after the start)"
    )
    assert [m["type"] for m in tab.evaluate("window.__msgs")][:2] == ["loading", "ready"]
    done = done_of(messages)
    assert done["error"] is None and done["stopped"] is None and done["path"]
    same_as_the_harness(done, program("bfs"), space)
    assert isinstance(done["seconds"], float)

    for name in ("dfs", "ucs", "astar", "idastar", "bfs_stack", "crash", "not_a_list"):
        same_as_the_harness(done_of(run(tab, program(name), space)), program(name), space)

    done = done_of(run(tab, program("bfs"), space, steps=5))
    assert done["stopped"] == "step limit: 5 expansions (calls of successors)" and done["error"] is None
    assert done["count"] == 5


def test_printed_output_streams_before_done(tab) -> None:
    code = "def search(problem):\n    for i in range(3):\n        print('line', i)\n    return None\n"
    messages = run(tab, code, space_of(OPEN3))
    assert [m["text"] for m in messages if m["type"] == "output"] == ["line 0\n", "line 1\n", "line 2\n"]
    code = "def search(problem):\n    for i in range(20000):\n        print('x' * 9)\n    return None\n"
    text = "".join(m["text"] for m in run(tab, code, space_of(OPEN3)) if m["type"] == "output")
    assert text.endswith("only the first 64 KB are shown\n") and len(text) < 64 * 1024 + 200


def test_a_syntax_error_and_a_recursion_error_carry_the_students_line(tab) -> None:
    done = done_of(run(tab, "def search(problem):\n    return [problem.start\n", space_of(OPEN3)))
    assert done["error"]["kind"] == "SyntaxError" and done["error"]["line"] == 2
    code = "def down(n):\n    return down(n + 1)\n\n\ndef search(problem):\n    return down(0)\n"
    done = done_of(run(tab, code, space_of(OPEN3)))
    assert done["error"]["kind"] == "RecursionError" and done["error"]["line"] == 2


NETWORK = ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "importScripts", "WebTransport",
           "indexedDB", "caches", "Worker"]


def test_the_students_code_has_no_network(tab) -> None:
    code = f"""import js


def search(problem):
    for name in {NETWORK!r}:
        print(name, getattr(js, name, "gone"))
    proto = js.Object.getPrototypeOf(js.self)
    while proto:
        print(proto.constructor.name, js.Object.getOwnPropertyNames(proto).includes("fetch"))
        proto = js.Object.getPrototypeOf(proto)
    return None
"""
    messages = run(tab, code, space_of(OPEN3))
    lines = "".join(m["text"] for m in messages if m["type"] == "output").splitlines()
    assert lines[: len(NETWORK)] == [f"{name} gone" for name in NETWORK]
    assert all(line.endswith(" False") for line in lines[len(NETWORK) :]), lines

    code = "import js\n\n\ndef search(problem):\n    return js.fetch('/api/algorithms')\n"
    done = done_of(run(tab, code, space_of(OPEN3)))
    assert done["error"]["kind"] == "AttributeError" and done["error"]["line"] == 5

    code = """from pyodide.http import pyfetch


def search(problem):
    pending = pyfetch("/api/algorithms")
    pending.send(None)  # runs the coroutine up to its first await: the call of fetch
"""
    done = done_of(run(tab, code, space_of(OPEN3)))
    assert done["error"] is not None and done["error"]["line"] == 6, done["error"]
    assert "fetch" in done["error"]["message"]

    code = "from pyodide.http import open_url\n\n\ndef search(problem):\n    open_url('/api/algorithms')\n"
    done = done_of(run(tab, code, space_of(OPEN3)))
    assert done["error"] is not None and "XMLHttpRequest" in done["error"]["message"]


def test_a_crash_of_python_is_reported_and_the_next_run_gets_a_fresh_one(tab) -> None:
    # A recursion through C code (functools.cache) overflows the browser's stack long before
    # Python's recursion limit: Pyodide dies; the worker says so and loads Python again.
    code = """import functools


@functools.cache
def down(n):
    return down(n + 1)


def search(problem):
    return down(0)
"""
    done = done_of(run(tab, code, space_of(OPEN3)))
    assert done["error"]["kind"] == "StackOverflow", done["error"]
    assert done["error"]["line"] == 6
    assert "repeated" in done["error"]["traceback"]
    space = space_of(WALLED)
    messages = run(tab, program("astar"), space)
    assert [m["type"] for m in messages][:2] == ["loading", "ready"]
    same_as_the_harness(done_of(messages), program("astar"), space)


def test_an_endless_program_is_ended_by_terminating_the_worker(tab) -> None:
    start(tab)
    run(tab, program("bfs"), space_of(OPEN3))  # loaded
    messages = tab.evaluate(RUN, {"code": program("endless"), "space": space_of(OPEN3), "steps": 150_000,
                                  "timeout": 1500})
    assert all(m["type"] != "done" for m in messages)
    assert tab.evaluate("document.querySelector('[data-testid=status]') !== null")  # the page still answers
    start(tab)  # what the page does: terminate, then a new worker for the next run
    done = done_of(run(tab, program("bfs"), space_of(OPEN3)))
    assert done["error"] is None and done["path"]
