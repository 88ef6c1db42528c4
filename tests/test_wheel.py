"""The installable package (issue 33): the wheel ``python -m build`` makes, installed into a fresh venv
with no npm and the npm registry unreachable (tests/wheel_env.py), gives the import ``mazeviz`` (never a
bare ``server``), the command ``mazeviz`` (``solve``, ``serve`` from the installed files) and everything
the page and the widget need inside the package, and writes nothing into site-packages."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.wheel_env import install_env, site_packages, wheel_file, wheel_venv

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def venv() -> Path:
    return wheel_venv([])


@pytest.fixture(scope="module")
def site(venv: Path) -> Path:
    return site_packages(venv)


@pytest.fixture
def env(venv: Path, tmp_path: Path) -> dict[str, str]:
    """The installed package's environment: its data in a folder of the test's own."""
    return {**install_env(venv), "MAZEVIZ_HOME": str(tmp_path / "home")}


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


def _python(venv: Path, code: str, env: dict[str, str], cwd: Path) -> str:
    done = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_wheel_holds_the_page_the_widget_and_the_catalogs() -> None:
    names = set(zipfile.ZipFile(wheel_file()).namelist())
    for name in ("mazeviz/__init__.py", "mazeviz/cli.py", "mazeviz/static/build/widget.js",
                 "mazeviz/templates/index.html", "mazeviz/static/vendor/socket.io.msgpack.min.js",
                 "mazeviz/static/vendor/pyodide/pyodide.asm.wasm", "mazeviz/static/js/code/harness.py",
                 "mazeviz/mazes/gallery.json", "mazeviz/puzzles/grid/i18n/en.json"):
        assert name in names, name
    assert any(n.startswith("mazeviz/i18n/en/") and n.endswith(".json") for n in names)
    assert any(n.startswith("mazeviz/static/i18n/de/") and n.endswith(".json") for n in names)
    assert not [n for n in names if n.split("/")[0] == "server"], "a bare server package in the wheel"
    assert not [n for n in names if "axe-core" in n or "node_modules" in n or "__pycache__" in n]
    # Pyodide once: only under static/vendor/pyodide
    wasm = [n for n in names if n.endswith(".wasm")]
    assert wasm == ["mazeviz/static/vendor/pyodide/pyodide.asm.wasm"], wasm


def test_import_mazeviz_from_site_packages_and_no_server(venv: Path, site: Path, env: dict[str, str],
                                                          tmp_path: Path) -> None:
    out = _python(venv, "import importlib.util, mazeviz; print(mazeviz.__file__); "
                  "print(importlib.util.find_spec('server'))", env, tmp_path).split()
    assert Path(out[0]).is_relative_to(site / "mazeviz"), out
    assert out[1] == "None", "a top-level `server` is importable from the venv"
    assert not (site / "server").exists()
    assert (venv / "bin" / "mazeviz").is_file()


def test_mazeviz_solve_maze3_bfs_costs_52(venv: Path, site: Path, env: dict[str, str], tmp_path: Path,
                                          shared_cases: Path) -> None:
    maze3 = shared_cases / "images" / "lee" / "maze3.png"
    before = _files(site / "mazeviz")
    done = subprocess.run([str(venv / "bin" / "mazeviz"), "solve", str(maze3), "--algorithm", "bfs"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "cost 52" in done.stdout, done.stdout
    # The compiled kernels too: numba's cache goes to MAZEVIZ_HOME, not beside the kernels.
    done = subprocess.run([str(venv / "bin" / "mazeviz"), "solve", str(maze3), "--algorithm", "bfs",
                           "--engine", "compiled"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "cost 52" in done.stdout, done.stdout
    assert _files(site / "mazeviz") == before, "the installed package wrote into site-packages"
    assert any((tmp_path / "home" / "numba").rglob("*.nbi"))


def test_mazeviz_serve_serves_the_page_from_the_installed_package(venv: Path, site: Path,
                                                                  env: dict[str, str],
                                                                  tmp_path: Path) -> None:
    folders = _python(venv, "import mazeviz\nfrom mazeviz.config import Config\n"
                      "app = mazeviz.create_app(Config(testing=True))\n"
                      "print(app.static_folder); print(app.template_folder)", env, tmp_path).split()
    assert Path(folders[0]) == site / "mazeviz" / "static"
    assert Path(folders[1]) == site / "mazeviz" / "templates"

    before = _files(site / "mazeviz")
    port = _free_port()
    server = subprocess.Popen([str(venv / "bin" / "mazeviz"), "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--threads", "4"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                              cwd=tmp_path, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(base + "/", timeout=5) as page:
                    status, html = page.status, page.read().decode("utf-8")
                break
            except OSError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "mazeviz serve did not answer within 120 s"
                time.sleep(0.3)
        assert status == 200
        assert "<html" in html and "socket.io.msgpack.min.js" in html
        with urllib.request.urlopen(base + "/static/vendor/socket.io.msgpack.min.js", timeout=10) as js:
            assert js.status == 200
            body = js.read()
        assert body == (site / "mazeviz" / "static" / "vendor" / "socket.io.msgpack.min.js").read_bytes()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    assert _files(site / "mazeviz") == before, "the served app wrote into site-packages"
