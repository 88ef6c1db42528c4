"""Fixtures shared by the test modules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_CASES = Path(__file__).resolve().parents[2] / "shared" / "cases"
IN_CI = bool(os.environ.get("CI"))


def missing(reason: str) -> None:
    """Something a test needs is absent: skip it on a developer's machine, fail it in CI (a CI run
    must not go green by skipping)."""
    if IN_CI:
        pytest.fail(f"{reason} (CI is set: a missing input fails instead of skipping)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def shared_cases() -> Path:
    """The public reference cases (``../shared/cases`` from the project root); skip when absent."""
    if not SHARED_CASES.is_dir():
        missing(f"the shared reference cases are not at {SHARED_CASES}")
    return SHARED_CASES
