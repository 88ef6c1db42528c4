// The figures the page shows of a run, at the player's position: what the search has done up to the
// step shown (expanded, generated, frontier, the family's g/h/f) and, only once the playhead reaches
// the end, what it found (cost, path, verdict). The same figures, with the same words, go to the
// side panel (with a one-line definition each) and to the compact bar under the board (presentation
// mode, narrow screens). Family-agnostic: a view adds its own figures as {key, label, value, def}.

import { el } from "./dom.js";
import { number, setNumber } from "./format.js";

// The shell's own figures: label, definition (the side panel shows both; the bar's tooltips too).
const DEFINITIONS = {
  expanded: ["Expanded", "states taken off the frontier so far"],
  generated: ["Generated", "put on the frontier, or back cheaper"],
  frontier: ["Frontier", "states waiting on the frontier now"],
  maxFrontier: ["Max frontier", "most on the frontier at once so far"],
  cost: ["Path cost", "the sum of the step costs on the path"],
  pathLength: ["Path length", "states on the path, start included"],
};

/**
 * The verdict on a found path, in words: {text, tone}. "optimal" when the algorithm guarantees it;
 * compared with `optimum` when the server computed it (small boards); "not guaranteed" otherwise.
 */
export function verdictOf(result) {
  // A checked solution (../lab/check_panel.js) carries the checker's own verdict.
  if (result.checked && typeof result.check_summary === "string") return { text: result.check_summary, tone: result.check_tone || "warn" };
  if (!result.found) {
    // The server's words on why, when it has them (e.g. a rule that walked in a loop).
    const why = typeof result.message === "string" && result.message ? result.message : "no path exists";
    return { text: result.stopped ? `stopped: ${result.stopped}` : why, tone: "bad" };
  }
  if (result.optimal_guaranteed) return { text: "optimal ✓ (guaranteed by the algorithm)", tone: "good" };
  const optimum = result.optimum;
  if (typeof optimum === "number") {
    if (result.cost <= optimum + 1e-9) return { text: "optimal ✓ (cost equals the optimum)", tone: "good" };
    return { text: `not optimal: cost ${number(result.cost)}, the optimum is ${number(optimum)}`, tone: "bad" };
  }
  return { text: "not guaranteed optimal ⚠ (this algorithm may miss the cheapest path)", tone: "warn" };
}

export class Figures {
  /**
   * @param {{$: (id: string) => HTMLElement}} args  the page's elements by id
   */
  constructor({ $ }) {
    this.$ = $;
    this.shown = new Map(); // element id -> the value it shows (skip unchanged DOM writes)
    this.viewKeys = ""; // the keys of the view's figures now in the panel
    this.viewCells = new Map(); // key -> its <dd>
    this.strip = $("figures");
    this.stripKeys = "";
    this.stripCells = new Map();
  }

  /** Nothing to show (a new puzzle, a new run). */
  reset() {
    for (const id of ["expanded", "generated", "frontier", "max-frontier", "cost", "path-length"]) this.set(id, null);
    const verdict = this.$("optimal");
    verdict.textContent = "";
    verdict.className = "verdict";
    verdict.removeAttribute("title");
    this.$("result-when").textContent = "";
    this.$("playhead").textContent = "";
    this.setViewFigures([]);
    this.setStrip([]);
    this.verdictKey = "";
  }

  set(id, value) {
    if (this.shown.has(id) && this.shown.get(id) === value) return;
    this.shown.set(id, value);
    setNumber(this.$(id), value);
  }

  /**
   * Show the run at the playhead. `at`: {counts, position, total, received, playing, atEnd,
   * viewFigures, result, runText, status} (see app.js).
   */
  update(at) {
    const { counts, result, atEnd } = at;
    this.set("expanded", counts ? counts.expanded : null);
    this.set("generated", counts ? counts.generated : null);
    this.set("frontier", counts ? counts.frontier : null);
    this.set("max-frontier", counts ? counts.maxFrontier : null);
    const final = atEnd && result ? result : null;
    this.set("cost", final?.found ? final.cost : null);
    this.set("path-length", final?.found ? final.path_length ?? final.path.length : null); // path_length: a tiled run sends no path
    this.showVerdict(final, at.runText);
    this.$("result-when").textContent = result && !atEnd ? "(shown at the end of the trace)" : "";
    this.$("playhead").textContent = playheadText(at);
    this.setViewFigures(at.viewFigures || []);

    const strip = [];
    if (at.total !== null || at.position > 0) {
      strip.push({ key: "step", label: "Step", value: `${number(at.position)} of ${number(at.total ?? at.received)}`,
        def: "records of the trace shown so far" });
    }
    if (counts) {
      for (const key of ["expanded", "generated", "frontier"]) {
        strip.push({ key, label: DEFINITIONS[key][0], value: number(counts[key]), def: DEFINITIONS[key][1] });
      }
    }
    for (const f of at.viewFigures || []) strip.push({ ...f, value: number(f.value) });
    if (final?.found) strip.push({ key: "cost", label: "Cost", value: number(final.cost), def: DEFINITIONS.cost[1] });
    if (final) {
      const verdict = verdictOf(final);
      strip.push({ key: "verdict", label: "", value: verdict.text, tone: verdict.tone });
    }
    this.setStrip(strip);
  }

  showVerdict(result, runText) {
    const key = result ? `${result.found}|${result.cost}|${result.optimum}|${runText}` : "";
    if (key === this.verdictKey) return;
    this.verdictKey = key;
    const verdict = this.$("optimal");
    if (!result) {
      verdict.textContent = "";
      verdict.className = "verdict";
      verdict.removeAttribute("title");
      return;
    }
    const { text, tone } = verdictOf(result);
    verdict.textContent = text;
    verdict.className = `verdict ${tone}`;
    verdict.title = runText || "";
  }

  /** The view's figures (g, h, f, …) as rows of the side panel, each with its definition. */
  setViewFigures(figures) {
    const keys = figures.map((f) => `${f.key}:${f.label}:${f.def}`).join("|");
    const list = this.$("view-figures");
    if (keys !== this.viewKeys) {
      this.viewKeys = keys;
      this.viewCells.clear();
      list.replaceChildren(...figures.map((f) => {
        const value = el("dd", { testid: `figure-${f.key}`, text: "—", class: "none" });
        this.viewCells.set(f.key, value);
        return el("div", { class: "stat" }, el("dt", { text: f.label }), value, el("dd", { class: "def", text: f.def || "" }));
      }));
      list.hidden = figures.length === 0;
    }
    for (const f of figures) {
      const cell = this.viewCells.get(f.key);
      const text = f.value === null || f.value === undefined ? "—" : number(f.value);
      if (cell.textContent !== text) {
        cell.textContent = text;
        cell.classList.toggle("none", text === "—");
      }
    }
  }

  /** The compact line of key figures under the board. */
  setStrip(items) {
    const keys = items.map((f) => `${f.key}:${f.label}`).join("|");
    if (keys !== this.stripKeys) {
      this.stripKeys = keys;
      this.stripCells.clear();
      this.strip.replaceChildren(...items.map((f) => {
        const value = el("b", { testid: `strip-${f.key}` });
        this.stripCells.set(f.key, value);
        return el("span", { class: `fig${f.tone ? ` verdict ${f.tone}` : ""}`, title: f.def || null },
          f.label ? el("span", { class: "fig-label", text: f.label }) : null, f.label ? " " : null, value);
      }));
      // Words apart in the text too (copy, screen readers), not only by the layout's gaps.
      for (const node of [...this.strip.children].slice(1)) node.before(" · ");
    }
    for (const f of items) {
      const cell = this.stripCells.get(f.key);
      if (cell.textContent !== f.value) cell.textContent = f.value;
    }
  }
}

/** "Playing step 174 of 757", "Paused at step 10 of 757", "At the end: step 757 of 757". */
function playheadText({ position, total, received, playing, atEnd, hasRun }) {
  if (!hasRun) return "";
  const of = total !== null ? number(total) : `${number(received)} received so far`;
  if (atEnd) return `At the end: step ${number(position)} of ${of}`;
  if (playing) {
    if (total === null && position >= received) return `Playing: waiting for steps (${number(received)} received)`;
    return `Playing step ${number(position)} of ${of}`;
  }
  return `Paused at step ${number(position)} of ${of}`;
}
