// The labyrinth's panel beside the board, built with DOM calls: the solution (a notice when none was
// found, its own player — "Solution replay", move by move, apart from the search trace's player under
// the board — the move list, its insertions and cells walked). The solution is shown once the search
// trace has been played to its end. Returns the root and the elements the view fills.

import { el } from "../../dom.js";

export function buildLabyrinthPanels() {
  const stat = (testid) => el("dd", { testid, class: "none", text: "—" });
  const parts = {
    message: el("p", { class: "notice", testid: "lab-message", role: "status", hidden: true }),
    wait: el("p", {
      class: "hint", testid: "solution-wait", hidden: true,
      text: "The solution appears when the search trace reaches its end (End key, or ⏭ under the board).",
    }),
    prev: el("button", { type: "button", testid: "replay-prev", title: "Previous move", text: "◀ Prev" }),
    play: el("button", { type: "button", class: "replay-play", testid: "replay-play", text: "▶ Play moves" }),
    next: el("button", { type: "button", testid: "replay-next", title: "Next move", text: "Next ▶" }),
    position: el("span", { class: "replay-position", testid: "replay-position" }),
    moves: el("ol", { class: "moves", testid: "moves", "aria-label": "The solution's moves" }),
    insertions: stat("insertions"),
    walkedCells: stat("walked-cells"),
  };
  parts.body = el("div", { class: "solution-body", hidden: true },
    el("div", { class: "replay", role: "group", "aria-labelledby": "replay-title" },
      parts.prev, parts.play, parts.next, parts.position),
    parts.moves,
    el("dl", { class: "stats" },
      el("div", { class: "stat" }, el("dt", { text: "Insertions" }), parts.insertions,
        el("dd", { class: "def", text: "free-tile pushes on the way" })),
      el("div", { class: "stat" }, el("dt", { text: "Cells walked" }), parts.walkedCells,
        el("dd", { class: "def", text: "tiles the player walks across" }))),
  );
  parts.root = el("section", { class: "family-result" },
    el("h3", { id: "replay-title", testid: "replay-title", text: "Solution replay (move by move)" }),
    parts.message,
    parts.wait,
    parts.body,
  );
  return parts;
}
