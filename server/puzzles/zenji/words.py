"""A Zenji path in words: the tiles the water passes, the sides it enters and leaves each by, and the
turns to make. The family's results and the checker's replay both say it so."""

from __future__ import annotations

from typing import Any

from ...i18n import t
from .model import SIDE_WORDS, SIDES, STEPS, ZenjiBoard, turned

TIMES = {1: "zenji.once", 2: "zenji.twice", 3: "zenji.three_times"}


def water_in_words(board: ZenjiBoard, path: list[list[int]]) -> dict[str, Any]:
    """From a path of [row, col, rot] states: the tiles the water passes, the side it enters and leaves
    each by, the turns to make, and the board after them."""
    water, moves = [], []
    tiles = [list(tile) for tile in board.tiles]
    for index, (r, c, rot) in enumerate(path):
        enter = leave = None
        if index > 0:
            pr, pc, _ = path[index - 1]
            enter = SIDES[STEPS.index((pr - r, pc - c))]
        if index + 1 < len(path):
            nr, nc, _ = path[index + 1]
            leave = SIDES[STEPS.index((nr - r, nc - c))]
        water.append({"tile": [r, c], "rot": rot, "enter": enter, "leave": leave})
        if rot:
            tiles[r * board.cols + c] = list(turned(board.tile(r, c), rot))
            moves.append(
                {
                    "tile": [r, c],
                    "turns": rot,
                    "text": t("zenji.turn_clockwise_2", r=r, c=c, times=t(TIMES[rot])),
                }
            )
    for step in water:
        step["text"] = _flow_text(step)
    turned_rows = [tiles[r * board.cols : (r + 1) * board.cols] for r in range(board.rows)]
    return {"path": [step["tile"] for step in water], "water": water, "moves": moves, "turned": turned_rows}


def _flow_text(step: dict[str, Any]) -> str:
    r, c = step["tile"]
    parts = [f"({r}, {c})"]
    if step["enter"]:
        parts.append(t("zenji.in_from", side_words=t(f"zenji.side.{SIDE_WORDS[step['enter']]}")))
    if step["leave"]:
        parts.append(t("zenji.out", side_words=t(f"zenji.side.{SIDE_WORDS[step['leave']]}")))
    return " ".join(parts)
