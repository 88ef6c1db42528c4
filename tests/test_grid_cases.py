"""Every algorithm on every real maze image: optimal ones agree with BFS, the others walk a valid path."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from server.puzzles.family import LoadLimits
from server.puzzles.grid.model import GridMaze
from server.puzzles.registry import get_family, load_puzzle
from server.solving import solve

CASES = [
    "lee/maze.png", "lee/maze2.png", "lee/maze3.png", "lee/maze3-old.png",
    "mikepound/tiny.png", "mikepound/small.png", "mikepound/normal.png", "mikepound/braid200.png",
    "mikepound/logo.png", "mikepound/combo400.png", "mikepound/braid2k.png", "mikepound/perfect2k.png",
    "mikepound/perfect4k.png", "mikepound/combo6k.png",
]


def walk(maze: GridMaze, path: list[list[int]], diagonal: bool) -> float:
    """Check the path cell by cell and return its cost (entering weights, sqrt 2 diagonally)."""
    assert path, "empty path"
    assert maze.index(*path[0]) in set(maze.starts.tolist())
    assert maze.index(*path[-1]) in set(maze.goals.tolist())
    cost = 0.0
    for (r0, c0), (r1, c1) in itertools.pairwise(path):
        dr, dc = abs(r1 - r0), abs(c1 - c0)
        assert maze.is_free(r1, c1), f"({r1}, {c1}) is a wall"
        assert (dr, dc) in ((0, 1), (1, 0)) or (diagonal and (dr, dc) == (1, 1)), f"jump {r0, c0} -> {r1, c1}"
        if dr and dc:  # never cut a corner
            assert maze.is_free(r0, c1) and maze.is_free(r1, c0), f"corner cut at {r0, c0} -> {r1, c1}"
        weight = float(maze.cells[r1, c1])
        cost += weight * math.sqrt(2) if dr and dc else weight
    return cost


@pytest.mark.parametrize("case", CASES)
def test_all_algorithms_on_a_real_maze(shared_cases: Path, case: str) -> None:
    data = (shared_cases / "images" / case).read_bytes()
    maze = load_puzzle(data, case, limits=LoadLimits(max_pixels=100_000_000))
    costs = {}
    # The kernels' algorithms (JPS on these mazes: tests/test_grid_jps.py; wall followers may loop).
    for name in get_family("grid").fast_algorithms or ():
        result = solve(maze, name, {}).json
        assert result["found"], name
        assert walk(maze, result["path"], False) == pytest.approx(result["cost"]), name
        costs[name] = result["cost"]
        if result["optimal_guaranteed"]:
            assert result["cost"] == costs["bfs"], name
    if case == "lee/maze3.png":
        assert costs["bfs"] == 52


def test_weighted_and_diagonal_optimal_algorithms_agree() -> None:
    rng = np.random.default_rng(5)
    for _ in range(20):
        cells = rng.integers(1, 10, size=(30, 40)).astype(np.uint8)
        cells[rng.random((30, 40)) < 0.25] = 0
        cells[0, 0] = cells[-1, -1] = 1
        maze = GridMaze(cells, [0], [cells.size - 1])
        for diagonal in (False, True):
            costs = set()
            for name in ("dijkstra", "astar", "bidirectional"):
                result = solve(maze, name, {"diagonal": diagonal}).json
                if result["found"]:
                    assert walk(maze, result["path"], diagonal) == pytest.approx(result["cost"], abs=1e-6)
                costs.add(result["cost"] if result["cost"] is None else round(result["cost"], 6))
            assert len(costs) == 1
