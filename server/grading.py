"""Student programs graded on the server: a submission's code (and ``run.py grade``'s folder of
``search.py`` files), each run over the same rules the page gives a student and judged by the same verdict.

The page runs a student's code in the browser; here it runs in the server's own CPython with the page's
own harness (``static/js/code/harness.py``), over the same rules (``…/code/rules``: the family's own
modules, loaded by the harness from the JSON, or the explicit graph of a family without them), in a
Python where numpy cannot be imported (as in the page) and that sees no module of this server but those
the rules carry; under the page's step limit for the puzzle. The child runs in the **grading sandbox**
(``server/sandbox.py``: bubblewrap, no network, no environment, no host files but the interpreter's,
a memory cap, a CPU and a wall-clock kill, an output cap); a kill becomes a verdict in words. Where the
host cannot isolate a program, ``run_program`` refuses (``SandboxUnavailable``): there is no
unsandboxed fallback (docs/DEPLOY.md, "The grading sandbox")."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from .code_rules import problem_rules
from .code_space import build_space
from .code_verdict import judge_code_run
from .config import ASSETS, Config
from .i18n import t
from .puzzles.options import Values
from .sandbox import Limits, Outcome, SandboxUnavailable, available, python_executable
from .sandbox import run as run_sandboxed

__all__ = ["HARNESS_CHILD_PRELUDE", "SandboxUnavailable", "grade", "run_program", "steps_for", "world_json"]

HARNESS = ASSETS / "static" / "js" / "code" / "harness.py"
HARNESS_INSIDE = f"/sandbox/{HARNESS.name}"  # where the sandbox shows the harness (read-only)
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


def run_program(code: str, world: str, seconds: float, steps: int = STEPS,
                limits: Limits | None = None, bwrap: str | None = None) -> tuple[dict[str, Any], str]:
    """The harness's result for ``code`` over ``world`` (``world_json``): ``expanded``, ``path``,
    ``illegal``, ``error``, ``stopped``; and what the program printed. It runs in the sandbox
    (``limits``: its own, ``seconds`` the wall clock); a program still running after ``seconds`` is
    killed and reported as stopped, with nothing to judge of its order; one killed for its memory or
    output, or by a signal, gets an ``error`` of kind ``Stopped`` whose message says why. Raises
    ``SandboxUnavailable`` (the words: why) where this host cannot isolate a program."""
    refused = available(bwrap)
    if refused is not None:
        raise SandboxUnavailable(t("code.grading.unavailable", why=refused))
    limits = replace(limits or Limits(), seconds=seconds)
    job = json.dumps({"code": code, "world": world, "steps": steps})
    done = run_sandboxed([python_executable(), "-I", "-S", "-c", _CHILD, HARNESS_INSIDE], job,
                         limits, files={HARNESS.name: str(HARNESS)}, bwrap=bwrap)
    return _result(done, seconds)


def _result(done: Outcome, seconds: float) -> tuple[dict[str, Any], str]:
    """The harness's answer from a sandboxed run, or a stop or error in words for a run it ended."""
    empty: dict[str, Any] = {"expanded": [], "path": None, "illegal": None, "error": None, "stopped": None}
    if done.ended == "time":
        return {**empty, "stopped": t("code.grading.time_limit", seconds=format(seconds, "g"))}, done.stderr
    if done.ended != "ok":
        return {**empty, "error": {"kind": "Stopped", "message": done.reason, "line": None,
                                   "traceback": ""}}, done.stderr
    if done.returncode != 0 or not done.stdout.strip():
        last = done.stderr.strip().splitlines()[-1:] or [t("code.grading.no_answer")]
        failed = t("code.grading.process_failed", last=last[0])
        return ({**empty, "error": {"kind": "Crash", "message": failed, "line": None,
                                    "traceback": done.stderr[-2000:]}}, done.stderr)
    try:
        return json.loads(done.stdout), done.stderr
    except ValueError:  # the program wrote to the real stdout (os.write(1, …)) around the harness's answer
        return ({**empty, "error": {"kind": "Crash", "message": t("code.grading.wrote_over_answer"),
                                    "line": None,
                                    "traceback": ""}}, done.stderr)


def grade(family: Any, puzzle: Any, code: str, algorithm: str, options: Values, rules: Values,
          seconds: float = 5.0, world: str | None = None, steps: int | None = None,
          limits: Limits | None = None, bwrap: str | None = None) -> dict[str, Any]:
    """Run ``code`` in the sandbox and judge it against ``algorithm``: the verdict of
    ``…/code/verdict`` plus ``error`` (the program's exception with its own line numbers, or a stop:
    kind ``Stopped``, or None) and ``output`` (what it printed). Raises ``SandboxUnavailable``."""
    world = world or world_json(family, puzzle, rules, options.get("heuristic"))
    ran, printed = run_program(code, world, seconds, steps or steps_for(family, puzzle, rules), limits, bwrap)
    if ran["error"] is not None:
        error = ran["error"]
        where = t("assign.verdict.where_line", line=error["line"]) if error.get("line") else ""
        if error["kind"] == "Stopped":
            message = t("assign.verdict.program_stopped", why=error["message"])
        elif error["kind"] == "MemoryError":
            memory = (limits or Limits()).memory_bytes // 1024**2
            at = t("assign.verdict.at_line", line=error["line"]) if error.get("line") else ""
            message = t("code.grading.memory", memory=memory, at=at)
        else:
            message = t("assign.verdict.program_failed", where=where, kind=error["kind"],
                        message=error["message"])
        return {"verdict": "error", "error": error, "output": printed, "messages": [message]}
    verdict = judge_code_run(family, puzzle, rules, algorithm, options, ran["expanded"], ran["path"],
                             ran.get("illegal"), ran["stopped"])
    return {**verdict, "error": None, "output": printed}
