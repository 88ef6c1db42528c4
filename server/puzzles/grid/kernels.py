"""Numba kernels for grid mazes: BFS (Lee), DFS, best-first (Dijkstra, greedy, A*), bidirectional.

Each kernel is a transcription of its generic twin in ``server/search/algorithms/`` over flat
arrays instead of dicts and sets, so that both emit the same events in the same order (pinned by
``tests/test_kernels.py``). The move rules are those of ``server.puzzles.grid.problem``: N, E, S,
W, then NE, SE, SW, NW; a diagonal move needs both cells beside it free; entering a cell costs its
weight (times sqrt 2 diagonally).

Every kernel takes ``cells`` (the maze's uint8 cells, flattened), ``width``, ``height``, ``starts``
and ``goals`` (sorted int64 flat indices), ``capacity`` (first size of its frontier; the trace
starts at 16 times that) and returns ``(state, cost, path, (kinds, cells, values))``: ``state``
holds the outcome and the counters (the slots below), ``path`` the int64 cells from start to
goal, and the trace columns are over-allocated to ``state[RECORDS]`` records. ``closed_at`` is
an int32 array of one entry per cell, or of none: when given, each expansion writes its number
(0, 1, ...) into its cell's entry, so that the board after any step t can be drawn from it (a
cell is closed at step t when ``closed_at < t``; ``tiles.py``); cells never expanded are left as
the caller filled them (fill with the int32 maximum: bidirectional search keeps the first of
a cell's two expansions, and marks those of its backward side with ``BACK_BIT``).

Memory per cell, besides the maze's own byte: BFS 4 (int32 score) plus a ring-buffer queue that
grows with the frontier (4 bytes an entry); DFS 4 (int32 came_from) plus a stack of (cell, g), 12
bytes an entry; best-first 9 (float64 cost_so_far, whose sign is the closed flag, and a uint8
came_from move) plus a heap of 40 bytes an entry (with integral keys a bucket queue instead: up to
80 bytes an entry and 16 per live f value); bidirectional 26 plus its heaps. A trace costs 9
bytes a record.

How this code is written, and why (numba 0.68, measured on perfect4k):

- A hot loop never rebinds an array. An array variable that may be rebound inside a loop (a
  buffer that grows) costs atomic reference-count updates on every iteration: BFS ran 3x slower.
  So each kernel is a driver plus a hot loop; before each expansion the loop checks that the
  trace and the frontier have room for one expansion's records and pushes, and if not it saves
  its position in ``state`` and returns NEED_TRACE or NEED_ROOM; the driver grows that buffer and
  calls the loop again.
- Helpers that take arrays are branch-free up to their last use of the arrays (``corner_free``,
  ``entry_cost``), or called on a rare path only (``why_stop``). Otherwise numba's reference
  counting of the arguments survives inlining, and it cost BFS 2x.
- Helpers get typed integers (``np.int64(0)``), never literals: numba compiles one copy of a
  function per literal argument value, and first-call JIT time matters for the CLI.
- Loops instead of slice assignments: numba's slice assignment costs seconds of JIT compile.
- All jitted code lives in this one module: numba's cache is invalidated by changes to the file
  of the cached function only, not to the files of the functions it calls.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ...search import events

# The event kinds, written out: numba freezes them into the cached machine code, and a change to
# events.py alone would not invalidate that cache (see above). So a change must fail here, loudly.
OPEN, CLOSE, UPDATE, PATH, OPEN_B, CLOSE_B, UPDATE_B = 0, 1, 2, 3, 4, 5, 6
if (OPEN, CLOSE, UPDATE, PATH, OPEN_B, CLOSE_B, UPDATE_B) != (
    events.OPEN, events.CLOSE, events.UPDATE, events.PATH, events.OPEN_B, events.CLOSE_B, events.UPDATE_B
):
    raise ImportError("server.search.events renumbered its kinds: update server/puzzles/grid/kernels.py")

# --- state, outcomes, recording -----------------------------------------------------------------

# Slots of a kernel's int64 ``state`` array.
EXPANDED, GENERATED, FRONTIER, MAX_FRONTIER, RECORDS = 0, 1, 2, 3, 4  # the Tally, and the trace length
OUTCOME = 5  # NOT_FOUND while running, then one of the outcomes below
GOAL = 6  # the goal reached (bidirectional: the meeting state), -1 if none
HEAD, COUNT = 7, 8  # the queue's first slot and length (DFS: the stack's height)
ORDER = 9  # heap insertion counter; bidirectional: ORDER + side
LIVE = 11  # bidirectional: distinct states on a side's frontier, LIVE + side
N_SLOTS = 16  # 13 .. 15: the bucket queue's (FREE, F_LO, F_HI)

# Kernel outcomes.
NOT_FOUND, FOUND, CANCELLED, LIMIT = 0, 1, 2, 3
# What a hot loop returns: finished, or it needs a bigger trace / frontier before the next expansion.
DONE, NEED_TRACE, NEED_ROOM = 0, 1, 2

CHECK_EVERY = 4096  # expansions between looks at the cancel flag (and writes of the progress counter)


@njit(cache=True, nogil=True)
def new_state():
    """A zeroed state array with no goal."""
    state = np.zeros(N_SLOTS, np.int64)
    state[GOAL] = -1
    return state


@njit(cache=True, nogil=True)
def new_trace(record, capacity):
    """Empty trace columns (kinds, cells, values); zero-length when not recording."""
    size = capacity if record else 0
    return np.empty(size, np.uint8), np.empty(size, np.int32), np.empty(size, np.float32)


@njit(cache=True, nogil=True)
def reserve(trace, n, room):
    """``trace`` if it has ``room`` records free after the first ``n``, else a copy twice as big (or more)."""
    kinds, cells, values = trace
    if n + room <= kinds.shape[0]:
        return trace
    capacity = max(2 * kinds.shape[0], n + room)
    bigger = np.empty(capacity, np.uint8), np.empty(capacity, np.int32), np.empty(capacity, np.float32)
    for i in range(n):
        bigger[0][i] = kinds[i]
        bigger[1][i] = cells[i]
        bigger[2][i] = values[i]
    return bigger


@njit(cache=True, nogil=True, inline="always")
def put(trace, n, kind, cell, value):
    """Write record ``n`` (room must have been reserved); ``value`` is stored as float32."""
    trace[0][n] = kind
    trace[1][n] = cell
    trace[2][n] = value


@njit(cache=True, nogil=True, inline="always")
def emit(trace, state, record, kind, cell, value):
    """Count one event (the rules of ``Tally.add``) and record it; returns the (maybe regrown) trace.

    For the drivers (starts, PATH events); the hot loops count in local variables and use ``put``.
    """
    if kind in (OPEN, OPEN_B):
        state[GENERATED] += 1
        state[FRONTIER] += 1
        state[MAX_FRONTIER] = max(state[MAX_FRONTIER], state[FRONTIER])
    elif kind in (CLOSE, CLOSE_B):
        state[EXPANDED] += 1
        state[FRONTIER] -= 1
    elif kind in (UPDATE, UPDATE_B):
        state[GENERATED] += 1
    if record:
        n = state[RECORDS]
        trace = reserve(trace, n, np.int64(1))
        put(trace, n, kind, cell, value)
        state[RECORDS] = n + 1
    return trace


@njit(cache=True, nogil=True, inline="always")
def load_tally(state):
    """(expanded, generated, frontier, max_frontier, records): a hot loop's local counters."""
    return state[EXPANDED], state[GENERATED], state[FRONTIER], state[MAX_FRONTIER], state[RECORDS]


@njit(cache=True, nogil=True, inline="always")
def store_tally(state, expanded, generated, frontier, max_frontier, records):
    """Write a hot loop's counters back to ``state``."""
    state[EXPANDED] = expanded
    state[GENERATED] = generated
    state[FRONTIER] = frontier
    state[MAX_FRONTIER] = max_frontier
    state[RECORDS] = records


@njit(cache=True, nogil=True, inline="always")
def must_check(expanded, max_expanded):
    """Whether ``why_stop`` has something to look at after the ``expanded``-th CLOSE (scalars only)."""
    return expanded % CHECK_EVERY == 0 or (max_expanded >= 0 and expanded > max_expanded)


@njit(cache=True, nogil=True)
def why_stop(expanded, max_expanded, cancel, progress):
    """CANCELLED, LIMIT or NOT_FOUND (go on), after the ``expanded``-th CLOSE; see ``must_check``.

    The limit (``max_expanded`` < 0: none) is checked at every expansion, so a search stops right
    after its ``max_expanded + 1``-th expansion, as the runner's "more than N states expanded"
    says. Every CHECK_EVERY expansions the progress counter is published and the cancel flag,
    which another thread may set, is read.
    """
    if expanded % CHECK_EVERY == 0:
        progress[0] = expanded
        if cancel[0] != 0:
            return CANCELLED
    if max_expanded >= 0 and expanded > max_expanded:
        return LIMIT
    return NOT_FOUND


# --- a heap ordered like Python's heapq of (f, h, order, g, cell) tuples -----------------------
#
# ``heapq`` compares tuples lexicographically; ``order`` is unique, so no two entries are ever
# equal and the sequence of pops is fully determined by (f, h, order), whatever the heap's
# internal layout (its arity, or the slot in front of it in ``_best_first_loop``). This heap
# compares the same three keys the same way, so it pops the same entries in the same order. One
# heap holds independent rows (bidirectional search keeps one per side). It is one float64 array
# of shape (rows, capacity, 5), an array of structs: entry i of a row is ``heap[row, i]`` =
# (f, h, order, g, cell), order and cell stored as exact float64 integers (< 2**53), so that
# moving or comparing an entry touches one cache line, not five arrays (A* -10 % against five
# arrays). ``sizes[row]`` counts a row's entries. ``ARITY`` children per entry: 4 (half the
# levels) measured a little slower than 2 on perfect4k, whose heaps hold ~100-300 entries.
# ``heap_push`` never grows the array; hot loops check ``heap_room`` before each expansion.

HEAP_F, HEAP_H, HEAP_ORDER, HEAP_G, HEAP_CELL = 0, 1, 2, 3, 4
HEAP_FIELDS = 5
ARITY = 2


@njit(cache=True, nogil=True)
def heap_new(rows, capacity):
    """An empty heap: ``rows`` rows of ``capacity`` entries (f, h, order, g, cell)."""
    return np.empty((rows, capacity, HEAP_FIELDS), np.float64)


@njit(cache=True, nogil=True)
def heap_grow(heap):
    """The same entries in an array of twice the capacity."""
    rows, capacity, fields = heap.shape
    bigger = heap_new(rows, 2 * capacity)
    for row in range(rows):
        for i in range(capacity):
            for k in range(fields):
                bigger[row, i, k] = heap[row, i, k]
    return bigger


@njit(cache=True, nogil=True, inline="always")
def heap_room(heap, sizes, row):
    """Free slots left in ``row``."""
    return heap.shape[1] - sizes[row]


@njit(cache=True, nogil=True, inline="always")
def before(f1, h1, order1, f2, h2, order2):
    """(f1, h1, order1) < (f2, h2, order2), compared as Python compares tuples."""
    if f1 != f2:
        return f1 < f2
    if h1 != h2:
        return h1 < h2
    return order1 < order2


@njit(cache=True, nogil=True)
def heap_push(heap, sizes, row, f_new, h_new, order_new, g_new, cell_new):
    """Add an entry to ``row``, which must have room (``heap_room``)."""
    i = sizes[row]
    sizes[row] = i + 1
    o_new = np.float64(order_new)
    # Sift up with a hole: parents that come after the new entry move down one level.
    while i > 0:
        parent = (i - 1) // ARITY
        if before(heap[row, parent, HEAP_F], heap[row, parent, HEAP_H], heap[row, parent, HEAP_ORDER],
                  f_new, h_new, o_new):
            break
        for k in range(HEAP_FIELDS):
            heap[row, i, k] = heap[row, parent, k]
        i = parent
    heap[row, i, HEAP_F] = f_new
    heap[row, i, HEAP_H] = h_new
    heap[row, i, HEAP_ORDER] = o_new
    heap[row, i, HEAP_G] = g_new
    heap[row, i, HEAP_CELL] = np.float64(cell_new)


@njit(cache=True, nogil=True)
def heap_pop(heap, sizes, row):
    """Remove the smallest entry of ``row`` (which must not be empty); returns (f, h, order, g, cell).

    ``order`` and ``cell`` come back as int64.
    """
    top = (heap[row, 0, HEAP_F], heap[row, 0, HEAP_H], np.int64(heap[row, 0, HEAP_ORDER]),
           heap[row, 0, HEAP_G], np.int64(heap[row, 0, HEAP_CELL]))
    last = sizes[row] - 1
    sizes[row] = last
    # Sift the last entry down from the root with a hole: the smallest child moves up while it
    # comes before the last entry. No early return and no branch around the final stores (with
    # one entry left they copy entry 0 onto itself): that keeps numba's reference counting of the
    # array out of the callers' loops.
    f_last, h_last, o_last = heap[row, last, HEAP_F], heap[row, last, HEAP_H], heap[row, last, HEAP_ORDER]
    g_last, cell_last = heap[row, last, HEAP_G], heap[row, last, HEAP_CELL]
    i = 0
    while True:
        first = ARITY * i + 1
        if first >= last:
            break
        end = min(first + ARITY, last)
        child = first
        fc, hc, oc = heap[row, first, HEAP_F], heap[row, first, HEAP_H], heap[row, first, HEAP_ORDER]
        for j in range(first + 1, end):
            fj, hj, oj = heap[row, j, HEAP_F], heap[row, j, HEAP_H], heap[row, j, HEAP_ORDER]
            if before(fj, hj, oj, fc, hc, oc):
                child, fc, hc, oc = j, fj, hj, oj
        if not before(fc, hc, oc, f_last, h_last, o_last):
            break
        for k in range(HEAP_FIELDS):
            heap[row, i, k] = heap[row, child, k]
        i = child
    heap[row, i, HEAP_F] = f_last
    heap[row, i, HEAP_H] = h_last
    heap[row, i, HEAP_ORDER] = o_last
    heap[row, i, HEAP_G] = g_last
    heap[row, i, HEAP_CELL] = cell_last
    return top


# --- the grid's rules ---------------------------------------------------------------------------

WALL = 0
SQRT2 = math.sqrt(2.0)
OCTILE = SQRT2 - 1.0  # the same double as ``(SQRT2 - 1.0)`` in ``problem.heuristic_value``
# Moves in GridProblem's order: N, E, S, W, then NE, SE, SW, NW. numba freezes global arrays.
MOVE_ROW = np.array([-1, 0, 1, 0, -1, 1, 1, -1], np.int64)
MOVE_COL = np.array([0, 1, 0, -1, 1, 1, -1, -1], np.int64)

# best_first's modes and ``problem.py``'s heuristics, by number (solve_grid maps the names).
DIJKSTRA, GREEDY, ASTAR = 0, 1, 2
MODES = {"dijkstra": DIJKSTRA, "greedy": GREEDY, "astar": ASTAR}
MANHATTAN, EUCLIDEAN, OCTILE_H, CHEBYSHEV = 0, 1, 2, 3
HEURISTICS = {"manhattan": MANHATTAN, "euclidean": EUCLIDEAN, "octile": OCTILE_H, "chebyshev": CHEBYSHEV}

UNREACHED = -2  # came_from of a cell no search has reached (DFS)
NO_PARENT = -1  # came_from of a start (DFS)
NO_MOVE = 255  # came_from (a uint8 move) of a start (best-first, bidirectional)
FORWARD, BACKWARD = 0, 1  # the sides (heap rows) of bidirectional search
# closed_at of a cell the backward side expanded carries this bit (expansion numbers stay below it)
BACK_BIT = 1 << 30
ORDER_MASK = BACK_BIT - 1


@njit(cache=True, nogil=True, inline="always")
def step(width, height, r, c, d):
    """The cell one move ``d`` away from (r, c), or -1 off the grid."""
    nr = r + MOVE_ROW[d]
    nc = c + MOVE_COL[d]
    if nr < 0 or nr >= height or nc < 0 or nc >= width:
        return -1
    return nr * width + nc


@njit(cache=True, nogil=True)
def corner_free(cells, width, nxt, d):
    """False for a diagonal move ``d`` to ``nxt`` that would cut a corner (a wall beside it).

    Branch-free (see the module's notes). For N, E, S, W the two cells read are the target and
    the origin, and the answer is True whatever they hold.
    """
    return (d < 4) | ((cells[nxt - MOVE_COL[d]] != WALL) & (cells[nxt - MOVE_ROW[d] * width] != WALL))


@njit(cache=True, nogil=True)
def entry_cost(cells, cell, diagonal_move):
    """The cost of entering ``cell``: its weight, times sqrt 2 for a diagonal move."""
    weight = np.float64(cells[cell])
    return weight * SQRT2 if diagonal_move else weight


@njit(cache=True, nogil=True)
def is_goal(goals, cell):
    """Binary search of the sorted goal cells (usually one or a few)."""
    lo, hi = 0, goals.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if goals[mid] < cell:
            lo = mid + 1
        else:
            hi = mid
    return lo < goals.shape[0] and goals[lo] == cell


@njit(cache=True, nogil=True, inline="always")
def heuristic_value(heuristic, width, box, cell):
    """GridProblem.heuristic: the distance from ``cell`` to the goals' bounding box ``box``."""
    r = cell // width
    return heuristic_rc(heuristic, box, r, cell - r * width)


@njit(cache=True, nogil=True, inline="always")
def heuristic_rc(heuristic, box, r, c):
    """``heuristic_value`` of the cell at row ``r``, column ``c`` (no division)."""
    dr = np.float64(max(box[0] - r, 0, r - box[1]))
    dc = np.float64(max(box[2] - c, 0, c - box[3]))
    if heuristic == MANHATTAN:
        return dr + dc
    if heuristic == EUCLIDEAN:
        return math.sqrt(dr * dr + dc * dc)
    if heuristic == OCTILE_H:
        return max(dr, dc) + OCTILE * min(dr, dc)
    return max(dr, dc)


@njit(cache=True, nogil=True)
def goal_box(goals, width):
    """(min row, max row, min col, max col) of the goal cells, as GridProblem.goal_box."""
    r0, r1, c0, c1 = np.int64(1) << 62, np.int64(-1), np.int64(1) << 62, np.int64(-1)
    for goal in goals:
        r = goal // width
        c = goal - r * width
        r0, r1, c0, c1 = min(r0, r), max(r1, r), min(c0, c), max(c1, c)
    return r0, r1, c0, c1


@njit(cache=True, nogil=True)
def chain(came_from, cell):
    """Cells from ``cell`` back along ``came_from`` to a start (inclusive)."""
    n = 1
    current = cell
    while came_from[current] != NO_PARENT:
        current = came_from[current]
        n += 1
    out = np.empty(n, np.int64)
    current = cell
    for i in range(n):
        out[i] = current
        current = came_from[current]
    return out


@njit(cache=True, nogil=True)
def chain_moves(came_from, width, cell):
    """Cells from ``cell`` back to a start (inclusive), ``came_from`` holding the move into each cell.

    ``came_from[c]`` is the move (0 .. 7, GridProblem's order) from c's parent to c, or NO_MOVE at
    a start: one byte a cell instead of four for a parent index.
    """
    n = 1
    current = cell
    while came_from[current] != NO_MOVE:
        d = came_from[current]
        current -= MOVE_ROW[d] * width + MOVE_COL[d]
        n += 1
    out = np.empty(n, np.int64)
    current = cell
    for i in range(n):
        out[i] = current
        if i + 1 < n:
            d = came_from[current]
            current -= MOVE_ROW[d] * width + MOVE_COL[d]
    return out


# --- breadth-first: Lee's wavefront ------------------------------------------------------------


@njit(cache=True, nogil=True)
def breadth_first(
    cells, width, height, starts, goals, diagonal, record, max_expanded, cancel, progress, closed_at, capacity
):
    """``algorithms.breadth_first``: the wave gives each cell its score; goal test on generation."""
    moves = 8 if diagonal else 4
    state = new_state()
    trace = new_trace(record, 16 * capacity)
    score = np.full(cells.shape[0], -1, np.int32)  # the wave: steps from the nearest start; -1 unreached
    size = 1
    while size < max(capacity, starts.shape[0] + moves):
        size *= 2
    frontier = np.empty(size, np.int32)  # a FIFO ring buffer (power-of-two size): BFS frontiers are thin
    for start in starts:
        if score[start] >= 0:
            continue
        score[start] = 0
        trace = emit(trace, state, record, OPEN, start, 0.0)
        if is_goal(goals, start):
            state[GOAL] = start
            break
        frontier[state[COUNT]] = start
        state[COUNT] += 1

    while state[GOAL] < 0:
        need = _wave(cells, width, height, goals, moves, score, frontier, state, record, trace, max_expanded,
                     cancel, progress, closed_at)
        if need == NEED_TRACE:
            trace = reserve(trace, state[RECORDS], 1 + moves)
        elif need == NEED_ROOM:
            frontier = _ring_grow(frontier, state)
        else:
            break

    cost = 0.0
    path = np.empty(0, np.int64)
    goal = state[GOAL]
    if goal >= 0:
        state[OUTCOME] = FOUND
        # lee_backtrace: from the goal, step to the first predecessor (move order) one score lower.
        path = np.empty(score[goal] + 1, np.int64)
        current = goal
        path[0] = current
        trace = emit(trace, state, record, PATH, current, score[current])
        i = 0
        while score[current] > 0:
            r = current // width
            c = current - r * width
            step_back = -1
            for d in range(moves):
                prev = step(width, height, r, c, d)
                if prev < 0 or cells[prev] == WALL or not corner_free(cells, width, prev, d):
                    continue
                if score[prev] == score[current] - 1:
                    cost += entry_cost(cells, current, d >= 4)  # the step prev -> current
                    step_back = prev
                    break
            if step_back < 0:  # cannot happen for a consistent wave
                raise RuntimeError("Lee backtrace stuck")
            current = step_back
            i += 1
            path[i] = current
            trace = emit(trace, state, record, PATH, current, score[current])
        path = path[::-1].copy()
    progress[0] = state[EXPANDED]
    return state, cost, path, trace


@njit(cache=True, nogil=True)
def _ring_grow(queue, state):
    """The queue's entries, in order, at the start of a ring buffer twice the size."""
    size = queue.shape[0]
    head, count = state[HEAD], state[COUNT]
    bigger = np.empty(2 * size, np.int32)
    for i in range(count):
        bigger[i] = queue[(head + i) & (size - 1)]
    state[HEAD] = 0
    return bigger


@njit(cache=True, nogil=True)
def _wave(
    cells, width, height, goals, moves, score, frontier, state, record, trace, max_expanded, cancel, progress,
    closed_at,
):
    """BFS's hot loop: expand until the goal, an empty queue, a stop, or a buffer short of room."""
    mask = frontier.shape[0] - 1
    head, count = state[HEAD], state[COUNT]
    expanded, generated, in_frontier, max_frontier, n = load_tally(state)
    goal = -1
    outcome = NOT_FOUND
    need = DONE
    while count > 0:
        if count + moves > mask + 1:
            need = NEED_ROOM
            break
        if record and n + 1 + moves > trace[0].shape[0]:
            need = NEED_TRACE
            break
        current = frontier[head]
        head = (head + 1) & mask
        count -= 1
        expanded += 1  # CLOSE
        if closed_at.shape[0] > 0:  # the expansion order, for tiles of any step
            closed_at[current] = expanded - 1
        in_frontier -= 1
        if record:
            put(trace, n, CLOSE, current, score[current])
            n += 1
        if must_check(expanded, max_expanded):
            outcome = why_stop(expanded, max_expanded, cancel, progress)
            if outcome != NOT_FOUND:
                break
        r = current // width
        c = current - r * width
        for d in range(moves):
            nxt = step(width, height, r, c, d)
            if nxt < 0 or cells[nxt] == WALL or not corner_free(cells, width, nxt, d):
                continue  # GridProblem._moves: off the grid, a wall, or a diagonal cutting a corner
            if score[nxt] >= 0:
                continue
            score[nxt] = score[current] + 1
            generated += 1  # OPEN
            in_frontier += 1
            max_frontier = max(max_frontier, in_frontier)
            if record:
                put(trace, n, OPEN, nxt, score[nxt])
                n += 1
            if is_goal(goals, nxt):  # the wave reached the goal
                goal = nxt
                break
            frontier[(head + count) & mask] = nxt
            count += 1
        if goal >= 0:
            break
    state[HEAD], state[COUNT] = head, count
    store_tally(state, expanded, generated, in_frontier, max_frontier, n)
    state[GOAL], state[OUTCOME] = goal, outcome
    return need


# --- depth-first ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def depth_first(
    cells, width, height, starts, goals, diagonal, record, max_expanded, cancel, progress, closed_at, capacity
):
    """``algorithms.depth_first``: LIFO, successors pushed in reverse order, goal test on generation.

    The generic version keeps g per state; here g travels on the stack with its cell (the stack is
    usually far smaller than the grid), and the path's g values are summed again along the path,
    which gives the very same floats since each g was its parent's g plus the step.
    """
    moves = 8 if diagonal else 4
    state = new_state()
    trace = new_trace(record, 16 * capacity)
    came_from = np.full(cells.shape[0], UNREACHED, np.int32)
    size = max(capacity, starts.shape[0] + moves)
    frontier = np.empty(size, np.int32)
    frontier_g = np.empty(size, np.float64)
    for i in range(starts.shape[0] - 1, -1, -1):
        start = starts[i]
        if came_from[start] != UNREACHED:
            continue
        came_from[start] = NO_PARENT
        trace = emit(trace, state, record, OPEN, start, 0.0)
        if is_goal(goals, start):
            state[GOAL] = start
            break
        frontier[state[COUNT]] = start
        frontier_g[state[COUNT]] = 0.0
        state[COUNT] += 1

    while state[GOAL] < 0:
        need = _dive(
            cells, width, height, goals, moves, came_from, frontier, frontier_g, state, record, trace,
            max_expanded, cancel, progress, closed_at,
        )
        if need == NEED_TRACE:
            trace = reserve(trace, state[RECORDS], 1 + moves)
        elif need == NEED_ROOM:
            frontier, frontier_g = _stack_grow(frontier, frontier_g, state[COUNT])
        else:
            break

    cost = 0.0
    path = np.empty(0, np.int64)
    goal = state[GOAL]
    if goal >= 0:
        state[OUTCOME] = FOUND
        path = chain(came_from, goal)[::-1].copy()
        g_along = np.zeros(path.shape[0], np.float64)
        for i in range(1, path.shape[0]):
            row_changed = path[i] // width != path[i - 1] // width
            col_changed = path[i] % width != path[i - 1] % width
            g_along[i] = g_along[i - 1] + entry_cost(cells, path[i], row_changed and col_changed)
        for i in range(path.shape[0] - 1, -1, -1):  # common.backtrace: PATH events goal first
            trace = emit(trace, state, record, PATH, path[i], g_along[i])
        cost = g_along[-1]
    progress[0] = state[EXPANDED]
    return state, cost, path, trace


@njit(cache=True, nogil=True)
def _stack_grow(stack, stack_g, top):
    """The stack's ``top`` entries in arrays twice the size."""
    bigger, bigger_g = np.empty(2 * stack.shape[0], np.int32), np.empty(2 * stack.shape[0], np.float64)
    for i in range(top):
        bigger[i] = stack[i]
        bigger_g[i] = stack_g[i]
    return bigger, bigger_g


@njit(cache=True, nogil=True)
def _dive(cells, width, height, goals, moves, came_from, frontier, frontier_g, state, record, trace,
          max_expanded, cancel, progress, closed_at):
    """DFS's hot loop: expand until the goal, an empty stack, a stop, or a buffer short of room."""
    top = state[COUNT]
    expanded, generated, in_frontier, max_frontier, n = load_tally(state)
    goal = -1
    outcome = NOT_FOUND
    need = DONE
    while top > 0:
        if top + moves > frontier.shape[0]:
            need = NEED_ROOM
            break
        if record and n + 1 + moves > trace[0].shape[0]:
            need = NEED_TRACE
            break
        top -= 1
        current = frontier[top]
        g = frontier_g[top]
        expanded += 1  # CLOSE
        if closed_at.shape[0] > 0:  # the expansion order, for tiles of any step
            closed_at[current] = expanded - 1
        in_frontier -= 1
        if record:
            put(trace, n, CLOSE, current, g)
            n += 1
        if must_check(expanded, max_expanded):
            outcome = why_stop(expanded, max_expanded, cancel, progress)
            if outcome != NOT_FOUND:
                break
        r = current // width
        c = current - r * width
        for d in range(moves - 1, -1, -1):  # reversed, so that the first successor is expanded first
            nxt = step(width, height, r, c, d)
            if nxt < 0 or cells[nxt] == WALL or not corner_free(cells, width, nxt, d):
                continue
            if came_from[nxt] != UNREACHED:  # already reached: on the stack or expanded
                continue
            came_from[nxt] = current
            g_next = g + entry_cost(cells, nxt, d >= 4)
            generated += 1  # OPEN
            in_frontier += 1
            max_frontier = max(max_frontier, in_frontier)
            if record:
                put(trace, n, OPEN, nxt, g_next)
                n += 1
            if is_goal(goals, nxt):
                goal = nxt
                break
            frontier[top] = nxt
            frontier_g[top] = g_next
            top += 1
        if goal >= 0:
            break
    state[COUNT] = top
    store_tally(state, expanded, generated, in_frontier, max_frontier, n)
    state[GOAL], state[OUTCOME] = goal, outcome
    return need


# --- best-first: Dijkstra, greedy, A* -----------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def priority(mode, g, h, weight):
    """best_first.priority: g for Dijkstra, h for greedy, g + weight * h for A*."""
    if mode == DIJKSTRA:
        return g
    if mode == GREEDY:
        return h
    return g + weight * h


@njit(cache=True, nogil=True)
def best_first(cells, width, height, starts, goals, diagonal, mode, heuristic, weight, record, max_expanded,
               cancel, progress, closed_at, capacity):
    """``algorithms.best_first``: heap by (f, h, order), lazy deletion, no reopening, goal test on expansion.

    ``mode`` is DIJKSTRA, GREEDY or ASTAR; ``heuristic`` one of MANHATTAN .. CHEBYSHEV.

    ``cost_so_far`` also holds ``closed``, in its sign: +inf for a cell not reached, g >= 0 for a
    cell reached and not closed, -g once it is closed (-0.0 for a closed start). Every step costs
    at least 1 (a cell's weight; 0 is a wall), so a new cost is > 0 and the generic test "nxt
    closed, or new_cost >= cost_so_far[nxt]" is the one comparison ``new_cost >= cost_so_far[nxt]``;
    the stale test "closed or g > cost_so_far" is ``g > cost_so_far[current]`` (only a start's one
    entry has g = 0, and it is popped before its cell is closed). One array read per neighbour
    instead of two, and 8 bytes a cell instead of 9. ``came_from`` holds the move into a cell
    (``chain_moves``), one byte; it is read along the path only, so it needs no initialisation.
    """
    if integral_keys(diagonal, mode, heuristic, weight):
        state, cost_so_far, came_from, trace = _best_first_buckets(
            cells, width, height, starts, goals, mode, heuristic, weight, record, max_expanded, cancel,
            progress, closed_at, capacity,
        )
    else:
        state, cost_so_far, came_from, trace = _best_first_heap(
            cells, width, height, starts, goals, diagonal, mode, heuristic, weight, record, max_expanded,
            cancel, progress, closed_at, capacity,
        )
    return _best_first_result(state, cost_so_far, came_from, trace, width, record, progress)


@njit(cache=True, nogil=True)
def _best_first_heap(cells, width, height, starts, goals, diagonal, mode, heuristic, weight, record,
                     max_expanded, cancel, progress, closed_at, capacity):
    """``best_first`` with the binary heap (any keys); returns (state, cost_so_far, came_from, trace)."""
    moves = 8 if diagonal else 4
    n = cells.shape[0]
    state = new_state()
    trace = new_trace(record, 16 * capacity)
    box = goal_box(goals, width)
    cost_so_far = np.full(n, np.inf)  # inf: not reached ("not in cost_so_far"); < 0 (sign bit): closed
    came_from = np.empty(n, np.uint8)
    frontier = heap_new(np.int64(1), max(capacity, starts.shape[0] + moves))
    sizes = np.zeros(1, np.int64)
    row = np.int64(0)
    for start in starts:
        if cost_so_far[start] != np.inf:
            continue
        cost_so_far[start] = 0.0
        came_from[start] = NO_MOVE
        h = 0.0 if mode == DIJKSTRA else heuristic_value(heuristic, width, box, start)
        heap_push(frontier, sizes, row, priority(mode, 0.0, h, weight), h, state[ORDER], 0.0, start)
        state[ORDER] += 1
        trace = emit(trace, state, record, OPEN, start, 0.0)

    while True:
        need = _best_first_loop(
            cells, width, height, goals, moves, mode, heuristic, weight, box, cost_so_far, came_from,
            frontier, sizes, state, record, trace, max_expanded, cancel, progress, closed_at,
        )
        if need == NEED_TRACE:
            trace = reserve(trace, state[RECORDS], 1 + moves)
        elif need == NEED_ROOM:
            frontier = heap_grow(frontier)
        else:
            break
    return state, cost_so_far, came_from, trace


@njit(cache=True, nogil=True)
def _best_first_result(state, cost_so_far, came_from, trace, width, record, progress):
    """``best_first``'s ending: the outcome, the path and its PATH events."""
    cost = 0.0
    path = np.empty(0, np.int64)
    goal = state[GOAL]
    if goal >= 0:
        state[OUTCOME] = FOUND
        cells_back = chain_moves(came_from, width, goal)
        for cell in cells_back:  # common.backtrace: PATH events goal first
            trace = emit(trace, state, record, PATH, cell, abs(cost_so_far[cell]))
        path = cells_back[::-1].copy()
        cost = abs(cost_so_far[goal])
    progress[0] = state[EXPANDED]
    return state, cost, path, trace


@njit(cache=True, nogil=True)
def _best_first_loop(cells, width, height, goals, moves, mode, heuristic, weight, box, cost_so_far, came_from,
                     frontier, sizes, state, record, trace, max_expanded, cancel, progress, closed_at):
    """best_first's hot loop: pop until the goal is expanded, the heap empties, a stop, or a short buffer.

    The frontier is the heap plus one entry held in local variables, the *slot*: when full, it
    comes before every entry of the heap, so a pop takes it without touching the heap. A push that
    comes before both the slot (or, the slot being empty, the heap's top) takes the slot, the
    entry it held going to the heap; any other push goes to the heap. The pops stay those of one
    priority queue by (f, h, order), but A* and greedy, whose next pop is most often the last
    entry pushed (a corridor's next cell: same f, smaller h), mostly skip the heap. Each expansion
    pushes at most ``moves`` entries to the heap, and the slot goes back to the heap when the loop
    returns, so the loop wants ``moves + 1`` free slots before an expansion.
    """
    row = np.int64(0)
    order = state[ORDER]
    expanded, generated, in_frontier, max_frontier, n = load_tally(state)
    goal = -1
    outcome = NOT_FOUND
    need = DONE
    full = False  # the slot: (slot_f, slot_h, slot_order, slot_g, slot_cell) when ``full``
    slot_f, slot_h, slot_order, slot_g, slot_cell = 0.0, 0.0, np.int64(0), 0.0, np.int64(0)
    while full or sizes[row] > 0:
        if heap_room(frontier, sizes, row) < moves + 1:
            need = NEED_ROOM
            break
        if record and n + 1 + moves > trace[0].shape[0]:
            need = NEED_TRACE
            break
        if full:
            full = False
            g, current = slot_g, slot_cell
        else:
            _f, _h, _order, g, current = heap_pop(frontier, sizes, row)
        if g > cost_so_far[current]:
            continue  # a stale entry: the state was closed (< 0) or reached more cheaply since
        cost_so_far[current] = -g  # closed
        expanded += 1  # CLOSE
        if closed_at.shape[0] > 0:  # the expansion order, for tiles of any step
            closed_at[current] = expanded - 1
        in_frontier -= 1
        if record:
            put(trace, n, CLOSE, current, g)
            n += 1
        if must_check(expanded, max_expanded):
            outcome = why_stop(expanded, max_expanded, cancel, progress)
            if outcome != NOT_FOUND:
                break
        if is_goal(goals, current):
            goal = current
            break
        r = current // width
        c = current - r * width
        for d in range(moves):
            nxt = step(width, height, r, c, d)
            if nxt < 0 or cells[nxt] == WALL or not corner_free(cells, width, nxt, d):
                continue
            new_cost = g + entry_cost(cells, nxt, d >= 4)
            known = cost_so_far[nxt]
            if new_cost >= known:  # closed (known <= 0 < new_cost) or no cheaper; never for inf
                continue
            cost_so_far[nxt] = new_cost
            came_from[nxt] = d
            h = 0.0 if mode == DIJKSTRA else heuristic_rc(heuristic, box, r + MOVE_ROW[d], c + MOVE_COL[d])
            f = priority(mode, new_cost, h, weight)
            if full:
                if before(f, h, order, slot_f, slot_h, slot_order):  # the new entry takes the slot
                    heap_push(frontier, sizes, row, slot_f, slot_h, slot_order, slot_g, slot_cell)
                    slot_f, slot_h, slot_order, slot_g, slot_cell = f, h, order, new_cost, nxt
                else:
                    heap_push(frontier, sizes, row, f, h, order, new_cost, nxt)
            elif sizes[row] == 0 or before(f, h, order, frontier[row, 0, HEAP_F], frontier[row, 0, HEAP_H],
                                           frontier[row, 0, HEAP_ORDER]):
                full = True
                slot_f, slot_h, slot_order, slot_g, slot_cell = f, h, order, new_cost, nxt
            else:
                heap_push(frontier, sizes, row, f, h, order, new_cost, nxt)
            order += 1
            generated += 1  # OPEN or UPDATE
            kind = UPDATE
            if known == np.inf:
                kind = OPEN
                in_frontier += 1
                max_frontier = max(max_frontier, in_frontier)
            if record:
                put(trace, n, kind, nxt, new_cost)
                n += 1
    if full:  # back to the heap, which has room (see above), for the driver and the next call
        heap_push(frontier, sizes, row, slot_f, slot_h, slot_order, slot_g, slot_cell)
    state[ORDER] = order
    store_tally(state, expanded, generated, in_frontier, max_frontier, n)
    state[GOAL], state[OUTCOME] = goal, outcome
    return need


# --- best-first with integral keys: a bucket queue ----------------------------------------------
#
# With 4-neighbour moves, integer cell weights, a manhattan or chebyshev heuristic (or none:
# Dijkstra) and an integral A* weight, f and h are integers, and a priority queue by (f, h,
# order) can be served exactly by buckets: one bucket per (f, h), each a FIFO. Entries of one
# bucket were pushed in increasing ``order`` (the counter only grows), so FIFO order is their
# (f, h, order) order, and the FIFO head of the smallest non-empty (f, h) is the heap's top: the
# pops, hence the events, the counters and the path, are the heap's to the entry.
#
# Layout: ``levels`` is a ring of f-levels (index f & (len - 1)) holding the live f values
# F_LO .. F_HI (F_HI - F_LO < len; the driver doubles the ring before an expansion could break
# that). A level points to a list of *groups* sorted by h, one per h present, each a FIFO of
# entries. Groups and entries are rows of one int64 ``pool`` with a free list: an entry is
# (g, cell, -, next), a group (h, head, tail, next). A pop takes the head of the first group of
# level F_LO (scanning F_LO up to the next non-empty level); a push walks its level's groups to
# its h, usually a step or two: in A* a pushed entry mostly lands in the level being popped with
# an h below every other (a corridor's next cell) or two levels up.
# Pool rows are per frontier entry (at most two each), the ring per live f value, not per cell.

POOL_FIELDS = 5
P_G, P_CELL = 0, 1  # an entry's fields
P_H, P_HEAD, P_TAIL = 0, 1, 2  # a group's fields
P_NEXT = 3  # both: the next entry of the FIFO / the next group of the level / the next free row
P_F = 4  # a live group's f; -1 in every other row (a finger, below, is checked against it)
L_FIRST, L_FINGER = 0, 1  # a level's columns: its first group, and the group of its last push
FREE, F_LO, F_HI = 13, 14, 15  # more ``state`` slots (bucket queue only)
MAX_STEP = 255  # the largest cost of a move (a uint8 cell weight), for the ring's room check


@njit(cache=True, nogil=True)
def integral_keys(diagonal, mode, heuristic, weight):
    """Whether f and h are integers, so that ``best_first`` may use the bucket queue."""
    if diagonal:
        return False
    if mode == DIJKSTRA:
        return True
    if heuristic != MANHATTAN and heuristic != CHEBYSHEV:
        return False
    if mode == GREEDY:
        return True
    return weight >= 0.0 and weight <= 1048576.0 and weight == math.floor(weight)


@njit(cache=True, nogil=True)
def pool_grow(pool, state):
    """The same rows in a pool twice as big, the new rows added to the free list."""
    size = pool.shape[0]
    bigger = np.empty((2 * size, POOL_FIELDS), np.int64)
    for i in range(size):
        for k in range(POOL_FIELDS):
            bigger[i, k] = pool[i, k]
    for i in range(size, 2 * size):
        bigger[i, P_NEXT] = i + 1
        bigger[i, P_F] = -1
    bigger[2 * size - 1, P_NEXT] = state[FREE]
    state[FREE] = size
    return bigger


@njit(cache=True, nogil=True)
def levels_grow(levels, state, need):
    """A ring of at least ``need`` levels (a power of two) holding the same levels F_LO .. F_HI."""
    size = levels.shape[0]
    while size < need:
        size *= 2
    bigger = np.full((size, 2), -1, np.int64)
    mask, new_mask = levels.shape[0] - 1, size - 1
    for f in range(state[F_LO], state[F_HI] + 1):
        bigger[f & new_mask, L_FIRST] = levels[f & mask, L_FIRST]
        bigger[f & new_mask, L_FINGER] = levels[f & mask, L_FINGER]
    return bigger


@njit(cache=True, nogil=True)
def bucket_push(levels, pool, state, f, h, g, cell):
    """Add an entry (for the driver: the starts); the hot loop has its own copy of this code."""
    e = state[FREE]
    state[FREE] = pool[e, P_NEXT]
    pool[e, P_G] = g
    pool[e, P_CELL] = cell
    pool[e, P_NEXT] = -1
    slot = f & (levels.shape[0] - 1)
    prev, grp = np.int64(-1), levels[slot, L_FIRST]
    while grp >= 0 and pool[grp, P_H] < h:
        prev, grp = grp, pool[grp, P_NEXT]
    if grp >= 0 and pool[grp, P_H] == h:
        pool[pool[grp, P_TAIL], P_NEXT] = e
        pool[grp, P_TAIL] = e
    else:
        new = state[FREE]
        state[FREE] = pool[new, P_NEXT]
        pool[new, P_H], pool[new, P_HEAD], pool[new, P_TAIL], pool[new, P_NEXT] = h, e, e, grp
        pool[new, P_F] = f
        if prev < 0:
            levels[slot, L_FIRST] = new
        else:
            pool[prev, P_NEXT] = new
    state[F_LO] = min(state[F_LO], f)
    state[F_HI] = max(state[F_HI], f)
    state[COUNT] += 1


@njit(cache=True, nogil=True)
def _best_first_buckets(cells, width, height, starts, goals, mode, heuristic, weight, record, max_expanded,
                        cancel, progress, closed_at, capacity):
    """``best_first`` for integral keys (``integral_keys``), with the bucket queue above.

    Returns (state, cost_so_far, came_from, trace), for ``best_first`` to finish.
    """
    moves = 4
    n = cells.shape[0]
    state = new_state()
    trace = new_trace(record, 16 * capacity)
    box = goal_box(goals, width)
    w = np.int64(weight) if mode == ASTAR else np.int64(1)  # the A* weight; for the ring's slack elsewhere
    cost_so_far = np.full(n, np.inf)
    came_from = np.empty(n, np.uint8)
    size = max(2 * capacity, 2 * (starts.shape[0] + moves + 1))
    pool = np.empty((size, POOL_FIELDS), np.int64)
    for i in range(size):
        pool[i, P_NEXT] = i + 1
        pool[i, P_F] = -1
    pool[size - 1, P_NEXT] = -1
    state[FREE] = 0
    state[F_LO], state[F_HI] = np.int64(1) << 62, np.int64(-1)
    levels = np.full((1024, 2), -1, np.int64)
    for start in starts:
        if cost_so_far[start] != np.inf:
            continue
        cost_so_far[start] = 0.0
        came_from[start] = NO_MOVE
        h = np.int64(0) if mode == DIJKSTRA else np.int64(heuristic_value(heuristic, width, box, start))
        f = np.int64(0) if mode == DIJKSTRA else (h if mode == GREEDY else w * h)
        if state[F_HI] >= 0 and max(state[F_HI], f) - min(state[F_LO], f) >= levels.shape[0]:
            levels = levels_grow(levels, state, max(state[F_HI], f) - min(state[F_LO], f) + 1)
        bucket_push(levels, pool, state, f, h, np.int64(0), start)
        state[ORDER] += 1
        trace = emit(trace, state, record, OPEN, start, 0.0)

    while True:
        need = _bucket_loop(cells, width, height, goals, mode, heuristic, w, box, cost_so_far, came_from,
                            levels, pool, state, record, trace, max_expanded, cancel, progress, closed_at)
        if need == NEED_TRACE:
            trace = reserve(trace, state[RECORDS], 1 + moves)
        elif need == NEED_ROOM:
            if pool.shape[0] - state[COUNT] * 2 < 2 * moves + 2:
                pool = pool_grow(pool, state)
            span = state[F_HI] - state[F_LO] + MAX_STEP + 1 + 2 * w
            if span >= levels.shape[0]:
                levels = levels_grow(levels, state, 2 * span)
        else:
            break
    return state, cost_so_far, came_from, trace


@njit(cache=True, nogil=True)
def _bucket_loop(cells, width, height, goals, mode, heuristic, w, box, cost_so_far, came_from, levels, pool,
                 state, record, trace, max_expanded, cancel, progress, closed_at):
    """``_best_first_loop`` over the bucket queue; the push and pop code is written out (module notes).

    Before an expansion it wants room in the pool for ``moves`` pushes (two rows each) and a ring
    wide enough for the children's f: a child's f is within [f - w, f + MAX_STEP + w] of its
    parent's f (w: the A* weight, else 1; h moves by at most 1 a step), and F_LO <= f <= F_HI.
    """
    moves = 4
    mask = levels.shape[0] - 1
    free = state[FREE]
    f_lo, f_hi = state[F_LO], state[F_HI]
    count = state[COUNT]  # entries in the queue (pool rows in use: at most twice that)
    rows = pool.shape[0]
    reach = MAX_STEP + 1 + 2 * w
    order = state[ORDER]
    expanded, generated, in_frontier, max_frontier, n = load_tally(state)
    goal = -1
    outcome = NOT_FOUND
    need = DONE
    while count > 0:
        if rows - 2 * count < 2 * moves + 2 or f_hi - f_lo + reach >= mask + 1:
            need = NEED_ROOM
            break
        if record and n + 1 + moves > trace[0].shape[0]:
            need = NEED_TRACE
            break
        # Pop: the FIFO head of the first (smallest h) group of the smallest non-empty f-level.
        while levels[f_lo & mask, L_FIRST] < 0:
            f_lo += 1
        grp = levels[f_lo & mask, L_FIRST]
        e = pool[grp, P_HEAD]
        nxt_e = pool[e, P_NEXT]
        if nxt_e >= 0:
            pool[grp, P_HEAD] = nxt_e
        else:  # the group is empty: unlink and free it
            levels[f_lo & mask, L_FIRST] = pool[grp, P_NEXT]
            pool[grp, P_NEXT] = free
            pool[grp, P_F] = -1
            free = grp
        g_int = pool[e, P_G]
        current = pool[e, P_CELL]
        pool[e, P_NEXT] = free
        free = e
        count -= 1
        g = np.float64(g_int)
        if g > cost_so_far[current]:
            continue  # a stale entry: the state was closed (< 0) or reached more cheaply since
        cost_so_far[current] = -g  # closed
        expanded += 1  # CLOSE
        if closed_at.shape[0] > 0:  # the expansion order, for tiles of any step
            closed_at[current] = expanded - 1
        in_frontier -= 1
        if record:
            put(trace, n, CLOSE, current, g)
            n += 1
        if must_check(expanded, max_expanded):
            outcome = why_stop(expanded, max_expanded, cancel, progress)
            if outcome != NOT_FOUND:
                break
        if is_goal(goals, current):
            goal = current
            break
        r = current // width
        c = current - r * width
        for d in range(moves):
            nxt = step(width, height, r, c, d)
            if nxt < 0 or cells[nxt] == WALL:
                continue
            new_int = g_int + np.int64(cells[nxt])
            new_cost = np.float64(new_int)
            known = cost_so_far[nxt]
            if new_cost >= known:  # closed (known <= 0 < new_cost) or no cheaper; never for inf
                continue
            cost_so_far[nxt] = new_cost
            came_from[nxt] = d
            if mode == DIJKSTRA:
                h = np.int64(0)
                f = new_int
            else:
                h = np.int64(heuristic_rc(heuristic, box, r + MOVE_ROW[d], c + MOVE_COL[d]))
                f = h if mode == GREEDY else new_int + w * h
            # Push: append to the FIFO of group h of level f, making the group if need be.
            e = free
            free = pool[e, P_NEXT]
            pool[e, P_G] = new_int
            pool[e, P_CELL] = nxt
            pool[e, P_NEXT] = -1
            slot = f & mask
            # Walk from the level's finger (the group of its last push) if it is still that
            # level's and not past h, else from the level's first group.
            prev, grp = np.int64(-1), levels[slot, L_FIRST]
            finger = levels[slot, L_FINGER]
            if finger >= 0 and pool[finger, P_F] == f and pool[finger, P_H] <= h:
                if pool[finger, P_H] == h:
                    grp = finger
                else:
                    prev, grp = finger, pool[finger, P_NEXT]
            while grp >= 0 and pool[grp, P_H] < h:
                prev, grp = grp, pool[grp, P_NEXT]
            if grp >= 0 and pool[grp, P_H] == h:
                pool[pool[grp, P_TAIL], P_NEXT] = e
                pool[grp, P_TAIL] = e
            else:
                new = free
                free = pool[new, P_NEXT]
                pool[new, P_H] = h
                pool[new, P_HEAD] = e
                pool[new, P_TAIL] = e
                pool[new, P_NEXT] = grp
                pool[new, P_F] = f
                if prev < 0:
                    levels[slot, L_FIRST] = new
                else:
                    pool[prev, P_NEXT] = new
                grp = new
            levels[slot, L_FINGER] = grp
            f_lo = min(f_lo, f)
            f_hi = max(f_hi, f)
            count += 1
            order += 1
            generated += 1  # OPEN or UPDATE
            kind = UPDATE
            if known == np.inf:
                kind = OPEN
                in_frontier += 1
                max_frontier = max(max_frontier, in_frontier)
            if record:
                put(trace, n, kind, nxt, new_cost)
                n += 1
    state[FREE], state[F_LO], state[F_HI], state[COUNT] = free, f_lo, f_hi, count
    state[ORDER] = order
    store_tally(state, expanded, generated, in_frontier, max_frontier, n)
    state[GOAL], state[OUTCOME] = goal, outcome
    return need


# --- bidirectional uniform-cost -----------------------------------------------------------------


@njit(cache=True, nogil=True)
def bidirectional(
    cells, width, height, starts, goals, diagonal, record, max_expanded, cancel, progress, closed_at, capacity
):
    """``algorithms.bidirectional``: two uniform-cost sides (heap rows FORWARD, BACKWARD) in one heap.

    The side with fewer live frontier states expands (ties: forward); stop when the best meeting
    cost is no larger than the sum of the two frontiers' smallest g, or a frontier is empty.
    Heap entries are (g, 0, order, g, cell), so a side pops by (g, order) as the generic side's
    (g, order, state) tuples.
    """
    moves = 8 if diagonal else 4
    n = cells.shape[0]
    state = new_state()
    trace = new_trace(record, 16 * capacity)
    cost_so_far = np.full((2, n), np.inf)
    came_from = np.full((2, n), NO_PARENT, np.int32)
    closed = np.zeros((2, n), np.uint8)
    frontier = heap_new(np.int64(2), max(capacity, max(starts.shape[0], goals.shape[0]) + moves))
    sizes = np.zeros(2, np.int64)
    best = np.full(1, np.inf)  # the cheapest meeting found so far (its state in state[GOAL])
    for side in range(2):
        origins = starts if side == FORWARD else goals
        for cell in origins:
            if cost_so_far[side, cell] != np.inf:
                continue
            cost_so_far[side, cell] = 0.0
            came_from[side, cell] = NO_PARENT
            heap_push(frontier, sizes, side, 0.0, 0.0, state[ORDER + side], 0.0, cell)
            state[ORDER + side] += 1
            state[LIVE + side] += 1
            trace = emit(trace, state, record, OPEN if side == FORWARD else OPEN_B, cell, 0.0)
    for cell in starts:
        if cost_so_far[BACKWARD, cell] != np.inf:  # a start that is a goal
            best[0] = 0.0
            state[GOAL] = cell
            break

    while True:
        need = _meet_loop(
            cells, width, height, moves, cost_so_far, came_from, closed, frontier, sizes, best, state, record,
            trace, max_expanded, cancel, progress, closed_at,
        )
        if need == NEED_TRACE:
            trace = reserve(trace, state[RECORDS], 1 + moves)
        elif need == NEED_ROOM:
            frontier = heap_grow(frontier)
        else:
            break

    cost = 0.0
    path = np.empty(0, np.int64)
    meet = state[GOAL]
    if state[OUTCOME] == NOT_FOUND and meet >= 0:
        state[OUTCOME] = FOUND
        head = chain(came_from[FORWARD], meet)[::-1]  # start .. meet
        tail = chain(came_from[BACKWARD], meet)[1:]  # after meet .. goal
        path = np.concatenate((head, tail))
        g_along = np.empty(path.shape[0], np.float64)
        for i in range(head.shape[0]):
            g_along[i] = cost_so_far[FORWARD, head[i]]
        for i in range(tail.shape[0]):
            g_along[head.shape[0] + i] = best[0] - cost_so_far[BACKWARD, tail[i]]
        for i in range(path.shape[0] - 1, -1, -1):
            trace = emit(trace, state, record, PATH, path[i], g_along[i])
        cost = best[0]
    progress[0] = state[EXPANDED]
    return state, cost, path, trace


@njit(cache=True, nogil=True)
def _meet_loop(cells, width, height, moves, cost_so_far, came_from, closed, frontier, sizes, best, state,
               record, trace, max_expanded, cancel, progress, closed_at):
    """bidirectional's hot loop: expand a side at a time until the stopping rule, a stop or a short buffer."""
    forward, backward = np.int64(FORWARD), np.int64(BACKWARD)
    expanded, generated, in_frontier, max_frontier, n = load_tally(state)
    best_cost, meet = best[0], state[GOAL]
    outcome = NOT_FOUND
    need = DONE
    while True:
        if heap_room(frontier, sizes, forward) < moves or heap_room(frontier, sizes, backward) < moves:
            need = NEED_ROOM
            break
        if record and n + 1 + moves > trace[0].shape[0]:
            need = NEED_TRACE
            break
        # _Side.top: drop stale entries (closed, or reached more cheaply since) to see each smallest g.
        # Written out rather than as a function: numba would reference-count its arrays per call.
        for s in range(2):
            while sizes[s] > 0 and (
                closed[s, np.int64(frontier[s, 0, HEAP_CELL])]
                or frontier[s, 0, HEAP_G] > cost_so_far[s, np.int64(frontier[s, 0, HEAP_CELL])]
            ):
                heap_pop(frontier, sizes, s)
        top_f = frontier[FORWARD, 0, HEAP_G] if sizes[FORWARD] > 0 else np.inf
        top_b = frontier[BACKWARD, 0, HEAP_G] if sizes[BACKWARD] > 0 else np.inf
        if best_cost <= top_f + top_b or top_f == np.inf or top_b == np.inf:
            break  # stopping rule: nothing left on a frontier can lead to a cheaper path
        side = forward if state[LIVE + FORWARD] <= state[LIVE + BACKWARD] else backward
        other = 1 - side
        _f, _h, _order, g, popped = heap_pop(frontier, sizes, side)
        current = np.int64(popped)
        closed[side, current] = 1
        state[LIVE + side] -= 1
        expanded += 1  # CLOSE or CLOSE_B
        if closed_at.shape[0] > 0 and (closed_at[current] & ORDER_MASK) > expanded - 1:  # the first side's
            closed_at[current] = (expanded - 1) | (BACK_BIT if side == BACKWARD else 0)
        in_frontier -= 1
        if record:
            put(trace, n, CLOSE if side == FORWARD else CLOSE_B, current, g)
            n += 1
        if must_check(expanded, max_expanded):
            outcome = why_stop(expanded, max_expanded, cancel, progress)
            if outcome != NOT_FOUND:
                break
        r = current // width
        c = current - r * width
        for d in range(moves):
            nxt = step(width, height, r, c, d)
            if nxt < 0 or cells[nxt] == WALL or not corner_free(cells, width, nxt, d):
                continue
            if closed[side, nxt]:
                continue
            # forward: the cost of entering nxt; backward (predecessors): that of entering current
            new_cost = g + entry_cost(cells, nxt if side == FORWARD else current, d >= 4)
            known = cost_so_far[side, nxt]
            if new_cost >= known:
                continue
            cost_so_far[side, nxt] = new_cost
            came_from[side, nxt] = current
            heap_push(frontier, sizes, side, new_cost, 0.0, state[ORDER + side], new_cost, nxt)
            state[ORDER + side] += 1
            generated += 1  # OPEN or UPDATE, of this side
            kind = UPDATE if side == FORWARD else UPDATE_B
            if known == np.inf:
                kind = OPEN if side == FORWARD else OPEN_B
                state[LIVE + side] += 1
                in_frontier += 1
                max_frontier = max(max_frontier, in_frontier)
            if record:
                put(trace, n, kind, nxt, new_cost)
                n += 1
            other_cost = cost_so_far[other, nxt]
            if other_cost != np.inf and new_cost + other_cost < best_cost:
                best_cost, meet = new_cost + other_cost, nxt
    best[0], state[GOAL] = best_cost, meet
    store_tally(state, expanded, generated, in_frontier, max_frontier, n)
    state[OUTCOME] = outcome
    return need
