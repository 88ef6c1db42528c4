"""The tutorial notebook (docs/tutorial.ipynb) runs without error, executed by nbclient in a fresh environment
where the wheel is installed: every cell, its assertions included (a failing cell fails the test)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.wheel_env import NOTEBOOK_EXTRAS, wheel_venv

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.ipynb"

pytestmark = pytest.mark.slow

EXECUTE = """
import sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}})
client.execute()
outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
errors = [o for o in outputs if o.get("output_type") == "error"]
assert not errors, errors
widgets = sum("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
print("widgets", widgets)
"""


def test_tutorial_executes_in_a_fresh_environment(tmp_path: Path) -> None:
    venv = wheel_venv(NOTEBOOK_EXTRAS)
    env = {**os.environ, "HOME": str(tmp_path), "MAZEVIZ_HOME": str(tmp_path / "mazeviz"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "IPYTHONDIR": str(tmp_path / "ipython"),
           "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([str(venv / "bin" / "python"), "-c", EXECUTE, str(TUTORIAL), str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    # Every show(), result.show() and compare() gave a widget (five in the tutorial).
    assert "widgets 5" in done.stdout, done.stdout
