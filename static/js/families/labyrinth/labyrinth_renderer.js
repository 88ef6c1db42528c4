// Draws the shifting-tile labyrinth on the board's canvas: tiles with their corridors, the free tile
// beside the board, arrows at the insertion points, start below and goal above the board, the player;
// and animates one move (push, then walk). Knows nothing of runs or the page: the view drives it.

import { COLORS, OKABE_ITO } from "../../colors.js";
import { CanvasRenderer, INK, clamp01, drawLabel, drawTileSquare, drawToken, drawTurnedShape, ease, lerp, roundRect } from "../canvas_renderer.js";
import { lineCells, openSides, placeAfterPush, pushDirection } from "./labyrinth_board.js";
import { drawHeatFrames } from "../heat.js";
import { t } from "../../i18n.js";

const TILE = "#2b3037";
const CORRIDOR = "#f4efe3";
const ARROW = "#5d636c";
const ARROW_ACTIVE = OKABE_ITO.bluishGreen;
const PLAYER = OKABE_ITO.orange;
const TRAIL = COLORS.path;

// Layout in tile units around the R x C board.
const SIDE = 0.95; // left and right margins (row arrows)
const END = 1.05; // top and bottom margins (goal/start badges, column arrows, the player outside)
const FREE_GAP = 0.55; // between the right margin and the free tile
const CAPTION_PX = 34; // a line of text over everything
const MAX_UNIT = 150;

// Durations in ms at speed factor 1 (the slide is the part the eye follows).
const FLY_MS = 90;
const SLIDE_MS = 420;
const SETTLE_MS = 180;
const STEP_MS = 170;

export class LabyrinthRenderer extends CanvasRenderer {
  constructor(canvas) {
    super(canvas);
    this.puzzle = null; // {rows, cols, insertions, startCol, goalCol}
    this.scene = null; // {state, caption, lastMove}
  }

  setPuzzle({ rows, cols, insertions, start_col: startCol, goal_col: goalCol }) {
    this.finishAnimation();
    this.puzzle = { rows, cols, insertions: insertions || [], startCol, goalCol };
    this.scene = null;
    this.draw();
  }

  setEndpoints(startCol, goalCol) {
    if (!this.puzzle) return;
    this.puzzle.startCol = startCol;
    this.puzzle.goalCol = goalCol;
    this.draw();
  }

  /** Show a board state at rest; `lastMove` (optional) gets its arrow lit and its walk traced. */
  show(state, { caption = "", lastMove = null } = {}) {
    this.finishAnimation();
    this.scene = { state, caption, lastMove };
    this.draw();
  }

  /**
   * Animate `move` from state `from` to state `to`; `scale` stretches every duration (0 = jump).
   * Resolves when the animation ends or is cut short (finishAnimation / show).
   */
  animate(from, move, to, { scale = 1, caption = "" } = {}) {
    this.finishAnimation();
    const afterPush = placeAfterPush(move, to);
    const phases = [];
    if (move.push) {
      phases.push({ kind: "fly", ms: FLY_MS * scale }, { kind: "slide", ms: SLIDE_MS * scale },
        { kind: "settle", ms: SETTLE_MS * scale });
    }
    if (move.walk && move.walk.length > 1) phases.push({ kind: "walk", ms: STEP_MS * scale * (move.walk.length - 1) });
    this.scene = { state: to, caption, lastMove: move };
    if (scale <= 0 || !phases.length) {
      this.draw();
      return Promise.resolve();
    }
    const ms = phases.reduce((sum, p) => sum + p.ms, 0);
    return this.animateFor({ from, move, to, afterPush, phases, ms });
  }

  /** The running phase and its progress in [0, 1], or null at rest. */
  phaseNow() {
    const anim = this.anim;
    if (!anim) return null;
    let t = performance.now() - anim.start;
    for (const phase of anim.phases) {
      if (t < phase.ms) return { kind: phase.kind, t: clamp01(t / phase.ms) };
      t -= phase.ms;
    }
    return null;
  }

  // ---- geometry --------------------------------------------------------------------------------

  /** Tile size and the board's top-left corner (CSS px). */
  layout() {
    const { rows, cols } = this.puzzle;
    const { width, height } = this.size;
    const wUnits = SIDE + cols + SIDE + FREE_GAP + 1.2;
    const hUnits = END + rows + END;
    const pad = 10;
    const unit = Math.max(8, Math.min(MAX_UNIT, (width - 2 * pad) / wUnits, (height - CAPTION_PX - 2 * pad) / hUnits));
    const x0 = (width - wUnits * unit) / 2;
    const y0 = CAPTION_PX + (height - CAPTION_PX - hUnits * unit) / 2;
    return {
      unit,
      bx: x0 + SIDE * unit,
      by: y0 + END * unit,
      freeX: x0 + (SIDE + cols + SIDE + FREE_GAP) * unit,
      freeY: y0 + (END + Math.max(0, (rows - 1) / 2)) * unit,
    };
  }

  /** What is under a page point: {r, c} (a board tile), {free: true} (the free tile) or null. */
  tileAt(clientX, clientY) {
    if (!this.puzzle) return null;
    const L = this.layout();
    const rect = this.canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    const y = clientY - rect.top;
    if (x >= L.freeX && x < L.freeX + L.unit && y >= L.freeY && y < L.freeY + L.unit) return { free: true };
    const c = Math.floor((x - L.bx) / L.unit);
    const r = Math.floor((y - L.by) / L.unit);
    const { rows, cols } = this.puzzle;
    return r >= 0 && c >= 0 && r < rows && c < cols ? { r, c } : null;
  }

  /** Top-left of the tile at (r, c), fractional and outside the board allowed. */
  tileXY(L, r, c) {
    return [L.bx + c * L.unit, L.by + r * L.unit];
  }

  /** Centre of the player's place: a tile, or the spot below/above a column outside the board. */
  playerXY(L, r, c) {
    const { rows } = this.puzzle;
    const x = L.bx + (c + 0.5) * L.unit;
    if (r >= rows) return [x, L.by + rows * L.unit + 0.36 * L.unit];
    if (r < 0) return [x, L.by - 0.36 * L.unit];
    return [x, L.by + (r + 0.5) * L.unit];
  }

  // ---- drawing ---------------------------------------------------------------------------------

  render() {
    if (!this.puzzle || !this.scene) return;
    const L = this.layout();
    // Where the tiles are (CSS px from the canvas's corner): tests click them.
    Object.assign(this.canvas.dataset, {
      unit: String(L.unit), bx: String(L.bx), by: String(L.by), freeX: String(L.freeX), freeY: String(L.freeY),
    });
    const phase = this.phaseNow();
    const anim = this.anim;
    this.canvas.dataset.phase = phase ? phase.kind : "";
    const base = anim && phase && phase.kind !== "walk" ? anim.from : this.scene.state;
    const move = this.scene.lastMove;

    this.drawCaption(this.scene.caption, Math.round(this.rem() * 1.15), CAPTION_PX / 2 + 4);
    this.drawEndpoints(L);
    this.drawArrows(L, move?.push || null);
    this.drawFreeSlot(L);

    if (anim && phase && phase.kind !== "walk") this.drawPushFrame(L, anim, phase);
    else {
      this.drawBoard(L, base, null);
      // The heat map frames each tile (a band round its edge): the corridors stay readable.
      if (this.heat) drawHeatFrames(this.ctx, this.heat, { x: L.bx, y: L.by, unit: L.unit, cols: this.puzzle.cols });
      if (move?.push) this.markPushedIn(L, base, move.push);
      this.drawTile(L.freeX, L.freeY, L.unit, base.free);
      if (move?.walk) this.drawTrail(L, move.walk, phase?.kind === "walk" ? phase.t : 1);
      if (phase?.kind === "walk") this.drawPlayer(L, ...this.walkXY(L, move.walk, phase.t));
      else if (base.player) this.drawPlayer(L, ...this.restXY(L, base.player));
    }
  }

  /** Every tile, except those of `skipLine` (a push's line, drawn moving by the caller). */
  drawBoard(L, state, skipLine) {
    const { rows, cols } = this.puzzle;
    const ctx = this.ctx;
    ctx.fillStyle = "rgba(0,0,0,0.18)";
    ctx.fillRect(L.bx - 3, L.by - 3, cols * L.unit + 6, rows * L.unit + 6);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (skipLine && skipLine.has(r * cols + c)) continue;
        const [x, y] = this.tileXY(L, r, c);
        this.drawTile(x, y, L.unit, state.tiles[r * cols + c]);
      }
    }
  }

  /** One tile: a dark square with its corridors as thick light paths from the centre. */
  drawTile(x, y, s, code, marked = false) {
    const ctx = this.ctx;
    const gap = drawTileSquare(ctx, x, y, s, TILE);
    const [left, top, right, bottom] = openSides(code);
    const w = s * 0.36;
    const a = (s - w) / 2;
    ctx.fillStyle = CORRIDOR;
    if (left || top || right || bottom) ctx.fillRect(x + a, y + a, w, w);
    if (left) ctx.fillRect(x + gap, y + a, a - gap + 0.5, w);
    if (right) ctx.fillRect(x + a + w - 0.5, y + a, a - gap + 0.5, w);
    if (top) ctx.fillRect(x + a, y + gap, w, a - gap + 0.5);
    if (bottom) ctx.fillRect(x + a, y + a + w - 0.5, w, a - gap + 0.5);
    if (marked) {
      // The tile this move pushed in, outlined in the push's colour.
      ctx.lineWidth = Math.max(3, s * 0.06);
      ctx.strokeStyle = ARROW_ACTIVE;
      roundRect(ctx, x + gap + ctx.lineWidth / 2, y + gap + ctx.lineWidth / 2,
        s - 2 * gap - ctx.lineWidth, s - 2 * gap - ctx.lineWidth, s * 0.07);
      ctx.stroke();
    }
  }

  markPushedIn(L, state, push) {
    const { rows, cols } = this.puzzle;
    const [r, c] = lineCells(push, rows, cols)[0];
    const [x, y] = this.tileXY(L, r, c);
    this.drawTile(x, y, L.unit, state.tiles[r * cols + c], true);
  }

  drawFreeSlot(L) {
    const ctx = this.ctx;
    const s = L.unit;
    ctx.save();
    ctx.setLineDash([6, 5]);
    ctx.lineWidth = 2;
    ctx.strokeStyle = ARROW;
    ctx.strokeRect(L.freeX - 5, L.freeY - 5, s + 10, s + 10);
    ctx.restore();
    ctx.fillStyle = INK;
    const rem = this.rem();
    ctx.font = `600 ${Math.round(Math.max(rem, Math.min(rem * 1.3, s * 0.2)))}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "bottom";
    ctx.fillText(t("render.labyrinth.free_tile"), L.freeX + s / 2, L.freeY - 10);
  }

  /** Inward arrows outside the board at each insertion point; the current push's in colour. */
  drawArrows(L, active) {
    const { rows, cols, insertions } = this.puzzle;
    const s = L.unit;
    for (const ins of insertions) {
      const lit = active && active.axis === ins.axis && active.index === ins.index && active.side === ins.side;
      let x, y, angle;
      if (ins.axis === "row") {
        y = L.by + (ins.index + 0.5) * s;
        x = ins.side === "left" ? L.bx - 0.45 * s : L.bx + (cols + 0.45) * s;
        angle = ins.side === "left" ? 0 : Math.PI;
      } else {
        x = L.bx + (ins.index + 0.5) * s;
        // Column arrows sit close to the board, clear of the start/goal badges further out.
        y = ins.side === "top" ? L.by - 0.3 * s : L.by + (rows + 0.3) * s;
        angle = ins.side === "top" ? Math.PI / 2 : -Math.PI / 2;
      }
      this.drawArrow(x, y, angle, s * (lit ? 0.5 : 0.4), lit ? ARROW_ACTIVE : ARROW);
    }
  }

  drawArrow(x, y, angle, size, color) {
    const points = [[size * 0.5, 0], [-size * 0.45, -size * 0.5], [-size * 0.2, 0], [-size * 0.45, size * 0.5]];
    drawTurnedShape(this.ctx, x, y, angle, points, color, 1.5);
  }

  /** START below the start column, GOAL above the goal column, as labelled badges. */
  drawEndpoints(L) {
    const { rows, startCol, goalCol } = this.puzzle;
    const s = L.unit;
    this.drawBadge(L.bx + (startCol + 0.5) * s, L.by + (rows + 0.82) * s, t("render.labyrinth.start"), COLORS.start, s, "up");
    this.drawBadge(L.bx + (goalCol + 0.5) * s, L.by - 0.82 * s, t("render.labyrinth.goal"), COLORS.goal, s, "up");
  }

  drawBadge(cx, cy, text, color, s, pointing) {
    const ctx = this.ctx;
    const font = Math.round(Math.max(11, Math.min(20, s * 0.2)));
    ctx.font = `700 ${font}px system-ui, sans-serif`;
    // As wide as its words (small tiles on a phone must not cut "START ↑" off).
    const label = pointing === "up" ? `${text} ↑` : text;
    const w = ctx.measureText(label).width + font * 1.1;
    drawLabel(ctx, cx - w / 2, cy, label, color, font, w, font * 1.55);
  }

  /** A push mid-way: the line slides by one tile, the free tile comes in, the far tile goes out. */
  drawPushFrame(L, anim, phase) {
    const { rows, cols } = this.puzzle;
    const { from, move, afterPush } = anim;
    const push = move.push;
    const cells = lineCells(push, rows, cols);
    const [dr, dc] = pushDirection(push);
    const skip = new Set(cells.map(([r, c]) => r * cols + c));
    this.drawBoard(L, from, skip);
    const t = phase.kind === "fly" ? 0 : phase.kind === "slide" ? ease(phase.t) : 1;
    const s = L.unit;

    // The line's tiles, shifted by t along the push (the last one slides off the board).
    for (const [r, c] of cells) {
      const [x, y] = this.tileXY(L, r + dr * t, c + dc * t);
      this.drawTile(x, y, s, from.tiles[r * cols + c]);
    }
    // The tile going in: from the free slot to the arrow (fly), then into the line (slide).
    const [r0, c0] = cells[0];
    const [ex, ey] = this.tileXY(L, r0 - dr, c0 - dc); // outside, at the arrow
    if (phase.kind === "fly") {
      const k = ease(phase.t);
      this.drawTile(lerp(L.freeX, ex, k), lerp(L.freeY, ey, k), s, push.tile, true);
    } else {
      const [x, y] = this.tileXY(L, r0 - dr + dr * t, c0 - dc + dc * t);
      this.drawTile(x, y, s, push.tile, true);
    }
    // The tile that fell out glides to the free slot once the line has moved.
    const [rl, cl] = cells[cells.length - 1];
    if (phase.kind === "settle") {
      const [ox, oy] = this.tileXY(L, rl + dr, cl + dc);
      const k = ease(phase.t);
      this.drawTile(lerp(ox, L.freeX, k), lerp(oy, L.freeY, k), s, from.tiles[rl * cols + cl]);
    }
    this.drawPlayer(L, ...this.pushPlayerXY(L, from.player, afterPush, cells, [dr, dc], phase, t));
  }

  /** The player during a push: carried with the line, then (if their tile fell out) re-placed. */
  pushPlayerXY(L, before, after, cells, [dr, dc], phase, t) {
    const onLine = before.on === "board" && cells.some(([r, c]) => r === before.r && c === before.c);
    const [fx, fy] = this.restXY(L, before);
    if (!onLine) {
      return phase.kind === "settle" ? this.lerpXY(L, before, after, ease(phase.t)) : [fx, fy];
    }
    const [sx, sy] = this.playerXY(L, before.r + dr * t, before.c + dc * t);
    if (phase.kind !== "settle") return [sx, sy];
    const [tx, ty] = this.restXY(L, after);
    const k = ease(phase.t);
    return [lerp(sx, tx, k), lerp(sy, ty, k)];
  }

  lerpXY(L, a, b, k) {
    const [ax, ay] = this.restXY(L, a);
    const [bx, by] = this.restXY(L, b);
    return [lerp(ax, bx, k), lerp(ay, by, k)];
  }

  restXY(L, player) {
    return this.playerXY(L, player.r, player.c);
  }

  /** Position along the walk's polyline at progress t (equal time per step). */
  walkXY(L, walk, t) {
    const steps = walk.length - 1;
    const x = t * steps;
    const k = Math.min(steps - 1, Math.floor(x));
    const [ax, ay] = this.playerXY(L, walk[k][0], walk[k][1]);
    const [bx, by] = this.playerXY(L, walk[k + 1][0], walk[k + 1][1]);
    return [lerp(ax, bx, x - k), lerp(ay, by, x - k)];
  }

  /** The walked route, up to progress t, as a line through the cells' centres. */
  drawTrail(L, walk, t) {
    if (walk.length < 2) return;
    const ctx = this.ctx;
    const steps = walk.length - 1;
    const upto = t * steps;
    ctx.beginPath();
    const [x0, y0] = this.playerXY(L, walk[0][0], walk[0][1]);
    ctx.moveTo(x0, y0);
    for (let k = 1; k <= steps && k - 1 < upto; k++) {
      const [x, y] = k <= upto ? this.playerXY(L, walk[k][0], walk[k][1]) : this.walkXY(L, walk, t);
      ctx.lineTo(x, y);
    }
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.strokeStyle = TRAIL;
    ctx.globalAlpha = 0.85;
    ctx.lineWidth = Math.max(4, L.unit * 0.12);
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  drawPlayer(L, x, y) {
    const r = Math.max(8, L.unit * 0.22);
    drawToken(this.ctx, x, y, r, PLAYER, { edge: Math.max(3, r * 0.22), gap: 1.5, ring: 2.5 });
  }
}
