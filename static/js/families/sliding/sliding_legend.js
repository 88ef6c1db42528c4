// The sliding-tile view's legend under the board: the tiles, and for the 8-puzzle the state space's
// marks (sliding_renderer.js draws them in these colours).

import { OKABE_ITO } from "../../colors.js";
import { legendItem as item, swatch } from "../../legend.js";

export function renderSlidingLegend(container, { space }) {
  const ring = (color) => {
    const node = swatch("transparent", "round");
    node.classList.add("sliding-ring");
    node.style.borderColor = color; // CSSOM: allowed by the strict CSP
    return node;
  };
  const items = [
    item("tile on its goal cell", swatch("#bfe6cf")),
    item("tile elsewhere", swatch("#f7f1e3")),
    item("blank", swatch("#4a505a")),
  ];
  if (space) {
    items.push(
      item("states not expanded", swatch("#aaa396")),
      item("expanded (a few → all of a bin)", swatch(OKABE_ITO.orange), swatch("#8f3500")),
      item("state being expanded", ring("#000")),
      item("start", ring(OKABE_ITO.blue)),
      item("goal", ring(OKABE_ITO.bluishGreen)),
      item("solution", swatch(OKABE_ITO.blue, "line")),
    );
  }
  container.replaceChildren(...items);
}
