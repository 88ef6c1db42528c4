"""Write the bundled gallery in ``mazes/``: every file there is made by this script.

Run from the project root:  .venv/bin/python -m scripts.make_mazes
Re-running it reproduces the files byte for byte (fixed seeds; numpy's PCG64 and Pillow's PNG
writer are deterministic). ``--check`` only reports files that would change.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import numpy as np

from server.puzzles.grid.generate import generate_braid, generate_perfect, maze_to_image, maze_to_text
from server.puzzles.grid.model import GridMaze

ROOT = Path(__file__).resolve().parents[1]
MAZES = ROOT / "mazes"


def lee_example() -> str:
    """A small maze in the spirit of seed 004's article: closed border, S and G inside, some loops.

    The article's maze is only an image (and stays out of the repository); this one has its size
    and character: 33 x 25, a few equally short routes, start near the top left.
    """
    maze = generate_braid(12, 16, seed=4, braid=0.3)
    cells = maze.cells.copy()
    cells[0, :] = 0
    cells[-1, :] = 0
    start, goal = (3, 1), (9, 19)
    return _text(cells, [start], [goal])


def weighted_swamp() -> str:
    """A room whose straight route crosses a swamp (weights 5-9); the dry detour is 20 steps longer.

    Every path with the fewest steps stays in the row of S and G and so wades through the swamp:
    breadth-first search pays for it, Dijkstra and A* walk around below.
    """
    height, width = 15, 41
    cells = np.ones((height, width), dtype=np.uint8)
    cells[0, :] = cells[-1, :] = cells[:, 0] = cells[:, -1] = 0
    rows, cols = np.mgrid[0:height, 0:width]
    swamp = (rows >= 1) & (rows <= 10) & (cols >= 16) & (cols <= 24)
    cells[swamp] = (5 + (rows * 7 + cols * 3) % 5)[swamp]
    mud = (rows >= 11) & (cols >= 12) & (cols <= 28) & ((rows + cols) % 4 == 0)
    cells[mud & (cells == 1)] = 2
    cells[4:11, 8] = 0  # reeds: walls that shape the approach
    cells[4:11, 32] = 0
    return _text(cells, [(3, 2)], [(3, 38)])


def rooms() -> str:
    """Rooms of 9 x 9 cells with doors between all neighbours and a few pillars: 61 x 31.

    Open space and many routes: uniform-cost search floods every room before it reaches the far
    corner, A* with the Manhattan distance heads straight there.
    """
    rng = np.random.default_rng(2024)
    room_rows, room_cols, pitch = 3, 6, 10
    height, width = room_rows * pitch + 1, room_cols * pitch + 1
    cells = np.ones((height, width), dtype=np.uint8)
    cells[::pitch, :] = 0
    cells[:, ::pitch] = 0
    for i in range(room_rows):
        for j in range(room_cols):
            top, left = i * pitch, j * pitch
            if j + 1 < room_cols:  # a door in the east wall
                at, size = int(rng.integers(1, 8)), int(rng.integers(1, 3))
                cells[top + at : top + at + size, left + pitch] = 1
            if i + 1 < room_rows:  # a door in the south wall
                at, size = int(rng.integers(1, 8)), int(rng.integers(1, 3))
                cells[top + pitch, left + at : left + at + size] = 1
            for _ in range(int(rng.integers(0, 4))):  # pillars away from the walls
                r, c = (int(x) for x in rng.integers(3, pitch - 2, size=2))
                cells[top + r, left + c] = 0
    return _text(cells, [(2, 2)], [(height - 3, width - 3)])


def _text(cells: np.ndarray, starts: list[tuple[int, int]], goals: list[tuple[int, int]]) -> str:
    width = cells.shape[1]
    for r, c in (*starts, *goals):
        cells[r, c] = max(1, int(cells[r, c]))  # an end is never a wall
    maze = GridMaze(cells, [r * width + c for r, c in starts], [r * width + c for r, c in goals])
    return maze_to_text(maze)


def _png(maze: GridMaze) -> bytes:
    buffer = io.BytesIO()
    maze_to_image(maze).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def gallery() -> list[tuple[dict[str, str], bytes]]:
    """(gallery entry, file contents) for every maze, in gallery order.

    The large mazes are 999 x 999 pixels: just under a million, a round pixel limit for uploads.
    """
    entries = [
        (
            "seed-lee-example",
            "seed-lee-example.txt",
            "Lee's wavefront example",
            "A small maze like the one in Lee's maze-routing article: watch the numbered wave spread "
            "from S and the path traced back from G.",
            lee_example().encode(),
        ),
        (
            "weighted-swamp",
            "weighted-swamp.txt",
            "Weighted swamp",
            "The shortest route in steps wades through a swamp of costly cells, so breadth-first "
            "search and Dijkstra find paths of different cost.",
            weighted_swamp().encode(),
        ),
        (
            "rooms",
            "rooms.txt",
            "Rooms",
            "Open rooms joined by doors, where A* heads for the goal while Dijkstra floods every room.",
            rooms().encode(),
        ),
        (
            "perfect-small",
            "perfect-small.png",
            "Perfect maze, small",
            "A 20 x 20 cell perfect maze (one path between any two cells), entered at the top and left "
            "at the bottom.",
            _png(generate_perfect(20, 20, seed=1)),
        ),
        (
            "braid-small",
            "braid-small.png",
            "Braid maze, small",
            "A 20 x 20 cell maze without dead ends: many loops, so depth-first search wanders.",
            _png(generate_braid(20, 20, seed=2)),
        ),
        (
            "perfect-large",
            "perfect-large.png",
            "Perfect maze, large",
            "A 499 x 499 cell perfect maze (999 x 999 pixels) for comparing algorithms at scale.",
            _png(generate_perfect(499, 499, seed=3)),
        ),
        (
            "braid-large",
            "braid-large.png",
            "Braid maze, large",
            "A 499 x 499 cell braid maze (999 x 999 pixels): loops everywhere and no dead end.",
            _png(generate_braid(499, 499, seed=4)),
        ),
    ]
    from scripts.make_labyrinths import gallery_items
    from scripts.make_sliding_boards import gallery_items as sliding_boards
    from scripts.make_small_boards import gallery_items as small_boards

    grids = [
        ({"name": n, "file": f, "family": "grid", "title": t, "description": d}, data)
        for n, f, t, d, data in entries
    ]
    return grids + gallery_items() + small_boards() + sliding_boards()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report files that differ; write nothing")
    args = parser.parse_args(argv)
    items = gallery()
    index = [entry for entry, _ in items]
    files = {entry["file"]: data for entry, data in items}
    files["gallery.json"] = (json.dumps(index, indent=2) + "\n").encode()
    changed = [name for name, data in files.items() if _read(MAZES / name) != data]
    if args.check:
        for name in changed:
            print(f"would change: mazes/{name}")
        return 1 if changed else 0
    MAZES.mkdir(exist_ok=True)
    for name in changed:
        (MAZES / name).write_bytes(files[name])
        print(f"wrote mazes/{name}")
    return 0


def _read(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


if __name__ == "__main__":
    sys.exit(main())
