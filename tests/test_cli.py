"""The command line, run as a user runs it: a subprocess per call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from tests.helpers import run_cli as cli


def test_solve_maze3_prints_the_json_of_the_issue(shared_cases: Path, tmp_path: Path) -> None:
    out = tmp_path / "solution.png"
    done = cli("solve", str(shared_cases / "images/lee/maze3.png"), "--algorithm", "bfs", "--json",
               "--out", str(out))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) >= {"family", "algorithm", "found", "cost", "path", "expanded", "generated",
                           "max_frontier", "seconds", "optimal_guaranteed"}
    assert result["family"] == "grid" and result["algorithm"] == "bfs"
    assert result["found"] and result["cost"] == 52 and len(result["path"]) == 53
    assert result["optimal_guaranteed"] is True
    image = Image.open(out)
    assert image.size[0] >= 34 and image.size[1] >= 25


@pytest.mark.parametrize("algorithm", ["dijkstra", "astar", "bidirectional"])
def test_optimal_algorithms_on_maze3(shared_cases: Path, algorithm: str) -> None:
    done = cli("solve", str(shared_cases / "images/lee/maze3.png"), "-a", algorithm, "--json")
    assert json.loads(done.stdout)["cost"] == 52


def test_human_readable_output(shared_cases: Path) -> None:
    done = cli("solve", str(shared_cases / "images/lee/maze3.png"), "-a", "greedy")
    # Greedy guarantees nothing; on a maze this small the verdict can say how far off it is.
    assert done.returncode == 0 and "cost 88 (not optimal: the optimum is 52)" in done.stdout


def test_bad_file_exits_non_zero_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "fake.png"
    bad.write_text("this is not a picture")
    done = cli("solve", str(bad), "--json")
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "fake.png" in lines[0] and "not an image" in lines[0]
    missing = cli("solve", str(tmp_path / "nope.png"))
    assert missing.returncode == 1 and len(missing.stderr.strip().splitlines()) == 1


def test_text_maze_and_options(tmp_path: Path) -> None:
    maze = tmp_path / "m.txt"
    maze.write_text("#######\n#S....#\n#.###.#\n#....G#\n#######\n")
    done = cli("solve", str(maze), "-a", "astar", "--heuristic", "octile", "--diagonal", "--json")
    result = json.loads(done.stdout)
    assert result["found"] and result["options"]["diagonal"] is True
    forced = cli("solve", str(maze), "--family", "grid", "--start", "3,1", "--goal", "1,5", "--json")
    assert json.loads(forced.stdout)["path"][0] == [3, 1]
    other = cli("solve", str(maze), "--family", "sokoban")
    assert other.returncode == 1 and "not supported yet" in other.stderr
    wrong = cli("solve", str(maze), "--family", "zenji")
    assert wrong.returncode == 1 and "line 1, tile 1: expected four side codes" in wrong.stderr


def test_generate_writes_a_solvable_maze(tmp_path: Path) -> None:
    out = tmp_path / "g.png"
    assert cli("generate", "perfect", "20", "30", "--seed", "3", "--out", str(out)).returncode == 0
    assert Image.open(out).size == (61, 41)
    solved = json.loads(cli("solve", str(out), "--json").stdout)
    assert solved["found"]


def test_the_verdict_names_the_optimum(shared_cases: Path) -> None:
    done = cli("solve", str(shared_cases / "images/lee/maze3.png"), "-a", "dfs")
    assert done.returncode == 0 and "cost 108 (not optimal: the optimum is 52)" in done.stdout
