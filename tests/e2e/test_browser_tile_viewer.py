"""The deep-zoom tile viewer (static/js/tiles/tile_viewer.js) in a real browser, over fake tiles.

The page opens the app, then makes a canvas and a TileViewer for a board of 100,000 × 60,000 cells whose
tiles come from /tiles-test/{z}/{x}/{y}/{t}.png, answered here with ``page.route``: PNGs of the right
(clipped) size whose red channel says the level and green channel the step, with a checker of cells in
blue (darker on every other tile). The route can hold a step's tiles back, so a test sees what the
viewer draws while they are late.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import re
import time

import numpy as np
import pytest
from PIL import Image

from tests.e2e.pages import ARTIFACTS, BROWSER_TEST

pytestmark = BROWSER_TEST

W, H, TILE = 100_000, 60_000, 256
MAX_LEVEL = 9  # 256 · 2^9 = 131,072 ≥ 100,000
CW, CH = 800, 480  # the canvas in CSS px (the test page's device pixel ratio is 1)
ERROR_GREY = (211, 211, 211)
TILE_URL = re.compile(r"/tiles-test/(?:(run-b)/)?(\d+)/(\d+)/(\d+)/(\w+)\.png$")


def colour(z: int, t: int | None, run: str | None = None) -> tuple[int, int]:
    """The red and green of every pixel of a tile of level z at step t (of the run "run-b": red + 5)."""
    return 20 + 20 * z + (5 if run else 0), 250 if t is None else (10 + 4 * t) % 256


def tile_size(z: int, x: int, y: int) -> tuple[int, int]:
    """A tile's natural size: ceil(covered cells / 2^z), clipped to the board."""
    k, span = 2**z, TILE * 2**z
    return math.ceil(min(span, W - x * span) / k), math.ceil(min(span, H - y * span) / k)


class FakeTiles:
    """Answers the viewer's tile requests, records them, holds some back, fails some."""

    def __init__(self, page) -> None:
        self.requests: list[tuple[int, int, int, int | None]] = []
        self.times: list[float] = []  # when each request came
        self.runs: list[str | None] = []  # and for which run
        self.busy: set[tuple[int, int, int, int | None]] = set()  # answered 429 once (Retry-After: 1)
        self.hold_steps: set[int | None] = set()
        self.hold_all = False
        self.pending: list[tuple[object, tuple[int, int, int, int | None], str | None]] = []
        self.fail: set[tuple[int, int, int, int | None]] = set()
        self.pngs: dict[tuple, bytes] = {}
        page.route("**/tiles-test/**", self.handle)

    def handle(self, route) -> None:
        m = TILE_URL.search(route.request.url)
        assert m, route.request.url
        tile = (int(m[2]), int(m[3]), int(m[4]), None if m[5] == "null" else int(m[5]))
        self.requests.append(tile)
        self.times.append(time.monotonic())
        self.runs.append(m[1])
        if tile in self.fail:
            route.fulfill(status=500, body="no tile")
        elif tile in self.busy:
            self.busy.discard(tile)
            route.fulfill(status=429, headers={"Retry-After": "1"}, body="busy")
        elif self.hold_all or tile[3] in self.hold_steps:
            self.pending.append((route, tile, m[1]))
        else:
            self.answer(route, tile, m[1])

    def answer(self, route, tile, run) -> None:
        z, x, y, t = tile
        size = tile_size(z, x, y)
        key = (size, z, t, (x + y) % 2, run)
        if key not in self.pngs:
            w, h = size
            rgb = np.zeros((h, w, 3), np.uint8)
            rgb[..., 0], rgb[..., 1] = colour(z, t, run)
            dark = 60 if (x + y) % 2 == 0 else 150  # neighbouring tiles differ in blue
            rgb[..., 2] = np.where((np.arange(h)[:, None] + np.arange(w)[None, :]) % 2 == 0, dark, dark + 60)
            out = io.BytesIO()
            Image.fromarray(rgb).save(out, "PNG")
            self.pngs[key] = out.getvalue()
        with contextlib.suppress(Exception):  # the viewer may have aborted the request meanwhile
            route.fulfill(status=200, content_type="image/png", body=self.pngs[key])

    def release(self, *, hold: bool = False) -> None:
        """Answer every held request; with ``hold``, requests made meanwhile are held in their turn."""
        if not hold:
            self.hold_steps.clear()
            self.hold_all = False
        pending, self.pending = self.pending, []
        for route, tile, run in pending:
            self.answer(route, tile, run)

    def since(self, mark: int) -> list[tuple[int, int, int, int | None]]:
        return self.requests[mark:]


SETUP = """async ({w, h, cw, ch, step, minimap}) => {
  const { TileViewer } = await import('/static/js/tiles/tile_viewer.js');
  const box = document.createElement('div');
  Object.assign(box.style, {position: 'fixed', left: '0px', top: '0px', width: cw + 'px', height: ch + 'px',
                            zIndex: '100000', background: '#fff'});
  box.dataset.testid = 'tile-box';
  const canvas = document.createElement('canvas');
  Object.assign(canvas.style, {display: 'block', width: '100%', height: '100%'});
  canvas.dataset.testid = 'tile-canvas';
  box.append(canvas);
  document.body.append(box);
  window.tileErrors = [];
  window.viewChanges = 0;
  window.settledSteps = [];
  window.overlays = 0;
  window.viewer = new TileViewer({
    canvas, width: w, height: h, step, minimap,
    url: (z, x, y, t) => `/tiles-test/${z}/${x}/${y}/${t}.png`,
    onTileError: (error, tile) => window.tileErrors.push([String(error), tile]),
    onViewChange: () => { window.viewChanges++; },
    onSettled: (t) => window.settledSteps.push(t),
    drawOverlay: (ctx, view) => {
      window.overlays++;
      const [col, row] = window.marker || [50000.5, 30000.5];  // a marker on one cell, over the tiles
      const p = view.toScreen(col, row);
      ctx.fillStyle = '#000';
      ctx.fillRect(p.x - 2, p.y - 2, 4, 4);
      if (window.marker) {  // and the cell's outline, as the lead's overlay will mark the current cell
        const a = view.toScreen(Math.floor(col), Math.floor(row));
        ctx.strokeStyle = '#ff2020';
        ctx.lineWidth = 2;
        ctx.strokeRect(a.x, a.y, view.scale, view.scale);
      }
    },
  });
  await window.viewer.whenSettled();
}"""

SETTLE = """async () => { await window.viewer.whenSettled();
  await new Promise(r => requestAnimationFrame(r)); }"""
VIEW = """() => { const v = window.viewer.getView();
  return {col: v.col, row: v.row, zoom: v.zoom, level: v.level, minimap: v.minimap, visible: v.visible}; }"""
# Canvas pixels at CSS points, sampled after each of `frames` animation frames: [frame][point] -> rgba.
SAMPLE = """async ({points, frames}) => {
  const ctx = window.viewer.canvas.getContext('2d');
  const out = [];
  for (let f = 0; f < frames; f++) {
    await new Promise(r => requestAnimationFrame(r));
    out.push(points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data)));
  }
  return out;
}"""


def make_viewer(page, *, cw=CW, ch=CH, step=0, minimap=True) -> None:
    page.evaluate(SETUP, {"w": W, "h": H, "cw": cw, "ch": ch, "step": step, "minimap": minimap})


def view(page) -> dict:
    return page.evaluate(VIEW)


def settle(page) -> None:
    page.evaluate(SETTLE)


def glided(page) -> None:
    """Wait until a stepped zoom (wheel notch, double click, + or -) has eased in."""
    page.wait_for_function("() => !window.viewer.isAnimating()")


def expected_level(zoom: float) -> int:
    return max(0, min(MAX_LEVEL, math.ceil(math.log2(1 / zoom) - 1e-9)))


def visible_tiles(v: dict, cw: int = CW, ch: int = CH) -> set[tuple[int, int, int]]:
    """The tiles of the view's level that the canvas shows (the viewer's rule, computed here)."""
    z, s = v["level"], v["zoom"]
    span = TILE * 2**z
    c0, c1 = max(0.0, v["col"] - cw / 2 / s), min(W, v["col"] + cw / 2 / s)
    r0, r1 = max(0.0, v["row"] - ch / 2 / s), min(H, v["row"] + ch / 2 / s)
    xs = range(math.floor(c0 / span), min(math.ceil(c1 / span), math.ceil(W / span)))
    ys = range(math.floor(r0 / span), min(math.ceil(r1 / span), math.ceil(H / span)))
    return {(z, x, y) for x in xs for y in ys}


def tile_points(v: dict, cw: int = CW, ch: int = CH) -> dict[tuple[int, int, int], tuple[int, int]]:
    """A CSS point inside each visible tile (the middle of its visible part), away from the minimap."""
    z, s = v["level"], v["zoom"]
    span = TILE * 2**z
    mm = v["minimap"]
    points = {}
    for _, x, y in visible_tiles(v, cw, ch):
        c0 = max(x * span, v["col"] - cw / 2 / s, 0)
        c1 = min((x + 1) * span, v["col"] + cw / 2 / s, W)
        r0 = max(y * span, v["row"] - ch / 2 / s, 0)
        r1 = min((y + 1) * span, v["row"] + ch / 2 / s, H)
        px = int((((c0 + c1) / 2) - v["col"]) * s + cw / 2)
        py = int((((r0 + r1) / 2) - v["row"]) * s + ch / 2)
        near_x = mm and mm["x"] - 4 <= px <= mm["x"] + mm["width"] + 4
        if near_x and mm["y"] - 4 <= py <= mm["y"] + mm["height"] + 4:
            continue
        if (c1 - c0) * s >= 6 and (r1 - r0) * s >= 6:  # a sliver of a tile at the edge is not sampled
            points[(z, x, y)] = (px, py)
    return points


def colours_at(page, points: list[tuple[int, int]], frames: int = 1) -> list[list[tuple[int, int]]]:
    """The red and green at each point, for each of `frames` frames."""
    data = page.evaluate(SAMPLE, {"points": [list(p) for p in points], "frames": frames})
    return [[(px[0], px[1]) for px in frame] for frame in data]


def assert_shows(page, v: dict, z: int, t: int | None, run: str | None = None) -> None:
    points = tile_points(v)
    assert points, v
    (frame,) = colours_at(page, list(points.values()))
    assert frame == [colour(z, t, run)] * len(points), (z, t, dict(zip(points, frame, strict=True)))


def test_fit_shows_the_top_tile_and_zooming_in_requests_only_the_visible_tiles(page):
    tiles = FakeTiles(page)
    # A canvas smaller than the top tile (196 × 118 px): the fit draws level 9, one tile.
    make_viewer(page, cw=160, ch=120)
    v = view(page)
    assert v["zoom"] == pytest.approx(160 / W)
    assert v["level"] == MAX_LEVEL == expected_level(v["zoom"])
    assert tiles.requests == [(MAX_LEVEL, 0, 0, 0)]
    # A laptop-sized canvas: the fit is redone at its size, level 7 (125 cells per pixel), all 8 tiles.
    mark = len(tiles.requests)
    page.evaluate(f"""() => {{ const b = document.querySelector('[data-testid=tile-box]');
        b.style.width = '{CW}px'; b.style.height = '{CH}px'; }}""")
    page.wait_for_function("() => window.viewer.canvas.width === 800")
    settle(page)
    v = view(page)
    assert v["zoom"] == pytest.approx(0.008) and v["level"] == 7
    assert set(tiles.since(mark)) == {(7, x, y, 0) for x in range(4) for y in range(2)}
    assert len(tiles.since(mark)) == 8
    assert_shows(page, v, 7, 0)

    # Zoomed in to 6 cells per pixel: level 3 (8 cells per tile pixel is the finest ≥ 1 device pixel).
    mark = len(tiles.requests)
    page.evaluate("() => window.viewer.zoomTo({col: 40000, row: 25000}, {cellsPerPixel: 6})")
    settle(page)
    v = view(page)
    assert v["level"] == 3 == expected_level(v["zoom"])
    fresh = tiles.since(mark)
    expected = visible_tiles(v)
    assert {(z, x, y) for z, x, y, _ in fresh} == expected and len(fresh) == len(expected), (fresh, expected)
    assert fresh[0][:3] == (3, 40000 // 2048, 25000 // 2048)  # the centre's tile first
    assert_shows(page, v, 3, 0)
    print(f"fit: 1 tile on a 160 × 120 canvas, 8 on 800 × 480; 6 cells/pixel: {len(fresh)} tiles of level 3")

    # The wheel zooms about the cursor: the cell under it stays under it.
    x, y = 600, 150
    page.mouse.move(x, y)
    before = view(page)
    page.mouse.wheel(0, -300)  # a mouse's notches: the zoom eases in over a few frames
    page.wait_for_function(f"() => window.viewer.getView().zoom > {before['zoom'] * 1.01}")
    glided(page)
    after = view(page)
    assert after["zoom"] / before["zoom"] == pytest.approx(math.exp(0.6), rel=1e-6)
    for axis, pos, half in (("col", x, CW / 2), ("row", y, CH / 2)):
        under_before = before[axis] + (pos - half) / before["zoom"]
        under_after = after[axis] + (pos - half) / after["zoom"]
        assert under_after == pytest.approx(under_before, abs=1e-6)
    page.wait_for_function("() => window.viewChanges >= 1")  # reported, throttled
    # A trackpad's pinch (wheel events with ctrlKey, small deltas) follows at once, about the cursor.
    page.evaluate("""() => { const c = window.viewer.canvas;
      for (let i = 0; i < 10; i++) c.dispatchEvent(new WheelEvent('wheel', {deltaY: 3, ctrlKey: true,
        clientX: 200, clientY: 300, bubbles: true, cancelable: true})); }""")
    pinched = view(page)
    assert not page.evaluate("() => window.viewer.isAnimating()")
    assert pinched["zoom"] / after["zoom"] == pytest.approx(math.exp(-0.3), rel=1e-6)
    under_cursor = after["col"] + (200 - CW / 2) / after["zoom"]
    assert pinched["col"] + (200 - CW / 2) / pinched["zoom"] == pytest.approx(under_cursor)

    # Deep zoom: level 0 magnified 16× with crisp cells (the blue checker), the overlay on top.
    page.evaluate("() => window.viewer.zoomTo({col: 50100, row: 30000}, 16)")
    settle(page)
    v = view(page)
    assert v["level"] == 0
    assert_shows(page, v, 0, 0)
    # Neighbouring cells alternate in blue, each a 16 × 16 block of one colour.
    row = page.evaluate("""() => Array.from(window.viewer.canvas.getContext('2d')
        .getImageData(100, 100, 64, 1).data).filter((_, i) => i % 4 === 2)""")
    blocks = [row[i : i + 16] for i in range(0, 64, 16)]
    starts = [i for i in range(1, 64) if row[i] != row[i - 1]]
    assert len(starts) in (3, 4) and all(b - a == 16 for a, b in itertools.pairwise(starts)), row
    assert {60, 120} <= set(row), blocks
    # Where four level-0 tiles meet (column 50,176, row 30,208), 6 px a cell, the overlay's marked cell.
    page.evaluate("""() => { window.marker = [50170.5, 30200.5];
      window.viewer.setView({col: 50176, row: 30208, zoom: 6}); }""")
    settle(page)
    assert_shows(page, view(page), 0, 0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("[data-testid=tile-box]").screenshot(path=str(ARTIFACTS / "tile-viewer-zoomed.png"))
    # No seam between the tiles: not one pixel of the background (or anything but the tiles' colours,
    # the overlay's and the minimap's) in the board's area.
    shot = np.asarray(Image.open(ARTIFACTS / "tile-viewer-zoomed.png").convert("RGB"))[:, :600]
    rg = shot[..., 0].astype(int) * 256 + shot[..., 1]
    board = rg == colour(0, 0)[0] * 256 + colour(0, 0)[1]
    overlay = (shot[..., 0] > 200) | (shot.sum(axis=2) == 0)
    assert (board | overlay).all(), np.argwhere(~(board | overlay))[:10]


def test_mouse_drag_double_click_and_keys_move_the_view(page):
    FakeTiles(page)
    make_viewer(page)
    page.evaluate("() => window.viewer.setView({col: 50000, row: 30000, zoom: 0.5})")
    settle(page)
    page.mouse.move(400, 240)
    page.mouse.down()
    page.mouse.move(350, 215, steps=5)
    page.mouse.move(300, 190, steps=5)
    page.mouse.up()
    v = view(page)
    assert (v["col"], v["row"]) == (pytest.approx(50200), pytest.approx(30100))
    assert page.evaluate("() => window.viewer.wasDrag()")

    page.mouse.dblclick(200, 240)  # zoom ×2 about the point
    glided(page)
    v2 = view(page)
    assert v2["zoom"] == pytest.approx(1.0)
    assert v2["col"] + (200 - 400) / 1.0 == pytest.approx(v["col"] + (200 - 400) / 0.5)

    page.evaluate("() => window.viewer.setView({col: 50000, row: 30000, zoom: 0.5})")
    page.focus("[data-testid=tile-canvas]")
    assert page.evaluate("() => document.activeElement === window.viewer.canvas")
    assert page.evaluate("() => window.viewer.canvas.tabIndex") == 0
    assert page.evaluate("() => window.viewer.canvas.style.touchAction") == "none"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    v = view(page)
    assert v["col"] == pytest.approx(50000 + 0.15 * CW / 0.5)
    assert v["row"] == pytest.approx(30000 + 0.15 * CH / 0.5)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    page.keyboard.type("+")
    glided(page)
    assert view(page)["zoom"] == pytest.approx(0.75)
    page.keyboard.press("-")
    page.keyboard.press("-")  # the second before the first has eased in: the targets add up
    glided(page)
    assert view(page)["zoom"] == pytest.approx(0.5 / 1.5)
    page.keyboard.press("0")
    v = view(page)
    assert (v["col"], v["row"], v["zoom"]) == (50000, 30000, pytest.approx(0.008))
    page.evaluate("() => window.viewer.setView({zoom: 1})")
    page.keyboard.press("Home")
    assert view(page)["zoom"] == pytest.approx(0.008)
    settle(page)
    assert_shows(page, view(page), 7, 0)


def test_a_new_step_keeps_the_old_tiles_until_its_own_arrive(page):
    tiles = FakeTiles(page)
    make_viewer(page)
    page.evaluate("() => window.viewer.zoomTo({col: 30000, row: 20000}, 1 / 6)")
    settle(page)
    v = view(page)
    points = tile_points(v)
    assert len(points) >= 5

    # Step 1's tiles held back: every frame still shows step 0 (never the background, never blank).
    tiles.hold_steps.add(1)
    page.evaluate("() => window.viewer.setStep(1)")
    frames = colours_at(page, list(points.values()), frames=12)
    assert all(frame == [colour(3, 0)] * len(points) for frame in frames), frames
    assert not page.evaluate("() => window.viewer.isSettled()")
    assert 0 < len(tiles.pending) <= 6  # at most six in flight
    tiles.release()
    settle(page)
    assert_shows(page, v, 3, 1)
    assert page.evaluate("() => window.settledSteps").count(1) == 1

    # Zoomed in one level with the new level held back: level 3's tiles, scaled, until level 2's arrive.
    tiles.hold_steps.add(1)
    page.evaluate("() => window.viewer.zoomTo({col: 30000, row: 20000}, 1 / 3)")
    v = view(page)
    assert v["level"] == 2
    points = tile_points(v)
    frames = colours_at(page, list(points.values()), frames=6)
    assert all(frame == [colour(3, 1)] * len(points) for frame in frames), frames
    tiles.release()
    settle(page)
    assert_shows(page, v, 2, 1)

    # Zoomed out to a level never shown, step 2 held: the finer level's tiles (step 1) fill in, scaled.
    tiles.hold_all = True
    page.evaluate("""() => { window.viewer.setStep(2);
        window.viewer.zoomTo({col: 30000, row: 20000}, 1 / 12); }""")
    v = view(page)
    assert v["level"] == 4
    frames = colours_at(page, [(400, 240)], frames=4)
    assert all(frame == [colour(3, 1)] for frame in frames), frames
    tiles.release()
    settle(page)
    assert_shows(page, v, 4, 2)

    # A new run (another URL, the same steps): the old run's tiles stay until the new run's arrive.
    points = tile_points(v)
    mark = len(tiles.requests)
    tiles.hold_all = True
    page.evaluate("() => window.viewer.setUrl((z, x, y, t) => `/tiles-test/run-b/${z}/${x}/${y}/${t}.png`)")
    frames = colours_at(page, list(points.values()), frames=6)
    assert all(frame == [colour(4, 2)] * len(points) for frame in frames), frames
    tiles.release()
    settle(page)
    assert_shows(page, v, 4, 2, "run-b")
    assert set(tiles.runs[mark:]) == {"run-b"}


def test_rapid_steps_coalesce_to_the_latest(page):
    tiles = FakeTiles(page)
    make_viewer(page)
    page.evaluate("() => window.viewer.zoomTo({col: 30000, row: 20000}, 1 / 6)")
    settle(page)
    v = view(page)
    visible = len(visible_tiles(v))

    # 50 steps in one go: only step 50's tiles are asked for.
    mark = len(tiles.requests)
    page.evaluate("""async () => { for (let t = 1; t <= 50; t++) window.viewer.setStep(t);
        await window.viewer.whenSettled(); }""")
    settle(page)
    fresh = tiles.since(mark)
    assert {t for *_, t in fresh} == {50}, fresh
    assert len(fresh) == visible + 1  # and the minimap's tile
    assert_shows(page, v, 3, 50)

    # Playing: a new step every frame while the server is slow (each batch of requests held for
    # 5 frames): at most six requests in flight, each for the newest step when it started.
    page.evaluate("""() => { window.fetchLog = []; const fetch = window.fetch;
      window.fetch = (url, options) => { window.fetchLog.push([String(url), window.viewer.step]);
                                         return fetch(url, options); }; }""")
    mark = len(tiles.requests)
    tiles.hold_all = True
    for batch in range(10):
        first = 51 + 5 * batch
        most = page.evaluate(
            """async (first) => { let most = 0;
                 for (let t = first; t < first + 5; t++) {
                   window.viewer.setStep(t); await new Promise(r => requestAnimationFrame(r));
                   most = Math.max(most, window.viewer.stats().inFlight); }
                 return most; }""",
            first,
        )
        assert 0 < most <= 6
        tiles.release(hold=True)
    tiles.hold_all = False
    tiles.release()
    settle(page)
    fresh = tiles.since(mark)
    print(f"50 steps, one a frame: {len(fresh)} requests for {visible} visible tiles (+1 minimap)")
    assert len(fresh) < 50 * visible / 3, len(fresh)
    assert_shows(page, v, 3, 100)
    assert page.evaluate("() => window.viewer.isSettled()")
    log = page.evaluate("() => window.fetchLog")
    assert len(log) == len(fresh)
    for url, step in log:
        assert url.endswith(f"/{step}.png"), (url, step)


def test_minimap_click_and_cell_at(page):
    FakeTiles(page)
    make_viewer(page)
    page.evaluate("() => window.viewer.setView({col: 10000, row: 10000, zoom: 0.5})")
    settle(page)
    mm = view(page)["minimap"]
    assert mm and mm["x"] + mm["width"] <= CW and mm["y"] + mm["height"] <= CH
    assert mm["width"] / mm["height"] == pytest.approx(W / H, rel=0.02)
    cells_per_px = W / mm["width"]
    page.mouse.click(mm["x"] + 0.75 * mm["width"], mm["y"] + 0.25 * mm["height"])
    v = view(page)
    assert v["col"] == pytest.approx(75000, abs=cells_per_px)
    assert v["row"] == pytest.approx(15000, abs=cells_per_px)
    assert v["zoom"] == 0.5
    # A drag on the minimap follows the pointer.
    page.mouse.move(mm["x"] + 0.1 * mm["width"], mm["y"] + 0.5 * mm["height"])
    page.mouse.down()
    page.mouse.move(mm["x"] + 0.5 * mm["width"], mm["y"] + 0.5 * mm["height"], steps=4)
    page.mouse.up()
    v = view(page)
    assert v["col"] == pytest.approx(50000, abs=cells_per_px)
    assert v["row"] == pytest.approx(30000, abs=cells_per_px)
    # Its tile is the top level's, and it is drawn.
    settle(page)
    (frame,) = colours_at(page, [(int(mm["x"] + 0.3 * mm["width"]), int(mm["y"] + 0.7 * mm["height"]))])
    assert frame == [colour(MAX_LEVEL, 0)]

    page.evaluate("() => window.viewer.setView({col: 12345.5, row: 6789.5, zoom: 8})")
    cell_at = "([x, y]) => window.viewer.cellAt(x, y)"
    assert page.evaluate(cell_at, [400, 240]) == {"col": 12345, "row": 6789}
    assert page.evaluate(cell_at, [408, 240]) == {"col": 12346, "row": 6789}
    assert page.evaluate(cell_at, [400 - 8 * 10, 240 + 8 * 3]) == {"col": 12335, "row": 6792}
    assert page.evaluate(cell_at, [mm["x"] + 5, mm["y"] + 5]) is None  # over the minimap
    page.evaluate("() => window.viewer.setView({col: 0, row: 0, zoom: 8})")
    assert page.evaluate(cell_at, [100, 100]) is None  # beyond the board's edge
    assert page.evaluate(cell_at, [401, 241]) == {"col": 0, "row": 0}
    page.evaluate("() => window.viewer.setMinimap(false)")
    assert view(page)["minimap"] is None


def test_a_failing_tile_is_tried_twice_then_drawn_grey(page, console):
    console.allow("Failed to load resource")
    tiles = FakeTiles(page)
    tiles.fail.add((7, 1, 1, 0))
    tiles.busy.add((7, 2, 1, 0))  # 429 with Retry-After: 1 s, then answered
    make_viewer(page)  # the fit: level 7, 4 × 2 tiles
    settle(page)
    assert tiles.requests.count((7, 1, 1, 0)) == 2
    busy = [when for tile, when in zip(tiles.requests, tiles.times, strict=True) if tile == (7, 2, 1, 0)]
    assert len(busy) == 2 and busy[1] - busy[0] >= 0.9, busy
    errors = page.evaluate("() => window.tileErrors")
    assert len(errors) == 1 and "500" in errors[0][0] and errors[0][1] == {"z": 7, "x": 1, "y": 1, "t": 0}
    v = view(page)
    points = tile_points(v)
    (frame,) = colours_at(page, [points[(7, 1, 1)], points[(7, 0, 0)], points[(7, 2, 1)]])
    assert frame == [ERROR_GREY[:2], colour(7, 0), colour(7, 0)]
    # destroy() stops drawing and listening.
    page.evaluate("() => window.viewer.destroy()")
    before = view(page)
    page.mouse.wheel(0, -300)
    page.wait_for_timeout(100)
    assert view(page)["zoom"] == before["zoom"]


POINTERS = """(events) => { const c = window.viewer.canvas;
  for (const [type, id, x, y] of events) c.dispatchEvent(new PointerEvent(type, {pointerId: id,
    pointerType: 'touch', isPrimary: id === 1, clientX: x, clientY: y, button: 0,
    bubbles: true, cancelable: true})); }"""


def test_touch_one_finger_pans_two_fingers_pinch_about_their_midpoint(page):
    FakeTiles(page)
    make_viewer(page)
    page.evaluate("() => window.viewer.setView({col: 50000, row: 30000, zoom: 0.5})")
    page.evaluate(POINTERS, [["pointerdown", 1, 400, 240], ["pointermove", 1, 380, 230],
                             ["pointermove", 1, 360, 220], ["pointerup", 1, 360, 220]])
    v = view(page)
    assert (v["col"], v["row"]) == (pytest.approx(50080), pytest.approx(30040))
    # Fingers at 300 and 500 move apart to 300 and 600: zoom ×1.5, the midpoint's cell follows it to 450.
    under = v["col"] + (400 - CW / 2) / v["zoom"]
    page.evaluate(POINTERS, [["pointerdown", 1, 300, 240], ["pointerdown", 2, 500, 240],
                             ["pointermove", 2, 550, 240], ["pointermove", 2, 600, 240],
                             ["pointerup", 2, 600, 240], ["pointerup", 1, 300, 240]])
    w = view(page)
    assert w["zoom"] == pytest.approx(0.75)
    assert w["col"] + (450 - CW / 2) / w["zoom"] == pytest.approx(under)
    assert w["row"] == pytest.approx(v["row"])
    assert page.evaluate("() => window.viewer.wasDrag()")


def test_at_two_device_pixels_a_css_pixel_the_level_follows_device_pixels(browser, server_url):
    context = browser.new_context(
        viewport={"width": 1000, "height": 700}, device_scale_factor=2, bypass_csp=True
    )
    try:
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
        tiles = FakeTiles(tab)
        tab.goto(server_url)
        tab.wait_for_function("document.querySelector('[data-testid=status]').textContent === 'ready'")
        make_viewer(tab)
        v = tab.evaluate("""() => { const v = window.viewer.getView();
            return {w: v.width, h: v.height, scale: v.scale, level: v.level}; }""")
        # Fit: 0.008 CSS px per cell = 0.016 device px per cell: level 6 (64 cells a tile pixel), not 7.
        assert v == {"w": 1600, "h": 960, "scale": pytest.approx(0.016), "level": 6}
        assert {(z, x, y) for z, x, y, _ in tiles.requests} - {(MAX_LEVEL, 0, 0)} == {
            (6, x, y) for x in range(7) for y in range(4)
        }
        # A sample in device pixels: tile (6, 2, 1)'s middle, (40960, 24576) cells.
        px = (int((40960 - 50000) * 0.016 + 800), int((24576 - 30000) * 0.016 + 480))
        (frame,) = tab.evaluate(SAMPLE, {"points": [list(px)], "frames": 1})
        assert tuple(frame[0][:2]) == colour(6, 0)
        cell = tab.evaluate("([x, y]) => window.viewer.cellAt(x, y)", [500, 350])  # CSS px
        assert cell == {"col": 62500, "row": 43750}
        assert not errors, errors
    finally:
        context.close()
