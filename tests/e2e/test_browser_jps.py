"""Jump point search and a wall follower in the page: JPS on maze3 costs what A* costs (52) with far
fewer states expanded; the left-hand wall follower on the braid maze, started beside an island of
wall, ends with the loop message where the result's verdict shows."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from server.puzzles.grid.image import parse_grid_image
from server.puzzles.registry import get_family
from tests.e2e.pages import ARTIFACTS, BROWSER_TEST, run_to_end, shooter, text, upload

pytestmark = BROWSER_TEST
shot = shooter("jps")
ROOT = Path(__file__).resolve().parents[2]
BRAID_INSIDE = (11, 11)  # beside an island of wall (tests/test_grid_jps.py): both hands circle it


def test_jps_on_maze3_costs_what_astar_costs_with_far_fewer_expanded(page, maze3):
    upload(page, maze3)
    run_to_end(page, "astar")
    assert text(page, "cost") == "52"
    astar = int(text(page, "expanded").replace(",", ""))
    run_to_end(page, "jps")
    assert text(page, "cost") == "52"
    assert text(page, "path-length") == "53"  # every cell of the path, the jumps filled in
    jps = int(text(page, "expanded").replace(",", ""))
    print(f"maze3 in the page: A* expanded {astar}, JPS {jps}")
    assert jps * 2 < astar, (jps, astar)
    assert "optimal" in text(page, "optimal")
    shot(page, "maze3-jps")


def test_wall_follower_loops_on_the_braid_maze(page, tmp_path):
    maze = parse_grid_image((ROOT / "mazes" / "braid-small.png").read_bytes(), "braid-inside")
    maze = maze.with_endpoints(BRAID_INSIDE, None)
    assert np.array_equal(maze.starts, [maze.index(*BRAID_INSIDE)])
    path = tmp_path / "braid-inside.txt"
    path.write_bytes(get_family("grid").saver.save(maze, "txt"))
    upload(page, path)
    run_to_end(page, "wall_left")
    verdict = text(page, "optimal")
    assert "walked in a loop" in verdict and "not complete" in verdict, verdict
    ARTIFACTS.mkdir(exist_ok=True)
    shot(page, "braid-wall-left-loop")
