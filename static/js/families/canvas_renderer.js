// What every family's renderer shares: its canvas and 2d context, drawing only while the canvas is on
// the page (setActive, with a ResizeObserver on the board that holds it), sizing to that board at the
// screen's pixel density, one requestAnimationFrame at a time for draws, a timed animation loop, the
// caption over the board, and small drawing helpers. A family's renderer extends CanvasRenderer and
// draws its board in render(); it knows nothing of runs or the page: its view drives it.

import { fitCanvasToParent } from "../canvas_size.js";
import { BOARD_BACKGROUND } from "../colors.js";
import { reducedMotion } from "../motion.js";
import { onLanguage } from "../i18n.js";
import { publishHeat } from "./heat.js";

export const INK = "#15171b"; // captions and dark text on the canvas

/** Ease in and out over t in [0, 1]. */
export const ease = (t) => (t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t));
export const clamp01 = (t) => Math.max(0, Math.min(1, t));
export const lerp = (a, b, t) => a + (b - a) * t;
/** Relative lightness of an [r, g, b] colour (0..1): text on it picks black or white. */
export const lightness = ([r, g, b]) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;

/** A rounded rectangle as the current path (filled or stroked by the caller). */
export function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** Fill the current path with `color` and stroke its edge, `edge` px of `edgeColor`. */
export function fillEdged(ctx, color, edge, edgeColor = "#fff") {
  ctx.fillStyle = color;
  ctx.fill();
  ctx.lineWidth = edge;
  ctx.strokeStyle = edgeColor;
  ctx.stroke();
}

/** A board tile's square (s px, rounded, a thin gap all round) filled with `color`; returns the gap. */
export function drawTileSquare(ctx, x, y, s, color) {
  const gap = Math.max(1, s * 0.035);
  ctx.fillStyle = color;
  roundRect(ctx, x + gap, y + gap, s - 2 * gap, s - 2 * gap, s * 0.08);
  ctx.fill();
  return gap;
}

/**
 * A player's token: a disc of `color` edged in black (`edge` px wide) and ringed in white (`ring` px
 * wide, `gap` px out from the edge), as every family draws its player.
 */
export function drawToken(ctx, x, y, radius, color, { edge, gap, ring }) {
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, 2 * Math.PI);
  fillEdged(ctx, color, edge, "#000");
  ctx.beginPath();
  ctx.arc(x, y, radius + edge / 2 + gap, 0, 2 * Math.PI);
  ctx.lineWidth = ring;
  ctx.strokeStyle = "#fff";
  ctx.stroke();
}

/**
 * A filled shape edged in white (`edge` px): `points` [x, y] in a frame turned by `angle` about
 * (x, y) — an arrow pointing along the angle.
 */
export function drawTurnedShape(ctx, x, y, angle, points, color, edge) {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(angle);
  ctx.beginPath();
  ctx.moveTo(...points[0]);
  for (const point of points.slice(1)) ctx.lineTo(...point);
  ctx.closePath();
  fillEdged(ctx, color, edge);
  ctx.restore();
}

/** A label on a coloured rounded badge: `x` its left edge, `cy` its middle; white bold text of `font` px. */
export function drawLabel(ctx, x, cy, text, color, font, w, h) {
  ctx.fillStyle = color;
  roundRect(ctx, x, cy - h / 2, w, h, h * 0.3);
  ctx.fill();
  ctx.fillStyle = "#fff";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, x + w / 2, cy + 1);
}

export class CanvasRenderer {
  /** @param {HTMLCanvasElement} canvas the view's own canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.active = false; // drawing only while the canvas is on the page (setActive)
    this.size = { width: 1, height: 1, dpr: 1 }; // CSS px and the pixel density, from the last resize
    this.textScale = 1; // the page's large text makes the numbers drawn on the board larger too
    this.drawPending = false;
    this.anim = null; // the running animation: {start, ms, resolve, …} (animateFor)
    this.frame = 0; // its requestAnimationFrame
    this.resizeObserver = new ResizeObserver(() => this.active && this.resize());
    this.heat = null; // the heuristic lab's heat map (./heat.js), drawn by the family's render()
    onLanguage(() => this.requestDraw()); // the words drawn on the board (render.* keys) in the new language
  }

  /** The heuristic lab's heat map over the board, or null: the family's render() draws it. */
  setHeat(heat) {
    this.heat = heat;
    publishHeat(this.canvas, heat);
    this.requestDraw();
  }

  /** Start drawing (the canvas is on the page, in its board) or stop: no draws after this. */
  setActive(on) {
    if (on === this.active) return;
    this.active = on;
    if (on) {
      this.resizeObserver.observe(this.canvas.parentElement);
      this.resize();
    } else {
      this.resizeObserver.disconnect();
      this.finishAnimation();
      this.drawPending = false;
    }
  }

  /** The board's box changed: size the canvas to it and draw. */
  resize() {
    this.size = fitCanvasToParent(this.canvas);
    this.drawNow();
  }

  /** The page's rem in CSS px: the "large text" toggle enlarges the canvas's words too. */
  rem() {
    return parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  }

  // ---- drawing ---------------------------------------------------------------------------------

  /** Draw at the next animation frame (many requests in one frame draw once). */
  requestDraw() {
    if (this.drawPending || !this.active) return;
    this.drawPending = true;
    requestAnimationFrame(() => this.drawNow());
  }

  /** Draw now: the background, then the family's board (render). */
  drawNow() {
    this.drawPending = false;
    if (!this.active) return;
    const ctx = this.ctx;
    const { width, height, dpr } = this.size;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = BOARD_BACKGROUND;
    ctx.fillRect(0, 0, width, height);
    this.render();
  }

  /** Draw now (the name the views use). */
  draw() {
    this.drawNow();
  }

  /** The family's drawing over the background (only called while active). */
  render() {}

  /** A caption line over the board at (12, y): `px` bold, shrunk rather than run off the canvas. */
  drawCaption(text, px, y) {
    if (!text) return;
    const ctx = this.ctx;
    const room = this.size.width - 24;
    ctx.font = `650 ${px}px system-ui, sans-serif`;
    const wide = ctx.measureText(text).width;
    if (wide > room) {
      px = Math.max(10, Math.floor((px * room) / wide));
      ctx.font = `650 ${px}px system-ui, sans-serif`;
    }
    ctx.fillStyle = INK;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillText(text, 12, y);
  }

  // ---- animation -------------------------------------------------------------------------------

  get animating() {
    return this.anim !== null;
  }

  /**
   * Run `anim` (its own fields, and `ms`: how long it lasts) from now, a frame drawn each tick;
   * resolves when it ends or is cut short (finishAnimation). canvas.dataset.animating says which
   * (tests tell a running animation from a finished one).
   */
  animateFor(anim) {
    return new Promise((resolve) => {
      this.anim = { ...anim, start: performance.now(), resolve };
      this.canvas.dataset.animating = "1";
      // Under prefers-reduced-motion a move is shown at its end at once (nothing slides).
      if (reducedMotion()) this.finishAnimation();
      else this.tick();
    });
  }

  tick() {
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const anim = this.anim;
      if (!anim) return;
      if (performance.now() - anim.start >= anim.ms) {
        this.finishAnimation();
        return;
      }
      this.drawNow();
      this.tick();
    });
  }

  /** The running animation's progress in [0, 1], not eased (1 at rest). */
  animationT() {
    return this.anim ? clamp01((performance.now() - this.anim.start) / this.anim.ms) : 1;
  }

  /** Jump a running animation to its end. */
  finishAnimation() {
    const anim = this.anim;
    if (!anim) return;
    this.anim = null;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.animationEnded();
    this.settle();
    anim.resolve();
  }

  /** An animation ended: say so on the canvas. */
  animationEnded() {
    this.canvas.dataset.animating = "0";
  }

  /** Draw the board at rest after an animation. */
  settle() {
    this.drawNow();
  }
}
