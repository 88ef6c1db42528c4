"""The wheel's build (the rest is in pyproject.toml): the folder ``server/`` is the package ``mazeviz``
with every package below it, and ``build_py`` puts what the page needs INSIDE the package —
``static/`` (minus axe-core, which only the browser tests load), ``templates/`` and ``mazes/`` become
``mazeviz/static``, ``mazeviz/templates``, ``mazeviz/mazes`` — after making sure the vendored browser
code is there and matches its sha256 (``scripts/fetch_vendor.sh --page``, from the npm registry when it
is not) and that the widget's bundle is built (``scripts/build_widget.sh``). Installing the wheel then
needs no npm. ``sdist`` does the same checks first, so a source archive carries both too.
docs/ARCHITECTURE.md "Packaging".
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
PACKAGE = "mazeviz"
#: Folders copied into the package, each as itself.
ASSETS = ("static", "templates", "mazes")
#: Names never copied: the browser tests' axe-core, node's and Python's caches, tests.
SKIP = {"axe-core", "node_modules", ".cache", "__pycache__", "tests", "test", ".DS_Store"}
WIDGET = HERE / "static" / "build" / "widget.js"
#: What the widget's bundle is made from (and how): a newer file there means it is out of date.
WIDGET_SOURCES = (HERE / "static" / "js", HERE / "static" / "i18n", HERE / "static" / "css",
                  HERE / "scripts" / "build_widget.sh")


def packages() -> list[str]:
    """Every package below server/ (a folder with ``__init__.py``), named as installed."""
    found = find_packages(where=str(HERE), include=["server", "server.*"])
    return sorted(PACKAGE + name[len("server"):] for name in found)


def _bash(script: str, *args: str) -> None:
    done = subprocess.run(["bash", str(HERE / "scripts" / script), *args], cwd=HERE, check=False)
    if done.returncode != 0:
        raise SystemExit(f"mazeviz build: scripts/{script} failed (exit status {done.returncode})")


def _newest(places: tuple[Path, ...]) -> float:
    """The latest modification time of the files in ``places`` (files and folders)."""
    files = [p for place in places for p in ([place] if place.is_file() else place.rglob("*")) if p.is_file()]
    return max((p.stat().st_mtime for p in files), default=0.0)


def prepare_assets() -> None:
    """The vendored client and Pyodide present and checked; the widget's bundle built and up to date."""
    _bash("fetch_vendor.sh", "--page")
    script = HERE / "scripts" / "build_widget.sh"
    stale = not WIDGET.is_file() or WIDGET.stat().st_mtime < _newest(WIDGET_SOURCES)
    if stale and script.is_file():
        _bash("build_widget.sh")
    if not WIDGET.is_file():
        raise SystemExit("mazeviz build: the widget's bundle static/build/widget.js is missing and "
                         "scripts/build_widget.sh, which makes it, is not there")


def _ignore(folder: str, names: list[str]) -> set[str]:
    return {name for name in names if name in SKIP or name.endswith((".pyc", ".tgz"))}


class BuildPy(build_py):
    """setuptools' build_py, then static/, templates/ and mazes/ copied into the built package."""

    def run(self) -> None:
        prepare_assets()
        target = Path(self.build_lib) / PACKAGE
        shutil.rmtree(target, ignore_errors=True)  # nothing left over from an earlier build is shipped
        super().run()
        for name in ASSETS:
            # copytree follows symlinks (a worktree's static/vendor): the files themselves are shipped
            shutil.copytree(HERE / name, target / name, ignore=_ignore, dirs_exist_ok=True)


class Sdist(sdist):
    """A source archive with the vendored files and the widget's bundle in it (MANIFEST.in)."""

    def run(self) -> None:
        prepare_assets()
        super().run()


setup(packages=packages(), cmdclass={"build_py": BuildPy, "sdist": Sdist})
