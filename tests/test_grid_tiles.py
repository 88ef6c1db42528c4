"""Tiles of huge grid mazes: the board after any step, drawn from each cell's expansion number
(server/puzzles/grid/tiles.py), must be the board the trace's records give at that step."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import numpy as np
import pytest

from server.puzzles.family import RunControl
from server.puzzles.grid import tiles
from server.puzzles.grid.generate import generate_braid
from server.puzzles.grid.kernel_search import solve_grid
from server.puzzles.grid.kernels import ORDER_MASK
from server.puzzles.grid.model import GridMaze
from server.search import events

ROOT = Path(__file__).resolve().parents[1]
ALGORITHMS = ["bfs", "dfs", "dijkstra", "greedy", "astar", "bidirectional"]


def weighted_room(seed: int = 5) -> GridMaze:
    """An open room with weights and scattered walls: diagonal moves, corners and updates happen."""
    rng = np.random.default_rng(seed)
    cells = rng.integers(1, 10, size=(37, 45), dtype=np.uint8)
    cells[rng.random(cells.shape) < 0.2] = 0
    cells[2, 3] = cells[33, 40] = 1
    return GridMaze(cells, np.array([2 * 45 + 3]), np.array([33 * 45 + 40]))


def options(diagonal: bool) -> dict:
    return {"diagonal": diagonal, "heuristic": "", "weight": 1.0}


def states_from_trace(
    maze: GridMaze, algorithm: str, diagonal: bool, t: int, max_expanded: int | None = None
) -> tuple[dict, dict]:
    """(closed, open) cells after ``t`` expansions, replayed from the kernel's own trace: each cell
    with the side that closed it first, or that reached it first (True: bidirectional's backward)."""
    _, trace = solve_grid(maze, algorithm, diagonal=diagonal, max_expanded=max_expanded)
    closed: dict[int, bool] = {}
    opened: dict[int, bool] = {}
    done = 0
    for kind, cell in zip(np.asarray(trace.kinds), np.asarray(trace.cells), strict=True):
        cell = int(cell)
        if kind in (events.CLOSE, events.CLOSE_B):
            if done == t:
                break
            done += 1
            closed.setdefault(cell, kind == events.CLOSE_B)
            opened.pop(cell, None)
        elif kind in (events.OPEN, events.OPEN_B) and cell not in closed:
            opened.setdefault(cell, kind == events.OPEN_B)
    return closed, opened


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("diagonal", [False, True])
@pytest.mark.parametrize("board", ["braid", "room"])
def test_level_zero_tiles_show_the_trace_at_every_step(tmp_path, algorithm, diagonal, board):
    maze = generate_braid(20, 24, seed=3, braid=0.5) if board == "braid" else weighted_room()
    meta = tiles.run(maze, algorithm, options(diagonal), RunControl(), tmp_path)
    stored = tiles.StoredRun.load(tmp_path, meta)
    expanded = meta["expanded"]
    assert expanded > 10
    last = max(1, expanded - 1)
    for t in sorted({0, 1, 2, expanded // 3, expanded // 2, expanded - 1, expanded}):
        closed, opened = states_from_trace(maze, algorithm, diagonal, t)
        tile = tiles.draw(maze, 0, 0, 0, stored, t)
        assert tile.shape == (maze.height, maze.width, 3)
        want = tiles.COLOURS[maze.cells].copy()
        for cell, back in opened.items():
            want.reshape(-1, 3)[cell] = tiles.COLOURS[12 if back else 10]
        for cell, back in closed.items():
            order = int(stored.closed_at[cell]) & ORDER_MASK
            want.reshape(-1, 3)[cell] = tiles.COLOURS[13] if back else tiles.RAMP[int(order * (255.0 / last))]
        assert np.array_equal(tile, want), (algorithm, diagonal, t)
    # The last step draws the path.
    if meta["result"]["found"]:
        tile = tiles.draw(maze, 0, 0, 0, stored, meta["steps"])
        path = np.load(tmp_path / "path.npy")
        assert (tile.reshape(-1, 3)[path] == tiles.COLOURS[11]).all()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_frontier_samples_are_the_trace_s_frontier(tmp_path, algorithm):
    maze = generate_braid(30, 30, seed=7, braid=0.3)
    meta = tiles.run(maze, algorithm, options(False), RunControl(), tmp_path)
    stored = tiles.StoredRun.load(tmp_path, meta)
    frontier = np.frombuffer(stored.frontier_samples(maze), "<i4")
    assert len(frontier) == meta["samples"] + 1
    every = meta["sample_every"]
    for k in range(0, meta["samples"], max(1, meta["samples"] // 7)):
        _closed, opened = states_from_trace(maze, algorithm, False, k * every)
        assert frontier[k] == len(opened), k
    _closed, opened = states_from_trace(maze, algorithm, False, meta["expanded"])
    assert frontier[-1] == len(opened)
    assert stored.frontier_samples(maze) == frontier.tobytes()  # kept in the run's folder: read back


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_search_stopped_by_its_limit_ends_with_the_frontier_it_had(tmp_path, algorithm):
    """Stopped right after an expansion, the last cell's neighbours were never generated: the tile at
    the end must not show them open (the phantoms)."""
    maze = weighted_room()
    meta = tiles.run(maze, algorithm, options(False), RunControl(max_expanded=57), tmp_path)
    assert meta["result"]["stopped"].startswith("limit") and meta["steps"] == meta["expanded"] == 58
    assert meta["phantoms"]  # on this board the last cell had neighbours it never generated
    stored = tiles.StoredRun.load(tmp_path, meta)
    _closed, opened = states_from_trace(maze, algorithm, False, 58, max_expanded=57)
    tile = tiles.draw(maze, 0, 0, 0, stored, 58).reshape(-1, 3)
    open_colours = {tuple(tiles.COLOURS[10]), tuple(tiles.COLOURS[12])}
    shown_open = {i for i in range(len(tile)) if tuple(tile[i]) in open_colours}
    assert shown_open == set(opened)
    assert np.frombuffer(stored.frontier_samples(maze), "<i4")[-1] == len(opened)


def test_coarse_tiles_cover_the_board_and_show_the_path(tmp_path):
    maze = generate_braid(200, 300, seed=1, braid=0.1)  # 601 x 401 cells: three levels
    meta = tiles.run(maze, "bfs", options(False), RunControl(), tmp_path)
    stored = tiles.StoredRun.load(tmp_path, meta)
    top = tiles.levels(maze.width, maze.height) - 1
    assert top == 2 and meta["levels"] == 3
    whole = tiles.draw(maze, top, 0, 0, stored, meta["steps"])
    assert whole.shape == ((maze.height + 3) // 4, (maze.width + 3) // 4, 3)
    assert (whole == tiles.COLOURS[11]).all(axis=2).sum() > 50  # the path survives the zoom
    # Level 1: 2 x 2 cells a pixel, 512 cells a tile; the edge tiles are clipped to the board.
    right = tiles.draw(maze, 1, 1, 0, stored, 0)
    assert right.shape == ((maze.height + 1) // 2, (maze.width - 512 + 1) // 2, 3)
    with pytest.raises(Exception, match="no tile"):
        tiles.draw(maze, 1, 2, 0, stored, 0)
    with pytest.raises(Exception, match="no tile"):
        tiles.draw(maze, 3, 0, 0, stored, 0)


def test_block_tiles_blend_walls_and_expanded_cells(tmp_path, monkeypatch):
    maze = generate_braid(200, 200, seed=2, braid=0.2)
    monkeypatch.setattr(tiles, "TILE", 16)  # small tiles: the block path is taken at level 4
    meta = tiles.run(maze, "bfs", options(False), RunControl(), tmp_path)
    stored = tiles.StoredRun.load(tmp_path, meta)
    board = tiles.draw(maze, 4, 0, 0, None, 0)
    before = tiles.draw(maze, 4, 0, 0, stored, 0)
    after = tiles.draw(maze, 4, 0, 0, stored, meta["expanded"])
    assert board.shape == before.shape == (16, 16, 3)
    assert np.array_equal(board, before)  # nothing expanded yet: the board alone
    assert not np.array_equal(before, after)


def test_the_palette_is_the_page_s():
    """tiles.py copies static/js/colors.js's colours; this keeps the two in step."""
    source = (ROOT / "static/js/colors.js").read_text()
    for name, value in {"wall": tiles.WALL, "free": tiles.FREE, "heavy": tiles.HEAVY}.items():
        assert re.search(rf'{name}: "{value}"', source, re.I), name
    assert re.search(rf'reddishPurple: "{tiles.OPEN}"', source, re.I)
    assert re.search(rf'vermillion: "{tiles.PATH}"', source, re.I)
    assert re.search(rf'blue: "{tiles.OPEN_BACK}"', source, re.I)
    assert re.search(rf'skyBlue: "{tiles.CLOSED_BACK}"', source, re.I)
    assert "openBack: OKABE_ITO.blue" in source and "closedBack: OKABE_ITO.skyBlue" in source
    assert all(colour in source for colour in tiles.VIRIDIS)
    assert f"RAMP_FROM = {tiles.RAMP_FROM}" in source


# --- through the server: a tiled run over the socket, tiles over HTTP ------------------------------


def test_a_huge_board_runs_for_tiles_and_serves_them(tmp_path):
    from PIL import Image

    from server import socketio
    from server.services import services
    from tests.helpers import live_app, pump

    maze = generate_braid(60, 80, seed=9, braid=0.3)  # 121 x 161 = 19,481 cells
    app = live_app({"huge": maze, "small": generate_braid(3, 3, seed=1)}, tile_min_cells=10_000,
                   tile_dir=tmp_path)
    http = app.test_client()
    info = http.get("/api/puzzles/huge").get_json()
    assert info["deep_zoom"] == {"width": 161, "height": 121, "tile": 256, "levels": 1}
    assert http.get("/api/puzzles/small").get_json()["deep_zoom"] is None
    board = http.get("/api/puzzles/huge/tiles/0/0/0.png")
    assert board.status_code == 200 and "immutable" in board.headers["Cache-Control"]
    assert Image.open(__import__("io").BytesIO(board.data)).size == (161, 121)

    client = socketio.test_client(app)
    client.emit("run_start", {"run": "r1", "puzzle": "huge", "algorithm": "astar", "options": {}})
    seen = pump(client, "run_done", "r1")
    assert not any(s["name"] == "run_frame" for s in seen)  # nothing streamed
    done = seen[-1]
    summary = done["tiles"]
    assert done["records"] == 0 and done["result"]["found"] and done["result"]["path"] == []
    assert summary["steps"] == summary["expanded"] + 1 == done["result"]["expanded"] + 1
    key = summary["key"]
    middle = http.get(f"/api/puzzles/huge/runs/{key}/tiles/0/0/0.png?t={summary['expanded'] // 2}")
    end = http.get(f"/api/puzzles/huge/runs/{key}/tiles/0/0/0.png?t={summary['steps']}")
    assert middle.status_code == end.status_code == 200 and middle.data != end.data
    frontier = np.frombuffer(http.get(f"/api/puzzles/huge/runs/{key}/frontier").data, "<i4")
    assert len(frontier) == summary["samples"] + 1 and frontier[0] == 1  # the start, before step 0
    assert http.get(f"/api/puzzles/huge/runs/{key}").get_json()["steps"] == summary["steps"]

    # The same run again is found, not searched: the same key at once.
    client.emit("run_start", {"run": "r2", "puzzle": "huge", "algorithm": "astar", "options": {}})
    assert pump(client, "run_done", "r2")[-1]["tiles"]["key"] == key
    assert len([p for p in tmp_path.iterdir() if not p.name.startswith(".")]) == 1

    # Refusals in words: a step out of range, a tile outside the pyramid, an unknown run, a small board.
    bad_t = http.get(f"/api/puzzles/huge/runs/{key}/tiles/0/0/0.png?t={summary['steps'] + 1}")
    assert bad_t.status_code == 400 and "t must be a step number" in bad_t.get_json()["error"]
    outside = http.get(f"/api/puzzles/huge/runs/{key}/tiles/0/1/0.png?t=0")
    assert "no tile 0/1/0" in outside.get_json()["error"]
    assert http.get("/api/puzzles/huge/runs/nope/tiles/0/0/0.png?t=0").status_code == 404
    small = http.get("/api/puzzles/small/tiles/0/0/0.png")
    assert small.status_code == 400 and "not as tiles" in small.get_json()["error"]
    start = http.get(f"/api/puzzles/huge/cell?row=0&col=1&run={key}").get_json()  # the maze's opening
    assert start == {"row": 0, "col": 1, "weight": 1, "expanded_at": 1, "reached_at": 0}
    assert http.get("/api/puzzles/huge/cell?row=0&col=0").get_json() == {"row": 0, "col": 0, "weight": 0}
    assert "no cell (121, 0)" in http.get("/api/puzzles/huge/cell?row=121&col=0").get_json()["error"]
    # Tiles are drawn a few at a time per process: past them a tile waits, then is refused to retry.
    import server.web.tiles as web_tiles

    budget = services(app).budget
    saved, web_tiles.RENDER_WAIT = web_tiles.RENDER_WAIT, 0.05
    try:
        with contextlib.ExitStack() as held:  # other work holds every drawing slot
            for _ in range(services(app).config.tile_renders_at_once):
                held.enter_context(budget.drawing())
            busy = http.get(f"/api/puzzles/huge/runs/{key}/tiles/0/0/0.png?t=1")
            assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
            assert "drawing other tiles" in busy.get_json()["error"]
    finally:
        web_tiles.RENDER_WAIT = saved
    assert http.get(f"/api/puzzles/huge/runs/{key}/tiles/0/0/0.png?t=1").status_code == 200
    gif = http.post("/api/puzzles/huge/animation", json={"algorithm": "bfs"})
    assert gif.status_code == 400 and "drawn as tiles" in gif.get_json()["error"]
    # An algorithm the tiles cannot show is refused in words.
    client.emit("run_start", {"run": "r3", "puzzle": "huge", "algorithm": "jps", "options": {}})
    error = pump(client, "run_error", "r3")[-1]["error"]
    assert "does not run on a board this big" in error
    client.disconnect()
    services(app).runs.shutdown("bye", lambda *a: None)


def test_the_tile_kernels_read_closed_at_as_the_search_kernels_write_it():
    from server.puzzles.grid import kernels
    from server.puzzles.grid import tile_kernels as tk

    assert (tk.BACK_BIT, tk.ORDER_MASK) == (kernels.BACK_BIT, kernels.ORDER_MASK)
    assert tk.NEVER & tk.ORDER_MASK > 2**29  # a cell never expanded stays after every real step


def test_the_hover_read_out_of_a_cell_never_reached(tmp_path):
    maze = weighted_room()
    meta = tiles.run(maze, "bfs", options(False), RunControl(max_expanded=5), tmp_path)
    stored = tiles.StoredRun.load(tmp_path, meta)
    assert tiles.cell(maze, 33, 40, stored) == {
        "row": 33, "col": 40, "weight": 1, "expanded_at": None, "reached_at": None,
    }
    start = {"row": 2, "col": 3, "weight": 1, "expanded_at": 1, "reached_at": 0}
    assert tiles.cell(maze, 2, 3, stored) == start
