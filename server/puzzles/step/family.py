"""The step-cycle maze family (docs/STEP.md): seed 003's text grid and the project's JSON, the state
(cell, phase), and the solution as jumps in words."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import Any

from ...i18n import t
from ...search.problem import Problem
from ...search.stats import SearchResult
from ...search.trace import RECORD_BYTES
from ..capabilities import StudentForm
from ..family import Family, LoadLimits, describe_verdict, stem
from ..options import Option, Values
from .check import StepChecker
from .edit import StepEditor
from .frames import StepAnimation
from .generate import StepMaker
from .lab import StepLab
from .model import DIRECTION_WORDS, DIRECTIONS, StepMaze
from .parse import (
    MAX_CYCLE_LENGTH,
    MAX_FILE_BYTES,
    MAX_STEP,
    StepSaver,
    check_cycle,
    parse_step_json,
    parse_step_text,
)
from .problem import HEURISTICS, StepProblem
from .pylist import sniff_list

SNIFF_BYTES = 4096
_TEXT_CHARS = frozenset("SXZ. \r\n")
_MAZE_KEY = re.compile(r'"maze"\s*:')


class StepFamily(Family):
    """Seed 003's 1-2-3 maze, with any step cycle."""

    def __init__(self) -> None:
        super().__init__(
            default_algorithm="astar",  # `run.py solve` without --algorithm
            name="step",
            title="step.step_cycle_maze",
            puzzle_type=StepMaze,
            extensions=(".txt", ".json", ".py", ".md"),  # the seed's list as a notebook cell or document
            expects="step.rows_start_z_goal_x",
            algorithms=("bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional", "idastar", "iddfs"),
            heuristics=HEURISTICS,
            own_options=(
                Option(
                    "cycle",
                    "int_list",
                    "step.step_cycle",
                    "step.move_lengths_in_turn_e",
                    optional=True,
                    min=1,
                    max=MAX_STEP,
                    stage="both",
                ),
            ),
            path_noun="states",
            lab=StepLab(self),
            checker=StepChecker(self),
            maker=StepMaker(self),
            saver=StepSaver(self),
            editor=StepEditor(self),
            animation=StepAnimation(self),
            student=StudentForm("step.state_form"),
        )

    # ---- files -----------------------------------------------------------------------------------
    def sniff(self, filename: str, data: bytes) -> float:
        text = self.sample_text(data, SNIFF_BYTES)
        if text is None:
            return 0.0
        head = text.lstrip()
        if head.startswith("{"):
            return 0.95 if _MAZE_KEY.search(head) else 0.0  # the key, not a value such as a name
        chars = set(text)
        if not chars <= _TEXT_CHARS:  # seed 003's printed list, or not a step maze
            return sniff_list(text, complete=len(data) <= SNIFF_BYTES)
        if "S" in chars and ("X" in chars or "Z" in chars):
            return 0.95
        if len(data) > SNIFF_BYTES and "X" in chars:
            return 0.9  # a large board whose 'S' lies beyond the sample (the parser checks it)
        return 0.0

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> StepMaze:
        text, is_json = self.file_text(data, MAX_FILE_BYTES, t("step.step_maze"))
        parse = parse_step_json if is_json else parse_step_text
        maze = parse(text, stem(filename), limits.max_cells)
        if options.get("cycle") is not None:
            maze = replace(maze, cycle=check_cycle(options["cycle"], "option 'cycle'"))
        return maze

    # ---- the page --------------------------------------------------------------------------------
    # ---- a state in words: "(3, 4) phase 1" (the cell, then where in the cycle the next move is) ----
    def json_text(self, value: Any) -> str:
        if isinstance(value, list | tuple) and len(value) == 3 and all(isinstance(v, int) for v in value):
            return t("step.state.text", row=value[0], col=value[1], phase=value[2])
        return super().json_text(value)

    def info(self, maze: StepMaze) -> dict[str, Any]:
        return {
            "name": maze.name,
            "rows": maze.rows,
            "cols": maze.cols,
            "width": maze.cols,
            "height": maze.rows,
            "marks": maze.mark_rows(),
            "start": list(maze.start),
            "goals": [list(goal) for goal in maze.goals],
            "cycle": list(maze.cycle),
            "max_cycle_length": MAX_CYCLE_LENGTH,
            "max_step": MAX_STEP,
            "heuristics": list(HEURISTICS),
            "notes": [t("step.read_as", source_format=maze.source_format)],
            "options": {"cycle": {"default": list(maze.cycle)}},
        }

    def size(self, maze: StepMaze) -> tuple[int, int]:
        return maze.cols, maze.rows

    def trace_estimate(self, maze: StepMaze) -> int:
        return maze.rows * maze.cols * len(maze.cycle) * 3 * RECORD_BYTES

    def state_bytes(self, maze: StepMaze) -> int:
        """A state is one int (cell * phases + phase): its entries in the maps and the frontier."""
        return 160

    def state_bound(self, maze: StepMaze, options: Values) -> int:
        """A state is a cell and a phase of the cycle."""
        cycle = maze.cycle if options.get("cycle") is None else options["cycle"]
        return maze.rows * maze.cols * max(1, len(cycle))

    # ---- solving ---------------------------------------------------------------------------------
    def problem(self, maze: StepMaze, options: Values) -> Problem:
        cycle = (
            maze.cycle
            if options.get("cycle") is None
            else check_cycle(options["cycle"], t("step.option_cycle"))
        )
        return StepProblem(maze, cycle)

    def result_json(
        self, maze: StepMaze, problem: Problem, result: SearchResult, options: Values
    ) -> dict[str, Any]:
        out = super().result_json(maze, problem, result, options)
        assert isinstance(problem, StepProblem)
        out["cycle"] = list(problem.cycle)
        out["options"]["cycle"] = list(problem.cycle)  # also when the cycle came with the file
        out["moves"] = moves_in_words(problem, out["path"]) if result.found else []
        return out

    def summary_lines(self, filename: str, result: dict[str, Any]) -> list[str]:
        if not result["found"]:
            return super().summary_lines(filename, result)
        cycle = ",".join(str(k) for k in result["cycle"])
        lines = [
            t(
                "step.reached_goal_in_moves_cycle",
                filename=filename,
                algorithm=result["algorithm"],
                cost=result["cost"],
                describe_verdict=describe_verdict(result),
                cycle=cycle,
                expanded=result["expanded"],
                generated=result["generated"],
                max_frontier=result["max_frontier"],
                seconds=f"{result['seconds']:.3f}",
            )
        ]
        return lines + [f"  {number}. {move['text']}" for number, move in enumerate(result["moves"], start=1)]

def moves_in_words(problem: StepProblem, path: list[list[int]]) -> list[dict[str, Any]]:
    """Each move of a path of [row, col, phase] states: its direction, length and cells passed."""
    moves = []
    for (r0, c0, phase), (r1, c1, _) in itertools.pairwise(path):
        length = problem.cycle[phase]
        name, dr, dc = next(d for d in DIRECTIONS if (r0 + d[1] * length, c0 + d[2] * length) == (r1, c1))
        over = [[r0 + dr * i, c0 + dc * i] for i in range(1, length + 1)]
        moves.append(
            {
                "from": [r0, c0],
                "to": [r1, c1],
                "length": length,
                "direction": name,
                "phase": phase,
                "over": over,
                "text": f"{length} {t('step.direction.' + DIRECTION_WORDS[name])}: "
                f"({r0}, {c0}) → ({r1}, {c1})",
            }
        )
    return moves


FAMILY = StepFamily()
