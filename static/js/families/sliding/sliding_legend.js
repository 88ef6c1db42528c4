// The sliding-tile view's legend under the board: the tiles, and for the 8-puzzle the state space's
// marks (sliding_renderer.js draws them in these colours).

import { COLORS, OKABE_ITO } from "../../colors.js";
import { swatch } from "../../legend.js";
import { item } from "../words.js";

export function renderSlidingLegend(container, { space }) {
  const ring = (color) => {
    const node = swatch("transparent", "round");
    node.classList.add("sliding-ring");
    node.style.borderColor = color; // CSSOM: allowed by the strict CSP
    return node;
  };
  const items = [
    item("fam.sliding.legend_home", undefined, swatch("#bfe6cf")),
    item("fam.sliding.legend_away", undefined, swatch("#f7f1e3")),
    item("fam.sliding.legend_blank", undefined, swatch("#4a505a")),
  ];
  if (space) {
    items.push(
      item("fam.sliding.legend_not_expanded", undefined, swatch(COLORS.spaceUnlit)),
      item("fam.sliding.legend_expanded", undefined, swatch(OKABE_ITO.orange), swatch("#8f3500")),
      item("fam.sliding.legend_current", undefined, ring("#000")),
      item("fam.sliding.legend_start", undefined, ring(OKABE_ITO.blue)),
      item("fam.sliding.legend_goal", undefined, ring(OKABE_ITO.bluishGreen)),
      item("fam.sliding.legend_solution", undefined, swatch(OKABE_ITO.blue, "line")),
    );
  }
  container.replaceChildren(...items);
}
