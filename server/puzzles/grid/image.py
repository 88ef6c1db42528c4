"""Grid mazes from images: dark pixels are walls, light pixels are free, coloured blobs mark the ends.

Every pixel becomes one cell, unless the image is drawn on a lattice (k x k blocks, or thin wall
lines between wider corridors: ``lattice.py``), which is then read as its cells. The image is
classified in bands of rows with numpy (palette images through a 256-entry lookup table), so a
36 M pixel maze costs one byte per pixel here and never a Python object per pixel.

Rules (PUZZLES.md, section 1):

- **Walls**: luminance below ``threshold`` (128), with ITU-R 601 weights (Pillow's own "L"
  conversion) for colour images. Transparent pixels are composited onto white first.
- **Markers** (saturated colours, tolerant of JPEG noise): start = blue (B >= 160, R <= 90,
  G <= 90) or green (G >= 160, R <= 90, B <= 90); goal = yellow (R >= 160, G >= 160, B <= 90) or
  red (R >= 160, G <= 90, B <= 90). Marker pixels are free cells, although pure blue and red are
  dark. Markers are 8-connected blobs; a blob smaller than 4 pixels *and* smaller than a quarter of
  the largest blob of its kind is noise and keeps its luminance class. Two significant start blobs
  are an error; every pixel of every significant goal blob is a goal.
- **No marker**: the single opening (run of free pixels) in the top border row is the start, the
  single opening in the bottom border row is the goal. Several openings or none leave the end
  undecided (``GridMaze.endpoint_problem``), so the user can pick it.
"""

from __future__ import annotations

import io
import threading
import warnings
from collections.abc import Callable

import numpy as np
from PIL import Image, UnidentifiedImageError

from server.puzzles.errors import PuzzleError
from server.puzzles.grid.lattice import detect_lattice
from server.puzzles.grid.model import GridMaze

#: ``progress(phase, fraction)`` as ``LoadLimits.progress`` (server/puzzles/family.py).
Progress = Callable[[str, float | None], None]

#: Formats we let Pillow try. Leaving out the rest (EPS runs Ghostscript, TIFF has its own tile
#: limits) keeps an anonymous upload from reaching the exotic decoders.
FORMATS = ("PNG", "GIF", "BMP", "JPEG", "WEBP", "PPM")
DEFAULT_MAX_PIXELS = 50_000_000
DEFAULT_THRESHOLD = 128
BAND_PIXELS = 4_000_000  # pixels classified at a time: bounds the temporaries of huge RGB images

# Marker colour codes of the per-pixel classification.
NONE, BLUE, GREEN, YELLOW, RED = 0, 1, 2, 3, 4
COLOUR_NAMES = {BLUE: "blue", GREEN: "green", YELLOW: "yellow", RED: "red"}
STRONG, WEAK = 160, 90  # a marker channel is >= STRONG, the others <= WEAK
NOISE_PIXELS = 4  # blobs smaller than this (and than a quarter of the largest) are noise

# Pillow's decompression-bomb limit is a module global; see _open_lazily for why and how we relax it.
_PILLOW_LIMIT_LOCK = threading.Lock()
# File signatures of the accepted formats: data that starts like an image but does not open is damaged.
_SIGNATURES = (b"\x89PNG", b"GIF8", b"BM", b"\xff\xd8", b"RIFF", b"P1", b"P2", b"P3", b"P4", b"P5", b"P6")


def parse_grid_image(
    data: bytes,
    name: str = "maze",
    max_pixels: int = DEFAULT_MAX_PIXELS,
    threshold: int = DEFAULT_THRESHOLD,
    lattice: str = "auto",
    progress: Progress | None = None,
    memory: Callable[[int], None] | None = None,
) -> GridMaze:
    """Read a maze image (PNG, GIF, BMP, JPEG, WebP, PPM/PGM/PBM; first frame) into a ``GridMaze``.

    ``max_pixels`` is checked against the header's size before anything is decoded. Pillow's own
    decompression-bomb limit (``Image.MAX_IMAGE_PIXELS``, ~89 M pixels) is a process-wide global;
    it is never changed for the default ``max_pixels``. Only when the caller explicitly allows
    more (the CLI flag ``--max-pixels``, a server setting) is it raised to ``max_pixels`` for the
    moment ``Image.open`` reads the header, under a module lock, and restored right after.
    Decoding runs outside the lock, and the PNG, BMP, JPEG and WebP decoders do not consult the
    global. Other Pillow users in the process could see the raised limit during that header read;
    in this project every maze image is opened here.

    ``lattice``: "auto" reads an image drawn in k x k blocks or with thin wall lines as its cells
    (``grid/lattice.py``; the maze's ``lattice`` says which was found), "off" reads every pixel.

    ``progress(phase, fraction)`` hears the phases of a long read: "decode" (the fraction of the
    compressed bytes the decoder has consumed), "cells" (rows classified), "lattice" (no measure:
    None); it may raise to stop the read. ``memory(nbytes)`` is told, once the header is read and
    before decoding, the bytes reading this image will take (``memory_estimate``); it may wait or
    raise (the server reserves them from its work budget).

    Raises ``PuzzleError`` for data Pillow cannot read, truncated or damaged data, an image over
    ``max_pixels``, an image without free pixels, and two start markers.
    """
    reader = _Reader(data)
    im = _open_lazily(reader, max_pixels)
    width, height = im.size
    if width * height > max_pixels:
        raise PuzzleError(
            f"the image is {width} x {height} = {width * height:,} pixels, over the limit of "
            f"{max_pixels:,} pixels; the command-line flag --max-pixels raises the limit",
            "file",
        )
    if memory is not None:
        memory(memory_estimate(im.mode, width * height, len(data)))
    if progress is not None:
        progress("decode", 0.0)
        reader.listen(lambda done: progress("decode", done))
    try:
        im.load()
    except PuzzleError:
        raise  # the progress callback stopped the read
    except Exception as exc:  # Pillow raises OSError, SyntaxError, ValueError, EOFError, ...
        raise PuzzleError(
            "the image data is truncated or damaged", "file"
        ) from exc
    finally:
        reader.listen(None)
    if progress is not None:
        progress("decode", 1.0)  # the bytes after the image data (PNG's last chunks) are not read

    notes = [_describe_mode(im)]
    cells, start_runs, goal_runs = _classify(im, threshold, notes, progress)
    free_count = int(np.count_nonzero(cells))
    if free_count == 0 and not len(start_runs[0]) and not len(goal_runs[0]):
        raise PuzzleError(
            f"the image has no free (light) pixels: all {width * height:,} pixels are darker than "
            f"{threshold}, so there is nowhere to walk",
            "file",
        )

    starts, start_note = _significant_marker(start_runs, width, "start", notes)
    goals, goal_note = _significant_marker(goal_runs, width, "goal", notes)
    # Marker pixels are free whatever their luminance (pure blue and red are dark).
    cells.ravel()[starts] = 1
    cells.ravel()[goals] = 1
    notes.append(
        f"walls: pixels with luminance below {threshold}; "
        f"{cells.size - int(np.count_nonzero(cells)):,} wall and {int(np.count_nonzero(cells)):,} free pixels"
    )
    if progress is not None and lattice == "auto":
        progress("lattice", None)
    found = detect_lattice(cells) if lattice == "auto" else None
    if found is not None:
        grid, cells = found[0], found[1]
        notes.append(grid.describe(height, width))
        # A marker's pixels mark the lattice cells they fall in (a wall cell cannot be an end).
        starts, goals = (_free_only(cells, grid.cell_of(ends, width)) for ends in (starts, goals))
        if start_note and not len(starts):
            start_note = ""
        if goal_note and not len(goals):
            goal_note = ""
        height, width = cells.shape

    problems = []
    if start_note:
        notes.append(start_note)
    else:
        starts, text = _border_opening(cells, 0, "top", "start", goals)
        (notes if len(starts) else problems).append(text)
    if goal_note:
        notes.append(goal_note)
    else:
        goals, text = _border_opening(cells, height - 1, "bottom", "goal", starts)
        (notes if len(goals) else problems).append(text)

    return GridMaze(
        cells,
        starts,
        goals,
        name=name,
        source="image",
        notes=notes,
        endpoint_problem="; ".join(problems) or None,
        lattice=found[0].to_json() if found is not None else None,
    )


def _free_only(cells: np.ndarray, flat: np.ndarray) -> np.ndarray:
    return flat[cells.ravel()[flat] != 0]


# --- opening --------------------------------------------------------------------------------------


def memory_estimate(mode: str, pixels: int, file_bytes: int = 0) -> int:
    """Bytes reading an image of ``pixels`` pixels in ``mode`` takes at its peak: Pillow's decoded
    image (1 byte a pixel for "1", "L" and "P", 2 for 16-bit grey, else 4), the cells (1 byte a
    pixel), one band's temporaries (about 40 bytes a pixel of colour, 4 of grey or palette) and the
    file itself. The 15001² palette maze: 0.49 GB here; its read peaks at 0.57 GB of resident memory,
    the interpreter and its libraries included."""
    if mode in ("1", "L", "P"):
        per_pixel, band_bytes = 1, 4
    elif mode.startswith("I;16"):
        per_pixel, band_bytes = 2, 8
    else:
        per_pixel, band_bytes = 4, 40
    return pixels * (per_pixel + 1) + min(pixels, BAND_PIXELS) * band_bytes + file_bytes


class _Reader(io.BytesIO):
    """The file as Pillow reads it, telling a listener the fraction of its bytes read so far (at
    most every 1 %): Pillow's own ``ImageFile.load`` decodes through ``read``, so the decode's
    progress is the fraction of the compressed data its decoder has consumed, for every format that
    decodes in chunks (PNG, GIF, BMP, JPEG, PPM; WebP reads its data at once)."""

    STEP = 0.01

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.size = max(1, len(data))
        self._listener: Callable[[float], None] | None = None
        self._told = 0.0

    def listen(self, listener: Callable[[float], None] | None) -> None:
        self._listener = listener
        self._told = 0.0

    def read(self, size: int | None = -1, /) -> bytes:
        chunk = super().read(size)
        if self._listener is not None:
            done = min(1.0, self.tell() / self.size)
            if done - self._told >= self.STEP or (done >= 1.0 > self._told):
                self._told = done
                self._listener(done)
        return chunk


def _open_lazily(data: bytes | io.BytesIO, max_pixels: int) -> Image.Image:
    """``Image.open`` (reads the header only), with Pillow's bomb limit relaxed if the caller asked."""
    try:
        # The lock serialises our header reads, which are short: the global limit and the
        # process-wide warning filters (catch_warnings is not thread-safe) change for one at a time.
        with _PILLOW_LIMIT_LOCK, warnings.catch_warnings():
            # Between its warning and its error level Pillow only warns; our own check raises.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            saved = Image.MAX_IMAGE_PIXELS
            relax = saved is not None and max_pixels > saved  # only when the caller asked for more
            if relax:
                Image.MAX_IMAGE_PIXELS = max_pixels
            try:
                stream = data if isinstance(data, io.BytesIO) else io.BytesIO(data)
                return Image.open(stream, formats=FORMATS)
            finally:
                if relax:
                    Image.MAX_IMAGE_PIXELS = saved
    except Image.DecompressionBombError as exc:
        raise PuzzleError(
            f"the image is over twice the pixel limit ({exc}); the limit is {max_pixels:,} pixels "
            "and the command-line flag --max-pixels raises it",
            "file",
        ) from exc
    except UnidentifiedImageError as exc:
        head = data.getbuffer()[:16].tobytes() if isinstance(data, io.BytesIO) else data[:16]
        if head.startswith(_SIGNATURES):
            raise PuzzleError("the image header is truncated or damaged (cannot read it)", "file") from exc
        raise PuzzleError(
            f"not an image this app can read (cannot identify the format; accepted: {', '.join(FORMATS)})",
            "file",
        ) from exc
    except Exception as exc:  # a damaged header: SyntaxError, OSError, struct.error, ...
        raise PuzzleError(
            "not an image this app can read: the header is truncated or damaged",
            "file",
        ) from exc


def _describe_mode(im: Image.Image) -> str:
    kinds = {
        "P": "palette",
        "1": "1-bit",
        "L": "grayscale",
        "LA": "grayscale with alpha",
        "RGB": "RGB",
        "RGBA": "RGBA",
    }
    kind = kinds.get(im.mode, "16-bit grayscale" if im.mode.startswith("I;16") else im.mode)
    return f"{im.format or 'image'}, {im.width} x {im.height}, mode {im.mode} ({kind} image)"


# --- per-pixel classification ---------------------------------------------------------------------


Runs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # row, start col, end col (excl.), colour


def _classify(
    im: Image.Image, threshold: int, notes: list[str], progress: Progress | None = None,
) -> tuple[np.ndarray, Runs, Runs]:
    """Free/wall cells (uint8 0/1) and the runs of start- and goal-coloured pixels (``progress``
    hears "cells" and the fraction of rows done, once a band)."""
    width, height = im.size
    cells = np.empty((height, width), dtype=np.uint8)
    classify_band = _band_classifier(im, threshold, notes)
    band_rows = max(1, BAND_PIXELS // max(1, width))
    start_parts: list[Runs] = []
    goal_parts: list[Runs] = []
    for top in range(0, height, band_rows):
        if progress is not None:
            progress("cells", top / height)
        bottom = min(height, top + band_rows)
        band = im if (top == 0 and bottom == height) else im.crop((0, top, width, bottom))
        free, codes = classify_band(band)
        cells[top:bottom] = free
        if codes is not None and codes.any():
            start_parts.append(_runs(codes, (BLUE, GREEN), top))
            goal_parts.append(_runs(codes, (YELLOW, RED), top))
    if progress is not None:
        progress("cells", 1.0)
    return cells, _concat_runs(start_parts), _concat_runs(goal_parts)


def _band_classifier(im: Image.Image, threshold: int, notes: list[str]):
    """A function band -> (free uint8 array, marker codes or None), chosen once per image mode."""
    mode = im.mode
    if mode == "1":
        return lambda band: (np.asarray(band, dtype=np.uint8), None)
    if mode == "L":
        return lambda band: ((np.asarray(band) >= threshold).view(np.uint8), None)
    if mode.startswith("I;16") or mode in ("I", "F"):
        # 16-bit (and integer/float) grey: scale the threshold to the value range in use.
        high = im.getextrema()[1]
        scale = 257 if high > 255 else 1
        notes.append(f"grey values up to {high}: threshold {threshold} x {scale}")
        return lambda band: ((np.asarray(band) >= threshold * scale).view(np.uint8), None)
    if mode == "P":
        return _palette_classifier(im, threshold, notes)
    if mode not in ("RGB", "RGBA", "LA"):
        notes.append(f"converted from mode {mode} to RGBA")

    def classify(band: Image.Image) -> tuple[np.ndarray, np.ndarray | None]:
        if band.mode == "LA":
            grey, alpha = np.moveaxis(np.asarray(band), -1, 0)
            grey = _over_white(grey, alpha)
            return (grey >= threshold).view(np.uint8), None
        if band.mode not in ("RGB", "RGBA"):
            band = band.convert("RGBA")
        arr = np.asarray(band)
        r, g, b = arr[..., 0], arr[..., 1], arr[..., 2]
        if arr.shape[-1] == 4:
            alpha = arr[..., 3]
            if alpha.min(initial=255) < 255:
                r, g, b = (_over_white(c, alpha) for c in (r, g, b))
        return (_luminance(r, g, b) >= threshold).view(np.uint8), _marker_codes(r, g, b)

    return classify


def _palette_classifier(im: Image.Image, threshold: int, notes: list[str]):
    """Palette images: classify the 256 palette entries once, then look every pixel up."""
    palette = np.zeros((256, 4), dtype=np.uint8)
    palette[:, 3] = 255
    rgb = np.frombuffer(bytes(im.getpalette("RGB") or []), dtype=np.uint8).reshape(-1, 3)[:256]
    palette[: len(rgb), :3] = rgb
    if im.palette is not None and im.palette.mode == "RGBA":
        rgba = np.frombuffer(bytes(im.getpalette("RGBA") or []), dtype=np.uint8).reshape(-1, 4)[:256]
        palette[: len(rgba), 3] = rgba[:, 3]
    transparency = im.info.get("transparency")
    if isinstance(transparency, int) and 0 <= transparency < 256:
        palette[transparency, 3] = 0
    elif isinstance(transparency, bytes):
        alpha = np.frombuffer(transparency, dtype=np.uint8)[:256]
        palette[: len(alpha), 3] = alpha
    r, g, b = (_over_white(palette[:, i], palette[:, 3]) for i in range(3))
    free_lut = (_luminance(r, g, b) >= threshold).view(np.uint8)
    code_lut = _marker_codes(r, g, b)
    if (palette[:, 3] < 255).any():
        notes.append("transparent palette entries count as white")

    def classify(band: Image.Image) -> tuple[np.ndarray, np.ndarray | None]:
        index = np.asarray(band)
        free = free_lut[index]
        return free, (code_lut[index] if code_lut.any() else None)

    return classify


def _over_white(channel: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """A channel composited onto white (a transparent pixel shows the page, which is white)."""
    c = channel.astype(np.uint32)
    a = alpha.astype(np.uint32)
    return ((c * a + 255 * (255 - a) + 127) // 255).astype(np.uint8)


def _luminance(r: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    """ITU-R 601 luminance with Pillow's fixed-point weights, so "L" images and RGB agree."""
    total = 19595 * r.astype(np.uint32) + 38470 * g.astype(np.uint32) + 7471 * b.astype(np.uint32)
    return ((total + 0x8000) >> 16).astype(np.uint8)


def _marker_codes(r: np.ndarray, g: np.ndarray, b: np.ndarray) -> np.ndarray:
    """BLUE/GREEN/YELLOW/RED per pixel where the colour is saturated enough, else NONE."""
    r_hi, g_hi, b_hi = r >= STRONG, g >= STRONG, b >= STRONG
    r_lo, g_lo, b_lo = r <= WEAK, g <= WEAK, b <= WEAK
    codes = np.zeros(r.shape, dtype=np.uint8)
    codes[b_hi & r_lo & g_lo] = BLUE
    codes[g_hi & r_lo & b_lo] = GREEN
    codes[r_hi & g_hi & b_lo] = YELLOW
    codes[r_hi & g_lo & b_lo] = RED
    return codes


# --- marker blobs ---------------------------------------------------------------------------------


def _runs(codes: np.ndarray, colours: tuple[int, ...], row0: int) -> Runs:
    """Horizontal runs of pixels whose code is one of ``colours`` (row, start, end excl., colour)."""
    mask = np.isin(codes, colours)
    rows_used = np.flatnonzero(mask.any(axis=1))
    if not len(rows_used):
        return _empty_runs()
    sub = mask[rows_used]
    padded = np.zeros((sub.shape[0], sub.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = sub
    step = np.diff(padded, axis=1)
    srow, scol = np.nonzero(step == 1)
    _, ecol = np.nonzero(step == -1)  # same row-major order as the starts
    colour = codes[rows_used[srow], scol]
    return (rows_used[srow] + row0).astype(np.int64), scol.astype(np.int64), ecol.astype(np.int64), colour


def _empty_runs() -> Runs:
    empty = np.zeros(0, dtype=np.int64)
    return empty, empty, empty, np.zeros(0, dtype=np.uint8)


def _concat_runs(parts: list[Runs]) -> Runs:
    if not parts:
        return _empty_runs()
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))  # type: ignore[return-value]


def _blobs(runs: Runs) -> list[list[int]]:
    """8-connected components of runs (sorted row-major) as lists of run indices.

    A union-find over runs, not pixels: a blob of thousands of pixels is a few dozen runs.
    """
    rows, starts, ends = (a.tolist() for a in runs[:3])
    n = len(rows)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    prev_lo = prev_hi = 0  # runs of the previous row: [prev_lo, prev_hi)
    i = 0
    while i < n:
        j = i
        while j < n and rows[j] == rows[i]:
            j += 1
        if prev_hi > prev_lo and rows[prev_lo] == rows[i] - 1:
            a, b = prev_lo, i
            while a < prev_hi and b < j:
                # Touching diagonally counts: widen the run above by one pixel on each side.
                if starts[a] <= ends[b] and starts[b] <= ends[a]:
                    parent[find(a)] = find(b)
                if ends[a] <= ends[b] - 1:
                    a += 1
                else:
                    b += 1
        prev_lo, prev_hi, i = i, j, j
    groups: dict[int, list[int]] = {}
    for k in range(n):
        groups.setdefault(find(k), []).append(k)
    return list(groups.values())


def _significant_marker(runs: Runs, width: int, label: str, notes: list[str]) -> tuple[np.ndarray, str]:
    """Flat indices of the significant blobs of one marker kind, and a note ("" when there are none)."""
    rows, starts, ends, colours = runs
    if not len(rows):
        return np.zeros(0, dtype=np.int64), ""
    blobs = _blobs(runs)
    sizes = [int((ends[b] - starts[b]).sum()) for b in blobs]
    largest = max(sizes)
    keep = [b for b, s in zip(blobs, sizes, strict=True) if s >= NOISE_PIXELS or 4 * s >= largest]
    dropped = len(blobs) - len(keep)
    if dropped:
        notes.append(
            f"ignored {dropped} speck(s) of {label} colour smaller than {NOISE_PIXELS} pixels "
            f"(the largest {label} marker has {largest} pixels)"
        )
    keep.sort(key=min)  # blobs in reading order of their first pixel

    def first_pixel(blob: list[int]) -> tuple[int, int]:
        k = min(blob)
        return int(rows[k]), int(starts[k])

    if label == "start" and len(keep) > 1:
        (r1, c1), (r2, c2) = first_pixel(keep[0]), first_pixel(keep[1])
        more = f" and {len(keep) - 2} more" if len(keep) > 2 else ""
        raise PuzzleError(
            f"two start markers: one at pixel ({r1}, {c1}), another at pixel ({r2}, {c2}){more}; "
            "keep one (a marker may be a blob of many pixels, but only one blob)",
            f"pixel ({r2}, {c2})",
        )
    pieces = []
    descriptions = []
    for blob in keep:
        idx = np.asarray(blob)
        pieces.extend(
            np.arange(r * width + s, r * width + e, dtype=np.int64)
            for r, s, e in zip(rows[idx], starts[idx], ends[idx], strict=True)
        )
        names = sorted({COLOUR_NAMES[int(c)] for c in colours[idx]})
        size = int((ends[idx] - starts[idx]).sum())
        r0, c0 = first_pixel(blob)
        where = f"at ({r0}, {c0})" if size == 1 else f"of {size} pixels from ({r0}, {c0})"
        descriptions.append(f"a {'/'.join(names)} marker {where}")
    return np.concatenate(pieces), f"{label}: " + ", ".join(descriptions)


# --- border openings ------------------------------------------------------------------------------


def _border_opening(
    cells: np.ndarray, row: int, side: str, label: str, other_end: np.ndarray
) -> tuple[np.ndarray, str]:
    """The single run of free pixels in a border row as the start (goal), or why there is none.

    Pixels of the other end's marker are not part of an opening (a goal blob in the top row is
    not also the start).
    """
    width = cells.shape[1]
    free = cells[row] != 0
    taken = other_end[(other_end // width) == row] % width
    free[taken] = False
    padded = np.concatenate(([False], free, [False])).astype(np.int8)
    step = np.diff(padded)
    begins, ends = np.flatnonzero(step == 1), np.flatnonzero(step == -1)  # ends exclusive
    if len(begins) == 1:
        b, e = int(begins[0]), int(ends[0])
        return (
            np.arange(row * width + b, row * width + e, dtype=np.int64),
            f"{label}: the opening in the {side} border row (row {row}) at columns {b}..{e - 1}",
        )
    if not len(begins):
        return np.zeros(0, dtype=np.int64), f"no {label} marker and no opening in the {side} border row"
    shown = ", ".join(
        str(int(b)) if e - b == 1 else f"{b}..{e - 1}" for b, e in zip(begins[:5], ends[:5], strict=True)
    )
    if len(begins) > 5:
        shown += ", ..."
    return (
        np.zeros(0, dtype=np.int64),
        f"no {label} marker and the {side} border row has {len(begins)} openings "
        f"(at columns {shown}), so the {label} is ambiguous",
    )
