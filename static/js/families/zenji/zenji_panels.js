// Zenji's panel beside the board, built with DOM calls: the solution (a notice when none was found,
// its own player — "Solution replay", tile by tile and then the water, apart from the search trace's
// player under the board — the list of turns, the totals). Shown once the search trace has been
// played to its end. Returns the root and the elements the view fills.

import { el } from "../../dom.js";

export function buildZenjiPanels() {
  const stat = (testid) => el("dd", { testid, class: "none", text: "—" });
  const parts = {
    message: el("p", { class: "notice", testid: "zenji-message", role: "status", hidden: true }),
    wait: el("p", {
      class: "hint", testid: "solution-wait", hidden: true,
      text: "The solution appears when the search trace reaches its end (the End key, or the last-step button under the board).",
    }),
    prev: el("button", { type: "button", testid: "replay-prev", title: "Previous step of the solution", text: "◀ Prev" }),
    play: el("button", { type: "button", class: "replay-play", testid: "replay-play", text: "▶ Play moves" }),
    next: el("button", { type: "button", testid: "replay-next", title: "Next step of the solution", text: "Next ▶" }),
    position: el("span", { class: "replay-position", testid: "replay-position" }),
    moves: el("ol", { class: "moves", testid: "moves", "aria-label": "The solution's turns, then the water" }),
    turns: stat("total-turns"),
    turnedTiles: stat("turned-tiles"),
    waterTiles: stat("water-tiles"),
  };
  parts.body = el("div", { class: "solution-body", hidden: true },
    el("div", { class: "replay", role: "group", "aria-labelledby": "replay-title" },
      parts.prev, parts.play, parts.next, parts.position),
    parts.moves,
    el("dl", { class: "stats" },
      el("div", { class: "stat" }, el("dt", { text: "Quarter turns" }), parts.turns,
        el("dd", { class: "def", text: "clockwise, 1 each: the cost" })),
      el("div", { class: "stat" }, el("dt", { text: "Tiles turned" }), parts.turnedTiles,
        el("dd", { class: "def", text: "tiles given at least one turn" })),
      el("div", { class: "stat" }, el("dt", { text: "Water's tiles" }), parts.waterTiles,
        el("dd", { class: "def", text: "tiles the water passes, source and drain included" }))),
  );
  parts.root = el("section", { class: "family-result" },
    el("h3", { id: "replay-title", testid: "replay-title", text: "Solution replay (turn by turn, then the water)" }),
    parts.message,
    parts.wait,
    parts.body,
  );
  return parts;
}
