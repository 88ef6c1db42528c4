"""A submission judged and scored, for each task kind, as the contract says (docs/PROTOCOL.md,
"Assignments"): always on the server, from the answer alone (never a verdict from the browser).

* **predict**: the answers against the algorithm's real expansions (the search run on the puzzle with
  ``successors`` counted, as student mode's verdict counts them), states compared in the family's
  notation (``Family.state_text``) reduced to its numbers and ``_`` tokens; points × right / count (details
  ``{"rows": [{i, yours, truth, right}]}``).
* **code**: the program run by ``server.grading.run_program`` (inside the sandbox, server/sandbox.py), its
  expansions and path judged by ``code_verdict.judge_code_run``; full when the order matches (or is valid
  with another tie-break) and the path is legal and optimal; order broken at expansion k of the
  reference's n: points × (k−1)/n, halved when the path is not legal and optimal; order right, path not:
  ½; a program error, a kill or a refusal: 0 with the reason. The run (ids, path) is kept for the
  teacher's replay.
* **heuristic**: ``judging.judge_formula``: admissible and consistent (and, with ``bar``, A* with it
  expands fewer states than A* with h = 0): full; admissible only: ½; else 0.
* **solution**: ``judging.judge_solution``: legal and cost ≤ optimum × (1 + margin/100): full; else 0.

``judge`` raises only for a job that could not be judged at all (the grader marks it ``failed``).
"""

from __future__ import annotations

import re
from typing import Any

from .. import grading
from ..code_verdict import judge_code_run, reference_expansions
from ..config import Config
from ..formula import FormulaError
from ..i18n import t
from ..judging import judge_formula, judge_solution, rule_options
from ..puzzles.errors import PuzzleError
from ..puzzles.options import YOURS
from ..puzzles.registry import family_of
from ..sandbox import limits_from
from ..search.algorithms.replay import pack_ids
from ..search.control import CancelFlag, deadline
from ..solving import solve
from .model import Assignment, Submission, Task

TOKENS = re.compile(r"-?\d+(?:\.\d+)?|_")


def normal(text: str | None) -> tuple[str, ...]:
    """A state's text as the sequence of its numbers and ``_`` tokens ("(3, 4)" and "3 4" are alike)."""
    return tuple(TOKENS.findall(text or ""))


def _score(points: float, share: float) -> float:
    return round(points * max(0.0, min(1.0, share)), 2)


def _result(task: Task, share: float, sentence: str, details: dict[str, Any]) -> dict[str, Any]:
    return {"score": _score(task.points, share), "points": task.points, "sentence": sentence,
            "details": details}


# ---- the kinds --------------------------------------------------------------------------------------
def judge_predict(assignment: Assignment, task: Task, puzzle: Any, answer: dict[str, Any],
                  config: Config) -> dict[str, Any]:
    family = family_of(puzzle)
    options = family.run_options(assignment.options)
    start, count = task.start or 0, task.count or 1
    problem = family.run_problem(puzzle, options)  # (for the notation only)
    states, _ended = reference_expansions(family, puzzle, assignment.algorithm, options, start + count - 1,
                                          config.code_max_seconds, None)
    yours = list(answer.get("states") or [])
    rows, right = [], 0
    for k in range(count):
        i = start + k
        truth = family.state_text(problem, states[i]) if i < len(states) else None
        mine = yours[k] if k < len(yours) else None
        ok = truth is not None and mine is not None and normal(mine) == normal(truth)
        right += ok
        rows.append({"i": i + 1, "yours": mine, "truth": truth, "right": ok})
    sentence = t("assign.verdict.predicted", right=right, count=count)
    if len(states) < start + count:
        sentence += t("assign.verdict.predicted_only", algorithm=assignment.algorithm, made=len(states))
    return _result(task, right / count, sentence, {"rows": rows})


def judge_code(assignment: Assignment, task: Task, puzzle: Any, answer: dict[str, Any],
               config: Config) -> dict[str, Any]:
    """The result; its details keep the run (packed expanded ids, path) for the teacher's replay."""
    family = family_of(puzzle)
    options = family.run_options(assignment.options)
    rules = rule_options(family, assignment.options)
    world = grading.world_json(family, puzzle, rules, options.get("heuristic"))
    steps = grading.steps_for(family, puzzle, rules, config)
    ran, printed = grading.run_program(answer["code"], world, config.sandbox_seconds, steps,
                                       limits=limits_from(config))
    if ran.get("error") is not None:
        error = ran["error"]
        where = t("assign.verdict.where_line", line=error["line"]) if error.get("line") else ""
        if error.get("kind") == "Stopped":  # the sandbox ended it: memory, output, a signal
            sentence = t("assign.verdict.program_stopped", why=error.get("message"))
        elif error.get("kind") == "MemoryError":
            at = t("assign.verdict.at_line", line=error["line"]) if error.get("line") else ""
            sentence = t("assign.verdict.out_of_memory", at=at)
        else:
            sentence = t("assign.verdict.program_failed", where=where, kind=error.get("kind"),
                         message=error.get("message"))
        return _result(task, 0, sentence, {"verdict": "error", "error": error, "output": printed[-2000:]})
    if ran.get("stopped") and not ran.get("expanded"):
        return _result(task, 0, t("assign.verdict.program_stopped_dot", why=ran["stopped"]),
                       {"verdict": "stopped", "output": printed[-2000:]})
    expanded, path = list(ran.get("expanded") or []), ran.get("path")
    verdict = judge_code_run(family, puzzle, rules, assignment.algorithm, options, expanded, path,
                             ran.get("illegal"), ran.get("stopped"), config.code_max_seconds)
    order, checked = verdict["order"], verdict["path"]
    path_ok = bool(checked["found"] and checked["legal"] and checked["optimal"])
    if verdict["verdict"] == "stopped":
        share = 0.0
    elif order["matches"] or order["tie"]:
        share = 1.0 if path_ok else 0.5
    else:
        ours, _ended = reference_expansions(family, puzzle, assignment.algorithm, options,
                                            config.code_max_steps, config.code_max_seconds, None)
        k = order["at"] or 1
        share = (k - 1) / max(1, len(ours)) * (1.0 if path_ok else 0.5)
    details = {**verdict, "output": printed[-2000:],
               "run": {"count": len(expanded), "packed": pack_ids(expanded), "path": path}}
    sentence = " ".join(verdict["messages"][:2])
    return _result(task, share, sentence, details)


def _expanded(puzzle: Any, options: dict[str, Any], config: Config) -> int | None:
    """States A* expands under ``options`` (None: it stopped at a limit)."""
    limits = config.search_limits(False)
    solved = solve(puzzle, "astar", options, engine="generic", max_expanded=limits["max_expanded"],
                   max_seconds=config.lab_max_seconds, max_stored=limits["max_stored"])
    result = solved.json
    return None if result.get("stopped") else int(result["expanded"])


def judge_heuristic(assignment: Assignment, task: Task, puzzle: Any, answer: dict[str, Any],
                    config: Config) -> dict[str, Any]:
    family = family_of(puzzle)
    rules = rule_options(family, assignment.options)
    text = answer["formula"]
    flag = CancelFlag()
    try:
        with deadline(flag, config.lab_max_seconds):
            verdict = judge_formula(puzzle, text, rules, max_states=config.lab_max_states,
                                    max_seconds=config.lab_max_seconds, cancel=flag, heat_cells=None)
    except (FormulaError, PuzzleError) as err:
        return _result(task, 0, t("assign.verdict.formula_unusable", err=err),
                       {"error": str(err), "bar": None})
    details = verdict.to_json()
    details.pop("heat", None)
    admissible, consistent = bool(details["admissible"]), bool(details["consistent"])
    bar = None
    beaten = True
    if task.bar and admissible and "astar" in family.algorithms:
        base = {k: v for k, v in assignment.options.items() if k not in ("heuristic", "formula")}
        yours = _expanded(puzzle, {**base, "heuristic": YOURS, "formula": text}, config)
        zero = _expanded(puzzle, {**base, "heuristic": YOURS, "formula": "0"}, config)
        bar = {"yours": yours, "zero": zero}
        beaten = yours is not None and zero is not None and yours < zero
    details["bar"] = bar
    words = [t("assign.verdict.admissible") if admissible else t("assign.verdict.not_admissible"),
             t("assign.verdict.consistent") if consistent else t("assign.verdict.not_consistent")]
    sentence = t("assign.verdict.formula", text=text, words=t("assign.verdict.and").join(words),
                 states=details["states"])
    if bar is not None:
        sentence += t("assign.verdict.bar", yours=bar["yours"], zero=bar["zero"],
                      beaten=t("assign.verdict.beaten") if beaten else t("assign.verdict.not_beaten"))
    share = 1.0 if admissible and consistent and beaten else 0.5 if admissible else 0.0
    return _result(task, share, sentence, details)


def judge_answer_solution(assignment: Assignment, task: Task, puzzle: Any, answer: dict[str, Any],
                          config: Config) -> dict[str, Any]:
    family = family_of(puzzle)
    rules = rule_options(family, assignment.options)
    limits = config.search_limits(family.compiled)
    try:
        checked = judge_solution(puzzle, answer["solution"], rules, max_expanded=limits["max_expanded"],
                                 max_seconds=config.lab_max_seconds, max_stored=limits["max_stored"])
    except PuzzleError as err:
        return _result(task, 0, t("assign.verdict.solution_unreadable", err=err),
                       {"legal": False, "problem": str(err)})
    data = checked.to_json()
    legal, cost, optimum = bool(data["valid"]), data["cost"], data["optimum"]
    margin = task.margin or 0.0
    within = (legal and cost is not None and optimum is not None
              and float(cost) <= float(optimum) * (1 + margin / 100) + 1e-9 * max(1.0, abs(float(optimum))))
    details = {"legal": legal, "cost": cost, "optimum": optimum, "problem": data.get("reason"),
               "check": data}
    if not legal:
        sentence = t("assign.verdict.solution_illegal", why=data.get("reason") or data["summary"])
    elif optimum is None:
        sentence = t("assign.verdict.solution_no_optimum", cost=cost)
    else:
        allowed = (t("assign.verdict.the_optimum") if margin == 0
                   else t("assign.verdict.over_optimum", margin=format(margin, "g")))
        sentence = t("assign.verdict.solution_within" if within else "assign.verdict.solution_more",
                     cost=cost, optimum=optimum, allowed=allowed)
    return _result(task, 1.0 if within else 0.0, sentence, details)


def judge(assignment: Assignment, submission: Submission, puzzle: Any, config: Config) -> dict[str, Any]:
    """The result of ``submission`` (the contract's ``<result>``)."""
    task = assignment.task(submission.task)
    if task is None:
        raise PuzzleError(t("assign.judge.assignment_has_no_task", task=submission.task), "task")
    if task.kind == "predict":
        return judge_predict(assignment, task, puzzle, submission.answer, config)
    if task.kind == "code":
        return judge_code(assignment, task, puzzle, submission.answer, config)
    if task.kind == "heuristic":
        return judge_heuristic(assignment, task, puzzle, submission.answer, config)
    return judge_answer_solution(assignment, task, puzzle, submission.answer, config)
