// The step-cycle view's panels, built with DOM calls. Left (under the algorithm): what the board
// shows — the maze with a mark per phase, the state space as one layer per phase, or both. Right:
// the solution (a notice when none was found, its own replay move by move, the move list), shown once
// the search trace has been played to its end. Returns the roots and the elements the view fills.

import { el } from "../../dom.js";
import { replayBar, solutionPanel } from "../move_replay.js";

const MODE_LABELS = { both: "fam.step.mode_both", board: "fam.step.mode_board", layers: "fam.step.mode_layers" };

export function buildStepPanels() {
  // Ids unique to this instance (a comparison may show several views; no module-level counter).
  const suffix = Math.random().toString(36).slice(2, 8);
  const showTitle = `step-show-title-${suffix}`;
  const replayTitle = `step-replay-title-${suffix}`;
  const modeButton = (mode) => el("button", {
    type: "button", testid: `step-mode-${mode}`, "aria-pressed": "false", "data-mode": mode, t: MODE_LABELS[mode],
  });
  const modes = { both: modeButton("both"), board: modeButton("board"), layers: modeButton("layers") };
  const left = el("section", { class: "step-show" },
    el("h2", { id: showTitle, t: "fam.step.show" }),
    el("div", { class: "segmented", role: "group", "aria-labelledby": showTitle },
      modes.both, modes.board, modes.layers),
    el("p", {
      class: "hint", testid: "step-show-hint",
      t: "fam.step.show_hint",
    }),
  );

  const parts = solutionPanel({
    title: "fam.view.replay_title",
    titleId: replayTitle,
    messageTestid: "step-message",
    listLabel: "fam.view.moves_label",
  });
  parts.modes = modes;
  parts.left = left;
  // Presentation mode hides the side panels: the same replay controls in a bar above the board.
  return { ...parts, ...replayBar() };
}
