"""Several algorithms on one puzzle: one row per run, each marked against the best cost known.

Used by ``run.py compare``; the page's comparison view builds the same rows from its runs' results
(``static/js/compare/table.js`` follows ``summary_row`` and ``mark_optimal``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from .i18n import t
from .puzzles.errors import PuzzleError

COLUMNS = (
    "algorithm",
    "options",
    "found",
    "cost",
    "moves",
    "expanded",
    "generated",
    "max_frontier",
    "seconds",
    "optimal_guaranteed",
    "optimal_achieved",
)
COST_TOLERANCE = 1e-9


def parse_run_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``astar:weight=2:heuristic=octile`` → ("astar", {"weight": "2", "heuristic": "octile"})."""
    name, *pairs = spec.strip().split(":")
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise PuzzleError(
                t("compare_rows.comparing.expected_option_value_after_algorithm",
                  pair=repr(pair)), f"algorithm {spec!r}"
            )
        options[key.strip().replace("-", "_")] = value.strip()
    if not name:
        raise PuzzleError(t("compare_rows.comparing.algorithm_s_name_missing"), f"algorithm {spec!r}")
    return name, options


def summary_row(result: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A run's figures for the table (``optimal_achieved`` is set by ``mark_optimal``)."""
    path = result.get("path") or []
    # A student's recorded run (option ``code``) is its ids, not a setting a reader can use: left out.
    shown = {k: v for k, v in (options or {}).items() if v is not None and k != "code"}
    return {
        "algorithm": result["algorithm"],
        "options": ", ".join(f"{k}={v}" for k, v in shown.items()),
        "found": result["found"],
        "cost": result["cost"] if result["found"] else None,
        "moves": max(0, len(path) - 1) if result["found"] else None,
        "expanded": result["expanded"],
        "generated": result["generated"],
        "max_frontier": result["max_frontier"],
        "seconds": result["seconds"],
        "optimal_guaranteed": result["optimal_guaranteed"],
        "optimal_achieved": None,
        "optimum": result.get("optimum"),
    }


def best_known_cost(rows: Sequence[dict[str, Any]]) -> float | None:
    """The optimum when a run guarantees it or found it out (``optimum``), else the cheapest found."""
    proven = [r["cost"] for r in rows if r["found"] and r["optimal_guaranteed"]]
    proven += [r["optimum"] for r in rows if r.get("optimum") is not None]
    if proven:
        return min(proven)
    found = [r["cost"] for r in rows if r["found"]]
    return min(found) if found else None


def mark_optimal(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Set each row's ``optimal_achieved``: its cost equals the best cost known (None when it found none)."""
    best = best_known_cost(rows)
    for row in rows:
        row["optimal_achieved"] = (
            None if not row["found"] or best is None else row["cost"] <= best + COST_TOLERANCE
        )
    return rows


def compare(puzzle: Any, runs: Sequence[tuple[str, dict[str, Any]]], **limits: Any) -> list[dict[str, Any]]:
    """Solve ``puzzle`` with each (algorithm, run options as JSON values) in turn; the table's rows."""
    from .solving import solve

    rows = [summary_row(solve(puzzle, name, options, **limits).json, options) for name, options in runs]
    return mark_optimal(rows)


def public_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with exactly the documented columns, in order."""
    return [{column: row[column] for column in COLUMNS} for row in rows]


def rows_to_csv(rows: Sequence[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in public_rows(rows):
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


def rows_to_text(rows: Sequence[dict[str, Any]]) -> str:
    """An aligned table for a terminal."""
    headers = (
        "algorithm",
        "options",
        "cost",
        "moves",
        "expanded",
        "generated",
        "max frontier",
        "seconds",
        "optimal",
    )
    lines = [headers]
    for row in rows:
        if not row["found"]:
            verdict = "no path"
        elif row["optimal_guaranteed"]:
            verdict = "yes (guaranteed)"
        else:
            verdict = "yes (not guaranteed)" if row["optimal_achieved"] else "NO"
        lines.append(
            (
                row["algorithm"],
                row["options"] or "-",
                _num(row["cost"]),
                _num(row["moves"]),
                f"{row['expanded']:,}",
                f"{row['generated']:,}",
                f"{row['max_frontier']:,}",
                f"{row['seconds']:.3f}",
                verdict,
            )
        )
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(headers))]
    return "\n".join(
        "  ".join(
            str(cell).ljust(w) if i < 2 else str(cell).rjust(w)
            for i, (cell, w) in enumerate(zip(line, widths, strict=False))
        ).rstrip()
        for line in lines
    )


def _num(value: Any) -> str:
    return "-" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
