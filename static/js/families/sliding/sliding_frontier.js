// Explain mode's frontier for sliding-tile puzzles, as small boards. The trace's cells are the blank's
// cells, so the explain panel (../../explain/) cannot rebuild the frontier from them; but every open
// record follows the close record of the state it was generated from, whose board rides with it (the
// snapshots): the child is that board with the blank moved to the record's cell. Replaying the trace up
// to the playhead this way gives every state on the frontier, its g (the record's value) and, from the
// board, its h; they are listed in the order the algorithm takes them (A*: f, then h, then first in;
// greedy: h; Dijkstra: g; BFS: first in). Shown in the view's own panel while explain mode is on.

import { el } from "../../dom.js";
import { KIND } from "../../timeline.js";
import { blankMovedTo } from "./sliding_board.js";

const MAX_RECORDS = 400_000; // past this the frontier is not rebuilt (a scan per redraw)
const SHOWN = 6;
const ORDERS = { astar: "f, then h", greedy: "h", dijkstra: "g", bfs: "first in, first out" };

/**
 * The frontier at `position`: its size and its first `count` states in the algorithm's order, each
 * {tiles, g, h, f}; or {why} when it cannot be told.
 * @param {{timeline, snapshots: {i: number, tiles: Uint8Array}[], start: Uint8Array, n: number,
 *   position: number, algorithm: string, weight: number, hOf: (tiles: Uint8Array) => number | null}} args
 */
export function frontierAt({ timeline, snapshots, start, n, position, algorithm, weight, hOf }) {
  if (!ORDERS[algorithm]) {
    return { why: algorithm === "idastar" || algorithm === "iddfs" || algorithm === "dfs"
      ? "This search keeps no frontier to rank: it goes depth first along one path." : "Not listed for this algorithm." };
  }
  if (position > MAX_RECORDS) return { why: `The frontier is listed for traces of up to ${MAX_RECORDS.toLocaleString("en-US")} steps.` };
  const { kinds, cells, values } = timeline;
  const open = new Map(); // key -> {tiles, g, order}
  let parent = start;
  let s = 0;
  for (let i = 0; i < position; i++) {
    const kind = kinds[i];
    if (kind === KIND.CLOSE) {
      while (s < snapshots.length && snapshots[s].i < i) s++;
      if (s >= snapshots.length || snapshots[s].i !== i) return { why: "The boards of some expansions were not sent (the server's cap)." };
      parent = snapshots[s].tiles;
      open.delete(parent.join(","));
    } else if (kind === KIND.OPEN || kind === KIND.UPDATE) {
      const child = blankMovedTo(parent, cells[i], n);
      if (!child) return { why: "The trace does not tell these boards." };
      const key = child.join(",");
      const seen = open.get(key);
      open.set(key, { tiles: child, g: values[i], order: seen && kind === KIND.UPDATE ? seen.order : i });
    } else if (kind !== KIND.PATH) {
      return { why: "Two frontiers (bidirectional search) are not listed here." };
    }
  }
  const states = [...open.values()];
  for (const state of states) {
    state.h = algorithm === "dijkstra" || algorithm === "bfs" ? null : hOf(state.tiles);
    state.f = state.h === null ? null : algorithm === "greedy" ? state.h : state.g + weight * state.h;
  }
  const by = {
    astar: (a, b) => a.f - b.f || a.h - b.h || a.order - b.order,
    greedy: (a, b) => a.h - b.h || a.order - b.order,
    dijkstra: (a, b) => a.g - b.g || a.order - b.order,
    bfs: (a, b) => a.order - b.order,
  }[algorithm];
  if ((algorithm === "astar" || algorithm === "greedy") && states.some((st) => st.h === null)) {
    return { why: "h of this heuristic is the server's: the frontier's order is not known here." };
  }
  states.sort(by);
  return { size: states.length, first: states.slice(0, SHOWN), order: ORDERS[algorithm] };
}

/** The panel: a title, a note, and a row of small boards. */
export function buildFrontierPanel() {
  const title = el("h3", { text: "Next on the frontier" });
  const note = el("p", { class: "hint", testid: "sliding-frontier-note" });
  const list = el("ol", { class: "sliding-frontier-list", testid: "sliding-frontier" });
  const root = el("section", { class: "sliding-frontier", testid: "sliding-frontier-panel", hidden: true }, title, note, list);
  return { root, note, list };
}

/** Fill the panel with `frontier` (frontierAt's answer). */
export function showFrontier(panel, frontier, { goal, n }) {
  if (frontier.why) {
    panel.note.textContent = frontier.why;
    panel.list.replaceChildren();
    return;
  }
  panel.note.textContent = `${frontier.size.toLocaleString("en-US")} states on the frontier; the first, by ${frontier.order}:`;
  panel.list.replaceChildren(...frontier.first.map((state) => {
    const figures = state.h === null ? `g ${state.g}` : `f ${fmt(state.f)} = g ${state.g} + h ${state.h}`;
    return el("li", { testid: "sliding-frontier-board" }, smallBoard(state.tiles, goal, n), el("span", { text: figures }));
  }));
}

const fmt = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

function smallBoard(tiles, goal, n) {
  const px = 16 * n; // CSS px
  const dpr = window.devicePixelRatio || 1;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(px * dpr);
  canvas.height = Math.round(px * dpr);
  canvas.className = `sliding-mini sliding-mini-${n}`;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", Array.from(tiles, (t) => (t ? String(t) : "_")).join(" "));
  const ctx = canvas.getContext("2d");
  ctx.scale(dpr, dpr);
  const unit = px / n;
  ctx.fillStyle = "#2b3037";
  ctx.fillRect(0, 0, px, px);
  ctx.font = `700 ${Math.round(unit * 0.62)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let cell = 0; cell < n * n; cell++) {
    const t = tiles[cell];
    if (!t) continue;
    const x = (cell % n) * unit;
    const y = Math.floor(cell / n) * unit;
    ctx.fillStyle = goal[cell] === t ? "#bfe6cf" : "#f7f1e3";
    ctx.fillRect(x + 0.75, y + 0.75, unit - 1.5, unit - 1.5);
    ctx.fillStyle = "#15171b";
    ctx.fillText(String(t), x + unit / 2, y + unit / 2 + 0.5);
  }
  return canvas;
}
