"""A binary heap of item numbers ordered by their keys, holding each item at most once (decrease-key
by sifting up), for the compiled Dijkstras of the heuristic lab (``search/backward.py``,
``grid/lab.cost_to_go``): its memory is two arrays sized by the items, known before the search runs.

``heap[:size]`` holds the items; ``slot[item]`` is its place in the heap, ``UNSEEN`` before it is
pushed, ``SETTLED`` once popped; ``key[item]`` orders them (the cost so far)."""

from __future__ import annotations

from numba import njit

UNSEEN = -1
SETTLED = -2


@njit(cache=True, nogil=True)
def started(heap, slot, key, sources):
    """A heap of the ``sources`` at key 0 (every other item ``UNSEEN``, key untouched: the caller's
    infinity); returns its size."""
    for item in range(slot.shape[0]):
        slot[item] = UNSEEN
    size = 0
    for item in sources:
        if slot[item] == UNSEEN:
            key[item] = 0.0
            heap[size] = item  # every key 0: already a heap
            slot[item] = size
            size += 1
    return size


@njit(cache=True, nogil=True)
def pop_min(heap, slot, key, size):
    """Take the item of least key off the heap (marked ``SETTLED``); returns (item, the new size)."""
    top = heap[0]
    slot[top] = SETTLED
    size -= 1
    if size > 0:  # the last entry to the root, sifted down
        moved = heap[size]
        moved_key = key[moved]
        i = 0
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and key[heap[child + 1]] < key[heap[child]]:
                child += 1
            if key[heap[child]] >= moved_key:
                break
            heap[i] = heap[child]
            slot[heap[i]] = i
            i = child
        heap[i] = moved
        slot[moved] = i
    return top, size


@njit(cache=True, nogil=True)
def lowered(heap, slot, key, item, size):
    """``item``'s key was just lowered (or set for the first time: pushed as a new leaf): sift it up to
    its place; returns the new size."""
    i = slot[item]
    if i == UNSEEN:
        i = size
        size += 1
    through = key[item]
    while i > 0:
        parent = (i - 1) >> 1
        if key[heap[parent]] <= through:
            break
        heap[i] = heap[parent]
        slot[heap[i]] = i
        i = parent
    heap[i] = item
    slot[item] = i
    return size
