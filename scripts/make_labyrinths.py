"""Write the bundled labyrinth boards of the gallery (mazes/labyrinth-*.json), reproducibly.

Random boards from fixed seeds, kept when their optimum (A*, combined moves) is long enough to be
interesting and short enough to search in well under a second. ``scripts/make_mazes.py`` writes them
with the rest of the gallery.
"""

from __future__ import annotations

import json
import random

from server.puzzles.labyrinth.generate import course_board
from server.puzzles.labyrinth.model import LabyrinthPuzzle
from server.puzzles.labyrinth.parse import puzzle_to_json
from server.puzzles.labyrinth.solve import solve_labyrinth

BOARDS = [
    # (file, title, rows, cols, wanted optimum range, description)
    ("labyrinth-course-5x5.json", "Shifting tiles, course rules, 5 × 5", 5, 5, (4, 6),
     "The course task: push the free tile into the marked rows, walk along the corridors, leave above "
     "the last column. Compare A* with seed 000's greedy method."),
    ("labyrinth-course-7x6.json", "Shifting tiles, course rules, 6 wide × 7 high", 7, 6, (5, 7),
     "A course-sized board: a few thousand states, solved optimally in well under a second."),
]


def find(rows: int, cols: int, wanted: tuple[int, int], seed: int) -> tuple[LabyrinthPuzzle, int]:
    rng = random.Random(seed)
    while True:
        puzzle = course_board(rng, rows, cols)
        result = solve_labyrinth(puzzle, "astar", max_expanded=50_000, max_seconds=5)
        if result["found"] and wanted[0] <= result["cost"] <= wanted[1]:
            return puzzle, result["cost"]


def gallery_items() -> list[tuple[dict[str, str], bytes]]:
    """(gallery entry, file contents) of each labyrinth board; scripts/make_mazes.py writes them."""
    items = []
    for number, (file, title, rows, cols, wanted, description) in enumerate(BOARDS):
        puzzle, cost = find(rows, cols, wanted, seed=1000 + number)
        data = puzzle_to_json(puzzle)
        data["name"] = file.removesuffix(".json")
        entry = {"name": data["name"], "file": file, "family": "labyrinth", "title": title,
                 "description": f"{description} Optimum: {cost} moves."}
        items.append((entry, _dumps(data).encode()))
    return items


def _dumps(data: dict) -> str:
    """JSON with one line per board row, as a person would write it."""
    rows = data.pop("board")
    body = json.dumps(data, indent=2)
    board = ",\n".join(f"    {json.dumps(row)}" for row in rows)
    return body.replace("{\n", '{\n  "board": [\n' + board + "\n  ],\n", 1) + "\n"
