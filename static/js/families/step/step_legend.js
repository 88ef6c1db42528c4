// The step-cycle maze's legend under the board: the maze's cells, a state's colours (as the grid's:
// frontier, expanded by g), the marks and layers, the solution's jumps.

import { COLORS, OKABE_ITO, rampCss } from "../../colors.js";
import { el } from "../../dom.js";
import { fmt } from "../../i18n.js";
import { swatch } from "../../legend.js";
import { item, itemLabelFirst } from "../words.js";

function ramp(max) {
  const bar = el("span", { class: "ramp" });
  const stops = Array.from({ length: 9 }, (_, i) => rampCss(i / 8)).join(",");
  bar.style.background = `linear-gradient(to right, ${stops})`; // CSSOM: allowed by the CSP
  return el("span", { class: "ramp-wrap" },
    el("span", { text: "0" }), bar, max > 0 ? el("span", { text: fmt(Math.round(max)) }) : el("span", { t: "fam.view.legend_max" }));
}

function letter(kind) {
  const node = swatch(kind === "start" ? COLORS.start : COLORS.goal, kind === "start" ? "marker" : ["marker", "round"].join(" "));
  node.textContent = kind === "start" ? "S" : "Z";
  return node;
}

/**
 * Fill `container`. options: {cycle: [k, …], backward, improves (updates can occur), scoreMax,
 * scoreKey (the catalog key of "Expanded, by …")}.
 */
export function renderStepLegend(container, {
  cycle = [1, 2, 3], backward = false, improves = true, scoreMax = 0, scoreKey = "fam.step.legend_by_g",
} = {}) {
  const unreached = swatch("#ffffff");
  const items = [
    item("fam.view.legend_start", undefined, letter("start")),
    item("fam.view.legend_goal", undefined, letter("goal")),
    item("fam.step.legend_marked", undefined, swatch(COLORS.free)),
    item("fam.step.legend_blank", undefined, swatch(COLORS.wall)),
    item("fam.step.legend_unreached", { cycle: cycle.join(", ") }, unreached),
    item("fam.view.legend_frontier", undefined, swatch(COLORS.open)),
    itemLabelFirst(scoreKey, undefined, ramp(scoreMax)),
    item("fam.view.legend_current", undefined, swatch("#fff", "current")),
  ];
  if (improves) items.push(item("fam.view.legend_improved", undefined, swatch(COLORS.update)));
  if (backward) {
    items.push(item("fam.view.legend_back_frontier", undefined, swatch(COLORS.openBack)),
      item("fam.view.legend_back_expanded", undefined, swatch(COLORS.closedBack)));
  }
  items.push(
    item("fam.step.legend_generated", undefined, swatch(COLORS.open, "line")),
    item("fam.step.legend_jump", undefined, swatch(COLORS.path, "line")),
    item("fam.view.legend_player", undefined, swatch(OKABE_ITO.orange, ["marker", "round"].join(" "))),
  );
  container.replaceChildren(...items);
}
