"""The sliding-tile family's compiled fast path: IDA* (any n, four heuristics) over numba kernels.

    solve_fast(tiles, goal, n, "idastar", "pdb", max_expanded=None, cancel=None, progress=None)

Boards are relabelled by the goal: each tile gets the number of the cell it must reach, so the
kernels always search towards "tile c on cell c" and one set of pattern databases serves any goal
(``pdb.py``). IDA* the classic way: the children of a node are never the parent's move undone,
their h is updated incrementally from the parent's (Manhattan and misplaced by the moved tile's
term, linear conflict by the two lines it leaves and enters, pattern databases by the moved
tile's term of its group's index), and they are tried in increasing h.

With the pattern databases, a goal whose blank is in another corner is solved as its image under a
flip of the square (``pdb.symmetry``: one set of tables on disk), and when the blank's goal cell is
on the main diagonal h is the larger of the tables' sums on the board and on its mirror image.

Counting: ``expanded`` = nodes whose successors were generated (every iteration's, the root
included); ``generated`` = successors produced, one a legal move other than the parent's move
undone, whether or not the bound then prunes it (the root is not counted). Korf (1985) reported
nodes *generated*, counted so. (The generic IDA* of ``server/search`` counts a state generated when
it is stepped onto within the bound, so its figures for the same search are smaller.)
``max_frontier``: the most boards on the path at once, as the generic IDA* counts it.

``astar`` is compiled for the 8-puzzle only (every state indexed by its permutation rank, 9!
entries), a transcription of the generic ``best_first`` (same order, same tie-breaks, same counts,
the start included in *generated*); for larger boards ``available(n, "astar", h)`` is false and the
family uses its generic search (IDA* is the method of the 15-puzzle).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ...i18n import t
from . import pdb as pdb_module

HEURISTICS = ("misplaced", "manhattan", "linear_conflict", "pdb")
ALGORITHMS = ("idastar", "astar")
MOVE_LETTERS = "UDLR"  # where the blank goes
CANCELLED = "cancelled"  # server.search.control.CANCELLED


@dataclass(frozen=True)
class FastResult:
    found: bool
    moves: str  # the blank's moves, "UDLR…"
    cost: int | None
    expanded: int
    generated: int
    # None, "cancelled" (or the cancel flag's reason), or "limit: more than N states expanded"
    stopped: str | None
    # A*: the most distinct states on the frontier at once; IDA*: the most boards on its path at once
    max_frontier: int = 0


def available(n: int, algorithm: str, heuristic: str) -> bool:
    """Whether ``solve_fast`` handles this combination (else the family uses its generic search)."""
    if algorithm not in ALGORITHMS or heuristic not in HEURISTICS or n not in (2, 3, 4, 5):
        return False
    if algorithm == "astar" and n != 3:
        return False  # A* indexes every state: 9! for the 8-puzzle; the 15-puzzle's 16!/2 is too many
    if heuristic == "pdb":
        return pdb_module.available(n)
    return True


def relabel(tiles: bytes, goal: bytes, n: int) -> tuple[np.ndarray, int]:
    """(uint8 board whose tile on cell c is its goal cell, the blank ``BLANK``; the blank's goal cell)."""
    from .sliding_kernels import BLANK

    cells = n * n
    if (
        len(tiles) != cells
        or len(goal) != cells
        or sorted(tiles) != list(range(cells))
        or sorted(goal) != list(range(cells))
    ):
        raise ValueError(f"a {n}x{n} board needs each of 0..{cells - 1} once, in the board and in the goal")
    where = {tile: cell for cell, tile in enumerate(goal)}
    board = np.array([BLANK if t == 0 else where[t] for t in tiles], np.uint8)
    return board, where[0]


def solvable(tiles: bytes, goal: bytes, n: int) -> bool:
    """Whether ``goal`` can be reached: the permutation taking the board to the goal (blank
    included) has the parity of the blank's Manhattan distance to its goal cell."""
    cells = n * n
    where = {tile: cell for cell, tile in enumerate(goal)}
    perm = [where[t] for t in tiles]
    seen = [False] * cells
    transpositions = 0
    for i in range(cells):
        length = 0
        j = i
        while not seen[j]:
            seen[j] = True
            j = perm[j]
            length += 1
        if length:
            transpositions += length - 1
    b, g = tiles.index(0), goal.index(0)
    distance = abs(b // n - g // n) + abs(b % n - g % n)
    return transpositions % 2 == distance % 2


def _limit_reason(max_expanded: int) -> str:
    return t("search.limit.expanded", count=max_expanded)  # the runner's words


def solve_fast(
    tiles: bytes,
    goal: bytes,
    n: int,
    algorithm: str = "idastar",
    heuristic: str = "pdb",
    *,
    max_expanded: int | None = None,
    cancel: np.ndarray | None = None,
    progress: np.ndarray | None = None,
    reflect: bool = True,
) -> FastResult:
    """Solve optimally (the heuristics are admissible): the blank's moves and the cost.

    ``cancel``: a uint8[1] array another thread may set (or a ``CancelFlag``, whose reason is then
    reported); ``progress``: an int64[1] array receiving the nodes expanded so far. An unsolvable
    board (wrong parity) is not searched: ``found`` false, no moves. ``reflect`` (pattern databases,
    the blank's goal cell on the main diagonal): h is the larger of the tables' sums on the board and on
    its mirror image about the main diagonal (Korf & Felner's reflection; the relabelled goal is its
    own mirror image then, so both sums are admissible).
    """
    from . import sliding_kernels as kern

    if not available(n, algorithm, heuristic):
        raise ValueError(f"no compiled {algorithm} with heuristic {heuristic!r} for {n}x{n} boards")
    tiles, goal = bytes(tiles), bytes(goal)
    board, blank_goal = relabel(tiles, goal, n)
    if not solvable(tiles, goal, n):
        return FastResult(False, "", None, 0, 0, None)
    flag = cancel
    cancel_array = getattr(cancel, "array", cancel)
    if cancel_array is None:
        cancel_array = np.zeros(1, np.uint8)
    if progress is None:
        progress = np.zeros(1, np.int64)
    kind = HEURISTICS.index(heuristic)
    md = kern.manhattan_table(np.int64(n))
    sigma = None
    if heuristic == "pdb":
        # a goal with the blank in a corner: solve the board's image with the blank-first goal's tables
        mapped = pdb_module.symmetry(n, blank_goal)
        if mapped[blank_goal] != blank_goal:
            sigma = mapped
            image = np.empty_like(board)
            for c in range(n * n):
                image[sigma[c]] = board[c] if board[c] == kern.BLANK else sigma[board[c]]
            board, blank_goal = image, sigma[blank_goal]
        try:
            db = pdb_module.database(n, blank_goal, cancel=cancel_array)
        except InterruptedError:  # the tables were being built when the flag was set
            return FastResult(False, "", None, 0, 0, getattr(flag, "reason", CANCELLED))
        table, offsets, group, slot, powers = db.table, db.offsets, db.group, db.slot, db.powers
    else:
        table = np.zeros(1, np.uint8)
        offsets = np.zeros(0, np.int64)
        group = np.full(n * n, -1, np.int64)
        slot = np.zeros(n * n, np.int64)
        powers = np.ones(1, np.int64)
    mirror = np.zeros(0, np.int64)
    if heuristic == "pdb" and reflect:
        transpose = np.array([(c % n) * n + c // n for c in range(n * n)], np.int64)
        if transpose[blank_goal] == blank_goal:
            mirror = transpose
    moves = np.zeros(kern.MAX_DEPTH + 1, np.int64)
    limit = -1 if max_expanded is None else int(max_expanded)
    max_frontier = 0
    if algorithm == "astar":
        outcome, cost, expanded, generated, max_frontier = kern.a_star_small(
            board, np.int64(n), np.int64(blank_goal), np.int64(kind), md, table, offsets, group, slot, powers,
            np.int64(limit), cancel_array, progress, moves,
        )  # fmt: skip
        return _result(outcome, cost, expanded, generated, int(max_frontier), moves, progress, flag, limit)
    outcome, cost, expanded, generated, max_frontier = kern.ida_star(
        board, np.int64(n), np.int64(kind), md, table, offsets, group, slot, powers, mirror,
        np.int64(limit), cancel_array, progress, moves,
    )  # fmt: skip
    result = _result(outcome, cost, expanded, generated, int(max_frontier), moves, progress, flag, limit)
    if sigma is not None and result.found:
        result = dataclasses.replace(result, moves=_map_moves(result.moves, board, n, sigma))
    return result


def _map_moves(moves: str, image: np.ndarray, n: int, sigma: tuple[int, ...]) -> str:
    """The blank's moves on the board whose image (under ``sigma``) ``moves`` solves."""
    from .sliding_kernels import BLANK

    cell = int(np.flatnonzero(image == BLANK)[0])
    step = {"U": -n, "D": n, "L": -1, "R": 1}
    letter = {-n: "U", n: "D", -1: "L", 1: "R"}
    out = []
    for m in moves:
        nxt = cell + step[m]
        out.append(letter[sigma[nxt] - sigma[cell]])
        cell = nxt
    return "".join(out)


def _result(outcome, cost, expanded, generated, max_frontier, moves, progress, flag, limit) -> FastResult:
    from . import sliding_kernels as kern

    progress[0] = expanded
    stopped = None
    if outcome == kern.CANCELLED:
        stopped = getattr(flag, "reason", CANCELLED)
    elif outcome == kern.LIMIT:
        stopped = _limit_reason(limit)
    if outcome != kern.FOUND:
        return FastResult(False, "", None, int(expanded), int(generated), stopped, max_frontier)
    text = "".join(MOVE_LETTERS[m] for m in moves[:cost])
    return FastResult(True, text, int(cost), int(expanded), int(generated), None, max_frontier)


def apply_moves(tiles: bytes, n: int, moves: str) -> bytes:
    """The board after the blank's ``moves`` (raises ValueError on a move off the board)."""
    board = bytearray(tiles)
    blank = board.index(0)
    step = {"U": -n, "D": n, "L": -1, "R": 1}
    for m in moves:
        r, c = divmod(blank, n)
        if (
            (m == "U" and r == 0)
            or (m == "D" and r == n - 1)
            or (m == "L" and c == 0)
            or (m == "R" and c == n - 1)
        ):
            raise ValueError(f"move {m} takes the blank off the board")
        nb = blank + step[m]
        board[blank], board[nb] = board[nb], 0
        blank = nb
    return bytes(board)


def warm_up(algorithm: str | None = None) -> None:
    """Compile (or load from numba's cache) the kernel of ``algorithm`` (None: both) with a tiny search,
    and for IDA* load the 15-puzzle's pattern databases of the goals with the blank in a corner when
    they are on disk (never builds: a first build takes a while, see docs/BENCHMARKS.md)."""
    tiles = bytes([1, 2, 3, 4, 5, 6, 7, 0, 8])
    goal = bytes([1, 2, 3, 4, 5, 6, 7, 8, 0])
    for name in ALGORITHMS if algorithm is None else (algorithm,):
        solve_fast(tiles, goal, 3, name, "manhattan")
    if algorithm in (None, "idastar") and pdb_module.cached(4, 0):  # the blank in a corner (pdb.symmetry)
        pdb_module.database(4, 0)
