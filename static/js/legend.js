// The legend's building blocks (swatches, markers, labelled items); each family view composes its
// own legend from them (static/js/families/).

import { COLORS } from "./colors.js";
import { setText } from "./i18n.js";

export function swatch(color, shape = "square") {
  const node = document.createElement("span");
  node.className = `swatch ${shape}`;
  node.style.background = color; // CSSOM, not a style attribute: allowed by a strict CSP
  return node;
}

export function legendItem(label, ...marks) {
  const node = document.createElement("span");
  node.className = "legend-item";
  node.append(...marks, document.createTextNode(label));
  return node;
}

/** An item whose marks follow its label (e.g. a colour ramp with its range). */
export function legendItemLabelFirst(label, ...marks) {
  const node = legendItem(label, ...marks);
  node.append(...marks); // moves the marks after the text
  return node;
}

/** A lettered badge: "S" (start, square) or "G" (goal, round; "Z" for Ziel), the board's letters. */
export function endpointMarker(kind, round = kind !== "start") {
  const node = swatch(kind === "start" ? COLORS.start : COLORS.goal, ["marker", round ? "round" : ""].join(" ").trim());
  setText(node, kind === "start" ? "render.grid.start_letter" : "render.grid.goal_letter");
  return node;
}
