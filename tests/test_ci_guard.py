"""A CI run must not go green by skipping: inputs that are missing fail there."""

from __future__ import annotations

import pytest

from tests import conftest


def test_missing_input_skips_locally_and_fails_in_ci(monkeypatch) -> None:
    monkeypatch.setattr(conftest, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception):
        conftest.missing("no cases")
    monkeypatch.setattr(conftest, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="no cases"):
        conftest.missing("no cases")
