// Zenji's panel beside the board (../move_replay.js solutionPanel): the solution (a notice when none
// was found, its own player — "Solution replay", tile by tile and then the water, apart from the
// search trace's player under the board — the list of turns, the totals). Shown once the search trace
// has been played to its end. Returns the root and the elements the view fills.

import { solutionPanel } from "../move_replay.js";

export function buildZenjiPanels() {
  return solutionPanel({
    title: "fam.zenji.replay_title",
    titleId: "replay-title",
    messageTestid: "zenji-message",
    listLabel: "fam.zenji.moves_label",
    what: "zenji_step",
    stats: {
      turns: { testid: "total-turns", label: "fam.zenji.stat_turns", def: "fam.zenji.stat_turns_def" },
      turnedTiles: { testid: "turned-tiles", label: "fam.zenji.stat_turned", def: "fam.zenji.stat_turned_def" },
      waterTiles: { testid: "water-tiles", label: "fam.zenji.stat_water", def: "fam.zenji.stat_water_def" },
    },
  });
}
