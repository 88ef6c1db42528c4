"""The notebook's widget: an anywidget whose front end is the page's own modules, bundled
(``static/build/widget.js`` and ``widget.css``, made by ``scripts/build_widget.sh``), talking to the
kernel's app through ``bridge.py`` (docs: the contract of the widget <-> kernel protocol).

Traits (Python -> JS): ``view`` ("single" | "compare"), ``puzzle`` (its id in the kernel's app),
``runs`` (``{algorithm, options, label}`` each), ``verdicts`` (a student's entry's verdict, else None),
``lang`` and ``error`` (a sentence shown instead of the board). Without the bundle the widget shows
that sentence: how to build it.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..i18n import supported, t, using
from . import bridge as bridges
from .bridge import bridge
from .kernel import build_folder, default_language

# Shown when the bundle is missing: the error trait in words, nothing else.
FALLBACK_ESM = """export default {
  render({ model, el }) {
    const p = document.createElement("p");
    p.setAttribute("data-testid", "mazeviz-error");
    p.textContent = model.get("error");
    el.append(p);
  },
};
"""


def bundle_files() -> tuple[Path, Path]:
    folder = build_folder()
    return folder / "widget.js", folder / "widget.css"


class MazeWidget(anywidget.AnyWidget):
    """A board (or a comparison) of one puzzle in the kernel's app, played by the page's Stage."""

    view = traitlets.Unicode("single").tag(sync=True)
    puzzle = traitlets.Unicode("").tag(sync=True)
    runs = traitlets.List([]).tag(sync=True)
    verdicts = traitlets.List([]).tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **traits: Any) -> None:
        js, css = bundle_files()
        lang = supported(traits.get("lang")) or default_language()
        traits["lang"] = lang
        if js.is_file():
            self._esm = js.read_text(encoding="utf-8")
            self._css = css.read_text(encoding="utf-8") if css.is_file() else ""
        else:
            self._esm = FALLBACK_ESM
            with using(lang):  # what the call itself went wrong with (if anything), then this
                missing = t("notebook.no_bundle", path=str(js))
            traits["error"] = "\n\n".join(filter(None, [traits.get("error"), missing]))
        self._sid = f"widget-{uuid.uuid4().hex[:16]}"  # its runs' connection in the kernel's app
        super().__init__(**traits)
        self.on_msg(self._message)

    def _message(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        bridge().handle(self, self._sid, content, self.lang)

    def close(self) -> None:
        """The widget goes: its runs stop."""
        kept = bridges._bridge
        if kept is not None:
            kept.disconnect(self._sid)
        super().close()

    def __repr__(self) -> str:
        if self.error:
            return f"<MazeWidget: {self.error}>"
        labels = ", ".join(str(entry.get("label") or entry.get("algorithm")) for entry in self.runs)
        return f"<MazeWidget {self.view}: puzzle {self.puzzle}, {labels}>"
