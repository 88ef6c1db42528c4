"""Student mode's rules in the page are the server's (server/code_rules.py, docs/STUDENT.md).

The page's Python builds each family's ``Problem`` from the modules and the plain data of
``…/code/rules``. Here the page's harness (static/js/code/harness.py) does the same in a child CPython
where numpy cannot be imported and no module of this server is on the path (``python -I``: only the
modules the rules carry), and walks every gallery puzzle breadth-first: each state's student form, goal
test, heuristics and successors (forms and costs, in order) must be the server's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque
from typing import Any

import pytest

from server.code_rules import module_sources, problem_rules
from server.grading import HARNESS_CHILD_PRELUDE
from server.judging import rule_options
from server.puzzles.registry import family_of, load_puzzle
from tests.helpers import ROOT

MAZES = ROOT / "mazes"


def load_path(path: Any) -> Any:
    return load_puzzle(path.read_bytes(), path.name)

GALLERY = json.loads((MAZES / "gallery.json").read_text())
HARNESS = ROOT / "static" / "js" / "code" / "harness.py"
WALK = 400  # states walked per puzzle and variant

# The child: numpy blocked, the harness loaded, for each job the rules built and walked breadth-first.
_CHILD = HARNESS_CHILD_PRELUDE + """
from collections import deque
out = []
for job in json.load(sys.stdin):
    world = harness.Rules(job["rules"])
    out.append(WALK(world, job["count"]))
    assert "numpy" not in sys.modules
    assert all(m.__file__.startswith(harness._loaded[1]) for n, m in sys.modules.items()
               if n == "server" or n.startswith("server."))
print(json.dumps(out))
"""

_WALK = """
def WALK(world, count):
    seen = {}
    order = []
    queue = deque()
    for s in world.starts:
        if s not in seen:
            seen[s] = True
            queue.append(s)
    rows = []
    while queue and len(rows) < count:
        s = queue.popleft()
        moves = world.expand(s)
        rows.append([world.form(s), world.is_goal(s),
                     {name: world.value(name, s) for name in world.heuristic_names},
                     [[world.form(t), c] for t, c in moves]])
        for t, _c in moves:
            if t not in seen:
                seen[t] = True
                queue.append(t)
    return rows
"""


def _number(value: float) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _server_walk(problem: Any, names: list[str], count: int) -> list[Any]:
    """The same walk over the server's own problem, in the same JSON shapes."""
    seen: set[Any] = set()
    queue: deque[Any] = deque()
    for s in dict.fromkeys(problem.initial_states()):
        if s not in seen:
            seen.add(s)
            queue.append(s)
    rows = []
    while queue and len(rows) < count:
        s = queue.popleft()
        moves = list(problem.successors(s))
        rows.append([problem.student_state(s), bool(problem.is_goal(s)),
                     {name: _number(float(problem.heuristic(s, name))) for name in names},
                     [[problem.student_state(t), _number(c)] for t, c in moves]])
        for t, _c in moves:
            if t not in seen:
                seen.add(t)
                queue.append(t)
    return rows


# Each gallery puzzle, and for some the other rules a run may choose (a diagonal move, a flow, a view).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "grid": [{}, {"diagonal": True}],
    "zenji": [{}, {"flow": "free"}],
    "labyrinth": [{}, {"view": "sets"}, {"moves": "separate"}],
}


def _jobs() -> list[tuple[str, dict[str, Any], Any, Any]]:
    jobs = []
    for entry in GALLERY:
        puzzle = load_path(MAZES / entry["file"])
        family = family_of(puzzle)
        for options in VARIANTS.get(family.name, [{}]):
            values = rule_options(family, options)
            problem, rules = problem_rules(family, puzzle, values)
            jobs.append((f"{entry['file']} {options}", options, problem, rules))
    return jobs


def test_every_family_has_rules_for_the_page() -> None:
    families = {family_of(load_path(MAZES / e["file"])).name for e in GALLERY}
    assert families == {"grid", "sliding", "step", "zenji", "labyrinth"}
    for name, _options, _problem, rules in _jobs():
        assert rules is not None, name
        assert not any("numpy" in text.split("TYPE_CHECKING")[0] for text in rules.sources.values()
                       if "import numpy" in text.split("TYPE_CHECKING")[0]), name


def test_the_rules_in_a_python_without_numpy_walk_as_the_servers_do() -> None:
    jobs = _jobs()
    payload = [{"rules": json.loads(json.dumps(rules.to_json(problem, None, None))), "count": WALK}
               for _name, _options, problem, rules in jobs]
    done = subprocess.run([sys.executable, "-I", "-c", _CHILD.replace("out = []", _WALK + "\nout = []"),
                           str(HARNESS)], input=json.dumps(payload), capture_output=True, text=True,
                          timeout=300, cwd="/")
    assert done.returncode == 0, done.stderr[-3000:]
    walks = json.loads(done.stdout)
    for (name, _options, problem, _rules), page in zip(jobs, walks, strict=True):
        names = [h for h in problem.heuristics if h != "pdb"]  # pdb's tables stay on the server
        server = json.loads(json.dumps(_server_walk(problem, names, WALK)))
        page = [[form, goal, {k: v for k, v in values.items() if k in names}, moves]
                for form, goal, values, moves in page]
        assert len(page) == len(server) > 1, name
        for k, (mine, theirs) in enumerate(zip(page, server, strict=True)):
            assert mine == theirs, f"{name}: state {k} of the walk differs"


def test_the_modules_sent_are_what_the_problem_imports() -> None:
    sources = module_sources("server.puzzles.sliding.problem")
    assert sources is not None
    assert {"server/__init__.py", "server/search/problem.py", "server/search/costs.py",
            "server/puzzles/sliding/model.py", "server/puzzles/sliding/problem.py"} <= set(sources)
    assert "server/puzzles/sliding/pdb.py" not in sources  # imported inside a function, when present
    assert not any(path.startswith("server/web") or path.endswith("family.py") for path in sources)


@pytest.mark.parametrize("file", ["step-seed-003.txt"])
def test_the_step_reach_table_without_numpy_is_numpys(file: str) -> None:
    from server.puzzles.step.problem import reach_lists, reach_table

    puzzle = load_path(MAZES / file)
    assert reach_lists(puzzle) == reach_table(puzzle)
