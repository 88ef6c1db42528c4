"""The search view of a Zenji board.

A state is "the water has just entered tile ``cell``, turned ``rot`` quarter turns", packed as
``cell * 4 + rot``; under free flow the set of tiles the water already passes is packed above it
(``used << 12 | cell * 4 + rot``), because a tile is turned once and used at most once. The start
is the source (never turned); a goal is any state on the drain.

Costs: entering a tile turned ``rot`` times costs ``rot * scale + 1`` with ``scale`` = tiles on
the board + 1, so a path's cost is ``turns * scale + tiles``: every engine, knowing one number,
minimises quarter turns first and breaks ties by the shorter path; results report both apart.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ...i18n import t
from ...search.costs import cost_text
from ...search.problem import Problem
from .model import INLET, OUTLET, STEPS, ZenjiBoard, turned

if TYPE_CHECKING:  # types only: the rules run without numpy in the page (``student_rules``)
    import numpy as np

#: ``relaxed`` is the default; ``seed`` is seed 001's estimate, kept to show an inadmissible one.
HEURISTICS = ("relaxed", "distance", "zero", "seed")
INADMISSIBLE = frozenset({"seed"})
CELL_BITS = 12  # cell * 4 + rot < 4,096 for boards of up to 32 x 32 tiles
DOWNHILL_SIDES = (1, 2)  # water leaves by the east or the south side only

#: The heuristic lab's names (``Lab.features``). A formula is in quarter turns, the unit of the
#: family's ``cost``: the lab judges it against the fewest turns still needed, and the heuristic
#: "yours" multiplies it by the packed cost's scale (``turns_formula``).
FEATURES = (
    ("row", "zenji.row_tile_water_has_reached"),
    ("col", "zenji.column_that_tile"),
    ("goal_row", "zenji.drain_row"),
    ("goal_col", "zenji.drain_column"),
    ("dr", "zenji.row_goal_row_rows_still"),
    ("dc", "zenji.col_goal_col_columns_still"),
    ("rot", "zenji.quarter_turns_given_tile_water"),
    ("relaxed", "zenji.built_in_relaxed_estimate_in"),
)


class ZenjiProblem(Problem):
    unit_costs = False
    heuristics = HEURISTICS
    inadmissible_heuristics = INADMISSIBLE

    def __init__(self, board: ZenjiBoard, flow: str) -> None:
        self.board = board
        self.flow = flow
        self.free = flow == "free"
        self.has_snapshots = self.free  # the page shades the tiles the expanded state's water passes
        cols, cells = board.cols, board.rows * board.cols
        self.scale = cells + 1
        self.source = board.source[0] * cols + board.source[1]
        self.drain = board.drain[0] * cols + board.drain[1]
        self.sides = (0, 1, 2, 3) if self.free else DOWNHILL_SIDES
        # neighbour[cell][side]: the cell beyond that side, or -1 off the board
        self.neighbour = [
            [
                (r + dr) * cols + (c + dc) if 0 <= r + dr < board.rows and 0 <= c + dc < cols else -1
                for dr, dc in STEPS
            ]
            for r in range(board.rows)
            for c in range(cols)
        ]
        # Each tile's distinct orientations, cheapest first (a straight pipe turned twice looks the
        # same as unturned: only rotation 0 is kept). The source and the drain never turn.
        self.shapes: list[list[tuple[int, tuple[int, ...]]]] = []
        for cell, tile in enumerate(board.tiles):
            seen: dict[tuple[int, ...], int] = {}
            for rot in (0,) if board.is_fixed(cell) else (0, 1, 2, 3):
                seen.setdefault(turned(tile, rot), rot)
            self.shapes.append([(rot, shape) for shape, rot in seen.items()])
        self.shape_of = [dict(options) for options in self.shapes]
        self._relaxed = self._relaxed_costs()

    # ---- states ------------------------------------------------------------------------------------
    def pack(self, cell: int, rot: int, used: int = 0) -> int:
        return (used << CELL_BITS) | (cell * 4 + rot)

    def unpack(self, state: int) -> tuple[int, int, int]:
        """(cell, rot, used tiles as a bit set; 0 under downhill flow)."""
        low = state & ((1 << CELL_BITS) - 1)
        return low >> 2, low & 3, state >> CELL_BITS

    def initial_states(self) -> list[int]:
        return [self.pack(self.source, 0, 1 << self.source if self.free else 0)]

    def is_goal(self, state: int) -> bool:
        return (state & ((1 << CELL_BITS) - 1)) >> 2 == self.drain

    def successors(self, state: int) -> Iterator[tuple[int, float]]:
        cell, rot, used = self.unpack(state)
        shape = self.shape_of[cell][rot]
        for side in self.sides:
            nxt = self.neighbour[cell][side]
            if nxt < 0 or shape[side] != OUTLET or (self.free and used >> nxt & 1):
                continue
            facing = (side + 2) % 4
            now_used = used | (1 << nxt) if self.free else 0
            for nrot, nshape in self.shapes[nxt]:
                if nshape[facing] == INLET:
                    yield self.pack(nxt, nrot, now_used), float(nrot * self.scale + 1)

    def goal_states(self) -> list[int]:
        if self.free:
            raise NotImplementedError("under free flow a goal state holds the tiles the water passed")
        return [self.pack(self.drain, 0)]

    def predecessors(self, state: int) -> Iterator[tuple[int, float]]:
        cell, rot, used = self.unpack(state)
        shape = self.shape_of[cell][rot]
        cost = float(rot * self.scale + 1)
        before = used & ~(1 << cell) if self.free else 0
        for side in range(4):
            if shape[side] != INLET:
                continue
            prev = self.neighbour[cell][side]
            out_side = (side + 2) % 4  # the side of ``prev`` the water left by
            if prev < 0 or out_side not in self.sides or (self.free and not before >> prev & 1):
                continue
            for prot, pshape in self.shapes[prev]:
                if pshape[out_side] == OUTLET:
                    yield self.pack(prev, prot, before), cost

    # ---- heuristics ----------------------------------------------------------------------------------
    def _relaxed_costs(self) -> list[float]:
        """cost[cell]: the least a path that enters ``cell`` can still cost to reach the drain when each
        tile may take its cheapest usable orientation independently (backward Dijkstra over cells)."""
        cheapest = [math.inf] * len(self.shapes)
        for cell, options in enumerate(self.shapes):
            for rot, shape in options:
                has_in = any(shape[s] == INLET and (s + 2) % 4 in self.sides for s in range(4))
                has_out = any(shape[s] == OUTLET for s in self.sides)
                if has_in and has_out:
                    cheapest[cell] = min(cheapest[cell], rot * self.scale + 1)
        cost = [math.inf] * len(self.shapes)
        cost[self.drain] = 1.0
        heap = [(1.0, self.drain)]
        while heap:
            d, cell = heapq.heappop(heap)
            if d > cost[cell]:
                continue
            for side in self.sides:  # ``prev`` sends water across its ``side`` into ``cell``
                prev = self.neighbour[cell][(side + 2) % 4]
                if prev < 0 or prev == self.source:
                    continue
                candidate = cheapest[prev] + d
                if candidate < cost[prev]:
                    cost[prev] = candidate
                    heapq.heappush(heap, (candidate, prev))
        return cost

    def heuristic(self, state: int, name: str) -> float:
        """Estimated cost (in the packed units) from ``state`` to the drain; see docs/ZENJI.md.

        ``relaxed``: the cheapest way on from each open outlet when every later tile takes its cheapest
        usable orientation on its own (admissible and consistent). ``distance``: tiles still to pass,
        at least the Manhattan distance (admissible). ``seed``: seed 001's 2 x distance in turns (not
        admissible: it assumes every tile needs turning). ``zero``: none.
        """
        cell, rot, used = self.unpack(state)
        if cell == self.drain or name == "zero":
            return 0.0
        dr, dc = self.board.drain
        r, c = divmod(cell, self.board.cols)
        distance = abs(dr - r) + abs(dc - c)
        if name == "distance":
            return float(distance)
        if name == "seed":
            return float(2 * distance * self.scale)
        shape = self.shape_of[cell][rot]
        best = math.inf
        for side in self.sides:
            nxt = self.neighbour[cell][side]
            if nxt >= 0 and shape[side] == OUTLET and not (self.free and used >> nxt & 1):
                best = min(best, self._relaxed[nxt])
        return best

    def features(self, states: Sequence[int]) -> dict[str, np.ndarray]:
        """The lab's features of ``states`` (``FEATURES``); turns, not the packed cost units."""
        import numpy as np  # here only: the rules run without numpy in the page

        low = np.fromiter((s & ((1 << CELL_BITS) - 1) for s in states), dtype=np.int64, count=len(states))
        cell, rot = np.divmod(low, 4)
        row, col = np.divmod(cell, self.board.cols)
        goal_row, goal_col = self.board.drain
        # floor(R / scale) is the turns part of the relaxed bound R = turns * scale + tiles (tiles < scale).
        relaxed = np.fromiter((self.heuristic(s, "relaxed") for s in states), dtype=np.float64,
                              count=len(states))
        # Out of reach: a finite number above any solution's turns (3 a tile at most), so formulas
        # stay numbers (the lab counts inf as no estimate) and still rank such states last.
        relaxed = np.where(np.isfinite(relaxed), np.floor(relaxed / self.scale), 3.0 * len(self.shapes) + 1)
        n = len(states)
        return {
            "row": row.astype(np.float64), "col": col.astype(np.float64),
            "goal_row": np.full(n, float(goal_row)), "goal_col": np.full(n, float(goal_col)),
            "dr": np.abs(row - goal_row).astype(np.float64), "dc": np.abs(col - goal_col).astype(np.float64),
            "rot": rot.astype(np.float64), "relaxed": relaxed,
        }

    # ---- the page ------------------------------------------------------------------------------------
    def board_cell(self, state: int) -> int:
        return (state & ((1 << CELL_BITS) - 1)) >> 2  # the tile, whatever its turn and the tiles used

    def cell_of(self, state: int) -> int:
        return state & ((1 << CELL_BITS) - 1)  # cell * 4 + rot: docs/PROTOCOL.md

    def state_to_json(self, state: int) -> list[int]:
        cell, rot, _ = self.unpack(state)
        return [*divmod(cell, self.board.cols), rot]

    def cost_in_words(self, cost: float) -> str:
        turns, tiles = self.split_cost(cost)
        return t(
            "zenji.cost_quarter_turns_tiles",
            cost_text=cost_text(round(cost)),
            turns=turns,
            scale=self.scale,
            tiles=tiles,
        )

    def student_state(self, state: int) -> list[int]:
        """(row, col, rotation); under free flow also the used tiles' bit set, which tells states apart."""
        cell, rot, used = self.unpack(state)
        return [*divmod(cell, self.board.cols), rot, *([used] if self.free else [])]

    def snapshot(self, state: int) -> dict[str, Any]:
        _, _, used = self.unpack(state)
        cells = []
        while used:
            low = used & -used
            cells.append(low.bit_length() - 1)
            used ^= low
        return {"used": cells}

    def split_cost(self, cost: float) -> tuple[int, int]:
        """(quarter turns, tiles) of a packed path cost."""
        turns, tiles = divmod(round(cost), self.scale)
        return turns, tiles

    # ---- student mode: these rules rebuilt in the page (server/code_rules.py) -----------------------
    def student_rules(self) -> dict[str, Any]:
        """The plain data ``from_student_rules`` rebuilds this problem from (JSON)."""
        board = self.board
        return {"rows": board.rows, "cols": board.cols, "tiles": [list(t) for t in board.tiles],
                "source": list(board.source), "drain": list(board.drain), "flow": self.flow}


def from_student_rules(data: dict[str, Any]) -> ZenjiProblem:
    """The problem of ``ZenjiProblem.student_rules``' data, built without numpy (student mode runs it in
    the page's Python)."""
    tiles = tuple(tuple(int(v) for v in tile) for tile in data["tiles"])
    board = ZenjiBoard(int(data["rows"]), int(data["cols"]), tiles,  # type: ignore[arg-type]
                       (int(data["source"][0]), int(data["source"][1])),
                       (int(data["drain"][0]), int(data["drain"][1])), str(data["flow"]))
    return ZenjiProblem(board, str(data["flow"]))
