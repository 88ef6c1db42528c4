"""app.css parses: every block it opens is closed (a lost brace silently swallows the rules after it)."""

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[1] / "static" / "css" / "app.css"


def test_every_block_of_app_css_is_closed() -> None:
    depth = 0
    for number, line in enumerate(re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"),
                                         CSS.read_text(encoding="utf-8"), flags=re.S).splitlines(), 1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"app.css line {number}: a '}}' closes nothing"
    assert depth == 0, f"app.css: {depth} block(s) never closed"
