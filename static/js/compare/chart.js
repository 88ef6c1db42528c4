// The comparison's chart, drawn on a canvas of its own (no charting library: ≤ 4 lines over one shared
// x axis need little, and the page stays free of third-party code and inline styles): the frontier's
// size (top) and the states expanded (bottom) at each shared step k, one line per algorithm in its
// panel's colour. Lines are solid up to the timeline's position and faint beyond it; a search that
// ended before the last step ends in a dot (its expanded count then stays flat, dashed). Long runs are
// reduced to one point per pixel column, keeping each column's peak.

import { fitCanvasToParent } from "../canvas_size.js";
import { fmt, onLanguage, t } from "../i18n.js";

const INK = "#15171b";
const MUTED = "#565b63";
const GRID = "#e1ddd4";

/** 0, a round step, …: about `count` ticks covering [0, max]. */
function ticks(max, count) {
  if (max <= 0) return [0];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

/** "1.2M", "35k", "950" (German "1,2M"). */
function short(value) {
  if (value >= 1e6) return `${fmt(value / 1e6, value >= 1e7 ? 0 : 1, false)}M`;
  if (value >= 1e4) return `${Math.round(value / 1e3)}k`;
  return String(Math.round(value));
}

export class CompareChart {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.size = { width: 0, height: 0, dpr: 1 };
    this.series = [];
    this.xMax = 0;
    this.cursor = 0;
    this.cache = null; // per-series points for the present size and data
    this.pending = false;
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(canvas.parentElement);
    onLanguage(() => this.requestDraw()); // the titles and the axis in the new language
  }

  /** series: [{color, label, frontier: Int32Array (value at step k), steps, complete, finalFrontier}]. */
  setSeries(series, xMax) {
    this.series = series;
    this.xMax = Math.max(1, xMax);
    this.cache = null;
    this.requestDraw();
  }

  setCursor(k) {
    if (k === this.cursor) return;
    this.cursor = k;
    this.requestDraw();
  }

  resize() {
    if (!this.canvas.isConnected || this.canvas.parentElement.offsetWidth === 0) return;
    this.size = fitCanvasToParent(this.canvas);
    this.cache = null;
    this.drawNow();
  }

  requestDraw() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.drawNow());
  }

  /** The frontier line of one series: [k, value] pairs, at most about one per pixel column. */
  points(s, columns) {
    const values = s.frontier;
    const n = values.length;
    const out = [];
    const perColumn = this.xMax / columns;
    if (perColumn <= 2) {
      for (let k = 0; k < n; k++) out.push(k, values[k]);
    } else {
      for (let c = 0; c < columns; c++) {
        const k0 = Math.ceil(c * perColumn);
        if (k0 >= n) break;
        const k1 = Math.min(n, Math.ceil((c + 1) * perColumn));
        let peak = values[k0];
        let at = k0;
        for (let k = k0 + 1; k < k1; k++) if (values[k] > peak) { peak = values[k]; at = k; }
        out.push(at, peak);
      }
    }
    if (s.complete) out.push(s.steps, s.finalFrontier); // at its end: the frontier it left
    return out;
  }

  drawNow() {
    this.pending = false;
    const { width, height, dpr } = this.size;
    if (width < 40 || height < 40) return;
    const ctx = this.ctx;
    const em = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const font = Math.round(em * 0.78);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = `${font}px system-ui, sans-serif`;
    ctx.textBaseline = "middle";

    const left = Math.ceil(ctx.measureText("00000").width + font * 0.9);
    const right = Math.round(font * 1.6);
    const bottom = Math.round(font * 2.6);
    const gap = Math.round(font * 1.4);
    const top = Math.round(font * 0.6);
    const plotW = width - left - right;
    const plotH = (height - top - bottom - gap) / 2;
    if (plotW < 20 || plotH < 20) return;
    const x = (k) => left + (Math.min(k, this.xMax) / this.xMax) * plotW;
    if (!this.cache) this.cache = this.series.map((s) => this.points(s, Math.max(50, Math.floor(plotW))));

    const frontierMax = Math.max(1, ...this.series.flatMap((s, i) => {
      const pts = this.cache[i];
      let m = 0;
      for (let j = 1; j < pts.length; j += 2) if (pts[j] > m) m = pts[j];
      return [m];
    }));
    const expandedMax = Math.max(1, ...this.series.map((s) => s.steps));
    const plots = [
      { title: t("compare.chart_frontier"), y0: top, max: frontierMax, kind: "frontier" },
      { title: t("compare.chart_expanded"), y0: top + plotH + gap, max: expandedMax, kind: "expanded" },
    ];
    const cursorX = x(this.cursor);
    for (const plot of plots) {
      const yTicks = ticks(plot.max, 3);
      const yMax = Math.max(plot.max, yTicks[yTicks.length - 1]);
      const y = (v) => plot.y0 + plotH - (v / yMax) * plotH;
      // grid and y labels
      ctx.lineWidth = 1;
      ctx.strokeStyle = GRID;
      ctx.fillStyle = MUTED;
      ctx.textAlign = "right";
      for (const tick of yTicks) {
        const yy = Math.round(y(tick)) + 0.5;
        ctx.beginPath();
        ctx.moveTo(left, yy);
        ctx.lineTo(left + plotW, yy);
        ctx.stroke();
        ctx.fillText(short(tick), left - font * 0.4, yy);
      }
      ctx.strokeStyle = MUTED;
      ctx.strokeRect(left + 0.5, Math.round(plot.y0) + 0.5, plotW, Math.round(plotH));
      // the lines: faint beyond the cursor, solid up to it
      for (const pass of ["faint", "solid"]) {
        ctx.save();
        ctx.beginPath();
        if (pass === "solid") ctx.rect(left - 4, plot.y0 - 6, cursorX - left + 4.5, plotH + 12);
        else ctx.rect(cursorX, plot.y0 - 6, width, plotH + 12);
        ctx.clip();
        ctx.globalAlpha = pass === "solid" ? 1 : 0.28;
        this.series.forEach((s, i) => this.drawSeries(ctx, s, this.cache[i], plot.kind, x, y, font));
        ctx.restore();
      }
      // the title, inside the plot's top-left corner
      ctx.font = `600 ${font}px system-ui, sans-serif`;
      ctx.textAlign = "left";
      const titleW = ctx.measureText(plot.title).width;
      ctx.fillStyle = "rgba(255, 255, 255, 0.85)";
      ctx.fillRect(left + 4, plot.y0 + 3, titleW + 8, font * 1.4);
      ctx.fillStyle = INK;
      ctx.fillText(plot.title, left + 8, plot.y0 + 3 + font * 0.7);
      ctx.font = `${font}px system-ui, sans-serif`;
    }
    // x axis: steps (expansions), under the lower plot
    const base = top + 2 * plotH + gap;
    ctx.fillStyle = MUTED;
    ctx.textAlign = "center";
    for (const tick of ticks(this.xMax, Math.max(2, Math.floor(plotW / (font * 6))))) {
      ctx.fillText(short(tick), x(tick), base + font * 0.8);
    }
    ctx.textAlign = "right";
    ctx.fillText(t("compare.chart_x"), left + plotW, base + font * 1.9);
    // the cursor through both plots
    ctx.strokeStyle = INK;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(cursorX, top);
    ctx.lineTo(cursorX, base);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  drawSeries(ctx, s, pts, kind, x, y, font) {
    ctx.strokeStyle = s.color;
    ctx.fillStyle = s.color;
    ctx.lineWidth = 2.5;
    ctx.lineJoin = "round";
    let endX;
    let endY;
    if (kind === "frontier") {
      if (pts.length < 2) return;
      ctx.beginPath();
      ctx.moveTo(x(pts[0]), y(pts[1]));
      for (let j = 2; j < pts.length; j += 2) ctx.lineTo(x(pts[j]), y(pts[j + 1]));
      ctx.stroke();
      endX = x(pts[pts.length - 2]);
      endY = y(pts[pts.length - 1]);
    } else {
      ctx.beginPath();
      ctx.moveTo(x(0), y(0));
      ctx.lineTo(x(s.steps), y(s.steps));
      ctx.stroke();
      endX = x(s.steps);
      endY = y(s.steps);
      if (s.complete && s.steps < this.xMax) {
        ctx.setLineDash([5, 4]);
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(endX, endY);
        ctx.lineTo(x(this.xMax), endY);
        ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    if (s.complete) {
      ctx.beginPath();
      ctx.arc(endX, endY, Math.max(3.5, font * 0.33), 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}
