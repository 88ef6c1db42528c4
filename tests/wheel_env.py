"""The project built as a wheel and installed into fresh virtual environments, for the tests that use
the package as a user would (tests/test_wheel.py; a notebook test with JupyterLab beside it).

``wheel_file()`` builds the wheel once per test process (``python -m build --wheel``, in an isolated
build environment: setuptools from PyPI; setup.py fetches the vendored client from the npm registry
only when static/vendor/ lacks it). ``wheel_venv(extra)`` makes a fresh venv (no system site-packages),
installs the wheel and the ``extra`` requirements with the npm registry unreachable and no npm on the
PATH (the wheel must need neither; Python packages come from PyPI or pip's cache), and caches it by
``extra`` for the process. Both live under one temporary folder per process, removed at its exit.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NO_NPM_REGISTRY = "http://127.0.0.1:9/"  # the discard port: nothing answers
# What a student adds to use the widget: JupyterLab 4 (the browser test), nbclient (the tutorial, executed).
# One environment for both tests.
NOTEBOOK_EXTRAS = ("jupyterlab==4.6.6", "nbclient==0.11.0")

_lock = threading.Lock()
_base: Path | None = None
_wheel: Path | None = None
_venvs: dict[tuple[str, ...], Path] = {}


def _session_dir() -> Path:
    global _base
    if _base is None:
        _base = Path(tempfile.mkdtemp(prefix="mazeviz-wheel-"))
        atexit.register(shutil.rmtree, _base, ignore_errors=True)  # the venvs weigh hundreds of MB
    return _base


def _run(cmd: list[str], what: str, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed ({done.returncode}): {' '.join(cmd)}\n"
                           f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
    return done


def wheel_file() -> Path:
    """The project's wheel, built once per process from the checkout."""
    global _wheel
    with _lock:
        if _wheel is None:
            out = _session_dir() / "dist"
            _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
                 "building the wheel", cwd=ROOT, timeout=900)
            (_wheel,) = out.glob("mazeviz-*.whl")
        return _wheel


def path_without_npm() -> str:
    """$PATH without the folders that hold npm (or npx)."""
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not (Path(d, "npm").exists() or Path(d, "npx").exists())]
    return os.pathsep.join(keep)


def install_env(venv: Path | None = None) -> dict[str, str]:
    """The environment to install and run in: no npm, the npm registry unreachable, nothing of the
    checkout on the import path; ``venv``'s bin first on the PATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    path = path_without_npm()
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{path}" if venv is not None else path
    env["npm_config_registry"] = NO_NPM_REGISTRY
    env["NPM_CONFIG_REGISTRY"] = NO_NPM_REGISTRY
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def wheel_venv(extra: list[str] | tuple[str, ...] = ()) -> Path:
    """A fresh venv with the wheel and ``extra`` (pip requirements, e.g. ``["jupyterlab==4.6.6"]``)
    installed; one per distinct ``extra`` per process. Its Python is ``<venv>/bin/python``."""
    key = tuple(sorted(extra))
    wheel = wheel_file()
    with _lock:
        if key not in _venvs:
            venv = _session_dir() / f"venv-{len(_venvs)}"
            # from the test's own (venv) Python: venv makes it from the base interpreter, with no
            # system site-packages and nothing of the project's .venv
            _run([sys.executable, "-m", "venv", str(venv)], "making a venv", timeout=300)
            env = install_env(venv)
            assert shutil.which("npm", path=env["PATH"]) is None, "npm is still on the PATH"
            _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel), *key],
                 "installing the wheel", env=env, cwd=_session_dir(), timeout=1800)
            _venvs[key] = venv
        return _venvs[key]


def site_packages(venv: Path) -> Path:
    """The venv's site-packages (purelib)."""
    ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    done = _run([str(venv / "bin" / "python"), "-c", ask], "asking the venv", env=install_env(venv),
                cwd=_session_dir())
    return Path(done.stdout.strip())
