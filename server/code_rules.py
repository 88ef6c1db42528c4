"""Student mode's rules: the family's own Python, sent to the page to run beside the student's code.

A student's search runs in the browser (Pyodide, which has no numpy). Rather than an explicit graph of
the puzzle's states, the page gets the server's own modules that define the family's ``Problem`` and
the puzzle's plain data, and builds the very ``Problem`` the server searches: no bound on the states,
and rules that cannot drift from the server's (``tests/test_code_rules.py`` pins them over a walk of
every gallery puzzle, in a Python where numpy cannot be imported).

A family takes part when its ``Problem`` has ``student_rules()`` (the plain data, JSON) and its module a
``from_student_rules(data)`` that builds the problem again from it without numpy. The modules sent are
the problem module and what it imports at module level inside ``server`` (``module_sources``), found by
reading their source (``ast``), never by importing them. A family without these keeps the explicit
graph (``server/code_space.py``): the toy family of the tests, a family added later.
"""

from __future__ import annotations

import ast
import hashlib
import threading
from dataclasses import dataclass
from typing import Any

from .config import ROOT
from .puzzles.capabilities import state_form
from .puzzles.options import Values
from .search.problem import Problem

BUILD = "from_student_rules"  # the function of the problem's module that builds it from plain data
PACKAGE = __name__.partition(".")[0]  # the root package: ``server`` here, ``mazeviz`` installed


@dataclass(frozen=True)
class Rules:
    """A problem's rules for the page: its module, the modules to load and the data to build it from."""

    module: str
    sources: dict[str, str]  # path inside the repository -> source text
    version: str  # a hash of the sources: the page loads them again when it changes
    data: dict[str, Any]

    def to_json(self, problem: Problem, student: Any, heuristic: Any) -> dict[str, Any]:
        """The answer of ``…/code/rules`` (docs/PROTOCOL.md, "Student mode"); ``heuristic``: the run's
        choice, which ``problem.heuristic`` then uses when it is one of the problem's (else the default)."""
        names = list(problem.heuristics)
        default = names[0] if names else ""
        chosen = heuristic if isinstance(heuristic, str) and heuristic in names else default
        return {"kind": "rules", "module": self.module, "build": BUILD, "modules": self.sources,
                "version": self.version, "data": self.data, "heuristic": chosen,
                "state_form": state_form(student), "unit_costs": bool(problem.unit_costs)}


def rules_of(problem: Problem) -> Rules | None:
    """The rules of ``problem`` for the page, or None when its family has none (the explicit graph)."""
    make = getattr(problem, "student_rules", None)
    module = type(problem).__module__
    if make is None or not module.startswith(PACKAGE + "."):
        return None
    sources = module_sources(module)
    if sources is None or BUILD not in _defined_names(sources[_path_of(module)]):
        return None
    digest = hashlib.sha256("\0".join(f"{p}\0{t}" for p, t in sorted(sources.items())).encode()).hexdigest()
    return Rules(module, sources, digest[:16], make())


_closures: dict[str, dict[str, str] | None] = {}
_lock = threading.Lock()


def module_sources(module: str) -> dict[str, str] | None:
    """The source of ``module`` and of every ``server`` module it needs to be imported (module-level
    imports, followed; each package's ``__init__.py`` too), by path; None when one is not found.
    Read once per process (the sources do not change while it runs)."""
    with _lock:
        if module not in _closures:
            _closures[module] = _closure(module)
        return _closures[module]


def _path_of(module: str) -> str:
    parts = module.split(".")
    file = ROOT.joinpath(*parts).with_suffix(".py")
    if file.is_file():
        return "/".join(parts) + ".py"
    return "/".join(parts) + "/__init__.py"


def _is_module(name: str) -> bool:
    parts = name.split(".")
    return (ROOT.joinpath(*parts).with_suffix(".py").is_file()
            or ROOT.joinpath(*parts, "__init__.py").is_file())


def _closure(module: str) -> dict[str, str] | None:
    sources: dict[str, str] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # the packages above it are imported first
            name_k = ".".join(parts[:k])
            path = _path_of(name_k)
            if path in sources:
                continue
            file = ROOT / path
            if not file.is_file():
                return None
            text = file.read_text(encoding="utf-8")
            sources[path] = text
            todo.extend(_imports(text, name_k, path.endswith("__init__.py")))
    return sources


def _imports(text: str, module: str, package: bool) -> list[str]:
    """The ``server`` modules ``text`` imports at module level (not under ``if TYPE_CHECKING``)."""
    found: list[str] = []
    for node in _top_level(ast.parse(text).body):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from this module's package
                here = module.split(".") if package else module.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, *([base] if base else [])])
            found.append(base)
            found += [f"{base}.{alias.name}" for alias in node.names if _is_module(f"{base}.{alias.name}")]
    return [name for name in found if name == PACKAGE or name.startswith(PACKAGE + ".")]


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements run on import: the module's, and those inside its ``try`` and ``if`` blocks (except
    ``if TYPE_CHECKING:``, which never runs)."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            test = node.test
            if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
                out += _top_level(node.orelse)
                continue
            out += _top_level(node.body) + _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            out += _top_level(node.body) + _top_level(node.orelse) + _top_level(node.finalbody)
            for handler in node.handlers:
                out += _top_level(handler.body)
        else:
            out.append(node)
    return out


def _defined_names(text: str) -> set[str]:
    return {node.name for node in ast.parse(text).body if isinstance(node, ast.FunctionDef | ast.ClassDef)}


def problem_rules(family: Any, puzzle: Any, rules: Values) -> tuple[Problem, Rules | None]:
    """The family's problem under ``rules`` (``judging.rule_options``) and its rules for the page."""
    problem = family.problem(puzzle, rules)
    return problem, rules_of(problem)
