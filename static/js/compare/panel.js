// @ts-check
// One panel of the comparison: an algorithm, its own options, and a Stage (../stage/stage.js) — its
// own family view (one canvas), Timeline, Tally, Player, its socket run (slot "p0".."p3") and the
// index that maps the shared timeline's step k to this trace (the record index of its k-th
// expansion). The figures under the board are those at its position: expanded, generated, frontier
// and the family's playhead figures (g, h, f, …); a badge says when its search finished before the
// shared step.

import { el } from "../dom.js";
import { verdictOf } from "../figures.js";
import { number } from "../format.js";
import { setAttr, t } from "../i18n.js";
import { OptionsForm } from "../options_form.js";
import { panelBadge, runStatus } from "../stage/run_status.js";
import { Stage } from "../stage/stage.js";

let serials = 0; // element ids of each panel's controls stay unique on the page

/** The result in a few words for the panel's last line: "cost 108 · not optimal (optimum 52)". */
function shortVerdict(result) {
  const { text, tone } = verdictOf(result);
  if (!result.found) return { text, tone };
  const cost = number(result.cost);
  if (tone === "good") return { text: t("compare.short_optimal", { cost }), tone };
  if (typeof result.optimum === "number") return { text: t("compare.short_not_optimal", { cost, optimum: number(result.optimum) }), tone };
  return { text: t("compare.short_unsure", { cost }), tone };
}

/** The hidden algorithm that replays a student's run (docs/STUDENT.md): a choice once the page has one. */
export const CODE = "code";

/** Options that are rules of the puzzle (every algorithm uses them) are the comparison's, set once. */
export const isShared = (option) => option.stage !== "load" && !option.algorithms;
const isOwn = (option) => option.stage !== "load" && Array.isArray(option.algorithms);

export class ComparePanel {
  /**
   * @param {{color: string, clock: import("../playback/shared_clock.js").SharedClock, live: import("../live.js").RunSource,
   *          page: object, onSelection: () => void, onRemove: (panel: ComparePanel) => void,
   *          onRunEvent: (panel: ComparePanel) => void}} args
   *   page: {labelOf(name), sharedOption(name), setSharedOption(name, value), sharedValues(algorithm),
   *          showError(message), textScale(), codeRun(): the student's latest run {code, label, options} or null}
   */
  constructor({ color, clock, live, page, onSelection, onRemove, onRunEvent }) {
    this.serial = serials++;
    this.color = color;
    this.clock = clock;
    this.page = page;
    this.onSelection = onSelection;
    this.onRemove = onRemove;
    this.onRunEvent = onRunEvent;
    this.family = null;
    this.view = null; // the family view of the family chosen (its Stage shows the puzzle with it)
    this.shown = new Map(); // element -> text last written (skip unchanged DOM writes)
    this.figureKeys = "";
    this.build();
    // What the family view takes for "the player": the shared clock's state and pace. Its speed is
    // in records per second (the views time their animations by it), the clock's in expansions.
    const panel = this;
    const viewPlayer = {
      get playing() { return clock.playing; },
      get preset() { return clock.preset; },
      get speed() {
        const steps = panel.stage.steps.steps;
        const perStep = steps ? panel.stage.timeline.length / steps : 1;
        return clock.speed * Math.max(1, perStep);
      },
      pause: () => clock.pause(),
      play: () => clock.play(),
      toggle: () => clock.toggle(),
    };
    this.stage = new Stage({
      live, board: this.board, hosts: this.hosts, shell: this.viewShell(), viewPlayer, indexSteps: true,
      canvas: { testid: "panel-canvas", label: "compare.board" },
      // Four panels share the page's memory: each keeps a quarter of a single view's keyframes.
      keyframeBudget: 32 * 1024 * 1024,
      damaged: "compare.damaged", // a catalog key
      onRun: (event, run) => this.runEvent(event, run),
    });
  }

  get run() {
    return this.stage.run;
  }

  get entered() {
    return this.stage.entered;
  }

  get timeline() {
    return this.stage.timeline;
  }

  // ---- markup ------------------------------------------------------------------------------------

  build() {
    const id = `cmp${this.serial}`;
    this.select = el("select", { id: `${id}-algorithm`, testid: "panel-algorithm", tattr: { "aria-label": "compare.algorithm" } });
    this.select.addEventListener("change", () => this.selectionChanged());
    this.ownOptions = el("div", { class: "cmp-own" });
    this.removeButton = el("button", {
      type: "button", class: "cmp-remove", testid: "compare-remove", tattr: { title: "compare.remove_title", "aria-label": "compare.remove" }, text: "✕", on: { click: () => this.onRemove(this) },
    });
    this.number = el("span", { class: "cmp-number", "aria-hidden": "true" });
    this.badge = el("span", { class: "cmp-badge", testid: "panel-badge", hidden: true });
    this.busy = el("div", { class: "cmp-busy", testid: "panel-busy", hidden: true });
    this.hover = el("div", { class: "hover", hidden: true });
    this.empty = el("div", { class: "empty", t: "compare.empty" });
    this.board = el("div", { class: "cmp-board" }, this.busy, this.hover, this.empty);
    this.caption = el("p", { class: "cmp-caption", testid: "panel-caption" });
    this.figures = el("p", { class: "cmp-figures", testid: "panel-figures", "aria-live": "off" });
    this.counts = {};
    for (const key of ["expanded", "generated", "frontier"]) {
      this.counts[key] = el("b", { testid: `panel-${key}`, text: "—" });
      this.figures.append(el("span", { class: "fig" }, el("span", { class: "fig-label", t: `compare.fig.${key}` }), " ", this.counts[key]));
    }
    this.viewFigures = el("span", { class: "cmp-view-figures" });
    this.figures.append(this.viewFigures);
    this.result = el("span", { class: "cmp-result verdict", testid: "panel-result" });
    // The family view's own panels: of the one beside the figures, only a solution's replay buttons
    // show here, after the verdict (app.css; the board's caption tells each move); the others (the
    // grid's start & goal picking, which the comparison takes from the single view) stay off the page.
    this.hosts = {
      left: el("div"), right: el("div", { class: "cmp-extra", testid: "panel-extra" }), banner: el("div"),
      boardTools: el("div", { hidden: true }), // a panel does not edit: its view's editing tools stay off the page
    };
    this.root = el("article", { class: "cmp-panel", testid: "compare-panel" },
      el("div", { class: "cmp-head" }, this.number, this.select, this.ownOptions, this.removeButton),
      this.caption,
      this.board,
      el("div", { class: "cmp-under" }, this.figures, el("div", { class: "cmp-outcome" }, this.badge, this.result, this.hosts.right)),
    );
    this.root.style.setProperty("--c", this.color); // CSSOM: allowed by the strict CSP
    this.form = new OptionsForm({
      section: el("section"), title: el("span"), body: el("div"), shared: this.ownOptions,
      onChange: () => this.selectionChanged(), idPrefix: `${id}-option`, testidPrefix: "panel-option",
    });
  }

  /** The panel's place (1-based) and whether it may be removed. */
  setPlace(index, removable) {
    this.index = index;
    this.number.textContent = String(index + 1);
    setAttr(this.select, "aria-label", "compare.algorithm_n", { n: index + 1 });
    this.removeButton.disabled = !removable;
  }

  get algorithm() {
    return this.select.value;
  }

  // ---- family and puzzle -------------------------------------------------------------------------

  /** Use `family` (its schema entry) and its view class; `names`: its algorithms; `wanted`: the choice. */
  setFamily(family, View, names, wanted) {
    const current = this.select.value;
    if (!this.family || this.family.name !== family.name) {
      this.leave();
      this.family = family;
      const layout = View.formLayout || {};
      this.form.build({ ...family, options: family.options.filter(isOwn) }, { own: [], shared: layout.shared || [] });
      this.view = this.stage.viewFor(family.name);
    }
    this.select.replaceChildren(...names.map((name) => new Option(this.page.labelOf(name), name)));
    const choice = [current, wanted].find((name) => name && names.includes(name)) || names[0] || "";
    this.select.value = choice;
    this.form.showFor(choice);
  }

  /**
   * The page's language changed and the server's words came again (`family`: its schema entry in the
   * new language): the menu's labels, the options form (choices kept), the run's words, the figures.
   * @param {any} family
   * @param {number} k the shared step shown
   * @param {string} staleText
   */
  languageChanged(family, k, staleText) {
    for (const option of this.select.options) option.text = this.page.labelOf(option.value);
    if (family && this.family?.name === family.name) {
      this.family = family;
      this.form.relabel({ ...family, options: family.options.filter(isOwn) }, this.algorithm);
    }
    const run = this.run;
    if (run && run.algorithm !== CODE && run.slot !== "replay") run.text = this.describe(run.algorithm, run.options);
    this.figureKeys = ""; // the family's figure labels again
    this.render(k, staleText);
  }

  /** What the family view may ask of its surroundings (see app.js's shell). */
  viewShell() {
    return {
      option: (name) => this.page.sharedOption(name),
      setOption: (name, value) => this.page.setSharedOption(name, value),
      showError: (message) => this.page.showError(message),
      setBusy: (text) => this.setBusy(text),
      setHover: (text) => {
        this.hover.textContent = text;
        this.hover.hidden = !text;
      },
      toolsWidth: () => 0,
      optionsChanged: () => {},
      textScale: () => this.page.textScale(),
      // A panel does not edit its board (the single view does): the editor's calls do nothing here.
      edit: () => {},
      remember: () => {},
      historyButtons: () => [],
      reread: () => {}, // a panel shows the page's puzzle: reading it again is the page's
    };
  }

  /** Show a puzzle (`data`: what the family view's prepare() gave; shared by every panel). */
  enter(info, data) {
    this.empty.hidden = true;
    this.form.applyPuzzle(info.options);
    this.stage.show(info, data, this.view);
    this.render(0);
  }

  /** Stop drawing (the comparison closes, the panel goes, another family comes). */
  leave() {
    this.stage.leave();
    this.setBusy(null);
  }

  /** A form control changed: `name`'s new value; the view adjusts others (grid: diagonal → octile). */
  sharedOptionChanged(name, value, sharedForm) {
    if (!this.entered) return;
    const form = {
      get: (n) => (this.form.has(n) ? this.form.get(n) : sharedForm.get(n)),
      set: (n, v) => (this.form.has(n) ? this.form.set(n, v) : sharedForm.set(n, v)),
    };
    this.view.optionChanged(name, value, form);
  }

  selectionChanged() {
    this.form.showFor(this.algorithm);
    this.onSelection();
  }

  /**
   * The run options this panel would send: the comparison's rules and its own options (for "Your
   * code", the page's latest run of it: the run option `code` that replays it, under the rules its
   * states were numbered by, whatever the comparison's).
   */
  options() {
    const options = { ...this.page.sharedValues(this.algorithm), ...this.form.values(this.algorithm) };
    const run = this.algorithm === CODE ? this.page.codeRun() : null;
    return run?.code ? { ...options, ...(run.options || {}), code: run.code } : options;
  }

  /** "A* · manhattan heuristic, weight 1 · 4 directions". */
  describe(algorithm, options) {
    const rest = this.entered ? this.view.describeRun(algorithm, options) || "" : "";
    return rest ? `${this.page.labelOf(algorithm)} · ${rest}` : this.page.labelOf(algorithm);
  }

  signature() {
    return JSON.stringify([this.algorithm, this.options()]);
  }

  // ---- the run -----------------------------------------------------------------------------------

  /** Start this panel's search in `slot`: the comparison's Run. */
  start(slot, puzzle, options) {
    const algorithm = this.algorithm;
    this.stage.start({
      puzzle, algorithm, options, slot, text: this.describe(algorithm, options), signature: this.signature(),
    });
  }

  cancel() {
    this.stage.cancel();
    this.setBusy(null);
  }

  /** The socket closed: a search still going fails. */
  connectionLost() {
    this.stage.connectionLost(t("compare.connection_lost"));
  }

  /** What the panel shows at each step of its run (../stage/run.js): its spinner until records arrive. */
  runEvent(event, run) {
    const waiting = (event === "started" || event === "status") && (run.state === "starting" || run.state === "searching");
    this.setBusy(waiting ? runStatus(run).text : null); // else records arrived, or it ended
    if (event !== "started") this.onRunEvent(this);
  }

  /** Every record of the run is here (or it failed, or was stopped: what arrived is all there is). */
  get complete() {
    return this.stage.complete;
  }

  get traceComplete() {
    return this.stage.traceComplete;
  }

  /** Expansions in the records received: the shared steps this panel reaches. */
  get steps() {
    return this.stage.steps.steps;
  }

  /** The steps this run will have in all (the result's count once known). */
  get expectedSteps() {
    if (!this.run) return 0;
    return this.run.result ? Math.max(this.run.result.expanded, this.steps) : this.steps;
  }

  /** Move the board to shared step k (drawing is requested; figures follow in render()). */
  apply(k) {
    if (!this.entered || !this.run) return;
    const to = this.stage.steps.positionFor(k, this.timeline.length);
    if (to !== this.stage.player.position) this.stage.player.seek(to);
  }

  /** At its end: every record here and the playhead past its last expansion. */
  atEnd(k) {
    return this.traceComplete && k >= this.steps;
  }

  // ---- what the panel shows ----------------------------------------------------------------------

  write(node, text) {
    if (this.shown.get(node) === text) return;
    this.shown.set(node, text);
    node.textContent = text;
  }

  setBusy(text) {
    this.busy.hidden = !text;
    this.write(this.busy, text || "");
  }

  /** The figures, caption, badge and result line at shared step k. */
  render(k, staleText = "") {
    const run = this.run;
    const { counts, viewFigures } = this.stage.figuresAt();
    for (const key of ["expanded", "generated", "frontier"]) {
      this.write(this.counts[key], counts ? number(counts[key]) : "—");
    }
    this.showViewFigures(viewFigures);
    const caption = run ? run.text : this.entered ? this.describe(this.algorithm, this.options()) : this.page.labelOf(this.algorithm);
    this.write(this.caption, staleText ? `${caption} — ${staleText}` : caption);
    this.caption.title = caption;
    this.caption.classList.toggle("stale", Boolean(staleText));

    const waiting = Boolean(run) && !run.finished && k >= this.steps && this.timeline.length > 0;
    const badge = panelBadge(run, { steps: this.steps, atEnd: this.atEnd(k), waiting });
    this.badge.hidden = !badge;
    this.write(this.badge, badge?.text || "");
    this.badge.className = `cmp-badge${badge ? ` ${badge.tone}` : ""}`;

    const final = run?.result && this.atEnd(k) ? run.result : null;
    const { text, tone: verdictTone } = final ? shortVerdict(final) : { text: "", tone: "" };
    this.write(this.result, text);
    this.result.className = `cmp-result verdict${verdictTone ? ` ${verdictTone}` : ""}`;
  }

  showViewFigures(figures) {
    const keys = figures.map((f) => `${f.key}:${f.label}`).join("|");
    if (keys !== this.figureKeys) {
      this.figureKeys = keys;
      this.figureCells = new Map();
      this.viewFigures.replaceChildren(...figures.map((f) => {
        const value = el("b", { testid: `panel-figure-${f.key}`, text: "—" });
        this.figureCells.set(f.key, value);
        return el("span", { class: "fig", title: f.def || null }, el("span", { class: "fig-label", text: f.label }), " ", value);
      }));
    }
    for (const f of figures) this.write(this.figureCells.get(f.key), number(f.value));
  }

  /** The chart's view of this run: the frontier at each step it reached, and where it ended. */
  series() {
    return {
      color: this.color,
      // The run in words ("A* · Manhattan distance h₂ heuristic"): two A* panels differ by their heuristic.
      label: this.run?.text || this.page.labelOf(this.run?.algorithm || this.algorithm),
      frontier: this.stage.steps.frontierAt.view(),
      steps: this.steps,
      complete: this.traceComplete,
      finalFrontier: this.stage.steps.frontier,
    };
  }

  /** The comparison closes: forget the run and give back the memory its records and keyframes hold. */
  release() {
    this.stage.release();
    this.setBusy(null);
  }

  /** Out of the comparison: stop its run and its drawing, take it off the page. */
  destroy() {
    this.cancel();
    this.leave();
    this.root.remove();
  }
}
