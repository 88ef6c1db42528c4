"""Lattice mazes (issue 22, point 4): images drawn in k x k blocks or with thin wall lines are read
as their cells; 1-pixel mazes and noise never are."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from server.puzzles.family import RunControl
from server.puzzles.grid.generate import generate_braid, generate_perfect
from server.puzzles.grid.image import parse_grid_image
from server.puzzles.grid.lattice import detect_lattice
from server.puzzles.grid.model import GridMaze
from server.puzzles.registry import get_family
from tests.helpers import run_cli as cli


def png(free: np.ndarray | None = None, rgb: np.ndarray | None = None) -> bytes:
    """A PNG of a 0/1 array (white free, black walls) or of an RGB array."""
    pixels = rgb if rgb is not None else (np.asarray(free) * 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "PNG")
    return buffer.getvalue()


def blocks(cells: np.ndarray, k: int) -> np.ndarray:
    """Each cell as a k x k block."""
    return np.kron(cells, np.ones((k, k), dtype=np.uint8))


def lines(cells: np.ndarray, corridor: int, wall: int) -> np.ndarray:
    """A (2m + 1) x (2n + 1) maze drawn as a website draws it: even rows/columns are wall lines
    ``wall`` pixels thick, odd ones corridors ``corridor`` pixels wide."""
    def sizes(n: int) -> np.ndarray:
        return np.where(np.arange(n) % 2 == 0, wall, corridor)
    return np.repeat(np.repeat(cells, sizes(cells.shape[0]), axis=0), sizes(cells.shape[1]), axis=1)


def bfs_cost(maze: GridMaze) -> float:
    """The shortest path's cost in cells (4 neighbours), by BFS through the family's solve."""
    family = get_family("grid")
    solved = family.solve(maze, "bfs", family.run_options({}), RunControl())
    assert solved.json["found"]
    return float(solved.json["cost"])


MAZES = {"perfect": generate_perfect(15, 20, seed=7), "braid": generate_braid(12, 18, seed=3)}


@pytest.mark.parametrize("name", sorted(MAZES))
@pytest.mark.parametrize("k", [2, 3, 8])
def test_blocks_read_as_the_original_cells(name: str, k: int) -> None:
    maze = MAZES[name]
    read = parse_grid_image(png(blocks(maze.cells, k)))
    assert read.lattice == {"kind": "blocks", "k": k, "offset": [0, 0]}
    assert np.array_equal(read.cells, maze.cells)
    assert np.array_equal(read.starts, maze.starts) and np.array_equal(read.goals, maze.goals)
    assert bfs_cost(read) == bfs_cost(maze)


def test_blocks_with_a_partial_border_and_markers() -> None:
    maze = MAZES["perfect"]
    cells = maze.cells.copy()
    cells[0, :] = cells[-1, :] = 0  # closed border: the ends are colour markers
    big = blocks(cells, 4)[3:, 2:]  # cropped: a partial block on the top and left
    rgb = np.stack([big * 255] * 3, axis=-1).astype(np.uint8)
    rgb[4 - 3: 8 - 3, 4 - 2: 8 - 2] = (0, 0, 255)  # start: the block of cell (1, 1)
    r, c = cells.shape[0] - 2, cells.shape[1] - 2
    rgb[4 * r - 3: 4 * r + 1, 4 * c - 2: 4 * c + 2] = (255, 0, 0)  # goal: cell (r, c)
    read = parse_grid_image(png(rgb=rgb))
    assert read.lattice == {"kind": "blocks", "k": 4, "offset": [2, 1]}
    assert np.array_equal(read.cells, cells)
    assert [read.rc(i) for i in read.starts] == [(1, 1)] and [read.rc(i) for i in read.goals] == [(r, c)]


@pytest.mark.parametrize("name", sorted(MAZES))
@pytest.mark.parametrize(("corridor", "wall"), [(6, 1), (8, 2), (10, 2), (7, 1)])
def test_lines_read_as_the_lattice_grid(name: str, corridor: int, wall: int) -> None:
    maze = MAZES[name]
    read = parse_grid_image(png(lines(maze.cells, corridor, wall)))
    period = corridor + wall
    assert read.lattice == {"kind": "lines", "period": period, "wall": wall, "offset": [0, 0]}
    assert np.array_equal(read.cells, maze.cells)
    assert bfs_cost(read) == bfs_cost(maze)


def test_lines_with_margins_and_markers() -> None:
    maze = MAZES["perfect"]
    cells = maze.cells.copy()
    cells[0, :] = cells[-1, :] = 0
    drawn = lines(cells, 8, 2)
    rgb = np.stack([drawn * 255] * 3, axis=-1).astype(np.uint8)
    rgb[4:7, 4:7] = (0, 200, 0)  # a green dot inside cell (1, 1)
    r, c = cells.shape[0] // 2 - 1, cells.shape[1] // 2 - 1  # the last corridor square
    rgb[10 * r + 5: 10 * r + 8, 10 * c + 5: 10 * c + 8] = (255, 255, 0)  # yellow in cell (2r+1, 2c+1)
    rgb = np.pad(rgb, ((6, 9), (13, 4), (0, 0)), constant_values=255)  # white margins
    read = parse_grid_image(png(rgb=rgb))
    assert read.lattice == {"kind": "lines", "period": 10, "wall": 2, "offset": [13, 6]}
    assert np.array_equal(read.cells, cells)
    assert [read.rc(i) for i in read.starts] == [(1, 1)]
    assert [read.rc(i) for i in read.goals] == [(2 * r + 1, 2 * c + 1)]


def test_lattice_off_reads_pixels() -> None:
    drawn = blocks(MAZES["perfect"].cells, 3)
    read = parse_grid_image(png(drawn), lattice="off")
    assert read.lattice is None and np.array_equal(read.cells, drawn)


def test_one_odd_pixel_is_no_lattice() -> None:
    rng = np.random.default_rng(1)
    for _ in range(20):
        drawn = blocks(MAZES["perfect"].cells, 8)
        y, x = rng.integers(0, drawn.shape[0]), rng.integers(0, drawn.shape[1])
        drawn[y, x] ^= 1
        assert detect_lattice(drawn) is None, (y, x)
    drawn = lines(MAZES["perfect"].cells, 8, 2)
    drawn[5, 5] = 0  # a speck inside a corridor square
    assert detect_lattice(drawn) is None


def test_noise_and_gradients_are_no_lattice() -> None:
    rng = np.random.default_rng(2)
    drawn = blocks(MAZES["perfect"].cells, 8)
    for spread, lattice in ((90, True), (160, False)):
        # Noise that never crosses the threshold leaves the classes a lattice (a JPEG's noise);
        # noise that flips pixels does not.
        noise = rng.integers(-spread, spread, drawn.shape)
        noisy = np.clip(drawn.astype(np.int16) * 255 + noise, 0, 255).astype(np.uint8)
        read = parse_grid_image(png(rgb=np.stack([noisy] * 3, axis=-1)))
        assert (read.lattice is not None) == lattice, spread
    ys, xs = np.mgrid[0:300, 0:400]
    for grey in (xs * 255 // 399, (xs + ys) * 255 // 698, np.hypot(xs - 200, ys - 150).astype(int)):
        image = np.stack([grey.astype(np.uint8)] * 3, axis=-1)
        assert parse_grid_image(png(rgb=image)).lattice is None
    # a maze under a smooth gradient: its threshold line cuts corridors anywhere
    ramp = np.arange(drawn.shape[1], dtype=np.int16) * 150 // drawn.shape[1]  # 0 .. 149 left to right
    shaded = (drawn.astype(np.int16) * 110 + ramp[None, :]).astype(np.uint8)
    assert parse_grid_image(png(rgb=np.stack([shaded] * 3, axis=-1))).lattice is None


def _case_images(shared_cases: Path) -> list[Path]:
    found = sorted((shared_cases / "images/lee").glob("*.png"))
    found += sorted((shared_cases / "images/mikepound").glob("*.png"))
    return [p for p in found if Image.open(p).size[0] * Image.open(p).size[1] <= 1_100_000]


def test_one_pixel_mazes_read_as_before(shared_cases: Path) -> None:
    images = _case_images(shared_cases)
    assert len(images) >= 10
    for path in images:
        data = path.read_bytes()
        auto, off = parse_grid_image(data), parse_grid_image(data, lattice="off")
        assert auto.lattice is None, path.name
        assert np.array_equal(auto.cells, off.cells), path.name
        assert np.array_equal(auto.starts, off.starts) and np.array_equal(auto.goals, off.goals)
        if len(auto.starts) and len(auto.goals):
            assert bfs_cost(auto) == bfs_cost(off), path.name


def test_detection_is_quick_on_perfect4k(shared_cases: Path) -> None:
    path = shared_cases / "images/mikepound/perfect4k.png"
    if not path.exists():
        pytest.skip("perfect4k.png is not in the shared cases")
    cells = parse_grid_image(path.read_bytes(), lattice="off").cells
    best = min(_timed(detect_lattice, cells) for _ in range(5))
    # The full boundary pass (what an image that passes the quick strip costs), for the record.
    from server.puzzles.grid.lattice import _col_boundaries, _row_boundaries

    full = min(_timed(lambda a: (_col_boundaries(a), _row_boundaries(a)), cells) for _ in range(3))
    print(f"\nlattice detection on perfect4k ({cells.shape[1]} x {cells.shape[0]}): no lattice in "
          f"{best * 1000:.2f} ms (full boundary pass {full * 1000:.1f} ms)")
    assert detect_lattice(cells) is None
    assert best < 0.05


def _timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def test_cli_reports_the_lattice_and_both_costs(tmp_path: Path) -> None:
    maze = MAZES["perfect"]
    path = tmp_path / "lattice.png"
    path.write_bytes(png(blocks(maze.cells, 8)))
    done = cli("solve", str(path), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    cost = bfs_cost(maze)
    assert result["lattice"] == {"kind": "blocks", "k": 8, "offset": [0, 0]}
    assert result["cost"] == cost and result["pixel_cost"] == cost * 8
    done = cli("solve", str(path), "--json", "--lattice", "off")
    result = json.loads(done.stdout)
    assert result["lattice"] is None and "pixel_cost" not in result
    assert result["cost"] == bfs_cost(parse_grid_image(path.read_bytes(), lattice="off"))
    text = cli("solve", str(path)).stdout
    assert "lattice: 8-pixel blocks" in text

    drawn = tmp_path / "lines.png"
    drawn.write_bytes(png(lines(maze.cells, 8, 2)))
    result = json.loads(cli("solve", str(drawn), "--json").stdout)
    assert result["lattice"] == {"kind": "lines", "period": 10, "wall": 2, "offset": [0, 0]}
    assert result["cost"] == cost and result["pixel_cost"] == cost * 5


def test_a_stored_lattice_image_is_read_again_pixel_by_pixel_on_request(tmp_path):
    """The page's "Read every pixel" button: POST /api/puzzles {puzzle, options} reads the kept file
    again with other load options (a new puzzle); an unknown id or a bad option is refused in words."""
    from tests.helpers import make_app, post_file

    client = make_app(store_dir=tmp_path).test_client()
    cells = generate_perfect(5, 5, seed=3).cells  # 11 x 11 cells, drawn in 6-pixel blocks
    data = io.BytesIO()
    Image.fromarray((blocks(cells, 6) * 255).astype(np.uint8), "L").save(data, "PNG")
    first = post_file(client, data.getvalue(), "rooms.png")
    assert first.status_code == 201 and first.json["lattice"] is not None and first.json["width"] == 11
    pixels = client.post("/api/puzzles", json={"puzzle": first.json["id"], "options": {"lattice": "off"}})
    assert pixels.status_code == 201, pixels.json
    assert pixels.json["lattice"] is None and pixels.json["width"] == 66
    assert pixels.json["id"] != first.json["id"]
    assert pixels.json["name"] == "rooms"
    missing = client.post("/api/puzzles", json={"puzzle": "0" * 20, "options": {"lattice": "off"}})
    assert missing.status_code == 404 and "not kept" in missing.json["error"]
    bad = client.post("/api/puzzles", json={"puzzle": first.json["id"], "options": {"lattice": "sometimes"}})
    assert bad.status_code == 400 and "lattice" in bad.json["error"]
