"""The teacher's table and its exports: a row per student (the counted submission of each task, best
or last graded), and the same figures as Moodle's grade import CSV, Canvas's gradebook import CSV,
or JSON.

* **Moodle** (``grade/import/csv``): an identifier column ("Email address" when every identifier is an
  e-mail address, else "ID number"; mapped on import), "Full name", one column per task, "Total";
  comma-separated, UTF-8, an empty cell where there is no grade.
* **Canvas** (``lib/gradebook_importer.rb``): ``Student,ID,SIS User ID,SIS Login ID,Section`` then a
  column per task, a "Points Possible" row first; the identifier in "SIS User ID".

Every text cell a spreadsheet could read as a formula (starting with ``= + - @``, a tab or a carriage
return) gets a leading apostrophe.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from .model import Assignment, Submission, iso, student_key

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def rows(assignment: Assignment, submissions: list[Submission]) -> list[dict[str, Any]]:
    """The contract's ``<row>`` per student, in the order they first submitted."""
    by_student: dict[str, list[Submission]] = {}
    for sub in sorted(submissions, key=lambda s: (s.received, s.id)):
        by_student.setdefault(student_key(sub.student), []).append(sub)
    table = []
    for subs in by_student.values():
        tasks: dict[str, Any] = {}
        total = 0.0
        for task in assignment.tasks:
            mine = [s for s in subs if s.task == task.kind]
            if not mine:
                continue
            graded = [s for s in mine if s.status == "graded" and s.result is not None]
            counted = None
            if graded:
                counted = (graded[-1] if assignment.counts == "last"
                           else max(graded, key=lambda s: (s.result["score"], -s.received)))
            shown = counted or mine[-1]
            score = counted.result["score"] if counted else None
            result = shown.result or {}
            tasks[task.kind] = {"score": score, "points": task.points, "attempts": len(mine),
                                "time": iso(shown.graded or shown.received),
                                "sentence": result.get("sentence"), "submission": shown.id,
                                "status": shown.status}
            total += score or 0.0
        table.append({"student": subs[0].student, "name": subs[-1].name, "tasks": tasks,
                      "total": round(total, 2)})
    return table


def safe_cell(value: Any) -> str:
    """A cell's text, a would-be formula neutralised with a leading apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def number(value: float | None) -> str:
    """A grade as a cell: at most 2 decimals, no trailing zeros; empty for no grade."""
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _task_header(assignment: Assignment, kind: str) -> str:
    return f"{assignment.title}: {kind}"


def _csv(lines: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows(lines)
    return out.getvalue()


def moodle_csv(assignment: Assignment, table: list[dict[str, Any]]) -> str:
    ids = [row["student"] for row in table]
    id_header = "Email address" if ids and all("@" in i for i in ids) else "ID number"
    kinds = [t.kind for t in assignment.tasks]
    lines = [[id_header, "Full name", *[_task_header(assignment, k) for k in kinds], "Total"]]
    for row in table:
        scores = [row["tasks"].get(k, {}).get("score") for k in kinds]
        graded = any(s is not None for s in scores)
        lines.append([safe_cell(row["student"]), safe_cell(row["name"]), *[number(s) for s in scores],
                      number(row["total"]) if graded else ""])
    return _csv(lines)


def canvas_csv(assignment: Assignment, table: list[dict[str, Any]]) -> str:
    kinds = [t.kind for t in assignment.tasks]
    lines = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
              *[_task_header(assignment, k) for k in kinds]],
             ["Points Possible", "", "", "", "", *[number(t.points) for t in assignment.tasks]]]
    for row in table:
        lines.append([safe_cell(row["name"]), "", safe_cell(row["student"]), "", "",
                      *[number(row["tasks"].get(k, {}).get("score")) for k in kinds]])
    return _csv(lines)


def json_export(assignment: Assignment, table: list[dict[str, Any]]) -> str:
    return json.dumps({"assignment": assignment.public(), "rows": table}, ensure_ascii=False, indent=1)


EXPORTS = {"moodle": ("text/csv", "csv", moodle_csv), "canvas": ("text/csv", "csv", canvas_csv),
           "json": ("application/json", "json", json_export)}
