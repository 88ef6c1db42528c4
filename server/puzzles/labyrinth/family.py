"""The shifting-tile labyrinth family (docs/LABYRINTH.md): seed 000's CSV, seed 002's padded JSON and
the project's own JSON; two move models, two search views, snapshots of each expanded board."""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...config import OPTIMUM_SECONDS
from ...i18n import t
from ...search.problem import Problem
from ...search.registry import get_algorithm
from ...search.runner import CHECK_EVERY, Limits
from ...search.stats import SearchResult
from ...search.trace import RECORD_BYTES
from ..capabilities import StudentForm
from ..family import (
    DEFAULT_STORED,
    Family,
    LoadLimits,
    Recorder,
    RunControl,
    Solved,
    describe_verdict,
    heuristic_named,
    stem,
)
from ..options import YOURS, Option, Values
from ..running import SNAPSHOT_BYTES
from .check import LabyrinthChecker, labyrinth_text, place_text, places_text
from .edit import LabyrinthEditor
from .generate import LabyrinthMaker
from .greedy import MAX_ACTIONS, SEED_GREEDY
from .lab import LabyrinthLab
from .model import (
    DICT_ENTRY_BYTES,
    EXITED,
    OUTSIDE,
    TUPLE_BYTES,
    LabyrinthPuzzle,
    Walker,
)
from .parse import (
    MAX_SIDE,
    MOVE_MODELS,
    LabyrinthOptions,
    LabyrinthSaver,
    parse_labyrinth_csv,
    parse_labyrinth_json,
    run_variant,
)
from .problem import (
    HEURISTICS,
    RELAXED_CACHE_BYTES,
    RELAXED_LEVELS,
    LabyrinthProblem,
    LabyrinthSetProblem,
    bound_entry_bytes,
    line_set_sizes,
    relaxed_entry_bytes,
)
from .solve import ALGORITHMS, VIEWS, make_problem, result_json, solve_labyrinth

MAX_FILE_BYTES = 1_000_000  # a 64 x 64 board is ~12 KB of CSV; padded JSON stays far below this
_SEPARATOR = re.compile(r"[;,]")
MOVE_LABELS = {"combined": "labyrinth.combined_push_walk", "separate": "labyrinth.separate_push_or_walk"}
VIEW_LABELS = {"states": "labyrinth.states_one_player", "sets": "labyrinth.sets_all_reachable_places"}


class LabyrinthFamily(Family):
    """The course's shifting-tile labyrinth."""

    def __init__(self) -> None:
        super().__init__(
            default_algorithm="astar",  # `run.py solve` without --algorithm
            name="labyrinth",
            title="labyrinth.shifting_tile_labyrinth",
            puzzle_type=LabyrinthPuzzle,
            extensions=(".csv", ".json"),
            expects="labyrinth.labyrinth_board_seed_000_csv",
            algorithms=ALGORITHMS,
            heuristics=HEURISTICS,
            own_options=(
                Option(
                    "moves",
                    "choice",
                    "labyrinth.option.moves",
                    "labyrinth.combined_push_then_walk_one",
                    optional=True,
                    stage="both",
                    choices=tuple((m, MOVE_LABELS[m]) for m in MOVE_MODELS),
                ),
                Option(
                    "start_col",
                    "int",
                    "labyrinth.start_column",
                    "labyrinth.player_enters_board_below_this",
                    optional=True,
                    min=0,
                    max=MAX_SIDE - 1,
                    stage="both",
                ),
                Option(
                    "goal_col",
                    "int",
                    "labyrinth.goal_column",
                    "labyrinth.and_leaves_it_above_this",
                    optional=True,
                    min=0,
                    max=MAX_SIDE - 1,
                    stage="both",
                ),
                Option(
                    "view",
                    "choice",
                    "labyrinth.search_over",
                    "labyrinth.one_player_states_or_merged",
                    default="states",
                    choices=tuple((v, VIEW_LABELS[v]) for v in VIEWS),
                ),
                Option(
                    "max_depth",
                    "int",
                    "labyrinth.max_moves",
                    "labyrinth.idastar_iddfs_plans_at_most",
                    optional=True,
                    min=0,
                    max=1_000,
                    algorithms=("idastar", "iddfs"),
                ),
                Option(
                    "left_rows",
                    "int_list",
                    "labyrinth.rows_pushed_from_left",
                    "labyrinth.option.left_rows_help",
                    optional=True,
                    min=0,
                    max=MAX_SIDE - 1,
                    stage="load",
                ),
                Option(
                    "right_rows",
                    "int_list",
                    "labyrinth.rows_pushed_from_right",
                    "labyrinth.option.right_rows_help",
                    optional=True,
                    min=0,
                    max=MAX_SIDE - 1,
                    stage="load",
                ),
                Option(
                    "push_columns",
                    "bool",
                    "labyrinth.push_columns",
                    "labyrinth.board_game_columns_are_pushed",
                    optional=True,
                    stage="load",
                ),
                Option(
                    "rotate_free",
                    "bool",
                    "labyrinth.turn_free_tile",
                    "labyrinth.board_game_turn_it_before",
                    optional=True,
                    stage="load",
                ),
            ),
            lab=LabyrinthLab(self),
            checker=LabyrinthChecker(self),
            maker=LabyrinthMaker(self),
            saver=LabyrinthSaver(self),
            editor=LabyrinthEditor(self),
            student=StudentForm("labyrinth.state_form"),
            named_trace=True,  # a record's cell is the player's: boards after other pushes share it
        )

    # ---- files -----------------------------------------------------------------------------------
    def sniff(self, filename: str, data: bytes) -> float:
        ext = Path(filename).suffix.lower()
        text = self.sample_text(data)
        if text is None:
            return 0.0
        text = text.lstrip()
        if text.startswith("{"):
            keys = re.findall(r'"(\w+)"\s*:', text)
            if "board" in keys or "tiles" in keys:
                return 0.95
            return 0.5 if ext == ".json" else 0.0
        first = text.splitlines()[0] if text else ""
        if _looks_like_csv_row(first):
            return 0.9
        return 0.5 if ext in (".csv", ".json") else 0.0

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> LabyrinthPuzzle:
        text, is_json = self.file_text(
            data,
            MAX_FILE_BYTES,
            t("labyrinth.labyrinth_board"),
            t("labyrinth.x_tiles_bytes", max_side=MAX_SIDE, max_file_bytes=MAX_FILE_BYTES),
        )
        labyrinth = LabyrinthOptions(**options)  # the schema's load options are its fields
        if Path(filename).suffix.lower() == ".csv" or not is_json:
            return parse_labyrinth_csv(text, labyrinth, stem(filename))
        return parse_labyrinth_json(text, labyrinth, stem(filename))

    # ---- the page --------------------------------------------------------------------------------
    def info(self, puzzle: LabyrinthPuzzle) -> dict[str, Any]:
        last = puzzle.cols - 1
        return {
            "name": puzzle.name,
            "rows": puzzle.rows,
            "cols": puzzle.cols,
            "width": puzzle.cols,
            "height": puzzle.rows,
            "board": puzzle.board_rows(),
            "free_tile": puzzle.free,
            "start_col": puzzle.start_col,
            "goal_col": puzzle.goal_col,
            "moves": puzzle.moves,
            "insertions": [point.to_json() for point in puzzle.insertions],
            "rotate_free": puzzle.rotate_free,
            "heuristics": list(HEURISTICS),
            "notes": [t("labyrinth.read_as_format", source_format=puzzle.source_format)],
            # This board's values for the schema's options (the page's form starts from them).
            "options": {
                "moves": {"default": puzzle.moves},
                "start_col": {"default": puzzle.start_col, "max": last},
                "goal_col": {"default": puzzle.goal_col, "max": last},
            },
        }

    def size(self, puzzle: LabyrinthPuzzle) -> tuple[int, int]:
        return puzzle.cols, puzzle.rows

    def trace_estimate(self, puzzle: LabyrinthPuzzle) -> int:
        """States are boards, not cells: a typical run expands up to ``TRACE_EXPANSIONS`` of them, each
        with its snapshot (a board, as ``solving.held_bytes`` counts it) and the records of the states it
        generated (the reservation is corrected once the search is done)."""
        tiles = puzzle.rows * puzzle.cols
        expansions = min(TRACE_EXPANSIONS, TRACE_TILE_EXPANSIONS // tiles)  # larger boards expand slower
        return expansions * (SNAPSHOT_BYTES + BYTES_HEADER + tiles + RECORDS_PER_EXPANSION * RECORD_BYTES)

    # ---- memory ----------------------------------------------------------------------------------
    def state_bytes(self, puzzle: LabyrinthPuzzle) -> int:
        """What each stored state of a best-first search adds, at the most (the sets view, a formula's
        value kept): the state, its board, its place mask, its entries in the search's maps and heap.
        The caches per state (a board's links, its bounds, the relaxed floods) are bounded in bytes, so
        ``setup_bytes`` counts them full: with it an upper bound of ``search_bytes`` for any number
        of states, what ``solving.search_plan`` fits a search's states to."""
        return _memory(puzzle, "astar", {"view": "sets", "heuristic": YOURS}).per_state

    def setup_bytes(self, puzzle: LabyrinthPuzzle, options: Values) -> int:
        """The walker's masks, and where ``options``' heuristic is evaluated (as A* does) every line set
        the relaxed bound may list (``problem.line_set_sizes``: at most ``LINE_SETS_BYTES``) and every
        cache full (``Walker.cache_entries``)."""
        return _memory(puzzle, "astar", options).fixed()

    def search_bytes(
        self, puzzle: LabyrinthPuzzle, algorithm: str, options: Values, max_stored: int | None
    ) -> int:
        """The line sets, ``max_stored`` states with their entries in the search's maps, and the caches
        (each at most its bound in bytes): ``_memory``. seed-greedy keeps at most its ``MAX_ACTIONS``
        states; IDA* and iterative deepening keep a table of the states of one iteration (at most the
        states generated) and evaluate every successor, so their caches fill sooner."""
        stored = max_stored if max_stored is not None else DEFAULT_STORED
        if algorithm == SEED_GREEDY.name:
            stored = min(stored, MAX_ACTIONS + 1)
        own = _memory(puzzle, algorithm, options).at(stored + CHECK_EVERY)  # limits are checked so often
        if algorithm in OPTIMAL and options.get("weight", 1.0) <= 1.0 and options.get("heuristic") != YOURS:
            return own
        # A plan that may not be optimal is compared with the optimum when a quick search finds it
        # (``judging.optimum_cost``: A* for at most ``OPTIMUM_SECONDS``), after this search is done.
        quick = int(OPTIMUM_SECONDS * REFERENCE_RATE / (puzzle.rows * puzzle.cols))
        reference = {**options, "heuristic": None, "weight": 1.0}
        return max(own, _memory(puzzle, "astar", reference).at(min(stored, quick) + CHECK_EVERY))

    # ---- solving ---------------------------------------------------------------------------------
    def problem(self, puzzle: LabyrinthPuzzle, options: Values) -> Problem:
        return make_problem(run_variant(puzzle, options), options["view"], options.get("moves"))

    def solve(self, puzzle: LabyrinthPuzzle, algorithm: str, options: Values, control: RunControl) -> Solved:
        """The generic algorithms, with a snapshot of each expanded state and the moves in words."""
        puzzle = run_variant(puzzle, options)
        # ``run_problem`` gives it the heuristic "yours" when the run has a formula; ``puzzle`` is
        # already the run's variant, so only the move model and view come from the options here.
        problem = self.run_problem(puzzle, {**options, "start_col": None, "goal_col": None})
        recorder = Recorder(problem, control.record_trace, named=self.named_trace,
                            heuristic=heuristic_named(problem, algorithm, options))
        out = solve_labyrinth(
            puzzle,
            algorithm,
            options.get("heuristic") or "",
            options["weight"],
            control.max_expanded,
            control.max_seconds,
            control.cancel,
            recorder.on_event,
            max_stored=control.max_stored,
            view=options["view"],
            moves=options.get("moves"),
            max_depth=options.get("max_depth"),
            problem=problem,  # type: ignore[arg-type]
            code=options.get("code") or "",
        )
        if options.get("heuristic") == YOURS:
            out["options"]["formula"] = options.get("formula")
        return recorder.solved(out, None, puzzle)

    def result_json(self, puzzle: LabyrinthPuzzle, problem: Problem, result: SearchResult,
                    options: Values) -> dict[str, Any]:
        """The result object ``solve`` gives (moves in words, insertions, cells walked), for results
        made outside ``solve``: a checked solution's replay (``checking.replay_json``)."""
        assert isinstance(problem, LabyrinthProblem | LabyrinthSetProblem)
        heuristic = options.get("heuristic") or (problem.heuristics[0] if problem.heuristics else "")
        return result_json(problem, result, heuristic, options.get("weight", 1.0),
                           options.get("view") or "states", Limits(None, None, None))

    # ---- a state in words (the family's notation: check.py ``labyrinth_text``) --------------------
    def state_text(self, problem: Problem, state: Any) -> str:
        """"(2, 3) · hand ┼ · ┌┬┐ / ├┼┤ / └┴┘": the player, the tile in hand, the board's rows."""
        if isinstance(problem, LabyrinthSetProblem):
            places = [problem.rc(x) for x in problem.walker.positions(state.places)]
            return labyrinth_text(places_text(places), state.free, state.board, problem.cols)
        if isinstance(problem, LabyrinthProblem):
            where = {OUTSIDE: "below", EXITED: "above"}.get(state.player, "board")
            return labyrinth_text(place_text(problem.rc(state.player), where), state.free, state.board,
                                  problem.cols)
        return super().state_text(problem, state)

    def json_text(self, value: Any) -> str:
        """The results' form ({player, on, free, board: "0123/…"}, or the merged view's {places, …})."""
        if not isinstance(value, dict) or not isinstance(value.get("board"), str):
            return super().json_text(value)
        lines = value["board"].split("/")
        codes = [int(ch) for line in lines for ch in line if ch.isdigit()]
        cols = len(lines[0]) if lines else 1
        place = (places_text(value.get("places") or []) if "places" in value
                 else place_text(value.get("player") or [0, 0], str(value.get("on") or "board")))
        return labyrinth_text(place, int(value.get("free") or 0), codes, cols)

    def summary_lines(self, filename: str, result: dict[str, Any]) -> list[str]:
        if not result["found"]:
            return super().summary_lines(filename, result)
        verdict = describe_verdict(result)
        lines = [
            t(
                "labyrinth.solved_it_in_moves_insertions",
                filename=filename,
                algorithm=result["algorithm"],
                cost=result["cost"],
                verdict=verdict,
                insertions=result["insertions"],
                walked_cells=result["walked_cells"],
                expanded=result["expanded"],
                seconds=f"{result['seconds']:.3f}",
            )
        ]
        lines += [f"  {number}. {move['text']}" for number, move in enumerate(result["moves"], start=1)]
        return lines

# ---- memory estimates: the figures of ``Walker`` and ``problem.py``, checked against measured peaks in
# tests/test_labyrinth_memory.py.
TRACE_EXPANSIONS = 100_000  # expansions a typical recorded run keeps (snapshots are capped at 200,000)
#: ... fewer on large boards: an expansion floods and pushes whole boards (BFS: ~0.9 M tiles a second,
#: so 100 M is about the default two minutes of search)
TRACE_TILE_EXPANSIONS = 100_000_000
RECORDS_PER_EXPANSION = 12  # trace records an expansion leaves: its close and the states it opened
BYTES_HEADER = 33  # a ``bytes`` object's header
#: The search's own entries per stored state besides the state: dicts, heap or queue entries, numbers.
CONTAINER_BYTES = {
    "bfs": DICT_ENTRY_BYTES + 8,  # score, the queue
    "dfs": 2 * DICT_ENTRY_BYTES + 32,  # came_from, g (a float), the stack
    "idastar": DICT_ENTRY_BYTES + 24,  # the transposition table (a float g)
    "iddfs": DICT_ENTRY_BYTES + 24,
    SEED_GREEDY.name: DICT_ENTRY_BYTES + TUPLE_BYTES + 8,  # seen, the list of actions
}
BEST_FIRST_BYTES = 3 * DICT_ENTRY_BYTES + 24 + 5 * 8 + 40 + 3 * 24 + 28  # g, came_from, closed; heap entry
DEEPENING = ("idastar", "iddfs")
OPTIMAL = ("bfs", "dijkstra", "astar", "idastar", "iddfs")  # with weight 1 and a built-in heuristic
REFERENCE_RATE = 2_000_000  # states x tiles a second that A* generates (measured 0.2-1.5 M on 2 cores)


@dataclass(frozen=True)
class _Memory:
    """One search's memory: ``setup`` before the first state, ``per_state`` for each stored one, and
    each cache as (entries per stored state, bytes an entry, entries it keeps at most)."""

    setup: int
    per_state: int
    caches: tuple[tuple[float, int, int], ...]

    def at(self, stored: int) -> int:
        """The peak with ``stored`` states: each cache holds its entries per state, up to its bound."""
        held = sum(min(limit, math.ceil(stored * fill)) * entry for fill, entry, limit in self.caches)
        return self.setup + stored * self.per_state + held

    def fixed(self) -> int:
        """``setup`` and every cache at its bound."""
        return self.setup + sum(limit * entry for _, entry, limit in self.caches)


@functools.lru_cache(maxsize=16)
def _walker(rows: int, cols: int) -> Walker:
    """A walker of boards of this size: its figures (``board_bytes``, ``mask_bytes``, cache limits)."""
    return Walker(rows, cols, 0, 0)


def _memory(puzzle: LabyrinthPuzzle, algorithm: str, options: Values) -> _Memory:
    """What a generic search of ``puzzle`` holds, from the board's size, its lines and move model, the
    view and the heuristic the algorithm evaluates (the relaxed bound lists line sets and caches floods,
    every bound but the trivial one caches a value per board and place)."""
    walker = _walker(puzzle.rows, puzzle.cols)
    board, mask = walker.board_bytes, walker.mask_bytes
    sets_view = options.get("view") == "sets"
    combined = (options.get("moves") or puzzle.moves) == "combined"
    heuristic = options.get("heuristic") or HEURISTICS[0]
    evaluated = algorithm in ALGORITHMS and get_algorithm(algorithm).uses_heuristic and heuristic != "trivial"
    relaxed = evaluated and heuristic in ("relaxed", YOURS)
    deepening = algorithm in DEEPENING
    branching = len(puzzle.insertions) * (4 if puzzle.rotate_free else 1) + 1
    lines = len({(p.axis, p.index) for p in puzzle.insertions})
    setup = (puzzle.rows + puzzle.cols + 4) * mask  # the walker's row, column and edge masks
    if relaxed:
        setup += line_set_sizes(lines, walker)[1]  # every size below S, at most LINE_SETS_BYTES
    state = TUPLE_BYTES + board + (mask if sets_view else 28)
    per_state = state + CONTAINER_BYTES.get(algorithm, BEST_FIRST_BYTES)
    # Deepening searches evaluate every successor, kept or not: their caches hold those boards too.
    per_eval, own_board = (branching, board) if deepening else (1.0, 0)
    caches: list[tuple[float, int, int]] = []
    # A board is flooded when its successors are made, and when its states are generated under combined
    # moves or an evaluated bound: about one new board a stored state then (fewer in one player's view
    # under combined moves, where a push's walks share its board: measured 0.2-0.5), else only the
    # expanded ones.
    if evaluated or deepening:
        walked = per_eval
    elif combined:
        walked = 1.0 if sets_view else 0.6
    else:
        walked = 1 / branching
    caches.append((walked, walker.links_entry_bytes - board + own_board, walker.links_limit))
    if evaluated:
        values = 2 if heuristic == YOURS else 1  # the formula's features: the relaxed and barrier counts
        place = 0 if sets_view else mask // 2  # the sets view's places are the state's own mask
        entry = TUPLE_BYTES + place + DICT_ENTRY_BYTES + own_board
        caches.append((values * per_eval, entry, walker.cache_entries(bound_entry_bytes(walker))))
    if relaxed:
        entry = TUPLE_BYTES + mask + DICT_ENTRY_BYTES + own_board
        # An evaluation floods each line set it tries until one joins the exit: up to the sets of sizes
        # k .. k + L - 1, about one a line on the whole (measured 3-14 on boards of 7-16 lines, up to a
        # hundred where many boundaries are blocked; the cache's small bound keeps that error small).
        first_too_many = line_set_sizes(lines, walker)[0]
        tried = sum(math.comb(lines, size) for size in range(min(RELAXED_LEVELS, first_too_many, lines + 1)))
        limit = walker.cache_entries(relaxed_entry_bytes(walker), RELAXED_CACHE_BYTES)
        caches.append((min(tried, lines) * per_eval, entry, limit))
    if evaluated and heuristic == YOURS:  # ``yours.py`` keeps each state's value, without a bound
        per_state += math.ceil(per_eval * (DICT_ENTRY_BYTES + 24 + (state if deepening else 0)))
    return _Memory(setup, per_state, tuple(caches))


def _looks_like_csv_row(line: str) -> bool:
    """Tile codes separated by ';' or ',', the first one present (checked field by field: a regular
    expression with nested repeats here took exponential time on long lines of separators)."""
    fields = [field.strip() for field in _SEPARATOR.split(line)]
    return len(fields) > 1 and fields[0].isdigit() and all(f == "" or f.isdigit() for f in fields[1:])


FAMILY = LabyrinthFamily()
