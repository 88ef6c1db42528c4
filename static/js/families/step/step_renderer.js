// Draws a step-cycle maze and its search on the view's canvas: the maze with one small mark per phase
// in every marked cell (coloured by that state's status), the state space as one board per phase
// ("layers"), the state being expanded and the jumps it generates, and at the end the solution as
// jumps (arcs labelled with their length) on the maze and across the layers. Knows nothing of runs
// or the page: the view hands it a scene.

import { COLORS, OKABE_ITO, hexToRgb, rampRgb } from "../../colors.js";
import { CanvasRenderer, INK, drawToken, ease, lightness as lum } from "../canvas_renderer.js";
import { BLANK, GOAL, START, decodeState, layerMoves } from "./step_board.js";
import { computeLayout, markLayout } from "./step_layout.js";
import { drawBadge, drawJump, drawLink, frameCell, jumpGeometry, jumpPoint, ringCell } from "./step_shapes.js";
import { STATUS } from "./step_search.js";
import { drawHeatGrid } from "../heat.js";
import { t } from "../../i18n.js";

const MUTED = "#4a4f57";
const UNREACHED_EDGE = "#8d939b";
const UNREACHED_FILL = "#ffffff";
const PLAYER = OKABE_ITO.orange;
const CAPTION_PX = 34; // the caption line over everything (times the page's text scale)
const VECTOR_FROM = 7; // px per cell from which cells are drawn one by one (else as one image)
const NUMBERS_FROM = 17; // px per layer cell from which g is written in it
const DIGITS_FROM = 9; // px per mark from which its step length is written in it
const JUMP_MS = 520; // a replayed jump at speed factor 1

const rgbCss = ([r, g, b]) => `rgb(${r},${g},${b})`;

// The ramp's 256 colours as CSS strings and as RGB (text on them picks black or white).
const RAMP_RGB = Array.from({ length: 256 }, (_, i) => rampRgb(i / 255));
const RAMP_CSS = RAMP_RGB.map(rgbCss);
const FIXED = {
  [STATUS.OPEN]: COLORS.open, [STATUS.UPDATED]: COLORS.update, [STATUS.OPEN_B]: COLORS.openBack,
  [STATUS.CLOSED_B]: COLORS.closedBack, [STATUS.UPDATED_B]: COLORS.update,
};
const FIXED_RGB = Object.fromEntries(Object.entries(FIXED).map(([k, hex]) => [k, hexToRgb(hex)]));
// A state's colours, as RGB and as CSS: [on the path, the ramp by g, by status].
const RGB_COLORS = [hexToRgb(COLORS.path), RAMP_RGB, FIXED_RGB];
const CSS_COLORS = [COLORS.path, RAMP_CSS, FIXED];
const WALL_RGB = hexToRgb(COLORS.wall);
const FREE_RGB = hexToRgb(COLORS.free);

export class StepRenderer extends CanvasRenderer {
  constructor(canvas) {
    super(canvas);
    this.board = null; // step_board.boardOf(info)
    this.cycle = [1, 2, 3];
    this.mode = "both";
    this.search = null; // StepSearch while a run is shown
    this.timeline = null;
    this.scoreMax = 1;
    this.caption = "";
    this.solution = null; // {moves, path, step, overview}
    this.showSearchMarks = false; // per-state colours (a run is shown)
    // this.anim: a replayed jump in motion, {index, start, ms, resolve}
    this.layout = null;
    this.onHover = null; // ({r, c, layer} | null) => void
    this.offscreen = null; // one-pixel-per-cell images for tiny cells
    canvas.addEventListener("pointermove", (event) => this.onHover?.(this.hit(event.clientX, event.clientY)));
    canvas.addEventListener("pointerleave", () => this.onHover?.(null));
  }

  setPuzzle(board, cycle) {
    this.finishAnimation();
    this.setScene({ board, cycle, solution: null, search: null, timeline: null, showSearchMarks: false });
  }

  /** What to draw: any of {cycle, search, timeline, scoreMax, caption, solution, showSearchMarks}. */
  setScene(scene) {
    Object.assign(this, scene);
    this.requestDraw();
  }

  setMode(mode) {
    this.mode = mode;
    this.requestDraw();
  }

  get P() {
    return this.cycle.length;
  }

  // ---- geometry --------------------------------------------------------------------------------

  computeLayout() {
    const rem = this.rem();
    const captionH = Math.round(CAPTION_PX * (rem / 16));
    const titleFont = Math.round(rem * 0.86);
    const titleH = Math.round(titleFont * 1.35 + rem * 0.72 * 1.3 + 4);
    const { rows, cols } = this.board;
    const L = computeLayout({
      width: this.size.width, height: this.size.height, top: captionH, rows, cols, P: this.P, mode: this.mode, titleH,
    });
    return { ...L, rem, captionH, titleFont, titleH };
  }

  /** The cell under a page point: {r, c, layer: p | null (the maze)} or null. */
  hit(clientX, clientY) {
    const L = this.layout;
    if (!L || !this.board) return null;
    const rect = this.canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    const { rows, cols } = this.board;
    const inside = (bx, by, u) => {
      const c = Math.floor((x - bx) / u);
      const r = Math.floor((y - by) / u);
      return r >= 0 && c >= 0 && r < rows && c < cols ? { r, c } : null;
    };
    if (L.main && L.unit > 0) {
      const at = inside(L.main.x, L.main.y, L.unit);
      if (at) return { ...at, layer: null };
    }
    for (const layer of L.layers) {
      if (!(layer.u > 0)) continue;
      const at = inside(layer.x, layer.y, layer.u);
      if (at) return { ...at, layer: layer.p };
    }
    return null;
  }

  // ---- the replay's jump in motion -----------------------------------------------------------

  /** Move the player along solution move `index` (0-based); resolves when it lands or is cut short. */
  animateJump(index, scale = 1) {
    this.finishAnimation();
    const ms = JUMP_MS * scale;
    if (ms <= 0) {
      this.requestDraw();
      return Promise.resolve();
    }
    return this.animateFor({ index, ms });
  }

  /** After a jump, the board at rest is drawn at the next frame (with whatever the replay shows next). */
  settle() {
    this.requestDraw();
  }

  // ---- drawing ---------------------------------------------------------------------------------

  render() {
    if (!this.board) return;
    const L = this.computeLayout();
    this.layout = L;
    const counts = this.search && this.showSearchMarks ? this.search.countsByPhase() : null;
    this.drawCaption(this.caption, Math.round(L.rem * 1.1), L.captionH / 2 + 3);
    if (L.main) this.drawMain(L);
    // The heuristic lab's heat map over the maze (per cell: the largest h/h* of its phases).
    if (L.main && this.heat) drawHeatGrid(this.ctx, this.heat, { x: L.main.x, y: L.main.y, unit: L.unit, cols: this.board.cols, alpha: 0.72 });
    for (const layer of L.layers) this.drawLayer(L, layer, counts);
    this.drawGenerated(L);
    if (this.solution) this.drawSolution(L);
    this.exposeForTests(L, counts);
  }

  /** What tests (and curious users) can read off the canvas element. */
  exposeForTests(L, counts) {
    const d = this.canvas.dataset;
    const fmt = (v) => String(Math.round(v * 100) / 100);
    d.mode = this.mode;
    d.phases = String(this.P);
    d.unit = fmt(L.unit);
    d.layerUnit = fmt(L.layerUnit);
    d.main = L.main ? [L.main.x, L.main.y].map(fmt).join(",") : "";
    d.layers = L.layers.map((l) => `${fmt(l.x)},${fmt(l.y)}`).join(";");
    const M = L.main ? markLayout(L.unit, this.P) : null;
    d.marks = M ? M.centres.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(";") : "";
    d.markSize = M ? `${fmt(M.w)},${fmt(M.h)}` : "";
    d.open = counts ? counts.open.join(",") : "";
    d.closed = counts ? counts.closed.join(",") : "";
    const current = this.currentState();
    d.current = current ? `${current.r},${current.c},${current.phase}` : "";
    d.solution = this.solution ? `${this.solution.step}/${this.solution.moves.length}` : "";
  }

  currentState() {
    const s = this.search;
    if (!s || !this.showSearchMarks || s.current < 0 || this.solution) return null;
    return decodeState(s.current, this.board.cols, this.P);
  }

  /** A state's colour from `[path, ramp, fixed]` (RGB_COLORS or CSS_COLORS), or null when it is not reached (or no run is shown). */
  stateColor(state, [path, ramp, fixed]) {
    const s = this.search;
    if (!s || !this.showSearchMarks || state >= s.status.length) return null;
    if (s.onPath[state] && !this.solution) return path; // the solution draws its own path
    const st = s.status[state];
    if (st === STATUS.NONE) return null;
    if (st === STATUS.CLOSED) return ramp[Math.max(0, Math.min(255, Math.floor((s.score[state] / this.scoreMax) * 255)))];
    return fixed[st] || null;
  }

  /** A state's colour as RGB, or null. */
  stateRgb(state) {
    return this.stateColor(state, RGB_COLORS);
  }

  /** A state's colour as a CSS string, or null. */
  stateCss(state) {
    return this.stateColor(state, CSS_COLORS);
  }

  /**
   * A board's title (bold) and a second, muted line under it (`sub`: one text, or wordings longest
   * first), each shrunk to fit `width` or left out.
   */
  drawTitle(L, x, y, width, title, sub) {
    const ctx = this.ctx;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    const fit = (text, weight, px, least) => {
      ctx.font = `${weight} ${px}px system-ui, sans-serif`;
      const w = ctx.measureText(text).width;
      if (w <= width) return true;
      const size = Math.floor((px * width) / w);
      if (size < least) return false;
      ctx.font = `${weight} ${size}px system-ui, sans-serif`;
      return true;
    };
    if (fit(title, 700, L.titleFont, 9)) {
      ctx.fillStyle = INK;
      ctx.fillText(title, x, y + 1);
    }
    // The second line: the first of its wordings (longest first) that fits.
    const subs = Array.isArray(sub) ? sub : sub ? [sub] : [];
    const line = subs.find((text) => fit(text, 500, Math.round(L.rem * 0.72), Math.max(9, Math.round(L.rem * 0.6))));
    if (line) {
      ctx.fillStyle = MUTED;
      ctx.fillText(line, x, y + L.titleFont * 1.35 + 1);
    }
  }

  // ---- the maze, one mark per phase ---------------------------------------------------------

  drawMain(L) {
    const { rows, cols, kinds } = this.board;
    const { x, y } = L.main;
    const u = L.unit;
    const P = this.P;
    const ctx = this.ctx;
    const names = this.cycle.join(" · ");
    const sub = u >= VECTOR_FROM ? t("render.step.marks", { names }) : t("render.step.no_marks");
    this.drawTitle(L, x - L.margin * u, L.main.titleY, (cols + 2 * L.margin) * u, t("render.step.maze"), sub);
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    ctx.fillRect(x - 2, y - 2, cols * u + 4, rows * u + 4);
    if (u < VECTOR_FROM) {
      // Tiny cells: one pixel each, the cell's most advanced state (expanded in some phase first).
      this.drawPixels(x, y, u, (cell) => {
        if (kinds[cell] === BLANK) return WALL_RGB;
        let best = null;
        for (let p = 0; p < P; p++) {
          const rgb = this.stateRgb(cell * P + p);
          if (rgb && (!best || this.search.status[cell * P + p] === STATUS.CLOSED)) best = rgb;
        }
        return best || FREE_RGB;
      });
      this.drawEndpointsSmall(x, y, u);
      const current = this.currentState();
      if (current) ringCell(this.ctx, x, y, u, current.r, current.c);
      return;
    }
    // Cells: marked light, blank dark, thin lines between.
    ctx.fillStyle = COLORS.wall;
    ctx.fillRect(x, y, cols * u, rows * u);
    ctx.fillStyle = COLORS.free;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) if (kinds[r * cols + c] !== BLANK) ctx.fillRect(x + c * u, y + r * u, u, u);
    }
    this.gridLines(x, y, u, "rgba(0,0,0,0.22)");

    const M = markLayout(u, P);
    const digits = M.h >= DIGITS_FROM && M.w >= DIGITS_FROM * 0.8;
    const current = this.currentState();
    // Marks, batched by colour: unreached ones white with a grey edge.
    const byColor = new Map();
    const unreached = new Path2D();
    this.eachMark(x, y, u, M, (state, _p, cx, cy) => {
      const rx = cx - M.w / 2;
      const ry = cy - M.h / 2;
      const css = this.stateCss(state);
      if (!css) unreached.rect(rx, ry, M.w, M.h);
      else {
        if (!byColor.has(css)) byColor.set(css, new Path2D());
        byColor.get(css).rect(rx, ry, M.w, M.h);
      }
    });
    ctx.fillStyle = UNREACHED_FILL;
    ctx.fill(unreached);
    ctx.lineWidth = 1;
    ctx.strokeStyle = UNREACHED_EDGE;
    ctx.stroke(unreached);
    for (const [css, shape] of byColor) {
      ctx.fillStyle = css;
      ctx.fill(shape);
      ctx.strokeStyle = "rgba(0,0,0,0.45)";
      ctx.stroke(shape);
    }
    if (digits) {
      // Each mark names the length of the next move in its phase.
      const px = Math.max(8, Math.floor(Math.min(M.h * 0.78, M.w * 0.8)));
      ctx.font = `700 ${px}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      this.eachMark(x, y, u, M, (state, p, cx, cy) => {
        const rgb = this.stateRgb(state);
        ctx.fillStyle = !rgb ? "#5b6169" : lum(rgb) > 0.5 ? "#111" : "#fff";
        ctx.fillText(String(this.cycle[p]), cx, cy + 0.5);
      });
    }
    this.drawMainBadges(L);
    if (current) {
      // The state being expanded: its cell framed, its mark ringed.
      frameCell(ctx, x + current.c * u, y + current.r * u, u);
      const [dx, dy] = M.centres[current.phase];
      const rx = x + current.c * u + dx - M.w / 2;
      const ry = y + current.r * u + dy - M.h / 2;
      ctx.lineWidth = Math.max(3, M.w * 0.16) + 2;
      ctx.strokeStyle = "#fff";
      ctx.strokeRect(rx - 1.5, ry - 1.5, M.w + 3, M.h + 3);
      ctx.lineWidth = Math.max(2, M.w * 0.16);
      ctx.strokeStyle = COLORS.current;
      ctx.strokeRect(rx - 1.5, ry - 1.5, M.w + 3, M.h + 3);
    }
  }

  /** fn(state, phase, cx, cy) for each phase's mark of every marked cell of the maze at (x, y), its centre. */
  eachMark(x, y, u, M, fn) {
    const { rows, cols, kinds } = this.board;
    const P = this.P;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = r * cols + c;
        if (kinds[cell] === BLANK) continue;
        for (let p = 0; p < P; p++) {
          const [dx, dy] = M.centres[p];
          fn(cell * P + p, p, x + c * u + dx, y + r * u + dy);
        }
      }
    }
  }

  /** Start and goal letters above the marks of their cells. */
  drawMainBadges(L) {
    const { cols, kinds } = this.board;
    const { x, y } = L.main;
    const u = L.unit;
    const M = markLayout(u, this.P);
    for (let cell = 0; cell < kinds.length; cell++) {
      const kind = kinds[cell];
      if (kind !== START && kind !== GOAL) continue;
      const r = Math.floor(cell / cols);
      const c = cell % cols;
      drawBadge(this.ctx, x + c * u + M.badge.cx, y + r * u + M.badge.cy, M.badge.size, kind === START ? "start" : "goal");
    }
  }

  gridLines(x, y, u, color) {
    if (u < 10) return;
    const { rows, cols } = this.board;
    const ctx = this.ctx;
    ctx.beginPath();
    for (let c = 0; c <= cols; c++) {
      const px = Math.round(x + c * u) + 0.5;
      ctx.moveTo(px, y);
      ctx.lineTo(px, y + rows * u);
    }
    for (let r = 0; r <= rows; r++) {
      const py = Math.round(y + r * u) + 0.5;
      ctx.moveTo(x, py);
      ctx.lineTo(x + cols * u, py);
    }
    ctx.strokeStyle = color;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  /** Start and goal on a board of tiny cells: markers of a readable size over their cells. */
  drawEndpointsSmall(x, y, u) {
    const { start, goals } = this.board;
    const size = Math.max(12, u);
    if (start) drawBadge(this.ctx, x + (start[1] + 0.5) * u, y + (start[0] + 0.5) * u, size, "start");
    for (const [r, c] of goals.slice(0, 200)) drawBadge(this.ctx, x + (c + 0.5) * u, y + (r + 0.5) * u, size, "goal");
  }

  /** A board of tiny cells as one image: `rgbOf(cell)` for each cell, scaled without smoothing. */
  drawPixels(x, y, u, rgbOf) {
    const { rows, cols } = this.board;
    if (!this.offscreen || this.offscreen.width !== cols || this.offscreen.height !== rows) {
      this.offscreen = document.createElement("canvas");
      this.offscreen.width = cols;
      this.offscreen.height = rows;
    }
    const octx = this.offscreen.getContext("2d");
    const image = octx.createImageData(cols, rows);
    const data = image.data;
    for (let cell = 0, n = rows * cols; cell < n; cell++) {
      const [r, g, b] = rgbOf(cell);
      data[4 * cell] = r;
      data[4 * cell + 1] = g;
      data[4 * cell + 2] = b;
      data[4 * cell + 3] = 255;
    }
    octx.putImageData(image, 0, 0);
    const ctx = this.ctx;
    ctx.imageSmoothingEnabled = u < 1;
    ctx.drawImage(this.offscreen, x, y, cols * u, rows * u);
  }

  // ---- the state space, one board per phase ---------------------------------------------------

  drawLayer(L, layer, counts) {
    const { rows, cols, kinds } = this.board;
    const P = this.P;
    const { x, y, u, p } = layer;
    const ctx = this.ctx;
    const k = this.cycle[p];
    // The phase names the layer (the Phase figure); the title the length of its next move.
    let sub;
    if (counts) {
      const [open, closed] = [counts.open[p], counts.closed[p]];
      sub = [t("render.step.phase_counts", { p, open, closed }), t("render.step.phase_frontier", { p, open }),
        t("render.step.frontier", { open })];
    } else sub = [t("render.step.phase_moves", { p, moves: layerMoves(p, P) }), t("render.step.phase", { p })];
    const repeated = this.cycle.indexOf(k) !== this.cycle.lastIndexOf(k);
    this.drawTitle(L, x, layer.titleY, cols * u, repeated ? t("render.step.next_move_of", { p, k }) : t("render.step.next_move", { k }), sub);
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    ctx.fillRect(x - 2, y - 2, cols * u + 4, rows * u + 4);
    if (u < VECTOR_FROM) {
      this.drawPixels(x, y, u, (cell) => {
        if (kinds[cell] === BLANK) return WALL_RGB;
        return this.stateRgb(cell * P + p) || FREE_RGB;
      });
      this.drawEndpointsSmall(x, y, u);
      const current = this.currentState();
      if (current && current.phase === p) ringCell(this.ctx, x, y, u, current.r, current.c);
      return;
    }
    ctx.fillStyle = COLORS.wall;
    ctx.fillRect(x, y, cols * u, rows * u);
    const numbers = u >= NUMBERS_FROM;
    const s = this.search;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = r * cols + c;
        if (kinds[cell] === BLANK) continue;
        ctx.fillStyle = this.stateCss(cell * P + p) || COLORS.free;
        ctx.fillRect(x + c * u, y + r * u, u, u);
      }
    }
    this.gridLines(x, y, u, "rgba(0,0,0,0.2)");
    this.drawStateMarks(x, y, u, rows, cols, p);
    // Start and goal: a letter in the cell's corner, the state's colour stays visible.
    const corner = Math.max(7, Math.min(u * 0.42, 18));
    for (let cell = 0; cell < kinds.length; cell++) {
      const kind = kinds[cell];
      if (kind !== START && kind !== GOAL) continue;
      const r = Math.floor(cell / cols);
      const c = cell % cols;
      drawBadge(this.ctx, x + c * u + corner / 2 + 1, y + r * u + corner / 2 + 1, corner, kind === START ? "start" : "goal");
    }
    if (numbers && s && this.showSearchMarks) {
      // g of every reached state, as the grid writes its wave numbers.
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          const state = (r * cols + c) * P + p;
          const rgb = this.stateRgb(state);
          if (!rgb) continue;
          const v = s.score[state];
          const text = Number.isInteger(v) ? String(v) : v.toFixed(1);
          const px = Math.max(8, Math.floor(Math.min(u * 0.5, (u * 0.8) / (0.6 * text.length))));
          ctx.font = `650 ${px}px system-ui, sans-serif`;
          ctx.fillStyle = lum(rgb) > 0.5 ? "#111" : "#fff";
          ctx.fillText(text, x + (c + 0.5) * u + corner * 0.12, y + (r + 0.56) * u);
        }
      }
    }
    const current = this.currentState();
    if (current && current.phase === p) frameCell(ctx, x + current.c * u, y + current.r * u, u);
  }

  /**
   * Colour is not the only carrier (WCAG 1.4.1): on a layer big enough, a frontier state has a dashed
   * dark ring inside its cell's edge and a state on the path a solid one; the centre keeps its colour.
   */
  drawStateMarks(x, y, u, rows, cols, p) {
    const s = this.search;
    if (!s || u < 8 || !this.showSearchMarks) return;
    const ctx = this.ctx;
    const P = this.P;
    const inset = Math.max(1.5, u * 0.12);
    const frontier = new Path2D();
    const path = new Path2D();
    let any = false;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const state = (r * cols + c) * P + p;
        const st = s.status[state];
        const onPath = s.onPath?.[state] && !this.solution;
        const open = st === STATUS.OPEN || st === STATUS.UPDATED || st === STATUS.OPEN_B || st === STATUS.UPDATED_B;
        if (!onPath && !open) continue;
        (onPath ? path : frontier).rect(x + c * u + inset, y + r * u + inset, u - 2 * inset, u - 2 * inset);
        any = true;
      }
    }
    if (!any) return;
    ctx.save();
    ctx.strokeStyle = "rgba(0,0,0,0.8)";
    ctx.lineWidth = Math.max(1.5, u * 0.08);
    ctx.stroke(path);
    const dash = Math.max(2, u * 0.12);
    ctx.setLineDash([dash, dash]);
    ctx.stroke(frontier);
    ctx.restore();
  }

  // ---- what the expansion at the playhead generates ---------------------------------------------

  /** Dashed arrows from the state being expanded to the states it put on the frontier. */
  drawGenerated(L) {
    const current = this.currentState();
    if (!current || !this.timeline) return;
    const cols = this.board.cols;
    const P = this.P;
    for (const state of this.search.generatedNow(this.timeline)) {
      if (state < 0 || state >= this.search.status.length) continue;
      const to = decodeState(state, cols, P);
      const style = { color: COLORS.open, width: 2.5, dashed: true, label: null };
      if (L.main && L.unit >= VECTOR_FROM) {
        drawJump(this.ctx, L.main, [current.r, current.c], [to.r, to.c], style);
      }
      const a = L.layers[current.phase];
      const b = L.layers[to.phase];
      if (a && b && a.u > 0) drawLink(this.ctx, a, [current.r, current.c], b, [to.r, to.c], style);
    }
  }

  // ---- the solution ---------------------------------------------------------------------------------

  drawSolution(L) {
    const { moves, path, step, overview } = this.solution;
    const n = moves.length;
    const anim = this.anim;
    const animT = ease(this.animationT());
    const currentMove = overview ? -1 : step - 1;
    const drawn = [];
    for (let i = 0; i < n; i++) if ((overview || i < step) && i !== currentMove) drawn.push(i);
    const ctx = this.ctx;

    if (L.main && L.unit >= 3) {
      const { x, y } = L.main;
      const u = L.unit;
      const { rows, cols, kinds } = this.board;
      // A veil over the marks: the jumps are what to read now.
      ctx.fillStyle = "rgba(255,255,255,0.45)";
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) if (kinds[r * cols + c] !== BLANK) ctx.fillRect(x + c * u, y + r * u, u, u);
      }
      if (u >= VECTOR_FROM) this.drawMainBadges(L);
      // The cells a jump passes over (and lands on), lightly tinted.
      const tint = (move, alpha) => {
        ctx.fillStyle = `rgba(213, 94, 0, ${alpha})`;
        for (const [r, c] of move.over) ctx.fillRect(x + c * u + 1, y + r * u + 1, u - 2, u - 2);
      };
      if (overview) moves.forEach((move) => tint(move, 0.1));
      else if (currentMove >= 0) tint(moves[currentMove], 0.26);
      for (const i of drawn) {
        drawJump(this.ctx, L.main, moves[i].from, moves[i].to, overview
          ? { color: COLORS.path, width: 3, label: moves[i].length }
          : { color: COLORS.path, width: 2, alpha: 0.5, label: moves[i].length });
      }
      if (currentMove >= 0) {
        const move = moves[currentMove];
        drawJump(this.ctx, L.main, move.from, move.to, { color: COLORS.path, width: 5, label: move.length, big: true });
      }
    }

    // Across the layers: each move leads from its phase's layer to the next phase's.
    const link = (i, style) => {
      const a = L.layers[path[i]?.[2]];
      const b = L.layers[path[i + 1]?.[2]];
      if (a && b && a.u > 0) drawLink(this.ctx, a, moves[i].from, b, moves[i].to, style);
    };
    // Every move's link only while they stay few and the layers large enough to tell them apart (the
    // numbered path cells tell the order anyway); the current move's link always.
    const allLinks = n <= 40 && L.layerUnit >= 28;
    if (allLinks) for (const i of drawn) link(i, { color: COLORS.path, width: 1.6, alpha: overview ? 0.55 : 0.4 });
    if (currentMove >= 0) link(currentMove, { color: COLORS.path, width: 4 });
    // The path's states on their layers, numbered by moves made.
    for (let i = 0; i <= n; i++) {
      if (!overview && i > step) break;
      const state = path[i];
      const layer = state && L.layers[state[2]];
      if (!layer || !(layer.u > 0)) continue;
      const u = layer.u;
      const cx = layer.x + state[1] * u;
      const cy = layer.y + state[0] * u;
      ctx.fillStyle = COLORS.path;
      ctx.fillRect(cx + 1, cy + 1, u - 2, u - 2);
      if (u >= NUMBERS_FROM * 0.8) {
        const text = String(i);
        ctx.font = `700 ${Math.max(8, Math.floor(Math.min(u * 0.52, (u * 0.82) / (0.6 * text.length))))}px system-ui, sans-serif`;
        ctx.fillStyle = "#fff";
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(text, cx + u / 2, cy + u * 0.54);
      }
    }
    const at = path[step];
    let fly = null;
    if (anim && anim.index === step - 1 && animT < 1) fly = { move: moves[anim.index], t: animT };
    if (at) this.drawPlayers(L, at, fly);
  }

  /** The player (orange disc) on the maze and on its layer; in flight along a jump while animating. */
  drawPlayers(L, at, fly) {
    if (L.main && L.unit >= 3) {
      const u = L.unit;
      let cx, cy;
      if (fly) [cx, cy] = jumpPoint(jumpGeometry(L.main, fly.move.from, fly.move.to), fly.t);
      else [cx, cy] = [L.main.x + (at[1] + 0.5) * u, L.main.y + (at[0] + 0.5) * u];
      const radius = Math.max(6, u * 0.2);
      drawToken(this.ctx, cx, cy, radius, PLAYER, { edge: Math.max(2, radius * 0.25), gap: 1.2, ring: 2 });
    }
    const layer = L.layers[at[2]];
    if (layer && layer.u > 0 && !fly) {
      // On its layer the player rings its cell (the move count stays readable).
      const ctx = this.ctx;
      const u = layer.u;
      const lw = Math.max(3, u * 0.14);
      const x = layer.x + at[1] * u - lw / 2;
      const y = layer.y + at[0] * u - lw / 2;
      ctx.lineWidth = lw + 3;
      ctx.strokeStyle = "#000";
      ctx.strokeRect(x, y, u + lw, u + lw);
      ctx.lineWidth = lw;
      ctx.strokeStyle = PLAYER;
      ctx.strokeRect(x, y, u + lw, u + lw);
    }
  }
}
