"""One place that turns (puzzle, algorithm, options) into a result and a trace.

Grid mazes go to the compiled kernels (``server.kernels``); ``engine="generic"`` runs the pure
Python algorithms instead (the reference the kernels are tested against). The CLI, the JSON API
and the live layer all call ``solve``.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from server.puzzles.errors import PuzzleError
from server.puzzles.grid_model import GridMaze
from server.puzzles.registry import Puzzle, puzzle_family
from server.search.events import CLOSES, Event
from server.search.registry import ALGORITHMS, FAMILY_ALGORITHMS, SearchOptions
from server.search.runner import Limits, run_search
from server.search.stats import SearchResult
from server.search.trace import Trace, TraceRecorder


@dataclass(frozen=True)
class RunOptions:
    """What a user can set for a run (the JSON/CLI names)."""

    heuristic: str = ""
    weight: float = 1.0
    # grid mazes
    diagonal: bool = False
    start: tuple[int, int] | None = None
    goal: tuple[int, int] | None = None
    # the shifting-tile labyrinth
    moves: str | None = None  # "combined" or "separate"; None = the puzzle's
    start_col: int | None = None
    goal_col: int | None = None
    view: str = "states"  # "states" (one player) or "sets" (merged places)
    max_depth: int | None = None  # idastar/iddfs: plans of at most this many moves

    @classmethod
    def from_json(cls, raw: dict[str, Any] | None) -> RunOptions:
        """Validate options from the API or the socket; errors name the field."""
        raw = raw or {}
        if not isinstance(raw, dict):
            raise PuzzleError("options must be an object", "options")
        unknown = set(raw) - {
            "heuristic", "weight", "diagonal", "start", "goal",
            "moves", "start_col", "goal_col", "view", "max_depth",
        }
        if unknown:
            raise PuzzleError(f"unknown option(s): {', '.join(sorted(unknown))}", "options")
        heuristic = raw.get("heuristic") or ""
        if not isinstance(heuristic, str):
            raise PuzzleError("must be a heuristic name", "option 'heuristic'")
        try:
            weight = float(1.0 if raw.get("weight") in (None, "") else raw["weight"])
        except (TypeError, ValueError):
            raise PuzzleError(f"not a number: {raw.get('weight')!r}", "option 'weight'") from None
        if not (1.0 <= weight <= 100.0):
            raise PuzzleError(f"{weight:g} is outside 1..100", "option 'weight'")
        moves = raw.get("moves") or None
        if moves not in (None, "combined", "separate"):
            raise PuzzleError(f"{moves!r} is not combined or separate", "option 'moves'")
        view = raw.get("view") or "states"
        if view not in ("states", "sets"):
            raise PuzzleError(f"{view!r} is not states or sets", "option 'view'")
        return cls(
            heuristic=heuristic,
            weight=weight,
            diagonal=bool(raw.get("diagonal", False)),
            start=_point(raw.get("start"), "start"),
            goal=_point(raw.get("goal"), "goal"),
            moves=moves,
            start_col=_whole(raw.get("start_col"), "start_col"),
            goal_col=_whole(raw.get("goal_col"), "goal_col"),
            view=view,
            max_depth=_whole(raw.get("max_depth"), "max_depth"),
        )

    def search_options(self) -> SearchOptions:
        return SearchOptions(heuristic=self.heuristic, weight=self.weight)


def _whole(value: Any, label: str) -> int | None:
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PuzzleError(f"expected a whole number, got {value!r}", f"option '{label}'") from None
    if number < 0 or number != float(value):
        raise PuzzleError(f"expected a whole number >= 0, got {value!r}", f"option '{label}'")
    return number


def _point(value: Any, label: str) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = value.replace(" ", "").split(",")
    try:
        row, col = (int(v) for v in value)
    except (TypeError, ValueError):
        raise PuzzleError(f"expected [row, col], got {value!r}", f"option '{label}'") from None
    return row, col


@dataclass
class Solved:
    json: dict[str, Any]  # the result object (docs/PROTOCOL.md)
    trace: Trace | None = None
    result: SearchResult | None = None  # grids: the raw result (path as flat cells)
    snapshots: list[dict[str, Any]] | None = None  # labyrinth: the state of each close record


MAX_SNAPSHOTS = 100_000


def solve(
    puzzle: Puzzle,
    algorithm: str,
    options: RunOptions | None = None,
    *,
    record_trace: bool = False,
    engine: str = "auto",
    max_expanded: int | None = None,
    max_seconds: float | None = None,
    cancel: threading.Event | None = None,
    progress: np.ndarray | None = None,
) -> Solved:
    """Solve ``puzzle``; raises PuzzleError for bad options or a puzzle without endpoints."""
    options = options or RunOptions()
    check_algorithm(puzzle, algorithm)
    if puzzle_family(puzzle) == "labyrinth":
        return _solve_labyrinth(puzzle, algorithm, options, record_trace, max_expanded, max_seconds, cancel)
    maze = puzzle.with_endpoints(options.start, options.goal)
    maze.require_endpoints()
    _check_heuristic(maze, options)
    if engine == "generic":
        result, trace = _solve_generic(
            maze, algorithm, options, record_trace, max_expanded, max_seconds, cancel
        )
    else:
        from server.kernels.grid_search import solve_grid

        cancel_flag = _cancel_flag(cancel)
        result, trace = solve_grid(
            maze,
            algorithm,
            diagonal=options.diagonal,
            heuristic=options.heuristic,
            weight=options.weight,
            record_trace=record_trace,
            max_expanded=max_expanded,
            cancel=cancel_flag,
            progress=progress,
        )
    return Solved(result_json(maze, result, options), trace, result)


def check_algorithm(puzzle: Puzzle, algorithm: str) -> None:
    """Raise a PuzzleError unless ``algorithm`` is one this puzzle's family offers."""
    family = puzzle_family(puzzle)
    offered = FAMILY_ALGORITHMS.get(family, ())
    if algorithm in offered:
        return
    known = "" if algorithm in ALGORITHMS else "unknown algorithm; "
    raise PuzzleError(
        f"{known}{algorithm!r} is not offered for the {family} family; choose one of: {', '.join(offered)}",
        "option 'algorithm'",
    )


def _check_heuristic(maze: GridMaze, options: RunOptions) -> None:
    from server.puzzles.grid_problem import GridProblem

    try:
        options.search_options().resolved_heuristic(GridProblem(maze, options.diagonal))
    except ValueError as err:
        raise PuzzleError(str(err), "option 'heuristic'") from None


def _cancel_flag(cancel: threading.Event | None) -> np.ndarray | None:
    """A one-byte array the kernel polls; a watcher thread copies the Event into it."""
    if cancel is None:
        return None
    flag = np.zeros(1, np.uint8)

    def watch() -> None:
        cancel.wait()
        flag[0] = 1

    threading.Thread(target=watch, daemon=True, name="cancel-watch").start()
    return flag


def _solve_generic(
    maze: GridMaze,
    algorithm: str,
    options: RunOptions,
    record_trace: bool,
    max_expanded: int | None,
    max_seconds: float | None,
    cancel: threading.Event | None,
) -> tuple[SearchResult, Trace | None]:
    from server.puzzles.grid_problem import GridProblem

    problem = GridProblem(maze, options.diagonal)
    recorder = TraceRecorder() if record_trace else None
    on_event = recorder.listener(problem.cell_of) if recorder is not None else None
    result = run_search(
        problem, algorithm, options.search_options(), Limits(max_expanded, max_seconds), on_event, cancel
    )
    return result, recorder.trace() if recorder is not None else None


def result_json(maze: GridMaze, result: SearchResult, options: RunOptions) -> dict[str, Any]:
    """The result object of the CLI and the API (see docs/PROTOCOL.md)."""
    rows, cols = np.divmod(np.asarray(result.path, dtype=np.int64), maze.width)
    out = {"family": "grid", **result.to_json(np.stack([rows, cols], axis=1).tolist())}
    used = asdict(options)
    used.pop("start"), used.pop("goal")
    out["options"] = used
    return out


def _solve_labyrinth(
    puzzle: Any,
    algorithm: str,
    options: RunOptions,
    record_trace: bool,
    max_expanded: int | None,
    max_seconds: float | None,
    cancel: threading.Event | None,
) -> Solved:
    """The shifting-tile labyrinth: the generic algorithms, with a snapshot of each expanded state."""
    from server.puzzles.labyrinth_solve import make_problem, solve_labyrinth

    puzzle = labyrinth_variant(puzzle, options)
    problem = make_problem(puzzle, options.view, options.moves)
    recorder = TraceRecorder() if record_trace else None
    snapshots: list[dict[str, Any]] = []
    on_event = None
    if recorder is not None:
        record = recorder.listener(problem.cell_of)

        def on_event(event: Event) -> None:
            if event.kind in CLOSES and len(snapshots) < MAX_SNAPSHOTS:  # the state being expanded
                snapshots.append({"i": len(recorder), **problem.snapshot(event.state)})
            record(event)

    out = solve_labyrinth(
        puzzle,
        algorithm,
        options.heuristic,
        options.weight,
        max_expanded,
        max_seconds,
        cancel,
        on_event,
        view=options.view,
        moves=options.moves,
        max_depth=options.max_depth,
    )
    if recorder is not None and len(snapshots) == MAX_SNAPSHOTS:
        out["snapshots_capped"] = MAX_SNAPSHOTS
    return Solved(out, recorder.trace() if recorder is not None else None, None, snapshots)


def labyrinth_variant(puzzle: Any, options: RunOptions) -> Any:
    """The puzzle with the run's start/goal column (checked like the file's own values)."""
    if options.start_col is None and options.goal_col is None:
        return puzzle
    from server.puzzles.labyrinth_parse import LabyrinthOptions, parse_labyrinth_json, puzzle_to_json

    labyrinth = LabyrinthOptions(start_col=options.start_col, goal_col=options.goal_col)
    return parse_labyrinth_json(json.dumps(puzzle_to_json(puzzle)), labyrinth, puzzle.name)
