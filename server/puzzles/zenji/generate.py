"""Random solvable Zenji boards: a water path laid first, its tiles scrambled, the rest random pipes."""

from __future__ import annotations

import random

from ...i18n import t
from ..capabilities import Maker
from ..errors import PuzzleError
from ..making import Generated, GeneratorKind, size_options
from ..options import Values
from .model import CLOSED, DRAIN, INLET, OUTLET, SOURCE, STEPS, Tile, ZenjiBoard, turned


def random_board(rows: int, cols: int, seed: int, flow: str = "downhill") -> ZenjiBoard:
    """A board with the source top-left and the drain bottom-right that has a solution under ``flow``
    (the path it was built from; search may find a cheaper one)."""
    rng = random.Random(seed)
    path = _downhill_path(rng, rows, cols) if flow == "downhill" else _free_path(rng, rows, cols)
    sides: list[list[int]] = [[CLOSED] * 4 for _ in range(rows * cols)]
    on_path = set(path)
    for cell in range(rows * cols):
        if cell not in on_path:
            sides[cell] = _random_pipe(rng)
    for index, cell in enumerate(path):
        if index > 0:
            sides[cell][_side_towards(path[index], path[index - 1], cols)] = INLET
        if index + 1 < len(path):
            sides[cell][_side_towards(path[index], path[index + 1], cols)] = OUTLET
    source, drain = path[0], path[-1]
    for side in range(4):  # the source's and the drain's other sides
        if sides[source][side] == CLOSED:
            sides[source][side] = SOURCE if side in (0, 3) else rng.choice((CLOSED, OUTLET))
        if sides[drain][side] == CLOSED:
            sides[drain][side] = DRAIN if side in (1, 2) else rng.choice((CLOSED, INLET))
    for cell in path[1:-1]:  # distractors on the path's tiles, then a random scramble
        for side in range(4):
            if sides[cell][side] == CLOSED and rng.random() < 0.35:
                sides[cell][side] = rng.choice((INLET, OUTLET))
    tiles: list[Tile] = []
    for cell, tile in enumerate(sides):
        fixed = cell in (source, drain)
        tiles.append(tuple(tile) if fixed else turned(tuple(tile), rng.randrange(4)))  # type: ignore[arg-type]
    return ZenjiBoard(
        rows,
        cols,
        tuple(tiles),
        (0, 0),
        (rows - 1, cols - 1),
        flow,
        f"zenji-{flow}-{rows}x{cols}-{seed}",
        "generated",
    )


def _random_pipe(rng: random.Random) -> list[int]:
    """A pipe with at least one inlet and one outlet (so water could pass it), the other sides random."""
    tile = [
        INLET,
        OUTLET,
        rng.choice((CLOSED, CLOSED, INLET, OUTLET)),
        rng.choice((CLOSED, CLOSED, INLET, OUTLET)),
    ]
    rng.shuffle(tile)
    return tile


def _side_towards(cell: int, other: int, cols: int) -> int:
    r, c = divmod(cell, cols)
    orow, ocol = divmod(other, cols)
    return STEPS.index((orow - r, ocol - c))


def _downhill_path(rng: random.Random, rows: int, cols: int) -> list[int]:
    moves = ["E"] * (cols - 1) + ["S"] * (rows - 1)
    rng.shuffle(moves)
    r = c = 0
    path = [0]
    for move in moves:
        r, c = (r, c + 1) if move == "E" else (r + 1, c)
        path.append(r * cols + c)
    return path


def _free_path(rng: random.Random, rows: int, cols: int) -> list[int]:
    """A random simple path from the top-left to the bottom-right: the path between them in a random
    spanning tree of the board (randomised depth-first), so it winds, and takes linear time (a
    self-avoiding random walk that backtracks can take exponential time on large boards)."""
    goal = rows * cols - 1
    parent = {0: -1}
    stack = [0]
    while stack:
        cell = stack[-1]
        fresh = [n for n in _shuffled_neighbours(rng, cell, rows, cols) if n not in parent]
        if not fresh:
            stack.pop()
            continue
        parent[fresh[0]] = cell
        stack.append(fresh[0])
    path = [goal]
    while path[-1] != 0:
        path.append(parent[path[-1]])
    return path[::-1]


def _shuffled_neighbours(rng: random.Random, cell: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(cell, cols)
    out = [(r + dr) * cols + c + dc for dr, dc in STEPS if 0 <= r + dr < rows and 0 <= c + dc < cols]
    rng.shuffle(out)
    return out


MAX_GENERATED = 16  # tiles a side of a generated board: free flow is searched in a second up to 16 x 16
_SIZE = size_options((1, 5, MAX_GENERATED), (1, 5, MAX_GENERATED), "tiles")
GENERATORS = (
    GeneratorKind("zenji-downhill", "zenji.zenji_downhill_flow",
                  "zenji.water_path_east_and_south", _SIZE),
    GeneratorKind("zenji-free", "zenji.zenji_free_flow",
                  "zenji.winding_water_path_in_any", _SIZE),
)


class ZenjiMaker(Maker):
    """Solvable boards: a water path laid first, its tiles scrambled (``random_board``)."""

    generators = GENERATORS

    def generate(self, kind: str, values: Values, steps: bool = False) -> Generated:
        self.generator(kind)
        rows, cols, seed = values["rows"], values["cols"], values["seed"]
        if rows * cols < 2:
            raise PuzzleError(t("zenji.zenji_board_needs_at_least"),
                              t("zenji.option_cols"))
        board = random_board(rows, cols, seed, kind.removeprefix("zenji-"))
        return Generated(
            board, t("zenji.zenji_board_x_tiles_flow", rows=rows, cols=cols, flow=board.flow, seed=seed)
        )
