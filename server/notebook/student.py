"""A student's own ``search(problem)`` run in the kernel and judged as the page's "Your code" judges it.

The same harness as the page's worker (``static/js/code/harness.py``, loaded by path, here given the
function itself and the kernel's own modules for the rules), over the same answer of
``POST /api/puzzles/<id>/code/rules``; the run's expanded ids go up in parts (``…/code/runs``) and
``…/code/verdict`` judges them against the algorithm asked for: "matches BFS's order…", "differs at
expansion N: …". What the student's search prints, and the traceback of an exception it raised (only
its own frames, as the page shows it), go to the cell's output; nothing of theirs is raised here.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..code_runs import PART_CHARS
from ..i18n import page_catalog, render, t
from ..puzzles.errors import PuzzleError
from .bridge import Bridge
from .kernel import harness_file

CODE = "code"  # the algorithm that replays a student's recorded run
HARNESS_PREFIX = "code.harness."  # the page's words for the harness's messages

_harness: ModuleType | None = None
_harness_lock = threading.Lock()


def harness() -> ModuleType:
    """The page's harness (``ASSETS/static/js/code/harness.py``), loaded once by its path."""
    global _harness
    with _harness_lock:
        if _harness is None:
            path = harness_file()
            spec = importlib.util.spec_from_file_location("mazeviz_code_harness", path)
            if spec is None or spec.loader is None or not path.is_file():
                raise PuzzleError(t("notebook.no_harness", path=str(path)))
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            _harness = module
        return _harness


def page_words(lang: str, key: str, **params: Any) -> str:
    """A sentence of the page's catalog (the page writes these; the notebook writes them the same)."""
    template = page_catalog(lang).get(key) or page_catalog("en").get(key, key)
    return render(template, params, lang)


@dataclass
class StudentRun:
    """A judged run: the widget's entry (the replay, algorithm ``code``), the verdict's JSON, and the
    harness's report of the run (``expanded`` packed, ``error`` with its traceback, …)."""

    entry: dict[str, Any] | None
    verdict: dict[str, Any] | None
    report: dict[str, Any]

    @property
    def error(self) -> dict[str, Any] | None:
        return self.report.get("error")


def check_search(search: Any) -> Callable[[Any], Any]:
    """The student's function, or a TypeError in words (a mistake in the call, not in their search)."""
    if not callable(search):
        raise TypeError(t("notebook.search_not_callable", name=type(search).__name__))
    return search


def label_of(search: Callable[..., Any]) -> str:
    return str(getattr(search, "__name__", None) or t("notebook.your_search"))


def run_search(
    bridge: Bridge, pid: str, search: Callable[[Any], Any], algorithm: str, options: dict[str, Any],
    lang: str, steps: int | None = None, write: Callable[[str], Any] | None = None,
) -> StudentRun:
    """Run ``search`` on the stored puzzle ``pid`` under the run ``options`` (JSON values) and judge it
    against ``algorithm`` as the page does. ``write``: where the student's printing goes (the cell's
    output by default). Refusals of the server (a bad option, an unknown algorithm) raise PuzzleError."""
    check_search(search)
    base = f"/api/puzzles/{pid}/code"
    rules = bridge.post_json(f"{base}/rules", {"options": options}, lang)
    if steps is None:
        steps = int((rules.get("steps") or {}).get("default") or 0) or None
    h = harness()
    words = {key[len(HARNESS_PREFIX):]: value for key, value in page_catalog(lang).items()
             if key.startswith(HARNESS_PREFIX) and isinstance(value, str)}
    h.use_words({"lang": lang, **words})
    out = write if write is not None else sys.stdout.write
    report = h.run_student(search, json.dumps(rules), steps or h.STEP_LIMIT, out, here=True)
    expanded, path, illegal = report["expanded"], report["path"], report["illegal"]
    error = report["error"]
    if error:
        out(error["traceback"] or f"{error['kind']}: {error['message']}\n")
    if error and not expanded and path is None and not illegal:
        return StudentRun(None, None, report)  # nothing to judge: the error is the answer
    raised = error is not None and error["kind"] != "PathError"
    stopped = report["stopped"]
    if stopped is None and raised:
        kind = error["kind"] or page_words(lang, "code.an_error")
        message = error["message"]
        stopped = (page_words(lang, "code.stopped_on_line", kind=kind, line=error["line"], message=message)
                   if error["line"] else page_words(lang, "code.stopped_by", kind=kind, message=message))
    packed = h.pack_ids(expanded)
    parts = max(1, -(-len(packed) // PART_CHARS))
    run = None
    for part in range(parts):
        text = packed[part * PART_CHARS:(part + 1) * PART_CHARS]
        run = bridge.post_json(f"{base}/runs", {"run": run, "part": part, "parts": parts, "text": text},
                               lang)["run"]
    verdict = bridge.post_json(f"{base}/verdict", {
        "options": options, "algorithm": algorithm, "run": run, "count": len(expanded), "path": path,
        "illegal": illegal, "stopped": stopped}, lang)
    entry = None
    if isinstance(verdict.get("code"), str):
        entry = {"algorithm": CODE, "options": {**options, CODE: verdict["code"]}, "label": label_of(search)}
    return StudentRun(entry, verdict, report)
