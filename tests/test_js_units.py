"""The page's run state machine and playback clocks, unit-tested in Node (tests/js/*.test.js, Node's
own test runner: no package needed). Each JS test is reported here as one pytest test, with Node's
output when it fails."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[1]
JS_TESTS = sorted((ROOT / "tests" / "js").glob("*.test.js"))


@pytest.fixture(scope="module")
def node_report() -> str:
    node = shutil.which("node")
    if node is None:
        missing("Node.js is not installed (Debian package nodejs)")
    done = subprocess.run([node, "--test", *map(str, JS_TESTS)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    return done.stdout + done.stderr


def test_there_are_js_unit_tests() -> None:
    assert JS_TESTS, "no tests/js/*.test.js"


def test_every_js_unit_test_passes(node_report: str) -> None:
    passed = re.search(r"^# pass (\d+)$", node_report, re.M)
    failed = re.search(r"^# fail (\d+)$", node_report, re.M)
    assert passed and failed, f"Node's test runner said nothing readable:\n{node_report[-3000:]}"
    assert int(failed.group(1)) == 0, node_report[-6000:]
    assert int(passed.group(1)) >= 7, node_report[-3000:]
