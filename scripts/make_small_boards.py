"""Write the gallery's step-cycle mazes and Zenji boards (mazes/step-*, mazes/zenji-*), reproducibly.

The seeds' own examples as PUZZLES.md writes them out, and generated boards from fixed seeds, kept
when their optimum is long enough to be worth watching and quick to find.
``scripts/make_mazes.py`` writes them with the rest of the gallery.
"""

from __future__ import annotations

import json

from server.puzzles.step.generate import random_step_maze, shortest_moves
from server.puzzles.step.parse import maze_to_text
from server.puzzles.zenji.generate import random_board
from server.puzzles.zenji.parse import board_to_json, board_to_text
from server.solving import solve

STEP_SEED = "S.....\nXXXXXX\nX.X..X\nX.XXXX\nX.X..X\nX....Z\nX....X\nXXXXXX\n"  # PUZZLES.md §2
ZENJI_SEED = (  # PUZZLES.md §4, one row of [N, E, S, W] tiles per line
    "# Zenji, seed 001: one row of tiles per line; each tile its sides N E S W\n"
    "# (0 closed, 1 inlet, 2 outlet, 3 source, 4 drain)\n"
    "3223 2010 1221 0000\n0000 0012 0122 0021\n0021 1020 1212 0102\n1200 1201 1200 1441\n"
)


def _step_entry(name: str, title: str, text: str, description: str) -> tuple[dict[str, str], bytes]:
    entry = {"name": name, "file": f"{name}.txt", "family": "step", "title": title}
    entry["description"] = description
    return entry, text.encode()


def _zenji_optimum(board) -> tuple[int, int]:
    result = solve(board, "dijkstra", {}, max_expanded=200_000, max_seconds=10).json
    return result["cost"], result["tiles"]


def _generated_zenji(rows: int, cols: int, flow: str, wanted: int, first_seed: int):
    for seed in range(first_seed, first_seed + 500):
        board = random_board(rows, cols, seed, flow)
        turns, tiles = _zenji_optimum(board)
        if turns >= wanted:
            return board, turns, tiles
    raise RuntimeError(f"no {rows} x {cols} {flow} board needs {wanted} turns")


def gallery_items() -> list[tuple[dict[str, str], bytes]]:
    """(gallery entry, file contents) of each step maze and Zenji board."""
    items = [
        _step_entry(
            "step-seed-003", "1-2-3 maze (seed 003)", STEP_SEED,
            "The course's step-cycle maze: moves of 1, 2, 3, 1, … cells in a straight line over marked "
            "cells. The same cell is visited again in another phase; the shortest solution takes 15 moves.",
        )
    ]
    for rows, cols, seed, wanted in ((9, 12, 21, 10),):
        for attempt in range(seed, seed + 200):
            maze = random_step_maze(rows, cols, attempt)
            moves = shortest_moves(maze)
            if moves is not None and moves >= wanted:
                break
        items.append(_step_entry(
            f"step-random-{rows}x{cols}", f"1-2-3 maze, random {cols} × {rows}", maze_to_text(maze),
            f"A generated step-cycle maze (seed {attempt}). Optimum: {moves} moves. Compare how many "
            "(cell, phase) states breadth-first search and A* expand.",
        ))
    seed_entry = {
        "name": "zenji-seed-001", "file": "zenji-seed-001.txt", "family": "zenji",
        "title": "Zenji pipes (seed 001)",
        "description": "The course's 4 × 4 board: turn pipe tiles clockwise so that water runs from the "
        "source (top left) down and right to the drain. Optimum: 7 quarter turns.",
    }
    items.append((seed_entry, ZENJI_SEED.encode()))
    for rows, cols, flow, wanted, first in ((6, 6, "downhill", 12, 1), (5, 5, "free", 9, 1)):
        board, turns, tiles = _generated_zenji(rows, cols, flow, wanted, first)
        name = f"zenji-{flow}-{rows}x{cols}"
        what = "only east and south" if flow == "downhill" else "in any direction, each tile once"
        entry = {
            "name": name, "file": f"{name}.json", "family": "zenji",
            "title": f"Zenji, {flow} flow, {cols} × {rows}",
            "description": f"A generated board; water flows {what}. Optimum: {turns} quarter turns "
            f"through {tiles} tiles. Compare Dijkstra's expansions with A*'s.",
        }
        data = board_to_json(board)
        data["name"] = name
        items.append((entry, (json.dumps(data) + "\n").encode()))
    return items


__all__ = ["board_to_text", "gallery_items"]
