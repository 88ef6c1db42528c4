// Zenji's legend under the board. The pipe icons are small canvases drawn by the renderer's own
// tile functions, so the legend shows exactly what the board does.

import { COLORS, rampCss } from "../../colors.js";
import { setAttr, t } from "../../i18n.js";
import { swatch } from "../../legend.js";
import { item, itemLabelFirst } from "../words.js";
import { drawArrows, drawDrain, drawPipes, drawTap, WATER } from "./zenji_renderer.js";

const ICON_PX = 22; // CSS px
const TILE = "#2b3037";

/** A small canvas with `paint(ctx, size)` drawn on it (size in CSS px); `label` a catalog key. */
function icon(paint, label) {
  const canvas = document.createElement("canvas");
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(ICON_PX * dpr);
  canvas.height = Math.round(ICON_PX * dpr);
  canvas.className = "legend-icon";
  canvas.style.width = `${ICON_PX}px`; // CSSOM: allowed by the strict CSP
  canvas.style.height = `${ICON_PX}px`;
  canvas.style.flex = "none";
  canvas.setAttribute("role", "img");
  setAttr(canvas, "aria-label", label);
  const ctx = canvas.getContext("2d");
  ctx.scale(dpr, dpr);
  paint(ctx, ICON_PX);
  return canvas;
}

/** A tile icon: [N, E, S, W] with its stubs and arrows; `extra` draws on top (centre at 0, 0). */
function tileIcon(sides, label, extra = null) {
  return icon((ctx, s) => {
    ctx.fillStyle = TILE;
    ctx.fillRect(0, 0, s, s);
    ctx.translate(s / 2, s / 2);
    drawPipes(ctx, s, sides, 0);
    drawArrows(ctx, s, sides);
    if (extra) extra(ctx, s);
  }, label);
}

function marker(kind) {
  return icon((ctx, s) => {
    const m = s * 0.32;
    const c = s / 2;
    if (kind === "none") {
      ctx.beginPath();
      ctx.arc(c, c, m * 0.85, 0, 2 * Math.PI);
      ctx.lineWidth = 2;
      ctx.strokeStyle = "#9aa0a8";
      ctx.stroke();
    } else if (kind === "open") {
      ctx.beginPath();
      ctx.arc(c, c, m, 0, 2 * Math.PI);
      ctx.fillStyle = COLORS.open;
      ctx.fill();
    } else if (kind === "current") {
      ctx.beginPath();
      ctx.arc(c, c, m * 1.1, 0, 2 * Math.PI);
      ctx.lineWidth = 3.5;
      ctx.strokeStyle = "#F0E442";
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(c, c, m * 1.1 + 2.5, 0, 2 * Math.PI);
      ctx.lineWidth = 1.2;
      ctx.strokeStyle = "#15171b";
      ctx.stroke();
    } else {
      ctx.fillStyle = rampCss(0.5);
      ctx.fillRect(c - m, c - m, 2 * m, 2 * m);
    }
  }, `fam.zenji.marker_${kind}`);
}

/** The four corners, clockwise from the top-left: rotations 0, 1, 2, 3. */
function cornersIcon() {
  return icon((ctx, s) => {
    ctx.fillStyle = TILE;
    ctx.fillRect(0, 0, s, s);
    ctx.fillStyle = "#fff";
    ctx.font = `700 ${Math.round(s * 0.36)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const a = s * 0.25;
    const b = s * 0.75;
    [[a, a], [b, a], [b, b], [a, b]].forEach(([x, y], rot) => ctx.fillText(String(rot), x, y + 0.5));
  }, "fam.zenji.icon_corners");
}

function ramp(max) {
  const bar = document.createElement("span");
  bar.className = "ramp";
  bar.style.width = "4rem";
  bar.style.background = `linear-gradient(to right, ${Array.from({ length: 9 }, (_, i) => rampCss(i / 8)).join(",")})`;
  const wrap = document.createElement("span");
  wrap.className = "ramp-wrap";
  const low = document.createElement("span");
  low.textContent = "0";
  const high = document.createElement("span");
  high.textContent = max > 0 ? String(max) : t("fam.view.legend_max");
  wrap.append(low, bar, high);
  return wrap;
}

/**
 * Fill `container`. options: {maxTurns (the top of the expanded markers' colour ramp), waves (BFS:
 * they are coloured by their wave instead)}.
 */
export function renderZenjiLegend(container, { maxTurns = 0, waves = false } = {}) {
  const items = [
    item("fam.zenji.legend_source", undefined, tileIcon([3, 2, 2, 3], "fam.zenji.icon_source", (ctx, s) => drawTap(ctx, 0, 0, s * 1.3))),
    item("fam.zenji.legend_drain", undefined, tileIcon([1, 4, 4, 1], "fam.zenji.icon_drain", (ctx, s) => drawDrain(ctx, 0, 0, s * 1.3))),
    item("fam.zenji.legend_inlet", undefined, tileIcon([0, 0, 0, 1], "fam.zenji.icon_inlet")),
    item("fam.zenji.legend_outlet", undefined, tileIcon([0, 1, 0, 0], "fam.zenji.icon_outlet")),
    item("fam.zenji.legend_corners", undefined, cornersIcon()),
    item("fam.zenji.legend_unreached", undefined, marker("none")),
    item("fam.zenji.legend_frontier", undefined, marker("open")),
    itemLabelFirst(waves ? "fam.zenji.legend_by_wave" : "fam.zenji.legend_by_turns", undefined, marker("closed"), ramp(maxTurns)),
    item("fam.view.legend_current", undefined, marker("current")),
    item("fam.zenji.legend_water", undefined, swatch(WATER, "line"), swatch("#1d5479")),
  ];
  container.replaceChildren(...items);
}
