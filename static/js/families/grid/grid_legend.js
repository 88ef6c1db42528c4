// The grid maze's legend: what each colour and marker means, with the score ramp's range.

import { COLORS, rampCss } from "../../colors.js";
import { endpointMarker, legendItem as item, legendItemLabelFirst, swatch } from "../../legend.js";

function ramp(max) {
  const bar = document.createElement("span");
  bar.className = "ramp";
  const stops = Array.from({ length: 9 }, (_, i) => rampCss(i / 8)).join(",");
  bar.style.background = `linear-gradient(to right, ${stops})`;
  const wrap = document.createElement("span");
  wrap.className = "ramp-wrap";
  const low = document.createElement("span");
  low.textContent = "0";
  const high = document.createElement("span");
  high.textContent = max > 0 ? Math.round(max).toLocaleString("en-US") : "max";
  wrap.append(low, bar, high);
  return wrap;
}

/**
 * Fill `container`. options: {weighted, backward, scoreMax, scoreName, tiled}; `tiled`: a huge board
 * drawn from tiles, which show no improved g and no cell being expanded.
 */
export function renderGridLegend(container, { weighted = false, backward = false, scoreMax = 0, scoreName = "cost", tiled = false } = {}) {
  const items = [
    item("Start", endpointMarker("start")),
    item("Goal", endpointMarker("goal")),
    item("Wall", swatch(COLORS.wall)),
    item(weighted ? "Free, weight 1" : "Free", swatch(COLORS.free)),
  ];
  if (weighted) items.push(item("Weight 9", swatch(COLORS.heavy)));
  items.push(
    item("Frontier (waiting)", swatch(COLORS.open)),
    legendItemLabelFirst(`Expanded, by ${scoreName}`, ramp(scoreMax)),
  );
  if (!tiled) items.push(item("Improved (cheaper g)", swatch(COLORS.update)), item("Being expanded", swatch("#fff", "current")));
  if (backward) {
    items.push(item("Back frontier", swatch(COLORS.openBack)), item("Back expanded", swatch(COLORS.closedBack)));
  }
  items.push(item("Path", swatch(COLORS.path, "line")));
  container.replaceChildren(...items);
}
