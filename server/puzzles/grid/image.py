"""Grid mazes from images: dark pixels are walls, light pixels are free, coloured blobs mark the ends.

Every pixel becomes one cell, unless the image is drawn on a lattice (k x k blocks, or thin wall
lines between wider corridors: ``lattice.py``), which is then read as its cells. The image is
classified in bands of rows with numpy (a row wider than a band in pieces; palette images through a
256-entry lookup table), so a 36 M pixel maze costs one byte per pixel here and never a Python
object per pixel.

Rules (PUZZLES.md, section 1):

- **Walls**: luminance below ``threshold`` (128), with ITU-R 601 weights (Pillow's own "L"
  conversion) for colour images. Transparent pixels are composited onto white first.
- **Markers** (saturated colours, tolerant of JPEG noise): start = blue (B >= 160, R <= 90,
  G <= 90) or green (G >= 160, R <= 90, B <= 90); goal = yellow (R >= 160, G >= 160, B <= 90) or
  red (R >= 160, G <= 90, B <= 90). Marker pixels are free cells, although pure blue and red are
  dark. Markers are 8-connected blobs; a blob smaller than 4 pixels *and* smaller than a quarter of
  the largest blob of its kind is noise and keeps its luminance class. Two significant start blobs
  are an error; every pixel of every significant goal blob is a goal.
- **Markers are small patches**: the pixels of one end's colours (start: blue and green; goal:
  yellow and red; specks included) may cover at most ``MAX_MARKER_PIXELS`` (1,000,000) pixels. An
  image over it is refused in words naming the count and the limit ("the goal colour (red) covers
  49,000,000 pixels of the image; a marker may cover at most 1,000,000 pixels: ..."). The colours
  are counted band by band as the image is classified, and an end's runs are kept only while it is
  under the limit, so a hostile all-red image never costs more than its cells: the runs, the blobs
  (a union-find over runs, compiled with numba when there are many: linear in runs, whatever their
  pixels) and the flat arrays of end cells (``GridMaze.starts/goals``) are bounded by the limit. A
  border opening wider than the limit (only in absurdly wide images) leaves that end for the user to
  pick.
- **No marker**: the single opening (run of free pixels) in the top border row is the start, the
  single opening in the bottom border row is the goal. Several openings or none leave the end
  undecided (``GridMaze.endpoint_problem``), so the user can pick it.
- **Truncated data is refused**: a PNG whose pixel data holds fewer rows than its header declares
  (Pillow's PNG decoder stops quietly where the compressed stream ends and leaves the rest black,
  so an 87-byte file would open as a 7000 x 7000 maze) is refused by ``_check_png_data``. Files cut
  short inside their data are refused by Pillow itself in every accepted format.
"""

from __future__ import annotations

import io
import struct
import threading
import warnings
import zlib
from collections.abc import Callable

import numpy as np
from PIL import Image, UnidentifiedImageError

from ...i18n import t
from ..errors import PuzzleError
from .lattice import detect_lattice
from .marker_runs import label_runs
from .model import GridMaze

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
START, GOAL = 0, 1
END_LABELS = ("start", "goal")
END_COLOURS = ((BLUE, GREEN), (YELLOW, RED))
PATCH_COLOURS = ("grid.blue_or_green", "grid.red_or_yellow")
#: The most pixels one end's colours may cover (its blobs and specks together). Markers are small
#: patches; an image over this is refused before any of its marker pixels become per-pixel arrays.
MAX_MARKER_PIXELS = 1_000_000
MAX_DESCRIBED = 10  # marker blobs named one by one in the notes; the rest are counted
# Bytes the markers take beyond the estimate's allowances (``_Markers.reserve``): per run kept
# (four columns, their concatenation, the union-find's arrays, the kept runs' copies) and per end
# pixel (its flat index, the expansion's temporaries, the maze's sorted copy, a lattice's mapping).
RUN_BYTES, END_PIXEL_BYTES = 64, 64
FREE_MARKER_BYTES = 1 << 20  # markers holding less than this ride in the estimate's band allowance

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
    raise (the server reserves them from its work budget). Markers of many pixels or runs (up to
    ``MAX_MARKER_PIXELS``) take more than that estimate counts: ``memory`` is then told again,
    before they are held, the bytes they add (so a reservation grows; ordinary markers, a few
    patches, never cause a second call).

    Raises ``PuzzleError`` for data Pillow cannot read, truncated or damaged data (a PNG whose data
    holds fewer rows than its header declares included), an image over ``max_pixels``, an image
    without free pixels, a marker colour covering over ``MAX_MARKER_PIXELS`` pixels, and two start
    markers.
    """
    reader = _Reader(data)
    im = _open_lazily(reader, max_pixels)
    width, height = im.size
    if width * height > max_pixels:
        raise PuzzleError(
            t(
                "grid.image_x_pixels_over_limit",
                width=width,
                height=height,
                value=width * height,
                max_pixels=max_pixels,
            ),
            t("grid.file"),
        )
    if im.format == "PNG":
        _check_png_data(data)  # before anything is reserved or decoded: a lying header costs nothing
    estimate = memory_estimate(im.mode, width * height, len(data), width)
    if memory is not None:
        memory(estimate)
    if progress is not None:
        progress("decode", 0.0)
        reader.listen(lambda done: progress("decode", done))
    try:
        im.load()
    except PuzzleError:
        raise  # the progress callback stopped the read
    except Exception as exc:  # Pillow raises OSError, SyntaxError, ValueError, EOFError, ...
        raise PuzzleError(
            t("grid.image_data_truncated_or_damaged_2"), t("grid.file")
        ) from exc
    finally:
        reader.listen(None)
    if progress is not None:
        progress("decode", 1.0)  # the bytes after the image data (PNG's last chunks) are not read

    notes = [_describe_mode(im)]
    markers = _Markers(memory)
    cells = _classify(im, threshold, notes, markers, progress)
    im.close()  # the decoded image is done with: its memory (and the band's) serves the markers
    markers.refuse_oversized()
    free_count = int(np.count_nonzero(cells))
    if free_count == 0 and not markers.found():
        raise PuzzleError(
            t("grid.image_has_no_free_light", value=width * height, threshold=threshold),
            t("grid.file"),
        )
    # What the decoded image and a band took is free now: all the estimate held but cells and file.
    markers.reserve(freed=estimate - width * height - len(data))

    starts, start_note = _significant_marker(markers.runs(START), width, "start", notes)
    goals, goal_note = _significant_marker(markers.runs(GOAL), width, "goal", notes)
    # Marker pixels are free whatever their luminance (pure blue and red are dark).
    cells.ravel()[starts] = 1
    cells.ravel()[goals] = 1
    notes.append(
        t(
            "grid.walls_pixels_with_luminance_below",
            threshold=threshold,
            value=cells.size - int(np.count_nonzero(cells)),
            count_nonzero=int(np.count_nonzero(cells)),
        )
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


def memory_estimate(mode: str, pixels: int, file_bytes: int = 0, width: int = 0) -> int:
    """Bytes reading an image of ``pixels`` pixels in ``mode`` takes at its peak: Pillow's decoded
    image (1 byte a pixel for "1", "L" and "P", 2 for 16-bit grey, else 4) and the file itself
    throughout; then, while decoding, the decoder's two rows of raw data (the row and the one before,
    for PNG's filters: up to 8 bytes a pixel of a ``width``-pixel row), or afterwards the cells (1 byte
    a pixel) and one band's temporaries (about 40 bytes a pixel of colour, 4 of grey or palette),
    whichever is more (the rows only matter for absurdly wide images: 49,000,000 x 1). Markers
    covering many pixels are told separately (``_Markers.reserve``). The 15001² palette maze: 0.49 GB
    here; its read peaks at 0.57 GB of resident memory, the interpreter and its libraries included."""
    if mode in ("1", "L", "P"):
        per_pixel, band_bytes = 1, 4
    elif mode.startswith("I;16"):
        per_pixel, band_bytes = 2, 8
    else:
        per_pixel, band_bytes = 4, 40
    raw = 2 if mode in ("L", "I;16", "I;16B", "I;16L") else 1 if mode in ("1", "P") else 8
    after = pixels + min(pixels, BAND_PIXELS) * band_bytes
    return pixels * per_pixel + file_bytes + max(after, 2 * width * raw)


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
            t("grid.image_over_twice_pixel_limit", exc=exc, max_pixels=max_pixels),
            t("grid.file"),
        ) from exc
    except UnidentifiedImageError as exc:
        head = data.getbuffer()[:16].tobytes() if isinstance(data, io.BytesIO) else data[:16]
        if head.startswith(_SIGNATURES):
            raise PuzzleError(t("grid.image_header_truncated_or_damaged"), t("grid.file")) from exc
        raise PuzzleError(
            t("grid.not_image_this_app_can", formats=', '.join(FORMATS)),
            t("grid.file"),
        ) from exc
    except Exception as exc:  # a damaged header: SyntaxError, OSError, struct.error, ...
        raise PuzzleError(
            t("grid.not_image_this_app_can_2"),
            t("grid.file"),
        ) from exc


# PNG colour type -> samples a pixel; Adam7's passes as (first column, first row, column step, row step).
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))
_INFLATE_STEP = 1 << 20  # bytes inflated at a time while counting
_FEED_STEP = 1 << 16  # compressed bytes given to zlib at a time


def _check_png_data(data: bytes) -> None:
    """Refuse a PNG whose pixel data (its IDAT chunks) holds less than its header declares.

    Pillow's PNG decoder ends quietly where the compressed stream ends, even before the last row
    (its ZipDecode treats zlib's end of stream as the end of the image: the check that both end
    together is commented out), and the rows never written stay black. ``ImageFile.LOAD_TRUNCATED_IMAGES``
    plays no part (it is False; this project never sets it): the stream is not cut, it is complete
    and short. So we inflate the stream once more before decoding, counting bytes in 1 MB steps and
    keeping none, and stop as soon as it holds the whole image. A file cut inside its data gets the
    same words (Pillow would refuse it too)."""
    if len(data) < 29 or data[12:16] != b"IHDR":
        return  # Pillow read a header, so this does not happen; Pillow's own errors cover the rest
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    channels = _PNG_CHANNELS.get(colour)
    if channels is None or not width or not height:
        return
    bits = depth * channels
    passes = (
        [((width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy) for x0, y0, dx, dy in _ADAM7]
        if interlace else [(width, height)]
    )
    expected = sum(h * (1 + (w * bits + 7) // 8) for w, h in passes if w > 0 and h > 0)
    inflater = zlib.decompressobj()
    view = memoryview(data)
    got, pos = 0, 8
    try:
        while pos + 8 <= len(data) and got < expected and not inflater.eof:
            length, kind = struct.unpack(">I4s", view[pos:pos + 8])
            body = view[pos + 8:pos + 8 + length]
            pos += 12 + length
            if kind == b"IEND":
                break
            if kind != b"IDAT":
                continue
            # Fed in 64 KB pieces: zlib's unconsumed tail (copied at every call) stays that small.
            for offset in range(0, len(body), _FEED_STEP):
                got += len(inflater.decompress(body[offset:offset + _FEED_STEP], _INFLATE_STEP))
                while inflater.unconsumed_tail and got < expected:
                    got += len(inflater.decompress(inflater.unconsumed_tail, _INFLATE_STEP))
                if got >= expected or inflater.eof:
                    break
    except zlib.error as exc:
        raise PuzzleError(t("grid.image_data_truncated_or_damaged_3", exc=exc),
                          t("grid.file")) from exc
    if got >= expected:
        return
    if interlace:
        held = t("grid.its_interlaced_pixel_data", value=f"{100 * got / expected:.1f}")
    else:
        held = t("grid.its_rows", value=got // (1 + (width * bits + 7) // 8), height=height)
    raise PuzzleError(
        t("grid.image_data_truncated_or_damaged", width=width, height=height, held=held),
        t("grid.file"),
    )


def _describe_mode(im: Image.Image) -> str:
    kinds = {
        "P": t("grid.mode.palette"),
        "1": "1-bit",
        "L": t("grid.mode.grayscale"),
        "LA": t("grid.grayscale_with_alpha"),
        "RGB": "RGB",
        "RGBA": "RGBA",
    }
    kind = kinds.get(im.mode, t("grid.mode.grayscale_16") if im.mode.startswith("I;16") else im.mode)
    return t(
        "grid.x_mode_image",
        value=im.format or t("grid.mode.image"),
        width=im.width,
        height=im.height,
        mode=im.mode,
        kind=kind,
    )


# --- per-pixel classification ---------------------------------------------------------------------


Runs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # row, start col, end col (excl.), colour


def _bands(width: int, height: int) -> list[tuple[int, int, int, int]]:
    """(top, bottom, left, right) of the pieces classified one at a time, in reading order: bands of
    whole rows of at most ``BAND_PIXELS`` pixels, or pieces of one row where a row is wider."""
    if width <= BAND_PIXELS:
        rows = BAND_PIXELS // max(1, width)
        return [(top, min(height, top + rows), 0, width) for top in range(0, height, rows)]
    return [(top, top + 1, left, min(width, left + BAND_PIXELS))
            for top in range(height) for left in range(0, width, BAND_PIXELS)]


def _classify(
    im: Image.Image, threshold: int, notes: list[str], markers: _Markers, progress: Progress | None = None,
) -> np.ndarray:
    """Free/wall cells (uint8 0/1); the marker pixels go to ``markers`` (``progress`` hears "cells"
    and the fraction of pixels done, once a band)."""
    width, height = im.size
    cells = np.empty((height, width), dtype=np.uint8)
    classify_band = _band_classifier(im, threshold, notes)
    for top, bottom, left, right in _bands(width, height):
        if progress is not None:
            progress("cells", (top * width + left) / (width * height))
        whole = (top, bottom, left, right) == (0, height, 0, width)
        free, codes = classify_band(None if whole else (left, top, right, bottom))
        cells[top:bottom, left:right] = free
        del free
        if codes is not None:
            markers.add(codes, top, left)
    if progress is not None:
        progress("cells", 1.0)
    return cells


def _band(im: Image.Image, box: tuple[int, int, int, int] | None, dtype: type | None = None) -> np.ndarray:
    """The pixels of ``box`` (None: the whole image) as an array; the cropped copy Pillow makes is
    gone once the array is made, so a band costs its array only."""
    return np.asarray(im if box is None else im.crop(box), dtype=dtype)


def _band_classifier(im: Image.Image, threshold: int, notes: list[str]):
    """A function box -> (free uint8 array, marker codes or None) of the image's pixels in ``box``
    (None: all), chosen once per image mode."""
    mode = im.mode
    if mode == "1":
        return lambda box: (_band(im, box, np.uint8), None)
    if mode == "L":
        return lambda box: ((_band(im, box) >= threshold).view(np.uint8), None)
    if mode.startswith("I;16") or mode in ("I", "F"):
        # 16-bit (and integer/float) grey: scale the threshold to the value range in use.
        high = im.getextrema()[1]
        scale = 257 if high > 255 else 1
        notes.append(t("grid.grey_values_up_threshold_x", high=high, threshold=threshold, scale=scale))
        return lambda box: ((_band(im, box) >= threshold * scale).view(np.uint8), None)
    if mode == "P":
        return _palette_classifier(im, threshold, notes)
    if mode not in ("RGB", "RGBA", "LA"):
        notes.append(t("grid.converted_from_mode_rgba", mode=mode))

    def classify(box: tuple[int, int, int, int] | None) -> tuple[np.ndarray, np.ndarray | None]:
        if mode == "LA":
            grey, alpha = np.moveaxis(_band(im, box), -1, 0)
            grey = _over_white(grey, alpha)
            return (grey >= threshold).view(np.uint8), None
        if mode in ("RGB", "RGBA"):
            arr = _band(im, box)
        else:
            arr = np.asarray((im if box is None else im.crop(box)).convert("RGBA"))
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
        notes.append(t("grid.transparent_palette_entries_count_as"))

    def classify(box: tuple[int, int, int, int] | None) -> tuple[np.ndarray, np.ndarray | None]:
        index = _band(im, box)
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


class _Markers:
    """The marker pixels of an image, gathered band by band: how many pixels of each colour, and the
    runs of each end's colours while that end covers at most ``MAX_MARKER_PIXELS`` pixels. Past the
    limit an end's runs are dropped (the image will be refused) and its pixels only counted, so the
    runs held never exceed the limit, whatever the image. ``memory`` (``parse_grid_image``'s) is told
    the bytes the runs and, later, the end cells take beyond the estimate's allowances."""

    def __init__(self, memory: Callable[[int], None] | None) -> None:
        self.counts = [0] * (RED + 1)  # pixels of each colour code
        self._parts: tuple[list[Runs], list[Runs]] = ([], [])
        self._runs = [0, 0]  # runs held of each end
        self._memory = memory
        self._reserved = 0  # bytes told to ``memory`` beyond the estimate

    def covered(self, end: int) -> int:
        return sum(self.counts[c] for c in END_COLOURS[end])

    def found(self) -> bool:
        return self.covered(START) + self.covered(GOAL) > 0

    def add(self, codes: np.ndarray, top: int, left: int) -> None:
        """The marker codes of the band whose first pixel is (top, left). Its temporaries are three
        bytes a pixel of the band (one end at a time), and 16 bytes a run."""
        if codes.any():
            for end in (START, GOAL):
                self._add_end(end, codes, top, left)

    def _add_end(self, end: int, codes: np.ndarray, top: int, left: int) -> None:
        first, second = END_COLOURS[end]
        height, width = codes.shape
        padded = np.zeros((height, width + 2), dtype=bool)  # a clear pixel either side of each row
        inner = padded[:, 1:-1]
        np.equal(codes, first, out=inner)
        other = codes == second
        here = (int(np.count_nonzero(inner)), int(np.count_nonzero(other)))
        self.counts[first] += here[0]
        self.counts[second] += here[1]
        if not sum(here):
            return
        if self.covered(end) > MAX_MARKER_PIXELS:
            self._parts[end].clear()  # the image will be refused: count, hold nothing
            self._runs[end] = 0
            return
        np.logical_or(inner, other, out=inner)
        del other, inner
        part = _runs(padded, codes, top, left)
        del padded
        self._runs[end] += len(part[0])
        self._need(sum(self._runs) * RUN_BYTES)
        self._parts[end].append(part)

    def refuse_oversized(self) -> None:
        """A PuzzleError naming each end whose colours cover more than ``MAX_MARKER_PIXELS`` pixels."""
        over = [end for end in (START, GOAL) if self.covered(end) > MAX_MARKER_PIXELS]
        if not over:
            return
        said = [
            t(
                "grid.colour_covers_pixels",
                end_labels=t(f"grid.word.{END_LABELS[end]}"),
                names=self._names(end),
                covered=self.covered(end),
            )
            for end in over
        ]
        how = "; ".join(
            t(
                "grid.paint_as_small_patch",
                end=t(f"grid.word.{END_LABELS[end]}"),
                colours=t(PATCH_COLOURS[end]),
            )
            for end in over
        )
        raise PuzzleError(
            t(
                "grid.image_marker_may_cover_at",
                said=" and ".join(said),
                max_marker_pixels=MAX_MARKER_PIXELS,
                how=how,
            ),
            t("grid.file"),
        )

    def reserve(self, freed: int) -> None:
        """Before the runs become end cells: tell ``memory`` what that takes beyond ``freed`` bytes
        (the estimate's allowance for the decoded image and a band, both released by now) and what
        it was told already. Ordinary markers (a few patches) never get here past the allowance."""
        cost = sum(self._runs) * RUN_BYTES + (self.covered(START) + self.covered(GOAL)) * END_PIXEL_BYTES
        self._need(cost - max(0, freed))

    def runs(self, end: int) -> Runs:
        """The end's runs in reading order, joined where a row was classified in pieces."""
        parts = self._parts[end]
        joined = _join_runs(_concat_runs(parts))
        parts.clear()
        return joined

    def _need(self, nbytes: int) -> None:
        if self._memory is None or nbytes <= self._reserved + FREE_MARKER_BYTES:
            return
        more = max(nbytes - self._reserved, 4 * FREE_MARKER_BYTES)  # a few calls, not one a band
        self._memory(more)
        self._reserved += more

    def _names(self, end: int) -> str:
        return "/".join(t(f"grid.colour.{COLOUR_NAMES[c]}") for c in END_COLOURS[end] if self.counts[c])


def _runs(padded: np.ndarray, codes: np.ndarray, row0: int, col0: int) -> Runs:
    """Horizontal runs of a band's marked pixels (row, start, end excl., colour of its first pixel),
    in reading order. ``padded`` holds the band's marks with a clear column either side; the band's
    first pixel is (row0, col0). Its temporaries: a byte a pixel, 16 bytes a run."""
    flat = padded.ravel()
    edges = np.flatnonzero(flat[1:] != flat[:-1])  # a run's first pixel, then one past its last
    if not len(edges):
        return _empty_runs()
    stride = padded.shape[1]
    begin, end = edges[0::2], edges[1::2]
    row = begin // stride
    start = begin - row * stride  # change i is between padded i and i + 1, which is pixel i - row * stride
    stop = end - row * stride
    return (
        (row + row0).astype(np.int32),
        (start + col0).astype(np.int32),
        (stop + col0).astype(np.int32),
        codes[row, start].astype(np.uint8),
    )


def _empty_runs() -> Runs:
    empty = np.zeros(0, dtype=np.int32)
    return empty, empty, empty, np.zeros(0, dtype=np.uint8)


def _concat_runs(parts: list[Runs]) -> Runs:
    if not parts:
        return _empty_runs()
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))  # type: ignore[return-value]


def _join_runs(runs: Runs) -> Runs:
    """Runs that continue one another (a row classified in pieces) as one run."""
    rows, starts, ends, colours = runs
    if len(rows) < 2:
        return runs
    continues = (rows[1:] == rows[:-1]) & (starts[1:] == ends[:-1])
    if not continues.any():
        return runs
    first = np.concatenate(([True], ~continues))  # a run that starts a joined run
    last = np.concatenate((~continues, [True]))  # ... and one that ends it
    return rows[first], starts[first], ends[last], colours[first]


#: Marker runs up to this many are labelled in Python (a 10 x 10 marker is 10 runs): numba's import and a
#: compiled union-find's load (~0.4 s) pay off only past tens of thousands of runs (hostile images).
COMPILED_RUNS = 10_000


def _label_runs(rows: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``marker_runs.label_runs``: in Python for a few runs, compiled (``image_kernels``) for many."""
    if rows.shape[0] < COMPILED_RUNS:
        return label_runs(rows, starts, ends)
    from .image_kernels import compiled_label_runs

    return compiled_label_runs(rows, starts, ends)


def _run_pixels(rows: np.ndarray, starts: np.ndarray, ends: np.ndarray, width: int) -> np.ndarray:
    """The flat indices of the runs' pixels, in the runs' order (sorted for runs in reading order)."""
    lengths = (ends - starts).astype(np.int64)
    firsts = rows.astype(np.int64) * width + starts
    flat = np.repeat(firsts - (np.cumsum(lengths) - lengths), lengths)
    flat += np.arange(len(flat), dtype=np.int64)
    return flat


def _significant_marker(runs: Runs, width: int, label: str, notes: list[str]) -> tuple[np.ndarray, str]:
    """Flat indices of the significant blobs of one marker kind, and a note ("" when there are none)."""
    rows, starts, ends, colours = runs
    if not len(rows):
        return np.zeros(0, dtype=np.int64), ""
    blob, first = _label_runs(rows, starts, ends)
    sizes = np.bincount(blob, weights=ends - starts, minlength=len(first)).astype(np.int64)
    largest = int(sizes.max())
    significant = (sizes >= NOISE_PIXELS) | (4 * sizes >= largest)
    kept = np.flatnonzero(significant)  # blob numbers, in reading order of their first pixel
    dropped = len(sizes) - len(kept)
    if dropped:
        notes.append(
            t(
                "grid.ignored_speck_colour_smaller_than",
                dropped=dropped,
                label=t(f"grid.word.{label}"),
                noise_pixels=NOISE_PIXELS,
                largest=largest,
            )
        )

    def first_pixel(number: int) -> tuple[int, int]:
        k = first[number]
        return int(rows[k]), int(starts[k])

    if label == "start" and len(kept) > 1:
        (r1, c1), (r2, c2) = first_pixel(kept[0]), first_pixel(kept[1])
        more = t("grid.and_more", value=len(kept) - 2) if len(kept) > 2 else ""
        raise PuzzleError(
            t("grid.two_start_markers_one_at", r1=r1, c1=c1, r2=r2, c2=c2, more=more),
            t("grid.pixel", r2=r2, c2=c2),
        )
    descriptions = []
    for number in kept[:MAX_DESCRIBED]:
        present = np.bincount(colours[blob == number], minlength=RED + 1)
        names = [COLOUR_NAMES[c] for c in sorted(COLOUR_NAMES, key=COLOUR_NAMES.get) if present[c]]
        size = int(sizes[number])
        r0, c0 = first_pixel(number)
        where = (
            t("grid.at_pixel", r0=r0, c0=c0) if size == 1 else t("grid.pixels_from", size=size, r0=r0, c0=c0)
        )
        descriptions.append(
            t("grid.colour_marker", names="/".join(t(f"grid.colour.{n}") for n in names), where=where)
        )
    if len(kept) > MAX_DESCRIBED:
        rest = kept[MAX_DESCRIBED:]
        descriptions.append(t("grid.and_more_pixels", n_rest=len(rest), sum=int(sizes[rest].sum())))
    keep = significant[blob]
    flat = _run_pixels(rows[keep], starts[keep], ends[keep], width)
    return flat, t(f"grid.word.{label}") + ": " + ", ".join(descriptions)


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
        if e - b > MAX_MARKER_PIXELS:  # an end's cells are bounded like a marker's
            return (
                np.zeros(0, dtype=np.int64),
                t(
                    "grid.no_marker_and_opening_in",
                    label=t(f"grid.word.{label}"),
                    side=t(f"grid.side.{side}"),
                    value=e - b,
                    max_marker_pixels=MAX_MARKER_PIXELS,
                ),
            )
        return (
            np.arange(row * width + b, row * width + e, dtype=np.int64),
            t(
                "grid.opening_in_border_row_row",
                label=t(f"grid.word.{label}"),
                side=t(f"grid.side.{side}"),
                row=row,
                b=b,
                value=e - 1,
            ),
        )
    if not len(begins):
        return np.zeros(0, dtype=np.int64), t(
            "grid.no_marker_and_no_opening", label=t(f"grid.word.{label}"), side=t(f"grid.side.{side}")
        )
    shown = ", ".join(
        str(int(b)) if e - b == 1 else f"{b}..{e - 1}" for b, e in zip(begins[:5], ends[:5], strict=True)
    )
    if len(begins) > 5:
        shown += ", ..."
    return (
        np.zeros(0, dtype=np.int64),
        t(
            "grid.no_marker_and_border_row",
            label=t(f"grid.word.{label}"),
            side=t(f"grid.side.{side}"),
            n_begins=len(begins),
            shown=shown,
        ),
    )
