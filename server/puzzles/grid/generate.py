"""Grid maze generators (``generate_grid`` and its kinds) and the writers for images and text.

The maze kinds (perfect, prim, kruskal, division, braid, rooms) make ``rows`` x ``cols`` cells on
the pixel lattice of the mikepound mazes: a (2 rows + 1) x (2 cols + 1) board where cell (i, j) is
the pixel (2i + 1, 2j + 1), walls and corridors are one pixel wide, and the outer border is wall
except two openings: the start above the first cell of the top row, the goal below the last cell
of the bottom row. The board kinds (random, terrain) make a ``rows`` x ``cols`` board directly,
start at the top-left cell and goal at the bottom-right one.

Randomness comes from numpy's PCG64 seeded with ``seed`` (and a number per kind) and is drawn
*before* the compiled kernels run, so a seed gives the same maze on every machine and numba
version. The kernels live in ``generate_lattice.py`` and ``generate_open.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image

from ...i18n import t
from ..capabilities import Maker
from ..errors import PuzzleError, show_value
from ..making import Generated, GeneratorKind, size_options
from ..options import Option, Values
from .model import WALL, GridMaze

MAX_CELLS = 100_000_000  # 20001 x 20001 pixels: beyond that the image alone is over 400 MB
MAX_DENSITY = 0.6

GRID_KINDS: tuple[str, ...] = (
    "perfect",
    "prim",
    "kruskal",
    "division",
    "braid",
    "rooms",
    "random",
    "terrain",
)

_ALGORITHMS = {
    "perfect": "grid.recursive_backtracker_randomised_depth_first",
    "prim": "grid.randomised_prim",
    "kruskal": "grid.randomised_kruskal",
    "division": "grid.recursive_division",
    "braid": "grid.recursive_backtracker_every_dead_end",
    "rooms": "grid.recursive_division_down_rooms_up",
}


_LATTICE = "grid.2_x_rows_1_by"
_MAZE_SIZE = size_options((1, 20, 1000), (1, 20, 1000), "grid.maze_cells")
_BOARD_SIZE = size_options((2, 40, 2000), (2, 40, 2000), "grid.board_cells_2")
GENERATORS = (
    GeneratorKind("perfect", "grid.perfect_maze_recursive_backtracker",
                  "grid.long_winding_corridors_exactly_one", _MAZE_SIZE, _LATTICE),
    GeneratorKind("prim", "grid.perfect_maze_prim", "grid.many_short_dead_ends_one",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("kruskal", "grid.perfect_maze_kruskal", "grid.even_texture_one_path_between",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("division", "grid.perfect_maze_recursive_division",
                  "grid.long_straight_walls_each_with",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("braid", "grid.braid_maze", "grid.perfect_maze_with_every_dead",
                  _MAZE_SIZE, _LATTICE),
    GeneratorKind("rooms", "grid.kind.rooms", "grid.open_rooms_joined_by_doors", _MAZE_SIZE, _LATTICE),
    GeneratorKind("random", "grid.random_walls", "grid.each_cell_wall_by_chance", (
        *_BOARD_SIZE,
        Option("density", "float", "grid.wall_density", "grid.share_cells_that_are_walls",
               default=0.3, min=0.0, max=0.6, step=0.05),
    )),
    GeneratorKind("terrain", "grid.weighted_terrain",
                  "grid.free_cells_costing_1_9",
                  _BOARD_SIZE),
)


@dataclass
class Generation:
    """A generated maze and how it was made: replaying ``steps`` on a board of ``initial_fill``
    gives ``maze.cells``."""

    maze: GridMaze  # with starts and goals set
    initial_fill: int  # the value of every cell before the first step (0 = wall, 1 = free)
    steps: np.ndarray  # int32 (n, 2): (flat cell index, new value) in the order the generator made them
    description: str  # one line, e.g. "prim maze, 20 x 30 cells, seed 7"


def generate_grid(
    kind: str, rows: int, cols: int, seed: int = 1, density: float | None = None, *, record: bool = True
) -> Generation:
    """A maze of the given kind (one of GRID_KINDS), with the steps that animate its making.

    ``density`` is used by ``random`` (chance of a wall per cell, default 0.3) and ``terrain``
    (share of the board, the highest ground, that is rock, default 0.1), 0..0.6; the other kinds
    ignore it. ``record=False`` skips the steps (an empty array), for the CLI and huge boards.
    """
    if kind not in GRID_KINDS:
        raise PuzzleError(
            t("grid.not_grid_maze_kind_choose", kind=show_value(kind, 40), grid_kinds=", ".join(GRID_KINDS)),
            t("grid.kind"),
        )
    _check_size(rows, cols)
    _check_seed(seed)
    if density is not None:
        _check_density(density)
    rows, cols, seed = int(rows), int(cols), int(seed)
    name = f"{kind}-{rows}x{cols}-seed{seed}"
    # The kernels (numba) load when a maze is made, so a family that only reads files never loads them.
    from . import generate_lattice as lattice
    from . import generate_open as board

    if kind in ("random", "terrain"):
        if kind == "random":
            value = board.RANDOM_DENSITY if density is None else float(density)
            cells, steps, note = board.random_board(rows, cols, seed, value, record)
            description = t(
                "grid.random_board_x_cells_density", rows=rows, cols=cols, value=f"{value:g}", seed=seed
            )
        else:
            value = board.TERRAIN_DENSITY if density is None else float(density)
            cells, steps, note = board.terrain_board(rows, cols, seed, value, record)
            description = t(
                "grid.terrain_x_cells_rock_seed", rows=rows, cols=cols, value=f"{value:g}", seed=seed
            )
        goal = rows * cols - 1
        notes = [f"{description}: {note}", t("grid.start_top_left_cell"), t("grid.goal_bottom_right_cell")]
        maze = GridMaze(cells, [0], [goal], name=name, source="generated", notes=notes)
        return Generation(maze, 1, steps, description)

    description = t("grid.maze_x_cells_seed", kind=kind, rows=rows, cols=cols, seed=seed)
    notes = [f"{description}: {t(_ALGORITHMS[kind], room=lattice.ROOM_CELLS)}"]
    fill = 0
    if kind in ("perfect", "braid"):
        pixels, steps = lattice.backtracker(rows, cols, seed, record)
        if kind == "braid":
            pixels, steps, opened = lattice.braid(pixels, steps, rows, cols, seed, 1.0, record)
            notes[0] += t("grid.dead_ends_opened", opened=opened)
    elif kind == "prim":
        pixels, steps = lattice.prim(rows, cols, seed, record)
    elif kind == "kruskal":
        pixels, steps = lattice.kruskal(rows, cols, seed, record)
    else:  # division, rooms: walls added to an open board, which keeps its two openings
        fill = 1
        ends = (1, (2 * rows + 1) * (2 * cols + 1) - 2)
        pixels, steps = lattice.division(rows, cols, seed, kind == "rooms", ends, record)
    if record:
        steps = np.concatenate([steps, _opening_steps(pixels)])
    return Generation(_with_openings(pixels, name, notes), fill, steps, description)


class GridMaker(Maker):
    """The grid's generators (``GENERATORS``), each recording its steps for the page's animation."""

    generators = GENERATORS

    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        made = generate_grid(kind, values["rows"], values["cols"], values["seed"], values.get("density"),
                             record=steps)
        return Generated(made.maze, made.description, made.initial_fill, made.steps)


def generate_perfect(rows: int, cols: int, seed: int = 0) -> GridMaze:
    """A perfect maze (exactly one path between any two cells): randomised depth-first search.

    The recursive backtracker, written with an explicit stack: long winding corridors, few
    junctions. 2000 x 2000 cells take well under a second once the kernel is compiled (cached).
    """
    from . import generate_lattice as lattice  # numba: loaded when a maze is made

    _check_size(rows, cols)
    pixels, _ = lattice.backtracker(rows, cols, seed, record=False)
    return _with_openings(
        pixels, f"perfect-{rows}x{cols}-seed{seed}", [t("grid.perfect_maze_seed", seed=seed)]
    )


def generate_braid(rows: int, cols: int, seed: int = 0, braid: float = 1.0) -> GridMaze:
    """A perfect maze whose dead ends are opened with probability ``braid`` (1.0: no dead end left).

    Each dead end (a cell with one passage, counting passages inside the maze only) knocks down
    one more of its walls, preferring a neighbour that is a dead end too, which removes two at
    once. With ``braid=1`` no dead end remains unless a dimension is 1 cell.
    """
    if not 0.0 <= braid <= 1.0:
        raise PuzzleError(t("grid.braid_must_be_between_0", braid=braid), t("grid.option_braid"))
    from . import generate_lattice as lattice  # numba: loaded when a maze is made

    _check_size(rows, cols)
    pixels, steps = lattice.backtracker(rows, cols, seed, record=False)
    pixels, _, opened = lattice.braid(pixels, steps, rows, cols, seed, braid, record=False)
    return _with_openings(
        pixels,
        f"braid-{rows}x{cols}-seed{seed}",
        [t("grid.braid_maze_seed_braid_dead", seed=seed, braid=f"{braid:g}", opened=opened)],
    )


def maze_to_image(maze: GridMaze) -> Image.Image:
    """A palette image (index 0 black = wall, 1 white = free), like the mikepound PNGs.

    Weights are not kept: every free cell is white. Openings in the border are free, so white.
    When the ends are not the single openings of the top and bottom border rows (which the image
    reader takes as start and goal), one start and one goal are marked: a blue start pixel and a red
    goal pixel, the reader's marker colours. Other ends (several starts, say) are not written.
    """
    index = (maze.cells != WALL).astype(np.uint8)
    palette = [0, 0, 0, 255, 255, 255]
    single = len(maze.starts) == 1 and len(maze.goals) == 1 and maze.starts[0] != maze.goals[0]
    if single and not _ends_are_openings(maze):
        flat = index.reshape(-1)
        flat[maze.starts] = 2
        flat[maze.goals] = 3
        palette += [0, 0, 255, 255, 0, 0]
    image = Image.frombytes("P", (maze.width, maze.height), index.tobytes())
    image.putpalette(palette)
    return image


def maze_to_text(maze: GridMaze) -> str:
    """The text format: ``#`` wall, ``.`` free, digits for weights 2-9, ``S`` starts, ``G`` goals."""
    chars = np.frombuffer(b"#.23456789", dtype=np.uint8)[np.minimum(maze.cells, 9)]
    flat = chars.reshape(-1)
    flat[maze.starts] = ord("S")
    flat[maze.goals] = ord("G")
    lines = np.concatenate([chars, np.full((maze.height, 1), ord("\n"), dtype=np.uint8)], axis=1)
    return lines.tobytes().decode("ascii")


# --- helpers ------------------------------------------------------------------------------------


def _check_size(rows: int, cols: int) -> None:
    if int(rows) != rows or int(cols) != cols or rows < 1 or cols < 1:
        raise PuzzleError(t("grid.maze_needs_at_least_1", rows=rows, cols=cols), t("grid.option_size"))
    if rows * cols > MAX_CELLS:
        raise PuzzleError(
            t("grid.x_cells_over_limit_cells", rows=rows, cols=cols, max_cells=MAX_CELLS),
            t("grid.option_size"),
        )


def _check_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise PuzzleError(
            t("grid.seed_must_be_whole_number", seed=show_value(seed)), t("grid.option_seed")
        )


def _check_density(density: float) -> None:
    # ``not a <= x <= b`` also refuses NaN.
    if (
        isinstance(density, bool)
        or not isinstance(density, int | float | np.integer | np.floating)
        or not 0 <= density <= MAX_DENSITY
    ):
        raise PuzzleError(
            t(
                "grid.density_must_be_number_from",
                max_density=f"{MAX_DENSITY:g}",
                density=show_value(density),
            ),
            t("grid.option_density"),
        )


def _opening_steps(pixels: np.ndarray) -> np.ndarray:
    """The steps that cut the two openings (none for an opening already free)."""
    height, width = pixels.shape
    ends = np.array([1, (height - 1) * width + width - 2], dtype=np.int32)
    ends = ends[pixels.reshape(-1)[ends] == 0]
    return np.column_stack([ends, np.ones_like(ends)])


def _with_openings(pixels: np.ndarray, name: str, notes: list[str]) -> GridMaze:
    """Open the border above the first top cell (start) and below the last bottom cell (goal)."""
    height, width = pixels.shape
    pixels[0, 1] = 1
    pixels[height - 1, width - 2] = 1
    start = 1
    goal = (height - 1) * width + width - 2
    notes = [*notes, t("grid.start_opening_in_top_border"), t("grid.goal_opening_in_bottom_border")]
    return GridMaze(pixels, [start], [goal], name=name, source="generated", notes=notes)


def _ends_are_openings(maze: GridMaze) -> bool:
    """Would the image reader find these ends as the free pixels of the top and bottom border rows?"""
    if maze.height < 2:
        return False
    top = np.flatnonzero(maze.cells[0] != WALL)
    bottom = np.flatnonzero(maze.cells[-1] != WALL) + (maze.height - 1) * maze.width
    return list(top) == list(maze.starts) and list(bottom) == list(maze.goals)
