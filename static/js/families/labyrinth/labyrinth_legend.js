// The labyrinth's legend under the board.

import { COLORS, OKABE_ITO } from "../../colors.js";
import { endpointMarker, legendItem as item, swatch } from "../../legend.js";

export function renderLabyrinthLegend(container) {
  container.replaceChildren(
    item("Player", swatch(OKABE_ITO.orange, "marker round")),
    item("Start (below the board)", endpointMarker("start", false)),
    item("Goal (above the board)", endpointMarker("goal", false)),
    item("Insertion point", swatch("#5d636c", "arrow")),
    item("This move's push", swatch(OKABE_ITO.bluishGreen, "arrow")),
    item("Walk", swatch(COLORS.path, "line")),
  );
}
