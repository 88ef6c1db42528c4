// The legend under the board: what each colour and marker means, with the score ramp's range.

import { COLORS, rampCss } from "./colors.js";

function swatch(color, shape = "square") {
  const el = document.createElement("span");
  el.className = `swatch ${shape}`;
  el.style.background = color;
  return el;
}

function item(label, ...marks) {
  const el = document.createElement("span");
  el.className = "legend-item";
  el.append(...marks, document.createTextNode(label));
  return el;
}

function labelFirst(label, ...marks) {
  const el = item(label, ...marks);
  el.append(...marks); // moves the marks after the text
  return el;
}

function marker(kind) {
  const el = swatch(kind === "start" ? COLORS.start : COLORS.goal, kind === "start" ? "marker" : "marker round");
  el.textContent = kind === "start" ? "S" : "G";
  return el;
}

function ramp(max) {
  const el = document.createElement("span");
  el.className = "ramp";
  const stops = Array.from({ length: 9 }, (_, i) => rampCss(i / 8)).join(",");
  el.style.background = `linear-gradient(to right, ${stops})`;
  const wrap = document.createElement("span");
  wrap.className = "ramp-wrap";
  const low = document.createElement("span");
  low.textContent = "0";
  const high = document.createElement("span");
  high.textContent = max > 0 ? Math.round(max).toLocaleString("en-US") : "max";
  wrap.append(low, el, high);
  return wrap;
}

/**
 * Fill `container`. options: {weighted, backward, scoreMax, scoreName}.
 */
export function renderLegend(container, { weighted = false, backward = false, scoreMax = 0, scoreName = "cost" } = {}) {
  const items = [
    item("Start", marker("start")),
    item("Goal", marker("goal")),
    item("Wall", swatch(COLORS.wall)),
    item("Free", swatch(COLORS.free)),
  ];
  if (weighted) items.push(item("Weight 9", swatch(COLORS.heavy)));
  items.push(
    item("Frontier", swatch(COLORS.open)),
    labelFirst(`Expanded, by ${scoreName}`, ramp(scoreMax)),
    item("Improved", swatch(COLORS.update)),
    item("Current", swatch("#fff", "current")),
  );
  if (backward) {
    items.push(item("Back frontier", swatch(COLORS.openBack)), item("Back expanded", swatch(COLORS.closedBack)));
  }
  items.push(item("Path", swatch(COLORS.path, "line")));
  container.replaceChildren(...items);
}
