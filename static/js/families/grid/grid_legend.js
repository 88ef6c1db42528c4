// The grid maze's legend: what each colour and marker means, with the score ramp's range.

import { COLORS, rampCss } from "../../colors.js";
import { fmt, setText } from "../../i18n.js";
import { endpointMarker, swatch } from "../../legend.js";
import { item, itemLabelFirst } from "../words.js";

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
  if (max > 0) high.textContent = fmt(Math.round(max));
  else setText(high, "fam.view.legend_max");
  wrap.append(low, bar, high);
  return wrap;
}

/**
 * Fill `container`. options: {weighted, backward, scoreMax, scoreKey, tiled}; `scoreKey`: the catalog
 * key of "Expanded, by …" (fam.grid.legend_by_*); `tiled`: a huge board drawn from tiles, which show
 * no improved g and no cell being expanded.
 */
export function renderGridLegend(container, { weighted = false, backward = false, scoreMax = 0, scoreKey = "fam.grid.legend_by_cost", tiled = false } = {}) {
  const items = [
    item("fam.view.legend_start", undefined, endpointMarker("start")),
    item("fam.view.legend_goal", undefined, endpointMarker("goal")),
    item("fam.grid.legend_wall", undefined, swatch(COLORS.wall)),
    item(weighted ? "fam.grid.legend_free_weight" : "fam.grid.legend_free", undefined, swatch(COLORS.free)),
  ];
  if (weighted) items.push(item("fam.grid.legend_weight9", undefined, swatch(COLORS.heavy)));
  items.push(
    item("fam.view.legend_frontier", undefined, swatch(COLORS.open)),
    itemLabelFirst(scoreKey, undefined, ramp(scoreMax)),
  );
  if (!tiled) {
    items.push(item("fam.view.legend_improved", undefined, swatch(COLORS.update)),
      item("fam.view.legend_current", undefined, swatch("#fff", "current")));
  }
  if (backward) {
    items.push(item("fam.view.legend_back_frontier", undefined, swatch(COLORS.openBack)),
      item("fam.view.legend_back_expanded", undefined, swatch(COLORS.closedBack)));
  }
  items.push(item("fam.grid.legend_path", undefined, swatch(COLORS.path, "line")));
  container.replaceChildren(...items);
}
