// One panel of the comparison: an algorithm, its own options, its own family view (one canvas), its
// own Timeline, Tally and Player, its socket run (slot "p0".."p3"), and the index that maps the shared
// timeline's step k to this trace: the record index of its k-th close record (an expansion). The
// figures under the board are those at its position: expanded, generated, frontier and the family's
// playhead figures (g, h, f, …); a badge says when its search finished before the shared step.

import { el } from "../dom.js";
import { verdictOf } from "../figures.js";
import { number, withCommas } from "../format.js";
import { OptionsForm } from "../options_form.js";
import { Player } from "../player.js";
import { Tally } from "../tally.js";
import { KIND, Timeline } from "../timeline.js";

let serials = 0; // element ids of each panel's controls stay unique on the page

/** A growable Int32Array column. */
class Column {
  constructor() {
    this.data = new Int32Array(1024);
    this.length = 0;
  }

  push(value) {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  clear() {
    this.length = 0;
  }

  view() {
    return this.data.subarray(0, this.length);
  }
}

/** The result in a few words for the panel's last line: "cost 108 · not optimal (optimum 52)". */
function shortVerdict(result) {
  const { text, tone } = verdictOf(result);
  if (!result.found) return { text, tone };
  const cost = `cost ${number(result.cost)}`;
  if (tone === "good") return { text: `${cost} · optimal ✓`, tone };
  if (typeof result.optimum === "number") return { text: `${cost} · not optimal (optimum ${number(result.optimum)})`, tone };
  return { text: `${cost} · not guaranteed optimal ⚠`, tone };
}

/** Options that are rules of the puzzle (every algorithm uses them) are the comparison's, set once. */
export const isShared = (option) => option.stage !== "load" && !option.algorithms;
const isOwn = (option) => option.stage !== "load" && Array.isArray(option.algorithms);

export class ComparePanel {
  /**
   * @param {{color: string, clock: import("./clock.js").SharedClock, page: object,
   *          onSelection: () => void, onRemove: (panel: ComparePanel) => void,
   *          onRunEvent: (panel: ComparePanel) => void}} args
   *   page: {labelOf(name), sharedOption(name), setSharedOption(name, value), sharedValues(algorithm),
   *          showError(message), textScale()}
   */
  constructor({ color, clock, page, onSelection, onRemove, onRunEvent }) {
    this.serial = serials++;
    Object.assign(this, { color, clock, page, onSelection, onRemove, onRunEvent });
    this.timeline = new Timeline();
    this.tally = new Tally(this.timeline);
    // Four panels share the page's memory: each keeps a quarter of a single view's keyframes.
    this.player = new Player({ timeline: this.timeline, onChange: () => {}, keyframeBudget: 32 * 1024 * 1024 });
    this.closeAt = new Column(); // record index of each close record, in order: step k -> closeAt[k]
    this.frontierAt = new Column(); // the frontier's size at step k (before the k-th close)
    this.scanned = 0;
    this.frontier = 0;
    this.family = null;
    this.View = null;
    this.view = null;
    this.entered = false;
    this.run = null;
    this.shown = new Map(); // element -> text last written (skip unchanged DOM writes)
    this.figureKeys = "";
    // What the family view takes for "the player": the shared clock's state and pace. Its speed is
    // in records per second (the views time their animations by it), the clock's in expansions.
    const panel = this;
    this.playerFacade = {
      get playing() { return clock.playing; },
      get preset() { return clock.preset; },
      get speed() {
        const perStep = panel.closeAt.length ? panel.timeline.length / panel.closeAt.length : 1;
        return clock.speed * Math.max(1, perStep);
      },
      pause: () => clock.pause(),
      play: () => clock.play(),
      toggle: () => clock.toggle(),
    };
    this.build();
  }

  // ---- markup ------------------------------------------------------------------------------------

  build() {
    const id = `cmp${this.serial}`;
    this.select = el("select", { id: `${id}-algorithm`, testid: "panel-algorithm", "aria-label": "Algorithm" });
    this.select.addEventListener("change", () => this.selectionChanged());
    this.ownOptions = el("div", { class: "cmp-own" });
    this.removeButton = el("button", {
      type: "button", class: "cmp-remove", testid: "compare-remove", title: "Remove this algorithm from the comparison",
      "aria-label": "Remove this algorithm", text: "✕", on: { click: () => this.onRemove(this) },
    });
    this.number = el("span", { class: "cmp-number", "aria-hidden": "true" });
    this.badge = el("span", { class: "cmp-badge", testid: "panel-badge", hidden: true });
    this.busy = el("div", { class: "cmp-busy", testid: "panel-busy", hidden: true });
    this.hover = el("div", { class: "hover", hidden: true });
    this.empty = el("div", { class: "empty", text: "Open a maze: Gallery… or Open file…" });
    this.board = el("div", { class: "cmp-board" }, this.busy, this.hover, this.empty);
    this.caption = el("p", { class: "cmp-caption", testid: "panel-caption" });
    this.figures = el("p", { class: "cmp-figures", testid: "panel-figures", "aria-live": "off" });
    this.counts = {};
    for (const [key, label] of [["expanded", "Expanded"], ["generated", "Generated"], ["frontier", "Frontier"]]) {
      this.counts[key] = el("b", { testid: `panel-${key}`, text: "—" });
      this.figures.append(el("span", { class: "fig" }, el("span", { class: "fig-label", text: label }), " ", this.counts[key]));
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
    this.select.setAttribute("aria-label", `Algorithm ${index + 1}`);
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
    }
    if (View !== this.View) {
      if (this.view) this.view.canvas.remove();
      this.View = View;
      const canvas = el("canvas", { testid: "panel-canvas", "aria-label": "Board" });
      this.board.prepend(canvas);
      this.view = new View({
        canvas, hosts: this.hosts, timeline: this.timeline, player: this.playerFacade, shell: this.viewShell(),
      });
    }
    this.select.replaceChildren(...names.map((name) => new Option(this.page.labelOf(name), name)));
    const choice = [current, wanted].find((name) => name && names.includes(name)) || names[0] || "";
    this.select.value = choice;
    this.form.showFor(choice);
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
    };
  }

  /** Show a puzzle (`data`: what the family view's prepare() gave; shared by every panel). */
  enter(info, data) {
    this.leave();
    this.forgetRun();
    this.empty.hidden = true;
    this.form.applyPuzzle(info.options);
    this.view.enter(info, data);
    const target = this.view.playerTarget();
    this.player.attach(target.state, target.renderer);
    this.entered = true;
    this.render(0);
  }

  /** Stop drawing (the comparison closes, the panel goes, another family comes). */
  leave() {
    if (!this.entered) return;
    this.entered = false;
    this.view.leave();
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

  /** The run options this panel would send: the comparison's rules and its own options. */
  options() {
    return { ...this.page.sharedValues(this.algorithm), ...this.form.values(this.algorithm) };
  }

  /** "A* · manhattan heuristic, weight 1 · 4 directions". */
  describe(algorithm, options) {
    const rest = this.entered ? this.view.describeRun?.(algorithm, options) || "" : "";
    return rest ? `${this.page.labelOf(algorithm)} · ${rest}` : this.page.labelOf(algorithm);
  }

  signature() {
    return JSON.stringify([this.algorithm, this.options()]);
  }

  // ---- the run -----------------------------------------------------------------------------------

  forgetRun() {
    this.run = null;
    this.timeline.reset();
    this.tally.reset();
    this.closeAt.clear();
    this.frontierAt.clear();
    this.scanned = 0;
    this.frontier = 0;
  }

  /** Start this panel's search in `slot`: the comparison's Run. */
  start(live, slot, puzzle, options) {
    this.cancel(live);
    this.forgetRun();
    this.player.rewind();
    const algorithm = this.algorithm;
    const run = {
      id: null, slot, algorithm, options, text: this.describe(algorithm, options), signature: this.signature(),
      phase: "starting", done: 0, total: null, message: "", result: null, records: null, finished: false, error: null,
    };
    this.run = run;
    const mine = (handler) => (...args) => run === this.run && handler(...args);
    run.id = live.start({ puzzle, algorithm, options, slot }, {
      onStatus: mine((msg) => this.status(msg)),
      onFrame: mine((frame, msg) => this.frame(frame, msg)),
      onDone: mine((msg) => this.done(msg)),
      onError: mine((error) => this.failed(error)),
    });
    this.view.runStarted(run.id, { algorithm, options });
    this.setBusy("starting…");
  }

  cancel(live) {
    if (this.run && !this.run.finished) {
      live.cancel(this.run.id);
      this.run.finished = true;
      this.run.cancelled = true;
    }
    this.setBusy(null);
  }

  status(msg) {
    const run = this.run;
    if (run.finished) return;
    run.phase = msg.phase || run.phase;
    run.done = msg.done || 0;
    run.total = msg.total ?? null;
    run.message = msg.message || "";
    if (msg.phase === "searching") this.setBusy(`searching… ${withCommas(run.done)} expanded`);
    else if (msg.phase === "queued") this.setBusy(msg.message || "waiting for a worker…");
    else if (msg.phase === "streaming") this.setBusy(null);
    this.onRunEvent(this);
  }

  frame(frame, msg) {
    try {
      this.timeline.addFrame(frame.start, frame.kinds, frame.cells, frame.values);
    } catch (err) {
      console.warn(err);
      this.failed("its trace arrived damaged; run the comparison again");
      return;
    }
    this.setBusy(null);
    this.scan();
    this.view.frame(msg);
    if (this.run.records !== null) this.maybeFinish();
    this.onRunEvent(this);
  }

  done(msg) {
    const run = this.run;
    run.result = msg.result;
    run.records = msg.records;
    this.timeline.expected = msg.records;
    this.view.result(msg.result);
    this.maybeFinish();
    this.onRunEvent(this);
  }

  /** Finished only once the whole trace is here, not merely computed. */
  maybeFinish() {
    const run = this.run;
    if (run.finished || this.timeline.length < run.records) return;
    run.finished = true;
    run.phase = "done";
    this.setBusy(null);
    this.view.traceComplete();
  }

  failed(error) {
    this.run.error = error;
    this.run.finished = true;
    this.setBusy(null);
    this.onRunEvent(this);
  }

  /** Index the records that arrived since the last frame: where each expansion is, the frontier then. */
  scan() {
    const { kinds, length } = this.timeline;
    let frontier = this.frontier;
    for (let i = this.scanned; i < length; i++) {
      const kind = kinds[i];
      if (kind === KIND.OPEN || kind === KIND.OPEN_B) frontier++;
      else if (kind === KIND.CLOSE || kind === KIND.CLOSE_B) {
        this.closeAt.push(i);
        this.frontierAt.push(frontier);
        frontier--;
      }
    }
    this.frontier = frontier;
    this.scanned = length;
  }

  /** Every record of the run is here (or it failed, or was stopped: what arrived is all there is). */
  get complete() {
    return !this.run || this.run.finished;
  }

  get traceComplete() {
    return Boolean(this.run && this.run.finished && !this.run.error && !this.run.cancelled);
  }

  /** Expansions in the records received: the shared steps this panel reaches. */
  get steps() {
    return this.closeAt.length;
  }

  /** The steps this run will have in all (the result's count once known). */
  get expectedSteps() {
    if (!this.run) return 0;
    return this.run.result ? Math.max(this.run.result.expanded, this.steps) : this.steps;
  }

  /** The trace index shown at shared step k: before the (k+1)-th expansion, or the end of the records. */
  positionFor(k) {
    return k < this.closeAt.length ? this.closeAt.data[k] : this.timeline.length;
  }

  /** Move the board to shared step k (drawing is requested; figures follow in render()). */
  apply(k) {
    if (!this.entered || !this.run) return;
    const to = this.positionFor(k);
    if (to !== this.player.position) this.player.seek(to);
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
    const counts = run && this.entered ? this.tally.at(this.player.position) : null;
    for (const key of ["expanded", "generated", "frontier"]) {
      this.write(this.counts[key], counts ? number(counts[key]) : "—");
    }
    this.showViewFigures(run && this.entered ? this.view.playheadFigures() : []);
    const caption = run ? run.text : this.entered ? this.describe(this.algorithm, this.options()) : this.page.labelOf(this.algorithm);
    this.write(this.caption, staleText ? `${caption} — ${staleText}` : caption);
    this.caption.title = caption;
    this.caption.classList.toggle("stale", Boolean(staleText));

    let badge = "";
    let tone = "";
    if (run?.error) {
      badge = `Error: ${run.error}`;
      tone = "bad";
    } else if (run?.cancelled) {
      badge = `Stopped at step ${withCommas(this.steps)}`;
      tone = "warn";
    } else if (run && this.atEnd(k)) {
      badge = `Finished at step ${withCommas(this.steps)}`;
      tone = "done";
    } else if (run && !run.finished && k >= this.steps && this.timeline.length > 0) {
      badge = "Waiting for its trace…";
      tone = "warn";
    }
    this.badge.hidden = !badge;
    this.write(this.badge, badge);
    this.badge.className = `cmp-badge${tone ? ` ${tone}` : ""}`;

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
      label: this.page.labelOf(this.run?.algorithm || this.algorithm),
      frontier: this.frontierAt.view(),
      steps: this.steps,
      complete: this.traceComplete,
      finalFrontier: this.frontier,
    };
  }

  /** The comparison closes: forget the run and give back the memory its records and keyframes hold. */
  release(live) {
    this.cancel(live);
    this.leave();
    this.forgetRun();
    this.player.dropKeyframes?.();
    const small = 1 << 16;
    Object.assign(this.timeline, { kinds: new Uint8Array(small), cells: new Int32Array(small), values: new Float32Array(small) });
    this.closeAt = new Column();
    this.frontierAt = new Column();
  }

  /** Out of the comparison: stop its run and its drawing, take it off the page. */
  destroy(live) {
    this.cancel(live);
    this.leave();
    this.root.remove();
  }
}
