"""The sliding-tile family (issue 20; docs/SLIDING.md): the 8-, 15- and 24-puzzle, read from text or JSON,
searched by the generic algorithms or, without a trace, by the compiled fast path (``fast.py``), with
the moves in words."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import time
from collections.abc import Generator
from typing import Any

from ...i18n import t
from ...search.algorithms.iterative import _bounded, idastar, iddfs
from ...search.events import Event
from ...search.problem import Problem
from ...search.registry import Algorithm, get_algorithm
from ...search.runner import run_algorithm
from ...search.stats import SearchResult
from ..capabilities import StudentForm
from ..errors import PuzzleError
from ..family import (
    Family,
    LoadLimits,
    Recorder,
    RunControl,
    Solved,
    describe_verdict,
    heuristic_named,
    search_options,
    stem,
)
from ..options import YOURS, Option, Values
from .check import SlidingChecker, board_text
from .edit import SlidingEditor
from .generate import SlidingMaker
from .lab import SlidingLab
from .model import TILE_WORDS, SlidingBoard
from .parse import (
    MAX_FILE_BYTES,
    SlidingSaver,
    parse_sliding_json,
    parse_sliding_text,
    sniff_text,
)
from .problem import SlidingProblem, heuristics_for, neighbours

SNIFF_BYTES = 4096
GENERIC_MAX_EXPANDED = 2_000_000  # Config.max_expanded_generic's default: see ``solve``
GENERIC_MAX_STORED = 500_000  # Config.max_stored_generic's default
DEPTH_FIRST_ITERATIVE = ("idastar", "iddfs")  # hold the current path only
PATH_SEARCH_BYTES = 4 * 1024 * 1024  # their path, the heuristic's tables per search
FAST_ALGORITHMS = ("idastar", "astar")
# Boards (by side) and heuristics the generic engine solves when the engine is "auto", faster than numba
# and a kernel load (~0.4 s): the 8-puzzle's hardest boards (31 moves) take 4-10 k expansions, under
# 0.1 s in Python, with these; with "misplaced" IDA* makes millions, so the kernels run
# (docs/BENCHMARKS.md, "The CLI's start-up").
GENERIC_BOARDS = {3: ("manhattan", "linear_conflict")}

def _fast_module() -> Any:
    """``server/puzzles/sliding/fast.py`` (the compiled fast path) when it is importable, else None."""
    try:
        from . import fast
    except ImportError:
        return None
    return fast


class SlidingFamily(Family):
    """The 8-, 15- and 24-puzzle."""

    bounded = ("dfs", "idastar", "iddfs")  # the algorithms ``max_depth`` bounds

    def __init__(self) -> None:
        super().__init__(
            name="sliding",
            title="sliding.sliding_tile_puzzle_2",
            puzzle_type=SlidingBoard,
            extensions=(".txt", ".json"),
            expects="sliding.9_16_or_25_numbers",
            algorithms=("bfs", "dfs", "dijkstra", "greedy", "astar", "idastar", "iddfs", "bidirectional"),
            default_algorithm="idastar",
            fast_algorithms=FAST_ALGORITHMS,
            heuristics=heuristics_for(4),  # pdb only where pdb.py is there; the problem says per board
            own_options=(
                Option("max_depth", "int", "sliding.max_moves",
                       "sliding.dfs_idastar_iddfs_plans_at", optional=True, min=0, max=1_000,
                       algorithms=("dfs", "idastar", "iddfs")),
            ),
            # The fast path serves runs without a trace (CLI, API, the checker's optimum): they get
            # the compiled limits; a generic run of this family clamps them back (``solve``).
            compiled=_fast_module() is not None,
            path_noun="boards",
            lab=SlidingLab(self),
            checker=SlidingChecker(self),
            maker=SlidingMaker(self),
            saver=SlidingSaver(self),
            editor=SlidingEditor(self),
            student=StudentForm("sliding.state_form"),
            named_trace=True,  # a record's cell is the blank's: many boards share it
        )

    # ---- files -----------------------------------------------------------------------------------
    def from_array(self, array: Any) -> tuple[float, bytes] | None:
        """An N × N arrangement of 0 … N²−1 (0 the blank), or the N² numbers in a row: a board's rows."""
        values = sorted(array.ravel().tolist())
        side = math.isqrt(array.size)
        square = array.ndim == 1 or (array.ndim == 2 and array.shape[0] == array.shape[1])
        if not square or side < 3 or side * side != array.size or values != list(range(array.size)):
            return None
        rows = array.reshape(side, side).tolist()
        return 0.9, ("\n".join(" ".join(str(v) for v in row) for row in rows) + "\n").encode()

    def sniff(self, filename: str, data: bytes) -> float:
        text = self.sample_text(data, SNIFF_BYTES)
        if len(data) > MAX_FILE_BYTES or text is None:
            return 0.0
        head = text.lstrip()
        if head.startswith("{"):
            try:
                value = json.loads(text)
            except (ValueError, RecursionError):
                return 0.0
            if isinstance(value, dict) and value.get("family") == "sliding":
                return 0.99  # surer than a family that only sees an object with a 'tiles' key
            return 0.0
        return sniff_text(text)

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> SlidingBoard:
        text, is_json = self.file_text(data, MAX_FILE_BYTES, t("sliding.sliding_tile_board"))
        board = (parse_sliding_json if is_json else parse_sliding_text)(text, stem(filename))
        if board.cells > limits.max_cells:
            raise PuzzleError(
                t("sliding.cells_over_limit", cells=board.cells, max_cells=limits.max_cells),
                t("sliding.file"),
            )
        return board

    # ---- the page --------------------------------------------------------------------------------
    def info(self, board: SlidingBoard) -> dict[str, Any]:
        return {
            "name": board.name,
            "n": board.n,
            "width": board.n,
            "height": board.n,
            "tiles": list(board.tiles),
            "goal": list(board.goal),
            "heuristics": list(heuristics_for(board.n)),
            "notes": list(board.notes),
        }

    def size(self, board: SlidingBoard) -> tuple[int, int]:
        return board.n, board.n

    def trace_estimate(self, board: SlidingBoard) -> int:
        # States are boards: a recorded search holds up to millions of records and a snapshot per
        # expanded state (capped); the reservation is corrected once the search is done.
        return (16 if board.n == 3 else 32) * 1024 * 1024

    # ---- memory ----------------------------------------------------------------------------------
    def state_bound(self, board: SlidingBoard, options: Values) -> int:
        """Half the permutations of the tiles and the blank are reachable (the other half by parity)."""
        return math.factorial(board.n * board.n) // 2

    def state_bytes(self, board: SlidingBoard) -> int:
        """A board as bytes, its entries in the maps and the frontier (measured: ~400 for BFS, ~580 for
        A* on the 15-puzzle)."""
        return 600 + 2 * board.n * board.n

    def search_bytes(
        self, board: SlidingBoard, algorithm: str, options: Values, max_stored: int | None,
    ) -> int:
        """IDA* and iterative deepening hold their path only; the others up to ``max_stored`` boards
        (the fast path's A* runs the 8-puzzle only: at most its 181,440 states)."""
        if algorithm in DEPTH_FIRST_ITERATIVE:
            return PATH_SEARCH_BYTES
        stored = min(max_stored or GENERIC_MAX_STORED, self.state_bound(board, options))
        return stored * self.state_bytes(board)

    # ---- solving ---------------------------------------------------------------------------------
    def problem(self, board: SlidingBoard, options: Values) -> Problem:
        return SlidingProblem(board)

    def algorithm(self, name: str, options: Values) -> Algorithm:
        """The registry's algorithm, bounded by ``max_depth`` for dfs, idastar and iddfs."""
        algorithm = get_algorithm(name)
        depth = options.get("max_depth")
        if depth is None or name not in self.bounded:
            return algorithm
        if name == "idastar":
            bound = float(depth)
            return dataclasses.replace(
                algorithm, run=lambda p, o: idastar(p, o.resolved_heuristic(p), o.weight, max_cost=bound))
        if name == "iddfs":
            return dataclasses.replace(algorithm, run=lambda p, o: iddfs(p, max_depth=depth))
        return dataclasses.replace(algorithm, run=lambda p, o: depth_limited_dfs(p, depth))

    def solve(self, board: SlidingBoard, algorithm: str, options: Values, control: RunControl) -> Solved:
        """The compiled fast path when it can serve the run (no trace, its algorithm and heuristic, weight
        1, no depth bound) and the engine is "compiled", or "auto" on a board not in ``GENERIC_BOARDS``;
        else the generic engine."""
        problem = self.run_problem(board, options)
        heuristic = options.get("heuristic") or "manhattan"
        if (not options.get("heuristic") and not control.record_trace and board.n >= 4
                and "pdb" in problem.heuristics):
            heuristic = "pdb"  # the default method off the page: Korf's hardest in under a second
        uses_h = get_algorithm(algorithm).uses_heuristic  # bfs and the like ignore the option
        if uses_h and heuristic not in problem.heuristics and heuristic != YOURS:
            raise PuzzleError(
                t(
                    "sliding.heuristic_not_offered_for_x",
                    heuristic=repr(heuristic),
                    n=board.n,
                    heuristics=", ".join(problem.heuristics),
                ),
                t("sliding.option_heuristic"),
            )
        small = board.n in GENERIC_BOARDS and heuristic in GENERIC_BOARDS[board.n]
        fast = None if control.engine == "generic" or (small and control.engine == "auto") else _fast_module()
        if (fast is not None and not control.record_trace
                and not self.needs_generic(algorithm, options) and options.get("weight", 1.0) == 1.0
                and options.get("max_depth") is None and fast.available(board.n, algorithm, heuristic)):
            return self._solve_fast(fast, board, problem, algorithm, heuristic, options, control)
        if self.compiled:  # the limits were the compiled ones: a Python search needs the generic ones
            control = dataclasses.replace(
                control, max_expanded=min(control.max_expanded or GENERIC_MAX_EXPANDED, GENERIC_MAX_EXPANDED),
                max_stored=control.max_stored or GENERIC_MAX_STORED)
        search = search_options(problem, options)
        recorder = Recorder(problem, control.record_trace, named=self.named_trace,
                            heuristic=heuristic_named(problem, algorithm, options))
        result = run_algorithm(problem, self.algorithm(algorithm, options), search, control.limits(),
                               recorder.on_event, control.cancel)
        out = self.result_json(board, problem, result, options)
        out["engine"] = "generic"
        depth = options.get("max_depth")
        if not result.found and not result.stopped and depth is not None and algorithm in self.bounded:
            out["message"] = t("sliding.no_solution_at_most_moves", depth=depth)
        return recorder.solved(out, result, board)

    def _solve_fast(self, fast: Any, board: SlidingBoard, problem: Problem, algorithm: str, heuristic: str,
                    options: Values, control: RunControl) -> Solved:
        started = time.perf_counter()
        found = fast.solve_fast(board.tiles, board.goal, board.n, algorithm, heuristic,
                                max_expanded=control.max_expanded, cancel=control.cancel.array,
                                progress=control.progress)
        seconds = time.perf_counter() - started
        path = apply_moves(board, found.moves) if found.found else []
        stopped = found.stopped
        if stopped and control.cancel.is_set():
            stopped = control.cancel.reason  # the kernel saw the flag: say why it was set
        cost = float(found.cost) if found.found else None
        frontier = int(getattr(found, "max_frontier", len(path)))  # IDA*'s frontier: the current path
        result = SearchResult(algorithm, bool(found.found), cost, path, int(found.expanded),
                              int(found.generated), frontier, seconds, True, stopped)
        out = self.result_json(board, problem, result, {**options, "heuristic": heuristic})
        out["engine"] = "compiled"
        return Solved(out, None, result, None, board)

    def result_json(self, board: SlidingBoard, problem: Problem, result: SearchResult,
                    options: Values) -> dict[str, Any]:
        out = super().result_json(board, problem, result, options)
        out["n"] = board.n
        out["goal"] = list(board.goal)
        out["moves"] = moves_in_words(out["path"], board.n)
        return out

    # ---- a state in words: the board's rows, "_" the blank ("7 2 4 / 5 _ 6 / 8 3 1") ---------------
    def state_text(self, problem: Problem, state: Any) -> str:
        return board_text(state)

    def json_text(self, value: Any) -> str:
        if isinstance(value, list | tuple) and value and all(isinstance(v, int) for v in value):
            return board_text(value)
        return super().json_text(value)

    def summary_lines(self, filename: str, result: dict[str, Any]) -> list[str]:
        if not result["found"]:
            return super().summary_lines(filename, result)
        engine = result.get("engine", "generic")
        lines = [
            t(
                "sliding.solved_puzzle_in_moves_expanded",
                filename=filename,
                algorithm=result["algorithm"],
                value=result["n"] ** 2 - 1,
                cost=result["cost"],
                describe_verdict=describe_verdict(result),
                expanded=result["expanded"],
                generated=result["generated"],
                max_frontier=result["max_frontier"],
                seconds=f"{result['seconds']:.3f}",
                engine=engine,
            ),
            t("sliding.blank_moves_2")
            + (_listed([m["blank"] for m in result["moves"]]) or t("sliding.none_solved")),
        ]
        if result["moves"]:
            lines.append(t("sliding.tiles_slid") + _listed([str(m["tile"]) for m in result["moves"]]))
        return lines

    def warm_up(self, algorithm: str) -> None:
        fast = _fast_module()
        if fast is not None and algorithm in FAST_ALGORITHMS:
            fast.warm_up(algorithm)  # that kernel only

    def fast_serves(self, n: int, algorithm: str, heuristic: str) -> bool:
        """Whether the compiled fast path runs ``algorithm`` with ``heuristic`` on an n x n board (the
        maker's measuring IDA* sizes its budget by it)."""
        fast = _fast_module()
        return fast is not None and fast.available(n, algorithm, heuristic)

def _listed(words: list[str], most: int = 200) -> str:
    """Words joined by spaces, the first ``most`` of them (a DFS plan may have tens of thousands)."""
    if len(words) <= most:
        return " ".join(words)
    return " ".join(words[:most]) + t("sliding.more_words", more=len(words) - most)


def depth_limited_dfs(problem: Problem, limit: int) -> Generator[Event, None, tuple[list[Any] | None, float]]:
    """Depth-first search to at most ``limit`` moves: one pass of iterative deepening's bounded search
    (the same events; boards already reached no deeper are skipped)."""
    def depth(_state: Any, _g: float, steps: int) -> float:
        return float(steps)

    found, cost, _refused = yield from _bounded(problem, problem.initial_states()[0], float(limit), depth, {})
    return found, cost


def apply_moves(board: SlidingBoard, moves: str) -> list[bytes]:
    """The boards from ``board.tiles`` through the blank's ``moves`` (a string of U, D, L, R)."""
    table = [dict(row) for row in neighbours(board.n)]
    state = bytearray(board.tiles)
    blank = state.index(0)
    path = [bytes(state)]
    for move in moves:
        cell = table[blank][move]  # the fast path's moves are legal: a KeyError here is its bug
        state[blank], state[cell] = state[cell], 0
        blank = cell
        path.append(bytes(state))
    return path


def moves_in_words(path: list[list[int]], n: int) -> list[dict[str, Any]]:
    """Each move of a path of boards: the blank's direction, the tile that slid, and in words."""
    moves = []
    for a, b in itertools.pairwise(path):
        blank, to = a.index(0), b.index(0)
        step = to - blank
        name = {-n: "U", n: "D", -1: "L", 1: "R"}[step]
        tile = a[to]
        moves.append(
            {
                "blank": name,
                "tile": tile,
                "text": t(
                    "sliding.slide_tile", tile=tile, direction=t(f"sliding.direction.{TILE_WORDS[name]}")
                ),
            }
        )
    return moves


FAMILY = SlidingFamily()
