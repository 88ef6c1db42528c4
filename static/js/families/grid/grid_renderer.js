// Draws a grid maze and its search state on a canvas. An ImageData holds one pixel per cell (seen as
// a Uint32Array), recoloured per record; rows that changed are marked in bands. Zoomed in, the dirty
// bands are copied to an offscreen canvas drawn scaled onto the visible one; zoomed out, halved copies
// (each pixel the average of 2 x 2, like a mipmap) are updated from the dirty bands in JS and only the
// level shown is copied to its canvas, so a change costs what it touches, never a full-size upload.
// Overlays (path line, scores, markers) are vector.

import { COLORS, baseTable, luminance, packHex, rampTable } from "../../colors.js";
import { fitCanvasToParent } from "../../canvas_size.js";
import { CanvasRenderer } from "../canvas_renderer.js";
import { cellRgb, drawHeatArrows, hatch, isUnder, publishHeat, stipple } from "../heat.js";
import { STATUS } from "./grid_state.js";
import { t } from "../../i18n.js";

const BAND = 32; // rows per dirty band: only changed bands are copied to the offscreen canvas
const NUMBERS_FROM = 18; // screen px per cell from which scores and grid lines are drawn
const FRONTIER_DOTS_BELOW = 3; // screen px per cell under which frontier cells get enlarged dots
const MARKS_FROM = 6; // screen px per cell from which frontier and path cells carry a mark besides their colour (WCAG 1.4.1)
const PATH_LINE_BELOW = 5; // screen px per cell under which the path also gets a line (cells are too small)
const MAX_SCALE = 96;
const MARKER_MIN = 16; // start/goal markers never get smaller than this (CSS px)

export class GridRenderer extends CanvasRenderer {
  constructor(canvas) {
    super(canvas);
    this.view = { scale: 1, ox: 0, oy: 0 };
    this.size = { width: 0, height: 0, dpr: 1 };
    this.maze = null; // {width, height, cells}
    this.state = null; // GridState
    this.starts = [];
    this.goals = [];
    this.scoreMax = 1;
    this.ramp = rampTable();
    this.base = baseTable();
    this.statusColors = new Uint32Array(8);
    const sc = this.statusColors;
    sc[STATUS.OPEN] = packHex(COLORS.open);
    sc[STATUS.UPDATED] = packHex(COLORS.update);
    sc[STATUS.PATH] = packHex(COLORS.path);
    sc[STATUS.OPEN_B] = packHex(COLORS.openBack);
    sc[STATUS.CLOSED_B] = packHex(COLORS.closedBack);
    sc[STATUS.UPDATED_B] = packHex(COLORS.update);
    this.paint = () => {};
    this.pathCache = { length: -1, path: null };
    this.autoFit = true; // refit on resize until the user zooms or pans
    this.onCellClick = null; // (cell, event) => void
    this.onHover = null; // (cell) => void, -1 off the board
    // The editor (grid_editor.js) while a drawing tool is chosen: {begin(cell, event) -> bool,
    // extend(cell), end()}; a press it takes draws instead of panning.
    this.drawing = null;
    this.toolsWidth = 0; // CSS px reserved on each side for the board's buttons
    this.measureTools = null; // () => void: sets toolsWidth from the page, before a fit
    this.heat = null; // the heuristic lab's heat map (../heat.js), drawn over the cells
    this.heatCanvas = null; // its colours, one pixel a cell
    this.illegal = null; // a checked solution's first illegal move: {move, reason, cell, target}
    this.bindInput();
  }

  // ---- maze and state --------------------------------------------------------------------------

  /** Show a new maze (cells: Uint8Array, 0 = wall, 1..9 = weight) with its per-cell state. */
  setMaze(width, height, cells, state) {
    this.maze = { width, height, cells };
    this.state = state;
    this.offscreen = document.createElement("canvas");
    this.offscreen.width = width;
    this.offscreen.height = height;
    this.offCtx = this.offscreen.getContext("2d");
    this.image = this.offCtx.createImageData(width, height);
    this.pixels = new Uint32Array(this.image.data.buffer);
    const bands = Math.ceil(height / BAND);
    this.dirty = new Uint8Array(bands); // bands painted since the last draw
    this.pending = new Uint8Array(bands).fill(1); // bands the offscreen canvas has not got yet
    this.mipDirty = new Uint8Array(bands); // bands the halved copies have not got yet
    this.levels = []; // [1..]: {width, height, pixels, image, canvas, ctx, pending}: half, quarter, … size
    this.scoreMax = 1;
    this.starts = [];
    this.goals = [];
    this.heat = null; // another maze: no heat map, no illegal move
    this.heatCanvas = null;
    this.illegal = null;
    publishHeat(this.canvas, null);
    this.makePainter();
    this.repaintAll();
    this.fit();
  }

  /** The heuristic lab's heat map over the cells (null: none), one pixel a cell, drawn scaled. */
  setHeat(heat) {
    this.heat = heat && this.maze && heat.cells === this.maze.width * this.maze.height ? heat : null;
    this.heatCanvas = null;
    if (this.heat) {
      const { width, height } = this.maze;
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext("2d");
      const image = ctx.createImageData(width, height);
      const data = image.data;
      for (let i = 0; i < this.heat.cells; i++) {
        const rgb = cellRgb(this.heat, i);
        if (!rgb) continue; // transparent: the wall (or unreachable cell) shows through
        data.set(rgb, 4 * i);
        data[4 * i + 3] = 255;
      }
      ctx.putImageData(image, 0, 0);
      this.heatCanvas = canvas;
    }
    publishHeat(this.canvas, this.heat);
    this.requestDraw();
  }

  /** A checked solution's first illegal move to mark (null: none). */
  setIllegal(illegal) {
    this.illegal = illegal;
    this.requestDraw();
  }

  setMarkers(starts, goals) {
    this.starts = starts;
    this.goals = goals;
    this.requestDraw();
  }

  /** Scores are coloured on [0, max]; a change recolours the closed cells (only they use it). */
  setScoreMax(max) {
    const value = Math.max(1, max);
    if (value === this.scoreMax) return;
    this.scoreMax = value;
    this.makePainter();
    if (!this.maze) return;
    const status = this.state.status;
    const paint = this.paint;
    for (let i = 0, n = status.length; i < n; i++) if (status[i] === STATUS.CLOSED) paint(i);
    this.requestDraw();
  }

  // The per-record hot path: a closure over locals, rebuilt when the maze or the scale changes.
  makePainter() {
    if (!this.maze) return;
    const { width, cells } = this.maze;
    const { status, score } = this.state;
    const { pixels, dirty, base, ramp, statusColors } = this;
    const toIndex = 255 / this.scoreMax;
    const bandWidth = width * BAND;
    this.paint = (cell) => {
      const s = status[cell];
      let color;
      // A wall drawn over a searched cell shows as a wall until the board is searched again.
      if (s === STATUS.NONE || cells[cell] === 0) color = base[cells[cell]];
      else if (s === STATUS.CLOSED) {
        const k = (score[cell] * toIndex) | 0;
        color = ramp[k > 255 ? 255 : k < 0 ? 0 : k];
      } else color = statusColors[s];
      pixels[cell] = color;
      dirty[(cell / bandWidth) | 0] = 1;
    };
  }

  /** Recolour every cell from the state (after a rewind or a long jump): `paint`, inlined. */
  repaintAll() {
    if (!this.maze) return;
    const { cells } = this.maze;
    const { status, score } = this.state;
    const { pixels, base, ramp, statusColors } = this;
    const toIndex = 255 / this.scoreMax;
    for (let i = 0, n = cells.length; i < n; i++) {
      const s = status[i];
      if (s === STATUS.NONE || cells[i] === 0) pixels[i] = base[cells[i]];
      else if (s === STATUS.CLOSED) {
        const k = (score[i] * toIndex) | 0;
        pixels[i] = ramp[k > 255 ? 255 : k < 0 ? 0 : k];
      } else pixels[i] = statusColors[s];
    }
    this.dirty.fill(1);
    this.pathCache.length = -1;
    this.requestDraw();
  }

  // ---- view ------------------------------------------------------------------------------------

  resize() {
    if (!this.active) return;
    this.size = fitCanvasToParent(this.canvas);
    if (this.autoFit) this.fit();
    else this.drawNow();
  }

  fit() {
    this.autoFit = true;
    if (!this.maze) return this.requestDraw();
    this.measureTools?.(); // the board's buttons may have changed size since (text size, tools shown)
    const { width, height } = this.size;
    const pad = 12;
    // Keep the maze clear of the zoom buttons down the right edge; centred in the rest.
    const room = width - 2 * pad - this.toolsWidth;
    const scale = Math.min(room / this.maze.width, (height - 2 * pad) / this.maze.height);
    this.view.scale = Math.max(1e-3, Math.min(MAX_SCALE, scale));
    this.view.ox = pad + (room - this.maze.width * this.view.scale) / 2;
    this.view.oy = (height - this.maze.height * this.view.scale) / 2;
    this.requestDraw();
  }

  /** Zoom by `factor` keeping the board point under (x, y) (canvas CSS px) in place. */
  zoomAt(x, y, factor) {
    if (!this.maze) return;
    const v = this.view;
    const fitScale = Math.min(this.size.width / this.maze.width, this.size.height / this.maze.height);
    const scale = Math.min(MAX_SCALE, Math.max(Math.min(fitScale / 2, 1), v.scale * factor));
    v.ox = x - (x - v.ox) * (scale / v.scale);
    v.oy = y - (y - v.oy) * (scale / v.scale);
    v.scale = scale;
    this.autoFit = false;
    this.requestDraw();
  }

  zoomBy(factor) {
    this.zoomAt(this.size.width / 2, this.size.height / 2, factor);
  }

  /** The flat cell index under a client (page) point, or -1 off the board (`clamp`: the nearest cell). */
  cellAt(clientX, clientY, clamp = false) {
    if (!this.maze) return -1;
    const rect = this.canvas.getBoundingClientRect();
    const { scale, ox, oy } = this.view;
    let col = Math.floor((clientX - rect.left - ox) / scale);
    let row = Math.floor((clientY - rect.top - oy) / scale);
    const { width: W, height: H } = this.maze;
    if (clamp) {
      col = Math.max(0, Math.min(W - 1, col));
      row = Math.max(0, Math.min(H - 1, row));
    }
    if (row < 0 || col < 0 || row >= H || col >= W) return -1;
    return row * W + col;
  }

  bindInput() {
    const canvas = this.canvas;
    canvas.addEventListener("wheel", (event) => {
      if (!this.maze) return;
      event.preventDefault();
      const rect = canvas.getBoundingClientRect();
      // Line-mode wheels (Firefox) report lines, not pixels.
      const delta = event.deltaMode === 1 ? event.deltaY * 40 : event.deltaY;
      this.zoomAt(event.clientX - rect.left, event.clientY - rect.top, Math.exp(-delta * 0.0015));
    }, { passive: false });

    let press = null;
    let stroke = false; // the editor has this press
    canvas.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      if (this.drawing?.begin(this.cellAt(event.clientX, event.clientY), event)) {
        stroke = true;
        canvas.setPointerCapture(event.pointerId);
        event.preventDefault();
        return;
      }
      press = { x: event.clientX, y: event.clientY, lastX: event.clientX, lastY: event.clientY, moved: false };
      canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (stroke) {
        // Every point the pointer passed since the last event (a fast stroke skips cells between
        // events; the editor joins consecutive cells with a line), clamped to the board's edge.
        const points = event.getCoalescedEvents?.() || [];
        for (const point of points.length ? points : [event]) {
          this.drawing?.extend(this.cellAt(point.clientX, point.clientY, true));
        }
      } else if (press) {
        const dx = event.clientX - press.lastX;
        const dy = event.clientY - press.lastY;
        if (!press.moved && Math.hypot(event.clientX - press.x, event.clientY - press.y) > 4) {
          press.moved = true;
          canvas.classList.add("panning");
        }
        if (press.moved) {
          this.view.ox += dx;
          this.view.oy += dy;
          this.autoFit = false;
          this.requestDraw();
        }
        press.lastX = event.clientX;
        press.lastY = event.clientY;
      }
      this.onHover?.(this.cellAt(event.clientX, event.clientY));
    });
    const release = (event) => {
      if (stroke) {
        stroke = false;
        this.drawing?.end();
        return;
      }
      if (!press) return;
      const wasClick = !press.moved && event.type === "pointerup";
      press = null;
      canvas.classList.remove("panning");
      if (wasClick) {
        const cell = this.cellAt(event.clientX, event.clientY);
        if (cell >= 0) this.onCellClick?.(cell, event);
      }
    };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("pointerleave", () => this.onHover?.(-1));
  }

  // ---- drawing ---------------------------------------------------------------------------------

  /** Hand the bands painted since the last draw to the offscreen canvas and to the halved copies. */
  takeDirty() {
    const { dirty, pending, mipDirty } = this;
    for (let band = 0; band < dirty.length; band++) {
      if (!dirty[band]) continue;
      pending[band] = 1;
      mipDirty[band] = 1;
      dirty[band] = 0;
    }
  }

  /** Copy runs of flagged bands (`bands[b]`, `rows` rows each) of `image` to `ctx`. */
  static putBands(ctx, image, bands, rows) {
    for (let band = 0; band < bands.length; band++) {
      if (!bands[band]) continue;
      let end = band;
      while (end + 1 < bands.length && bands[end + 1]) end++;
      const y0 = band * rows;
      const y1 = Math.min(image.height, (end + 1) * rows);
      ctx.putImageData(image, 0, 0, 0, y0, image.width, y1 - y0);
      bands.fill(0, band, end + 1);
      band = end;
    }
  }

  /** The offscreen canvas, up to date (zoomed in, it is drawn directly). */
  flush() {
    GridRenderer.putBands(this.offCtx, this.image, this.pending, BAND);
  }

  render() {
    const ctx = this.ctx;
    const { width, height } = this.size;
    if (!this.maze) return;
    this.takeDirty();

    const { scale, ox, oy } = this.view;
    const W = this.maze.width;
    const H = this.maze.height;
    const c0 = Math.max(0, Math.floor(-ox / scale));
    const c1 = Math.min(W, Math.ceil((width - ox) / scale));
    const r0 = Math.max(0, Math.floor(-oy / scale));
    const r1 = Math.min(H, Math.ceil((height - oy) / scale));
    if (c1 > c0 && r1 > r0) {
      if (scale >= 0.75) {
        // Zoomed in: crisp cells, only the visible part.
        this.flush();
        ctx.imageSmoothingEnabled = scale < 1;
        ctx.drawImage(this.offscreen, c0, r0, c1 - c0, r1 - r0,
          ox + c0 * scale, oy + r0 * scale, (c1 - c0) * scale, (r1 - r0) * scale);
      } else {
        // Zoomed out: several cells per pixel. Sampling them would shimmer (moiré on a maze's
        // regular walls); a chain of exact halvings averages them instead, like a mipmap.
        const level = Math.min(12, Math.floor(Math.log2(1 / scale)));
        const image = this.mipmap(level);
        const f = 2 ** level * scale;
        ctx.imageSmoothingEnabled = true;
        ctx.imageSmoothingQuality = "high";
        ctx.drawImage(image, ox, oy, image.width * f, image.height * f);
      }
      if (this.heatCanvas) this.drawHeat(c0, c1, r0, r1);
      ctx.strokeStyle = "rgba(0,0,0,0.45)";
      ctx.lineWidth = 1;
      ctx.strokeRect(ox - 0.5, oy - 0.5, W * scale + 1, H * scale + 1);
      if (scale >= NUMBERS_FROM) this.drawGridLines(c0, c1, r0, r1);
      if (scale < FRONTIER_DOTS_BELOW) this.drawFrontierDots();
      else if (scale >= MARKS_FROM) this.drawFrontierMarks(c0, c1, r0, r1);
      this.drawPath();
      if (scale >= MARKS_FROM) this.drawPathMark();
      // Under a heat map the cells' colours are h/h*: the search's numbers would read as them.
      if (scale >= NUMBERS_FROM && !this.heatCanvas) this.drawScores(c0, c1, r0, r1);
      this.drawCurrent();
      if (this.heat) drawHeatArrows(ctx, this.heat, (cell) => this.cellCentre(cell), scale);
      if (this.illegal) this.drawIllegal();
    }
    // What tests (and curious users) can read: are the numbers drawn, and how large (2 digits).
    const numbers = scale >= NUMBERS_FROM;
    this.canvas.dataset.numbers = numbers ? "1" : "0";
    this.canvas.dataset.numberPx = numbers ? String(this.numberSize(scale, 2)) : "0";
    this.drawMarkers();
    if (this.canvas.dataset.wantSamples) this.publishSamples(c0, c1, r0, r1);
    this.canvas.dataset.scale = String(scale);
    this.canvas.dataset.originX = String(ox);
    this.canvas.dataset.originY = String(oy);
  }

  /**
   * The image halved `level` times (each halving a 2 x 2 average), as a canvas: made on first use,
   * then kept up to date band by band, so that a small change costs a few rows, and any way of
   * reaching a board gives the same pixels.
   */
  mipmap(level) {
    if (level < 1) {
      this.flush();
      return this.offscreen;
    }
    const levels = this.levels;
    let fresh = false;
    for (let k = levels.length || 1; k <= level; k++) {
      const below = k === 1 ? { width: this.maze.width, height: this.maze.height } : levels[k - 1];
      const width = Math.max(1, Math.ceil(below.width / 2));
      const height = Math.max(1, Math.ceil(below.height / 2));
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext("2d");
      const image = ctx.createImageData(width, height);
      levels[k] = {
        width, height, canvas, ctx, image, pixels: new Uint32Array(image.data.buffer),
        pending: new Uint8Array(Math.ceil(height / BAND)),
      };
      fresh = true;
    }
    if (fresh) this.mipDirty.fill(1); // a new level is computed whole (the others again: cheap)
    this.updateLevels();
    const entry = levels[level];
    GridRenderer.putBands(entry.ctx, entry.image, entry.pending, BAND);
    return entry.canvas;
  }

  /** Bring every halved copy up to date with the rows of the bands in mipDirty. */
  updateLevels() {
    const flags = this.mipDirty;
    const levels = this.levels;
    for (let band = 0; band < flags.length; band++) {
      if (!flags[band]) continue;
      let end = band;
      while (end + 1 < flags.length && flags[end + 1]) end++;
      let y0 = band * BAND;
      let y1 = Math.min(this.maze.height, (end + 1) * BAND);
      let source = { width: this.maze.width, height: this.maze.height, pixels: this.pixels };
      for (let k = 1; k < levels.length; k++) {
        const target = levels[k];
        y0 >>= 1;
        y1 = Math.min(target.height, (y1 + 1) >> 1);
        GridRenderer.halve(source, target, y0, y1);
        target.pending.fill(1, Math.floor(y0 / BAND), Math.ceil(y1 / BAND));
        source = target;
      }
      flags.fill(0, band, end + 1);
      band = end;
    }
  }

  /** Rows [y0, y1) of `target` = 2 x 2 averages of `source` (the last row/column repeats when odd). */
  static halve(source, target, y0, y1) {
    const src = source.pixels;
    const dst = target.pixels;
    const sw = source.width;
    const lastRow = source.height - 1;
    const lastCol = sw - 1;
    const w = target.width;
    for (let y = y0; y < y1; y++) {
      const top = 2 * y * sw;
      const bottom = Math.min(2 * y + 1, lastRow) * sw;
      let out = y * w;
      for (let x = 0; x < w; x++, out++) {
        const x0 = 2 * x;
        const x1 = x0 < lastCol ? x0 + 1 : x0;
        // Per-byte floor averages of packed pixels (no carries between the channels).
        const a = src[top + x0], b = src[top + x1], c = src[bottom + x0], d = src[bottom + x1];
        const ab = (a & b) + (((a ^ b) & 0xfefefefe) >>> 1);
        const cd = (c & d) + (((c ^ d) & 0xfefefefe) >>> 1);
        dst[out] = (ab & cd) + (((ab ^ cd) & 0xfefefefe) >>> 1);
      }
    }
  }

  /** The heat map: its colours over the visible cells, then (cells big enough) the overestimates hatched, the underestimates dotted. */
  drawHeat(c0, c1, r0, r1) {
    const ctx = this.ctx;
    const { scale, ox, oy } = this.view;
    ctx.save();
    ctx.imageSmoothingEnabled = scale < 1;
    ctx.drawImage(this.heatCanvas, c0, r0, c1 - c0, r1 - r0, ox + c0 * scale, oy + r0 * scale, (c1 - c0) * scale, (r1 - r0) * scale);
    ctx.restore();
    if (scale < 4) return;
    const W = this.maze.width;
    const over = this.heat.over;
    for (let r = r0; r < r1; r++) {
      for (let c = c0; c < c1; c++) {
        if (over[r * W + c]) hatch(ctx, ox + c * scale, oy + r * scale, scale, scale);
        else if (isUnder(this.heat, r * W + c)) stipple(ctx, ox + c * scale, oy + r * scale, scale, scale);
      }
    }
  }

  /**
   * A checked solution's first illegal move: a ring on the cell the walk stopped at, and on the cell
   * the move tried to enter (when known) a cross, an arrow to it and the move's number.
   */
  drawIllegal() {
    const { cell, target, move } = this.illegal;
    const size = this.maze.width * this.maze.height;
    const ctx = this.ctx;
    const s = Math.max(this.view.scale, 10);
    ctx.save();
    const inside = (i) => Number.isInteger(i) && i >= 0 && i < size;
    if (inside(cell)) {
      const [x, y] = this.cellCentre(cell);
      ctx.beginPath();
      ctx.arc(x, y, s * 0.62, 0, 2 * Math.PI);
      ctx.lineWidth = Math.max(3, s * 0.12) + 3;
      ctx.strokeStyle = "#fff";
      ctx.stroke();
      ctx.lineWidth = Math.max(3, s * 0.12);
      ctx.strokeStyle = COLORS.current;
      ctx.setLineDash([Math.max(3, s * 0.2), Math.max(2, s * 0.12)]);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    let label = null;
    // The label goes beyond the cross, away from the walk (it would hide the path's last cells).
    let away = [0, -1];
    if (inside(cell) && inside(target)) {
      const [ax, ay] = this.cellCentre(cell);
      const [bx, by] = this.cellCentre(target);
      const len = Math.hypot(bx - ax, by - ay) || 1;
      away = [(bx - ax) / len, (by - ay) / len];
    }
    if (inside(target)) {
      const [x, y] = this.cellCentre(target);
      const h = s * 0.36;
      ctx.lineCap = "round";
      for (const [width, color] of [[Math.max(4, s * 0.16) + 3, "#fff"], [Math.max(4, s * 0.16), COLORS.path]]) {
        ctx.beginPath();
        ctx.moveTo(x - h, y - h);
        ctx.lineTo(x + h, y + h);
        ctx.moveTo(x + h, y - h);
        ctx.lineTo(x - h, y + h);
        ctx.lineWidth = width;
        ctx.strokeStyle = color;
        ctx.stroke();
      }
      label = [x, y];
    } else if (inside(cell)) {
      label = this.cellCentre(cell);
    }
    if (label) {
      const text = move ? t("render.grid.move", { n: move }) : t("render.grid.ends_here");
      const px = Math.round(Math.max(12, Math.min(22, s * 0.5)) * this.textScale);
      ctx.font = `700 ${px}px system-ui, sans-serif`;
      const w = ctx.measureText(text).width + px * 0.8;
      const h = px * 1.4;
      // Centre the badge past the cell's edge along `away` (its half-size along that direction too).
      const reach = s * 0.6 + Math.abs(away[0]) * w / 2 + Math.abs(away[1]) * h / 2;
      const cx = label[0] + away[0] * reach;
      const cy = label[1] + away[1] * reach;
      const bx = Math.max(2, Math.min(this.size.width - w - 2, cx - w / 2));
      const by = Math.max(2, Math.min(this.size.height - h - 2, cy - h / 2));
      ctx.fillStyle = COLORS.path;
      ctx.fillRect(bx, by, w, h);
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = 1.5;
      ctx.strokeRect(bx, by, w, h);
      ctx.fillStyle = "#fff";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(text, bx + w / 2, by + h / 2 + 1);
    }
    ctx.restore();
  }

  drawGridLines(c0, c1, r0, r1) {
    const ctx = this.ctx;
    const { scale, ox, oy } = this.view;
    ctx.beginPath();
    for (let c = c0; c <= c1; c++) {
      const x = Math.round(ox + c * scale) + 0.5;
      ctx.moveTo(x, oy + r0 * scale);
      ctx.lineTo(x, oy + r1 * scale);
    }
    for (let r = r0; r <= r1; r++) {
      const y = Math.round(oy + r * scale) + 0.5;
      ctx.moveTo(ox + c0 * scale, y);
      ctx.lineTo(ox + c1 * scale, y);
    }
    ctx.strokeStyle = "rgba(0,0,0,0.18)";
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  /**
   * Colour is not the only carrier (WCAG 1.4.1): a frontier cell has a dashed dark ring inside its
   * edge, so it reads apart from expanded cells of a similar grey. The cell's centre keeps its colour.
   */
  drawFrontierMarks(c0, c1, r0, r1) {
    if (!this.state) return;
    const cells = this.state.frontierCells();
    if (!cells.length) return;
    const ctx = this.ctx;
    const { scale, ox, oy } = this.view;
    const W = this.maze.width;
    const inset = Math.max(1.5, scale * 0.14);
    const side = scale - 2 * inset;
    const limit = Math.min(cells.length, 40000);
    ctx.save();
    ctx.beginPath();
    for (let k = 0; k < limit; k++) {
      const cell = cells[k];
      const r = (cell / W) | 0;
      const c = cell - r * W;
      if (r < r0 || r >= r1 || c < c0 || c >= c1) continue;
      ctx.rect(ox + c * scale + inset, oy + r * scale + inset, side, side);
    }
    ctx.strokeStyle = "rgba(0,0,0,0.8)";
    ctx.lineWidth = Math.max(1.5, scale * 0.1);
    const dash = Math.max(2, scale * 0.12);
    ctx.setLineDash([dash, dash]);
    ctx.stroke();
    ctx.restore();
  }

  /**
   * Zoomed in, the path's cells are also joined by a line (dark edges, the path's colour inside), so
   * the path reads without its colour; the cells' centres keep the path colour.
   */
  drawPathMark() {
    if (!this.state || this.state.pathLength < 2) return;
    const { scale, ox, oy } = this.view;
    const shape = this.pathShape(0);
    const ctx = this.ctx;
    ctx.save();
    ctx.setTransform(this.size.dpr * scale, 0, 0, this.size.dpr * scale, this.size.dpr * ox, this.size.dpr * oy);
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    ctx.strokeStyle = "rgba(0,0,0,0.85)";
    ctx.lineWidth = 0.5;
    ctx.stroke(shape);
    ctx.strokeStyle = COLORS.path;
    ctx.lineWidth = 0.2;
    ctx.stroke(shape);
    ctx.restore();
  }

  /**
   * For the colour test (tests/e2e/test_colour_and_motion.py, which sets data-want-samples): cells of
   * each kind in view, as `data-samples` JSON {frontier, path, expanded: [...], start, goal}.
   */
  publishSamples(c0, c1, r0, r1) {
    const state = this.state;
    const W = this.maze.width;
    const samples = { frontier: -1, path: -1, expanded: [], start: this.starts[0] ?? -1, goal: this.goals[0] ?? -1 };
    if (state) {
      const ends = new Set([...this.starts.slice(0, 400), ...this.goals.slice(0, 400)]);
      const inView = (cell) => {
        const r = (cell / W) | 0, c = cell - r * W;
        return r >= r0 && r < r1 && c >= c0 && c < c1 && !ends.has(cell);
      };
      for (const cell of state.frontierCells()) {
        if (state.status[cell] === STATUS.OPEN && inView(cell)) { samples.frontier = cell; break; }
      }
      if (state.pathLength > 2) samples.path = state.path[state.pathLength >> 1];
      const closed = [];
      for (let r = r0; r < r1; r++) {
        for (let c = c0; c < c1; c++) {
          const cell = r * W + c;
          if (state.status[cell] === STATUS.CLOSED && !ends.has(cell)) closed.push(cell);
        }
      }
      closed.sort((a, b) => state.score[a] - state.score[b]);
      const n = Math.min(12, closed.length);
      for (let k = 0; k < n; k++) samples.expanded.push(closed[Math.round((k * (closed.length - 1)) / Math.max(1, n - 1))]);
    }
    this.canvas.dataset.samples = JSON.stringify(samples);
  }

  /** Zoomed out, a frontier cell is a fraction of a pixel: draw the wave's edge as dots. */
  drawFrontierDots() {
    const cells = this.state.frontierCells();
    if (!cells.length) return;
    const ctx = this.ctx;
    const { scale, ox, oy } = this.view;
    const W = this.maze.width;
    const status = this.state.status;
    const size = 4;
    const limit = Math.min(cells.length, 50000);
    for (const [color, back] of [[COLORS.open, false], [COLORS.openBack, true]]) {
      ctx.beginPath();
      for (let k = 0; k < limit; k++) {
        const cell = cells[k];
        if ((status[cell] >= STATUS.OPEN_B) !== back) continue;
        const r = (cell / W) | 0;
        const c = cell - r * W;
        ctx.rect(ox + (c + 0.5) * scale - size / 2, oy + (r + 0.5) * scale - size / 2, size, size);
      }
      ctx.fillStyle = color;
      ctx.fill();
    }
  }

  /**
   * The path as a polyline through cell centres (cell units), rebuilt when it grows or the zoom
   * changes: with cells under a pixel only vertices `tol` cells apart are kept (stroking a long maze
   * path vertex by vertex takes tens of ms; 2 px apart, under a line 3.5 px wide, nobody sees it).
   */
  pathShape(tol = 0) {
    const state = this.state;
    const cache = this.pathCache;
    if (cache.length === state.pathLength && cache.tol === tol) return cache.path;
    const W = this.maze.width;
    const shape = tol > 1 ? this.sparsePath(tol) : new Path2D();
    this.pathCache = { length: state.pathLength, tol, path: shape, serial: (cache.serial || 0) + 1 };
    if (tol > 1) return shape;
    let prevR = 0, prevC = 0, dirR = 9, dirC = 9, pendingR = 0, pendingC = 0, open = false;
    for (let k = 0; k < state.pathLength; k++) {
      const cell = state.path[k];
      const r = (cell / W) | 0;
      const c = cell - r * W;
      const dr = r - prevR, dc = c - prevC;
      if (!open || Math.abs(dr) > 1 || Math.abs(dc) > 1) {
        if (open) shape.lineTo(pendingC + 0.5, pendingR + 0.5);
        shape.moveTo(c + 0.5, r + 0.5);
        open = true;
        dirR = dirC = 9;
      } else if (dr !== dirR || dc !== dirC) {
        // A turn: emit the corner; straight runs collapse into one segment.
        if (dirR !== 9) shape.lineTo(prevC + 0.5, prevR + 0.5);
        dirR = dr;
        dirC = dc;
      }
      pendingR = r;
      pendingC = c;
      prevR = r;
      prevC = c;
    }
    if (open) shape.lineTo(pendingC + 0.5, pendingR + 0.5);
    return shape;
  }

  /** The path with a vertex only where it has moved `tol` cells (either way) since the last one. */
  sparsePath(tol) {
    const { path, pathLength } = this.state;
    const W = this.maze.width;
    const shape = new Path2D();
    let open = false, prevR = 0, prevC = 0, lastR = 0, lastC = 0;
    for (let k = 0; k < pathLength; k++) {
      const cell = path[k];
      const r = (cell / W) | 0;
      const c = cell - r * W;
      if (!open || Math.abs(r - prevR) > 1 || Math.abs(c - prevC) > 1) {
        if (open && (prevR !== lastR || prevC !== lastC)) shape.lineTo(prevC + 0.5, prevR + 0.5);
        shape.moveTo(c + 0.5, r + 0.5);
        open = true;
        lastR = r;
        lastC = c;
      } else if (Math.max(Math.abs(r - lastR), Math.abs(c - lastC)) >= tol) {
        shape.lineTo(c + 0.5, r + 0.5);
        lastR = r;
        lastC = c;
      }
      prevR = r;
      prevC = c;
    }
    if (open && (prevR !== lastR || prevC !== lastC)) shape.lineTo(prevC + 0.5, prevR + 0.5);
    return shape;
  }

  drawPath() {
    // Zoomed in, the vermillion path cells speak for themselves; zoomed out they are specks.
    if (!this.state || this.state.pathLength < 2 || this.view.scale >= PATH_LINE_BELOW) return;
    // Stroked once into a layer of its own (a long path takes tens of ms to stroke), then copied.
    const { scale, ox, oy } = this.view;
    const { dpr } = this.size;
    const { width: cw, height: ch } = this.canvas;
    const shape = this.pathShape(scale < 1 ? 2 / scale : 0); // vertices 2 px apart: inside the line's width
    const key = `${this.pathCache.serial} ${scale} ${ox} ${oy} ${cw} ${ch} ${dpr}`;
    let layer = this.pathLayer;
    if (!layer || layer.key !== key) {
      if (!layer) layer = this.pathLayer = { canvas: document.createElement("canvas"), key: "" };
      const canvas = layer.canvas;
      if (canvas.width !== cw || canvas.height !== ch) {
        canvas.width = cw;
        canvas.height = ch;
      }
      const ctx = canvas.getContext("2d");
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, cw, ch);
      const width = Math.max(3.5, scale);
      ctx.setTransform(dpr * scale, 0, 0, dpr * scale, dpr * ox, dpr * oy);
      ctx.lineJoin = "round";
      ctx.lineCap = "round";
      ctx.strokeStyle = "rgba(255,255,255,0.9)"; // a halo keeps the line visible on any colour
      ctx.lineWidth = (width + 3) / scale;
      ctx.stroke(shape);
      ctx.strokeStyle = COLORS.path;
      ctx.lineWidth = width / scale;
      ctx.stroke(shape);
      layer.key = key;
    }
    const ctx = this.ctx;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer.canvas, 0, 0);
    ctx.restore();
  }

  drawScores(c0, c1, r0, r1) {
    const ctx = this.ctx;
    const { scale, ox, oy } = this.view;
    const W = this.maze.width;
    const { status, score } = this.state;
    const pixels = this.pixels;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    let font = -1;
    for (let r = r0; r < r1; r++) {
      for (let c = c0; c < c1; c++) {
        const i = r * W + c;
        if (status[i] === STATUS.NONE) continue;
        const v = score[i];
        const text = Number.isInteger(v) ? String(v) : v.toFixed(1);
        const size = this.numberSize(scale, text.length);
        if (size !== font) {
          ctx.font = `600 ${size}px system-ui, sans-serif`;
          font = size;
        }
        ctx.fillStyle = luminance(pixels[i]) > 0.5 ? "#111" : "#fff";
        ctx.fillText(text, ox + (c + 0.5) * scale, oy + (r + 0.5) * scale + 0.5);
      }
    }
  }

  /** The font size (CSS px) of a number of `digits` characters in a cell of `scale` px. */
  numberSize(scale, digits) {
    // Long numbers shrink to fit their cell; large text fills more of it.
    const base = Math.floor(scale * Math.min(0.75, 0.52 * this.textScale));
    return Math.max(6, Math.min(base, Math.floor((scale * (digits > 1 ? 0.74 : 0.84)) / (0.62 * digits))));
  }

  drawCurrent() {
    const cell = this.state ? this.state.current : -1;
    if (cell < 0) return;
    const ctx = this.ctx;
    const [x, y] = this.cellCentre(cell);
    const half = Math.max(this.view.scale / 2, 6);
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#fff";
    ctx.strokeRect(x - half, y - half, 2 * half, 2 * half);
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLORS.current;
    ctx.strokeRect(x - half, y - half, 2 * half, 2 * half);
  }

  drawMarkers() {
    if (!this.maze) return;
    for (const cell of this.starts.slice(0, 400)) this.drawMarker(cell, "start");
    for (const cell of this.goals.slice(0, 400)) this.drawMarker(cell, "goal");
  }

  /** The centre of a cell on the canvas (CSS px). */
  cellCentre(cell) {
    const { scale, ox, oy } = this.view;
    const W = this.maze.width;
    const r = (cell / W) | 0;
    const c = cell - r * W;
    return [ox + (c + 0.5) * scale, oy + (r + 0.5) * scale];
  }

  drawMarker(cell, kind) {
    const ctx = this.ctx;
    const [x, y] = this.cellCentre(cell);
    const size = Math.max(MARKER_MIN, this.view.scale * 0.9);
    ctx.beginPath();
    if (kind === "start") ctx.rect(x - size / 2, y - size / 2, size, size);
    else ctx.arc(x, y, size / 2, 0, 2 * Math.PI);
    ctx.fillStyle = kind === "start" ? COLORS.start : COLORS.goal;
    ctx.fill();
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#fff";
    ctx.stroke();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#000";
    ctx.stroke();
    ctx.fillStyle = "#fff";
    ctx.font = `700 ${Math.round(size * 0.6)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(t(kind === "start" ? "render.grid.start_letter" : "render.grid.goal_letter"), x, y + 1);
  }
}
