"""Maze generators, the image/text writers, the solution renderer and the bundled gallery."""

from __future__ import annotations

import heapq
import io
import json
import time
from collections import deque
from pathlib import Path

import numpy as np
import pytest

from server.puzzles.errors import PuzzleError
from server.puzzles.grid.generate import generate_braid, generate_perfect, maze_to_image, maze_to_text
from server.puzzles.grid.image import parse_grid_image
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.render import GOAL_RGB, PATH_RGB, START_RGB, render_solution
from server.puzzles.grid.text import parse_grid_text

MAZES = Path(__file__).resolve().parents[1] / "mazes"
SIZES = [(1, 1), (1, 7), (6, 1), (2, 2), (10, 17), (40, 40)]


def adjacencies(free: np.ndarray) -> int:
    """Pairs of 4-neighbouring free pixels."""
    return int(np.count_nonzero(free[:, 1:] & free[:, :-1]) + np.count_nonzero(free[1:] & free[:-1]))


def reachable(maze: GridMaze) -> int:
    """Free pixels reachable from the start."""
    free = maze.cells != 0
    seen = np.zeros_like(free)
    queue = deque(maze.rc(i) for i in maze.starts)
    for r, c in queue:
        seen[r, c] = True
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if 0 <= nr < maze.height and 0 <= nc < maze.width and free[nr, nc] and not seen[nr, nc]:
                seen[nr, nc] = True
                queue.append((nr, nc))
    return int(seen.sum())


def free_neighbours(free: np.ndarray) -> np.ndarray:
    padded = np.pad(free, 1).astype(np.int8)
    return padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]


def cheapest(maze: GridMaze, fewest_steps_first: bool) -> tuple[int, int]:
    """(steps, cost) of the cheapest path; with ``fewest_steps_first`` among the shortest in steps."""
    width = maze.width
    cells = maze.cells.ravel()
    goals = set(maze.goals.tolist())
    best: dict[int, tuple[int, int]] = {}
    heap = [((0, 0), int(s)) for s in maze.starts]
    while heap:
        key, cell = heapq.heappop(heap)
        if cell in best:
            continue
        best[cell] = key
        if cell in goals:
            return key if fewest_steps_first else (key[1], key[0])
        r, c = divmod(cell, width)
        for nr, nc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            nxt = nr * width + nc
            if 0 <= nr < maze.height and 0 <= nc < width and cells[nxt] and nxt not in best:
                a, b = key
                step = (a + 1, b + int(cells[nxt])) if fewest_steps_first else (a + int(cells[nxt]), b + 1)
                heapq.heappush(heap, (step, nxt))
    raise AssertionError("no path")


# --- generators -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_perfect_maze_is_a_spanning_tree(rows: int, cols: int) -> None:
    maze = generate_perfect(rows, cols, seed=7)
    assert (maze.height, maze.width) == (2 * rows + 1, 2 * cols + 1)
    free = maze.cells != 0
    # rows*cols cells, the walls knocked down between them, and the two openings.
    assert int(free.sum()) == 2 * rows * cols - 1 + 2
    assert adjacencies(free) == int(free.sum()) - 1  # a tree has one edge fewer than nodes ...
    assert reachable(maze) == int(free.sum())  # ... and is connected
    assert [maze.rc(i) for i in maze.starts] == [(0, 1)]
    assert [maze.rc(i) for i in maze.goals] == [(2 * rows, 2 * cols - 1)]
    assert not free[1::2, 1::2].size or free[1::2, 1::2].all()  # every cell is free


def test_perfect_maze_2000_cells_square_in_seconds() -> None:
    generate_perfect(3, 3, seed=0)  # the kernel compiled (or loaded from numba's cache)
    began = time.perf_counter()
    maze = generate_perfect(2000, 2000, seed=11)
    elapsed = time.perf_counter() - began
    assert (maze.height, maze.width) == (4001, 4001)
    free = maze.cells != 0
    assert adjacencies(free) == int(free.sum()) - 1
    assert elapsed < 10.0, f"{elapsed:.1f} s"


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (10, 17), (40, 40)])
def test_braid_maze_has_no_dead_ends(rows: int, cols: int) -> None:
    maze = generate_braid(rows, cols, seed=3)
    free = maze.cells != 0
    degree = free_neighbours(free)
    inner = free.copy()
    inner[0, :] = inner[-1, :] = False  # the two openings have one neighbour by nature
    assert (degree[inner] >= 2).all()
    assert reachable(maze) == int(free.sum())
    assert adjacencies(free) > int(free.sum()) - 1  # loops


def test_partial_braid_and_braid_zero() -> None:
    perfect = generate_perfect(30, 30, seed=5)
    assert np.array_equal(generate_braid(30, 30, seed=5, braid=0.0).cells, perfect.cells)
    dead_ends = [
        int(((free_neighbours(m.cells != 0) == 1) & (m.cells != 0)).sum())
        for m in (perfect, generate_braid(30, 30, seed=5, braid=0.5), generate_braid(30, 30, seed=5))
    ]
    assert dead_ends[0] > dead_ends[1] > dead_ends[2] == 2  # only the openings remain
    with pytest.raises(PuzzleError):
        generate_braid(5, 5, seed=1, braid=1.5)


def test_generators_are_deterministic_by_seed() -> None:
    assert np.array_equal(generate_perfect(25, 30, 1).cells, generate_perfect(25, 30, 1).cells)
    assert not np.array_equal(generate_perfect(25, 30, 1).cells, generate_perfect(25, 30, 2).cells)
    assert np.array_equal(generate_braid(25, 30, 1).cells, generate_braid(25, 30, 1).cells)
    assert not np.array_equal(generate_braid(25, 30, 1).cells, generate_braid(25, 30, 2).cells)


def test_bad_sizes() -> None:
    for rows, cols in ((0, 5), (5, -1)):
        with pytest.raises(PuzzleError):
            generate_perfect(rows, cols, 0)


# --- writers --------------------------------------------------------------------------------------


def test_image_round_trip() -> None:
    maze = generate_braid(15, 20, seed=9)
    image = maze_to_image(maze)
    assert image.mode == "P" and image.size == (maze.width, maze.height)
    assert image.getpalette()[:6] == [0, 0, 0, 255, 255, 255]
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    back = parse_grid_image(buffer.getvalue())
    assert np.array_equal(back.cells, maze.cells)
    assert np.array_equal(back.starts, maze.starts) and np.array_equal(back.goals, maze.goals)


def test_text_round_trip() -> None:
    maze = generate_perfect(4, 6, seed=2)
    weighted = maze.cells.copy()
    weighted[1, 1:6] = [1, 2, 3, 9, 1]
    maze = GridMaze(weighted, maze.starts, maze.goals)
    text = maze_to_text(maze)
    assert text.splitlines()[0] == "#S###########"
    assert text.splitlines()[1].startswith("#.239.")
    back = parse_grid_text(text)
    assert np.array_equal(back.cells, maze.cells)
    assert np.array_equal(back.starts, maze.starts) and np.array_equal(back.goals, maze.goals)


# --- renderer -------------------------------------------------------------------------------------


def test_render_solution_colours_and_scale() -> None:
    maze = parse_grid_text("#S###\n#.29#\n#..G#\n#####")
    path = [maze.index(*rc) for rc in ((0, 1), (1, 1), (2, 1), (2, 2), (2, 3))]
    image = render_solution(maze, path)
    assert image.mode == "RGB" and image.size == (5 * 8, 4 * 8)
    pixels = np.asarray(image)

    def at(r: int, c: int) -> tuple[int, ...]:
        return tuple(int(v) for v in pixels[r * 8 + 4, c * 8 + 4])

    assert at(0, 1) == START_RGB and at(2, 3) == GOAL_RGB and at(2, 1) == PATH_RGB
    assert at(0, 0)[0] < 64  # wall: dark
    light, heavy = at(1, 2), at(1, 3)  # weights 2 and 9: lighter than walls, darker than free
    assert 255 > light[0] > heavy[0] >= 128
    assert render_solution(maze, path, scale=1).size == (5, 4)


def test_render_huge_mazes_at_one_pixel_per_cell() -> None:
    maze = GridMaze(np.ones((5, 4001), dtype=np.uint8), [0], [4000])
    assert render_solution(maze, []).size == (4001, 5)
    with pytest.raises(ValueError):
        render_solution(maze, [10**9])


# --- the bundled gallery --------------------------------------------------------------------------


def test_make_mazes_reproduces_the_gallery_byte_for_byte() -> None:
    from scripts.make_mazes import main

    assert main(["--check"]) == 0, "mazes/ differs from what scripts/make_mazes.py writes"


def test_gallery_files_parse() -> None:
    entries = json.loads((MAZES / "gallery.json").read_text())
    assert {e["name"] for e in entries} >= {
        "seed-lee-example",
        "weighted-swamp",
        "perfect-small",
        "braid-small",
        "perfect-large",
        "braid-large",
        "rooms",
    }
    for entry in entries:
        assert entry["title"] and entry["description"]
        if entry["family"] != "grid":
            continue  # tests/test_labyrinth_wiring.py opens the labyrinth boards
        data = (MAZES / entry["file"]).read_bytes()
        maze = parse_grid_image(data) if entry["file"].endswith(".png") else parse_grid_text(data.decode())
        assert len(maze.starts) and len(maze.goals), entry["name"]
        if maze.cells.size < 100_000:  # the large ones come from the tested generators
            assert reachable(maze) == int((maze.cells != 0).sum()), entry["name"]  # no sealed-off pockets


def test_weighted_swamp_separates_bfs_from_dijkstra() -> None:
    maze = parse_grid_text((MAZES / "weighted-swamp.txt").read_text())
    bfs_steps, bfs_cost = cheapest(maze, fewest_steps_first=True)
    dijkstra_steps, dijkstra_cost = cheapest(maze, fewest_steps_first=False)
    assert bfs_steps < dijkstra_steps and dijkstra_cost < bfs_cost
