"""The heuristic lab's memory is known before it runs and bounded (issue 28, point 3).

A student's formula judged on a large open board used to take 200 bytes a cell and more (a float64
array per feature, per formula node, per mask, per move direction: 4.3 GB for ``dr + dc`` on 21 M cells).
Now the formula runs a chunk of states at a time (``Formula.chunk``), the grid's features are made per
chunk from the cell numbers, the masks, counts, heat map and inconsistent moves are built chunk by
chunk, and the grid's kernels preallocate what they touch. So ``GridLab.space_bytes`` (what the server
reserves before judging) can be honest: here it must hold the measured peak, and not be far above it.

The peak is measured in a process of its own (numba's kernels allocate outside ``tracemalloc``): the
growth of the resident high-water mark (``VmHWM``, reset through ``/proc/self/clear_refs`` after a
warm-up on a small board and ``malloc_trim``) while ``judge_formula`` runs as the server calls it.
"""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from server import formula as formula_module
from server import heuristic_lab
from server.formula import FEATURE_ARRAYS, MAX_CHARS, MAX_DEPTH, SHARED_ARRAYS, compile_formula
from server.heuristic_lab import judge
from server.puzzles.grid import lab_kernels as grid_lab
from server.puzzles.grid.family import FAMILY as GRID
from server.puzzles.grid.lab_kernels import GridSpace
from server.puzzles.grid.model import GridMaze
from tests.memory_probe import reset_peak as _reset_peak
from tests.memory_probe import status as _status

ROOT = Path(__file__).resolve().parent.parent
MB = 1024 * 1024
SIDES = (1000, 2000, 3000)  # open boards of 1 M, 4 M and 9 M cells
NAMES = GRID.lab.feature_names


def nested_formula() -> str:
    """A formula at the language's limits: 498 characters, 185 parts, nested 30 deep, 24 arrays alive
    at once (compare chains, folds, products of the level below)."""
    text = "max(dr,dc,row,col,goal_row)"
    for k in range(16):
        if k % 2:
            text = f"max(dr-{k % 10},({text})*{k % 5 + 1},dc)"
        else:
            text = f"(row<col<=dc<dr)+(goal_row-abs(dr-dc))+({text})"
    return f"floor({text})"


FORMULAS = {"manhattan": "dr + dc", "nested": nested_formula()}


def _depth(node: ast.AST, depth: int = 1) -> int:
    kids = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
    return max([depth, *(_depth(c, depth + 1) for c in kids)])


def test_the_nested_formula_is_at_the_languages_limits() -> None:
    text = FORMULAS["nested"]
    tree = ast.parse(text, mode="eval")
    assert MAX_CHARS - 10 <= len(text) <= MAX_CHARS
    assert sum(isinstance(n, ast.expr) for n in ast.walk(tree)) >= 180
    assert _depth(tree.body) == MAX_DEPTH
    assert compile_formula(text, NAMES).live >= 20


# ---- in this process: the bounds the estimate is made of ----------------------------------------------
def _open_space(side: int) -> GridSpace:
    return GridSpace(GridMaze(np.ones((side, side), np.uint8), [0], [side * side - 1]), False)


@pytest.mark.parametrize("text", [
    "dr + dc", "1.5", "not dr", "dr if dc else row", "dr and dc or row and col",
    "max(dr, dc, row, col, goal_row, goal_col)", "0 <= dr < dc <= 5 if dr and dc else (row or col)",
    " < ".join(f"({n} + {k})" for k in range(6) for n in NAMES), FORMULAS["nested"],
])
def test_a_chunk_of_the_formula_stays_within_its_bound(text: str) -> None:
    """What ``evaluate_chunks`` holds besides its output (numpy's arrays, which tracemalloc sees) is at
    most ``chunk`` states of ``live`` arrays, the features and their making: ``WORK_BYTES``."""
    space = _open_space(1030)  # more states than the largest chunk
    formula = compile_formula(text, NAMES)
    formula.evaluate_chunks(2000, space.feature_chunk)  # warm
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        out = formula.evaluate_chunks(space.count, space.feature_chunk)
        held = tracemalloc.get_traced_memory()[1] - before - out.nbytes
    finally:
        tracemalloc.stop()
    arrays = formula.live + FEATURE_ARRAYS * len(formula.names_used) + SHARED_ARRAYS
    assert held <= formula.chunk * 8 * arrays <= formula_module.WORK_BYTES
    assert formula.chunk < space.count  # several chunks were made


def test_judging_chunk_by_chunk_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdict (counts, worst cases, the first state not a number, the heat map, the moves shown)
    is the same whatever the chunks: tiny ones cut through every boundary."""
    rng = np.random.default_rng(28)
    cells = (rng.random((60, 70)) > 0.3).astype(np.uint8) * rng.integers(1, 4, (60, 70)).astype(np.uint8)
    cells[0, 0] = cells[-1, -1] = 1
    maze = GridMaze(cells, [0], [cells.size - 1, cells.size - 70])
    texts = ["3 * (dr + dc)", "sqrt(dr - 5) + dc", "(dr + dc) if (row + col) % 2 else 0", "-row"]

    def verdicts() -> list[dict[str, Any]]:
        out = []
        for diagonal in (False, True):
            for text in texts:
                verdict = judge(GridSpace(maze, diagonal), compile_formula(text, NAMES), cells.size)
                out.append({k: v for k, v in verdict.to_json().items() if k != "seconds"})
        return out

    whole = verdicts()
    assert any(v["not_a_number"] for v in whole) and any(v["inconsistent_moves"] > 500 for v in whole)
    monkeypatch.setattr(heuristic_lab, "CHUNK", 97)
    monkeypatch.setattr(grid_lab, "CHUNK", 97)
    monkeypatch.setattr(formula_module, "WORK_BYTES", 1)  # the smallest chunk: 1,024 states
    assert verdicts() == whole


def test_the_grid_estimate_comes_from_the_board() -> None:
    open_board = GridMaze(np.ones((1000, 1000), np.uint8), [0], [999_999])
    walled = GridMaze(np.zeros((1000, 1000), np.uint8), [0], [0])
    space_bytes = GRID.lab.space_bytes
    assert space_bytes(open_board, 1) == space_bytes(open_board, 10**9)  # every cell, whatever
    assert space_bytes(walled, 10**6) < space_bytes(open_board, 10**6) < 40 * 10**6 + 64 * MB


# ---- in a process of its own: the peak of a real judgement against the estimate ----------------------


def open_board_png(side: int) -> bytes:
    """A white side x side PNG: every pixel free, a green start top left, a yellow goal bottom right."""
    from PIL import Image

    pixels = np.full((side, side, 3), 255, np.uint8)
    pixels[0, 0] = (0, 200, 0)
    pixels[-1, -1] = (230, 230, 0)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, "PNG")
    return out.getvalue()


def measure(sides: list[int]) -> None:
    """In the child: judge each formula on each open board as the server does; a JSON line each."""
    from server.config import Config
    from server.judging import judge_formula, rule_options
    from server.puzzles.family import LoadLimits
    from server.puzzles.registry import load_puzzle

    config = Config()
    limits = LoadLimits(max_pixels=10**9, max_cells=10**9)
    rules = rule_options(GRID, {})

    def run(puzzle: Any, text: str) -> Any:
        return judge_formula(puzzle, text, rules, max_states=config.lab_max_states,
                             max_seconds=config.lab_max_seconds, heat_cells=config.lab_heat_cells)

    small = load_puzzle(open_board_png(40), "small.png", limits=limits)
    for text in FORMULAS.values():
        run(small, text)  # compiles the kernels, imports what the judgement needs
    for side in sides:
        puzzle = load_puzzle(open_board_png(side), "open.png", limits=limits)
        for name, text in FORMULAS.items():
            base = _reset_peak()
            verdict = run(puzzle, text)
            peak = _status("VmHWM") - base
            print(json.dumps({"side": side, "formula": name, "peak": peak, "states": verdict.states,
                              "heat": verdict.heat is not None,
                              "estimate": GRID.lab.space_bytes(puzzle, config.lab_max_states)}), flush=True)
            del verdict
        del puzzle


@pytest.fixture(scope="module")
def measured() -> dict[tuple[int, str], dict[str, Any]]:
    try:
        _reset_peak()
    except OSError:
        pytest.skip("no /proc/self/clear_refs here: the peak cannot be measured")
    child = subprocess.run(
        [sys.executable, "-c", f"from tests.test_lab_memory import measure; measure({list(SIDES)})"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    assert child.returncode == 0, child.stderr[-3000:]
    rows = [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
    return {(row["side"], row["formula"]): row for row in rows}


@pytest.mark.slow
@pytest.mark.parametrize("formula", sorted(FORMULAS))
@pytest.mark.parametrize("side", SIDES)
def test_the_estimate_holds_the_peak_of_a_judgement(measured: dict[tuple[int, str], dict[str, Any]],
                                                    side: int, formula: str) -> None:
    row = measured[side, formula]
    peak, estimate = row["peak"], row["estimate"]
    assert row["states"] == side * side  # every cell judged
    assert row["heat"] == (side * side <= 4_000_000)
    said = f"{side}² cells, {formula}: peak {peak / MB:.0f} MB, estimate {estimate / MB:.0f} MB"
    assert peak <= estimate, said
    assert estimate <= 4 * peak + 64 * MB, said
    assert peak <= side * side * 40 + 64 * MB, said  # a cell took ~200 bytes for dr + dc, more when nested
