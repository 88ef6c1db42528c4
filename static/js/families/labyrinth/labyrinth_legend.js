// The labyrinth's legend under the board.

import { COLORS, OKABE_ITO } from "../../colors.js";
import { endpointMarker, swatch } from "../../legend.js";
import { item } from "../words.js";

export function renderLabyrinthLegend(container) {
  container.replaceChildren(
    item("fam.view.legend_player", undefined, swatch(OKABE_ITO.orange, ["marker", "round"].join(" "))),
    item("fam.labyrinth.legend_start", undefined, endpointMarker("start", false)),
    item("fam.labyrinth.legend_goal", undefined, endpointMarker("goal", false)),
    item("fam.labyrinth.legend_insertion", undefined, swatch("#5d636c", "arrow")),
    item("fam.labyrinth.legend_push", undefined, swatch(OKABE_ITO.bluishGreen, "arrow")),
    item("fam.labyrinth.legend_walk", undefined, swatch(COLORS.path, "line")),
  );
}
