// Explain mode: beside the board, the running algorithm's pseudo-code (./listings.js) with the line the
// step at the playhead executed highlighted, what that step did in words, the state being expanded
// with its g, h and f, and the next states on the frontier in the order they would be expanded
// (./frontier.js rebuilds the frontier at any step from the trace). It follows the player both ways:
// everything is computed from the position, nothing from the history of moves.
//
// What it asks of the family view (FamilyView, ../families/family_view.js, has a default for each):
// stateLabel(cell) names a state, heuristicOf(cell) gives h under the shown run's heuristic (null:
// unknown), stepCost(from, to) a move's exact cost (null: unknown), tracedStates says whether a
// record's cell names its state (else the frontier cannot be rebuilt from the trace).

import { el } from "../dom.js";
import { number } from "../format.js";
import { onLanguage, t } from "../i18n.js";
import { KIND } from "../timeline.js";
import { frontierIndexOf } from "./frontier.js";
import { listingFor } from "./listings.js";

const NEXT_ROWS = 6; // states listed as next to expand
const PLAYING_EVERY_MS = 150; // while playing, the panel follows at most this often
const BACK_SCAN = 200_000; // records looked back at most for a state's earlier g

const OWN_CODE = "code"; // the hidden algorithm that replays a student's own search (../code/): no listing
const KIND_NAMES = ["open", "close", "update", "path", "open_back", "close_back", "update_back"];
/** What the code calls a state's cost so far: Lee's wave keeps `score` (steps), the others `g`. */
const gName = (listing) => (listing.frontier === "fifo" ? "score" : "g");
const isClose = (kind) => kind === KIND.CLOSE || kind === KIND.CLOSE_B;
const isPush = (kind) => kind === KIND.OPEN || kind === KIND.UPDATE || kind === KIND.OPEN_B || kind === KIND.UPDATE_B;

export class ExplainPanel {
  /** @param {{panel: HTMLElement, button: HTMLElement, timeline, onToggle: (on: boolean) => void}} args */
  constructor({ panel, button, timeline, onToggle }) {
    Object.assign(this, { panel, button, timeline, onToggle });
    this.on = false;
    this.listing = null; // the listing shown
    this.lineNodes = new Map(); // key -> its line element
    this.index = null; // the FrontierIndex of the run shown (./frontier.js: shared with Predict)
    this.updatedAt = -Infinity;
    this.last = null; // the arguments of the latest update (a toggle redraws with them)
    this.build();
    button.addEventListener("click", () => this.toggle());
    onLanguage(() => { if (this.on && this.last) this.render(this.last); });
  }

  build() {
    this.title = el("h2", { class: "explain-title", testid: "explain-title" });
    this.code = el("pre", { class: "explain-code", testid: "explain-code", tabindex: "0", tattr: { "aria-label": "explain.code_label" } });
    this.now = el("p", { class: "explain-now", testid: "explain-now", "aria-live": "polite" });
    this.current = el("p", { class: "explain-current", testid: "explain-current" });
    this.nextTitle = el("h3", { class: "explain-next-title" });
    this.nextBody = el("tbody");
    this.nextTable = el("table", { class: "explain-next", testid: "explain-next" }, this.nextBody);
    this.note = el("p", { class: "explain-note", testid: "explain-note" });
    const info = el("div", { class: "explain-info", tabindex: "0", role: "region", tattr: { "aria-label": "explain.info_label" } }, this.now, this.current, this.nextTitle, this.nextTable, this.note);
    this.panel.replaceChildren(this.title, this.code, info);
  }

  toggle(on = !this.on) {
    this.on = on;
    this.panel.hidden = !on;
    this.button.setAttribute("aria-pressed", String(on));
    document.documentElement.classList.toggle("explaining", on);
    if (on && this.last) this.render(this.last);
    this.onToggle?.(on);
  }

  /** The player moved, a frame arrived or the run changed: {view, run, position, playing}. */
  update(args) {
    this.last = args;
    if (!this.on) return;
    const now = performance.now();
    if (args.playing && now - this.updatedAt < PLAYING_EVERY_MS) return;
    this.updatedAt = now;
    this.render(args);
  }

  // ---- what to show --------------------------------------------------------------------------------

  render({ view, run, position }) {
    const listing = run ? listingFor(run.algorithm) : null;
    this.panel.dataset.position = String(position);
    this.panel.dataset.next = "";
    this.panel.dataset.current = "-1";
    this.panel.dataset.line = "";
    this.panel.dataset.skipped = "0";
    this.panel.dataset.kind = position > 0 ? KIND_NAMES[this.timeline.kinds[position - 1]] || "" : "";
    if (!run || !view) {
      this.showListing(null);
      this.title.textContent = t("explain.title");
      this.say(t("explain.idle"), "", null, "");
      return;
    }
    this.keys = this.keysOf(view);
    if (!listing && run.algorithm === OWN_CODE) {
      this.showListing(null);
      this.title.textContent = t("explain.own_title");
      this.say(this.ownStep(view, position), this.ownCurrent(view, position), null,
        t("explain.own_note"));
      return;
    }
    if (!listing) {
      this.showListing(null);
      this.title.textContent = run.text || run.algorithm;
      this.say(t("explain.no_code", { algorithm: run.algorithm }), "", null, "");
      return;
    }
    this.showListing(listing);
    this.title.textContent = t("explain.listing_title", { title: t(listing.title) });
    this.keys = this.keysOf(view);
    const frontier = this.frontierAt(listing, view, run, position); // first: it brings the index up to date
    const step = this.stepAt(listing, view, run, position);
    this.highlight(step.line, step.also);
    this.panel.dataset.line = step.line;
    this.say(step.text, this.currentText(listing, view, run, position), ...frontier);
    this.scrollToLine(step.line); // after the text below it took its room
  }

  showListing(listing) {
    if (listing === this.listing) return;
    this.listing = listing;
    this.lineNodes.clear();
    if (!listing) {
      this.code.replaceChildren();
      this.code.hidden = true;
      return;
    }
    this.code.hidden = false;
    const rows = listing.lines.map(([key, text], i) => {
      const node = el("span", { class: "line", "data-key": key || null },
        el("span", { class: "ln", text: String(i + 1), "aria-hidden": "true" }), text || " ");
      if (key) this.lineNodes.set(key, node);
      return node;
    });
    this.code.replaceChildren(...rows);
  }

  highlight(key, also = []) {
    for (const [name, node] of this.lineNodes) {
      node.classList.toggle("now", name === key);
      node.classList.toggle("also", also.includes(name));
      if (name === key) node.setAttribute("aria-current", "step");
      else node.removeAttribute("aria-current");
    }
  }

  /** Keep the highlighted line in sight within the code box (scrolling only the box, never the page). */
  scrollToLine(key) {
    const node = this.lineNodes.get(key);
    const box = this.code;
    if (!node || box.scrollHeight <= box.clientHeight) return;
    const top = node.offsetTop; // the box is the lines' offsetParent (position: relative)
    if (top < box.scrollTop || top + node.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    }
  }

  /** Fill the text parts: what the step did, the current state, the frontier rows and a note. */
  say(now, current, rows, note, heading = "") {
    this.now.textContent = now;
    this.current.textContent = current;
    this.current.hidden = !current;
    this.nextTitle.textContent = heading;
    this.nextTitle.hidden = !heading;
    this.nextBody.replaceChildren(...(rows || []));
    this.nextTable.hidden = !rows || !rows.length;
    this.note.textContent = note;
    this.note.hidden = !note;
  }

  label(view, cell) {
    if (cell < 0) return t("explain.off_board");
    return view.stateLabel(cell);
  }

  /** What names a record's state: the view's state numbers (FamilyView.stateIds), else the cells. */
  keysOf(view) {
    return view.stateIds()?.data ?? this.timeline.cells;
  }

  /** What the record at the playhead did, in a student's replayed run (no code of it to point at). */
  ownStep(view, position) {
    if (position === 0) return t("explain.own_start");
    const i = position - 1;
    const kind = this.timeline.kinds[i];
    const name = this.label(view, this.keys[i]);
    const g = number(this.timeline.values[i]);
    this.panel.dataset.current = isClose(kind) ? String(this.keys[i]) : "-1";
    if (isClose(kind)) return t("explain.own_close", { name, g });
    if (kind === KIND.OPEN) return t("explain.own_open", { name, g });
    if (kind === KIND.UPDATE) return t("explain.own_update", { name, g });
    if (kind === KIND.PATH) return t("explain.own_path", { name, g });
    return t("explain.own_other", { name, g });
  }

  /** The state a student's replayed run was expanding at the playhead. */
  ownCurrent(view, position) {
    const { kinds } = this.timeline;
    const cells = this.keys;
    for (let i = position - 1; i >= Math.max(0, position - BACK_SCAN); i--) {
      if (isClose(kinds[i])) return t("explain.own_current", { name: this.label(view, cells[i]) });
    }
    return "";
  }

  /** h of a state, or null: 0 for Dijkstra, the view's heuristic for greedy and A*. */
  hOf(listing, view, cell) {
    if (listing.mode === "dijkstra") return 0;
    if (listing.mode !== "greedy" && listing.mode !== "astar") return null;
    const h = view.heuristicOf(cell);
    return typeof h === "number" && Number.isFinite(h) ? h : null;
  }

  /** "g 5, h 7, f 12" (what the algorithm knows of a state). */
  figures(listing, view, run, cell, g) {
    const parts = [`${gName(listing)} ${number(g)}`];
    const h = this.hOf(listing, view, cell);
    if (h !== null && listing.mode !== "dijkstra") {
      const f = listing.mode === "greedy" ? h : g + (run.options?.weight ?? 1) * h;
      parts.push(`h ${number(h)}`, `f ${number(f)}`);
    }
    return parts.join(", ");
  }

  /** The line the record before `position` executed, and that step in words. */
  stepAt(listing, view, run, position) {
    const { kinds, values } = this.timeline;
    const cells = this.keys;
    const tl = this.timeline;
    if (position <= 0) {
      return { line: "def", text: t("explain.nothing_yet") };
    }
    const r = position - 1;
    const kind = kinds[r];
    const cell = cells[r];
    const g = values[r];
    const name = this.label(view, cell);
    const nextKind = r + 1 < tl.length ? kinds[r + 1] : -1;
    const closed = this.closedBefore(r);
    const backward = kind >= KIND.OPEN_B;
    const side = listing.frontier === "both" ? ` (${t(backward ? "explain.side_backward" : "explain.side_forward")})` : "";
    const gname = gName(listing);
    if (kind === KIND.PATH) {
      const first = r === 0 || kinds[r - 1] !== KIND.PATH;
      const end = position >= tl.length && tl.complete;
      const line = closed || listing.frontier === "path" || listing.frontier === "both" ? "path" : "path-start";
      const head = t(first ? "explain.path_found" : "explain.path_back", { name, gname, g: number(g) });
      return { line, text: end ? `${head} ${t("explain.search_over")}` : head };
    }
    if (listing.frontier === "walk") return this.walkStep(r, name, g, closed);
    if (isPush(kind)) {
      const start = !closed;
      const goal = nextKind === KIND.PATH;
      if (listing.frontier === "fifo" || listing.frontier === "lifo") {
        if (start) {
          return { line: "open-start", text: t(goal ? "explain.start_goal" : "explain.start_frontier", { name, gname }) };
        }
        if (goal) {
          return { line: "goal", text: t("explain.generated_goal", { name, gname, g: number(g) }) };
        }
        return { line: "open", text: t(listing.frontier === "fifo" ? "explain.generated_fifo" : "explain.generated_lifo", { name, gname, g: number(g) }) };
      }
      if (listing.frontier === "path") {
        if (g === 0) return { line: "open-start", text: t("explain.pass_start", { name }) };
        if (goal) return { line: "goal", text: t("explain.pass_goal", { name, g: number(g) }) };
        return { line: "open", text: t("explain.pass_open", { name, figures: this.figures(listing, view, run, cell, g) }) };
      }
      if (start) {
        const figures = this.figures(listing, view, run, cell, g);
        return { line: "open-start", text: t(backward ? "explain.start_backward" : "explain.start_heap", { name, side, figures }) };
      }
      if (kind === KIND.UPDATE || kind === KIND.UPDATE_B) {
        const before = this.earlierG(r, cell);
        const was = before === null ? "" : ` (${t("explain.had_g", { g: number(before) })})`;
        return { line: "push", text: t("explain.cheaper", { name, was, side, figures: this.figures(listing, view, run, cell, g) }) };
      }
      return { line: "push", text: t("explain.pushed", { name, side, figures: this.figures(listing, view, run, cell, g) }) };
    }
    if (isClose(kind)) {
      if (listing.frontier === "path") {
        return { line: "close", text: t("explain.pass_close", { name }) };
      }
      if (listing.frontier === "heap") {
        const skipped = this.index?.skipped.get(r) || 0;
        this.panel.dataset.skipped = String(skipped);
        const stale = skipped ? ` (${t("explain.stale_popped", { count: skipped })})` : "";
        const also = skipped ? ["pop", "stale"] : ["pop"];
        if (nextKind === KIND.PATH) {
          return { line: "goal", also, text: t("explain.heap_goal", { name, stale, figures: this.figures(listing, view, run, cell, g) }) };
        }
        return { line: "close", also, text: t("explain.heap_close", { name, stale, figures: this.figures(listing, view, run, cell, g) }) };
      }
      const from = listing.frontier === "fifo" ? t("explain.from_fifo") : listing.frontier === "lifo" ? t("explain.from_lifo") : t("explain.from_both", { side });
      return { line: "pop", text: t("explain.took", { name, from, gname, g: number(g) }) };
    }
    return { line: "def", text: "" };
  }

  /** A wall follower's record `r` in words: it keeps no frontier, it walks (and sees the cells beside it). */
  walkStep(r, name, g, closed) {
    const { kinds } = this.timeline;
    const cells = this.keys;
    const kind = kinds[r];
    if (isPush(kind)) {
      if (!closed) return { line: "open-start", text: t("explain.walk_start", { name }) };
      const stepsOn = r + 1 < this.timeline.length && isClose(kinds[r + 1]) && cells[r + 1] === cells[r];
      if (stepsOn) return { line: "close", text: t("explain.walk_back", { name, g: number(g) }) };
      return { line: "open", text: t("explain.walk_sees", { name }) };
    }
    const goal = r + 1 < this.timeline.length && kinds[r + 1] === KIND.PATH;
    if (goal) return { line: "goal", text: t("explain.walk_goal", { name, g: number(g) }) };
    return { line: "close", text: t("explain.walk_step", { name, g: number(g) }) };
  }

  /** Whether a close record comes before record `r` (the search is past putting the starts on). */
  closedBefore(r) {
    const index = this.index;
    if (index && index.mismatch < 0 && index.done >= r) return index.closesBefore(r) > 0;
    const kinds = this.timeline.kinds;
    for (let i = r - 1; i >= 0; i--) if (isClose(kinds[i])) return true;
    return false;
  }

  /** g of the push of `cell` before record `r`, or null. */
  earlierG(r, cell) {
    const { kinds, values } = this.timeline;
    const cells = this.keys;
    for (let i = r - 1; i >= Math.max(0, r - BACK_SCAN); i--) {
      if (cells[i] === cell && isPush(kinds[i])) return values[i];
    }
    return null;
  }

  /** The state being expanded (the last close at or before the playhead) in words. */
  currentText(listing, view, run, position) {
    const { kinds, values } = this.timeline;
    const cells = this.keys;
    if (listing.frontier === "path") {
      // IDA* and iterative deepening: the state the pass stands on is the top of the path.
      let closes = 0;
      let depth = 0;
      let top = -1;
      for (let i = position - 1; i >= Math.max(0, position - BACK_SCAN); i--) {
        const kind = kinds[i];
        if (isClose(kind)) closes++;
        else if (isPush(kind)) {
          if (closes > 0) closes--;
          else {
            if (top < 0) top = i;
            depth++;
            if (values[i] === 0) break; // the start of this pass
          }
        }
      }
      if (top < 0) return "";
      this.panel.dataset.current = String(cells[top]);
      return t("explain.pass_stands", { name: this.label(view, cells[top]), figures: this.figures(listing, view, run, cells[top], values[top]), count: depth });
    }
    for (let i = position - 1; i >= Math.max(0, position - BACK_SCAN); i--) {
      if (isClose(kinds[i])) {
        this.panel.dataset.current = String(cells[i]);
        const params = { name: this.label(view, cells[i]), figures: this.figures(listing, view, run, cells[i], values[i]) };
        return t(listing.frontier === "walk" ? "explain.walker_stands" : "explain.expanding", params);
      }
    }
    return t("explain.expanding_none");
  }

  /** [rows, note, heading]: the next states to expand, when the frontier can be rebuilt. */
  frontierAt(listing, view, run, position) {
    const discipline = listing.frontier;
    if (discipline !== "fifo" && discipline !== "lifo" && discipline !== "heap") {
      const why = t(discipline === "path" ? "explain.why_path" : discipline === "walk" ? "explain.why_walk" : "explain.why_both");
      this.index = null;
      return [null, why, ""];
    }
    // The rows name states: a trace of cells gets no list (Predict's takes cells: frontierIndexOf).
    const { index, why } = frontierIndexOf({ timeline: this.timeline, run, view });
    this.index = index;
    if (!index) return [null, (!view.tracedStates && view.frontierShownBy) || why, ""];
    const { rows, live, stale, staleFirst, exact, upTo } = index.at(position, NEXT_ROWS);
    const withH = discipline === "heap" && listing.mode !== "dijkstra" && index.ordered;
    const head = el("tr", {}, el("th", { text: "#" }), el("th", { t: "explain.col_state" }), el("th", { text: gName(listing) }),
      ...(withH ? [el("th", { text: "h" }), el("th", { text: "f" })] : []));
    const body = [head];
    let n = 0;
    const next = [];
    for (const row of rows) {
      if (!row.stale) next.push(row.cell);
      const figure = view.stateFigure(row.cell);
      const staleWord = row.stale ? ` ${t("explain.stale")}` : "";
      const name = this.label(view, row.cell) + staleWord;
      const cells = [
        el("td", { text: row.stale ? "–" : String(++n) }),
        figure ? el("td", { class: "explain-state-figure", title: name, "data-state": name }, figure, staleWord)
          : el("td", { text: name }),
        el("td", { text: number(row.g) }),
      ];
      if (withH) cells.push(el("td", { text: number(row.h) }), el("td", { text: number(row.f) }));
      body.push(el("tr", { class: row.stale ? "stale" : n === 1 ? "first" : null }, ...cells));
    }
    this.panel.dataset.next = next.join(",");
    const order = t(discipline === "fifo" ? "explain.order_fifo"
      : discipline === "lifo" ? "explain.order_lifo"
        : index.ordered ? "explain.order_heap" : "explain.order_generated");
    const heading = t("explain.next_heading", { order });
    const notes = [];
    if (!live) notes.push(t("explain.frontier_empty"));
    else {
      const states = t("explain.frontier_states", { count: live });
      notes.push(stale ? t("explain.frontier_stale", { states, stale: t("explain.stale_entries", { count: stale }) })
        : t("explain.frontier_line", { states }));
    }
    if (staleFirst) notes.push(t("explain.stale_first", { count: staleFirst }));
    if (discipline === "heap" && !index.ordered) notes.push(t("explain.no_h"));
    if (index.unnamed >= 0) {
      notes.push(t("explain.unnamed", { step: index.unnamed + 1 }));
    } else if (!exact && index.mismatch >= 0) {
      notes.push(t("explain.mismatch", { step: index.mismatch + 1 }));
    }
    if (upTo < position) notes.push(t("explain.on_way"));
    if (rows.length && !rows[0].stale && discipline !== "fifo" && live) notes.push(t("explain.may_first"));
    return [rows.length ? body : null, notes.join(" "), rows.length ? heading : ""];
  }
}
