"""Jump point search and the wall followers on grid mazes: JPS costs what A* costs everywhere, expands
far fewer states on open maps, refuses weighted cells; the wall followers find the goal of a perfect
maze and walk in a loop on a braid maze whose start is beside an island of wall."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from server.i18n import t
from server.puzzles.errors import PuzzleError
from server.puzzles.family import LoadLimits
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.wall_follower import LOOP_MESSAGE, without_loops
from server.puzzles.registry import load_puzzle
from server.solving import solve
from tests.helpers import open_maze
from tests.test_grid_cases import walk

ROOT = Path(__file__).resolve().parents[1]
MAZES = ROOT / "mazes"
GALLERY_GRIDS = [e["file"] for e in json.loads((MAZES / "gallery.json").read_text()) if e["family"] == "grid"]
MAX_PIXELS = 1_100_000  # bigger shared images are left out to keep this quick
BRAID_INSIDE = (11, 11)  # a cell of braid-small.png beside an island of wall: both hands circle it


def load(path: Path) -> GridMaze:
    return load_puzzle(path.read_bytes(), path.name, limits=LoadLimits(max_pixels=100_000_000))


def shared_images(shared_cases: Path) -> list[Path]:
    images = sorted((shared_cases / "images" / "lee").glob("*.png"))
    images += sorted((shared_cases / "images" / "mikepound").glob("*.png"))
    from PIL import Image

    small = []
    for path in images:
        with Image.open(path) as image:
            if image.width * image.height <= MAX_PIXELS:
                small.append(path)
    return small


def compare(maze: GridMaze, diagonal: bool) -> tuple[dict, dict]:
    options = {"diagonal": diagonal}
    astar = solve(maze, "astar", options).json
    jps = solve(maze, "jps", options).json
    assert jps["found"] == astar["found"]
    if astar["found"]:
        assert jps["cost"] == pytest.approx(astar["cost"], abs=1e-6)
        assert walk(maze, jps["path"], diagonal) == pytest.approx(jps["cost"])
        assert jps["optimal_guaranteed"]
    return astar, jps


@pytest.mark.parametrize("diagonal", [False, True])
@pytest.mark.parametrize("name", [n for n in GALLERY_GRIDS if n != "weighted-swamp.txt"])
def test_jps_costs_what_astar_costs_on_the_gallery(name: str, diagonal: bool) -> None:
    compare(load(MAZES / name), diagonal)


@pytest.mark.parametrize("diagonal", [False, True])
def test_jps_costs_what_astar_costs_on_the_shared_images(shared_cases: Path, diagonal: bool) -> None:
    images = shared_images(shared_cases)
    assert any(p.name == "maze3.png" for p in images)
    for path in images:
        astar, jps = compare(load(path), diagonal)
        print(f"{path.name} diagonal={diagonal}: cost {astar['cost']}, A* expanded {astar['expanded']:,}, "
              f"JPS {jps['expanded']:,}")
        if path.name == "maze3.png" and not diagonal:
            assert jps["cost"] == 52 and jps["expanded"] < astar["expanded"]


@pytest.mark.parametrize("diagonal", [False, True])
def test_jps_costs_what_astar_costs_on_random_boards(diagonal: bool) -> None:
    rng = np.random.default_rng(22 if diagonal else 23)
    for _ in range(300):
        h, w = int(rng.integers(1, 14)), int(rng.integers(1, 14))
        cells = (rng.random((h, w)) > rng.random() * 0.6).astype(np.uint8)
        free = np.flatnonzero(cells.ravel())
        if len(free) < 3:
            continue
        ends = rng.choice(free, 3, replace=False)
        goals = ends[1:] if rng.random() < 0.3 else ends[1:2]  # several goals now and then
        compare(GridMaze(cells, ends[:1], goals), diagonal)


def test_jps_expands_far_fewer_on_an_open_map() -> None:
    maze = open_maze(60, 60)
    for diagonal in (False, True):
        astar, jps = compare(maze, diagonal)
        print(f"open 60 x 60, diagonal={diagonal}: cost {astar['cost']}, A* expanded {astar['expanded']:,} "
              f"(generated {astar['generated']:,}), JPS expanded {jps['expanded']:,} "
              f"(generated {jps['generated']:,})")
        assert jps["expanded"] * 10 < astar["expanded"]


def test_jps_is_refused_on_weighted_cells() -> None:
    maze = load(MAZES / "weighted-swamp.txt")
    with pytest.raises(PuzzleError) as err:
        solve(maze, "jps", {})
    assert err.value.where == "option 'algorithm'"
    assert "needs every free cell to cost the same" in str(err.value) and "use A*" in str(err.value)
    assert "1–9" in str(err.value)


def test_jps_on_a_board_where_every_cell_costs_the_same() -> None:
    maze = open_maze(12, 9)
    maze.cells[...] = 3
    maze.cells[4, 1:8] = 0
    for diagonal in (False, True):
        compare(maze, diagonal)


def test_jps_events_are_jump_points_and_a_full_path() -> None:
    from server.puzzles.grid.problem import GridProblem
    from server.search.events import CLOSE, PATH
    from server.search.runner import run_search

    events = []
    result = run_search(GridProblem(open_maze(30, 30), True), "jps", on_event=events.append)
    closes = [e for e in events if e.kind == CLOSE]
    path = [e for e in events if e.kind == PATH]
    assert len(closes) < 10
    assert [e.state for e in reversed(path)] == result.path and len(path) == 30
    assert path[0].g == pytest.approx(result.cost) and path[-1].g == 0


# ---- wall followers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("hand", ["wall_left", "wall_right"])
def test_wall_follower_finds_the_goal_of_a_perfect_maze(hand: str) -> None:
    maze = load(MAZES / "perfect-small.png")
    optimum = solve(maze, "bfs", {}).json["cost"]
    result = solve(maze, hand, {}).json
    assert result["found"] and not result["optimal_guaranteed"]
    assert result["cost"] >= optimum
    assert walk(maze, result["path"], False) == pytest.approx(result["cost"])
    assert "the walk as walked" in result["message"]
    cells = [maze.index(r, c) for r, c in result["path"]]
    assert len(without_loops(cells)) - 1 == optimum  # one path between any two cells: the loops cut out
    print(f"perfect-small, {hand}: walk cost {result['cost']}, optimum {optimum}; {result['message']}")


@pytest.mark.parametrize("hand", ["wall_left", "wall_right"])
def test_wall_follower_loops_on_a_braid_maze(hand: str) -> None:
    maze = load(MAZES / "braid-small.png")
    # With its own start and goal, both on the outer wall, the rule still reaches the goal.
    assert solve(maze, hand, {}).json["found"]
    inside = solve(maze, hand, {"start": BRAID_INSIDE}).json
    assert not inside["found"] and inside["message"] == t(LOOP_MESSAGE)
    assert solve(maze, "bfs", {"start": BRAID_INSIDE}).json["found"]  # a path exists


def test_wall_follower_is_refused_with_diagonal_moves() -> None:
    maze = load(MAZES / "perfect-small.png")
    with pytest.raises(PuzzleError) as err:
        solve(maze, "wall_left", {"diagonal": True})
    assert err.value.where == "option 'diagonal'"


def test_wall_follower_events_close_each_step() -> None:
    from server.puzzles.grid.problem import GridProblem
    from server.search.events import CLOSE
    from server.search.runner import run_search

    maze = load(MAZES / "perfect-small.png")
    events = []
    result = run_search(GridProblem(maze), "wall_left", on_event=events.append)
    assert [e.state for e in events if e.kind == CLOSE] == result.path
    assert result.max_frontier >= 1


def test_run_py_solve_jps(tmp_path: Path) -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "run.py", "solve", str(MAZES / "rooms.txt"), "--algorithm", "jps",
                          "--json"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    assert result["found"] and result["algorithm"] == "jps"
