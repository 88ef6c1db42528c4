"""Student programs graded on the command line (``run.py grade``): a teacher's folder of ``search.py``
files, each run over the same rules the page gives a student and judged by the same verdict.

The page runs a student's code in the browser; here it runs in a child CPython process with the
page's own harness (``static/js/code/harness.py``), over the same rules (``…/code/rules``: the family's
own modules, loaded by the harness from the JSON, or the explicit graph of a family without them), in
a Python where numpy cannot be imported (as in the page) and that sees no module of this server but
those the rules carry; under the page's step limit for the puzzle and a time limit (the child is
killed when it is up). It is **not a sandbox**: the program can do what any Python program run by the
teacher can do. Grade only code you would run yourself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from server.code_rules import problem_rules
from server.code_space import build_space
from server.code_verdict import judge_code_run
from server.config import ROOT, Config
from server.puzzles.options import Values

HARNESS = ROOT / "static" / "js" / "code" / "harness.py"
STEPS = Config().code_steps  # the page's floor (``steps_for``: as the page chooses for a puzzle)

# A child Python as the page's: numpy blocked (the page's Python has none), the harness (its path the
# first argument) loaded as ``harness``. tests/test_code_rules.py starts its children with it too.
HARNESS_CHILD_PRELUDE = """
import importlib.abc, importlib.util, json, sys

class NoNumpy(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ModuleNotFoundError("No module named 'numpy' (the page's Python has none)", name=name)
        return None

sys.meta_path.insert(0, NoNumpy())
spec = importlib.util.spec_from_file_location("harness", sys.argv[1])
harness = importlib.util.module_from_spec(spec)
spec.loader.exec_module(harness)
"""

# The child: isolated from this server's folder (``-I``: the rules bring the modules it needs); read
# {code, world, steps} from stdin, run the harness, print the result as JSON; what the program prints
# goes to stderr.
_CHILD = HARNESS_CHILD_PRELUDE + """
job = json.load(sys.stdin)
out = sys.stdout
result = harness.run_student(job["code"], job["world"], job["steps"], sys.stderr.write)
out.write(json.dumps(result))
"""


def world_json(family: Any, puzzle: Any, rules: Values, heuristic: str | None = None,
               max_states: int = 200_000) -> str:
    """What the page's harness is given for ``puzzle`` under ``rules``: the family's rules, or the
    explicit graph (at most ``max_states`` states) for a family without them; as JSON text."""
    problem, found = problem_rules(family, puzzle, rules)
    if found is not None:
        return json.dumps(found.to_json(problem, family.student, heuristic))
    return json.dumps({"kind": "graph", **build_space(family, puzzle, rules, max_states).to_json(heuristic)})


def steps_for(family: Any, puzzle: Any, rules: Values, config: Config | None = None) -> int:
    """The page's default step limit for ``puzzle`` (``server/web/code.py`` ``steps_of``)."""
    config = config or Config()
    bound = family.state_bound(puzzle, rules) or 0
    return max(config.code_steps, min(bound, config.code_max_steps))


def run_program(code: str, world: str, seconds: float, steps: int = STEPS) -> tuple[dict[str, Any], str]:
    """The harness's result for ``code`` over ``world`` (``world_json``): ``expanded``, ``path``,
    ``illegal``, ``error``, ``stopped``; and what the program printed. A program still running after
    ``seconds`` is killed and reported as stopped, with nothing to judge of its order."""
    job = json.dumps({"code": code, "world": world, "steps": steps})
    try:
        done = subprocess.run([sys.executable, "-I", "-c", _CHILD, str(HARNESS)], input=job,
                              capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired as err:
        printed = err.stderr if isinstance(err.stderr, str) else (err.stderr or b"").decode(errors="replace")
        return ({"expanded": [], "path": None, "illegal": None, "error": None,
                 "stopped": f"time limit: {seconds:g} s (an endless loop?)"}, printed)
    if done.returncode != 0 or not done.stdout.strip():
        last = done.stderr.strip().splitlines()[-1:] or ["no answer"]
        return ({"expanded": [], "path": None, "illegal": None, "stopped": None,
                 "error": {"kind": "Crash", "message": f"the program's Python process failed: {last[0]}",
                           "line": None, "traceback": done.stderr[-2000:]}}, done.stderr)
    return json.loads(done.stdout), done.stderr


def grade(family: Any, puzzle: Any, code: str, algorithm: str, options: Values, rules: Values,
          seconds: float = 5.0, world: str | None = None, steps: int | None = None) -> dict[str, Any]:
    """Run ``code`` and judge it against ``algorithm``: the verdict of ``…/code/verdict`` plus ``error``
    (the program's exception with its own line numbers, or None) and ``output`` (what it printed)."""
    world = world or world_json(family, puzzle, rules, options.get("heuristic"))
    ran, printed = run_program(code, world, seconds, steps or steps_for(family, puzzle, rules))
    if ran["error"] is not None:
        error = ran["error"]
        where = f" (line {error['line']})" if error.get("line") else ""
        return {"verdict": "error", "error": error, "output": printed,
                "messages": [f"Your program failed{where}: {error['kind']}: {error['message']}"]}
    verdict = judge_code_run(family, puzzle, rules, algorithm, options, ran["expanded"], ran["path"],
                             ran.get("illegal"), ran["stopped"])
    return {**verdict, "error": None, "output": printed}
