"""The server's import layers (pyproject.toml's ``[tool.importlinter]``, checked by ``lint-imports`` in
.ci/run) and no import cycles between its modules, imports inside functions counted.

A copy of ``server/`` with one import planted inside a function shows that each check catches what it
is meant to; the real tree must pass both.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

# Run in a child whose working directory holds the ``server`` to check: each group of modules that
# import one another, directly or not (a strongly connected component of more than one module).
_CYCLES = """
import json, grimp
graph = grimp.build_graph("server", cache_dir=None)
groups = set()
for module in graph.modules:
    around = graph.find_upstream_modules(module) & graph.find_downstream_modules(module)
    if around:
        groups.add(tuple(sorted(around | {module})))
print(json.dumps(sorted(groups)))
"""


def _run(command: list[str], where: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # ``server`` from ``where`` only
    return subprocess.run(command, cwd=where, env=env, capture_output=True, text=True, timeout=120)


def lint_imports(where: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over ``where``'s ``server`` with ``where``'s pyproject.toml."""
    return _run([str(LINT_IMPORTS), "--no-cache"], where)


def import_cycles(where: Path) -> list[list[str]]:
    done = _run([sys.executable, "-c", _CYCLES], where)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def planted(tmp_path: Path, line: str) -> Path:
    """A copy of the server and its contracts, with ``line`` inside a new function of the search core's
    ``events.py`` (an import only grimp's reading of the whole file sees, never run)."""
    shutil.copytree(ROOT / "server", tmp_path / "server", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    events = tmp_path / "server" / "search" / "events.py"
    events.write_text(events.read_text() + f"\n\ndef _planted() -> None:\n    {line}\n")
    return tmp_path


def test_an_import_up_from_inside_a_function_breaks_the_layers(tmp_path: Path) -> None:
    done = lint_imports(planted(tmp_path, "from server.web import app"))
    assert done.returncode != 0
    assert "server.search is not allowed to import server.web" in done.stdout
    assert "server.search.events -> server.web" in done.stdout


def test_a_module_in_no_layer_breaks_the_contracts(tmp_path: Path) -> None:
    """Every module of ``server`` and of ``server.puzzles`` is in a layer (the contracts are exhaustive)."""
    where = planted(tmp_path, "pass")
    (where / "server" / "unplaced.py").write_text('"""In no layer."""\n')
    (where / "server" / "puzzles" / "unplaced.py").write_text('"""In no layer."""\n')
    done = lint_imports(where)
    assert done.returncode != 0
    assert "- server.unplaced\n" in done.stdout and "- server.puzzles.unplaced\n" in done.stdout


def test_an_import_back_from_inside_a_function_is_a_cycle(tmp_path: Path) -> None:
    cycles = import_cycles(planted(tmp_path, "from server.solving import solve"))
    assert any({"server.search.events", "server.solving"} <= set(group) for group in cycles), cycles


def test_the_server_keeps_its_layers() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout[done.stdout.find("Broken contracts"):]


def test_the_server_has_no_import_cycles() -> None:
    cycles = import_cycles(ROOT)
    assert not cycles, "modules that import one another:\n" + "\n".join(", ".join(g) for g in cycles)
