"""Student programs graded on the command line (``run.py grade``): a teacher's folder of ``search.py``
files, each run over the same space the page gives a student and judged by the same verdict.

The page runs a student's code in the browser; here it runs in a child CPython process with the
page's own harness (``static/js/code/harness.py``), under the same step limit and a time limit (the
child is killed when it is up). It is **not a sandbox**: the program can do what any Python program run
by the teacher can do. Grade only code you would run yourself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from server.code_space import CodeSpace, build_space
from server.code_verdict import judge_code_run
from server.config import ROOT
from server.puzzles.options import Values

HARNESS = ROOT / "static" / "js" / "code" / "harness.py"
STEPS = 150_000  # as the page (static/js/code/code_panel.js)

# The child: read {code, space, steps} from stdin, run the harness, print the result as JSON; what the
# program prints goes to stderr.
_CHILD = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("harness", sys.argv[1])
harness = importlib.util.module_from_spec(spec)
spec.loader.exec_module(harness)
job = json.load(sys.stdin)
out = sys.stdout
result = harness.run_student(job["code"], job["space"], job["steps"], sys.stderr.write)
out.write(json.dumps(result))
"""


def run_program(code: str, space: CodeSpace, seconds: float, steps: int = STEPS,
                heuristic: str | None = None) -> tuple[dict[str, Any], str]:
    """The harness's result for ``code`` over ``space`` (``expanded``, ``path``, ``error``, ``stopped``)
    and what the program printed; a program still running after ``seconds`` is killed and reported as
    stopped, with nothing to judge of its order."""
    job = json.dumps({"code": code, "space": json.dumps(space.to_json(heuristic)), "steps": steps})
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, str(HARNESS)], input=job, capture_output=True,
                              text=True, timeout=seconds)
    except subprocess.TimeoutExpired as err:
        printed = err.stderr if isinstance(err.stderr, str) else (err.stderr or b"").decode(errors="replace")
        return ({"expanded": [], "path": None, "error": None,
                 "stopped": f"time limit: {seconds:g} s (an endless loop?)"}, printed)
    if done.returncode != 0 or not done.stdout.strip():
        last = done.stderr.strip().splitlines()[-1:] or ["no answer"]
        return ({"expanded": [], "path": None, "stopped": None,
                 "error": {"kind": "Crash", "message": f"the program's Python process failed: {last[0]}",
                           "line": None, "traceback": done.stderr[-2000:]}}, done.stderr)
    return json.loads(done.stdout), done.stderr


def grade(family: Any, puzzle: Any, code: str, algorithm: str, options: Values, rules: Values,
          seconds: float = 5.0, max_states: int = 200_000, space: CodeSpace | None = None) -> dict[str, Any]:
    """Run ``code`` and judge it against ``algorithm``: the verdict of ``…/code/verdict`` plus ``error``
    (the program's exception with its own line numbers, or None) and ``output`` (what it printed)."""
    space = space or build_space(family, puzzle, rules, max_states)
    ran, printed = run_program(code, space, seconds, heuristic=options.get("heuristic"))
    if ran["error"] is not None:
        error = ran["error"]
        where = f" (line {error['line']})" if error.get("line") else ""
        return {"verdict": "error", "error": error, "output": printed,
                "messages": [f"Your program failed{where}: {error['kind']}: {error['message']}"]}
    verdict = judge_code_run(space, family, puzzle, algorithm, options, ran["expanded"], ran["path"],
                             ran["stopped"], max_animated=0)
    verdict.pop("code", None)
    return {**verdict, "error": None, "output": printed}
