// The sliding-tile view's panel beside the board (../move_replay.js solutionPanel): the solution (a
// notice when none was found, its own replay move by move with the tiles sliding, the moves in words,
// the totals), shown once the search trace has been played to its end; in presentation mode its buttons
// in a bar above the board.

import { replayBar, solutionPanel } from "../move_replay.js";

export function buildSlidingPanels() {
  // Ids unique to this instance (a comparison may show several views; no module-level counter).
  const suffix = Math.random().toString(36).slice(2, 8);
  const parts = solutionPanel({
    title: "fam.view.replay_title",
    titleId: `sliding-replay-title-${suffix}`,
    messageTestid: "sliding-message",
    listLabel: "fam.view.moves_label",
    stats: {
      moves: { testid: "solution-moves", label: "fam.sliding.stat_moves", def: "fam.sliding.stat_moves_def" },
      optimal: { testid: "optimal-moves", label: "fam.sliding.stat_optimal", def: "fam.sliding.stat_optimal_def" },
      startH: { testid: "start-h", label: "fam.sliding.stat_start_h", def: "fam.sliding.stat_start_h_def" },
    },
  });
  // Presentation mode hides the side panels: the same replay controls in a bar above the board.
  return { ...parts, ...replayBar() };
}
