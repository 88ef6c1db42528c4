"""A compiled search's path stays the kernel's int64 array from ``solve_grid`` to the JSON writer: no
Python list of its cells on the way (6.6 M of them on the 15k maze), and the same text as the lists'."""

from __future__ import annotations

import json

import numpy as np

from server import json_arrays
from server.puzzles.grid.generate import generate_perfect
from server.puzzles.grid.kernel_search import solve_grid
from server.puzzles.grid.model import GridMaze
from server.solving import solve


def test_the_kernels_path_is_an_array() -> None:
    maze = generate_perfect(30, 40, seed=2)
    result, _ = solve_grid(maze, "bfs", record_trace=False)
    assert isinstance(result.path, np.ndarray) and result.path.dtype == np.int64
    assert result.path[0] in maze.starts and result.path[-1] in maze.goals
    cells = np.ones((3, 3), np.uint8)
    cells[:, 1] = 0  # a wall between the start and the goal
    found, _ = solve_grid(GridMaze(cells, [0], [2]), "bfs", record_trace=False)
    assert not found.found and isinstance(found.path, np.ndarray) and found.path.size == 0


def test_the_path_reaches_the_writer_without_a_copy() -> None:
    maze = generate_perfect(40, 60, seed=3)
    solved = solve(maze, "astar", {}, engine="compiled", compact=True)
    pairs = solved.json["path"]
    assert isinstance(pairs, json_arrays.CellPairs)
    assert np.shares_memory(pairs.cells, solved.result.path)  # the kernel's own array
    plain = solve(maze, "astar", {}, engine="compiled").json
    assert isinstance(plain["path"], list) and plain["path"] == pairs.tolist()
    plain["seconds"] = solved.json["seconds"]
    assert json_arrays.encode(solved.json) == json.dumps(plain, separators=(",", ":")).encode()
