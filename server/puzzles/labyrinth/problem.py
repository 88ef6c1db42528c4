"""The shifting-tile labyrinth as a search ``Problem``: one state per player, or one per set of places.

**States.** ``LabState(board, free, player)``: the board (``bytes``), the free tile's code and the
player's position (a cell, ``OUTSIDE`` below the start column, or ``EXITED``). A turn of the free
tile is part of a push, so it needs no field of its own. Every move costs 1.

**Moves** (``PUZZLES.md`` §3, decisions in ``docs/LABYRINTH.md``):

- *combined* (seed 002): an optional push followed by an optional walk, not both empty. Entering
  the board from below and leaving it above the goal column are steps of a walk. Seed 002's
  answer for Puzzle_6 (3 moves: push + enter, push + walk up, push + leave) comes out so.
- *separate* (seed 000's task): one push, or one walk of at least one step.

Pushes are allowed while the player is still outside; they do not move them (they stand below a
column position, not on a tile).

**Heuristic "barriers"** (admissible and consistent; the proof). Call boundary *j* the line
between board rows *j-1* and *j* (boundary 0: above row 0, crossed only by leaving at the goal
column; boundary R: below row R-1, crossed only by entering at the start column). Boundary *j* is
*blocked* when no column has an open pair across it (for 0 and R: when the exit/entry tile is
closed on that side). A player in row *p* (outside: *p = R*) must cross every boundary 0..*p*
upwards, each by a walking step, since a row push never moves anyone vertically. A blocked
boundary can be crossed only after a push of a row touching it (rows *j-1* or *j*), since no
other push changes those tiles. So the pushes still to come must include a set of pushable rows
that *stabs* every blocked boundary in 0..*p*; the smallest such set (*k* rows) is found exactly by
the greedy interval-stabbing rule (by boundary, take the lower row if it is pushable, else the upper
one), and *k* = infinity when some blocked boundary has no pushable row (then no solution exists).
A move holds at most one push, and the puzzle ends with a walk, so at least
``max(1, k)`` combined moves or ``k + 1`` separate moves remain: h never overestimates.
Consistency: take a move s -> s' that pushes row *r* (or nothing) and then walks from row *p* to
*p'*. The walk crossed every boundary between *p'* and *p*, so none of them is blocked after the
push; a boundary blocked before and after the push is stabbed by the stabbing set of s', and one
unblocked by the push touches row *r*. So k(s) <= k(s') + 1 (no push: <= k(s')), hence
h(s) <= 1 + h(s'). With **column pushes** a push can change every row and carry the player up a
row, so the argument only gives k = 1 when any boundary in 0..*p* is blocked; the heuristic
degrades to that (still admissible and consistent).

**Heuristic "relaxed"** (the default; admissible and consistent). Pretend every line (row or
column) pushed from now on becomes all-open ("wild") while all other tiles stay. A real plan that
pushes the lines *X* is then a walk on that relaxed board (tiles off *X* never change; a wild line
is open for every walking step and every carry along it), so k_rel = the fewest lines whose
relaxation joins the player to the exit is a lower bound on the pushes to come; a working *X* must
stab every blocked boundary, so k_rel >= k. We test the stabbing line sets of sizes k ..
k + L - 1 (L = ``RELAXED_LEVELS``, 3) and use min(k_rel, k + L) in place of k. Consistency as above
with "the lines of s' plus the line pushed": k_rel(s) <= k_rel(s') + 1; a minimum of consistent
bounds is consistent.

*The cap on line sets.* The sets of one size number C(lines, size), which doubles with every
pushable line (24 rows: 2.7 million sets of 12), so a size is listed (on first use, then kept) only
when it has at most ``MAX_LINE_SETS`` sets and all sizes up to it fit in ``LINE_SETS_BYTES``. Let S
be the first size (from 0 up) that does not: a constant of the problem (``line_set_sizes``). The
bound used is h_k = max(k, min(k_rel, k + L, S)): the sizes k .. min(k + L, S) - 1 are tested in
order; the first that joins the player to the exit is k_rel (every smaller size was tested and
failed, and no set smaller than k can stab the blocked boundaries, so none joins them in the
relaxation either); if none does, min(k_rel, k + L, S) = min(k + L, S). *Admissible*: k <= k_rel, so
h_k <= k_rel, a lower bound on the pushes to come. *Consistent*: over a move s -> s', each of k_rel,
k + L and the constant S grows by at most 1 backwards (a(s) <= a(s') + 1); so does their minimum
(min_i a_i(s) <= a_j(s) <= a_j(s') + 1 for the j smallest at s') and the maximum of that with k
(max(a(s), b(s)) <= max(a(s'), b(s')) + 1); the moves left, max(1, h_k) or h_k + 1, keep the
property. When no size is over the cap (S = infinity) h_k = min(k_rel, k + L) exactly, as before the
cap: the course's boards and the board game's (at most 14 lines on 14 x 14 fit) keep their values.
Heuristic "trivial": 0 at the goal, else 1.

*Memory.* The listed sets take at most ``LINE_SETS_BYTES``; the caches of the walker (a board's
links) and of the heuristic (bounds, relaxed floods) are cleared when full, at most
``Walker.CACHE_BYTES`` each (the floods: ``RELAXED_CACHE_BYTES``; ``Walker.cache_entries``). So a
problem's own memory is bounded whatever the board, and ``LabyrinthFamily`` estimates a search's
from these figures (``line_set_sizes`` and the ``*_entry_bytes`` functions).

``LabyrinthSetProblem`` is the merged view of ``DESIGN.md``'s hint: a state is
(board, free tile, the set of positions the player could be at after that many moves). Walking is
free within a move, so its optimal cost equals that of the individual view while the number of
states shrinks; ``player_path`` turns its solution back into one player's states.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from functools import reduce
from itertools import combinations, pairwise
from operator import or_
from typing import TYPE_CHECKING, Any, NamedTuple

from ...i18n import t
from ...search.problem import Problem
from .model import (
    DICT_ENTRY_BYTES,
    EXITED,
    OUTSIDE,
    SHAPES,
    TUPLE_BYTES,
    InsertionPoint,
    LabyrinthPuzzle,
    Walker,
    carry,
    orientations,
    position_to_rc,
    push,
    uncarry,
    unpush,
)

if TYPE_CHECKING:  # types only: the rules run without numpy in the page (``student_rules``)
    import numpy as np

HEURISTICS = ("relaxed", "barriers", "trivial")

#: The heuristic lab's names (``Lab.features``). With them the built-in "relaxed" is
#: ``0 if dr + dc == 0 else (pushes + 1 if separate else max(1, pushes))``, and "barriers" the same
#: with ``barriers`` for ``pushes``.
FEATURES = (
    ("row", "labyrinth.player_row_number_rows_while"),
    ("col", "labyrinth.player_column_below_board_start"),
    ("goal_row", "labyrinth.1_goal_leaving_board_above"),
    ("goal_col", "labyrinth.goal_column_above_which_player"),
    ("dr", "labyrinth.row_goal_row_rows_still"),
    ("dc", "labyrinth.col_goal_col_columns_away"),
    ("pushes", "labyrinth.pushes_still_needed_by_built"),
    ("barriers", "labyrinth.pushes_still_needed_open_blocked"),
    ("separate", "labyrinth.1_under_separate_moves_push"),
)


class LabState(NamedTuple):
    board: bytes
    free: int
    player: int


class SetState(NamedTuple):
    board: bytes
    free: int
    places: frozenset[int]


class Push(NamedTuple):
    """One way to push: where, and the tile as it goes in (the free tile, perhaps turned)."""

    point: InsertionPoint
    tile: int


RELAXED_LEVELS = 3  # line-set sizes the relaxed bound tries, from the barrier count k up (L)
#: The relaxed bound lists the sets of lines of one size only when there are at most this many
#: (C(lines, size))...
MAX_LINE_SETS = 20_000
#: ... and while every size listed so far, this one included, takes at most this many bytes.
LINE_SETS_BYTES = 8 * 1024 * 1024
#: The relaxed floods' cache is kept smaller than the others (``Walker.CACHE_BYTES``): an evaluation
#: adds an entry for every line set it tries (a few to hundreds), and it pays only when another state
#: of the same board is evaluated.
RELAXED_CACHE_BYTES = 8 * 1024 * 1024
LIST_SLOT_BYTES = 8
ROW_BITS_BYTES = 36  # an int with a bit per row (up to 64 rows)


def line_set_entry_bytes(walker: Walker) -> int:
    """One listed set of lines: a tuple of its row bits and its wild cells (a place mask), in a list."""
    return TUPLE_BYTES + LIST_SLOT_BYTES + ROW_BITS_BYTES + walker.mask_bytes


def line_set_sizes(lines: int, walker: Walker) -> tuple[int, int]:
    """(S, bytes): S is the first size of line sets (from 0 up) with more than ``MAX_LINE_SETS`` sets
    or past ``LINE_SETS_BYTES`` with every smaller size, never listed (``sys.maxsize`` when every size
    fits: the bound is then exactly the uncapped one); bytes is what sizes 0 .. S - 1 take when all
    are listed. A constant of the problem: rows, columns and pushable lines."""
    each = line_set_entry_bytes(walker)
    total = 0
    for size in range(lines + 1):
        count = math.comb(lines, size)
        if count > MAX_LINE_SETS or total + count * each > LINE_SETS_BYTES:
            return size, total
        total += count * each
    return sys.maxsize, total


def bound_entry_bytes(walker: Walker) -> int:
    """One entry of ``pushes_needed``'s cache: (board, places, relaxed) -> k, the board counted (the
    cache may hold the last reference to it) and the places at their largest."""
    return TUPLE_BYTES + walker.board_bytes + walker.mask_bytes + DICT_ENTRY_BYTES


def relaxed_entry_bytes(walker: Walker) -> int:
    """One entry of the relaxed flood's cache: (board, wild cells) -> the exit's component (a mask);
    the wild cells are the listed set's own int."""
    return TUPLE_BYTES + walker.board_bytes + walker.mask_bytes + DICT_ENTRY_BYTES


class _LabyrinthRules(Problem):
    """What both views share: the pushes, walking, the heuristic, and the JSON of boards."""

    unit_costs = True
    heuristics: Sequence[str] = HEURISTICS
    has_snapshots = True  # the page draws each expanded state's board
    RELAXED_LEVELS = RELAXED_LEVELS

    def __init__(self, puzzle: LabyrinthPuzzle, moves: str | None = None) -> None:
        self.puzzle = puzzle
        self.moves = moves or puzzle.moves
        if self.moves not in ("combined", "separate"):
            raise ValueError(f"unknown move model {self.moves!r}")
        self.rows, self.cols = puzzle.rows, puzzle.cols
        self.walker = Walker(puzzle.rows, puzzle.cols, puzzle.start_col, puzzle.goal_col)
        self.points = puzzle.insertions
        self._turns = {code: orientations(code) if puzzle.rotate_free else (code,) for code in range(12)}
        self._push_rows = frozenset(p.index for p in self.points if p.axis == "row")
        self._has_columns = any(p.axis == "col" for p in self.points)
        walker = self.walker
        # The lines a push can change, once each (a row pushed from both sides is one line).
        self._lines = tuple(
            sorted(
                {
                    (p.axis, p.index): walker.row_masks[p.index]
                    if p.axis == "row"
                    else walker.col_masks[p.index]
                    for p in self.points
                }.items()
            )
        )
        self._cells = (1 << (8 * walker.size)) - 1
        # The caches of the heuristic, bounded in bytes like the walker's (``Walker.cache_entries``).
        self._bound_cache: dict[tuple[bytes, int, bool], float] = {}
        self._relaxed_cache: dict[tuple[bytes, int], int] = {}
        self._bound_limit = walker.cache_entries(bound_entry_bytes(walker))
        self._relaxed_limit = walker.cache_entries(relaxed_entry_bytes(walker), RELAXED_CACHE_BYTES)
        # The sets of lines by size, each (bit mask of its row indices, its cells as one place mask),
        # made when a size is first needed and only below ``_first_too_many`` (``line_set_sizes``).
        self._line_sets: dict[int, list[tuple[int, int]]] = {}
        self._first_too_many = line_set_sizes(len(self._lines), walker)[0]

    # ---------------------------------------------------------------------------- pushes
    def pushes(self, board: bytes, free: int) -> Iterator[tuple[Push, bytes, int]]:
        """Every push from (board, free): (the push, the new board, the new free tile)."""
        rows, cols = self.rows, self.cols
        for point in self.points:
            for tile in self._turns[free]:
                new_board, out = push(board, cols, rows, point, tile)
                yield Push(point, tile), new_board, out

    def unpushes(self, board: bytes, free: int) -> Iterator[tuple[InsertionPoint, bytes, int]]:
        """Every (point, board before, free tile before) whose push gives (board, free)."""
        rows, cols = self.rows, self.cols
        for point in self.points:
            before, pushed_in = unpush(board, cols, rows, point, free)
            for free_before in self._turns[pushed_in]:  # the tiles that turn into pushed_in
                yield point, before, free_before

    def carry(self, player: int, point: InsertionPoint) -> int:
        return carry(player, self.cols, self.rows, point)

    def walk_targets(self, board: bytes, player: int) -> tuple[int, ...]:
        """Where a walk from ``player`` can end, ``player`` included."""
        return self.walker.reach(board, player)

    # ---------------------------------------------------------------------------- heuristic
    def _blocked_inner(self, board: bytes) -> list[int]:
        """Inner boundaries j (1..R-1) with no open pair of tiles across them."""
        _horizontal, vertical = self.walker.links(board)
        rows = self.walker.row_masks
        return [j for j in range(1, self.rows) if not vertical & rows[j - 1]]

    def pushes_needed(self, board: bytes, places: int, relaxed: bool = True) -> float:
        """k of the module docstring for a mask of places (the minimum over them); cached.

        ``relaxed``: raise the barrier count by one when no set of that many lines, made wild,
        connects the places to the exit.
        """
        key = (board, places, relaxed)
        found = self._bound_cache.get(key)
        if found is None:
            found = self._pushes_needed(board, places, relaxed)
            if len(self._bound_cache) >= self._bound_limit:
                self._bound_cache.clear()
            self._bound_cache[key] = found
        return found

    def _pushes_needed(self, board: bytes, places: int, relaxed: bool) -> float:
        walker = self.walker
        if places & walker.exited_bit:
            return 0
        cells = places & self._cells
        # k grows with the row, so the top-most place gives the minimum over the set.
        row = ((cells & -cells).bit_length() - 1) // 8 // self.cols if cells else self.rows
        blocked = [] if walker.can_leave(board) else [0]
        blocked += [j for j in self._blocked_inner(board) if j <= row]
        if row == self.rows and not walker.can_enter(board):
            blocked.append(self.rows)
        k = (1 if blocked else 0) if self._has_columns else self._stab(blocked)
        if not relaxed or k == math.inf:
            return k
        need = [(1 << j) | (1 << (j - 1)) if j > 0 else 1 for j in blocked]  # rows touching each
        # Sizes k .. k + RELAXED_LEVELS - 1, none from the first too large to list (the module
        # docstring: max(k, min(k_rel, k + RELAXED_LEVELS, S)) is still admissible and consistent).
        top = min(k + self.RELAXED_LEVELS, self._first_too_many)
        for size in range(k, min(top, len(self._lines) + 1)):
            for rows, wild in self._sets_of(size):
                if not self._has_columns and not all(rows & n for n in need):
                    continue  # leaves a blocked boundary that no push of these rows opens
                if self._relaxed_reach(board, places, wild):
                    return size
        return max(k, top)

    def _sets_of(self, size: int) -> list[tuple[int, int]]:
        """Every set of ``size`` lines (made on first use, then kept): (row bits, wild cells)."""
        found = self._line_sets.get(size)
        if found is None:
            found = [
                (
                    sum(1 << i for (axis, i), _ in chosen if axis == "row"),
                    reduce(or_, (mask for _, mask in chosen), 0),
                )
                for chosen in combinations(self._lines, size)
            ]
            self._line_sets[size] = found
        return found

    def _relaxed_reach(self, board: bytes, places: int, wild: int) -> bool:
        """Can the places reach the exit when the ``wild`` cells are open on every side?"""
        walker = self.walker
        key = (board, wild)
        component = self._relaxed_cache.get(key)
        if component is None:  # flood from the exit once per board and line set, for every place
            leave = walker.can_leave(board) or wild & walker.exit_bit
            component = walker.flood(board, walker.exit_bit, wild) if leave else 0
            if (
                component
                and component & walker.entry_bit
                and (walker.can_enter(board) or wild & walker.entry_bit)
            ):
                component |= walker.outside_bit
            if len(self._relaxed_cache) >= self._relaxed_limit:
                self._relaxed_cache.clear()
            self._relaxed_cache[key] = component
        return bool(component & places)

    def _stab(self, blocked: list[int]) -> float:
        """The fewest pushable rows touching every boundary in ``blocked`` (ascending); inf if none."""
        count, last = 0, -2
        for j in blocked:  # greedy interval stabbing: prefer the row below the boundary
            if last == j - 1:
                continue  # the row chosen for the previous boundary touches this one too
            if j < self.rows and j in self._push_rows:
                last = j
            elif j - 1 >= 0 and j - 1 in self._push_rows:
                last = j - 1
            else:
                return math.inf  # no push can ever open this boundary
            count += 1
        return count

    def moves_left(self, k: float) -> float:
        """Moves still needed by a non-goal state whose k pushes must still come."""
        return max(1, k) if self.moves == "combined" else k + 1

    def _features(
        self, boards: Sequence[bytes], places: Sequence[int], tops: Sequence[int]
    ) -> dict[str, np.ndarray]:
        """The lab's features (``FEATURES``) from each state's board, place mask and shown position."""
        import numpy as np  # here only: the rules run without numpy in the page

        p = self.puzzle
        rc = np.asarray([self.rc(x) for x in tops], dtype=np.float64).reshape(-1, 2)
        stand_in = float(self.rows + self.RELAXED_LEVELS + 2)  # above any finite k: k <= rows + 1 (+ 3)

        def pushes(relaxed: bool) -> np.ndarray:
            k = np.fromiter((self.pushes_needed(b, m, relaxed) for b, m in zip(boards, places, strict=True)),
                            dtype=np.float64, count=len(boards))
            return np.where(np.isfinite(k), k, stand_in)

        n = len(boards)
        return {
            "row": rc[:, 0], "col": rc[:, 1],
            "goal_row": np.full(n, -1.0), "goal_col": np.full(n, float(p.goal_col)),
            "dr": np.abs(rc[:, 0] + 1), "dc": np.abs(rc[:, 1] - p.goal_col),
            "pushes": pushes(True), "barriers": pushes(False),
            "separate": np.full(n, 1.0 if self.moves == "separate" else 0.0),
        }

    def _check_heuristic(self, name: str) -> None:
        if name not in HEURISTICS:
            raise ValueError(
                t("labyrinth.unknown_heuristic_choose", name=repr(name), heuristics=", ".join(HEURISTICS))
            )

    # ---------------------------------------------------------------------------- JSON
    def rc(self, position: int) -> list[int]:
        p = self.puzzle
        return list(position_to_rc(position, self.cols, self.rows, p.start_col, p.goal_col))

    def board_text(self, board: bytes) -> str:
        """The board as rows of one digit per tile, separated by '/' (codes 0..9 only)."""
        cols = self.cols
        return "/".join("".join(str(t) for t in board[r * cols : (r + 1) * cols]) for r in range(self.rows))

    # ---------------------------------------------------------------------------- student mode
    def student_rules(self) -> dict[str, Any]:
        """The plain data ``from_student_rules`` rebuilds this problem from (JSON; server/code_rules.py)."""
        p = self.puzzle
        return {"rows": p.rows, "cols": p.cols, "board": list(p.board), "free": p.free,
                "start_col": p.start_col, "goal_col": p.goal_col,
                "insertions": [list(point) for point in p.insertions], "moves": self.moves,
                "rotate_free": p.rotate_free,
                "view": "states" if isinstance(self, LabyrinthProblem) else "sets"}

    def describe(self) -> dict[str, Any]:
        p = self.puzzle
        return {
            "rows": p.rows,
            "cols": p.cols,
            "moves": self.moves,
            "start_col": p.start_col,
            "goal_col": p.goal_col,
            "insertions": [point.to_json() for point in p.insertions],
            "rotate_free": p.rotate_free,
        }


class LabyrinthProblem(_LabyrinthRules):
    """One state per (board, free tile, player position)."""

    def initial_states(self) -> list[LabState]:
        return [LabState(self.puzzle.board, self.puzzle.free, OUTSIDE)]

    def is_goal(self, state: LabState) -> bool:
        return state.player == EXITED

    def successors(self, state: LabState) -> Iterator[tuple[LabState, float]]:
        board, free, player = state
        if player == EXITED:
            return
        for target in self.walk_targets(board, player):  # walk only
            if target != player:
                yield LabState(board, free, target), 1.0
        combined = self.moves == "combined"
        for push_, new_board, new_free in self.pushes(board, free):
            carried = self.carry(player, push_.point)
            if combined:
                for target in self.walk_targets(new_board, carried):  # push, then walk (or stay)
                    yield LabState(new_board, new_free, target), 1.0
            else:
                yield LabState(new_board, new_free, carried), 1.0

    def predecessors(self, state: LabState) -> Iterator[tuple[LabState, float]]:
        """Exactly the states with ``state`` among their successors (BFS's backtrace uses it)."""
        board, free, player = state
        sources = self.walker.came_from(board, player)
        for source in sources:  # walk only
            if source != player:
                yield LabState(board, free, source), 1.0
        before_push = sources if self.moves == "combined" else (player,)
        for source in before_push:  # where the player stood after the push (then walked to player)
            if source == EXITED:
                continue  # nobody is pushed out of the top
            for point, old_board, old_free in self.unpushes(board, free):
                yield LabState(old_board, old_free, uncarry(source, self.cols, self.rows, point)), 1.0

    def goal_states(self) -> list[LabState]:
        raise NotImplementedError(
            "the labyrinth's goal states are every board the player can leave: too many to list, "
            "so it cannot be searched backwards from the goal"
        )

    def heuristic(self, state: LabState, name: str) -> float:
        self._check_heuristic(name)
        if state.player == EXITED:
            return 0.0
        if name == "trivial":
            return 1.0
        k = self.pushes_needed(state.board, self.walker.bit(state.player), name == "relaxed")
        return float(self.moves_left(k))

    def features(self, states: Sequence[LabState]) -> dict[str, np.ndarray]:
        bit = self.walker.bit
        return self._features([s.board for s in states], [bit(s.player) for s in states],
                              [s.player for s in states])

    def cell_of(self, state: LabState) -> int:
        return state.player if state.player >= 0 else -1

    def snapshot(self, state: LabState) -> dict[str, Any]:
        """The state as the page draws it (docs/PROTOCOL.md, frames' ``snapshots``)."""
        where = {OUTSIDE: "below", EXITED: "above"}.get(state.player, "board")
        return {"board": bytes(state.board), "free": state.free, "player": self.rc(state.player), "on": where}

    def state_to_json(self, state: LabState) -> dict[str, Any]:
        where = {OUTSIDE: "below", EXITED: "above"}.get(state.player, "board")
        return {
            "player": self.rc(state.player),
            "on": where,
            "free": state.free,
            "board": self.board_text(state.board),
        }

    # ---------------------------------------------------------------------------- explaining moves
    def explain(self, prev: LabState, nxt: LabState) -> tuple[Push | None, list[int] | None]:
        """The push (or None) and the walk (positions, or None) that lead from ``prev`` to ``nxt``."""
        walker = self.walker
        same_board = prev.board == nxt.board and prev.free == nxt.free
        if same_board and nxt.player != prev.player and nxt.player in walker.reach(prev.board, prev.player):
            return None, walker.route(prev.board, prev.player, nxt.player)
        for push_, new_board, new_free in self.pushes(prev.board, prev.free):
            if new_board != nxt.board or new_free != nxt.free:
                continue
            carried = self.carry(prev.player, push_.point)
            if carried == nxt.player:
                return push_, None
            if self.moves == "combined" and nxt.player in walker.reach(new_board, carried):
                return push_, walker.route(new_board, carried, nxt.player)
        raise ValueError("not a legal move under these rules")

    def move_of(self, prev: LabState, nxt: LabState) -> dict[str, Any]:
        """{"text", "push": {...} | None, "walk": [[r, c], ...] | None} for one move."""
        push_, walk = self.explain(prev, nxt)
        parts = []
        push_json = None
        if push_ is not None:
            parts.append(self._push_text(prev, push_))
            push_json = {
                **push_.point.to_json(),
                "tile": push_.tile,
                "free_before": prev.free,
                "falls_out": nxt.free,
            }
        if walk is not None:
            parts.append(self._walk_text(walk))
        text = t("labyrinth.move_then").join(parts)
        return {
            "text": text[0].upper() + text[1:],
            "push": push_json,
            "walk": [self.rc(p) for p in walk] if walk is not None else None,
        }

    def moves_of(self, path: Sequence[LabState]) -> list[dict[str, Any]]:
        """One dict per move of a solution path (see ``move_of``)."""
        return [self.move_of(a, b) for a, b in pairwise(path)]

    def _push_text(self, prev: LabState, push_: Push) -> str:
        point = push_.point
        if push_.tile != prev.free:
            text = t(
                "labyrinth.turn_free_tile_into_and",
                shapes=SHAPES[prev.free],
                free=prev.free,
                shapes2=SHAPES[push_.tile],
                tile=push_.tile,
                text=point.text(),
            )
        else:
            text = t(
                "labyrinth.push_free_tile_into", shapes=SHAPES[push_.tile], tile=push_.tile, text=point.text()
            )
        if prev.player >= 0:
            carried = self.carry(prev.player, point)
            if carried != prev.player:
                r, c = divmod(carried, self.cols)
                text += (
                    t("labyrinth.player_carried_column", c=c)
                    if point.axis == "row"
                    else t("labyrinth.player_carried_row", r=r)
                )
        return text

    def _walk_text(self, walk: list[int]) -> str:
        p = self.puzzle
        first, last = walk[0], walk[-1]
        cells = [x for x in walk if x >= 0]
        pieces = []
        if first == OUTSIDE:
            pieces.append(
                t(
                    "labyrinth.enter_board_below_column_onto",
                    start_col=p.start_col,
                    rc_text=self._rc_text(cells[0]),
                )
            )
        if len(cells) > 1:
            pieces.append(
                t("labyrinth.walk_from", rc_text=self._rc_text(cells[0]), rc_text2=self._rc_text(cells[-1]))
            )
        if last == EXITED:
            pieces.append(t("labyrinth.leave_board_above_column", goal_col=p.goal_col))
        if len(pieces) == 1:
            return pieces[0]
        return ", ".join(pieces[:-1]) + t("labyrinth.move_and") + pieces[-1]

    def _rc_text(self, cell: int) -> str:
        r, c = divmod(cell, self.cols)
        return f"({r},{c})"


class LabyrinthSetProblem(_LabyrinthRules):
    """The merged view: (board, free tile, every place the player could be after this many moves).

    The places are a place mask (``Walker``): one int, so states hash and compare fast.
    """

    def initial_states(self) -> list[SetState]:
        return [SetState(self.puzzle.board, self.puzzle.free, self.walker.outside_bit)]

    def is_goal(self, state: SetState) -> bool:
        return bool(state.places & self.walker.exited_bit)

    def _walked(self, board: bytes, places: int) -> int:
        """Places after a walk of >= 1 step from any of ``places`` (a walk must move the player)."""
        walker = self.walker
        out = 0
        if places & walker.outside_bit:
            out |= walker.flood(board, walker.outside_bit) & ~walker.outside_bit
        rest = places & self._cells
        while rest:
            low = rest & -rest
            component = walker.flood(board, low)
            if (places & component & self._cells).bit_count() > 1:
                out |= component  # each member is reached from another one
            else:
                out |= component & ~low  # the lone member must move away
            rest &= ~component
        return out

    def successors(self, state: SetState) -> Iterator[tuple[SetState, float]]:
        board, free, places = state
        walker = self.walker
        if places & walker.exited_bit:
            return
        walked = self._walked(board, places)
        if walked:
            yield SetState(board, free, walked), 1.0
        combined = self.moves == "combined"
        for push_, new_board, new_free in self.pushes(board, free):
            carried = walker.carry_places(places, push_.point)
            if combined:
                carried = walker.flood(new_board, carried)
            yield SetState(new_board, new_free, carried), 1.0

    def heuristic(self, state: SetState, name: str) -> float:
        self._check_heuristic(name)
        if state.places & self.walker.exited_bit:
            return 0.0
        if name == "trivial":
            return 1.0
        return float(self.moves_left(self.pushes_needed(state.board, state.places, name == "relaxed")))

    def features(self, states: Sequence[SetState]) -> dict[str, np.ndarray]:
        """As one player's, at the first of the places in ``Walker.positions``' order: out above the
        board when any place is, else the top-most cell (the one ``pushes_needed`` measures from)."""
        positions = self.walker.positions
        return self._features([s.board for s in states], [s.places for s in states],
                              [positions(s.places)[0] for s in states])

    def board_cell(self, state: SetState) -> int:
        """The top-most cell the player could stand on (the place the features describe); -1 when
        the player is still below the board or already out above it."""
        first = self.walker.positions(state.places)[0]
        return first if first >= 0 else -1

    def snapshot(self, state: SetState) -> dict[str, Any]:
        """The state as the page draws it: every place the player could stand."""
        places = [self.rc(x) for x in self.walker.positions(state.places)]
        board = bytes(state.board)
        return {"board": board, "free": state.free, "player": None, "on": "set", "places": places}

    def state_to_json(self, state: SetState) -> dict[str, Any]:
        return {
            "places": [self.rc(x) for x in self.walker.positions(state.places)],
            "free": state.free,
            "board": self.board_text(state.board),
        }

    def player_path(self, path: Sequence[SetState]) -> list[LabState]:
        """One player's states along a solution of the merged view (backwards from the exit)."""
        if not path or not self.is_goal(path[-1]):
            raise ValueError("not a solution path")
        single = LabyrinthProblem(self.puzzle, self.moves)
        out = [LabState(path[-1].board, path[-1].free, EXITED)]
        for before in reversed(path[:-1]):
            target = out[-1]
            for x in self.walker.positions(before.places):
                candidate = LabState(before.board, before.free, x)
                if any(s == target for s, _ in single.successors(candidate)):
                    out.append(candidate)
                    break
            else:
                raise ValueError("the merged path has no single-player trace")
        return out[::-1]


def from_student_rules(data: dict[str, Any]) -> _LabyrinthRules:
    """The problem of ``student_rules``' data, built without numpy (student mode runs it in the page's
    Python)."""
    points = tuple(InsertionPoint(str(axis), int(index), str(side))
                   for axis, index, side in data["insertions"])
    puzzle = LabyrinthPuzzle(int(data["rows"]), int(data["cols"]), bytes(data["board"]), int(data["free"]),
                             int(data["start_col"]), int(data["goal_col"]), points, str(data["moves"]),
                             bool(data["rotate_free"]))
    view = LabyrinthProblem if data["view"] == "states" else LabyrinthSetProblem
    return view(puzzle, str(data["moves"]))
