"""How every result prints a cost (``json_cost``): the search core's lowest module, importing nothing,
so the problem interface (``Problem.cost_in_words``) and the statistics (``SearchResult``) share it."""

from __future__ import annotations


def json_cost(cost: float | None) -> float | int | None:
    """A cost as every result prints it: an int when whole, else rounded to 6 decimals."""
    if cost is None:
        return None
    cost = float(cost)
    return round(cost) if abs(cost - round(cost)) < 1e-9 else round(cost, 6)
