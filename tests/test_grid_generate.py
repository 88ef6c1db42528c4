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
from server.puzzles.grid.generate import (
    GRID_KINDS,
    MAX_CELLS,
    Generation,
    generate_braid,
    generate_grid,
    generate_perfect,
    maze_to_image,
    maze_to_text,
)
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
    return int(reached(maze).sum())


def reached(maze: GridMaze) -> np.ndarray:
    """Which pixels are reachable from the start (breadth-first over free pixels)."""
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
    return seen


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


# --- generate_grid: every kind -----------------------------------------------------------------

TREE_KINDS = ("perfect", "prim", "kruskal", "division")
LATTICE_KINDS = (*TREE_KINDS, "braid", "rooms")
BOARD_KINDS = ("random", "terrain")
TREE_SIZES = [(1, 1), (1, 7), (6, 1), (7, 9), (15, 15)]


def replay(generation: Generation) -> np.ndarray:
    """The board the steps make from the initial fill."""
    board = np.full(generation.maze.cells.shape, generation.initial_fill, dtype=np.uint8)
    flat = board.reshape(-1)
    for index, value in generation.steps.tolist():
        flat[index] = value
    return board


def png_bytes(maze: GridMaze) -> bytes:
    buffer = io.BytesIO()
    maze_to_image(maze).save(buffer, format="PNG")
    return buffer.getvalue()


def test_grid_kinds_are_the_offered_ones() -> None:
    assert GRID_KINDS == ("perfect", "prim", "kruskal", "division", "braid", "rooms", "random", "terrain")


@pytest.mark.parametrize("kind", TREE_KINDS)
@pytest.mark.parametrize(("rows", "cols"), TREE_SIZES)
def test_tree_kinds_make_perfect_mazes(kind: str, rows: int, cols: int) -> None:
    for seed in range(30):
        maze = generate_grid(kind, rows, cols, seed).maze
        assert (maze.height, maze.width) == (2 * rows + 1, 2 * cols + 1)
        free = maze.cells != 0
        assert free[1::2, 1::2].all(), (kind, seed)  # every cell is free
        assert not free[::2, ::2].any(), (kind, seed)  # corners between cells are always wall
        assert int(free.sum()) == 2 * rows * cols - 1 + 2, (kind, seed)  # n cells, n - 1 passages, 2 ends
        assert adjacencies(free) == int(free.sum()) - 1, (kind, seed)  # one path between any two cells
        assert reachable(maze) == int(free.sum()), (kind, seed)  # connected
        assert [maze.rc(i) for i in maze.starts] == [(0, 1)]
        assert [maze.rc(i) for i in maze.goals] == [(2 * rows, 2 * cols - 1)]


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_every_kind_solvable_deterministic_and_replayable(kind: str) -> None:
    rows, cols = 12, 17
    boards = []
    for seed in (0, 1, 2, 99):
        generation = generate_grid(kind, rows, cols, seed)
        maze = generation.maze
        shape = (rows, cols) if kind in BOARD_KINDS else (2 * rows + 1, 2 * cols + 1)
        assert maze.cells.shape == shape and maze.cells.dtype == np.uint8
        assert len(maze.starts) == 1 and len(maze.goals) == 1
        start, goal = int(maze.starts[0]), int(maze.goals[0])
        if kind in BOARD_KINDS:
            assert (maze.rc(start), maze.rc(goal)) == ((0, 0), (rows - 1, cols - 1))
        assert maze.cells.flat[start] != 0 and maze.cells.flat[goal] != 0
        assert reached(maze).flat[goal], (kind, seed)  # solvable
        # The steps: int32 pairs, replayed from the initial fill they give the board, no no-ops.
        steps = generation.steps
        assert steps.dtype == np.int32 and steps.ndim == 2 and steps.shape[1] == 2
        assert generation.initial_fill in (0, 1)
        assert np.array_equal(replay(generation), maze.cells), (kind, seed)
        assert len(steps) <= maze.cells.size + 2
        assert (steps[:, 1] != generation.initial_fill).all()  # nothing set to what it already was
        assert kind in generation.description and f"seed {seed}" in generation.description
        # Same arguments, same board.
        again = generate_grid(kind, rows, cols, seed)
        assert np.array_equal(again.maze.cells, maze.cells) and np.array_equal(again.steps, steps)
        boards.append(maze.cells)
        # The writers: text keeps everything, the image everything but weights.
        back = parse_grid_text(maze_to_text(maze))
        assert np.array_equal(back.cells, maze.cells)
        assert np.array_equal(back.starts, maze.starts) and np.array_equal(back.goals, maze.goals)
        if not maze.weighted:
            back = parse_grid_image(png_bytes(maze))
            assert np.array_equal(back.cells, maze.cells)
            assert np.array_equal(back.starts, maze.starts) and np.array_equal(back.goals, maze.goals)
    for i in range(len(boards)):
        for j in range(i):
            assert not np.array_equal(boards[i], boards[j]), (kind, i, j)  # other seeds, other boards


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_every_kind_on_thin_and_tiny_boards(kind: str) -> None:
    for rows, cols in ((1, 1), (1, 2), (2, 1), (1, 9), (8, 1), (2, 2)):
        generation = generate_grid(kind, rows, cols, 3)
        assert np.array_equal(replay(generation), generation.maze.cells), (kind, rows, cols)
        assert reached(generation.maze).flat[generation.maze.goals[0]], (kind, rows, cols)


def test_steps_follow_the_algorithms() -> None:
    # Carving kinds start from walls and set every free pixel once (openings last).
    for kind in ("perfect", "prim", "kruskal", "braid"):
        generation = generate_grid(kind, 9, 11, 4)
        free = int(np.count_nonzero(generation.maze.cells))
        assert generation.initial_fill == 0 and len(generation.steps) == free, kind
        assert len(np.unique(generation.steps[:, 0])) == free, kind
        assert generation.steps[-2:, 0].tolist() == [1, generation.maze.goals[0]], kind
    # Depth-first and Prim carve each new cell next to the carved part: cell, wall, cell, ...
    perfect = generate_grid("perfect", 9, 11, 4).steps
    width = 23
    for wall, cell in perfect[1:-2].reshape(-1, 2, 2)[:, :, 0].tolist():
        assert abs(wall - cell) in (1, width)
    # Kruskal shows its forest of single cells first, then knocks walls down.
    kruskal = generate_grid("kruskal", 9, 11, 4).steps
    rows_, cols_ = np.divmod(kruskal[:, 0], width)
    assert ((rows_[:99] % 2 == 1) & (cols_[:99] % 2 == 1)).all()
    assert ((rows_[99:-2] + cols_[99:-2]) % 2 == 1).all()
    # Division and rooms add walls to an open board, the border first; each wall pixel set once.
    for kind in ("division", "rooms"):
        generation = generate_grid(kind, 9, 11, 4)
        walls = int((generation.maze.cells == 0).sum())
        assert generation.initial_fill == 1 and len(generation.steps) == walls, kind
        assert (generation.steps[:, 1] == 0).all() and len(np.unique(generation.steps[:, 0])) == walls
        border = 2 * (19 + 23) - 4 - 2
        r, c = np.divmod(generation.steps[:border, 0], width)
        assert ((r == 0) | (r == 18) | (c == 0) | (c == 22)).all(), kind
    # Random adds walls; terrain raises the land, rock last.
    random = generate_grid("random", 20, 30, 4)
    assert random.initial_fill == 1 and (random.steps[:, 1] == 0).all()
    assert len(random.steps) == int((random.maze.cells == 0).sum())
    terrain = generate_grid("terrain", 20, 30, 4)
    assert terrain.initial_fill == 1 and len(terrain.steps) == int((terrain.maze.cells != 1).sum())
    values = terrain.steps[:, 1]
    assert (values[values != 0][:-1] <= values[values != 0][1:]).all() and (values[-1] == 0)


def test_record_false_gives_the_same_board_without_steps() -> None:
    for kind in GRID_KINDS:
        full = generate_grid(kind, 10, 13, 8)
        bare = generate_grid(kind, 10, 13, 8, record=False)
        assert np.array_equal(full.maze.cells, bare.maze.cells), kind
        assert bare.steps.shape == (0, 2) and bare.steps.dtype == np.int32, kind


def test_perfect_and_braid_kinds_are_the_classic_generators() -> None:
    assert np.array_equal(generate_grid("perfect", 20, 25, 6).maze.cells, generate_perfect(20, 25, 6).cells)
    assert np.array_equal(generate_grid("braid", 20, 25, 6).maze.cells, generate_braid(20, 25, 6).cells)


@pytest.mark.parametrize("seed", range(10))
def test_rooms_are_open_rooms_joined_by_doors_with_loops(seed: int) -> None:
    maze = generate_grid("rooms", 30, 40, seed).maze
    free = maze.cells != 0
    assert reachable(maze) == int(free.sum())  # every room reachable
    assert adjacencies(free) > int(free.sum()) + 100  # open floor and loops, far from a tree
    assert free[1::2, 1::2].all()  # no cell is walled up
    # Open rooms: many 3 x 3 pixel blocks entirely free (a corridor maze has none).
    blocks = free[:-2, :-2] & free[1:-1, :-2] & free[2:, :-2]
    blocks = blocks & free[:-2, 1:-1] & free[1:-1, 1:-1] & free[2:, 1:-1] & free[:-2, 2:] & free[1:-1, 2:]
    assert int((blocks & free[2:, 2:]).sum()) > free.size // 4


@pytest.mark.parametrize("seed", range(8))
def test_random_density_and_guaranteed_path(seed: int) -> None:
    maze = generate_grid("random", 60, 80, seed).maze
    assert abs(float((maze.cells == 0).mean()) - 0.3) < 0.03  # the default density
    assert maze.cells.max() == 1
    assert (generate_grid("random", 20, 20, seed, density=0.0).maze.cells == 1).all()
    for density in (0.45, 0.6):  # above the percolation threshold: the staircase path keeps it solvable
        dense = generate_grid("random", 40, 50, seed, density=density).maze
        assert reached(dense).flat[dense.goals[0]]
        assert float((dense.cells == 0).mean()) > density - 0.1


@pytest.mark.parametrize("seed", range(6))
def test_terrain_weights_and_rock(seed: int) -> None:
    generation = generate_grid("terrain", 50, 70, seed)
    cells = generation.maze.cells
    assert generation.maze.weighted
    counts = np.bincount(cells.ravel(), minlength=10)
    assert (counts[1:] > cells.size // 30).all()  # every cost 1..9 covers a real share of the ground
    assert 0 < counts[0] <= 0.1 * cells.size + 1  # the default: a tenth of the board is rock, at most
    assert cells.flat[generation.maze.starts[0]] == 1 and cells.flat[generation.maze.goals[0]] == 1
    # Smooth: neighbouring ground differs by little on average (white noise would differ by ~3).
    ground = cells.astype(int)
    both = (ground[:, 1:] != 0) & (ground[:, :-1] != 0)
    assert float(np.abs(ground[:, 1:] - ground[:, :-1])[both].mean()) < 1.2
    assert (generate_grid("terrain", 30, 30, seed, density=0.0).maze.cells != 0).all()
    rocky = generate_grid("terrain", 40, 40, seed, density=0.6).maze
    assert reached(rocky).flat[rocky.goals[0]]  # the rock line lowered to a pass if need be


def test_generate_grid_errors_name_the_problem() -> None:
    with pytest.raises(PuzzleError, match="is not a grid maze kind; choose one of: perfect, prim"):
        generate_grid("spiral", 5, 5)
    for density in (-0.1, 0.61, 1.0, float("nan"), "0.3", True):
        with pytest.raises(PuzzleError, match="option 'density'"):
            generate_grid("random", 5, 5, 1, density)  # type: ignore[arg-type]
    with pytest.raises(PuzzleError, match="option 'density'"):
        generate_grid("terrain", 5, 5, 1, 0.9)
    for kind in GRID_KINDS:
        with pytest.raises(PuzzleError, match="over the limit"):
            generate_grid(kind, MAX_CELLS // 1000 + 1, 1000)
        with pytest.raises(PuzzleError, match="option 'size'"):
            generate_grid(kind, 0, 5)
    with pytest.raises(PuzzleError, match="option 'seed'"):
        generate_grid("prim", 5, 5, -1)


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
