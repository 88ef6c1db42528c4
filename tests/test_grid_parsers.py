"""Grid maze parsers: the real images of the shared cases, every image mode, bad input, the text format."""

from __future__ import annotations

import io
import struct
import time
import warnings
import zlib
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from server.puzzles.errors import PuzzleError
from server.puzzles.grid.image import parse_grid_image
from server.puzzles.grid.model import GridMaze
from server.puzzles.grid.text import parse_grid_text

# file, (width, height), start cells, goal cells (row, col); pinned by inspecting the images.
SHARED_IMAGES = [
    ("lee/maze.png", (16, 13), [(1, 0)], [(7, 15)]),
    ("lee/maze2.png", (16, 13), [(1, 0)], [(7, 15)]),
    ("lee/maze3.png", (34, 25), [(4, 1)], [(10, 19)]),
    ("lee/maze3-old.png", (32, 23), [(3, 3)], [(9, 18)]),
    ("mikepound/tiny.png", (10, 10), [(0, 3)], [(9, 7)]),
    ("mikepound/small.png", (15, 15), [(0, 1)], [(14, 13)]),
    ("mikepound/normal.png", (41, 41), [(0, 3)], [(40, 31)]),
    ("mikepound/braid200.png", (201, 201), [(0, 97)], [(200, 185)]),
    ("mikepound/logo.png", (289, 289), [(0, 99)], [(288, 151)]),
    ("mikepound/combo400.png", (401, 401), [(0, 303)], [(400, 395)]),
    ("mikepound/braid2k.png", (1940, 2001), [(0, 1456)], [(2000, 692)]),
    ("mikepound/perfect2k.png", (2001, 2001), [(0, 1009)], [(2000, 1897)]),
    ("mikepound/perfect4k.png", (4001, 4001), [(0, 3513)], [(4000, 3441)]),
    ("mikepound/combo6k.png", (6001, 6001), [(0, 9)], [(6000, 5983)]),
]


def ends(maze: GridMaze) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    return [maze.rc(i) for i in maze.starts], [maze.rc(i) for i in maze.goals]


def bfs_steps(maze: GridMaze) -> int:
    """Fewest 4-neighbour steps from any start to the nearest goal (-1: unreachable)."""
    free = maze.cells != 0
    goals = set(ends(maze)[1])
    seen = set(ends(maze)[0])
    frontier = deque((rc, 0) for rc in seen)
    while frontier:
        (r, c), d = frontier.popleft()
        if (r, c) in goals:
            return d
        for nr, nc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if 0 <= nr < maze.height and 0 <= nc < maze.width and free[nr, nc] and (nr, nc) not in seen:
                seen.add((nr, nc))
                frontier.append(((nr, nc), d + 1))
    return -1


def png(image: Image.Image, fmt: str = "PNG", **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt, **options)
    return buffer.getvalue()


def image_of(rows: list[str]) -> Image.Image:
    """An RGB image from rows of characters: # black, . white, B blue, g green, Y yellow, R red."""
    colours = {"#": (0, 0, 0), ".": (255, 255, 255), "B": (0, 0, 255), "g": (0, 255, 0)}
    colours |= {"Y": (255, 255, 0), "R": (255, 0, 0)}
    return Image.fromarray(np.array([[colours[ch] for ch in row] for row in rows], dtype=np.uint8), "RGB")


# --- the shared images ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("case", "size", "starts", "goals"), SHARED_IMAGES, ids=[c[0] for c in SHARED_IMAGES]
)
def test_shared_images(shared_cases: Path, case: str, size, starts, goals) -> None:
    data = (shared_cases / "images" / case).read_bytes()
    began = time.perf_counter()
    maze = parse_grid_image(data, case)
    elapsed = time.perf_counter() - began
    assert (maze.width, maze.height) == size
    assert ends(maze) == (starts, goals)
    assert maze.endpoint_problem is None
    assert maze.source == "image" and maze.name == case
    assert not maze.weighted
    assert elapsed < 5.0, f"{case} took {elapsed:.2f} s"  # ~0.1 s for perfect4k, ~0.3 s for combo6k


def test_maze3_has_the_articles_score_52(shared_cases: Path) -> None:
    maze = parse_grid_image((shared_cases / "images/lee/maze3.png").read_bytes())
    assert bfs_steps(maze) == 52
    assert any("blue marker" in note for note in maze.notes)
    assert any("yellow marker" in note for note in maze.notes)


def test_mikepound_colours_match_the_palette(shared_cases: Path) -> None:
    """Palette index 1 (white) is free, index 0 (black) is wall, pixel for pixel."""
    data = (shared_cases / "images/mikepound/perfect2k.png").read_bytes()
    maze = parse_grid_image(data)
    assert np.array_equal(maze.cells, np.asarray(Image.open(io.BytesIO(data))))
    assert any("palette" in note for note in maze.notes)


# --- every mode and format gives the same maze ----------------------------------------------------


@pytest.mark.parametrize("mode", ["P", "RGB", "RGBA", "LA", "L", "1", "I;16", "CMYK"])
def test_every_image_mode_reads_the_same(shared_cases: Path, mode: str) -> None:
    original = Image.open(shared_cases / "images/mikepound/normal.png")
    reference = parse_grid_image(png(original))
    if mode == "I;16":
        converted = Image.fromarray(np.asarray(original).astype(np.uint16) * 65535)
        assert converted.mode == "I;16"
    else:
        converted = original.convert(mode)
    # PNG has no CMYK; JPEG does (and TIFF is not an accepted format).
    data = png(converted, "JPEG", quality=95) if mode == "CMYK" else png(converted)
    maze = parse_grid_image(data)
    assert Image.open(io.BytesIO(data)).mode == mode
    assert np.array_equal(maze.cells, reference.cells)
    assert ends(maze) == ends(reference)


@pytest.mark.parametrize(
    ("fmt", "options"), [("GIF", {}), ("BMP", {}), ("WEBP", {"lossless": True}), ("PPM", {})]
)
def test_other_formats_keep_the_colour_markers(shared_cases: Path, fmt: str, options: dict) -> None:
    original = Image.open(shared_cases / "images/lee/maze3.png")
    reference = parse_grid_image(png(original))
    maze = parse_grid_image(png(original.convert("RGB"), fmt, **options))
    assert np.array_equal(maze.cells, reference.cells)
    assert ends(maze) == ([(4, 1)], [(10, 19)])


def test_jpeg_noise_does_not_matter(shared_cases: Path) -> None:
    """maze3 scaled 8x (8 x 8 pixel cells, so the markers are blobs) and saved as JPEG at quality 75."""
    original = Image.open(shared_cases / "images/lee/maze3.png").convert("RGB")
    reference = parse_grid_image(png(original))
    big = original.resize((34 * 8, 25 * 8), Image.Resampling.NEAREST)
    maze = parse_grid_image(png(big, "JPEG", quality=75))
    expected = np.repeat(np.repeat(reference.cells, 8, axis=0), 8, axis=1)
    assert (maze.cells == expected).mean() > 0.99
    starts, goals = ends(maze)
    assert len(starts) >= 32 and len(goals) >= 32  # most of each 64-pixel blob
    assert {(r // 8, c // 8) for r, c in starts} == {(4, 1)}
    assert {(r // 8, c // 8) for r, c in goals} == {(10, 19)}
    lossless = parse_grid_image(png(big), lattice="off")  # pixels, as the JPEG reads (a lattice otherwise)
    assert abs(bfs_steps(maze) - bfs_steps(lossless)) <= 4  # blob edges may lose a pixel or two


def test_transparent_pixels_count_as_white() -> None:
    rgba = np.zeros((5, 5, 4), dtype=np.uint8)
    rgba[..., 3] = 255
    rgba[1:4, 2, 3] = 0  # a transparent corridor (black but invisible)
    rgba[0, 2] = rgba[4, 2] = (255, 255, 255, 255)
    maze = parse_grid_image(png(Image.fromarray(rgba, "RGBA")))
    assert maze.cells[:, 2].tolist() == [1, 1, 1, 1, 1]
    assert ends(maze) == ([(0, 2)], [(4, 2)])


def test_palette_with_colour_markers() -> None:
    image = image_of(["#.###", "#B..#", "###Y#", "#####"]).convert("P", palette=Image.Palette.ADAPTIVE)
    maze = parse_grid_image(png(image))
    assert ends(maze) == ([(1, 1)], [(2, 3)])
    assert maze.cells[1, 1] == 1  # pure blue is dark, yet free


# --- markers ----------------------------------------------------------------------------------------


def test_blob_markers_and_noise_specks() -> None:
    rows = [
        "##########",
        "#BBB.....#",
        "#BBB...B.#",  # a one-pixel blue speck at (2, 7): noise beside a 9-pixel blob
        "#BBB.....#",
        "#.....YY.#",
        "#.....YY.#",
        "##########",
    ]
    maze = parse_grid_image(png(image_of(rows)))
    starts, goals = ends(maze)
    assert starts == [(r, c) for r in (1, 2, 3) for c in (1, 2, 3)]
    assert goals == [(4, 6), (4, 7), (5, 6), (5, 7)]
    assert maze.cells[2, 7] == 0  # the speck keeps its luminance: blue is dark
    assert any("ignored 1 speck" in note for note in maze.notes)


def test_single_pixel_green_start_and_red_goal() -> None:
    maze = parse_grid_image(png(image_of(["#####", "#g..#", "#..R#", "#####"])))
    assert ends(maze) == ([(1, 1)], [(2, 3)])
    assert maze.cells[2, 3] == 1  # red is dark, yet free


def test_two_start_markers_are_an_error_naming_both() -> None:
    with pytest.raises(PuzzleError) as error:
        parse_grid_image(png(image_of(["######", "#B..B#", "#...Y#", "######"])))
    assert "(1, 1)" in str(error.value) and "(1, 4)" in str(error.value)
    assert error.value.where == "pixel (1, 4)"


def test_several_goal_blobs_are_all_goals() -> None:
    maze = parse_grid_image(png(image_of(["######", "#B..Y#", "#Y...#", "######"])))
    assert ends(maze) == ([(1, 1)], [(1, 4), (2, 1)])


def test_one_marker_and_the_border_rule_for_the_other() -> None:
    maze = parse_grid_image(png(image_of(["##.##", "#...#", "#.Y.#", "#####"])))
    assert ends(maze) == ([(0, 2)], [(2, 2)])
    assert maze.endpoint_problem is None


# --- border openings ------------------------------------------------------------------------------


def test_wide_openings_are_one_opening() -> None:
    maze = parse_grid_image(png(image_of(["#...##", "#....#", "##..##", "##..##"])))
    assert ends(maze) == ([(0, 1), (0, 2), (0, 3)], [(3, 2), (3, 3)])


def test_two_top_openings_leave_the_start_undecided() -> None:
    maze = parse_grid_image(png(image_of(["#.#.##", "#....#", "#....#", "##.###"])))
    assert len(maze.starts) == 0
    assert ends(maze)[1] == [(3, 2)]
    assert maze.endpoint_problem is not None
    assert "2 openings" in maze.endpoint_problem and "columns 1, 3" in maze.endpoint_problem
    assert "start is ambiguous" in maze.endpoint_problem


def test_no_openings_at_all() -> None:
    maze = parse_grid_image(png(image_of(["#####", "#...#", "#####"])))
    assert len(maze.starts) == 0 and len(maze.goals) == 0
    assert maze.endpoint_problem is not None
    assert "no start marker and no opening in the top border row" in maze.endpoint_problem
    assert "no goal marker and no opening in the bottom border row" in maze.endpoint_problem


# --- bad input ------------------------------------------------------------------------------------


def test_a_text_file_named_png() -> None:
    with pytest.raises(PuzzleError) as error:
        parse_grid_image(b"#####\n#S.G#\n#####\n", "maze.png")
    assert "not an image this app can read" in str(error.value)
    assert error.value.where == "file"


def test_a_truncated_png(shared_cases: Path) -> None:
    for case in ("lee/maze3.png", "mikepound/perfect2k.png"):
        data = (shared_cases / "images" / case).read_bytes()
        with pytest.raises(PuzzleError, match="truncated or damaged"):
            parse_grid_image(data[: len(data) // 2])
    with pytest.raises(PuzzleError, match="truncated or damaged"):
        parse_grid_image(data[:40])  # cut inside the header


def test_an_all_black_image() -> None:
    with pytest.raises(PuzzleError, match=r"the image has no free \(light\) pixels"):
        parse_grid_image(png(Image.new("L", (20, 10), 0)))


def png_header(width: int, height: int) -> bytes:
    """A 1-bit PNG that declares its size and holds one row of pixels: enough to open, not to decode."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    row = zlib.compress(bytes(1 + (width + 7) // 8))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", row) + chunk(b"IEND", b"")


def test_the_pixel_limit_is_checked_before_decoding() -> None:
    with pytest.raises(PuzzleError) as error:
        parse_grid_image(png_header(10_000, 6_000), max_pixels=50_000_000)
    message = str(error.value)
    assert "10000 x 6000 = 60,000,000 pixels" in message and "50,000,000" in message
    assert "--max-pixels" in message


def test_pillows_bomb_limit_is_translated() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no DecompressionBombWarning leaks out
        # Over twice Pillow's limit: Pillow refuses it while opening.
        with pytest.raises(PuzzleError, match="--max-pixels"):
            parse_grid_image(png_header(20_000, 10_000))
        # The caller allows more than Pillow's limit: our own check names the exact size.
        with pytest.raises(PuzzleError, match="20000 x 10000 = 200,000,000 pixels"):
            parse_grid_image(png_header(20_000, 10_000), max_pixels=150_000_000)


def test_pillows_bomb_limit_is_relaxed_only_on_request_and_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """With Pillow's limit made tiny (1000 pixels), a 60 x 60 image plays the part of a huge one."""
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    data = png(Image.new("1", (60, 60), 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(PuzzleError, match="--max-pixels"):
            parse_grid_image(data, max_pixels=500)  # our limit is stricter: Pillow's stays, and refuses
        with pytest.raises(PuzzleError, match="60 x 60 = 3,600 pixels"):
            parse_grid_image(data, max_pixels=2000)
        maze = parse_grid_image(data, max_pixels=5000)  # the user asked for it: it opens
    assert (maze.width, maze.height) == (60, 60)
    assert Image.MAX_IMAGE_PIXELS == 1000


# --- the text format ------------------------------------------------------------------------------


def test_text_basics() -> None:
    maze = parse_grid_text("#####\n#S.G#\n#.#9#\n#####\n", "t")
    assert (maze.width, maze.height) == (5, 4)
    assert ends(maze) == ([(1, 1)], [(1, 3)])
    assert maze.cells[2].tolist() == [0, 1, 0, 9, 0]
    assert maze.weighted and maze.source == "text" and maze.endpoint_problem is None


def test_text_line_ends_blank_lines_and_ragged_lines() -> None:
    maze = parse_grid_text("\r\n\r\n####\r\n#S G#\r\n#\r\n####\r\n\r\n   \n")
    assert (maze.width, maze.height) == (5, 4)
    assert maze.cells[0].tolist() == [0, 0, 0, 0, 1]  # padded with a free cell
    assert maze.cells[2].tolist() == [0, 1, 1, 1, 1]
    assert ends(maze) == ([(1, 1)], [(1, 3)])
    assert any("padded" in note for note in maze.notes)


def test_text_several_starts_and_goals() -> None:
    maze = parse_grid_text("S.S\n...\nG.G")
    assert ends(maze) == ([(0, 0), (0, 2)], [(2, 0), (2, 2)])


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("###\n#S#\n#.#\n###@##G", "line 4, column 4", "unknown character '@'"),
        ("\n\n#S.\n#\t.G", "line 4, column 2", "tab"),
        ("#s.G", "line 1, column 2", "'S' and 'G'"),
        ("#S0G", "line 1, column 3", "weights are 1-9"),
    ],
)
def test_text_errors_name_line_and_column(text: str, where: str, words: str) -> None:
    with pytest.raises(PuzzleError) as error:
        parse_grid_text(text)
    assert error.value.where == where
    assert words in error.value.message
    assert str(error.value).startswith(where + ": ")


def test_text_empty_and_all_walls() -> None:
    with pytest.raises(PuzzleError, match="empty"):
        parse_grid_text("")
    with pytest.raises(PuzzleError, match="empty"):
        parse_grid_text("\n\r\n  \n")
    with pytest.raises(PuzzleError, match="no free cell"):
        parse_grid_text("###\n###\n")


def test_text_missing_start_or_goal_is_left_to_the_user() -> None:
    maze = parse_grid_text("#####\n#..G#\n#####")
    assert len(maze.starts) == 0 and ends(maze)[1] == [(1, 3)]
    assert maze.endpoint_problem == "no start cell ('S') in the text"
    both = parse_grid_text("...")
    assert both.endpoint_problem is not None and "start" in both.endpoint_problem
    assert "goal" in both.endpoint_problem
