"""What every browser test shares: where things are, and how to wait for the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"  # gitignored
CASES = ROOT.parent / "shared" / "cases"
CHROMIUM = Path("/usr/bin/chromium")
BROWSER_TEST = [
    pytest.mark.e2e,
    # In CI a missing Chromium fails (the browser fixture says so) instead of skipping.
    pytest.mark.skipif(
        not CHROMIUM.exists() and not IN_CI, reason=f"no Chromium at {CHROMIUM} (Debian package chromium)"
    ),
]


def status_is(page, text: str, timeout: float = 120_000) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-testid=status]').textContent === t", arg=text, timeout=timeout
    )


def next_frame(page) -> None:
    """Let the page draw: two animation frames."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def upload(page, path: Path) -> None:
    """Upload a file through the file picker and wait until the puzzle is drawn."""
    page.set_input_files("[data-testid=upload]", str(path))
    page.wait_for_function(
        "name => document.querySelector('[data-testid=puzzle-name]').textContent === name"
        " && document.querySelector('[data-testid=status]').textContent === 'ready'",
        arg=path.stem,
    )
    next_frame(page)
