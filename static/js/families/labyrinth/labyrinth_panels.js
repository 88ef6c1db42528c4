// The labyrinth's panel beside the board (../move_replay.js solutionPanel): the solution (a notice
// when none was found, its own player — "Solution replay", move by move, apart from the search
// trace's player under the board — the move list, its insertions and cells walked). The solution is
// shown once the search trace has been played to its end. Returns the root and the elements the view
// fills.

import { solutionPanel } from "../move_replay.js";

export function buildLabyrinthPanels() {
  return solutionPanel({
    title: "fam.labyrinth.replay_title",
    titleId: "replay-title",
    messageTestid: "lab-message",
    listLabel: "fam.view.moves_label",
    stats: {
      insertions: { testid: "insertions", label: "fam.labyrinth.insertions", def: "fam.labyrinth.insertions_def" },
      walkedCells: { testid: "walked-cells", label: "fam.labyrinth.walked", def: "fam.labyrinth.walked_def" },
    },
  });
}
