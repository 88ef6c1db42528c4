"""The Zenji family (docs/ZENJI.md): the 4-digit text form and the project's JSON, downhill and free
flow, costs in quarter turns (ties broken by path length), the water's path in words."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ...i18n import t
from ...search.problem import Problem
from ...search.registry import Algorithm, get_algorithm
from ...search.stats import SearchResult
from ..capabilities import StudentForm
from ..errors import PuzzleError
from ..family import Family, LoadLimits, describe_verdict, stem
from ..options import Option, Values
from ..yours import with_formula
from .check import ZenjiChecker
from .edit import ZenjiEditor
from .generate import ZenjiMaker
from .lab import TurnsFormula, ZenjiLab
from .markdown import has_table, sniff_table
from .model import FLOWS, ZenjiBoard
from .parse import (
    MAX_FILE_BYTES,
    ZenjiSaver,
    is_skipped,
    parse_zenji_json,
    parse_zenji_text,
)
from .problem import HEURISTICS, ZenjiProblem
from .words import water_in_words

SNIFF_BYTES = 4096
_PIPES_KEY = re.compile(r'"pipes"\s*:')
FLOW_LABELS = {"downhill": "zenji.downhill_east_and_south_only", "free": "zenji.free_any_side_each_tile"}


class ZenjiFamily(Family):
    """Seed 001's rotating pipes."""

    def __init__(self) -> None:
        super().__init__(
            default_algorithm="astar",  # `run.py solve` without --algorithm
            name="zenji",
            title="zenji.zenji_pipes",
            puzzle_type=ZenjiBoard,
            extensions=(".txt", ".json", ".md"),  # .md: seed 001's README with its table
            expects="zenji.rows_tiles_each_its_sides",
            algorithms=("dijkstra", "astar", "idastar", "iddfs", "bfs", "dfs", "greedy", "bidirectional"),
            heuristics=HEURISTICS,
            own_options=(
                Option(
                    "flow",
                    "choice",
                    "zenji.water_flows",
                    "zenji.downhill_only_east_and_south",
                    optional=True,
                    stage="both",
                    choices=tuple((f, FLOW_LABELS[f]) for f in FLOWS),
                ),
            ),
            path_noun="tiles",
            lab=ZenjiLab(self),
            checker=ZenjiChecker(self),
            maker=ZenjiMaker(self),
            saver=ZenjiSaver(self),
            editor=ZenjiEditor(self),
            student=StudentForm("zenji.state_form"),
            # Downhill a record's cell is its state, but h (the relaxed bound) is the server's; under
            # free flow the tiles the water passed are not in the cell.
            named_trace=True,
        )

    # ---- files -----------------------------------------------------------------------------------
    def from_array(self, array: Any) -> tuple[float, bytes] | None:
        """Rows × columns × 4 numbers 0–4: each tile's four sides, written as the text format's tiles."""
        if array.ndim != 3 or array.shape[2] != 4 or array.min() < 0 or array.max() > 4:
            return None
        rows = [" ".join("".join(str(v) for v in tile) for tile in row) for row in array.tolist()]
        return 0.9, ("\n".join(rows) + "\n").encode()

    def sniff(self, filename: str, data: bytes) -> float:
        text = self.sample_text(data, SNIFF_BYTES)
        if text is None:
            return 0.0
        head = text.lstrip()
        if head.startswith("{"):
            return 0.97 if _PIPES_KEY.search(head) else 0.0  # the key, not a value such as a name
        whole = text
        if len(data) > SNIFF_BYTES and any(mark in text for mark in "0123456789|"):  # as ``may_claim``
            whole = self.sample_text(data, MAX_FILE_BYTES) or text  # a README's table may lie further
        if has_table(whole):  # seed 001's README
            return sniff_table(whole)
        lines = [line for line in (raw.strip() for raw in text.splitlines()) if not is_skipped(line)]
        if len(data) > SNIFF_BYTES:
            lines = lines[:-1]  # the sample may cut the last line
        if not lines:
            return 0.0
        if all(_is_tile_row(line) for line in lines):
            return 0.97 if "3" in text and "4" in text else 0.6
        return 0.0

    def load(self, data: bytes, filename: str, options: Values, limits: LoadLimits) -> ZenjiBoard:
        text, is_json = self.file_text(data, MAX_FILE_BYTES, t("zenji.zenji_board"))
        board = (parse_zenji_json if is_json else parse_zenji_text)(text, stem(filename))
        if board.rows * board.cols > limits.max_cells:
            raise PuzzleError(
                t("zenji.tiles_more_than", value=board.rows * board.cols, max_cells=limits.max_cells),
                t("zenji.file"),
            )
        if options.get("flow"):
            board = replace(board, flow=options["flow"])
        return board

    # ---- the page --------------------------------------------------------------------------------
    # ---- a state in words: "(2, 3) turned 1" (the tile the water reached, its quarter turns); under
    # free flow also "· 4 tiles passed" (the source included), as the page's ZenjiView.stateLabel ----
    def state_text(self, problem: Problem, state: Any) -> str:
        text = self.json_text(problem.state_to_json(state))
        if isinstance(problem, ZenjiProblem) and problem.free:
            passed = problem.unpack(state)[2].bit_count()
            text += t("zenji.state.passed", count=passed)
        return text

    def json_text(self, value: Any) -> str:
        if isinstance(value, list | tuple) and len(value) >= 3 and all(isinstance(v, int) for v in value[:3]):
            return t("zenji.state.text", row=value[0], col=value[1], turns=value[2])
        return super().json_text(value)

    def info(self, board: ZenjiBoard) -> dict[str, Any]:
        return {
            "name": board.name,
            "rows": board.rows,
            "cols": board.cols,
            "width": board.cols,
            "height": board.rows,
            "tiles": board.tile_rows(),
            "source": list(board.source),
            "drain": list(board.drain),
            "flow": board.flow,
            "cost_scale": board.rows * board.cols + 1,
            "heuristics": list(HEURISTICS),
            "notes": [t("zenji.read_as", source_format=board.source_format)],
            "options": {"flow": {"default": board.flow}},
        }

    def size(self, board: ZenjiBoard) -> tuple[int, int]:
        return board.cols, board.rows

    def trace_estimate(self, board: ZenjiBoard) -> int:
        # Free flow: states hold sets of tiles, so a run may record up to the stored-state limit.
        return 16 * 1024 * 1024 if board.flow == "free" else super().trace_estimate(board)

    # ---- solving ---------------------------------------------------------------------------------
    def state_bound(self, board: ZenjiBoard, options: Values) -> int | None:
        """Downhill: a tile and its turn; free flow also holds the tiles used (no bound but the limits)."""
        return board.rows * board.cols * 4 if (options.get("flow") or board.flow) == "downhill" else None

    def problem(self, board: ZenjiBoard, options: Values) -> Problem:
        return ZenjiProblem(board, options.get("flow") or board.flow)

    def run_problem(self, board: ZenjiBoard, options: Values) -> Problem:
        """``problem`` with the heuristic "yours": the formula is in quarter turns, so it is scaled to
        the search's packed costs (``server/puzzles/zenji/lab.py``)."""
        problem = self.problem(board, options)
        assert isinstance(problem, ZenjiProblem)
        formula = self.formula(options)
        return with_formula(problem, None if formula is None else TurnsFormula(formula, problem.scale))  # type: ignore[arg-type]

    def algorithm(self, name: str, options: Values) -> Algorithm:
        if name == "bidirectional" and options.get("flow") == "free":
            raise PuzzleError(
                t("zenji.bidirectional_search_needs_goal_states"),
                t("zenji.option_algorithm"),
            )
        return get_algorithm(name)

    def solve(self, board, algorithm, options, control):
        if algorithm == "bidirectional" and not options.get("flow") and board.flow == "free":
            options = {**options, "flow": "free"}  # so that ``algorithm`` sees the board's own flow
        return super().solve(board, algorithm, options, control)

    def result_json(
        self, board: ZenjiBoard, problem: Problem, result: SearchResult, options: Values
    ) -> dict[str, Any]:
        assert isinstance(problem, ZenjiProblem)
        out = super().result_json(board, problem, result, options)
        out["flow"] = problem.flow
        if not out["path"]:
            return out
        out.update(water_in_words(board, out["path"]))  # also a checked solution's legal part (no goal)
        if not result.found:
            return out
        turns, _entered = problem.split_cost(result.cost or 0)
        out["cost"], out["tiles"] = turns, len(out["path"])
        return out

    def summary_lines(self, filename: str, result: dict[str, Any]) -> list[str]:
        if not result["found"]:
            return super().summary_lines(filename, result)
        lines = [
            t(
                "zenji.made_water_flow_with_quarter",
                filename=filename,
                algorithm=result["algorithm"],
                cost=result["cost"],
                describe_verdict=describe_verdict(result),
                tiles=result["tiles"],
                flow=result["flow"],
                expanded=result["expanded"],
                generated=result["generated"],
                seconds=f"{result['seconds']:.3f}",
            )
        ]
        lines += [f"  {number}. {move['text']}" for number, move in enumerate(result["moves"], start=1)]
        return [*lines, "  water: " + " → ".join(f"({r}, {c})" for r, c in result["path"])]


def _is_tile_row(line: str) -> bool:
    """Four-digit groups of side codes 0-4 (or the seed's bracketed [3,2,2,3] groups)."""
    if "[" in line:
        groups = [
            g.replace(",", "").replace(" ", "") for g in line.replace("]", "[").split("[") if g.strip(" ,")
        ]
    else:
        groups = line.split()
    return bool(groups) and all(len(g) == 4 and all(ch in "01234" for ch in g) for g in groups)


FAMILY = ZenjiFamily()
