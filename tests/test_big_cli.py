"""Big mazes on the CLI and the API (issue 22, point 1): the JSON path written from its array
(``server.json_arrays``), the palette solution image, and search limits that follow the pixel limit.
Small mazes only; the 225 M-pixel figures are ``scripts/bench_grid.py --huge``'s."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from server import json_arrays
from server.config import Config
from server.json_arrays import CellPairs, cell_path, compact_paths
from server.puzzles.grid.family import FAMILY
from server.puzzles.grid.generate import generate_perfect, maze_to_image
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.render import (
    GOAL_RGB,
    PATH_RGB,
    START_RGB,
    cell_colours,
    render_solution,
    render_solution_indexed,
    save_png,
)
from server.puzzles.grid.text import parse_grid_text
from server.solving import solve
from tests.helpers import make_app
from tests.helpers import post_file as upload
from tests.helpers import run_cli as cli

SEPARATORS = ((",", ":"), (", ", ": "))


# --- the JSON writer ----------------------------------------------------------------------------------


SMALL = json_arrays.SMALL


@pytest.mark.parametrize("size", [0, 1, 2, 9, SMALL - 1, SMALL, 3 * SMALL])
def test_cell_pairs_are_written_as_json_dumps_writes_the_lists(size: int) -> None:
    rng = np.random.default_rng(size)
    for width in (1, 7, 10, 15001, 46_340):
        cells = rng.integers(0, width * 46_340, size)
        cells[: min(size, 3)] = [0, width - 1, width * 46_340 - 1][: min(size, 3)]  # 0s and the largest
        pairs = CellPairs(cells, width)
        listed = [list(divmod(int(c), width)) for c in cells]
        assert pairs.tolist() == listed and pairs == listed and len(pairs) == size
        for separators in SEPARATORS:
            result = {"family": "grid", "path": pairs, "cost": 1.5, "nested": [{"p": pairs}, "é"]}
            plain = {"family": "grid", "path": listed, "cost": 1.5, "nested": [{"p": listed}, "é"]}
            for sort_keys in (False, True):
                for ascii_only in (True, False):
                    how = {"separators": separators, "sort_keys": sort_keys, "ensure_ascii": ascii_only}
                    want = json.dumps(plain, **how)
                    got = json_arrays.encode(result, **how)
                    assert got == want.encode("utf-8"), (size, width, separators, sort_keys)
            stream = io.BytesIO()
            json_arrays.write(result, stream, separators=separators)
            assert stream.getvalue() == json.dumps(plain, separators=separators).encode("ascii")
        assert json_arrays.plain(result) == plain


def test_a_placeholder_lookalike_in_a_string_stays_a_string() -> None:
    pairs = CellPairs([5, 6], 5)
    tricky = {"message": "\x00cell-pairs 0 0\x00", "path": pairs}
    assert json.loads(json_arrays.encode(tricky)) == {**tricky, "path": [[1, 0], [1, 1]]}


def test_cell_pairs_read_like_their_list() -> None:
    pairs = CellPairs(np.array([0, 4, 13]), 5)
    assert list(pairs) == [[0, 0], [0, 4], [2, 3]] and pairs[-1] == [2, 3] and pairs[1:] == [[0, 4], [2, 3]]
    assert bool(pairs) and not CellPairs([], 5) and pairs != [[0, 0]]
    with pytest.raises(ValueError):
        CellPairs([-1], 5)
    with pytest.raises(ValueError):
        CellPairs([1], 0)


def test_cell_path_is_a_list_unless_asked() -> None:
    assert cell_path([3, 4], 3) == [[1, 0], [1, 1]] and isinstance(cell_path([3, 4], 3), list)
    with compact_paths():
        assert isinstance(cell_path([3, 4], 3), CellPairs)
    assert isinstance(cell_path([3, 4], 3), list)


def big_maze() -> GridMaze:
    """A perfect maze whose path is longer than ``json_arrays.SMALL`` cells (the compiled writer)."""
    return generate_perfect(200, 200, seed=1)  # a path of 14,735 cells


def test_solve_compact_gives_the_same_text_as_the_lists() -> None:
    maze = big_maze()
    for algorithm in ("bfs", "astar", "jps", "wall_left"):
        listed = solve(maze, algorithm, {}).json
        compact = solve(maze, algorithm, {}, compact=True).json
        assert isinstance(listed["path"], list), algorithm
        assert isinstance(compact["path"], CellPairs), algorithm
        assert len(compact["path"]) > json_arrays.SMALL or algorithm != "bfs"
        compact["seconds"] = listed["seconds"]
        text = json_arrays.encode(compact)
        assert text == json.dumps(listed, separators=(",", ":")).encode("ascii"), algorithm
    summary = FAMILY.summary_lines("m.png", compact)[0]
    assert summary.startswith(f"m.png: wall_left found a path of cost {compact['cost']}")


# --- the solution image ------------------------------------------------------------------------------


def old_render(maze: GridMaze, path: list[int], scale: int) -> np.ndarray:
    """The RGB renderer as it was before the palette image (issue 22), for comparison."""
    rgb = cell_colours()[maze.cells]
    flat = rgb.reshape(-1, 3)
    flat[np.asarray(path, dtype=np.int64)] = PATH_RGB
    flat[maze.starts] = START_RGB
    flat[maze.goals] = GOAL_RGB
    return np.repeat(np.repeat(rgb, scale, axis=0), scale, axis=1)


def test_the_palette_image_has_the_old_renderers_pixels(tmp_path: Path) -> None:
    weighted = parse_grid_text("#S#####\n#.2945#\n#..3..#\n#.###G#\n#######")
    path = [weighted.index(*rc) for rc in ((0, 1), (1, 1), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5), (3, 5))]
    for maze, route in ((weighted, path), (big_maze(), None)):
        if route is None:
            route = list(solve(maze, "bfs", {}).result.path)
        for scale in (None, 1, 3):
            image = render_solution_indexed(maze, route, scale)
            used = scale or max(1, min(8, 4000 // max(maze.height, maze.width)))
            assert image.mode == "P" and image.size == (maze.width * used, maze.height * used)
            expected = old_render(maze, route, used)
            assert np.array_equal(np.asarray(image.convert("RGB")), expected)
            assert np.array_equal(np.asarray(render_solution(maze, route, scale)), expected)
            target = tmp_path / "s.png"
            save_png(image, target)
            with Image.open(target) as back:
                assert back.mode == "P" and np.array_equal(np.asarray(back.convert("RGB")), expected)


def test_the_cli_writes_the_json_and_the_palette_png(tmp_path: Path) -> None:
    maze = big_maze()
    png = tmp_path / "maze.png"
    maze_to_image(maze).save(png)
    out = tmp_path / "solution.png"
    run = cli("solve", str(png), "--algorithm", "bfs", "--json", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout.endswith("}\n") and run.stdout.count("\n") == 1
    answer = json.loads(run.stdout)
    assert run.stdout == json.dumps(answer, separators=(",", ":")) + "\n"
    expected = solve(maze, "bfs", {}).json
    answer["seconds"] = expected["seconds"]
    assert answer == {**expected, "options": answer["options"]} and len(answer["path"]) > json_arrays.SMALL
    with Image.open(out) as image:
        assert image.mode == "P"
        cells = [maze.index(r, c) for r, c in answer["path"]]
        assert np.array_equal(np.asarray(image.convert("RGB")), old_render(maze, cells, 8))  # 8 px a cell


def test_the_api_solve_answers_what_jsonify_would() -> None:
    app = make_app(max_pixels=1_000_000)
    client = app.test_client()
    buffer = io.BytesIO()
    maze_to_image(big_maze()).save(buffer, "PNG")
    info = upload(client, buffer.getvalue(), "big.png").json
    response = client.post(f"/api/puzzles/{info['id']}/solve", json={"algorithm": "bfs"})
    assert response.status_code == 200 and response.mimetype == "application/json"
    answer = response.json
    assert len(answer["path"]) > json_arrays.SMALL and answer["path"][0] == info["starts"][0]
    with app.app_context():
        assert response.data == app.json.response(answer).data  # jsonify's bytes, sorted keys and all


# --- limits -----------------------------------------------------------------------------------------


def test_a_compiled_search_may_expand_every_pixel_the_server_accepts() -> None:
    assert Config().expansion_limit(True) == 50_000_000
    assert Config(max_pixels=250_000_000).expansion_limit(True) == 250_000_000
    assert Config(max_pixels=1_000, max_expanded=60_000_000).expansion_limit(True) == 60_000_000
    assert Config(max_pixels=250_000_000).expansion_limit(False) == 2_000_000  # pure Python: its own
    raised = Config.from_env({"MAZE_MAX_PIXELS": "250000000"})
    assert raised.search_limits(True)["max_expanded"] == 250_000_000
    # a 225 M-pixel BFS takes ~6 s of search (docs/BENCHMARKS.md): far inside the time limit
    assert Config().max_seconds >= 60


def test_a_search_stopped_at_the_limit_names_the_setting() -> None:
    maze = big_maze()
    compiled = Config(max_pixels=100, max_expanded=50).search_limits(True)
    result = solve(maze, "bfs", {}, **compiled).json
    assert result["stopped"] == ("limit: more than 100 states expanded (raise it with MAZE_MAX_EXPANDED, or "
                                 "serve --max-pixels / MAZE_MAX_PIXELS above it)")
    generic = Config(max_expanded_generic=30).search_limits(False)
    result = solve(maze, "jps", {}, **generic).json
    assert result["stopped"].startswith("limit: more than 30 states expanded (")
    assert "MAZE_MAX_EXPANDED_GENERIC" in result["stopped"]
    assert solve(maze, "bfs", {}, max_expanded=100).json["stopped"] == "limit: more than 100 states expanded"
