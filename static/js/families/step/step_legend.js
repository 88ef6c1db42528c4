// The step-cycle maze's legend under the board: the maze's cells, a state's colours (as the grid's:
// frontier, expanded by g), the marks and layers, the solution's jumps.

import { COLORS, OKABE_ITO, rampCss } from "../../colors.js";
import { el } from "../../dom.js";
import { legendItem as item, legendItemLabelFirst, swatch } from "../../legend.js";

function ramp(max) {
  const bar = el("span", { class: "ramp" });
  const stops = Array.from({ length: 9 }, (_, i) => rampCss(i / 8)).join(",");
  bar.style.background = `linear-gradient(to right, ${stops})`; // CSSOM: allowed by the CSP
  return el("span", { class: "ramp-wrap" },
    el("span", { text: "0" }), bar, el("span", { text: max > 0 ? Math.round(max).toLocaleString("en-US") : "max" }));
}

function letter(kind) {
  const node = swatch(kind === "start" ? COLORS.start : COLORS.goal, kind === "start" ? "marker" : "marker round");
  node.textContent = kind === "start" ? "S" : "Z";
  return node;
}

/** Fill `container`. options: {cycle: [k, …], backward, improves (updates can occur), scoreMax, scoreName}. */
export function renderStepLegend(container, {
  cycle = [1, 2, 3], backward = false, improves = true, scoreMax = 0, scoreName = "g",
} = {}) {
  const unreached = swatch("#ffffff");
  const items = [
    item("Start", letter("start")),
    item("Goal", letter("goal")),
    item("Marked cell", swatch(COLORS.free)),
    item("Blank", swatch(COLORS.wall)),
    item(`Not reached (a mark per phase: next move ${cycle.join(", ")})`, unreached),
    item("Frontier (waiting)", swatch(COLORS.open)),
    legendItemLabelFirst(`Expanded, by ${scoreName}`, ramp(scoreMax)),
    item("Being expanded", swatch("#fff", "current")),
  ];
  if (improves) items.push(item("Improved (cheaper g)", swatch(COLORS.update)));
  if (backward) {
    items.push(item("Back frontier", swatch(COLORS.openBack)), item("Back expanded", swatch(COLORS.closedBack)));
  }
  items.push(
    item("Generated now", swatch(COLORS.open, "line")),
    item("Solution jump (its length)", swatch(COLORS.path, "line")),
    item("Player", swatch(OKABE_ITO.orange, "marker round")),
  );
  container.replaceChildren(...items);
}
