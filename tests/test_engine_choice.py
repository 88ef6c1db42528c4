"""Which engine runs: "auto" leaves a small board to the generic engine (no kernel to load), "compiled"
forces the kernels, "generic" the pure-Python algorithms; both give the result the tests pin."""

from __future__ import annotations

import numpy as np
import pytest

from server.puzzles.grid import family as grid_family
from server.puzzles.grid.model import GridMaze
from server.puzzles.registry import get_family, load_puzzle
from server.solving import solve

GRID = get_family("grid")
SLIDING = get_family("sliding")
AIMA = b"7 2 4\n5 0 6\n8 3 1\ngoal: 0 1 2 3 4 5 6 7 8\n"
FIFTEEN = b"1 2 3 4\n5 6 7 8\n9 10 11 12\n13 0 14 15\n"  # two moves from the goal


def board(cells: int) -> GridMaze:
    return GridMaze(np.ones((1, cells), np.uint8), [0], [cells - 1])


def test_the_grid_runs_compiled_from_its_threshold_on(monkeypatch) -> None:
    monkeypatch.setattr(grid_family, "kernels_loaded", lambda: False)  # a fresh process
    small, big = board(grid_family.COMPILED_MIN_CELLS - 1), board(grid_family.COMPILED_MIN_CELLS)
    options = GRID.run_options({})
    assert not GRID.runs_compiled(small, "bfs", options) and GRID.runs_compiled(big, "bfs", options)
    assert GRID.runs_compiled(small, "bfs", options, "compiled")
    assert not GRID.runs_compiled(big, "bfs", options, "generic")
    assert not GRID.runs_compiled(big, "jps", options, "compiled")  # no kernel for it
    monkeypatch.setattr(grid_family, "kernels_loaded", lambda: True)  # a server's later runs
    assert GRID.runs_compiled(small, "bfs", options)
    # The memory estimate follows the engine: the kernels' bytes a cell, or the generic engine's states.
    monkeypatch.setattr(grid_family, "kernels_loaded", lambda: False)
    assert GRID.search_bytes(small, "bfs", options, None) > 100 * small.cells.size
    assert GRID.search_bytes(big, "bfs", options, None) < 10 * big.cells.size


@pytest.mark.parametrize("algorithm", ["bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional"])
def test_a_board_under_the_threshold_gets_the_kernels_result(algorithm: str) -> None:
    rng = np.random.default_rng(7)
    cells = (rng.random((120, 120)) > 0.3).astype(np.uint8) * rng.integers(1, 4, (120, 120), dtype=np.uint8)
    cells[0, 0] = cells[-1, -1] = 1
    maze = GridMaze(cells, [0], [cells.size - 1])
    assert maze.cells.size < grid_family.COMPILED_MIN_CELLS
    runs = {engine: solve(maze, algorithm, {"diagonal": True}, record_trace=True, engine=engine)
            for engine in ("generic", "compiled")}
    for solved in runs.values():
        solved.json.pop("seconds")
    assert runs["generic"].json == runs["compiled"].json
    generic, compiled = runs["generic"].trace, runs["compiled"].trace
    np.testing.assert_array_equal(generic.kinds, compiled.kinds)
    np.testing.assert_array_equal(generic.cells, compiled.cells)


def test_the_8_puzzle_runs_generic_with_a_strong_heuristic() -> None:
    aima = load_puzzle(AIMA, "aima.txt")
    assert solve(aima, "idastar", {}).json["engine"] == "generic"
    assert solve(aima, "astar", {"heuristic": "linear_conflict"}).json["engine"] == "generic"
    assert solve(aima, "idastar", {}, engine="compiled").json["engine"] == "compiled"
    weak = solve(aima, "idastar", {"heuristic": "misplaced"}).json  # millions of nodes: compiled
    assert weak["engine"] == "compiled"
    fifteen = load_puzzle(FIFTEEN, "f.txt")
    result = solve(fifteen, "idastar", {"heuristic": "manhattan"}).json
    assert result["engine"] == "compiled" and result["cost"] == 2
