// The step-cycle view's panels, built with DOM calls. Left (under the algorithm): what the board
// shows — the maze with a mark per phase, the state space as one layer per phase, or both. Right:
// the solution (a notice when none was found, its own replay move by move, the move list), shown once
// the search trace has been played to its end. Returns the roots and the elements the view fills.

import { el } from "../../dom.js";

export const MODE_LABELS = { both: "Maze + layers", board: "Maze", layers: "Layers" };

export function buildStepPanels() {
  // Ids unique to this instance (a comparison may show several views; no module-level counter).
  const suffix = Math.random().toString(36).slice(2, 8);
  const showTitle = `step-show-title-${suffix}`;
  const replayTitle = `step-replay-title-${suffix}`;
  const modeButton = (mode) => el("button", {
    type: "button", testid: `step-mode-${mode}`, "aria-pressed": "false", "data-mode": mode, text: MODE_LABELS[mode],
  });
  const modes = { both: modeButton("both"), board: modeButton("board"), layers: modeButton("layers") };
  const left = el("section", { class: "step-show" },
    el("h2", { id: showTitle, text: "Show" }),
    el("div", { class: "segmented", role: "group", "aria-labelledby": showTitle },
      modes.both, modes.board, modes.layers),
    el("p", {
      class: "hint", testid: "step-show-hint",
      text: "A state is a cell and a phase of the cycle: a mark in the maze, a cell of a layer. "
        + "Each move leads to the next layer.",
    }),
  );

  const parts = {
    modes,
    message: el("p", { class: "notice", testid: "step-message", role: "status", hidden: true }),
    wait: el("p", {
      class: "hint", testid: "solution-wait", hidden: true,
      text: "The solution appears when the search trace reaches its end (the End key, or the last-step button under the board).",
    }),
    prev: el("button", { type: "button", testid: "replay-prev", title: "Previous move", text: "◀ Prev" }),
    play: el("button", { type: "button", class: "replay-play", testid: "replay-play", text: "▶ Play moves" }),
    next: el("button", { type: "button", testid: "replay-next", title: "Next move", text: "Next ▶" }),
    position: el("span", { class: "replay-position", testid: "replay-position" }),
    moves: el("ol", { class: "moves", testid: "moves", "aria-label": "The solution's moves" }),
  };
  parts.body = el("div", { class: "solution-body", hidden: true },
    el("div", { class: "replay", role: "group", "aria-labelledby": replayTitle },
      parts.prev, parts.play, parts.next, parts.position),
    parts.moves,
  );
  parts.right = el("section", { class: "family-result" },
    el("h3", { id: replayTitle, testid: "replay-title", text: "Solution (move by move)" }),
    parts.message,
    parts.wait,
    parts.body,
  );
  parts.left = left;
  // Presentation mode hides the side panels: the same replay controls in a bar above the board.
  parts.bar = {
    prev: el("button", { type: "button", testid: "bar-replay-prev", title: "Previous move", text: "◀ Prev" }),
    play: el("button", { type: "button", class: "replay-play", testid: "bar-replay-play", text: "▶ Play moves" }),
    next: el("button", { type: "button", testid: "bar-replay-next", title: "Next move", text: "Next ▶" }),
    position: el("span", { class: "replay-position", testid: "bar-replay-position" }),
  };
  parts.banner = el("div", { class: "replay", role: "group", "aria-label": "Solution replay", testid: "bar-replay", hidden: true },
    el("strong", { text: "Solution replay" }), parts.bar.prev, parts.bar.play, parts.bar.next, parts.bar.position);
  return parts;
}
