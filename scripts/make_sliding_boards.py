"""Write the gallery's sliding-tile boards (mazes/sliding-*): the course's classics, written out by hand
and checked against their known optimal lengths when the gallery is made.
``scripts/make_mazes.py`` writes them with the rest of the gallery.
"""

from __future__ import annotations

from server.puzzles.registry import load_puzzle
from server.solving import solve

KORF_GOAL = "goal: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"
BOARDS = (
    (
        "sliding-aima-3-28", "8-puzzle, AIMA figure 3.28",
        "# AIMA (3rd ed.) figure 3.28: the start state of the 8-puzzle, the blank in the middle,\n"
        "# and its goal with the blank first. Optimum: 26 moves.\n"
        "7 2 4\n5 0 6\n8 3 1\ngoal:\n0 1 2\n3 4 5\n6 7 8\n",
        26,
        "The textbook's board (blank-first goal): 26 moves. Compare A* with misplaced tiles (h1) and with "
        "Manhattan distance (h2), and watch the 8-puzzle's whole state space light up.",
    ),
    (
        "sliding-hardest-8", "8-puzzle, one of the two hardest",
        "# One of the two 8-puzzles farthest from the goal 1 ... 8, blank last: 31 moves.\n"
        "8 6 7\n2 5 4\n3 0 1\n",
        31,
        "No 8-puzzle needs more moves: 31. Breadth-first search expands nearly all 181,440 boards; "
        "IDA* with linear conflict a few thousand.",
    ),
    (
        "sliding-korf-79", "15-puzzle, Korf's instance 79",
        "# Korf (1985), instance 79 of his 100 random 15-puzzles, in his format: one line, the goal with\n"
        "# the blank first. Optimum: 42 moves (Korf's IDA* with Manhattan distance: 540,860 nodes).\n"
        "0 1 9 7 11 13 5 3 14 12 4 2 8 6 10 15\n" + KORF_GOAL,
        42,
        "The easiest of Korf's 100 random instances: 42 moves. IDA* with Manhattan distance solves it in "
        "seconds; linear conflict expands several times fewer boards.",
    ),
)


def gallery_items() -> list[tuple[dict[str, str], bytes]]:
    """(gallery entry, file contents) of each sliding-tile board, its optimum checked."""
    items = []
    for name, title, text, optimum, description in BOARDS:
        board = load_puzzle(text.encode(), f"{name}.txt", "sliding")
        found = solve(board, "idastar", {"heuristic": "linear_conflict"}, max_seconds=60).json
        assert found["found"] and found["cost"] == optimum, (name, found["cost"])
        entry = {"name": name, "file": f"{name}.txt", "family": "sliding", "title": title,
                 "description": description}
        items.append((entry, text.encode()))
    return items
