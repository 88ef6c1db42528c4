"""Numba kernels of the sliding-tile family: IDA* with incremental heuristics, the 8-puzzle's A*,
and the pattern databases' build.

Boards reach these kernels relabelled (``fast.py``): the tile at cell c is the number of the cell
it must end on (its goal position) and the blank is ``BLANK``, so that the goal of every board is
"label c on cell c" and one set of pattern databases serves any goal. Moves are named by where the
blank goes: ``U`` (0), ``D`` (1), ``L`` (2), ``R`` (3); ``d ^ 1`` is the inverse of ``d``.

Counting in IDA*: *expanded* = nodes whose successors were generated; *generated* = successors
produced (one per legal move other than the one that would undo the parent's move, whether or not
the bound then prunes it; the root is not counted). Korf (1985) reported "nodes generated" (his
IDA* counts every node it creates, pruned or not, so his figures compare with ours of
*generated*). The 8-puzzle's A* counts exactly as the generic ``best_first`` events are counted
(``server/search/stats.py``); ``tree_ids_count`` as AIMA's tree search (its own docstring).

All jitted code of the family lives in this one module (numba's cache is invalidated by changes to
the file of a cached function only); the style is that of ``server/puzzles/grid/kernels.py``:
``cache=True, nogil=True``, a uint8[1] cancel flag polled and an int64[1] progress counter written
every ``CHECK_EVERY`` expansions, typed integers rather than literals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BLANK = 255  # the blank's label on a relabelled board
MAX_DEPTH = 400  # the deepest IDA* path (Korf's 100 need at most 66 moves, the 24-puzzle ~150)

# Heuristic codes.
H_MISPLACED, H_MANHATTAN, H_LINEAR, H_PDB = 0, 1, 2, 3

# Outcomes.
NOT_FOUND, FOUND, CANCELLED, LIMIT = 0, 1, 2, 3

CHECK_EVERY = 1 << 14  # expansions between looks at the cancel flag (well under a millisecond)


@njit(cache=True, nogil=True)
def neighbours(n):
    """(n², 4) int64: the cell the blank reaches from each cell by U, D, L, R, or -1 off the board."""
    cells = n * n
    out = np.full((cells, 4), -1, np.int64)
    for c in range(cells):
        r, q = c // n, c % n
        if r > 0:
            out[c, 0] = c - n
        if r < n - 1:
            out[c, 1] = c + n
        if q > 0:
            out[c, 2] = c - 1
        if q < n - 1:
            out[c, 3] = c + 1
    return out


@njit(cache=True, nogil=True)
def manhattan_table(n):
    """(n², n²) int64: the Manhattan distance between two cells (label = goal cell)."""
    cells = n * n
    out = np.zeros((cells, cells), np.int64)
    for a in range(cells):
        for b in range(cells):
            out[a, b] = abs(a // n - b // n) + abs(a % n - b % n)
    return out


@njit(cache=True, nogil=True)
def _conflicts(board, n, line, row, scratch):
    """2 × (tiles of ``line`` already in their goal line, minus the longest run of them in goal order):
    the linear-conflict penalty of one row (``row`` true) or column, the admissible form (the fewest
    tiles to take out of the line so that the others can pass each other no more)."""
    # scratch[0:8]: the goal places of the line's tiles that belong to it; scratch[8:16]: LIS lengths
    m = 0
    for i in range(n):
        c = line * n + i if row else i * n + line
        label = board[c]
        if label == BLANK:
            continue
        if row and label // n == line:
            scratch[m] = label % n
            m += 1
        elif (not row) and label % n == line:
            scratch[m] = label // n
            m += 1
    if m < 2:
        return 0
    # Longest increasing subsequence of m <= 5 numbers, quadratic.
    longest = 0
    for i in range(m):
        b = 1
        for j in range(i):
            if scratch[j] < scratch[i] and scratch[8 + j] + 1 > b:
                b = scratch[8 + j] + 1
        scratch[8 + i] = b
        if b > longest:
            longest = b
    return 2 * (m - longest)


@njit(cache=True, nogil=True)
def heuristic_of(board, n, kind, md, pdb, offsets, group, slot, powers, mirror, index, index2):
    """h of a relabelled board from scratch; for ``H_PDB`` also fills ``index`` (one entry a group)
    and, with a ``mirror`` (the cell map of a symmetry of the goal, else empty), ``index2``: the
    groups' indices on the mirrored board, whose tables' sum is admissible too (h = the larger)."""
    cells = n * n
    h = 0
    if kind == H_PDB:
        for g in range(index.shape[0]):
            index[g] = 0
            index2[g] = 0
        for c in range(cells):
            label = board[c]
            if label != BLANK and group[label] >= 0:
                index[group[label]] += c * powers[slot[label]]
            if mirror.shape[0] > 0 and label != BLANK:
                image = mirror[label]  # the mirrored board has tile ``image`` on cell mirror[c]
                if group[image] >= 0:
                    index2[group[image]] += mirror[c] * powers[slot[image]]
        h2 = 0
        for g in range(index.shape[0]):
            h += pdb[offsets[g] + index[g]]
            h2 += pdb[offsets[g] + index2[g]]
        if mirror.shape[0] > 0 and h2 > h:
            h = h2
        return h
    for c in range(cells):
        label = board[c]
        if label == BLANK:
            continue
        if kind == H_MISPLACED:
            if label != c:
                h += 1
        else:
            h += md[label, c]
    if kind == H_LINEAR:
        scratch = np.empty(16, np.int64)
        for line in range(n):
            h += _conflicts(board, n, line, True, scratch) + _conflicts(board, n, line, False, scratch)
    return h


@njit(cache=True, nogil=True)
def ida_star(
    board_in, n, kind, md, pdb, offsets, group, slot, powers, mirror, max_expanded, cancel, progress, moves
):
    """IDA* from a relabelled board to the identity; returns (outcome, cost, expanded, generated).

    ``moves`` (int64, at least MAX_DEPTH) receives the blank's moves 0..3 of the solution. Moves
    are ordered: at each node the children (never the parent's move undone) are generated with
    their h, updated incrementally (Manhattan and misplaced by the moved tile's delta, linear
    conflict by the two lines the tile leaves and enters, pattern databases by the moved tile's
    term of its group's index, and with a ``mirror`` the same on the mirrored board, h the larger
    of the two sums), and tried in increasing h (ties: U, D, L, R), so that a pruned
    child ends the node's loop. ``max_expanded`` < 0: no limit.
    """
    cells = n * n
    board = board_in.copy()
    nbr = neighbours(n)
    groups = offsets.shape[0]
    index = np.zeros(max(groups, 1), np.int64)
    index2 = np.zeros(max(groups, 1), np.int64)
    mirrored = mirror.shape[0] > 0
    blank = 0
    for c in range(cells):
        if board[c] == BLANK:
            blank = c
    h0 = heuristic_of(board, n, kind, md, pdb, offsets, group, slot, powers, mirror, index, index2)
    expanded = 0
    generated = 0
    deepest = 0  # the longest path stepped onto: max_frontier = deepest + 1 boards, as the generic IDA*
    if h0 == 0:
        return FOUND, 0, 0, 0, 1
    # Per depth: the children's moves and h, sorted, and the next one to try.
    child_move = np.empty((MAX_DEPTH + 1, 4), np.int64)
    child_h = np.empty((MAX_DEPTH + 1, 4), np.int64)
    child_count = np.zeros(MAX_DEPTH + 1, np.int64)
    child_next = np.zeros(MAX_DEPTH + 1, np.int64)
    path_h = np.zeros(MAX_DEPTH + 1, np.int64)
    group_h = np.zeros(max(groups, 1), np.int64)
    group_h2 = np.zeros(max(groups, 1), np.int64)
    scratch = np.empty(16, np.int64)
    bound = h0
    while True:
        if bound > MAX_DEPTH:
            return NOT_FOUND, -1, expanded, generated, deepest + 1
        next_bound = 1 << 30
        depth = 0
        path_h[0] = h0
        last = -1  # the move that led to the node at ``depth`` (-1 at the root)
        fresh = True  # the node at ``depth`` still has to be expanded
        while True:
            if fresh:
                fresh = False
                expanded += 1
                if expanded % CHECK_EVERY == 0:
                    progress[0] = expanded
                    if cancel[0] != 0:
                        return CANCELLED, -1, expanded, generated, deepest + 1
                if max_expanded >= 0 and expanded > max_expanded:
                    return LIMIT, -1, expanded, generated, deepest + 1
                h = path_h[depth]
                h1 = 0
                h2 = 0
                if kind == H_PDB:
                    for g in range(groups):
                        group_h[g] = pdb[offsets[g] + index[g]]
                        h1 += group_h[g]
                        if mirrored:
                            group_h2[g] = pdb[offsets[g] + index2[g]]
                            h2 += group_h2[g]
                count = 0
                for d in range(4):
                    nb = nbr[blank, d]
                    if nb < 0 or (last >= 0 and d == (last ^ 1)):
                        continue
                    label = board[nb]  # the tile slides from nb into the blank's cell
                    if kind == H_MANHATTAN:
                        hc = h + md[label, blank] - md[label, nb]
                    elif kind == H_MISPLACED:
                        hc = h + (1 if label != blank else 0) - (1 if label != nb else 0)
                    elif kind == H_LINEAR:
                        row = d < 2  # a vertical move changes the tile's row
                        la = nb // n if row else nb % n
                        lb = blank // n if row else blank % n
                        before = _conflicts(board, n, la, row, scratch)
                        before += _conflicts(board, n, lb, row, scratch)
                        board[blank] = label
                        board[nb] = BLANK
                        after = _conflicts(board, n, la, row, scratch)
                        after += _conflicts(board, n, lb, row, scratch)
                        board[nb] = label
                        board[blank] = BLANK
                        hc = h + md[label, blank] - md[label, nb] + after - before
                    else:
                        g = group[label]
                        hc = h1
                        if g >= 0:
                            moved = index[g] + (blank - nb) * powers[slot[label]]
                            hc = h1 - group_h[g] + pdb[offsets[g] + moved]
                        if mirrored:
                            image = mirror[label]
                            g = group[image]
                            hm = h2
                            if g >= 0:
                                moved = index2[g] + (mirror[blank] - mirror[nb]) * powers[slot[image]]
                                hm = h2 - group_h2[g] + pdb[offsets[g] + moved]
                            if hm > hc:
                                hc = hm
                    # insertion by h, stable
                    k = count
                    while k > 0 and child_h[depth, k - 1] > hc:
                        child_h[depth, k] = child_h[depth, k - 1]
                        child_move[depth, k] = child_move[depth, k - 1]
                        k -= 1
                    child_h[depth, k] = hc
                    child_move[depth, k] = d
                    count += 1
                generated += count
                child_count[depth] = count
                child_next[depth] = 0
            i = child_next[depth]
            if i < child_count[depth]:
                hc = child_h[depth, i]
                f = depth + 1 + hc
                if f > bound:
                    if f < next_bound:
                        next_bound = f
                    child_next[depth] = child_count[depth]  # the rest have h at least as large
                    continue
                child_next[depth] = i + 1
                d = child_move[depth, i]
                nb = nbr[blank, d]
                label = board[nb]
                board[blank] = label
                board[nb] = BLANK
                if kind == H_PDB:
                    if group[label] >= 0:
                        index[group[label]] += (blank - nb) * powers[slot[label]]
                    if mirrored and group[mirror[label]] >= 0:
                        image = mirror[label]
                        index2[group[image]] += (mirror[blank] - mirror[nb]) * powers[slot[image]]
                moves[depth] = d
                blank = nb
                depth += 1
                if depth > deepest:
                    deepest = depth
                path_h[depth] = hc
                last = d
                if hc == 0:
                    progress[0] = expanded
                    return FOUND, depth, expanded, generated, deepest + 1
                if depth >= MAX_DEPTH:
                    return NOT_FOUND, -1, expanded, generated, deepest + 1
                fresh = True
                continue
            # every child done: step back to the parent
            if depth == 0:
                break
            depth -= 1
            d = moves[depth]
            # The move undone, written out as the move above is: a shared inline helper for both measured
            # 2.5 times slower (numba, 15-puzzle IDA* with Manhattan: 12 against 30 M nodes a second).
            back = nbr[blank, d ^ 1]  # where the blank came from
            label = board[back]
            board[blank] = label
            board[back] = BLANK
            if kind == H_PDB:
                if group[label] >= 0:
                    index[group[label]] += (blank - back) * powers[slot[label]]
                if mirrored and group[mirror[label]] >= 0:
                    image = mirror[label]
                    index2[group[image]] += (mirror[blank] - mirror[back]) * powers[slot[image]]
            blank = back
            last = moves[depth - 1] if depth > 0 else -1
        if next_bound >= 1 << 30:
            return NOT_FOUND, -1, expanded, generated, deepest + 1
        bound = next_bound


# --- pattern databases ---------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def build_pattern_table(n, positions, cancel, progress):
    """One pattern database: for each placement of the group's tiles (tile j's goal is
    ``positions[j]``; the other tiles indistinguishable), the fewest moves *of the group's tiles*
    that bring them home, wherever the blank ends (so that disjoint groups add up).

    A 0-1 breadth-first search over (placement, blank cell), backwards from every goal placement
    (the group home, the blank on any other cell): moving a group tile costs 1, the blank's moves
    through the other cells cost 0. Level by level: first the 0-cost closure of a level (all its
    states reached for free), only then its 1-cost moves, so a state is final when first reached.
    The table is indexed sparsely, ``sum_j cell_j · n²^j`` (n²^k bytes: 16.8 MB for six tiles of
    the 15-puzzle), so that a search updates the index by one tile's term; each entry is the
    minimum over the blank's cell, a byte (255: unreachable placement, i.e. unused index).
    Returns (table, states visited); an empty table if cancelled.
    """
    cells = n * n
    k = positions.shape[0]
    powers = np.empty(k, np.int64)
    p = 1
    for j in range(k):
        powers[j] = p
        p *= cells
    size = p
    table = np.full(size, 255, np.uint8)
    seen = np.zeros(size, np.uint32)  # bit b: (placement, blank on b) reached
    states = 1
    for j in range(k):
        states *= cells - j
    states *= cells - k
    queue = np.empty(states, np.int32)  # every state is queued exactly once: idx * cells + blank
    nbr = neighbours(n)
    at = np.full(cells, -1, np.int64)  # the group tile on each cell while a state is decoded
    goal = 0
    for j in range(k):
        goal += positions[j] * powers[j]
        at[positions[j]] = j
    tail = 0
    for b in range(cells):
        if at[b] < 0:
            seen[goal] |= np.uint32(1) << np.uint32(b)
            queue[tail] = goal * cells + b
            tail += 1
    for j in range(k):
        at[positions[j]] = -1
    table[goal] = 0
    start = 0
    level = 0
    work = 0
    while start < tail:
        # 1. the level's 0-cost closure: the blank wanders among the other tiles
        i = start
        while i < tail:
            code = np.int64(queue[i])
            idx = code // cells
            b = code % cells
            mask = np.int64(0)
            rest = idx
            for _ in range(k):
                mask |= np.int64(1) << (rest % cells)
                rest //= cells
            for d in range(4):
                nb = nbr[b, d]
                if nb < 0 or (mask >> nb) & 1:
                    continue
                bit = np.uint32(1) << np.uint32(nb)
                if seen[idx] & bit:
                    continue
                seen[idx] |= bit
                queue[tail] = idx * cells + nb
                tail += 1
            i += 1
        end = tail
        # 2. its 1-cost moves: a group tile slides into the blank
        for i in range(start, end):
            code = np.int64(queue[i])
            idx = code // cells
            b = code % cells
            rest = idx
            for j in range(k):
                at[rest % cells] = j
                rest //= cells
            for d in range(4):
                nb = nbr[b, d]
                if nb < 0:
                    continue
                j = at[nb]
                if j < 0:
                    continue
                moved = idx + (b - nb) * powers[j]
                bit = np.uint32(1) << np.uint32(nb)
                if seen[moved] & bit:
                    continue
                seen[moved] |= bit
                queue[tail] = moved * cells + nb
                tail += 1
                if table[moved] == 255:
                    table[moved] = level + 1
            rest = idx
            for _ in range(k):
                at[rest % cells] = -1
                rest //= cells
            work += 1
            if work % CHECK_EVERY == 0:
                progress[0] = tail
                if cancel[0] != 0:
                    return np.empty(0, np.uint8), tail
        start = end
        level += 1
    return table, tail


# --- A* over boards small enough to index every state (the 8-puzzle) --------------------------


@njit(cache=True, nogil=True)
def _rank(board, blank_label):
    """The lexicographic rank of a relabelled board as a permutation (the blank as ``blank_label``)."""
    cells = board.shape[0]
    r = 0
    for i in range(cells):
        a = blank_label if board[i] == BLANK else board[i]
        smaller = 0
        for j in range(i + 1, cells):
            b = blank_label if board[j] == BLANK else board[j]
            if b < a:
                smaller += 1
        r = r * (cells - i) + smaller
    return r


@njit(cache=True, nogil=True)
def _unrank(r, cells, blank_label, board):
    """The board of rank ``r`` (inverse of ``_rank``), written into ``board``; returns the blank's cell."""
    digits = np.empty(cells, np.int64)
    for i in range(cells - 1, -1, -1):
        digits[i] = r % (cells - i)
        r //= cells - i
    used = np.zeros(cells, np.bool_)
    blank = 0
    for i in range(cells):
        k = digits[i]
        for v in range(cells):
            if not used[v]:
                if k == 0:
                    used[v] = True
                    if v == blank_label:
                        board[i] = BLANK
                        blank = i
                    else:
                        board[i] = v
                    break
                k -= 1
    return blank


@njit(cache=True, nogil=True)
def _heap_less(heap, a, b):
    for f in range(3):  # (f, h, order)
        if heap[a, f] != heap[b, f]:
            return heap[a, f] < heap[b, f]
    return False


@njit(cache=True, nogil=True)
def a_star_small(board_in, n, blank_goal, kind, md, pdb, offsets, group, slot, powers, max_expanded, cancel,
                 progress, moves):  # fmt: skip
    """A* over every state of a small board (n = 3: 9! ranks), exactly as the generic ``best_first``:
    a heap ordered by (f, h, insertion order), lazy deletion, the goal test on expansion, successors
    U, D, L, R. Returns (outcome, cost, expanded, generated, max_frontier), counted as
    ``server.search.stats.Tally`` counts the generic events (the start is generated; a cheaper
    path to a frontier state is generated again), so the figures equal the generic A*'s."""
    cells = n * n
    states = 1
    for i in range(2, cells + 1):
        states *= i
    g_of = np.full(states, -1, np.int32)
    closed = np.zeros(states, np.uint8)
    came = np.zeros(states, np.int8)
    capacity = 4 * states + 16
    heap = np.empty((capacity, 5), np.int64)  # f, h, order, g, rank
    size = 0
    board = board_in.copy()
    nbr = neighbours(n)
    index = np.zeros(max(offsets.shape[0], 1), np.int64)
    index2 = np.zeros(max(offsets.shape[0], 1), np.int64)
    no_mirror = np.zeros(0, np.int64)
    start = _rank(board, blank_goal)
    h = heuristic_of(board, n, kind, md, pdb, offsets, group, slot, powers, no_mirror, index, index2)
    g_of[start] = 0
    heap[0, 0] = h
    heap[0, 1] = h
    heap[0, 2] = 0
    heap[0, 3] = 0
    heap[0, 4] = start
    size = 1
    order = 1
    expanded = 0
    generated = 1
    frontier = 1
    max_frontier = 1
    while size > 0:
        # pop the root
        g = heap[0, 3]
        r = heap[0, 4]
        size -= 1
        if size > 0:
            for f in range(5):
                heap[0, f] = heap[size, f]
            i = 0
            while True:
                left = 2 * i + 1
                if left >= size:
                    break
                child = left
                if left + 1 < size and _heap_less(heap, left + 1, left):
                    child = left + 1
                if not _heap_less(heap, child, i):
                    break
                for f in range(5):
                    t = heap[i, f]
                    heap[i, f] = heap[child, f]
                    heap[child, f] = t
                i = child
        if closed[r] or g > g_of[r]:
            continue
        closed[r] = 1
        expanded += 1
        frontier -= 1
        if expanded % CHECK_EVERY == 0:
            progress[0] = expanded
            if cancel[0] != 0:
                return CANCELLED, -1, expanded, generated, max_frontier
        if max_expanded >= 0 and expanded > max_expanded:
            return LIMIT, -1, expanded, generated, max_frontier
        blank = _unrank(r, cells, blank_goal, board)
        solved = True
        for c in range(cells):
            if c != blank and board[c] != c:
                solved = False
                break
        if solved:
            # the blank's moves, from the goal back to the start
            depth = 0
            while r != start:
                d = came[r]
                moves[depth] = d
                depth += 1
                back = nbr[blank, d ^ 1]
                board[blank] = board[back]
                board[back] = BLANK
                blank = back
                r = _rank(board, blank_goal)
            for i in range(depth // 2):
                t = moves[i]
                moves[i] = moves[depth - 1 - i]
                moves[depth - 1 - i] = t
            progress[0] = expanded
            return FOUND, depth, expanded, generated, max_frontier
        for d in range(4):
            nb = nbr[blank, d]
            if nb < 0:
                continue
            board[blank] = board[nb]
            board[nb] = BLANK
            nr = _rank(board, blank_goal)
            cost = g + 1
            known = g_of[nr]
            if closed[nr] == 0 and (known < 0 or cost < known):
                hc = heuristic_of(
                    board, n, kind, md, pdb, offsets, group, slot, powers, no_mirror, index, index2
                )
                g_of[nr] = cost
                came[nr] = d
                if size >= capacity:
                    return NOT_FOUND, -1, expanded, generated, max_frontier  # cannot happen: 4 pushes a state
                j = size
                heap[j, 0] = cost + hc
                heap[j, 1] = hc
                heap[j, 2] = order
                heap[j, 3] = cost
                heap[j, 4] = nr
                size += 1
                order += 1
                while j > 0:
                    parent = (j - 1) // 2
                    if not _heap_less(heap, j, parent):
                        break
                    for f in range(5):
                        t = heap[j, f]
                        heap[j, f] = heap[parent, f]
                        heap[parent, f] = t
                    j = parent
                generated += 1
                if known < 0:
                    frontier += 1
                    if frontier > max_frontier:
                        max_frontier = frontier
            board[nb] = board[blank]
            board[blank] = BLANK
    return NOT_FOUND, -1, expanded, generated, max_frontier


@njit(cache=True, nogil=True)
def tree_ids_count(board_in, n, max_depth):
    """Iterative deepening as a pure tree search, for AIMA's table: no duplicate of any kind is pruned
    (a child may undo its parent's move), the goal tested when a node is visited, depth limits 0, 1, …
    Returns (depth of the goal or -1 past ``max_depth``, nodes generated: every node created, each
    iteration's root included, expanded: nodes whose children were created)."""
    cells = n * n
    board = board_in.copy()
    nbr = neighbours(n)
    blank = 0
    for c in range(cells):
        if board[c] == BLANK:
            blank = c
    moves = np.zeros(max_depth + 2, np.int64)
    tried = np.zeros(max_depth + 2, np.int64)
    generated = 0
    expanded = 0
    for limit in range(max_depth + 1):
        depth = 0
        generated += 1  # the root
        tried[0] = 0
        visiting = True
        while True:
            if visiting:
                visiting = False
                solved = True
                for c in range(cells):
                    if c != blank and board[c] != c:
                        solved = False
                        break
                if solved:
                    return depth, generated, expanded
                if depth == limit:
                    tried[depth] = 4  # a leaf of this iteration
                else:
                    expanded += 1
                    for d in range(4):
                        if nbr[blank, d] >= 0:
                            generated += 1
                    tried[depth] = 0
            d = tried[depth]
            while d < 4 and nbr[blank, d] < 0:
                d += 1
            if d < 4:
                tried[depth] = d + 1
                nb = nbr[blank, d]
                board[blank] = board[nb]
                board[nb] = BLANK
                blank = nb
                moves[depth] = d
                depth += 1
                visiting = True
                continue
            if depth == 0:
                break
            depth -= 1
            back = nbr[blank, moves[depth] ^ 1]
            board[blank] = board[back]
            board[back] = BLANK
            blank = back
    return -1, generated, expanded
