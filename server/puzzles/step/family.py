"""The step-cycle maze family (docs/STEP.md): seed 003's text grid and the project's JSON, the state
(cell, phase), and the solution as jumps in words."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from server.puzzles.errors import PuzzleError
from server.puzzles.family import Family, LoadLimits, describe_verdict, require_text, stem
from server.puzzles.making import Generated, GeneratorKind, size_options
from server.puzzles.options import Option, Values
from server.puzzles.step.generate import shortest_moves
from server.puzzles.step.model import DEFAULT_CYCLE, DIRECTION_WORDS, DIRECTIONS, StepMaze
from server.puzzles.step.parse import (
    MAX_CYCLE_LENGTH,
    MAX_FILE_BYTES,
    MAX_STEP,
    check_cycle,
    maze_to_json,
    maze_to_text,
    parse_step_json,
    parse_step_text,
)
from server.puzzles.step.problem import FEATURES, HEURISTICS, StepProblem
from server.search.problem import Problem
from server.search.stats import SearchResult
from server.search.trace import RECORD_BYTES

SNIFF_BYTES = 4096
_TEXT_CHARS = frozenset("SXZ. \r\n")
_MAZE_KEY = re.compile(r'"maze"\s*:')


GENERATORS = (
    GeneratorKind(
        "step", "Step-cycle maze", "straight marked corridors, kept when the start reaches the goal",
        (
            *size_options((2, 10, 200), (2, 10, 200)),
            Option("cycle", "int_list", "Step cycle", f"move lengths in turn, e.g. 1,2,3 (at most "
                   f"{MAX_CYCLE_LENGTH} moves of 1 to {MAX_STEP} cells)", default=list(DEFAULT_CYCLE),
                   min=1, max=MAX_STEP),
        ),
    ),
)


class StepFamily(Family):
    """Seed 003's 1-2-3 maze, with any step cycle."""

    def __init__(self) -> None:
        super().__init__(
            default_algorithm="astar",  # `run.py solve` without --algorithm
            state_form="(row, col, phase): phase is the index in the cycle of the next step's length",
            solution_notation=("the printed list of (x, y) positions (x the column), [row, col] cells "
                               "or the state numbers"),
            name="step",
            title="Step-cycle maze",
            puzzle_type=StepMaze,
            extensions=(".txt", ".json"),
            expects="a step-cycle maze: text rows of 'S' (start), 'Z' (goal), 'X' (marked) and '.' or "
            "spaces (blank), or JSON with 'maze' (those rows) and an optional 'cycle'",
            algorithms=("bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional", "idastar", "iddfs"),
            heuristics=HEURISTICS,
            features=FEATURES,
            own_options=(
                Option(
                    "cycle",
                    "int_list",
                    "Step cycle",
                    f"move lengths in turn, e.g. 1,2,3 (at most "
                    f"{MAX_CYCLE_LENGTH} moves of 1 to {MAX_STEP} cells)",
                    optional=True,
                    min=1,
                    max=MAX_STEP,
                    stage="both",
                ),
            ),
            path_noun="states",
            generators=GENERATORS,
            formats=("txt", "json"),
        )

    # ---- files -----------------------------------------------------------------------------------
    def sniff(self, filename: str, data: bytes) -> float:
        try:
            text = data[:SNIFF_BYTES].decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            return 0.0
        head = text.lstrip()
        if head.startswith("{"):
            return 0.95 if _MAZE_KEY.search(head) else 0.0  # the key, not a value such as a name
        chars = set(text)
        if not chars <= _TEXT_CHARS:
            return 0.0
        if "S" in chars and ("X" in chars or "Z" in chars):
            return 0.95
        if len(data) > SNIFF_BYTES and "X" in chars:
            return 0.9  # a large board whose 'S' lies beyond the sample (the parser checks it)
        return 0.0

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> StepMaze:
        if len(data) > MAX_FILE_BYTES:
            raise PuzzleError(
                f"{len(data):,} bytes is too large for a step maze (at most {MAX_FILE_BYTES:,})", "file"
            )
        text = require_text(data)
        if text.lstrip("\ufeff \r\n\t").startswith("{"):
            maze = parse_step_json(text, stem(filename), limits.max_cells)
        else:
            maze = parse_step_text(text, stem(filename), limits.max_cells)
        if options.get("cycle") is not None:
            maze = _with_cycle(maze, check_cycle(options["cycle"], "option 'cycle'"))
        return maze

    # ---- the page --------------------------------------------------------------------------------
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
            "notes": [f"read as {maze.source_format}"],
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

    def lab_bytes(self, maze: StepMaze, max_states: int) -> int:
        """The lab walks at most ``max_states`` states, at most a cell times a phase of the longest cycle
        its rules allow: ~380 bytes a state walked (measured 345-365) and the problem's run tables,
        ~150 bytes a cell (lists of ints; measured 144 on a 1,000 x 1,000 board)."""
        from server.heuristic_lab import explore_bytes

        cells = maze.rows * maze.cols
        return cells * 150 + explore_bytes(min(max_states, cells * MAX_CYCLE_LENGTH), 380, cells)

    # ---- solving ---------------------------------------------------------------------------------
    def problem(self, maze: StepMaze, options: Values) -> Problem:
        cycle = (
            maze.cycle if options.get("cycle") is None else check_cycle(options["cycle"], "option 'cycle'")
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

    def check_solution(self, maze: StepMaze, text: str, options: Values) -> Any:
        """Seed 003's (x, y) list, [row, col] cells, the seed's state numbers or ``solve --json``
        (``server/puzzles/step/check.py``)."""
        from server.puzzles.step.check import check_step_solution

        return check_step_solution(self, maze, text, options)

    def summary_lines(self, filename: str, result: dict[str, Any]) -> list[str]:
        if not result["found"]:
            return super().summary_lines(filename, result)
        cycle = ",".join(str(k) for k in result["cycle"])
        lines = [
            f"{filename}: {result['algorithm']} reached the goal in {result['cost']} moves "
            f"({describe_verdict(result)}), cycle {cycle}; expanded {result['expanded']:,} states, "
            f"generated {result['generated']:,}, max frontier {result['max_frontier']:,}; "
            f"search {result['seconds']:.3f} s"
        ]
        return lines + [f"  {number}. {move['text']}" for number, move in enumerate(result["moves"], start=1)]

    def animation_frames(
        self, maze: StepMaze, solved: Any, max_frames: int, max_side: int, progress: Any = None,
    ) -> list[Any] | None:
        """The search on the board: a cell shows the last record of any of its phases' states."""
        import numpy as np

        from server.puzzles.animation import CellBoard, search_frames

        if solved.trace is None:
            return None
        base = np.frombuffer(maze.marked, np.uint8).reshape(maze.rows, maze.cols)  # 1 marked, 0 blank
        base_rgb = np.array([(0x1F, 0x23, 0x28)] + [(255, 255, 255)] * 9, np.uint8)
        phases = len(solved.json.get("cycle") or maze.cycle)
        goals = [maze.index(r, c) for r, c in maze.goals]
        board = CellBoard(base, base_rgb, [maze.index(*maze.start)], goals, phases, path_line=True)
        return search_frames(board, solved.trace, max_frames, max_side, progress)

    # ---- making and editing ------------------------------------------------------------------------
    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        from server.puzzles.step.generate import random_step_maze

        self.generator(kind)
        rows, cols, seed = values["rows"], values["cols"], values["seed"]
        given = values.get("cycle")
        cycle = DEFAULT_CYCLE if given is None else check_cycle(given, "option 'cycle'")
        try:
            maze = random_step_maze(rows, cols, seed, cycle)
        except ValueError:
            raise PuzzleError(
                f"found no solvable {rows} x {cols} maze for the cycle {_cycle_text(cycle)} (seed {seed}): "
                "try a larger board, shorter steps or another seed", "option 'cycle'",
            ) from None
        moves = shortest_moves(maze)
        return Generated(maze, f"step-cycle maze, {rows} x {cols} cells, cycle {_cycle_text(cycle)}, "
                         f"seed {seed}, solvable in {moves} moves")

    def default_format(self, maze: StepMaze) -> str:
        """Text, unless the maze has its own cycle, which only the JSON can hold."""
        return "txt" if maze.cycle == DEFAULT_CYCLE else "json"

    def save(self, maze: StepMaze, fmt: str | None = None) -> bytes:
        fmt = self.check_format(fmt, maze)
        if fmt == "json":
            return (json.dumps(maze_to_json(maze), indent=1) + "\n").encode()
        if maze.cycle != DEFAULT_CYCLE:
            raise PuzzleError(f"the text form has no step cycle and reads as 1,2,3, and this maze's is "
                              f"{_cycle_text(maze.cycle)}: save it as json", "format")
        return maze_to_text(maze).encode()

    def edit(self, maze: StepMaze, edits: list[dict[str, Any]]) -> StepMaze:
        from server.puzzles.step.edit import edit_step

        return edit_step(maze, edits)


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
                "text": f"{length} {DIRECTION_WORDS[name]}: ({r0}, {c0}) → ({r1}, {c1})",
            }
        )
    return moves


def _cycle_text(cycle: tuple[int, ...]) -> str:
    return ",".join(str(k) for k in cycle)


def _with_cycle(maze: StepMaze, cycle: tuple[int, ...]) -> StepMaze:
    from dataclasses import replace

    return replace(maze, cycle=cycle)


FAMILY = StepFamily()
