// The sliding-tile view's panel beside the board (../move_replay.js solutionPanel): the solution (a
// notice when none was found, its own replay move by move with the tiles sliding, the moves in words,
// the totals), shown once the search trace has been played to its end; in presentation mode its buttons
// in a bar above the board.

import { replayBar, solutionPanel } from "../move_replay.js";

export function buildSlidingPanels() {
  // Ids unique to this instance (a comparison may show several views; no module-level counter).
  const suffix = Math.random().toString(36).slice(2, 8);
  const parts = solutionPanel({
    title: "Solution (move by move)",
    titleId: `sliding-replay-title-${suffix}`,
    messageTestid: "sliding-message",
    listLabel: "The solution's moves",
    stats: {
      moves: { testid: "solution-moves", label: "Moves", def: "tiles slid, 1 each: the cost" },
      optimal: { testid: "optimal-moves", label: "Fewest possible", def: "the start's distance in the whole state space (8-puzzle)" },
      startH: { testid: "start-h", label: "h at the start", def: "the run's heuristic: never more than the fewest moves" },
    },
  });
  // Presentation mode hides the side panels: the same replay controls in a bar above the board.
  return { ...parts, ...replayBar() };
}
