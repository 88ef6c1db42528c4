// The labyrinth's panels beside the board, built with DOM calls: the solution (a notice when none was
// found, the replay controls, the move list, its insertions and cells walked) and "Search at this
// point" (the trace player's position). Returns the root and the elements the view fills.

import { el } from "../../dom.js";

export function buildLabyrinthPanels() {
  const stat = (testid) => el("dd", { testid, class: "none", text: "—" });
  const parts = {
    message: el("p", { class: "notice", testid: "lab-message", role: "status", hidden: true }),
    prev: el("button", { type: "button", testid: "replay-prev", title: "Previous move", text: "◀ Prev" }),
    play: el("button", { type: "button", class: "replay-play", testid: "replay-play", text: "▶ Play" }),
    next: el("button", { type: "button", testid: "replay-next", title: "Next move", text: "Next ▶" }),
    position: el("span", { class: "replay-position", testid: "replay-position" }),
    moves: el("ol", { class: "moves", testid: "moves", "aria-label": "The solution's moves" }),
    insertions: stat("insertions"),
    walkedCells: stat("walked-cells"),
    expanded: stat("lab-expanded"),
    frontier: stat("lab-frontier"),
    depth: stat("lab-depth"),
  };
  parts.root = el("section", { class: "family-result" },
    el("h2", { text: "Solution" }),
    parts.message,
    el("div", { class: "replay", role: "group", "aria-label": "Replay the solution" },
      parts.prev, parts.play, parts.next, parts.position),
    parts.moves,
    el("dl", { class: "stats" },
      el("dt", { text: "Insertions" }), parts.insertions,
      el("dt", { text: "Cells walked" }), parts.walkedCells),
    el("h2", { text: "Search at this point" }),
    el("dl", { class: "stats" },
      el("dt", { text: "States expanded" }), parts.expanded,
      el("dt", { text: "In the frontier" }), parts.frontier,
      el("dt", { text: "g (moves so far)" }), parts.depth),
  );
  return parts;
}
