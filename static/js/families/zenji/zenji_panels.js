// Zenji's panel beside the board (../move_replay.js solutionPanel): the solution (a notice when none
// was found, its own player — "Solution replay", tile by tile and then the water, apart from the
// search trace's player under the board — the list of turns, the totals). Shown once the search trace
// has been played to its end. Returns the root and the elements the view fills.

import { solutionPanel } from "../move_replay.js";

export function buildZenjiPanels() {
  return solutionPanel({
    title: "Solution replay (turn by turn, then the water)",
    titleId: "replay-title",
    messageTestid: "zenji-message",
    listLabel: "The solution's turns, then the water",
    what: "step of the solution",
    stats: {
      turns: { testid: "total-turns", label: "Quarter turns", def: "clockwise, 1 each: the cost" },
      turnedTiles: { testid: "turned-tiles", label: "Tiles turned", def: "tiles given at least one turn" },
      waterTiles: { testid: "water-tiles", label: "Water's tiles", def: "tiles the water passes, source and drain included" },
    },
  });
}
