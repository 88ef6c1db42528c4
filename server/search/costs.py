"""How every result prints a cost (``json_cost``) and how a sentence writes one (``cost_text``): the
search core's lowest module, importing only the languages (``server.i18n``), so the problem interface
(``Problem.cost_in_words``), the checker's summary and the statistics (``SearchResult``) share it.
A sentence in German writes German numbers (70.888, 1.053,414)."""

from __future__ import annotations

from ..i18n import DEFAULT, format_number, language


def json_cost(cost: float | None) -> float | int | None:
    """A cost as every result prints it: an int when whole, else rounded to 6 decimals."""
    if cost is None:
        return None
    cost = float(cost)
    return round(cost) if abs(cost - round(cost)) < 1e-9 else round(cost, 6)


def cost_text(cost: float) -> str:
    """A cost or a count in a sentence, written as the page writes numbers (static/js/format.js
    ``number``): digits grouped by commas, at most 3 decimals ("52", "70,888", "1,053.414")."""
    value = json_cost(cost)
    if language() != DEFAULT:  # German: 70.888, 1.053,414
        return format_number(value if isinstance(value, int) else round(float(value), 3))
    return f"{value:,}" if isinstance(value, int) else f"{round(float(value), 3):,}"
