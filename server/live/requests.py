"""The live layer's three requests — start a run, acknowledge its frames, cancel it — checked and done
for one connection, whoever carries them: the socket's handlers (``handlers.py``) and the notebook's
widget (``server/notebook/bridge.py``) call the same ``LiveRequests``, so a run started in a notebook is
checked, rate-limited and run exactly as one started in the page.

Each method takes the message as it came (any value) and raises ``PuzzleError`` naming the field, or
``TooMany`` for a refused start; ``answer`` turns those into the acknowledgement ``{ok: false, error}``
in the message's language (its ``lang``, else the connection's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..clients import TooMany
from ..i18n import supported, t, using
from ..puzzles.errors import PuzzleError
from ..puzzles.options import MAX_WHOLE, whole
from ..services import Services
from ..solving import check_run
from .runs import Emit

FIELDS = {"run": "live.field.run", "slot": "live.field.slot", "puzzle": "live.field.puzzle",
          "algorithm": "live.field.algorithm"}  # catalog keys


def answer(message: Any, fallback: str, handler: Callable[[Any], dict[str, Any] | None]) -> dict[str, Any]:
    """``handler(message)``'s answer (``{ok: true}`` when it gives none), or ``{ok: false, error}`` for
    its ``PuzzleError`` or ``TooMany``; in the message's own "lang" (the page's menu), else ``fallback``
    (the socket's handshake, the notebook's language). A run started here writes in it too (its
    threads copy this context)."""
    lang = message.get("lang") if isinstance(message, dict) else None
    with using(supported(lang) or fallback):
        try:
            return handler(message) or {"ok": True}
        except (PuzzleError, TooMany) as err:
            return {"ok": False, "error": str(err)}


class LiveRequests:
    """``run_start``, ``run_ack`` and ``run_cancel`` against one app's services."""

    def __init__(self, shared: Services) -> None:
        self.config = shared.config
        self.manager = shared.runs
        self.rate_limits = shared.rate_limits
        self.store = shared.store

    def start(self, message: Any, *, sid: str, client: str, address: str, emit: Emit) -> dict[str, Any]:
        """Check a ``run_start`` message, take its rate limit and start the run for connection ``sid``
        (``client``: who it counts against, ``address``: its IP), its events sent by ``emit``."""
        message = self.an_object(message, "run_start")
        run_id = self.text_field(message, "run")
        slot = self.text_field(message, "slot", "main")
        puzzle_id = self.text_field(message, "puzzle")
        puzzle = self.store.get(puzzle_id)
        if puzzle is None:
            raise PuzzleError(t("live.handlers.unknown_puzzle_id_it_may"), "field 'puzzle'")
        algorithm = self.text_field(message, "algorithm")
        options = check_run(puzzle, algorithm, message.get("options"))  # refused before any thread starts
        if message.get("instant") is True:  # the editor's re-solve after a change of the board
            self.rate_limits.take("re-solve", self.config.resolves_per_minute, client, address)
        else:
            self.rate_limits.take("run", self.config.runs_per_minute, client, address)
        self.manager.start(sid, slot, run_id, puzzle, algorithm, options, emit, client, puzzle_id)
        return {"ok": True}

    def ack(self, message: Any, sid: str) -> None:
        message = self.an_object(message, "run_ack")
        seq = whole(message.get("seq"), 0, MAX_WHOLE, "field 'seq'", "live.what.frame")
        self.manager.ack(sid, self.text_field(message, "run"), seq)

    def cancel(self, message: Any, sid: str) -> None:
        message = self.an_object(message, "run_cancel")
        self.manager.cancel(sid, self.text_field(message, "run"))

    def text_field(self, message: dict[str, Any], name: str, default: str | None = None) -> str:
        """A short non-empty string field; PuzzleError naming it otherwise."""
        value = message.get(name, default)
        if not isinstance(value, str) or not value:
            got = t("live.field.nothing") if value is None else type(value).__name__
            raise PuzzleError(t("live.handlers.missing_non_empty_string_got", what=t(FIELDS[name]),
                                got=got), f"field '{name}'")
        if len(value) > self.config.max_id_length:
            raise PuzzleError(t("live.handlers.longer_than_characters",
                                max_id_length=self.config.max_id_length), f"field '{name}'")
        return value

    @staticmethod
    def an_object(message: Any, event: str) -> dict[str, Any]:
        if not isinstance(message, dict):
            raise PuzzleError(t("live.handlers.expects_object_got", event=event, name=type(message).__name__))
        return message
