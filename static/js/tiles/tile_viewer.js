// @ts-check
// A deep-zoom viewer for huge boards of cells (up to 15001 × 15001 = 225 M cells), drawn from a pyramid
// of PNG tiles that the server renders for a step t of the search (the board after t expansions).
//
// Why our own, not OpenSeadragon or Leaflet (CRS.Simple): our tiles also depend on a step that changes
// many times a second while playing. The viewer must keep showing the previous step's tiles (or a
// coarser level's, scaled) until the new ones arrive, coalesce requests to the latest step, report when
// a step is fully shown (the playback and the benchmark wait for it) and never flicker; map libraries'
// tile layers are static per URL template and blank or cross-fade on a change of URL. The page also has
// a strict CSP (no inline styles) and no third-party stylesheet, which both libraries ship.
//
// Levels: at level z one tile pixel covers 2^z × 2^z cells; tile (z, x, y) covers columns
// [x·tileSize·2^z, (x+1)·tileSize·2^z) and rows likewise, clipped to the board (edge tiles are smaller
// images: ceil(covered cells / 2^z) pixels). maxLevel is the smallest z at which the board fits in one
// tile. The level drawn is the finest whose tile pixel is at least one device pixel; above one device
// pixel per cell level 0 is magnified without smoothing (crisp cells).
//
// The view: a centre in cell coordinates (continuous: cell (c, r) spans [c, c+1) × [r, r+1)) and a zoom
// in CSS pixels per cell. A page may hold several viewers: no module-level mutable state.
//
// Steps: setStep(t) asks for step t's visible tiles (nearest the centre first, then the minimap's), at
// most maxRequests in flight; a request is only ever started for the current step, so a burst of steps
// coalesces to the latest. Until a visible tile of step t arrives its place shows, in this order, the
// newest tile of that position drawn or arrived (another step, or another run after setUrl), else a
// coarser level's tile cropped and scaled with the finer level's tiles over it — never the background
// where a tile was shown before. Requests for tiles that left the view are aborted; those of an older
// step still in view are let finish (they refresh the picture while a slow server catches up).
// isSettled() / whenSettled() / onSettled(t): every visible tile of the current step (and the minimap's)
// is drawn. A failed tile is asked again once (after 300 ms or the answer's Retry-After), then drawn
// light grey and reported to onTileError.
//
// Input: mouse drag pans, the wheel zooms about the cursor (a trackpad's stream and pinch at once, a
// mouse's notch eased in), double click zooms in (shift: out); touch and pen by Pointer Events (one
// finger pans, two pinch about their midpoint); keys on the focused canvas (tabindex 0): arrows pan,
// + / = and - zoom, 0 or Home fit. The minimap (bottom right, on the same canvas) shows the whole board
// and the view; a click or drag on it moves the view there.

import { BOARD_BACKGROUND } from "../colors.js";
import { t as words } from "../i18n.js"; // `t` is a tile's step here

const ERROR_FILL = "#d3d3d3"; // a tile that failed twice
const VIEWPORT_STROKE = "#d9480f";
const WHEEL_RATE = 0.002; // zoom factor e^(-deltaY · rate) per wheel pixel
const PINCH_WHEEL_RATE = 0.01; // a trackpad pinch arrives as a wheel event with ctrlKey
const KEY_ZOOM = 1.5;
const KEY_PAN = 0.15; // of the view's size per arrow key
const VIEW_CHANGE_MS = 100; // onViewChange at most this often
const RETRY_MS = 300; // a failed tile is asked for again after this (or the answer's Retry-After, ≤ 5 s)
const DRAG_SLOP = 3; // CSS px: a gesture that moved less is a click
const GLIDE_MS = 70; // a stepped zoom (a wheel's notch, a double click, a key) eases in with this time constant
const STEPPED_WHEEL = 40; // CSS px of wheel delta from one event: a mouse's notch, not a trackpad's stream

/**
 * @typedef {number | null} Step  the search's step t (expansions), or null: the board without a search
 * @typedef {{col: number, row: number, zoom: number}} ViewState  centre in cells, zoom in CSS px per cell
 * @typedef {{col0: number, row0: number, col1: number, row1: number}} CellRect  cells [col0, col1) × [row0, row1)
 * @typedef {{x: number, y: number, width: number, height: number}} Rect
 * @typedef {{
 *   col: number, row: number, zoom: number, level: number, step: Step,
 *   scale: number, dpr: number, width: number, height: number,
 *   visible: CellRect, minimap: Rect | null,
 *   toScreen: (col: number, row: number) => {x: number, y: number},
 *   toCell: (x: number, y: number) => {col: number, row: number},
 * }} View
 *   What a frame shows. scale: device pixels per cell; width, height: the canvas's backing store in
 *   device pixels; toScreen / toCell map cells (continuous) to canvas device pixels and back; visible:
 *   the whole cells shown, clipped to the board; minimap: its rectangle in CSS pixels of the canvas.
 * @typedef {{z: number, x: number, y: number, t: Step}} TileId
 * @typedef {{state: "ok" | "error", bitmap: ImageBitmap | null, frame: number}} CacheEntry
 * @typedef {{controller: AbortController, pos: string, gen: number}} Request
 * @typedef {{
 *   canvas: HTMLCanvasElement, width: number, height: number, tileSize?: number,
 *   url: (z: number, x: number, y: number, t: Step) => string,
 *   onViewChange?: (view: View) => void,
 *   drawOverlay?: (ctx: CanvasRenderingContext2D, view: View) => void,
 *   onSettled?: (t: Step) => void,
 *   onTileError?: (error: unknown, tile: TileId) => void,
 *   minimap?: boolean, maxZoom?: number, maxRequests?: number, cacheSize?: number,
 *   background?: string, step?: Step,
 * }} TileViewerOptions
 */

const posKey = (z, x, y) => `${z}/${x}/${y}`;
const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

export class TileViewer {
  /**
   * @param {TileViewerOptions} options
   *   width, height: the board in cells; url(z, x, y, t): a tile's address; tileSize: tile edge in pixels;
   *   onViewChange(view): the user panned or zoomed (throttled; not called for fit/setView/zoomTo);
   *   drawOverlay(ctx, view): after the tiles, each frame; onSettled(t): every visible tile of step t is
   *   drawn; onTileError(error, tile): a tile failed twice (drawn light grey); minimap: show it;
   *   maxZoom: CSS px per cell at most (64); maxRequests: fetches in flight at most (6); cacheSize:
   *   bitmaps kept (400); step: the first step (null).
   */
  constructor({
    canvas, width, height, tileSize = 256, url, onViewChange, drawOverlay, onSettled, onTileError,
    minimap = true, maxZoom = 64, maxRequests = 6, cacheSize = 400, background = BOARD_BACKGROUND, step = null,
  }) {
    if (!(width > 0 && height > 0)) throw new Error(words("tiles.no_cells", { width, height }));
    this.canvas = canvas;
    this.ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
    this.width = width;
    this.height = height;
    this.tileSize = tileSize;
    this.url = url;
    this.onViewChange = onViewChange;
    this.drawOverlay = drawOverlay;
    this.onSettled = onSettled;
    this.onTileError = onTileError;
    this.maxZoom = maxZoom;
    this.maxRequests = maxRequests;
    this.cacheSize = cacheSize;
    this.background = background;
    /** The smallest level at which the whole board is one tile. */
    this.maxLevel = 0;
    while (tileSize * 2 ** this.maxLevel < Math.max(width, height)) this.maxLevel++;

    /** @type {Step} */ this.step = step;
    this.gen = 0; // counts setStep calls: which of two steps was asked for later
    this.col = width / 2;
    this.row = height / 2;
    this.zoom = 1;
    this.fitted = true; // follow the canvas's size until the user moves
    this.minimapOn = minimap;
    this.dpr = window.devicePixelRatio || 1;

    // Tiles are known by their URL: it names z/x/y/t and whatever else url() puts in it (the run), so a
    // new run's tiles never pass for an old run's, and the old run's stay shown until the new arrive.
    /** @type {Map<string, CacheEntry>} LRU of tiles by URL, oldest first */
    this.cache = new Map();
    /** @type {Map<string, {key: string, gen: number}>} per position z/x/y: the newest tile drawn or arrived */
    this.lastShown = new Map();
    /** @type {Map<string, Request>} fetches in flight by URL */
    this.inflight = new Map();
    /** @type {Map<string, {attempts: number, retryAt: number}>} failed tiles by URL, to be tried again */
    this.failures = new Map();
    this.retryTimer = 0;
    this.counts = { requested: 0, aborted: 0, failed: 0, loaded: 0 };

    this.frameNo = 0;
    this.raf = 0;
    this.settled = false;
    /** @type {Array<() => void>} */ this.settleWaiters = [];
    this.destroyed = false;
    this.viewTimer = 0;
    this.viewLast = 0;

    /** @type {{x: number, y: number, zoom: number, last: number} | null} a zoom easing to `zoom` about (x, y) */
    this.glide = null;
    /** @type {Map<number, {x: number, y: number}>} pointers down on the board, CSS px */
    this.pointers = new Map();
    /** @type {number | null} */ this.minimapPointer = null;
    this.moved = 0; // CSS px the current gesture moved
    this.dragged = false;

    canvas.tabIndex = canvas.tabIndex >= 0 ? canvas.tabIndex : 0;
    canvas.style.touchAction = "none";
    canvas.style.cursor = "grab";
    /** @type {Array<[EventTarget, string, (event: any) => void, AddEventListenerOptions | undefined]>} */
    this.listeners = [];
    const on = (target, type, fn, opts = undefined) => {
      target.addEventListener(type, fn, opts);
      this.listeners.push([target, type, fn, opts]);
    };
    on(canvas, "pointerdown", (e) => this.pointerDown(e));
    on(canvas, "pointermove", (e) => this.pointerMove(e));
    on(canvas, "pointerup", (e) => this.pointerUp(e));
    on(canvas, "pointercancel", (e) => this.pointerUp(e));
    on(canvas, "wheel", (e) => this.wheel(e), { passive: false });
    on(canvas, "dblclick", (e) => this.dblclick(e));
    on(canvas, "keydown", (e) => this.keydown(e));
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(canvas);
    /** @type {MediaQueryList | null} */ this.dprQuery = null;
    this.dprChanged = () => this.resize();
    this.watchDpr();
    this.resize();
  }

  // ---- public API --------------------------------------------------------------------------------

  /** Show step t (null: the board without a search); the tiles shown stay until t's arrive. */
  setStep(t) {
    if (t === this.step) return;
    this.step = t;
    this.gen++;
    this.unsettle();
  }

  /**
   * Take tiles from another address (a new run of the same board): what is shown stays until the new
   * tiles arrive, as for a new step.
   * @param {(z: number, x: number, y: number, t: Step) => string} url
   */
  setUrl(url) {
    if (url === this.url) return;
    this.url = url;
    this.gen++;
    this.unsettle();
  }

  /** True once every visible tile of the current step (and the minimap's) has been drawn. */
  isSettled() {
    return this.settled;
  }

  /**
   * @returns {Promise<void>} resolves once every visible tile of the current step is drawn (if the step
   *   or view changes first, once the newer one is: check `step` or use onSettled(t) for which)
   */
  whenSettled() {
    if (this.settled || this.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  /** The whole board in view, centred. */
  fit() {
    this.glide = null;
    this.col = this.width / 2;
    this.row = this.height / 2;
    this.zoom = Math.min(this.fitZoom(), this.maxZoom);
    this.fitted = true;
    this.unsettle();
  }

  /**
   * Centre on a cell, optionally at a zoom.
   * @param {{col: number, row: number}} cell  a cell (integers: its centre is shown) or a continuous position
   * @param {number | {zoom: number} | {cellsPerPixel: number}} [scale]  the zoom in CSS pixels per cell
   *   (a number or {zoom}), or {cellsPerPixel} (16: sixteen cells a CSS pixel); unchanged when omitted
   */
  zoomTo({ col, row }, scale = undefined) {
    let zoom;
    if (typeof scale === "number") zoom = scale;
    else if (scale && "zoom" in scale) zoom = scale.zoom;
    else if (scale && "cellsPerPixel" in scale) zoom = 1 / scale.cellsPerPixel;
    this.setView({ col: Number.isInteger(col) ? col + 0.5 : col, row: Number.isInteger(row) ? row + 0.5 : row, zoom });
  }

  /** @returns {View} the view as the last (or next) frame draws it */
  getView() {
    return this.view();
  }

  /** @param {Partial<ViewState>} state  any of the centre (cells, continuous) and the zoom (CSS px per cell) */
  setView({ col = this.col, row = this.row, zoom = this.zoom }) {
    this.glide = null;
    this.applyView(col, row, zoom, false);
  }

  /**
   * The cell under a point of the page, or null outside the board (or over the minimap).
   * @returns {{row: number, col: number} | null}
   */
  cellAt(clientX, clientY) {
    const { x, y } = this.local(clientX, clientY);
    if (this.inMinimap(x, y)) return null;
    const { col, row } = this.cssToCell(x, y);
    const c = Math.floor(col), r = Math.floor(row);
    if (c < 0 || r < 0 || c >= this.width || r >= this.height) return null;
    return { row: r, col: c };
  }

  /** Show or hide the minimap. */
  setMinimap(on) {
    this.minimapOn = Boolean(on);
    this.unsettle();
  }

  /** Draw again at the next animation frame (e.g. the overlay changed). */
  requestDraw() {
    if (this.raf || this.destroyed) return;
    this.raf = requestAnimationFrame(() => this.frame());
  }

  /** True while a stepped zoom (wheel notch, double click, + or -) is still easing in. */
  isAnimating() {
    return this.glide !== null;
  }

  /** True when the last pointer gesture on the board moved it (a click handler may ignore that click). */
  wasDrag() {
    return this.dragged;
  }

  /** Requests and cache so far (for tests and benchmarks). */
  stats() {
    return { ...this.counts, inFlight: this.inflight.size, cached: this.cache.size };
  }

  /** Remove every listener, abort fetches, close every bitmap. */
  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    clearTimeout(this.viewTimer);
    clearTimeout(this.retryTimer);
    for (const [target, type, fn, opts] of this.listeners) target.removeEventListener(type, fn, opts);
    this.listeners = [];
    this.resizeObserver.disconnect();
    this.dprQuery?.removeEventListener("change", this.dprChanged);
    for (const request of this.inflight.values()) request.controller.abort();
    this.inflight.clear();
    for (const entry of this.cache.values()) entry.bitmap?.close();
    this.cache.clear();
    this.lastShown.clear();
    for (const resolve of this.settleWaiters.splice(0)) resolve();
  }

  // ---- geometry ----------------------------------------------------------------------------------

  cssWidth() {
    return this.canvas.clientWidth;
  }

  cssHeight() {
    return this.canvas.clientHeight;
  }

  fitZoom() {
    const w = this.cssWidth(), h = this.cssHeight();
    if (!w || !h) return 1;
    return Math.min(w / this.width, h / this.height);
  }

  minZoom() {
    return Math.min(this.fitZoom() / 4, this.maxZoom);
  }

  /** Device pixels per cell. */
  scale() {
    return this.zoom * this.dpr;
  }

  /** The finest level whose tile pixel is at least one device pixel. */
  level() {
    const z = Math.ceil(Math.log2(1 / this.scale()) - 1e-9);
    return clamp(z, 0, this.maxLevel);
  }

  /** A point of the page in CSS px of the canvas's content box. */
  local(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    return { x: clientX - rect.left - this.canvas.clientLeft, y: clientY - rect.top - this.canvas.clientTop };
  }

  cssToCell(x, y) {
    return { col: this.col + (x - this.cssWidth() / 2) / this.zoom, row: this.row + (y - this.cssHeight() / 2) / this.zoom };
  }

  /** @returns {View} */
  view() {
    const W = this.canvas.width, H = this.canvas.height, s = this.scale();
    const col = this.col, row = this.row;
    const c0 = col - W / 2 / s, c1 = col + W / 2 / s, r0 = row - H / 2 / s, r1 = row + H / 2 / s;
    return {
      col, row, zoom: this.zoom, level: this.level(), step: this.step, scale: s, dpr: this.dpr, width: W, height: H,
      visible: {
        col0: clamp(Math.floor(c0), 0, this.width), row0: clamp(Math.floor(r0), 0, this.height),
        col1: clamp(Math.ceil(c1), 0, this.width), row1: clamp(Math.ceil(r1), 0, this.height),
      },
      minimap: this.minimapCss(),
      toScreen: (c, r) => ({ x: (c - col) * s + W / 2, y: (r - row) * s + H / 2 }),
      toCell: (x, y) => ({ col: col + (x - W / 2) / s, row: row + (y - H / 2) / s }),
    };
  }

  /** The visible part of the board in (continuous) cells, or null when nothing is. */
  visibleCells() {
    const W = this.canvas.width, H = this.canvas.height, s = this.scale();
    const c0 = Math.max(0, this.col - W / 2 / s), c1 = Math.min(this.width, this.col + W / 2 / s);
    const r0 = Math.max(0, this.row - H / 2 / s), r1 = Math.min(this.height, this.row + H / 2 / s);
    if (!(c1 > c0 && r1 > r0)) return null;
    return { c0, c1, r0, r1 };
  }

  /** @returns {Array<{x: number, y: number}>} the visible tiles of level z, nearest the centre first */
  visibleTiles(z) {
    const cells = this.visibleCells();
    if (!cells) return [];
    const span = this.tileSize * 2 ** z;
    const x0 = Math.floor(cells.c0 / span), x1 = Math.min(Math.ceil(cells.c1 / span), Math.ceil(this.width / span)) - 1;
    const y0 = Math.floor(cells.r0 / span), y1 = Math.min(Math.ceil(cells.r1 / span), Math.ceil(this.height / span)) - 1;
    const tiles = [];
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) tiles.push({ x, y });
    const cx = this.col / span - 0.5, cy = this.row / span - 0.5;
    tiles.sort((a, b) => (a.x - cx) ** 2 + (a.y - cy) ** 2 - ((b.x - cx) ** 2 + (b.y - cy) ** 2));
    return tiles;
  }

  /** The minimap's rectangle in device px (bottom right), or null when off or the canvas is too small. */
  minimapRect() {
    if (!this.minimapOn) return null;
    const W = this.canvas.width, H = this.canvas.height, d = this.dpr;
    const side = Math.min(160 * d, W * 0.3, H * 0.4);
    if (side < 24 * d) return null;
    const w = this.width >= this.height ? side : Math.max(2, (side * this.width) / this.height);
    const h = this.height >= this.width ? side : Math.max(2, (side * this.height) / this.width);
    const margin = 8 * d;
    return { x: Math.round(W - margin - w), y: Math.round(H - margin - h), width: Math.round(w), height: Math.round(h) };
  }

  /** @returns {Rect | null} the minimap in CSS px of the canvas */
  minimapCss() {
    const r = this.minimapRect();
    if (!r) return null;
    const k = 1 / this.dpr;
    return { x: r.x * k, y: r.y * k, width: r.width * k, height: r.height * k };
  }

  inMinimap(x, y) {
    const r = this.minimapCss();
    return Boolean(r && x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height);
  }

  // ---- view changes ------------------------------------------------------------------------------

  applyView(col, row, zoom, byUser) {
    const z = clamp(zoom, this.minZoom(), this.maxZoom);
    const c = clamp(col, 0, this.width), r = clamp(row, 0, this.height);
    if (c === this.col && r === this.row && z === this.zoom) return;
    this.col = c;
    this.row = r;
    this.zoom = z;
    this.fitted = false;
    this.unsettle();
    if (byUser) this.viewChanged();
  }

  /** Zoom to `zoom` keeping the cell under CSS point (x, y) there. */
  zoomAbout(x, y, zoom, byUser = true) {
    const z = clamp(zoom, this.minZoom(), this.maxZoom);
    const { col, row } = this.cssToCell(x, y);
    const w = this.cssWidth(), h = this.cssHeight();
    this.applyView(col - (x - w / 2) / z, row - (y - h / 2) / z, z, byUser);
  }

  /** Ease the zoom to `zoom` about CSS point (x, y) over the next frames (a stepped zoom looks smooth). */
  glideAbout(x, y, zoom) {
    const target = clamp(zoom, this.minZoom(), this.maxZoom);
    this.glide = { x, y, zoom: target, last: performance.now() };
    this.requestDraw();
  }

  /** One frame of the glide; true while it goes on. */
  stepGlide() {
    const g = this.glide;
    if (!g) return false;
    const now = performance.now();
    const f = 1 - Math.exp(-Math.max(0, now - g.last) / GLIDE_MS);
    g.last = now;
    const gap = Math.log(g.zoom / this.zoom);
    const done = Math.abs(gap * (1 - f)) < 0.002;
    this.zoomAbout(g.x, g.y, done ? g.zoom : this.zoom * Math.exp(gap * f));
    if (done) this.glide = null;
    return !done;
  }

  panBy(dx, dy) {
    this.applyView(this.col - dx / this.zoom, this.row - dy / this.zoom, this.zoom, true);
  }

  /** onViewChange at most every VIEW_CHANGE_MS, the last change always reported. */
  viewChanged() {
    if (!this.onViewChange || this.viewTimer) return;
    const wait = Math.max(0, this.viewLast + VIEW_CHANGE_MS - performance.now());
    this.viewTimer = window.setTimeout(() => {
      this.viewTimer = 0;
      this.viewLast = performance.now();
      if (!this.destroyed) this.onViewChange?.(this.view());
    }, wait);
  }

  unsettle() {
    this.settled = false;
    this.requestDraw();
  }

  resize() {
    if (this.destroyed) return;
    this.dpr = window.devicePixelRatio || 1;
    const w = Math.round(this.cssWidth() * this.dpr), h = Math.round(this.cssHeight() * this.dpr);
    if (w !== this.canvas.width || h !== this.canvas.height) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    if (this.fitted) this.fit();
    else this.applyView(this.col, this.row, this.zoom, false);
    this.unsettle();
  }

  watchDpr() {
    this.dprQuery?.removeEventListener("change", this.dprChanged);
    this.dprQuery = window.matchMedia("(resolution:" + (window.devicePixelRatio || 1) + "dppx)");
    this.dprChanged = () => {
      this.watchDpr();
      this.resize();
    };
    this.dprQuery.addEventListener("change", this.dprChanged);
  }

  // ---- input -------------------------------------------------------------------------------------

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    const p = this.local(e.clientX, e.clientY);
    try {
      this.canvas.setPointerCapture(e.pointerId);
    } catch { /* a synthetic pointer */ }
    if (this.pointers.size === 0 && this.inMinimap(p.x, p.y)) {
      this.minimapPointer = e.pointerId;
      this.minimapJump(p);
      return;
    }
    this.glide = null; // a hand on the board stops a zoom still easing in
    if (this.pointers.size === 0) {
      this.moved = 0;
      this.dragged = false;
    }
    this.pointers.set(e.pointerId, p);
    this.canvas.style.cursor = "grabbing";
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const p = this.local(e.clientX, e.clientY);
    if (this.minimapPointer === e.pointerId) {
      this.minimapJump(p);
      return;
    }
    const old = this.pointers.get(e.pointerId);
    if (!old) return;
    if (this.pointers.size === 1) {
      this.pointers.set(e.pointerId, p);
      this.gesture(Math.hypot(p.x - old.x, p.y - old.y));
      this.panBy(p.x - old.x, p.y - old.y);
    } else if (this.pointers.size === 2) {
      const [a0, b0] = [...this.pointers.values()];
      this.pointers.set(e.pointerId, p);
      const [a1, b1] = [...this.pointers.values()];
      const m0 = { x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2 }, m1 = { x: (a1.x + b1.x) / 2, y: (a1.y + b1.y) / 2 };
      const d0 = Math.hypot(a0.x - b0.x, a0.y - b0.y), d1 = Math.hypot(a1.x - b1.x, a1.y - b1.y);
      this.gesture(Math.hypot(m1.x - m0.x, m1.y - m0.y) + Math.abs(d1 - d0));
      // The cell under the old midpoint goes under the new midpoint, at the pinched zoom.
      const cell = this.cssToCell(m0.x, m0.y);
      const z = clamp(d0 > 0 ? (this.zoom * d1) / d0 : this.zoom, this.minZoom(), this.maxZoom);
      const w = this.cssWidth(), h = this.cssHeight();
      this.applyView(cell.col - (m1.x - w / 2) / z, cell.row - (m1.y - h / 2) / z, z, true);
    } else {
      this.pointers.set(e.pointerId, p);
    }
  }

  gesture(distance) {
    this.moved += distance;
    if (this.moved > DRAG_SLOP) this.dragged = true;
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    if (this.minimapPointer === e.pointerId) this.minimapPointer = null;
    this.pointers.delete(e.pointerId);
    if (this.pointers.size === 0) this.canvas.style.cursor = "grab";
  }

  /** Centre the view on the cell under a point of the minimap (CSS px). */
  minimapJump({ x, y }) {
    const r = this.minimapCss();
    if (!r) return;
    this.glide = null;
    const col = ((x - r.x) / r.width) * this.width, row = ((y - r.y) / r.height) * this.height;
    this.applyView(col, row, this.zoom, true);
  }

  /** @param {WheelEvent} e */
  wheel(e) {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? this.cssHeight() : 1;
    const dy = clamp(e.deltaY * unit, -400, 400);
    const p = this.local(e.clientX, e.clientY);
    const factor = Math.exp(-dy * (e.ctrlKey ? PINCH_WHEEL_RATE : WHEEL_RATE));
    // A trackpad's stream of small deltas (and its pinch) follows the fingers at once; a mouse's notch glides.
    if (e.ctrlKey || Math.abs(dy) < STEPPED_WHEEL) {
      if (this.glide) this.glide = { ...this.glide, x: p.x, y: p.y, zoom: this.glide.zoom * factor };
      else this.zoomAbout(p.x, p.y, this.zoom * factor);
    } else this.glideAbout(p.x, p.y, (this.glide ? this.glide.zoom : this.zoom) * factor);
  }

  /** @param {MouseEvent} e */
  dblclick(e) {
    const p = this.local(e.clientX, e.clientY);
    if (this.inMinimap(p.x, p.y)) return;
    e.preventDefault();
    this.glideAbout(p.x, p.y, (this.glide ? this.glide.zoom : this.zoom) * (e.shiftKey ? 0.5 : 2));
  }

  /** @param {KeyboardEvent} e */
  keydown(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    const w = this.cssWidth(), h = this.cssHeight();
    const key = e.key;
    if (key === "ArrowLeft") this.panBy(w * KEY_PAN, 0);
    else if (key === "ArrowRight") this.panBy(-w * KEY_PAN, 0);
    else if (key === "ArrowUp") this.panBy(0, h * KEY_PAN);
    else if (key === "ArrowDown") this.panBy(0, -h * KEY_PAN);
    else if (key === "+" || key === "=") this.glideAbout(w / 2, h / 2, (this.glide ? this.glide.zoom : this.zoom) * KEY_ZOOM);
    else if (key === "-" || key === "_") this.glideAbout(w / 2, h / 2, (this.glide ? this.glide.zoom : this.zoom) / KEY_ZOOM);
    else if (key === "0" || key === "Home") {
      this.fit();
      this.viewChanged();
    } else return;
    e.preventDefault(); // the page's own keys (the transport's arrows) skip a prevented event
  }

  // ---- tiles -------------------------------------------------------------------------------------

  /** A loaded bitmap of tile (z, x, y): step t's, else the newest one shown or arrived there. */
  bitmapAt(z, x, y, t) {
    const key = this.url(z, x, y, t);
    const exact = this.cache.get(key);
    if (exact?.state === "ok") return { key, entry: exact };
    const last = this.lastShown.get(posKey(z, x, y));
    if (!last) return null;
    const entry = this.cache.get(last.key);
    return entry?.state === "ok" ? { key: last.key, entry } : null;
  }

  /** Mark an entry used by this frame (LRU: newest). */
  touch(key, entry) {
    entry.frame = this.frameNo;
    this.cache.delete(key);
    this.cache.set(key, entry);
  }

  /** Tiles that must be drawn for the current step: the visible ones, nearest first, then the minimap's. */
  needed() {
    const z = this.level();
    const tiles = this.visibleTiles(z).map(({ x, y }) => ({ z, x, y }));
    if (this.minimapRect()) tiles.push({ z: this.maxLevel, x: 0, y: 0 });
    return tiles;
  }

  /** Start fetches for the current step's needed tiles, up to maxRequests; abort those no longer needed. */
  pump() {
    if (this.destroyed) return;
    const needed = this.needed();
    const positions = new Set(needed.map(({ z, x, y }) => posKey(z, x, y)));
    for (const [key, request] of this.inflight) {
      if (!positions.has(request.pos)) {
        request.controller.abort();
        this.inflight.delete(key);
        this.counts.aborted++;
      }
    }
    const t = this.step, now = performance.now();
    let retry = Infinity;
    for (const { z, x, y } of needed) {
      if (this.inflight.size >= this.maxRequests) break;
      const key = this.url(z, x, y, t);
      if (this.cache.has(key) || this.inflight.has(key)) continue;
      const failed = this.failures.get(key);
      if (failed && failed.retryAt > now) retry = Math.min(retry, failed.retryAt);
      else this.load(key, { z, x, y, t });
    }
    if (retry < Infinity && !this.retryTimer) {
      this.retryTimer = window.setTimeout(() => {
        this.retryTimer = 0;
        this.pump();
      }, retry - now);
    }
  }

  /** Fetch one tile; a failure is tried once more, then drawn grey and reported. */
  async load(key, /** @type {TileId} */ tile) {
    const { z, x, y, t } = tile;
    /** @type {Request} */
    const request = { controller: new AbortController(), pos: posKey(z, x, y), gen: this.gen };
    this.inflight.set(key, request);
    this.counts.requested++;
    try {
      const response = await fetch(key, { signal: request.controller.signal });
      if (!response.ok) {
        const wait = Number(response.headers.get("Retry-After"));
        throw Object.assign(new Error(words("tiles.tile_failed", { z, x, y, step: t, status: response.status })), {
          status: response.status,
          retryAfter: Number.isFinite(wait) && wait > 0 ? Math.min(5000, wait * 1000) : RETRY_MS,
        });
      }
      const bitmap = await createImageBitmap(await response.blob());
      if (this.destroyed || request.controller.signal.aborted) {
        bitmap.close();
        return;
      }
      this.failures.delete(key);
      this.counts.loaded++;
      this.store(key, { state: "ok", bitmap, frame: this.frameNo });
      const last = this.lastShown.get(request.pos);
      if (!last || last.gen < request.gen) this.lastShown.set(request.pos, { key, gen: request.gen });
    } catch (error) {
      if (this.destroyed || request.controller.signal.aborted) return;
      const attempts = (this.failures.get(key)?.attempts || 0) + 1;
      this.counts.failed++;
      if (attempts < 2) {
        const wait = typeof error?.retryAfter === "number" ? error.retryAfter : RETRY_MS;
        this.failures.set(key, { attempts, retryAt: performance.now() + wait });
      } else {
        this.failures.delete(key);
        this.store(key, { state: "error", bitmap: null, frame: this.frameNo });
        this.onTileError?.(error, tile);
      }
    } finally {
      if (this.inflight.get(key) === request) this.inflight.delete(key);
      if (!this.destroyed) {
        this.requestDraw();
        this.pump();
      }
    }
  }

  /** Put a tile in the LRU cache; evict the oldest not drawn in the last frame, closing its bitmap. */
  store(key, /** @type {CacheEntry} */ entry) {
    this.cache.get(key)?.bitmap?.close();
    this.cache.delete(key);
    this.cache.set(key, entry);
    if (this.cache.size <= this.cacheSize) return;
    for (const [k, e] of this.cache) {
      if (this.cache.size <= this.cacheSize) break;
      if (e.frame >= this.frameNo - 1) continue;
      this.cache.delete(k);
      e.bitmap?.close();
    }
    if (this.lastShown.size > 4 * this.cacheSize) {
      for (const [pos, { key: shown }] of this.lastShown) if (!this.cache.has(shown)) this.lastShown.delete(pos);
    }
  }

  // ---- drawing -----------------------------------------------------------------------------------

  /**
   * Draw the part of tile (z, x, y)'s bitmap that covers cells [c0, c1) × [r0, r1).
   * @param {View} view
   */
  blit(view, bitmap, z, x, y, c0, r0, c1, r1) {
    const k = 2 ** z, span = this.tileSize * k, ox = x * span, oy = y * span;
    const sx0 = Math.max(0, (c0 - ox) / k), sy0 = Math.max(0, (r0 - oy) / k);
    const sx1 = Math.min(bitmap.width, (c1 - ox) / k), sy1 = Math.min(bitmap.height, (r1 - oy) / k);
    if (!(sx1 > sx0 && sy1 > sy0)) return;
    const a = view.toScreen(ox + sx0 * k, oy + sy0 * k), b = view.toScreen(ox + sx1 * k, oy + sy1 * k);
    const X0 = Math.round(a.x), Y0 = Math.round(a.y), X1 = Math.round(b.x), Y1 = Math.round(b.y);
    if (X1 <= X0 || Y1 <= Y0) return;
    this.ctx.drawImage(bitmap, sx0, sy0, sx1 - sx0, sy1 - sy0, X0, Y0, X1 - X0, Y1 - Y0);
  }

  /** Cells of tile (z, x, y) clipped to the visible part of the board. */
  tileCells(z, x, y, cells) {
    const span = this.tileSize * 2 ** z;
    return {
      c0: Math.max(x * span, cells.c0), r0: Math.max(y * span, cells.r0),
      c1: Math.min((x + 1) * span, cells.c1), r1: Math.min((y + 1) * span, cells.r1),
    };
  }

  /** In place of a missing tile: a coarser level's tile (cropped, scaled), then finer ones over it. */
  drawFallback(view, z, x, y, cells) {
    const t = this.step;
    const area = this.tileCells(z, x, y, cells);
    for (let up = z + 1; up <= this.maxLevel; up++) {
      const shift = up - z;
      const found = this.bitmapAt(up, x >> shift, y >> shift, t);
      if (found) {
        this.touch(found.key, found.entry);
        this.blit(view, found.entry.bitmap, up, x >> shift, y >> shift, area.c0, area.r0, area.c1, area.r1);
        break;
      }
    }
    if (z === 0) return;
    for (let dy = 0; dy < 2; dy++) {
      for (let dx = 0; dx < 2; dx++) {
        const cx = 2 * x + dx, cy = 2 * y + dy;
        const found = this.bitmapAt(z - 1, cx, cy, t);
        if (!found) continue;
        const sub = this.tileCells(z - 1, cx, cy, area);
        this.touch(found.key, found.entry);
        this.blit(view, found.entry.bitmap, z - 1, cx, cy, sub.c0, sub.r0, sub.c1, sub.r1);
      }
    }
  }

  frame() {
    this.raf = 0;
    if (this.destroyed) return;
    this.frameNo++;
    const gliding = this.stepGlide();
    const ctx = this.ctx, W = this.canvas.width, H = this.canvas.height;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = this.background;
    ctx.fillRect(0, 0, W, H);
    const view = this.view();
    const z = view.level, t = this.step;
    const cells = this.visibleCells();
    let complete = true;
    if (cells) {
      ctx.imageSmoothingEnabled = 2 ** z * view.scale < 1; // magnified tiles stay crisp
      for (const { x, y } of this.visibleTiles(z)) {
        const key = this.url(z, x, y, t);
        const entry = this.cache.get(key);
        const area = this.tileCells(z, x, y, cells);
        if (entry?.state === "ok" && entry.bitmap) {
          this.touch(key, entry);
          this.blit(view, entry.bitmap, z, x, y, area.c0, area.r0, area.c1, area.r1);
          this.lastShown.set(posKey(z, x, y), { key, gen: this.gen });
        } else if (entry?.state === "error") {
          this.touch(key, entry);
          const a = view.toScreen(area.c0, area.r0), b = view.toScreen(area.c1, area.r1);
          ctx.fillStyle = ERROR_FILL;
          ctx.fillRect(Math.round(a.x), Math.round(a.y), Math.round(b.x) - Math.round(a.x), Math.round(b.y) - Math.round(a.y));
        } else {
          complete = false;
          const last = this.bitmapAt(z, x, y, t);
          if (last) {
            this.touch(last.key, last.entry);
            this.blit(view, last.entry.bitmap, z, x, y, area.c0, area.r0, area.c1, area.r1);
          } else this.drawFallback(view, z, x, y, cells);
        }
      }
    }
    try {
      this.drawOverlay?.(ctx, view);
    } finally {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      if (!this.drawMinimap(view)) complete = false;
      this.afterFrame(complete);
      if (gliding) this.requestDraw();
    }
  }

  /** The minimap: the whole board (the maxLevel tile) and the viewport; false while its tile is missing. */
  drawMinimap(view) {
    const r = this.minimapRect();
    if (!r) return true;
    const ctx = this.ctx, d = this.dpr, top = this.maxLevel, t = this.step;
    ctx.fillStyle = "rgba(255, 255, 255, 0.85)";
    ctx.fillRect(r.x - 2 * d, r.y - 2 * d, r.width + 4 * d, r.height + 4 * d);
    ctx.fillStyle = this.background;
    ctx.fillRect(r.x, r.y, r.width, r.height);
    const found = this.bitmapAt(top, 0, 0, t);
    const key = this.url(top, 0, 0, t);
    const entry = this.cache.get(key);
    if (found) {
      this.touch(found.key, found.entry);
      const bitmap = found.entry.bitmap, k = 2 ** top;
      const sw = Math.min(bitmap.width, this.width / k), sh = Math.min(bitmap.height, this.height / k);
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(bitmap, 0, 0, sw, sh, r.x, r.y, r.width, r.height);
      if (found.entry === entry) this.lastShown.set(posKey(top, 0, 0), { key, gen: this.gen });
    } else if (entry?.state === "error") {
      ctx.fillStyle = ERROR_FILL;
      ctx.fillRect(r.x, r.y, r.width, r.height);
    }
    const v = view.visible, sx = r.width / this.width, sy = r.height / this.height;
    const x0 = r.x + v.col0 * sx, y0 = r.y + v.row0 * sy;
    const w = Math.max(3 * d, (v.col1 - v.col0) * sx), h = Math.max(3 * d, (v.row1 - v.row0) * sy);
    ctx.lineWidth = 2 * d;
    ctx.strokeStyle = VIEWPORT_STROKE;
    ctx.strokeRect(Math.round(x0) + d / 2, Math.round(y0) + d / 2, Math.round(w), Math.round(h));
    ctx.lineWidth = d;
    ctx.strokeStyle = "rgba(0, 0, 0, 0.45)";
    ctx.strokeRect(r.x - 0.5 * d, r.y - 0.5 * d, r.width + d, r.height + d);
    return Boolean(entry);
  }

  afterFrame(complete) {
    this.pump();
    if (!complete) {
      this.settled = false;
      return;
    }
    if (this.settled) return;
    this.settled = true;
    for (const resolve of this.settleWaiters.splice(0)) resolve();
    this.onSettled?.(this.step);
  }
}
