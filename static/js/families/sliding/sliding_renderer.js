// Draws a sliding-tile puzzle on its canvas: the board (numbered tiles, large enough for a projector;
// a tile already on its goal cell tinted green; the blank a dark slot), a small picture of the goal,
// a tile sliding (animated) from one cell to the next, the heuristic lab's heat map per blank cell, and
// for the 8-puzzle its whole state space beside the board (sliding_space.js: one bar per distance from
// the goal, each bin of states grey, or lit by how much of it the search has expanded; the current
// state ringed, the start marked, the solution drawn as a line down to the goal). Knows nothing of
// runs or the page: the view hands it scenes.

import { COLORS, OKABE_ITO, hexToRgb, mix } from "../../colors.js";
import { CanvasRenderer, INK, ease, roundRect } from "../canvas_renderer.js";
import { TILE_IN_HEAT, drawTileHeat } from "../heat.js";
import { SpaceLayout } from "./sliding_space.js";
import { t } from "../../i18n.js";

const TRAY = "#2b3037";
const SLOT = "#4a505a"; // the blank
const FACE = "#f7f1e3";
const FACE_HOME = "#bfe6cf"; // a tile on its goal cell
const EDGE_HOME = "#0b6b4c";
const MOVED = OKABE_ITO.blue; // the tile that just slid (replay)
const MUTED = "#4f555e";
const UNLIT = hexToRgb(COLORS.spaceUnlit);
const LIT_FEW = hexToRgb(OKABE_ITO.orange);
const LIT_ALL = hexToRgb("#8f3500");
const PATH = OKABE_ITO.blue;
const SLIDE_FONT = ["system-ui", "sans-serif"].join(", ");
const MAX_UNIT = 190;

export class SlidingRenderer extends CanvasRenderer {
  constructor(canvas) {
    super(canvas);
    this.scene = null; // see show()
    this.lastLayout = null;
    this.onHover = null; // ({cell} | {column} | null) => void
    this.spaceCache = null; // {layout, key, bins: Uint32Array, applied, source, image: canvas, dirty}
    canvas.addEventListener("mousemove", (event) => this.onHover?.(this.hitAt(event.clientX, event.clientY)));
    canvas.addEventListener("mouseleave", () => this.onHover?.(null));
  }

  /**
   * The scene at rest (a running slide animation goes on over it; `cut` ends it first):
   * {n, tiles: Uint8Array, goal: Uint8Array, caption, mark: cell | −1 (the tile that just slid),
   *  space: {space: StateSpace | null, note: string, key, ranks: Int32Array, lit: number, current: rank,
   *          start: rank, path: number[] | null, title} | null (8-puzzle only), ghost: boolean (the board
   *  is not the search's state: drawn faded)}.
   */
  show(scene, { cut = true } = {}) {
    if (cut) this.finishAnimation();
    this.scene = scene;
    if (!this.anim) this.draw();
  }

  /** Slide `tile` from cell `from` to cell `to` (the scene already shows it at `to`). */
  slide({ tile, from, to }, ms) {
    this.finishAnimation();
    if (!(ms > 0) || !this.active) {
      this.draw();
      return Promise.resolve();
    }
    this.canvas.dataset.phase = "slide";
    return this.animateFor({ slide: { tile, from, to }, ms });
  }

  animationEnded() {
    super.animationEnded();
    this.canvas.dataset.phase = "";
  }

  // ---- geometry --------------------------------------------------------------------------------

  layout() {
    const { width, height } = this.size;
    const n = this.scene.n;
    const rem = this.rem();
    const captionPx = Math.round(rem * 1.15);
    const labelPx = Math.max(11, Math.round(rem * 0.85));
    const top = Math.round(rem * 2.4);
    const pad = 10;
    const withSpace = Boolean(this.scene.space);
    const availH = height - top - pad;
    const availW = width - 2 * pad;
    const goalRoom = labelPx * 1.5; // the goal picture's title
    let board;
    let side = null;
    let goal = null;
    if (withSpace && availW > availH * 1.2) {
      // The board and, under it, the goal on the left; the state space on the right.
      const size = Math.min(availH * 0.78, availW * 0.4);
      const g = Math.min(size * 0.36, availH - size - goalRoom - pad);
      const column = size + (g >= 36 ? pad + goalRoom + g : 0);
      board = { x: pad, y: top + (availH - column) / 2, size };
      if (g >= 36) goal = { x: pad + (size - g) / 2, y: board.y + size + pad, size: g };
      side = { x: pad + size + 2.5 * pad, y: top, w: availW - size - 2.5 * pad, h: availH };
    } else if (withSpace) {
      // The board above the space, the goal to the right of the board.
      const size = Math.min(availW * 0.7, availH * 0.5);
      const g = Math.min(size * 0.45, availW - size - 3 * pad);
      board = { x: pad + (availW - size - (g >= 36 ? g + 2 * pad : 0)) / 2, y: top, size };
      if (g >= 36) goal = { x: board.x + size + 2 * pad, y: top + (size - g - goalRoom) / 2, size: g };
      side = { x: pad, y: top + size + pad, w: availW, h: availH - size - pad };
    } else {
      // The goal's picture to the right of the board.
      const size = Math.min(availH, availW * 0.76);
      const g = Math.min(size * 0.3, availW - size - 3 * pad);
      const row = size + (g >= 36 ? 2 * pad + g : 0);
      board = { x: pad + (availW - row) / 2, y: top + (availH - size) / 2, size };
      if (g >= 36) goal = { x: board.x + size + 2 * pad, y: board.y, size: g };
    }
    const unit = Math.max(4, Math.min(MAX_UNIT * (n === 3 ? 1 : 0.8), (board.size - 8) / n));
    const bx = board.x + (board.size - unit * n) / 2;
    const by = board.y + (board.size - unit * n) / 2;
    return { unit, bx, by, side, goal, captionPx, labelPx, withSpace };
  }

  /** The cell under a page point, or −1. */
  cellAt(clientX, clientY) {
    const L = this.lastLayout;
    if (!L || !this.scene) return -1;
    const n = this.scene.n;
    const rect = this.canvas.getBoundingClientRect();
    const c = Math.floor((clientX - rect.left - L.bx) / L.unit);
    const r = Math.floor((clientY - rect.top - L.by) / L.unit);
    if (r < 0 || c < 0 || r >= n || c >= n) return -1;
    return r * n + c;
  }

  hitAt(clientX, clientY) {
    const cell = this.cellAt(clientX, clientY);
    if (cell >= 0) return { cell };
    const layout = this.spaceCache?.layout;
    if (!layout) return null;
    const rect = this.canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    const r = layout.rect;
    if (y < r.y - 4 || y > r.y + r.h + 4) return null;
    const column = layout.columnAt(x);
    return column >= 0 ? { column } : null;
  }

  // ---- drawing ---------------------------------------------------------------------------------

  render() {
    const scene = this.scene;
    if (!scene || this.size.width < 40 || this.size.height < 40) return;
    const L = this.layout();
    this.lastLayout = L;
    this.drawCaption(scene.caption || "", L.captionPx, Math.round(this.rem() * 1.2));
    this.drawBoard(L);
    // The heat map frames each tile (drawn behind, in drawBoard) and its arrows cross the borders
    // between cells: the tiles' numbers stay readable.
    if (this.heat) drawTileHeat(this.ctx, this.heat, { x: L.bx, y: L.by, unit: L.unit, cols: scene.n }, "over");
    if (L.goal) this.drawGoal(L.goal.x, L.goal.y, L.goal.size, L.labelPx);
    const drawnSpace = L.withSpace ? this.drawSpace(L.side, scene.space) : null;
    this.publish(L, drawnSpace);
  }

  /** The tray, the blank's slot and the tiles (one sliding). */
  drawBoard(L) {
    const ctx = this.ctx;
    const { n, tiles, goal } = this.scene;
    const { unit, bx, by } = L;
    const slide = this.anim?.slide || null;
    const t = slide ? ease(this.animationT()) : 1;
    ctx.fillStyle = TRAY;
    roundRect(ctx, bx - unit * 0.06, by - unit * 0.06, n * unit + unit * 0.12, n * unit + unit * 0.12, unit * 0.1);
    ctx.fill();
    ctx.globalAlpha = this.scene.ghost ? 0.55 : 1;
    for (let cell = 0; cell < n * n; cell++) {
      // Slots: every cell, so the blank shows as an empty hole (and a sliding tile leaves one).
      const x = bx + (cell % n) * unit;
      const y = by + ((cell / n) | 0) * unit;
      ctx.fillStyle = SLOT;
      roundRect(ctx, x + unit * 0.05, y + unit * 0.05, unit * 0.9, unit * 0.9, unit * 0.08);
      ctx.fill();
    }
    if (this.heat) drawTileHeat(ctx, this.heat, { x: bx, y: by, unit, cols: n }, "behind");
    for (let cell = 0; cell < n * n; cell++) {
      const tile = tiles[cell];
      if (tile === 0) continue;
      let col = cell % n;
      let row = (cell / n) | 0;
      if (slide && slide.tile === tile && slide.to === cell) {
        col = (slide.from % n) + ((slide.to % n) - (slide.from % n)) * t;
        row = ((slide.from / n) | 0) + (((slide.to / n) | 0) - ((slide.from / n) | 0)) * t;
      }
      const home = goal[cell] === tile && !(slide && slide.tile === tile && t < 1);
      this.drawTile(bx + col * unit, by + row * unit, unit, tile, home, this.scene.mark === cell);
    }
    ctx.globalAlpha = 1;
  }

  drawTile(x, y, unit, tile, home, marked) {
    const ctx = this.ctx;
    // Under a heat map a tile is drawn smaller: the cell's colour and hatching frame it.
    const inset = this.heat ? (unit * (1 - TILE_IN_HEAT)) / 2 : unit * 0.05;
    const s = unit - 2 * inset;
    roundRect(ctx, x + inset, y + inset, s, s, unit * 0.1);
    ctx.fillStyle = home ? FACE_HOME : FACE;
    ctx.fill();
    ctx.lineWidth = Math.max(2, unit * (marked ? 0.06 : 0.03));
    ctx.strokeStyle = marked ? MOVED : home ? EDGE_HOME : "#8d8574";
    ctx.stroke();
    const px = Math.round(s * (tile >= 10 ? 0.5 : 0.6) * Math.min(1.15, this.textScale));
    ctx.font = `750 ${px}px ${SLIDE_FONT}`;
    ctx.fillStyle = home ? EDGE_HOME : INK;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(String(tile), x + unit / 2, y + unit / 2 + px * 0.04);
  }

  /** A small picture of the goal board with its title. */
  drawGoal(x, y, size, labelPx) {
    const ctx = this.ctx;
    const { n, goal } = this.scene;
    ctx.font = `700 ${labelPx}px ${SLIDE_FONT}`;
    ctx.fillStyle = MUTED;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText(t("render.sliding.goal"), x, y);
    const top = y + labelPx * 1.4;
    const unit = size / n;
    ctx.fillStyle = TRAY;
    ctx.fillRect(x - 2, top - 2, size + 4, size + 4);
    ctx.font = `700 ${Math.max(9, Math.round(unit * 0.5))}px ${SLIDE_FONT}`;
    ctx.textBaseline = "middle";
    ctx.textAlign = "center";
    for (let cell = 0; cell < n * n; cell++) {
      const cx = x + (cell % n) * unit;
      const cy = top + ((cell / n) | 0) * unit;
      ctx.fillStyle = goal[cell] === 0 ? SLOT : FACE_HOME;
      ctx.fillRect(cx + 1, cy + 1, unit - 2, unit - 2);
      if (goal[cell] !== 0) {
        ctx.fillStyle = EDGE_HOME;
        ctx.fillText(String(goal[cell]), cx + unit / 2, cy + unit / 2 + 1);
      }
    }
    return top + size;
  }

  /** The state space in the side rectangle; returns what it drew (for the data attributes). */
  drawSpace(side, sp) {
    const ctx = this.ctx;
    const rem = this.rem();
    const titlePx = Math.max(12, Math.round(rem * 1.0));
    const smallPx = Math.max(11, Math.round(rem * 0.85));
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillStyle = INK;
    this.fitText(sp.title || t("render.sliding.space_title"), side.x, side.y, side.w, titlePx, 700);
    ctx.fillStyle = MUTED;
    const lines = this.wrapText(sp.note || "", side.x, side.y + titlePx * 1.4, side.w, smallPx, 3);
    const axisPx = smallPx;
    const plot = { x: side.x + 2, y: side.y + titlePx * 1.4 + smallPx * (1.25 * lines + 0.9), w: side.w - 4, h: 0 };
    plot.h = side.y + side.h - plot.y - axisPx * 2.9;
    if (!sp.space || plot.h < 30 || plot.w < 60) {
      this.spaceCache = null;
      return { lit: 0, bins: 0 };
    }
    const layout = this.spaceLayout(sp.space, plot);
    const bins = this.litBins(layout, sp);
    this.paintBins(layout, bins);
    // Axis: distances under the bars.
    ctx.fillStyle = MUTED;
    ctx.font = `600 ${axisPx}px ${SLIDE_FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    const every = layout.colW * 2 < axisPx * 1.6 ? 5 : layout.colW < axisPx * 1.6 ? 2 : 1;
    for (let d = 0; d < layout.columns; d++) {
      if (d % every) continue;
      ctx.fillText(String(d), plot.x + (d + 0.5) * layout.colW, plot.y + plot.h + 3);
    }
    ctx.textAlign = "left";
    const axisTitle = t("render.sliding.axis");
    ctx.font = `600 ${axisPx}px ${SLIDE_FONT}`;
    const titleW = Math.min(plot.w, ctx.measureText(axisTitle).width);
    this.fitText(axisTitle, plot.x + (plot.w - titleW) / 2, plot.y + plot.h + axisPx * 1.45, plot.w, axisPx, 600);
    // The solution, the start and the current state over the bins.
    if (sp.path && sp.path.length > 1) this.drawSpacePath(layout, sp.path);
    const start = sp.start >= 0 ? layout.pointOf(sp.start) : null;
    if (start) this.ringAt(start.x, start.y, Math.max(5, layout.cell * 1.6), PATH, 3);
    const goal = layout.pointOf(sp.goal);
    if (goal) this.ringAt(goal.x, goal.y, Math.max(5, layout.cell * 1.6), OKABE_ITO.bluishGreen, 3);
    const current = sp.current >= 0 ? layout.pointOf(sp.current) : null;
    if (current) {
      this.ringAt(current.x, current.y, Math.max(7, layout.cell * 2.4), "#000", 3.5);
      this.ringAt(current.x, current.y, Math.max(7, layout.cell * 2.4) + 3, "#fff", 2);
    }
    return { lit: sp.lit, bins: layout.totalBins, cap: layout.cap };
  }

  fitText(text, x, y, w, px, weight) {
    const ctx = this.ctx;
    ctx.font = `${weight} ${px}px ${SLIDE_FONT}`;
    const wide = ctx.measureText(text).width;
    if (wide > w && w > 0) ctx.font = `${weight} ${Math.max(9, Math.floor((px * w) / wide))}px ${SLIDE_FONT}`;
    ctx.fillText(text, x, y);
  }

  /** Text in at most `max` lines of `w` px (the last shrunk to fit); returns the lines used. */
  wrapText(text, x, y, w, px, max) {
    const ctx = this.ctx;
    ctx.font = `500 ${px}px ${SLIDE_FONT}`;
    const words = text.split(" ");
    const lines = [];
    let line = "";
    for (const word of words) {
      const next = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(next).width > w && lines.length < max - 1) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    lines.forEach((l, k) => this.fitText(l, x, y + k * px * 1.25, w, px, 500));
    return Math.max(1, lines.length);
  }

  ringAt(x, y, r, color, width) {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.lineWidth = width;
    ctx.strokeStyle = color;
    ctx.stroke();
  }

  drawSpacePath(layout, path) {
    const ctx = this.ctx;
    ctx.beginPath();
    let first = true;
    for (const rank of path) {
      const p = layout.pointOf(rank);
      if (!p) continue;
      if (first) ctx.moveTo(p.x, p.y);
      else ctx.lineTo(p.x, p.y);
      first = false;
    }
    ctx.lineJoin = "round";
    ctx.lineWidth = 5;
    ctx.strokeStyle = "#fff";
    ctx.stroke();
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = PATH;
    ctx.stroke();
  }

  /** The layout for this rectangle (kept while the rectangle and the space stay the same). */
  spaceLayout(space, rect) {
    const cache = this.spaceCache;
    const same = cache && cache.layout.space === space && ["x", "y", "w", "h"].every((k) => Math.abs(cache.layout.rect[k] - rect[k]) < 0.5);
    if (same) return cache.layout;
    const layout = new SpaceLayout(space, rect);
    const image = document.createElement("canvas");
    image.width = layout.columns * layout.binsX;
    image.height = layout.rowsUsed;
    this.spaceCache = { layout, key: null, bins: new Uint32Array(layout.totalBins), applied: 0, image, data: null };
    return layout;
  }

  /** States lit per bin, kept up to date by adding or taking away the ranks since the last draw. */
  litBins(layout, sp) {
    const cache = this.spaceCache;
    if (cache.key !== sp.key || cache.applied > sp.lit) {
      // A new run, or stepped back: from the count drawn down to the position (or from scratch).
      if (cache.key !== sp.key) {
        cache.bins.fill(0);
        cache.applied = 0;
        cache.key = sp.key;
      }
    }
    const ranks = sp.ranks;
    const bins = cache.bins;
    while (cache.applied < sp.lit) {
      const bin = layout.binOf(ranks[cache.applied++]);
      if (bin >= 0) bins[bin]++;
    }
    while (cache.applied > sp.lit) {
      const bin = layout.binOf(ranks[--cache.applied]);
      if (bin >= 0) bins[bin]--;
    }
    return bins;
  }

  /** The bins as pixels of a small image, scaled up without smoothing, one bar a column. */
  paintBins(layout, bins) {
    const cache = this.spaceCache;
    const image = cache.image;
    const w = image.width;
    const h = image.height;
    const ictx = image.getContext("2d");
    if (!cache.data) cache.data = ictx.createImageData(w, h);
    const px = new Uint32Array(cache.data.data.buffer);
    px.fill(0);
    const pack = ([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
    const unlit = pack(UNLIT);
    const ramp = [];
    // 1 (one state of the bin) … 16 (all of it): from a pale orange, still unlike the grey (also in
    // luminance: about 30 grey levels darker), to dark.
    const pale = mix(UNLIT, LIT_FEW, 0.8);
    for (let k = 0; k <= 16; k++) {
      const t = (k - 1) / 15;
      ramp.push(pack(k === 0 ? UNLIT : t < 0.5 ? mix(pale, LIT_FEW, t * 2) : mix(LIT_FEW, LIT_ALL, (t - 0.5) * 2)));
    }
    const { binsX, columns, cap } = layout;
    for (let d = 0; d < columns; d++) {
      const count = layout.binsIn[d];
      for (let b = 0; b < count; b++) {
        const lit = bins[layout.base[d] + b];
        const size = layout.binSize(d, b);
        const x = d * binsX + (b % binsX);
        const y = h - 1 - Math.floor(b / binsX);
        if (y < 0) continue;
        // Any lit state shows, pale; the colour deepens with the share of the bin expanded.
        px[y * w + x] = lit ? ramp[Math.max(1, Math.min(16, 1 + Math.round((15 * lit) / Math.max(1, size))))] : unlit;
      }
    }
    void cap;
    ictx.putImageData(cache.data, 0, 0);
    const ctx = this.ctx;
    const smooth = ctx.imageSmoothingEnabled;
    ctx.imageSmoothingEnabled = false;
    const { rect, cell, colW } = layout;
    const barW = binsX * cell;
    for (let d = 0; d < columns; d++) {
      const x0 = rect.x + d * colW + (colW - barW) / 2;
      ctx.drawImage(image, d * binsX, 0, binsX, h, x0, rect.y + rect.h - h * cell, barW, h * cell);
    }
    ctx.imageSmoothingEnabled = smooth;
  }

  /** What is on the canvas, as data attributes (the browser tests read them). */
  publish(L, drawnSpace) {
    const data = this.canvas.dataset;
    const scene = this.scene;
    data.n = String(scene.n);
    data.board = Array.from(scene.tiles).join(",");
    data.caption = scene.caption || "";
    Object.assign(data, { unit: String(L.unit), bx: String(L.bx), by: String(L.by) });
    data.spaceLit = drawnSpace ? String(drawnSpace.lit) : "";
    data.spaceBins = drawnSpace ? String(drawnSpace.bins) : "";
    data.spaceStates = scene.space?.space ? String(scene.space.space.size) : "";
    data.spaceCurrent = scene.space && scene.space.current >= 0 ? String(scene.space.current) : "";
    data.spacePath = scene.space?.path ? String(scene.space.path.length) : "";
    const space = scene.space?.space;
    data.startDistance = space && scene.space.start >= 0 ? String(space.dist[scene.space.start]) : "";
  }
}
