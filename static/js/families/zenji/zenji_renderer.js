// Draws a Zenji board on its canvas: pipe tiles (a stub from each open side to the hub; inlets green
// with arrows pointing in, outlets orange with arrows pointing out), the source's tap and the drain,
// the search's four orientation markers per tile, the tile being expanded, the tiles its water
// passes, the water itself; and animates turns (a tile's drawing rotates 90° per quarter turn) and
// the water filling the pipes. Knows nothing of runs or the page: the view hands it scenes.

import { COLORS, OKABE_ITO, rampRgb } from "../../colors.js";
import {
  CanvasRenderer, INK, clamp01, drawLabel, drawTileSquare, ease, fillEdged, lightness, roundRect,
} from "../canvas_renderer.js";
import { STATE } from "./zenji_search.js";
import { drawHeatGrid } from "../heat.js";
import { SIDE } from "./zenji_board.js";

const PIPE_COLORS = {
  [SIDE.INLET]: OKABE_ITO.bluishGreen,
  [SIDE.OUTLET]: OKABE_ITO.orange,
  [SIDE.SOURCE]: COLORS.start,
  [SIDE.DRAIN]: COLORS.goal,
};
export const WATER = "#1f8fe0";
const WATER_LIGHT = "#bfe4ff";
const TILE = "#2b3037";
const TILE_FIXED = "#3a3f47"; // source and drain: they never turn
const TILE_USED = "#1d5479"; // free flow: a tile the expanded state's water already passes
const HUB = "#e9e4d8";
const MUTED = "#5d636c";
const CURRENT = OKABE_ITO.yellow;
const TURNED = OKABE_ITO.bluishGreen;
const MAX_UNIT = 170;

export class ZenjiRenderer extends CanvasRenderer {
  constructor(canvas) {
    super(canvas);
    this.board = null; // boardOf(info)
    this.scene = null; // see show()
    // this.anim: {turn: {tile, from, to} | null, water: {from, to} | null, start, ms, resolve}
    this.onHover = null; // (tile) => void, -1 off the board
    this.lastLayout = null;
    canvas.addEventListener("mousemove", (event) => this.hovered(event));
    canvas.addEventListener("mouseleave", () => this.onHover?.(-1));
  }

  setBoard(board) {
    this.finishAnimation();
    this.board = board;
    this.scene = null;
    this.draw();
  }

  /**
   * The scene to draw, at rest (a running animation goes on over it; `cut` ends it first):
   * {rotations: Float32Array (quarter turns per tile), markers: {states, values, scale, maxTurns} | null,
   *  current: state index | -1, used: Set of tiles | null, highlight: tile | -1, badges: Map tile -> turns
   *  | null, water: {route (waterRoute points), progress, tail (the tile it ends in)} | null, route (tiles
   *  on the expanded state's reconstructed route), caption}.
   */
  show(scene, { cut = true } = {}) {
    if (cut) this.finishAnimation();
    this.scene = scene;
    if (!this.anim) this.draw();
  }

  /**
   * Animate over the scene: `turn` {tile, from, to} (quarter turns, clockwise: to > from) and/or
   * `water` {from, to} (the fraction of the route filled). Resolves when it ends or is cut short.
   */
  animate({ turn = null, water = null, ms }) {
    this.finishAnimation();
    if (!(ms > 0) || !this.active) {
      this.draw();
      return Promise.resolve();
    }
    this.canvas.dataset.phase = turn ? "turn" : "water";
    return this.animateFor({ turn, water, ms });
  }

  animationEnded() {
    super.animationEnded();
    this.canvas.dataset.phase = "";
  }

  /** The running animation's progress in [0, 1] (eased), or null. */
  progress() {
    return this.anim ? ease(this.animationT()) : null;
  }

  // ---- geometry --------------------------------------------------------------------------------

  /**
   * Tile size and the board's top-left corner (CSS px), with the margins' font sizes: column numbers
   * above, row numbers on the left, SOURCE left of the source's row and DRAIN right of the drain's
   * (boards are usually height-bound: the side margins cost little).
   */
  layout() {
    const { rows, cols } = this.board;
    const { width, height } = this.size;
    const rem = this.rem();
    const captionPx = Math.round(rem * 2.2);
    const labelPx = Math.round(rem * 0.8);
    const badgePx = Math.round(rem * 0.85);
    this.ctx.font = `700 ${badgePx}px system-ui, sans-serif`;
    const badgeW = Math.max(this.ctx.measureText("SOURCE →").width, this.ctx.measureText("→ DRAIN").width) + badgePx * 1.1;
    const top = labelPx * 1.5 + 6;
    const bottom = 8;
    const left = labelPx * 1.6 + badgeW + 10;
    const right = badgeW + 10;
    const pad = 8;
    const unit = Math.max(8, Math.min(MAX_UNIT,
      (width - left - right - 2 * pad) / cols,
      (height - captionPx - top - bottom - 2 * pad) / rows));
    const boardW = cols * unit;
    const boardH = rows * unit;
    const bx = left + (width - left - right - boardW) / 2;
    const by = captionPx + top + Math.max(0, (height - captionPx - top - bottom - boardH) / 2);
    return { unit, bx, by, captionPx, labelPx, badgePx, badgeW };
  }

  tileAt(clientX, clientY) {
    const L = this.lastLayout;
    if (!L || !this.board) return -1;
    const rect = this.canvas.getBoundingClientRect();
    const c = Math.floor((clientX - rect.left - L.bx) / L.unit);
    const r = Math.floor((clientY - rect.top - L.by) / L.unit);
    if (r < 0 || c < 0 || r >= this.board.rows || c >= this.board.cols) return -1;
    return r * this.board.cols + c;
  }

  hovered(event) {
    if (this.onHover) this.onHover(this.tileAt(event.clientX, event.clientY));
  }

  // ---- drawing ---------------------------------------------------------------------------------

  render() {
    const ctx = this.ctx;
    if (!this.board || !this.scene) return;
    const L = this.layout();
    this.lastLayout = L;
    const scene = this.scene;
    const { rows, cols, tiles } = this.board;
    const anim = this.anim;
    const k = this.progress();
    const angleOf = (tile) => {
      if (anim?.turn && anim.turn.tile === tile) return anim.turn.from + (anim.turn.to - anim.turn.from) * k;
      return scene.rotations ? scene.rotations[tile] : 0;
    };

    this.drawCaption(scene.caption || "", Math.round(this.rem() * 1.15), Math.round(this.rem() * 1.2));
    this.drawLabels(L);
    const ctxBoard = { L, angleOf };
    ctx.fillStyle = "rgba(0,0,0,0.18)";
    ctx.fillRect(L.bx - 3, L.by - 3, cols * L.unit + 6, rows * L.unit + 6);
    for (let t = 0; t < rows * cols; t++) this.drawTileBase(ctxBoard, t, tiles[t]);
    let waterProgress = scene.water ? scene.water.progress : 0;
    if (anim?.water) waterProgress = anim.water.from + (anim.water.to - anim.water.from) * k;
    if (scene.water && waterProgress > 0) {
      // The tile turning at the water's end: the water waits at its edge until the turn is done.
      const hold = anim?.turn && scene.water.tail === anim.turn.tile;
      this.drawWater(L, hold ? scene.water.route.slice(0, -1) : scene.water.route, waterProgress);
    }
    // The heuristic lab's heat map: a wash over each tile (its pipes still show), then the arrows.
    if (this.heat) drawHeatGrid(ctx, this.heat, { x: L.bx, y: L.by, unit: L.unit, cols, alpha: 0.72, inset: Math.max(1, L.unit * 0.035) });
    for (let t = 0; t < rows * cols; t++) this.drawTileArrows(ctxBoard, t, tiles[t]);
    const drawn = scene.markers ? this.drawMarkers(L, scene) : null;
    if (scene.highlight >= 0) this.outlineTile(L, scene.highlight, TURNED, false);
    if (scene.current >= 0) this.outlineTile(L, Math.floor(scene.current / 4), CURRENT, true);
    if (scene.badges) {
      for (const [tile, turns] of scene.badges) {
        let shown = turns;
        if (anim?.turn && anim.turn.tile === tile) shown = Math.min(turns, Math.floor(angleOf(tile) + 1e-6));
        if (shown > 0) this.drawTurnBadge(L, tile, shown);
      }
    }
    this.drawEndpoints(L);
    this.publish(scene, drawn, waterProgress);
  }

  /** What is on the canvas, as data attributes (the browser tests read them). */
  publish(scene, drawn, waterProgress) {
    const data = this.canvas.dataset;
    data.markers = drawn ? String(drawn.total) : "0";
    data.open = drawn ? String(drawn.open) : "0";
    data.closed = drawn ? String(drawn.closed) : "0";
    data.current = scene.current >= 0 ? String(scene.current) : "";
    data.used = scene.used ? String(scene.used.size) : "0";
    data.route = String(scene.route || 0);
    data.water = scene.water ? String(Math.round(waterProgress * 1000) / 1000) : "";
    const L = this.lastLayout; // where the tiles are (CSS px from the canvas's corner): tests click them
    if (L) Object.assign(data, { unit: String(L.unit), bx: String(L.bx), by: String(L.by) });
  }

  /** Row numbers down the left, column numbers along the top: "(1, 2)" can be found. */
  drawLabels(L) {
    const { rows, cols } = this.board;
    const ctx = this.ctx;
    ctx.font = `600 ${L.labelPx}px system-ui, sans-serif`;
    ctx.fillStyle = MUTED;
    ctx.textAlign = "center";
    ctx.textBaseline = "bottom";
    for (let c = 0; c < cols; c++) ctx.fillText(String(c), L.bx + (c + 0.5) * L.unit, L.by - 5);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (let r = 0; r < rows; r++) ctx.fillText(String(r), L.bx - 8, L.by + (r + 0.5) * L.unit);
  }

  /** SOURCE left of the source's row, DRAIN right of the drain's, as labelled badges. */
  drawEndpoints(L) {
    const { cols, source, drain } = this.board;
    const s = L.unit;
    const sr = Math.floor(source / cols);
    const dr = Math.floor(drain / cols);
    const gap = L.labelPx * 1.6 + 4;
    this.drawBadge(L.bx - gap - L.badgeW / 2, L.by + (sr + 0.5) * s, "SOURCE →", COLORS.start, L.badgePx);
    this.drawBadge(L.bx + cols * s + 8 + L.badgeW / 2, L.by + (dr + 0.5) * s, "→ DRAIN", COLORS.goal, L.badgePx);
  }

  drawBadge(cx, cy, text, color, font) {
    const ctx = this.ctx;
    ctx.font = `700 ${font}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width + font * 1.1;
    const h = font * 1.5;
    const x = Math.max(2, Math.min(this.size.width - w - 2, cx - w / 2));
    drawLabel(ctx, x, cy, text, color, font, w, h);
  }

  tileXY(L, tile) {
    const { cols } = this.board;
    return [L.bx + (tile % cols) * L.unit, L.by + Math.floor(tile / cols) * L.unit];
  }

  /** The square, the stubs and the hub, turned by the tile's angle. */
  drawTileBase({ L, angleOf }, t, tile) {
    const ctx = this.ctx;
    const s = L.unit;
    const [x, y] = this.tileXY(L, t);
    const fixed = t === this.board.source || t === this.board.drain;
    const used = this.scene.used?.has(t);
    const gap = drawTileSquare(ctx, x, y, s, used ? TILE_USED : fixed ? TILE_FIXED : TILE);
    ctx.save();
    ctx.translate(x + s / 2, y + s / 2);
    ctx.rotate((angleOf(t) * Math.PI) / 2);
    drawPipes(ctx, s, tile, gap);
    ctx.restore();
  }

  /** The arrows (in for inlets, out for outlets) and the source's tap and the drain's grate. */
  drawTileArrows({ L, angleOf }, t, tile) {
    const ctx = this.ctx;
    const s = L.unit;
    const [x, y] = this.tileXY(L, t);
    ctx.save();
    ctx.translate(x + s / 2, y + s / 2);
    ctx.rotate((angleOf(t) * Math.PI) / 2);
    drawArrows(ctx, s, tile);
    ctx.restore();
    if (t === this.board.source) drawTap(ctx, x + s / 2, y + s / 2, s);
    else if (t === this.board.drain) drawDrain(ctx, x + s / 2, y + s / 2, s);
  }

  /** The water along its route up to `progress` (0..1), as a band inside the pipes. */
  drawWater(L, route, progress) {
    if (!route || route.length < 2) return;
    const ctx = this.ctx;
    const s = L.unit;
    const pts = route.map(([r, c]) => [L.bx + c * s, L.by + r * s]);
    const lengths = [];
    let total = 0;
    for (let i = 1; i < pts.length; i++) {
      const d = Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
      lengths.push(d);
      total += d;
    }
    let left = total * clamp01(progress);
    ctx.beginPath();
    ctx.moveTo(...pts[0]);
    for (let i = 1; i < pts.length && left > 0; i++) {
      const d = lengths[i - 1];
      if (d <= left) ctx.lineTo(...pts[i]);
      else {
        const f = left / d;
        ctx.lineTo(pts[i - 1][0] + (pts[i][0] - pts[i - 1][0]) * f, pts[i - 1][1] + (pts[i][1] - pts[i - 1][1]) * f);
      }
      left -= d;
    }
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = "#0b3d66";
    ctx.lineWidth = s * 0.2 + 3;
    ctx.stroke();
    ctx.strokeStyle = WATER;
    ctx.lineWidth = s * 0.2;
    ctx.stroke();
    ctx.strokeStyle = WATER_LIGHT;
    ctx.lineWidth = Math.max(1.5, s * 0.045);
    ctx.stroke();
  }

  /**
   * Four markers per tile, one per rotation 0..3 at the corners clockwise from the top-left: hollow
   * (not reached), a purple circle (on the frontier), a square coloured by its turns (expanded, or
   * on the solution's path records at the trace's end).
   * Source and drain have one (they never turn); a rotation that looks like a smaller one has none
   * (the search never tries it). Returns the counts drawn.
   */
  drawMarkers(L, scene) {
    const { rows, cols, source, drain } = this.board;
    const { states, values, scale, maxTurns } = scene.markers;
    const ctx = this.ctx;
    const s = L.unit;
    const m = Math.max(3.5, Math.min(s * 0.115 * this.textScale, s * 0.14, 16 * this.textScale));
    const inset = Math.max(2, s * 0.05) + m;
    const digits = m >= 7;
    const counts = { total: 0, open: 0, closed: 0 };
    ctx.font = `700 ${Math.round(m * 1.2)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let t = 0; t < rows * cols; t++) {
      const [x, y] = this.tileXY(L, t);
      const spots = [[x + inset, y + inset], [x + s - inset, y + inset], [x + s - inset, y + s - inset], [x + inset, y + s - inset]];
      const fixed = t === source || t === drain;
      for (let rot = 0; rot < (fixed ? 1 : 4); rot++) {
        if (this.board.repeats?.[t]?.[rot]) continue; // looks like a smaller rotation: never searched
        const state = t * 4 + rot;
        const status = states[state];
        const [mx, my] = spots[rot];
        counts.total++;
        if (status === STATE.OPEN) {
          counts.open++;
          ctx.beginPath();
          ctx.arc(mx, my, m, 0, 2 * Math.PI);
          ctx.fillStyle = COLORS.open;
          ctx.fill();
          ctx.lineWidth = 1.5;
          ctx.strokeStyle = "#fff";
          ctx.stroke();
          if (digits) this.markerDigit(mx, my, rot, "#fff");
        } else if (status === STATE.CLOSED || status === STATE.PATH) {
          counts.closed++;
          const turns = Math.floor(Math.round(values[state]) / scale);
          const rgb = rampRgb(maxTurns > 0 ? turns / maxTurns : 0);
          ctx.fillStyle = `rgb(${rgb.join(",")})`;
          ctx.fillRect(mx - m, my - m, 2 * m, 2 * m);
          ctx.lineWidth = 1.5;
          ctx.strokeStyle = "#fff";
          ctx.strokeRect(mx - m, my - m, 2 * m, 2 * m);
          if (digits) this.markerDigit(mx, my, rot, lightness(rgb) > 0.55 ? INK : "#fff");
        } else {
          ctx.beginPath();
          ctx.arc(mx, my, m * 0.8, 0, 2 * Math.PI);
          ctx.lineWidth = Math.max(1, m * 0.18);
          ctx.strokeStyle = "#9aa0a8";
          ctx.stroke();
          if (digits) this.markerDigit(mx, my, rot, "#9aa0a8", 0.85);
        }
        if (state === scene.current) {
          ctx.beginPath();
          ctx.arc(mx, my, m * 1.45 + 2, 0, 2 * Math.PI);
          ctx.lineWidth = Math.max(2.5, m * 0.35);
          ctx.strokeStyle = CURRENT;
          ctx.stroke();
          ctx.beginPath();
          ctx.arc(mx, my, m * 1.45 + 2 + ctx.lineWidth / 2 + 1, 0, 2 * Math.PI);
          ctx.lineWidth = 1.5;
          ctx.strokeStyle = INK;
          ctx.stroke();
        }
      }
    }
    return counts;
  }

  markerDigit(x, y, rot, color, scale = 1) {
    const ctx = this.ctx;
    if (scale !== 1) {
      const size = parseFloat(ctx.font.split(" ")[1]);
      ctx.save();
      ctx.font = `700 ${Math.round(size * scale)}px system-ui, sans-serif`;
    }
    ctx.fillStyle = color;
    ctx.fillText(String(rot), x, y + 0.5);
    if (scale !== 1) ctx.restore();
  }

  /** A ring round a tile: the one being expanded (yellow, black edge) or the move's (green). */
  outlineTile(L, tile, color, edged) {
    const ctx = this.ctx;
    const s = L.unit;
    const [x, y] = this.tileXY(L, tile);
    const w = Math.max(3, s * 0.055);
    if (edged) {
      ctx.lineWidth = w + 3;
      ctx.strokeStyle = INK;
      roundRect(ctx, x - w / 2, y - w / 2, s + w, s + w, s * 0.1);
      ctx.stroke();
    }
    ctx.lineWidth = w;
    ctx.strokeStyle = color;
    roundRect(ctx, x - w / 2, y - w / 2, s + w, s + w, s * 0.1);
    ctx.stroke();
  }

  /** "↻2" on a turned tile: how many quarter turns it got. */
  drawTurnBadge(L, tile, turns) {
    const ctx = this.ctx;
    const s = L.unit;
    const [x, y] = this.tileXY(L, tile);
    const font = Math.round(Math.max(11, Math.min(s * 0.2, 22)) * this.textScale);
    ctx.font = `750 ${font}px system-ui, sans-serif`;
    const text = `↻${turns}`;
    const w = ctx.measureText(text).width + font * 0.7;
    const h = font * 1.35;
    const bx = x + s - w - s * 0.04;
    const by = y + s * 0.04;
    ctx.fillStyle = TURNED;
    roundRect(ctx, bx, by, w, h, h * 0.35);
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#fff";
    ctx.stroke();
    ctx.fillStyle = "#fff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, bx + w / 2, by + h / 2 + 1);
  }
}

// ---- one tile, in its own frame (centre at 0, 0; north up), shared with the legend's icons ----------

const STUB = 0.27; // stub width / tile size

/** The stubs (coloured by side code) and the hub of a tile of size s, turned already. */
export function drawPipes(ctx, s, tile, gap = Math.max(1, s * 0.035)) {
  const w = s * STUB;
  const half = s / 2;
  let open = false;
  for (let d = 0; d < 4; d++) {
    const code = tile[d];
    if (!code) continue;
    open = true;
    ctx.save();
    ctx.rotate((d * Math.PI) / 2);
    ctx.fillStyle = PIPE_COLORS[code] || HUB;
    ctx.fillRect(-w / 2, -half + gap, w, half - gap);
    ctx.restore();
  }
  if (!open) return;
  ctx.beginPath();
  ctx.arc(0, 0, w * 0.72, 0, 2 * Math.PI);
  ctx.fillStyle = HUB;
  ctx.fill();
}

/** Arrowheads on the stubs: into the tile for inlets (and the source), out of it for outlets (and the drain). */
export function drawArrows(ctx, s, tile) {
  const w = s * STUB;
  const half = s / 2;
  for (let d = 0; d < 4; d++) {
    const code = tile[d];
    if (!code) continue;
    const inward = code === SIDE.INLET || code === SIDE.SOURCE;
    ctx.save();
    ctx.rotate((d * Math.PI) / 2);
    ctx.translate(0, -half * 0.6);
    if (inward) ctx.rotate(Math.PI);
    // A chevron pointing up (outwards in the unturned frame), flipped for inward.
    const a = w * 0.42;
    ctx.beginPath();
    ctx.moveTo(0, -a);
    ctx.lineTo(a, a * 0.55);
    ctx.lineTo(0, a * 0.05);
    ctx.lineTo(-a, a * 0.55);
    ctx.closePath();
    ctx.fillStyle = code === SIDE.SOURCE || code === SIDE.DRAIN ? "#fff" : INK;
    ctx.fill();
    ctx.restore();
  }
}

/** The source's tap: a water drop on the hub. */
export function drawTap(ctx, cx, cy, s) {
  const r = s * 0.13;
  ctx.save();
  ctx.translate(cx, cy + r * 0.25);
  ctx.beginPath();
  ctx.moveTo(0, -r * 1.9);
  ctx.bezierCurveTo(r * 0.5, -r * 0.9, r, -r * 0.4, r, r * 0.15);
  ctx.arc(0, r * 0.15, r, 0, Math.PI);
  ctx.bezierCurveTo(-r, -r * 0.4, -r * 0.5, -r * 0.9, 0, -r * 1.9);
  ctx.closePath();
  fillEdged(ctx, COLORS.start, Math.max(1.5, s * 0.02));
  ctx.restore();
}

/** The drain: a grate on the hub. */
export function drawDrain(ctx, cx, cy, s) {
  const r = s * 0.14;
  ctx.save();
  ctx.translate(cx, cy);
  ctx.beginPath();
  ctx.arc(0, 0, r, 0, 2 * Math.PI);
  fillEdged(ctx, COLORS.goal, Math.max(1.5, s * 0.02));
  ctx.beginPath();
  for (const dx of [-0.45, 0, 0.45]) {
    const h = Math.sqrt(1 - dx * dx) * r * 0.75;
    ctx.moveTo(dx * r, -h);
    ctx.lineTo(dx * r, h);
  }
  ctx.lineWidth = Math.max(1.5, s * 0.025);
  ctx.strokeStyle = INK;
  ctx.stroke();
  ctx.restore();
}
