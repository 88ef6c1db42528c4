"""The JavaScript lint step (scripts/lint_js.sh, run by CI) can fail: the pinned ESLint with the repo's
eslint.config.js reports an error in a file with one, and passes a clean file that uses what the page
relies on (ES module syntax, browser globals, the Socket.IO client's global ``io``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import IN_CI, missing

ROOT = Path(__file__).resolve().parents[1]
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"
CONFIG = ROOT / "eslint.config.js"


@pytest.fixture(scope="module")
def eslint() -> Path:
    """The pinned ESLint. CI installs it (the same `npm ci` that scripts/lint_js.sh does); a developer's
    machine without node_modules skips, naming the command that installs it."""
    if not ESLINT.exists() and IN_CI and shutil.which("npm"):
        subprocess.run(["bash", str(ROOT / "scripts" / "lint_js.sh"), "--install-only"], cwd=ROOT,
                       check=False, timeout=600)
    if not ESLINT.exists():
        missing("the pinned ESLint is not installed (node_modules/ is absent): "
                "run `bash scripts/lint_js.sh` once to install it with npm ci")
    return ESLINT


def run_eslint(eslint: Path, tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    # The config's patterns are relative to the working directory, so the file sits under static/js
    # of the temporary directory (a file outside the base path would only be "ignored", exit 0).
    target = tmp_path / "static" / "js" / "sample.js"
    target.parent.mkdir(parents=True)
    target.write_text(source, encoding="utf-8")
    return subprocess.run([str(eslint), "--config", str(CONFIG), "static/js/sample.js"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)


def test_an_eslint_error_fails_the_lint(eslint: Path, tmp_path: Path) -> None:
    bad = "export function shown(cell) {\n  const unused = cell * 2;\n  return cell;\n}\n"
    result = run_eslint(eslint, tmp_path, bad)
    assert result.returncode != 0, result.stdout + result.stderr
    assert "no-unused-vars" in result.stdout
    assert "sample.js" in result.stdout


def test_a_clean_module_passes(eslint: Path, tmp_path: Path) -> None:
    clean = (
        "export function connect(url, _unusedOption) {\n"
        "  const socket = io(url);\n"
        "  document.title = String(window.innerWidth);\n"
        "  return socket;\n"
        "}\n"
    )
    result = run_eslint(eslint, tmp_path, clean)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "warning" not in result.stdout, result.stdout
