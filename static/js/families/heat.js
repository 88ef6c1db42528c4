// @ts-check
// The heuristic lab's heat map (POST /api/puzzles/<id>/heuristic, its `heat`; server/heuristic_lab.py
// heat_map): per board cell the largest h/h* of the states judged on it, whether one of them
// overestimates, and the worst inconsistent moves. Decoded once here; each family view draws it in
// its own geometry with the helpers below (a cell's rectangle, its centre), so every board shows it
// alike: a diverging blue → white → red scale (ColorBrewer's RdBu, readable with the common
// colour-vision deficiencies; white where h = h* exactly), overestimating cells hatched, dead ends
// (no way to a goal) grey, inconsistent moves as arrows.

const HEAT_DEAD_END = 254; // the cell's states cannot reach a goal (h* infinite)
const HEAT_EMPTY = 255; // no judged state on the cell (a wall, an unreachable cell)
export const HEAT_TOP = 2.5; // ratios at or above this share the scale's last colour (byte 250)

/**
 * A heat map ready to draw.
 * @typedef {object} Heat
 * @property {number} cells  the board's cell count (row-major: row * width + col)
 * @property {number} scale  a ratio byte is round(scale · h / h*) (100)
 * @property {Uint8Array} ratio  one byte a cell: the ratio byte, HEAT_DEAD_END or HEAT_EMPTY
 * @property {Uint8Array} over  one byte a cell: 1 where a state on the cell overestimates
 * @property {Array<[number, number]>} moves  [from cell, to cell] of the worst inconsistent moves
 */

/** @typedef {[number, number, number]} Rgb */

// RdBu (ColorBrewer, 7 classes): blue below 1, white at 1, red above.
/** @type {Rgb[]} */
const BELOW = [[33, 102, 172], [103, 169, 207], [209, 229, 240], [247, 247, 247]]; // ratio 0 → 1
/** @type {Rgb[]} */
const ABOVE = [[247, 247, 247], [253, 219, 199], [239, 138, 98], [178, 24, 43]]; // ratio 1 → HEAT_TOP
/** @type {Rgb} */
export const DEAD_END_RGB = [150, 150, 150];
export const HATCH = "#3d0a12"; // the overestimate's hatch, dark on any red
export const ARROW = "#111111"; // an inconsistent move
export const STIPPLE = "#0b2540"; // the underestimate's dots, dark on any blue and on white

/**
 * The bytes of a base64 string.
 * @param {string} text
 * @returns {Uint8Array}
 */
function bytesOf(text) {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/**
 * The server's `heat` as a Heat, or null when it is absent or does not fit `cells` (the board).
 * @param {any} raw
 * @param {number} cells
 * @returns {Heat | null}
 */
export function decodeHeat(raw, cells) {
  if (!raw || typeof raw.ratio !== "string" || typeof raw.over !== "string") return null;
  let ratio, over;
  try {
    ratio = bytesOf(raw.ratio);
    over = bytesOf(raw.over);
  } catch {
    return null;
  }
  if (ratio.length !== cells || over.length !== cells) return null;
  const moves = Array.isArray(raw.moves)
    ? raw.moves.filter((m) => Array.isArray(m) && m.length === 2 && m.every((c) => Number.isInteger(c) && c >= 0 && c < cells))
    : [];
  return { cells, scale: Number(raw.scale) || 100, ratio, over, moves };
}

/**
 * @param {Rgb[]} stops
 * @param {number} t  in [0, 1]
 * @returns {Rgb}
 */
function along(stops, t) {
  const x = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [stops[i], stops[i + 1]];
  return [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)];
}

/**
 * The colour of a ratio h/h* (1 = exact: white).
 * @param {number} ratio
 * @returns {Rgb}
 */
export function ratioRgb(ratio) {
  if (ratio <= 1) return along(BELOW, ratio);
  return along(ABOVE, (ratio - 1) / (HEAT_TOP - 1));
}

/**
 * A cell's colour, or null where nothing is drawn (HEAT_EMPTY). An overestimating cell is never
 * lighter than a ratio of 1.3 (h a hair above h* would look white), the hatch marks it besides.
 * @param {Heat} heat
 * @param {number} cell
 * @returns {Rgb | null}
 */
export function cellRgb(heat, cell) {
  const byte = heat.ratio[cell];
  if (byte === HEAT_EMPTY) return null;
  if (byte === HEAT_DEAD_END) return DEAD_END_RGB;
  const ratio = byte / heat.scale;
  return ratioRgb(heat.over[cell] ? Math.max(ratio, 1.3) : ratio);
}

/** @param {Rgb} rgb @param {number} [alpha] */
const css = (rgb, alpha = 1) => (alpha >= 1 ? `rgb(${rgb.join(",")})` : `rgba(${rgb.join(",")},${alpha})`);

/**
 * @typedef {{x: number, y: number, w: number, h: number}} Rect
 */

/**
 * Fill each cell with its colour (`alpha`: over the board's own drawing), hatch the overestimating
 * ones. `rectOf(cell)`: where the cell is on the canvas (CSS px), null when not drawn.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Heat} heat
 * @param {(cell: number) => Rect | null} rectOf
 * @param {{alpha?: number, inset?: number}} [how]  inset: px left free round each cell
 */
function drawHeatCells(ctx, heat, rectOf, { alpha = 1, inset = 0 } = {}) {
  ctx.save();
  for (let cell = 0; cell < heat.cells; cell++) {
    const rgb = cellRgb(heat, cell);
    if (!rgb) continue;
    const r = rectOf(cell);
    if (!r) continue;
    ctx.fillStyle = css(rgb, alpha);
    ctx.fillRect(r.x + inset, r.y + inset, r.w - 2 * inset, r.h - 2 * inset);
  }
  for (let cell = 0; cell < heat.cells; cell++) {
    const over = heat.over[cell];
    if (!over && !isUnder(heat, cell)) continue;
    const r = rectOf(cell);
    if (!r) continue;
    if (over) hatch(ctx, r.x + inset, r.y + inset, r.w - 2 * inset, r.h - 2 * inset);
    else stipple(ctx, r.x + inset, r.y + inset, r.w - 2 * inset, r.h - 2 * inset);
  }
  ctx.restore();
}

/**
 * Whether a cell's states all underestimate (h < h*, none over): its blue is told apart from h = h*'s
 * white, and from the hatched overestimates, also by dots (WCAG 1.4.1: not by colour alone).
 * @param {Heat} heat
 * @param {number} cell
 */
export function isUnder(heat, cell) {
  const byte = heat.ratio[cell];
  return byte < heat.scale && !heat.over[cell];
}

/**
 * Four dots near the corners of a rectangle (an underestimating cell; the middle stays free for the
 * board's own marks and numbers).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 */
export function stipple(ctx, x, y, w, h) {
  const size = Math.min(w, h);
  if (size < 8) return; // too small to dot: its colour says it
  const radius = Math.max(1, size * 0.05);
  ctx.save();
  ctx.beginPath();
  for (const [fx, fy] of [[0.13, 0.13], [0.87, 0.13], [0.13, 0.87], [0.87, 0.87]]) {
    const cx = x + fx * w, cy = y + fy * h;
    ctx.moveTo(cx + radius, cy);
    ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
  }
  ctx.fillStyle = STIPPLE;
  ctx.fill();
  ctx.restore();
}

/**
 * Diagonal hatching over a rectangle (an overestimating cell), with a dark outline when it is big
 * enough to take one.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {number} w
 * @param {number} h
 */
export function hatch(ctx, x, y, w, h) {
  const size = Math.min(w, h);
  if (size < 3) return; // too small to hatch: its colour says it
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  const step = Math.max(3, size / 3.2);
  ctx.beginPath();
  for (let d = -h; d < w; d += step) {
    ctx.moveTo(x + d, y + h);
    ctx.lineTo(x + d + h, y);
  }
  ctx.strokeStyle = HATCH;
  ctx.lineWidth = Math.max(1, size * 0.07);
  ctx.stroke();
  if (size >= 10) {
    ctx.lineWidth = Math.max(1.5, size * 0.08);
    ctx.strokeRect(x + ctx.lineWidth / 2, y + ctx.lineWidth / 2, w - ctx.lineWidth, h - ctx.lineWidth);
  }
  ctx.restore();
}

/**
 * The inconsistent moves as arrows between cell centres (`centreOf(cell)`, null when not drawn),
 * black with a white halo; `size`: a cell's size in px (the arrows' scale); `across`: drawn only
 * across the border between the two cells (tile puzzles: the numbers at the centres stay readable).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Heat} heat
 * @param {(cell: number) => [number, number] | null} centreOf
 * @param {number} size
 * @param {{across?: boolean}} [how]
 */
export function drawHeatArrows(ctx, heat, centreOf, size, { across = false } = {}) {
  if (!heat.moves.length || size < 2) return;
  const width = Math.max(1.2, Math.min(5, size * 0.09));
  const head = Math.max(4, Math.min(16, size * 0.3));
  ctx.save();
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  /** @type {Array<[boolean, string, number]>} */
  const passes = [[true, "#fff", 2.5], [false, ARROW, 0]];
  for (const [halo, color, extra] of passes) {
    for (const [from, to] of heat.moves) {
      const a = centreOf(from);
      const b = centreOf(to);
      if (!a || !b) continue;
      const dx = b[0] - a[0], dy = b[1] - a[1];
      const len = Math.hypot(dx, dy);
      if (len < 1) continue;
      const ux = dx / len, uy = dy / len;
      // `across`: only the middle of the way, over the border between the two cells (a tile's number
      // at each centre stays clear); else from near one centre to near the other.
      const trim = across ? len * 0.33 : Math.min(len * 0.2, size * 0.18);
      const x0 = a[0] + ux * trim, y0 = a[1] + uy * trim;
      const x1 = b[0] - ux * trim, y1 = b[1] - uy * trim;
      ctx.strokeStyle = color;
      ctx.fillStyle = color;
      ctx.lineWidth = width + extra;
      ctx.beginPath();
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1 - ux * head * 0.6, y1 - uy * head * 0.6);
      ctx.stroke();
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x1 - ux * head - uy * head * 0.5, y1 - uy * head + ux * head * 0.5);
      ctx.lineTo(x1 - ux * head + uy * head * 0.5, y1 - uy * head - ux * head * 0.5);
      ctx.closePath();
      if (halo) {
        ctx.lineWidth = extra;
        ctx.stroke();
      }
      ctx.fill();
    }
  }
  ctx.restore();
}

/**
 * The heat map over a board of square cells in rows (`cols` a row, the top-left cell's corner at
 * (x, y), `unit` px a cell): the colours (`alpha` over the board's own drawing, `inset` px left free
 * round each cell), the hatching and the arrows.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Heat} heat
 * @param {{x: number, y: number, unit: number, cols: number, alpha?: number, inset?: number}} at
 */
export function drawHeatGrid(ctx, heat, { x, y, unit, cols, alpha = 1, inset = 0 }) {
  drawHeatCells(ctx, heat, (cell) => ({ x: x + (cell % cols) * unit, y: y + Math.floor(cell / cols) * unit, w: unit, h: unit }), { alpha, inset });
  drawHeatArrows(ctx, heat, (cell) => [x + ((cell % cols) + 0.5) * unit, y + (Math.floor(cell / cols) + 0.5) * unit], unit);
}

/**
 * The heat map of a board of numbered tiles, in two passes that leave each tile and its
 * number readable: `behind` before the tiles are drawn (each cell's colour and hatching fill the
 * whole cell, so they show as a frame round a tile drawn smaller on top, and fill the blank's hole),
 * `over` after them (the inconsistent moves as short arrows across the borders between cells).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Heat} heat
 * @param {{x: number, y: number, unit: number, cols: number}} at
 * @param {"behind" | "over"} pass
 */
export function drawTileHeat(ctx, heat, { x, y, unit, cols }, pass) {
  if (pass === "behind") {
    drawHeatCells(ctx, heat, (cell) => ({ x: x + (cell % cols) * unit, y: y + Math.floor(cell / cols) * unit, w: unit, h: unit }), { inset: Math.max(1, unit * 0.02) });
  } else {
    drawHeatArrows(ctx, heat, (cell) => [x + ((cell % cols) + 0.5) * unit, y + (Math.floor(cell / cols) + 0.5) * unit], unit, { across: true });
  }
}

/**
 * The heat map of a board whose tiles must stay readable and fill their cells (drawn corridors): each cell's colour and hatching only in a band round its edge (`band`: of a cell's size),
 * the tile's middle left as drawn; then the inconsistent moves as arrows.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Heat} heat
 * @param {{x: number, y: number, unit: number, cols: number, band?: number}} at
 */
export function drawHeatFrames(ctx, heat, { x, y, unit, cols, band = 0.17 }) {
  const w = Math.max(2, unit * band);
  ctx.save();
  for (let cell = 0; cell < heat.cells; cell++) {
    const rgb = cellRgb(heat, cell);
    if (!rgb) continue;
    const cx = x + (cell % cols) * unit;
    const cy = y + Math.floor(cell / cols) * unit;
    ctx.save();
    ctx.beginPath();
    ctx.rect(cx, cy, unit, unit);
    ctx.rect(cx + w, cy + w, unit - 2 * w, unit - 2 * w);
    ctx.clip("evenodd"); // the band only
    ctx.fillStyle = css(rgb);
    ctx.fillRect(cx, cy, unit, unit);
    if (heat.over[cell]) hatch(ctx, cx, cy, unit, unit);
    else if (isUnder(heat, cell)) stipple(ctx, cx, cy, unit, unit);
    ctx.restore();
  }
  ctx.restore();
  drawHeatArrows(ctx, heat, (cell) => [x + ((cell % cols) + 0.5) * unit, y + (Math.floor(cell / cols) + 0.5) * unit], unit);
}

/** How much of a cell a tile keeps when a heat map frames it (drawTileHeat): its colour shows round it. */
export const TILE_IN_HEAT = 0.72;

/**
 * What a canvas publishes about the heat map it draws (tests read canvas.dataset): cells coloured,
 * cells hatched, arrows (and in data-heat-under the cells dotted).
 * @param {HTMLCanvasElement} canvas
 * @param {Heat | null} heat
 */
export function publishHeat(canvas, heat) {
  if (!heat) {
    delete canvas.dataset.heat;
    return;
  }
  let coloured = 0, over = 0, under = 0;
  for (let i = 0; i < heat.cells; i++) {
    if (heat.ratio[i] !== HEAT_EMPTY) coloured++;
    if (heat.over[i]) over++;
    else if (isUnder(heat, i)) under++;
  }
  canvas.dataset.heat = `${coloured} ${over} ${heat.moves.length}`;
  canvas.dataset.heatUnder = String(under); // cells dotted as underestimates
}
