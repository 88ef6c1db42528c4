// The figures the page shows of a run, at the player's position: what the search has done up to the
// step shown (expanded, generated, frontier, the family's g/h/f) and, only once the playhead reaches
// the end, what it found (cost, path, verdict). The same figures, with the same words, go to the
// side panel (with a one-line definition each) and to the compact bar under the board (presentation
// mode, narrow screens). Family-agnostic: a view adds its own figures as {key, label, value, def}.

import { el } from "./dom.js";
import { number, setNumber } from "./format.js";
import { t } from "./i18n.js";

// The shell's own figures: the catalog keys of label and definition (the side panel shows both; the
// bar's tooltips too), read when the figures are written (in the page's language then).
const DEFINITIONS = {
  expanded: ["figures.expanded", "figures.expanded_def"],
  generated: ["figures.generated", "figures.generated_def"],
  frontier: ["figures.frontier", "figures.frontier_def"],
  maxFrontier: ["figures.max_frontier", "figures.max_frontier_def"],
  cost: ["figures.cost", "figures.cost_def"],
  pathLength: ["figures.path_length", "figures.path_length_def"],
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
    const why = typeof result.message === "string" && result.message ? result.message : t("figures.no_path");
    return { text: result.stopped ? t("figures.stopped", { why: result.stopped }) : why, tone: "bad" };
  }
  if (result.optimal_guaranteed) return { text: t("figures.optimal_guaranteed"), tone: "good" };
  const optimum = result.optimum;
  if (typeof optimum === "number") {
    if (result.cost <= optimum + 1e-9) return { text: t("figures.optimal_equal"), tone: "good" };
    return { text: t("figures.not_optimal", { cost: number(result.cost), optimum: number(optimum) }), tone: "bad" };
  }
  return { text: t("figures.not_guaranteed"), tone: "warn" };
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
    this.$("result-when").textContent = result && !atEnd ? t("figures.at_end") : "";
    this.$("playhead").textContent = playheadText(at);
    this.setViewFigures(at.viewFigures || []);

    const strip = [];
    if (at.total !== null || at.position > 0) {
      strip.push({ key: "step", label: t("figures.step"),
        value: t("figures.step_value", { position: number(at.position), total: number(at.total ?? at.received) }),
        def: t("figures.step_def") });
    }
    if (counts) {
      for (const key of ["expanded", "generated", "frontier"]) {
        strip.push({ key, label: t(DEFINITIONS[key][0]), value: number(counts[key]), def: t(DEFINITIONS[key][1]) });
      }
    }
    for (const f of at.viewFigures || []) strip.push({ ...f, value: number(f.value) });
    if (final?.found) strip.push({ key: "cost", label: t("figures.cost_short"), value: number(final.cost), def: t(DEFINITIONS.cost[1]) });
    if (final) {
      const verdict = verdictOf(final);
      strip.push({ key: "verdict", label: "", value: verdict.text, tone: verdict.tone });
    }
    this.setStrip(strip);
  }

  showVerdict(result, runText) {
    const key = result ? `${result.found}|${result.cost}|${result.optimum}|${runText}|${document.documentElement.lang}` : "";
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
  const of = total !== null ? number(total) : t("figures.received_so_far", { count: number(received) });
  const at = { position: number(position), total: of };
  if (atEnd) return t("figures.playhead_end", at);
  if (playing) {
    if (total === null && position >= received) return t("figures.playhead_waiting", { received: number(received) });
    return t("figures.playhead_playing", at);
  }
  return t("figures.playhead_paused", at);
}
