"""The kernel's surroundings: its language and where the page's files are (the widget's bundle, the
harness that runs a student's search)."""

from __future__ import annotations

import os
from pathlib import Path

from .. import config
from ..i18n import supported


def static_folder() -> Path:
    """The page's ``static/`` folder: ``ASSETS/static`` (``config.ASSETS``: the package's folder in a
    wheel, the repository's in a checkout)."""
    assets = getattr(config, "ASSETS", None)
    root = Path(assets) if assets is not None else Path(__file__).resolve().parents[2]
    return root / "static"


def build_folder() -> Path:
    """Where the widget's bundle is (``scripts/build_widget.sh`` makes it)."""
    return static_folder() / "build"


def harness_file() -> Path:
    """The page's harness for a student's search (``static/js/code/harness.py``)."""
    return static_folder() / "js" / "code" / "harness.py"


def default_language() -> str:
    """The kernel's language: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (the first the server
    speaks), else the locale's, else "en"."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in os.environ.get(name, "").split(":"):
            found = supported(part)
            if found:
                return found
    try:
        import locale

        return supported(locale.getlocale()[0]) or "en"
    except (ValueError, TypeError):
        return "en"
