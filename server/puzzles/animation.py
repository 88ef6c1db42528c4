"""Frames of a search over a board of cells, for the animated GIF export (``server/exporting.py``).

A family whose states sit on a grid of cells (grid mazes; step mazes, one cell per several states)
hands ``search_frames`` its board and a recorded trace; the frames show what the page shows: the
frontier reddish purple, expanded cells on the viridis ramp by their score (g, the wave number for
BFS), cells improved orange, the backward half of a bidirectional search blue, then the path traced
back from the goal in vermillion, the start a blue square and the goal a vermillion disc
(``static/js/colors.js``). Frames are palette images with one fixed palette, so the GIF encoder never
quantises, and a frame costs one byte a pixel.

The board is scaled up to whole pixels per cell (at most ``MAX_CELL_PX``) within ``max_side``, or,
when it has more cells than that on a side, sampled down (nearest cell). Records are applied in
chunks between frame positions with numpy: within a chunk the last record of a cell decides its
colour, as replaying them one by one would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from ..search.events import CLOSE, PATH
from ..search.trace import Trace

MAX_CELL_PX = 32  # a small board is scaled up to at most this many pixels a cell
PATH_LINE_BELOW = 8  # pixels a cell under which the path is also drawn as a line (cells too small)

# The palette: indices 0..9 are the board's cell bytes (the caller's colours), then the search's.
OPEN_I, UPDATE_I, PATH_I, OPEN_B_I, CLOSED_B_I, START_I, GOAL_I, WHITE_I, BLACK_I = range(10, 19)
RAMP0, RAMP_N = 64, 128  # expanded cells: indices 64..191, the score ramp from low to high
SEARCH_RGB = {
    OPEN_I: (0xCC, 0x79, 0xA7),  # reddish purple: the frontier
    UPDATE_I: (0xE6, 0x9F, 0x00),  # orange: a frontier cell with a cheaper g
    PATH_I: (0xD5, 0x5E, 0x00),  # vermillion
    OPEN_B_I: (0x00, 0x72, 0xB2),  # blue: the backward frontier
    CLOSED_B_I: (0x56, 0xB4, 0xE9),  # sky blue: expanded backwards
    START_I: (0x00, 0x72, 0xB2),
    GOAL_I: (0xD5, 0x5E, 0x00),
    WHITE_I: (255, 255, 255),
    BLACK_I: (0, 0, 0),
}
# viridis at 0, 0.1, ..., 1 (matplotlib's table); the dark end is left out as on the page.
VIRIDIS = (
    0x440154, 0x482475, 0x414487, 0x355F8D, 0x2A788E, 0x21918C,
    0x22A884, 0x44BF70, 0x7AD151, 0xBDDF26, 0xFDE725,
)
RAMP_FROM = 0.25
_KIND_INDEX = np.array([OPEN_I, 0, UPDATE_I, PATH_I, OPEN_B_I, CLOSED_B_I, UPDATE_I, 0], dtype=np.uint8)

Progress = Callable[[int, int], None]  # progress(frames done, frames in all)


@dataclass
class CellBoard:
    """What ``search_frames`` draws on: ``base`` (uint8, height x width) holds each cell's palette
    index 0..9 (a grid's cell bytes: 0 wall, 1..9 weights), ``base_rgb`` their colours (10 x 3); a
    trace's cell ``k`` is the board's cell ``k // states_per_cell`` (a step maze: one cell, P phases);
    ``path_line``: the path is a line whatever the cells' size, over the cells' search colours (a step
    maze's moves jump cells)."""

    base: np.ndarray
    base_rgb: np.ndarray
    starts: Sequence[int] = ()
    goals: Sequence[int] = ()
    states_per_cell: int = 1
    path_line: bool = False  # always join the path's cells with a line (a step maze's path jumps)


def palette(base_rgb: np.ndarray) -> bytes:
    """The 256-colour palette of every frame."""
    table = np.zeros((256, 3), dtype=np.uint8)
    table[:10] = np.asarray(base_rgb, dtype=np.uint8)[:10]
    for index, rgb in SEARCH_RGB.items():
        table[index] = rgb
    for k in range(RAMP_N):
        table[RAMP0 + k] = ramp_rgb(k / (RAMP_N - 1))
    return table.tobytes()


def ramp_rgb(t: float) -> tuple[int, int, int]:
    """The score ramp at ``t`` in [0, 1] (``rampRgb`` of static/js/colors.js)."""
    x = (RAMP_FROM + (1 - RAMP_FROM) * min(1.0, max(0.0, t))) * (len(VIRIDIS) - 1)
    i = min(len(VIRIDIS) - 2, int(x))
    f = x - i
    a, b = VIRIDIS[i], VIRIDIS[i + 1]
    return tuple(  # type: ignore[return-value]
        round(((a >> s) & 255) + (((b >> s) & 255) - ((a >> s) & 255)) * f) for s in (16, 8, 0)
    )


def frame_positions(trace: Trace, max_frames: int) -> list[int]:
    """Trace positions to draw (records applied), 0 first and the whole trace last: most frames over
    the search, about one in eight over the path traced back (it is short but the point)."""
    n = len(trace)
    frames = max(2, min(max_frames, n + 1))
    path_at = np.flatnonzero(trace.kinds == PATH)
    first_path = int(path_at[0]) if path_at.size else n
    path_records = n - first_path
    path_frames = min(path_records, max(1, frames // 8)) if path_records else 0
    search = np.linspace(0, first_path, max(2, frames - path_frames)).round().astype(np.int64)
    tail = np.linspace(first_path, n, path_frames + 1).round().astype(np.int64)[1:]
    return sorted({int(p) for p in (*search, *tail)} | {n})


def frame_size(height: int, width: int, max_side: int) -> tuple[int, int, float]:
    """(frame height, frame width, pixels a cell) for a board within ``max_side`` pixels."""
    longest = max(height, width)
    if longest > max_side:
        factor = max_side / longest
        return max(1, round(height * factor)), max(1, round(width * factor)), factor
    scale = max(1, min(MAX_CELL_PX, max_side // longest))
    return height * scale, width * scale, float(scale)


def search_frames(
    board: CellBoard, trace: Trace, max_frames: int, max_side: int, progress: Progress | None = None,
) -> list[Image.Image]:
    """The frames of ``trace`` on ``board`` (palette images, at most ``max_frames``, neither side
    longer than ``max_side``): the empty board first, the whole search and its path last."""
    height, width = board.base.shape
    size = height * width
    out_h, out_w, cell_px = frame_size(height, width, max_side)
    colour = np.ascontiguousarray(board.base, dtype=np.uint8).reshape(-1).copy()
    pal = palette(board.base_rgb)
    per = max(1, int(board.states_per_cell))
    cells = trace.cells.astype(np.int64) // per if per > 1 else trace.cells.astype(np.int64)
    kinds, values = trace.kinds, trace.values
    top = float(values.max()) if len(values) else 0.0
    to_ramp = (RAMP_N - 1) / max(1.0, top)
    sample = None
    if cell_px < 1:  # more cells than pixels: sample the nearest cell of each pixel
        rows = np.minimum(height - 1, ((np.arange(out_h) + 0.5) * height / out_h).astype(np.int64))
        cols = np.minimum(width - 1, ((np.arange(out_w) + 0.5) * width / out_w).astype(np.int64))
        sample = (rows[:, None] * width + cols[None, :]).reshape(-1)
    positions = frame_positions(trace, max_frames)
    frames: list[Image.Image] = []
    path: list[int] = []
    done = 0
    for position in positions:
        path_here = kinds[done:position] == PATH
        keep = ~path_here if board.path_line else slice(None)  # a drawn path leaves its cells' colours
        _apply(colour, kinds[done:position][keep], cells[done:position][keep], values[done:position][keep],
               size, to_ramp)
        path.extend(int(c) for c in cells[done:position][path_here] if 0 <= c < size)
        done = position
        if sample is None:
            image = Image.frombytes("P", (width, height), colour.tobytes())
            if (out_w, out_h) != (width, height):
                image = image.resize((out_w, out_h), Image.Resampling.NEAREST)
        else:
            image = Image.frombytes("P", (out_w, out_h), colour[sample].tobytes())
        image.putpalette(pal)
        _draw_marks(image, board, width, cell_px, path)
        frames.append(image)
        if progress is not None:
            progress(len(frames), len(positions))
    return frames


def _apply(
    colour: np.ndarray, kinds: np.ndarray, cells: np.ndarray, values: np.ndarray, size: int, to_ramp: float,
) -> None:
    """Colour each cell as the last of these records that touches it leaves it."""
    inside = (cells >= 0) & (cells < size)
    if not inside.all():
        kinds, cells, values = kinds[inside], cells[inside], values[inside]
    if not len(cells):
        return
    last_first, unique_at = np.unique(cells[::-1], return_index=True)  # first from the end = last
    last = len(cells) - 1 - unique_at
    kind = kinds[last]
    index = _KIND_INDEX[np.minimum(kind, len(_KIND_INDEX) - 1)]
    closed = kind == CLOSE
    if closed.any():
        ramp = np.clip((values[last][closed] * to_ramp).astype(np.int64), 0, RAMP_N - 1)
        index[closed] = (RAMP0 + ramp).astype(np.uint8)
    colour[last_first] = index


def _centre(cell: int, width: int, cell_px: float) -> tuple[float, float]:
    row, col = divmod(cell, width)
    return (col + 0.5) * cell_px, (row + 0.5) * cell_px


def _draw_marks(image: Image.Image, board: CellBoard, width: int, cell_px: float, path: list[int]) -> None:
    """The path as a line when cells are too small to show it, and the start and goal markers."""
    draw = ImageDraw.Draw(image)
    if len(path) >= 2 and (cell_px < PATH_LINE_BELOW or board.path_line):
        points = [_centre(c, width, cell_px) for c in path]
        line = max(2, round(cell_px if cell_px < PATH_LINE_BELOW else cell_px / 5))
        draw.line(points, fill=WHITE_I, width=line + 2, joint="curve")
        draw.line(points, fill=PATH_I, width=line, joint="curve")
    half = max(4.5, cell_px * 0.45)
    ring = 1 if half < 8 else 2
    for cells, shape, fill in ((board.starts, "square", START_I), (board.goals, "disc", GOAL_I)):
        for cell in list(cells)[:400]:
            x, y = _centre(int(cell), width, cell_px)
            box = (x - half, y - half, x + half, y + half)
            edge = (x - half - 1, y - half - 1, x + half + 1, y + half + 1)  # a black edge, then white
            if shape == "square":
                draw.rectangle(edge, fill=BLACK_I)
                draw.rectangle(box, fill=fill, outline=WHITE_I, width=ring)
            else:
                draw.ellipse(edge, fill=BLACK_I)
                draw.ellipse(box, fill=fill, outline=WHITE_I, width=ring)


__all__ = ["CellBoard", "frame_positions", "frame_size", "search_frames"]
