"""Which puzzle family a file belongs to, and the one entry point that parses any of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.puzzles.errors import PuzzleError
from server.puzzles.grid_model import GridMaze
from server.puzzles.labyrinth_model import LabyrinthPuzzle
from server.puzzles.labyrinth_parse import LabyrinthOptions

FAMILIES = ("grid", "step", "labyrinth", "zenji")
# The formats grid_image accepts (TIFF and EPS are kept away from uploads there).
IMAGE_EXTENSIONS = {".png", ".gif", ".bmp", ".jpg", ".jpeg", ".webp", ".ppm", ".pgm", ".pbm"}
IMAGE_MAGIC = (b"\x89PNG", b"GIF8", b"BM", b"\xff\xd8\xff", b"RIFF")

Puzzle = GridMaze | LabyrinthPuzzle  # grows as families are added


def detect_family(filename: str, data: bytes) -> str:
    """The family of a file: by its extension first, then by its content."""
    ext = Path(filename).suffix.lower()
    if ext in IMAGE_EXTENSIONS or data.startswith(IMAGE_MAGIC):
        return "grid"
    if ext == ".csv":
        return "labyrinth"
    if ext == ".json":
        return "labyrinth"
    return "grid"


def load_puzzle(
    data: bytes,
    filename: str = "puzzle",
    family: str | None = None,
    *,
    max_pixels: int = 50_000_000,
    labyrinth: LabyrinthOptions | None = None,
) -> Puzzle:
    """Parse ``data`` into a puzzle model; raises PuzzleError naming what is wrong and where.

    ``labyrinth`` carries the labyrinth options that a file may leave open (start and goal column,
    move model, insertion rows, ...).
    """
    family = family or detect_family(filename, data)
    if family not in FAMILIES:
        raise PuzzleError(f"unknown family {family!r}; choose one of: {', '.join(FAMILIES)}", "family")
    name = Path(filename).stem or "puzzle"
    if family == "grid":
        return _load_grid(data, filename, name, max_pixels)
    if family == "labyrinth":
        return _load_labyrinth(data, filename, name, labyrinth)
    raise PuzzleError(f"the {family} family is not supported yet", "family")


def _load_grid(data: bytes, filename: str, name: str, max_pixels: int) -> GridMaze:
    from server.puzzles.grid_image import parse_grid_image
    from server.puzzles.grid_text import parse_grid_text

    if not data:
        raise PuzzleError("the file is empty", "file")
    if Path(filename).suffix.lower() in IMAGE_EXTENSIONS or data.startswith(IMAGE_MAGIC):
        return parse_grid_image(data, name, max_pixels=max_pixels)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PuzzleError(
            f"not a text maze (byte {err.start} is not UTF-8) and not an image Pillow can read", "file"
        ) from None
    return parse_grid_text(text, name)


def _load_labyrinth(
    data: bytes, filename: str, name: str, options: LabyrinthOptions | None
) -> LabyrinthPuzzle:
    from server.puzzles.labyrinth_parse import parse_labyrinth_csv, parse_labyrinth_json

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PuzzleError(f"not a text file (byte {err.start} is not UTF-8)", "file") from None
    if Path(filename).suffix.lower() == ".csv" or not text.lstrip("\ufeff \r\n\t").startswith("{"):
        return parse_labyrinth_csv(text, options, name)
    return parse_labyrinth_json(text, options, name)


def puzzle_family(puzzle: Any) -> str:
    if isinstance(puzzle, GridMaze):
        return "grid"
    if isinstance(puzzle, LabyrinthPuzzle):
        return "labyrinth"
    raise TypeError(f"unknown puzzle type {type(puzzle).__name__}")
