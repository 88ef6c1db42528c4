"""The search view of a sliding-tile board (docs/SLIDING.md): a state is the ``bytes`` of the tiles.

Successors in a fixed order, the blank going U, D, L, R; every move costs 1 and is undone by the
opposite move, so predecessors are the successors. Heuristics, all admissible (tests/test_sliding.py
checks them against exact distances over the whole 8-puzzle):

* ``manhattan`` (h2): the sum over tiles of rows plus columns between a tile's cell and its goal cell;
  a move carries one tile one cell.
* ``misplaced`` (h1): tiles not on their goal cell; each needs at least one move.
* ``linear_conflict``: Manhattan plus 2 for each tile that must leave its goal row (or column) so the
  others in that line can pass each other. Per line: the tiles already in their goal line, minus the
  longest run of them already in goal order (a longest increasing subsequence), is the fewest that
  must step out; each costs 2 moves beyond Manhattan (out and back), and stepping out of a row is a
  vertical move, which the column's count never asks for, so rows and columns add (Hansson, Mayer &
  Yung 1992). The greedy "remove the most conflicted tile" count some programs use can exceed that
  minimum; the subsequence cannot.
* ``pdb``: the fast path's additive pattern databases (``pdb.py``), offered for n = 4 when importable.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import factorial
from typing import TYPE_CHECKING, Any

from ...search.problem import Problem
from .model import MOVES, SlidingBoard

if TYPE_CHECKING:
    import numpy as np

BASE_HEURISTICS = ("manhattan", "misplaced", "linear_conflict")

#: The heuristic lab's names (``Lab.features``), in the order the page lists them.
FEATURES = (
    ("misplaced", "sliding.tiles_not_on_their_goal"),
    ("manhattan", "sliding.sum_each_tile_rows_plus"),
    ("linear_conflict", "sliding.manhattan_2_for_each_tile"),
    ("blank_row", "sliding.blank_row_0_at_top"),
    ("blank_col", "sliding.blank_column_0_at_left"),
)


def pdb_available(n: int) -> bool:
    """Whether the pattern databases of ``server/puzzles/sliding/pdb.py`` (the fast path's helper) serve
    an n x n board (``pdb.available``: the 8- and 15-puzzle). Imported lazily: without pdb.py, no ``pdb``."""
    try:
        from . import pdb
    except ImportError:
        return False
    return bool(pdb.available(n))


def heuristics_for(n: int) -> tuple[str, ...]:
    return BASE_HEURISTICS + (("pdb",) if pdb_available(n) else ())


def neighbours(n: int) -> list[list[tuple[str, int]]]:
    """For each blank cell, the (move, cell the blank goes to) pairs in U, D, L, R order."""
    table = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        table.append([(name, (r + dr) * n + c + dc) for name, dr, dc in MOVES
                      if 0 <= r + dr < n and 0 <= c + dc < n])
    return table


def manhattan_table(n: int, goal: bytes) -> list[list[int]]:
    """``table[cell][tile]``: rows plus columns from ``cell`` to ``tile``'s goal cell (0 for the blank)."""
    where = {tile: divmod(cell, n) for cell, tile in enumerate(goal)}
    return [[0 if tile == 0 else abs(cell // n - where[tile][0]) + abs(cell % n - where[tile][1])
             for tile in range(n * n)] for cell in range(n * n)]


def _longest_increasing(values: list[int]) -> int:
    """Length of the longest strictly increasing subsequence (lines have at most 5 tiles)."""
    best = [1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
    return max(best, default=0)


def permutation_rank(tiles: bytes) -> int:
    """The lexicographic rank of ``tiles`` among all orders of its numbers (0 .. n²!-1): Lehmer's code."""
    rank = 0
    rest = sorted(tiles)
    size = len(tiles)
    for i, tile in enumerate(tiles):
        smaller = rest.index(tile)
        rank += smaller * factorial(size - 1 - i)
        rest.pop(smaller)
    return rank


class SlidingProblem(Problem):
    """Moves of the blank on an n x n board, each costing 1, from ``board.tiles`` to ``board.goal``."""

    unit_costs = True
    has_snapshots = True

    def __init__(self, board: SlidingBoard) -> None:
        self.board = board
        self.n = n = board.n
        self.goal = board.goal
        self.heuristics = heuristics_for(n)
        self.moves = neighbours(n)
        self.md = manhattan_table(n, board.goal)
        self.goal_row = [0] * (n * n)
        self.goal_col = [0] * (n * n)
        for cell, tile in enumerate(board.goal):
            self.goal_row[tile], self.goal_col[tile] = divmod(cell, n)
        self._pdb: Any = None

    # ---- the search interface ---------------------------------------------------------------------
    def initial_states(self) -> list[bytes]:
        return [self.board.tiles]

    def is_goal(self, state: bytes) -> bool:
        return state == self.goal

    def successors(self, state: bytes) -> Iterator[tuple[bytes, float]]:
        blank = state.index(0)
        for _name, cell in self.moves[blank]:
            board = bytearray(state)
            board[blank], board[cell] = board[cell], 0
            yield bytes(board), 1.0

    def goal_states(self) -> list[bytes]:
        return [self.goal]

    def predecessors(self, state: bytes) -> Iterator[tuple[bytes, float]]:
        return self.successors(state)  # every move is undone by the opposite one, at the same cost

    def move_between(self, a: bytes, b: bytes) -> str | None:
        """The blank's move (U, D, L, R) from board ``a`` to board ``b``, or None when no move does it."""
        blank = a.index(0)
        for name, cell in self.moves[blank]:
            if b[blank] == a[cell] and b[cell] == 0 and sum(x != y for x, y in zip(a, b, strict=True)) == 2:
                return name
        return None

    # ---- heuristics --------------------------------------------------------------------------------
    def heuristic(self, state: bytes, name: str) -> float:
        if name == "manhattan":
            return float(self.manhattan(state))
        if name == "misplaced":
            return float(sum(1 for a, b in zip(state, self.goal, strict=True) if a and a != b))
        if name == "linear_conflict":
            return float(self.manhattan(state) + 2 * self.conflicts(state))
        if name == "pdb":
            return float(self._pattern_databases()(state))
        return 0.0

    def manhattan(self, state: bytes) -> int:
        return sum(row[tile] for row, tile in zip(self.md, state, strict=True))

    def conflicts(self, state: bytes) -> int:
        """Tiles that must step out of their goal line, over all rows and columns (module docstring)."""
        n, goal_row, goal_col = self.n, self.goal_row, self.goal_col
        out = 0
        for line in range(n):
            in_row = [goal_col[t] for t in state[line * n : (line + 1) * n] if t and goal_row[t] == line]
            if len(in_row) > 1:
                out += len(in_row) - _longest_increasing(in_row)
            in_col = [goal_row[t] for t in state[line::n] if t and goal_col[t] == line]
            if len(in_col) > 1:
                out += len(in_col) - _longest_increasing(in_col)
        return out

    def _pattern_databases(self) -> Any:
        """``pdb.heuristic(goal, n)``: a function of a board's bytes (tables built on first use)."""
        if self._pdb is None:
            from . import pdb

            self._pdb = pdb.heuristic(self.goal, self.n)
        return self._pdb

    # ---- the page and the lab ----------------------------------------------------------------------
    def cell_of(self, state: bytes) -> int:
        return state.index(0)  # the blank's cell; the page draws the board from the snapshot

    def board_cell(self, state: bytes) -> int:
        return state.index(0)  # the lab's heat map: each state on its blank's cell

    def snapshot(self, state: bytes) -> dict[str, Any]:
        out: dict[str, Any] = {"tiles": list(state)}
        if self.n == 3:
            out["rank"] = permutation_rank(state)
        return out

    def state_to_json(self, state: bytes) -> list[int]:
        return list(state)

    def features(self, states: Sequence[bytes]) -> dict[str, np.ndarray]:
        """The lab's features (``FEATURES``) of ``states``, vectorised where numpy can."""
        import numpy as np  # here only: the rules run without numpy in the page (``student_rules``)

        cells = self.n * self.n
        count = len(states)
        boards = np.frombuffer(b"".join(states), dtype=np.uint8).reshape(count, cells)
        goal = np.frombuffer(self.goal, dtype=np.uint8)
        misplaced = ((boards != goal) & (boards != 0)).sum(axis=1)
        table = np.asarray(self.md, dtype=np.int64)  # [cell, tile]
        manhattan = table[np.arange(cells), boards].sum(axis=1)
        conflicts = np.fromiter((self.conflicts(s) for s in states), dtype=np.int64, count=count)
        blank = np.argmax(boards == 0, axis=1)
        return {
            "misplaced": misplaced.astype(np.float64),
            "manhattan": manhattan.astype(np.float64),
            "linear_conflict": (manhattan + 2 * conflicts).astype(np.float64),
            "blank_row": (blank // self.n).astype(np.float64),
            "blank_col": (blank % self.n).astype(np.float64),
        }

    def describe(self) -> dict[str, Any]:
        return {"n": self.n, "goal": list(self.goal)}

    # ---- student mode: these rules rebuilt in the page (server/code_rules.py) -----------------------
    def student_rules(self) -> dict[str, Any]:
        """The plain data ``from_student_rules`` rebuilds this problem from (JSON)."""
        return {"n": self.n, "tiles": list(self.board.tiles), "goal": list(self.goal)}


def from_student_rules(data: dict[str, Any]) -> SlidingProblem:
    """The problem of ``SlidingProblem.student_rules``' data, built without numpy (student mode runs it in
    the page's Python). The ``pdb`` heuristic's tables stay on the server: not offered there."""
    return SlidingProblem(SlidingBoard(int(data["n"]), bytes(data["tiles"]), bytes(data["goal"])))
