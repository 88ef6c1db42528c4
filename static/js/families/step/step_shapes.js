// The step-cycle view's drawing primitives: the start and goal letters, the frame of the
// state being expanded, a jump on the maze (an arc labelled with its length), a move between two
// layers, arrowheads. Functions of a 2D context and positions in CSS px; no state.

import { COLORS } from "../../colors.js";
import { INK, drawTurnedShape } from "../canvas_renderer.js";

/** The state being expanded: its cell framed in black on white. */
export function frameCell(ctx, x, y, u) {
  const inset = 1.5;
  ctx.lineWidth = 4;
  ctx.strokeStyle = "#fff";
  ctx.strokeRect(x + inset, y + inset, u - 2 * inset, u - 2 * inset);
  ctx.lineWidth = 2.5;
  ctx.strokeStyle = COLORS.current;
  ctx.strokeRect(x + inset, y + inset, u - 2 * inset, u - 2 * inset);
}

/** Tiny cells: the state being expanded as a ring of a readable size around cell (r, c). */
export function ringCell(ctx, x, y, u, r, c) {
  ctx.beginPath();
  ctx.arc(x + (c + 0.5) * u, y + (r + 0.5) * u, Math.max(7, u), 0, 2 * Math.PI);
  ctx.lineWidth = 4.5;
  ctx.strokeStyle = "#fff";
  ctx.stroke();
  ctx.lineWidth = 2.5;
  ctx.strokeStyle = COLORS.current;
  ctx.stroke();
}

/** "S" on a blue square, "Z" on a vermillion disc (the grid's start and goal markers). */
export function drawBadge(ctx, cx, cy, size, kind) {
  ctx.beginPath();
  if (kind === "start") ctx.rect(cx - size / 2, cy - size / 2, size, size);
  else ctx.arc(cx, cy, size / 2, 0, 2 * Math.PI);
  ctx.fillStyle = kind === "start" ? COLORS.start : COLORS.goal;
  ctx.fill();
  ctx.lineWidth = Math.max(1, size * 0.08);
  ctx.strokeStyle = "#000";
  ctx.stroke();
  if (size >= 9) {
    ctx.fillStyle = "#fff";
    ctx.font = `700 ${Math.round(size * 0.66)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(kind === "start" ? "S" : "Z", cx, cy + size * 0.04);
  }
}

/**
 * A jump from cell `from` to cell `to` of a board at {x, y, u} as a quadratic arc: its ends (a, b),
 * control point (c) and top (p), where the length is written.
 */
export function jumpGeometry(board, from, to) {
  const { x, y, u } = board;
  const ax = x + (from[1] + 0.5) * u;
  const ay = y + (from[0] + 0.5) * u;
  const bx = x + (to[1] + 0.5) * u;
  const by = y + (to[0] + 0.5) * u;
  const dr = Math.sign(to[0] - from[0]);
  const dc = Math.sign(to[1] - from[1]);
  const len = Math.max(Math.abs(to[0] - from[0]), Math.abs(to[1] - from[1]));
  // Each direction bulges to its own side (east up, west down, south right, north left), longer
  // jumps higher: a jump there and one back along the same line never hide each other.
  const [nx, ny] = dc > 0 ? [0, -1] : dc < 0 ? [0, 1] : dr > 0 ? [1, 0] : [-1, 0];
  const h = u * Math.min(0.48, 0.2 + 0.09 * len);
  const mx = (ax + bx) / 2;
  const my = (ay + by) / 2;
  return { u, ax, ay, bx, by, cx: mx + nx * 2 * h, cy: my + ny * 2 * h, px: mx + nx * h, py: my + ny * h };
}

/** The point at t in [0, 1] along a jump's arc. */
export function jumpPoint(g, t) {
  const x = (1 - t) * (1 - t) * g.ax + 2 * (1 - t) * t * g.cx + t * t * g.bx;
  const y = (1 - t) * (1 - t) * g.ay + 2 * (1 - t) * t * g.cy + t * t * g.by;
  return [x, y];
}

/** A jump on the board at {x, y, u}: an arc with an arrowhead, `label` (its length) in a disc at the top. */
export function drawJump(ctx, board, from, to, { color, width, dashed = false, alpha = 1, label = null, big = false }) {
  const g = jumpGeometry(board, from, to);
  const u = g.u;
  const w = Math.max(1.5, Math.min(width, u * 0.12));
  ctx.save();
  ctx.globalAlpha = alpha;
  curveArrow(ctx, [g.ax, g.ay], [g.cx, g.cy], [g.bx, g.by],
    { color, w, dashed, halo: "rgba(255,255,255,0.9)", haloWidth: 3, head: Math.max(7, w * 3) });
  if (label !== null && u >= 14) {
    const r = Math.max(7, Math.min(u * (big ? 0.24 : 0.19), 16));
    ctx.beginPath();
    ctx.arc(g.px, g.py, r, 0, 2 * Math.PI);
    ctx.fillStyle = "#fff";
    ctx.fill();
    ctx.lineWidth = big ? 2.5 : 1.8;
    ctx.strokeStyle = color;
    ctx.stroke();
    ctx.fillStyle = INK;
    ctx.font = `700 ${Math.round(r * 1.25)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(String(label), g.px, g.py + 0.5);
  }
  ctx.restore();
}

/** A move between two layers {x, y, u}: a line from the state's cell in one to the next state's in the other. */
export function drawLink(ctx, a, from, b, to, { color, width, dashed = false, alpha = 1 }) {
  const ax = a.x + (from[1] + 0.5) * a.u;
  const ay = a.y + (from[0] + 0.5) * a.u;
  const bx = b.x + (to[1] + 0.5) * b.u;
  const by = b.y + (to[0] + 0.5) * b.u;
  const w = Math.max(1.5, Math.min(width * 0.8, a.u * 0.14));
  // A slight bend, so links between the same two layers fan out rather than overlap.
  const dx = bx - ax;
  const dy = by - ay;
  const cx = (ax + bx) / 2 - dy * 0.12;
  const cy = (ay + by) / 2 + dx * 0.12;
  ctx.save();
  ctx.globalAlpha = alpha;
  curveArrow(ctx, [ax, ay], [cx, cy], [bx, by], {
    color, w, dashed, halo: w >= 2.5 ? "rgba(255,255,255,0.85)" : "rgba(255,255,255,0.4)", haloWidth: 2.5,
    head: Math.max(6, w * 3),
  });
  ctx.restore();
}

/**
 * A quadratic curve from a through control point c to b, `w` px wide in `color` over a white halo
 * (`haloWidth` px wider), with an arrowhead of `head` px at b.
 */
function curveArrow(ctx, [ax, ay], [cx, cy], [bx, by], { color, w, dashed, halo, haloWidth, head }) {
  ctx.lineCap = "round";
  const curve = new Path2D();
  curve.moveTo(ax, ay);
  curve.quadraticCurveTo(cx, cy, bx, by);
  if (dashed) ctx.setLineDash([w * 2.2, w * 1.8]);
  ctx.strokeStyle = halo;
  ctx.lineWidth = w + haloWidth;
  ctx.stroke(curve);
  ctx.strokeStyle = color;
  ctx.lineWidth = w;
  ctx.stroke(curve);
  ctx.setLineDash([]);
  arrowHead(ctx, bx, by, Math.atan2(by - cy, bx - cx), head, color);
}

/** A filled arrowhead with its tip at (x, y), pointing along `angle`. */
function arrowHead(ctx, x, y, angle, size, color) {
  const points = [[0, 0], [-size, -size * 0.55], [-size * 0.72, 0], [-size, size * 0.55]];
  drawTurnedShape(ctx, x, y, angle, points, color, 1.2);
}
