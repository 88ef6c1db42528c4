"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_CASES = Path(__file__).resolve().parents[2] / "shared" / "cases"


@pytest.fixture(scope="session")
def shared_cases() -> Path:
    """The public reference cases (``../shared/cases`` from the project root); skip when absent."""
    if not SHARED_CASES.is_dir():
        pytest.skip(f"the shared reference cases are not at {SHARED_CASES}")
    return SHARED_CASES
