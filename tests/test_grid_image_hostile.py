"""Maze images made to hurt the image parser (issue 28, points 2 and 7).

A student found that a 48 KB PNG of 7000 x 7000 pure red pixels (the goal's colour) took 95 s and
3.6 GB to read, a 49,000,000 x 1 red line as long, and that an 87-byte PNG declaring 7000 x 7000
pixels with one row of data was accepted as a maze. Each is now answered in words (or accepted with
the right ends): markers may cover at most ``MAX_MARKER_PIXELS`` pixels, counted band by band before
any marker pixel becomes an index; the blobs are found over runs; a PNG whose data is shorter than
its header is refused. The heavy images are read in a process of their own that measures its
resident high-water mark (``VmHWM``, reset through ``/proc/self/clear_refs`` after a warm-up, as
``tests/memory_probe.py`` does): the peak must stay within what the parser reserved (``memory``'s
calls: ``memory_estimate`` and the markers' own), and the reservation no more than ``LOOSE`` times
the peak. No test here times anything; the subprocesses only have a generous timeout.
"""

from __future__ import annotations

import io
import json
import struct
import subprocess
import sys
import zlib
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageFile

from server.puzzles.errors import PuzzleError
from server.puzzles.grid import image as grid_image
from server.puzzles.grid.image import MAX_MARKER_PIXELS, memory_estimate, parse_grid_image
from server.puzzles.grid.model import GridMaze, sorted_unique

ROOT = Path(__file__).resolve().parent.parent
SLACK = 12 * 1024 * 1024  # the interpreter's own noise (arenas, caches), as in test_memory_estimates
LOOSE = 4  # the reservation may be this many times the peak (plus SLACK)

WHITE, BLUE, GREEN, YELLOW, RED = (255, 255, 255), (0, 0, 255), (0, 255, 0), (255, 255, 0), (255, 0, 0)


def png(image: Image.Image, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG", **options)
    return out.getvalue()


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png_by_hand(width: int, height: int, rows: bytes, depth: int = 8, colour: int = 0,
                interlace: int = 0) -> bytes:
    """A PNG whose IHDR says ``width`` x ``height`` and whose one IDAT holds ``rows`` (filter bytes
    included), compressed as one complete zlib stream."""
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows, 9))
            + chunk(b"IEND", b""))


def ends(maze: GridMaze) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    return [maze.rc(i) for i in maze.starts], [maze.rc(i) for i in maze.goals]


# --- a header that lies, a file cut short ---------------------------------------------------------------


def test_a_png_declaring_7000_square_with_one_row_is_refused_in_words() -> None:
    data = png_by_hand(7000, 7000, b"\x00" + b"\xff" * 7000)
    assert len(data) < 100  # 87 bytes
    # Pillow's own decoder takes it: the zlib stream is complete, only short, and it stops there.
    with Image.open(io.BytesIO(data)) as im:
        im.load()
    with pytest.raises(PuzzleError) as error:
        parse_grid_image(data)
    assert error.value.message == (
        "the image data is truncated or damaged: the header declares 7000 x 7000 pixels, "
        "the data holds 1 of its 7,000 rows"
    )
    assert error.value.where == "file"
    assert ImageFile.LOAD_TRUNCATED_IMAGES is False  # the fix is ours, no Pillow global changed


def test_short_data_of_every_layout_is_refused() -> None:
    rgb_row = b"\x00" + b"\xff" * (300 * 3)
    with pytest.raises(PuzzleError, match="300 x 200 pixels, the data holds 150 of its 200 rows"):
        parse_grid_image(png_by_hand(300, 200, rgb_row * 150, colour=2))
    bit_row = b"\x00" + b"\xff" * ((300 + 7) // 8)  # 1-bit grey: 38 bytes a row
    with pytest.raises(PuzzleError, match="the data holds 199 of its 200 rows"):
        parse_grid_image(png_by_hand(300, 200, bit_row * 199, depth=1))
    # Adam7: seven passes of 8 x 8, 4 x 8, ... sampled rows (Pillow writes no interlaced PNG).
    interlaced = b"".join((b"\x00" + b"\xff" * w) * h for w, h in ((8, 8), (8, 8), (16, 8), (16, 16),
                                                                   (32, 16), (32, 32), (64, 32)))
    with pytest.raises(PuzzleError, match=r"64 x 64 pixels, the data holds 50\.0 % of its \(interlaced\)"):
        parse_grid_image(png_by_hand(64, 64, interlaced[: len(interlaced) // 2], interlace=1))
    assert parse_grid_image(png_by_hand(64, 64, interlaced, interlace=1)).cells.all()
    # Exactly the declared data (and more, which PNG decoders ignore) is accepted.
    maze = parse_grid_image(png_by_hand(300, 200, rgb_row * 200, colour=2))
    assert (maze.width, maze.height) == (300, 200)
    assert maze.cells.all()
    assert parse_grid_image(png_by_hand(300, 200, rgb_row * 201, colour=2)).height == 200


def _idat_bodies(data: bytes) -> list[bytes]:
    bodies, pos = [], 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            bodies.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    return bodies


def _maze_png(width: int = 400, height: int = 300) -> tuple[bytes, np.ndarray]:
    """A random maze-like RGB image (noise does not compress, so its data spans the file)."""
    rng = np.random.default_rng(28)
    walls = rng.random((height, width)) < 0.3
    pixels = np.where(walls[..., None], 0, 255).astype(np.uint8).repeat(3, axis=2)
    pixels[5:9, 5:9] = BLUE
    pixels[-9:-5, -9:-5] = RED
    return png(Image.fromarray(pixels)), walls


def test_a_real_image_cut_short_is_refused_naming_its_rows() -> None:
    data, _ = _maze_png()
    whole = parse_grid_image(data)
    idat = data.index(b"IDAT")
    end = data.index(b"IEND") - 4
    for fraction in (0.05, 0.5, 0.95):
        cut = idat + 4 + int((end - idat - 4) * fraction)
        with pytest.raises(PuzzleError) as error:
            parse_grid_image(data[:cut])
        message = error.value.message
        assert message.startswith("the image data is truncated or damaged: the header declares 400 x 300")
        held = int(message.split("holds ")[1].split(" of")[0])
        assert 0 <= held < 300
    # Only the closing IEND chunk missing: every pixel is there, so it reads as the whole file.
    again = parse_grid_image(data[:-12])
    assert np.array_equal(again.cells, whole.cells) and ends(again) == ends(whole)


def test_the_shared_cases_cut_short(shared_cases: Path) -> None:
    data = (shared_cases / "images" / "mikepound" / "perfect2k.png").read_bytes()
    with pytest.raises(PuzzleError, match=r"2001 x 2001 pixels, the data holds [0-9,]+ of its 2,001 rows"):
        parse_grid_image(data[: len(data) // 2])


def test_damaged_compressed_data_is_refused_in_words() -> None:
    data, _ = _maze_png(60, 40)
    at = data.index(b"IDAT") + 8
    broken = data[:at] + b"\xff\xff\xff\xff" + data[at + 4:]  # not a zlib header
    with pytest.raises(PuzzleError, match="truncated or damaged: its pixel data does not inflate"):
        parse_grid_image(broken)


# --- markers are small patches -----------------------------------------------------------------------


def test_a_marker_at_the_limit_is_read_and_one_pixel_more_is_refused() -> None:
    side = 1000
    assert side * side == MAX_MARKER_PIXELS
    at_limit = Image.new("RGB", (side + 2, side), WHITE)
    at_limit.paste(RED, (0, 0, side, side))
    at_limit.putpixel((side + 1, 0), BLUE)
    maze = parse_grid_image(png(at_limit))
    assert len(maze.goals) == MAX_MARKER_PIXELS and ends(maze)[0] == [(0, side + 1)]
    assert maze.goals[0] == 0 and maze.rc(maze.goals[-1]) == (side - 1, side - 1)
    over = Image.new("RGB", (side + 2, side), WHITE)
    over.paste(RED, (0, 0, side + 1, side))
    with pytest.raises(PuzzleError) as error:
        parse_grid_image(png(over))
    assert error.value.message == (
        "the goal colour (red) covers 1,001,000 pixels of the image; a marker may cover at most "
        "1,000,000 pixels: paint the goal as a small patch of red or yellow"
    )


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(grid_image, "MAX_MARKER_PIXELS", 50)
    return 50


def test_each_end_over_the_limit_is_named(small_limit: int) -> None:
    everything_start = Image.new("RGB", (20, 10), GREEN)
    with pytest.raises(PuzzleError) as error:
        parse_grid_image(png(everything_start))
    assert error.value.message == (
        "the start colour (green) covers 200 pixels of the image; a marker may cover at most 50 pixels: "
        "paint the start as a small patch of blue or green"
    )
    both = Image.new("RGB", (20, 10), WHITE)
    both.paste(BLUE, (0, 0, 6, 10))
    both.paste(GREEN, (6, 0, 8, 10))
    both.paste(YELLOW, (12, 0, 16, 10))
    both.paste(RED, (16, 0, 20, 10))
    with pytest.raises(PuzzleError) as error:
        parse_grid_image(png(both))
    assert error.value.message == (
        "the start colour (blue/green) covers 80 pixels and the goal colour (yellow/red) covers 80 "
        "pixels of the image; a marker may cover at most 50 pixels: paint the start as a small patch of "
        "blue or green; paint the goal as a small patch of red or yellow"
    )


def test_specks_count_towards_the_limit(small_limit: int) -> None:
    specks = np.full((30, 30, 3), 255, np.uint8)
    specks[::3, ::3] = RED  # 100 one-pixel blobs, none touching
    with pytest.raises(PuzzleError, match=r"the goal colour \(red\) covers 100 pixels"):
        parse_grid_image(png(Image.fromarray(specks)))


def test_an_opening_wider_than_the_limit_is_left_to_the_user(small_limit: int) -> None:
    image = Image.new("L", (80, 5), 0)
    image.paste(255, (10, 0, 70, 4))  # a 60-pixel opening in the top row, none in the bottom one
    maze = parse_grid_image(png(image))
    assert len(maze.starts) == 0
    assert ("no start marker and the opening in the top border row is 60 pixels wide, wider than an end "
            "may be (50 pixels)") in maze.endpoint_problem


def test_many_goal_blobs_are_all_goals_and_the_note_stays_short() -> None:
    pixels = np.full((40, 60, 3), 255, np.uint8)
    pixels[2:4, 1:3] = BLUE
    spots = [(r, c) for r in range(10, 40, 5) for c in range(0, 60, 5)]  # 72 blobs of 2 x 2
    for r, c in spots:
        pixels[r:r + 2, c:c + 2] = YELLOW
    maze = parse_grid_image(png(Image.fromarray(pixels)), lattice="off")
    assert len(maze.goals) == 4 * len(spots)
    note = next(n for n in maze.notes if n.startswith("goal: "))
    assert note.count("marker of 4 pixels") == grid_image.MAX_DESCRIBED
    assert note.endswith(f"and {len(spots) - grid_image.MAX_DESCRIBED} more of "
                         f"{4 * (len(spots) - grid_image.MAX_DESCRIBED)} pixels")


def test_rows_read_in_pieces_give_the_same_maze(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row wider than a band is classified in pieces (the 49,000,000 x 1 line); runs crossing the
    pieces' borders are joined again."""
    rng = np.random.default_rng(7)
    pixels = np.where((rng.random((6, 50)) < 0.2)[..., None], 0, 255).astype(np.uint8).repeat(3, axis=2)
    pixels[1, 3:40] = RED  # one goal run across several pieces
    pixels[2, 20:23] = RED
    pixels[4, 10:12] = BLUE
    data = png(Image.fromarray(pixels))
    whole = parse_grid_image(data, lattice="off")
    monkeypatch.setattr(grid_image, "BAND_PIXELS", 7)
    assert grid_image._bands(50, 6)[:3] == [(0, 1, 0, 7), (0, 1, 7, 14), (0, 1, 14, 21)]
    pieces = parse_grid_image(data, lattice="off")
    assert np.array_equal(whole.cells, pieces.cells)
    assert ends(whole) == ends(pieces) and whole.notes == pieces.notes
    assert "a red marker of 40 pixels from (1, 3)" in " ".join(whole.notes)


def _reference_goals(red: np.ndarray) -> set[tuple[int, int]]:
    """Goal pixels by the rules, found pixel by pixel: 8-connected blobs, specks dropped."""
    seen = np.zeros_like(red)
    blobs = []
    for r, c in zip(*np.nonzero(red), strict=True):
        if seen[r, c]:
            continue
        seen[r, c] = True
        blob, queue = [], deque([(r, c)])
        while queue:
            y, x = queue.popleft()
            blob.append((int(y), int(x)))
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < red.shape[0] and 0 <= nx < red.shape[1] and red[ny, nx] and not seen[ny, nx]:
                        seen[ny, nx] = True
                        queue.append((ny, nx))
        blobs.append(blob)
    largest = max(len(b) for b in blobs)
    return {p for b in blobs if len(b) >= grid_image.NOISE_PIXELS or 4 * len(b) >= largest for p in b}


@pytest.mark.parametrize("seed", range(6))
def test_the_blobs_over_runs_match_a_pixel_flood_fill(seed: int) -> None:
    rng = np.random.default_rng(seed)
    red = rng.random((45, 70)) < (0.08 + 0.06 * seed)  # from scattered specks to tangled blobs
    pixels = np.full((45, 70, 3), 255, np.uint8)
    pixels[red] = RED
    maze = parse_grid_image(png(Image.fromarray(pixels)), lattice="off")
    assert set(ends(maze)[1]) == _reference_goals(red)


def test_the_union_find_over_runs_is_linear_in_runs() -> None:
    """A checkerboard of a million red pixels is one blob of a million one-pixel runs (the most runs
    a marker may have), labelled in one pass over them."""
    side = 1000
    rows, cols = np.nonzero((np.add.outer(np.arange(side), np.arange(2 * side)) % 2) == 0)
    runs = rows.astype(np.int32), cols.astype(np.int32), (cols + 1).astype(np.int32)
    blob, first = grid_image._label_runs(*runs)
    assert len(runs[0]) == MAX_MARKER_PIXELS and len(first) == 1 and not blob.any()
    # Separate rows of one run each: as many blobs as runs.
    rows = np.arange(0, 20, 2, dtype=np.int32)
    blob, first = grid_image._label_runs(rows, np.zeros(10, np.int32), np.ones(10, np.int32))
    assert list(blob) == list(range(10)) and list(first) == list(range(10))


def test_the_maze_sorts_its_ends_without_numpys_hash_unique() -> None:
    rng = np.random.default_rng(3)
    for values in (rng.integers(0, 50, 200), np.arange(10), np.array([], dtype=np.int64), [5, 5, 1]):
        expected = np.unique(np.asarray(values, dtype=np.int64))
        got = sorted_unique(values)
        assert got.dtype == np.int64 and np.array_equal(got, expected)
    given = np.arange(5, dtype=np.int64)
    assert sorted_unique(given) is not given  # a copy: the maze never shares its caller's array


def test_markers_of_many_pixels_reserve_their_own_memory() -> None:
    """A small palette image (6 MB estimated) whose million pixels are all goal: their indices take
    more than the image's estimate, so ``memory`` hears a second amount before they are made."""
    image = Image.new("P", (1000, 1000), 0)
    image.putpalette([255, 0, 0])
    data = png(image)
    told: list[int] = []
    maze = parse_grid_image(data, memory=told.append)
    assert len(maze.goals) == 1_000_000
    assert told[0] == memory_estimate("P", 1_000_000, len(data), 1000) and len(told) == 2
    assert told[1] > 40_000_000
    told.clear()
    parse_grid_image(_maze_png()[0], memory=told.append)  # ordinary markers: one amount only
    assert len(told) == 1


def test_the_estimate_counts_the_decoders_rows_of_a_wide_image() -> None:
    # An ordinary image: the cells and a band outweigh the decoder's two rows, as before.
    assert memory_estimate("P", 225_000_000, 0, 15_001) == 225_000_000 * 2 + 4_000_000 * 4
    # 49,000,000 x 1: the PNG decoder holds two raw rows of up to 8 bytes a pixel while decoding.
    wide = memory_estimate("RGB", 49_000_000, 0, 49_000_000)
    assert wide == 49_000_000 * 4 + 2 * 49_000_000 * 8


# --- the heavy ones, each in a process of its own --------------------------------------------------------

PROBE = r"""
import ctypes, gc, io, json, sys
from PIL import Image
from server.puzzles.errors import PuzzleError
from server.puzzles.grid.image import parse_grid_image


def status(field):
    with open("/proc/self/status") as lines:
        for line in lines:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024


def png(image):
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()


warm = Image.new("RGB", (40, 40), "white")
warm.putpixel((1, 1), (0, 0, 255))
warm.putpixel((30, 30), (255, 0, 0))
parse_grid_image(png(warm))  # the imports and the compiled union-find are not the read's memory
made = {"Image": Image, "png": png}
exec(sys.argv[1], made)
data = made.pop("data")
made.clear()
gc.collect()
ctypes.CDLL("libc.so.6").malloc_trim(0)
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")
base = status("VmRSS")
told = []
try:
    maze = parse_grid_image(data, memory=told.append)
    answer = {"starts": len(maze.starts), "goals": len(maze.goals), "size": [maze.width, maze.height],
              "first_goal": list(maze.rc(maze.goals[0])) if len(maze.goals) else None,
              "last_goal": list(maze.rc(maze.goals[-1])) if len(maze.goals) else None,
              "first_start": list(maze.rc(maze.starts[0])) if len(maze.starts) else None,
              "problem": maze.endpoint_problem}
except PuzzleError as error:
    answer = {"error": error.message}
print(json.dumps({"peak": status("VmHWM") - base, "told": told, "file_bytes": len(data), **answer}))
"""

HOSTILE = {
    "the all-goal square": (
        'data = png(Image.new("RGB", (7000, 7000), (255, 0, 0)))',
        "the goal colour (red) covers 49,000,000 pixels of the image; a marker may cover at most 1,000,000 "
        "pixels: paint the goal as a small patch of red or yellow",
    ),
    "the 49,000,000 x 1 line": (
        'data = png(Image.new("RGB", (49_000_000, 1), (255, 0, 0)))',
        "the goal colour (red) covers 49,000,000 pixels of the image; a marker may cover at most 1,000,000 "
        "pixels: paint the goal as a small patch of red or yellow",
    ),
    "the all-start square": (
        'data = png(Image.new("RGB", (7000, 7000), (0, 0, 255)))',
        "the start colour (blue) covers 49,000,000 pixels of the image; a marker may cover at most "
        "1,000,000 pixels: paint the start as a small patch of blue or green",
    ),
    "two huge markers": (
        'image = Image.new("RGB", (7000, 7000), (255, 255, 255))\n'
        'image.paste((0, 0, 255), (0, 0, 3000, 7000))\n'
        'image.paste((255, 0, 0), (4000, 0, 7000, 7000))\n'
        'data = png(image)\n'
        'del image',
        "the start colour (blue) covers 21,000,000 pixels and the goal colour (red) covers 21,000,000 "
        "pixels of the image; a marker may cover at most 1,000,000 pixels: paint the start as a small "
        "patch of blue or green; paint the goal as a small patch of red or yellow",
    ),
    "two huge start blobs": (
        'image = Image.new("P", (7000, 7000), 0)\n'
        'image.putpalette([255, 255, 255, 0, 0, 255])\n'
        'image.paste(1, (0, 0, 3000, 7000))\n'
        'image.paste(1, (4000, 0, 7000, 7000))\n'
        'data = png(image)\n'
        'del image',
        "the start colour (blue) covers 42,000,000 pixels of the image; a marker may cover at most "
        "1,000,000 pixels: paint the start as a small patch of blue or green",
    ),
    "the lying header": (
        "import struct, zlib\n"
        "def chunk(kind, body):\n"
        "    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))\n"
        "header = struct.pack('>IIBBBBB', 7000, 7000, 8, 0, 0, 0, 0)\n"
        "data = (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', header)\n"
        "        + chunk(b'IDAT', zlib.compress(b'\\x00' + b'\\xff' * 7000, 9)) + chunk(b'IEND', b''))",
        "the image data is truncated or damaged: the header declares 7000 x 7000 pixels, the data holds 1 "
        "of its 7,000 rows",
    ),
}


def _probe(maker: str) -> dict:
    if not Path("/proc/self/clear_refs").exists():
        pytest.skip("needs Linux's /proc/self/clear_refs to measure a peak")
    done = subprocess.run([sys.executable, "-c", PROBE, maker], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _within_the_reservation(found: dict) -> None:
    reserved, peak = sum(found["told"]), found["peak"]
    assert peak <= reserved + SLACK, f"peak {peak:,} over the reserved {reserved:,}"
    assert reserved <= LOOSE * peak + SLACK, f"reserved {reserved:,} over {LOOSE} x the peak {peak:,}"


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_image_is_answered_in_words_within_its_reservation(case: str) -> None:
    maker, message = HOSTILE[case]
    found = _probe(maker)
    assert found.get("error") == message
    _within_the_reservation(found)
    if case == "the lying header":
        assert found["told"] == []  # refused before anything was reserved or decoded


def test_a_big_maze_with_a_marker_at_the_limit_is_read_within_its_reservation() -> None:
    found = _probe(
        'image = Image.new("RGB", (7000, 7000), (255, 255, 255))\n'
        'image.paste((255, 0, 0), (100, 2000, 1100, 3000))\n'  # 1000 x 1000 = the limit
        'image.paste((0, 255, 0), (6000, 10, 6010, 20))\n'
        'data = png(image)\n'
        'del image'
    )
    assert "error" not in found, found
    assert found["size"] == [7000, 7000] and found["starts"] == 100 and found["goals"] == 1_000_000
    assert found["first_start"] == [10, 6000]
    assert found["first_goal"] == [2000, 100] and found["last_goal"] == [2999, 1099]
    _within_the_reservation(found)
