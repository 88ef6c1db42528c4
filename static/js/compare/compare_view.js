// @ts-check
// The comparison view: 2 to 4 algorithms on the puzzle the page shows, side by side. Each panel
// (panel.js) is a Stage of its own (../stage/stage.js: a family view with its own canvas, Timeline,
// Tally and Player) and runs its own search on the socket (slots "p0".."p3", docs/PROTOCOL.md); the
// rules of the puzzle (the family's options that name no algorithm in its schema, e.g. a start column
// or a flow rule) are set once for all. One shared clock (../playback/shared_clock.js) with the same
// transport bar as the single view's (../playback/transport_bar.js) puts every panel at its k-th
// expansion. At the end, the table of results with its CSV and JSON
// downloads, and a chart of the frontier and the states expanded per step (results.js).
//
// The page (app.js) keeps the puzzle: loading one (gallery, upload, a dropped file) goes through it
// as in the single view and it hands every puzzle shown over (puzzleShown). While the comparison is
// open, the page's maze buttons, status line and error banner are moved into it (one element per
// data-testid on the page), and the single view waits hidden with the same puzzle.

import { el } from "../dom.js";
import { onLanguage, onServerWords, setAttr, setText, t } from "../i18n.js";
import { viewClassFor } from "../families/index.js";
import { OptionsForm } from "../options_form.js";
import { SharedClock } from "../playback/shared_clock.js";
import { TransportBar } from "../playback/transport_bar.js";
import { comparisonStatus } from "../stage/run_status.js";
import { CODE, ComparePanel, isShared } from "./panel.js";
import { CompareResults } from "./results.js";

const MIN_PANELS = 2;
const MAX_PANELS = 4;
// One colour per panel (Okabe–Ito): its border, number, table row and chart line.
const PANEL_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7"];
// A new panel's algorithm: the first of these the family offers that no panel has yet.
const PREFERRED = ["bfs", "astar", "dfs", "dijkstra", "greedy", "bidirectional", "idastar", "iddfs", "seed-greedy"];
const CHART_EVERY_MS = 250; // the chart's lines follow arriving records at most this often
const BUSY_DRAW_MS = 200; // playing while records arrive: the boards move at most this often (clock.js)

export class CompareView {
  /**
   * @param {{host: HTMLElement, openButton: HTMLElement, live: import("../live.js").RunSource, page: object,
   *          borrowed: {maze, status, error, run}}} args
   *   page: {algorithms(), families(): Map, viewOptions(), option(name), setStatus(text, tone, detail),
   *          showError(message), textScale(), upload(file), beforeOpen(), opened(), afterClose(),
   *          panelsChanged() (a panel's algorithm changed, one came or went: the address follows),
   *          codeRun(): the latest run of the student's code on the puzzle shown, {code, label, options}, or null};
   *   borrowed: the page's maze buttons, status line and error banner (moved here while open) and its
   *   Run button (its data-testid is lent to this view's Run while open).
   */
  constructor({ host, openButton, live, page, borrowed }) {
    this.host = host;
    this.openButton = openButton;
    this.live = live;
    this.page = page;
    this.borrowed = borrowed;
    this.active = false;
    this.panels = [];
    this.shown = null; // {info, data}: the puzzle the page shows
    this.enteredId = null; // the puzzle the panels show
    this.familyName = null;
    this.comparison = null; // the last Run: {puzzle, panels}
    this.stale = new Map(); // panel -> why its run is not the present choice ("" when it is)
    this.pacedFor = -1;
    this.chartAt = -Infinity;
    this.updatePending = false;
    this.legendKey = "";
    this.clock = new SharedClock({
      available: () => this.available(),
      complete: () => this.panels.every((p) => p.complete),
      apply: (k) => this.apply(k),
      onChange: () => this.changed(),
      busyInterval: () => (this.panels.every((p) => p.complete) ? 0 : BUSY_DRAW_MS),
    });
    this.bar = new TransportBar({
      clock: this.clock, onPace: () => this.paceChosen(), prefix: "compare-", testids: { range: "timeline" },
      what: "comparison", allWord: "all", positionPrefix: "play.position_prefix", className: "cmp-bar",
      positionTitle: "compare.position_title", rangeLabel: "compare.range", titles: { last: "compare.last_title" },
    });
    this.results = new CompareResults();
    this.build();
    openButton.addEventListener("click", () => this.open());
    onLanguage(() => this.languageChanged());
    onServerWords(() => this.serverWordsChanged());
  }

  /**
   * The page's language changed: the words computed here are written again at once; the server's
   * words (the algorithms' labels, the options' labels) once the page has fetched them again
   * (i18n.onServerWords: serverWordsChanged, then the forms, menus and run captions follow).
   */
  languageChanged() {
    this.writeSharedTitle();
    this.layout();
    if (this.active) this.selectionChanged();
    this.writeStatus();
  }

  /** The server's words came again in the page's language: the forms, menus, captions, table and chart. */
  serverWordsChanged() {
    const now = this.familyNow();
    if (!now || now.family.name !== this.familyName) return; // sync() builds them for another family
    const shared = now.family.options.filter(isShared);
    this.sharedForm.relabel({ ...now.family, options: shared }, this.panels[0]?.algorithm || "");
    this.writeSharedTitle();
    for (const panel of this.panels) panel.languageChanged(now.family, this.clock.position, this.stale.get(panel) || "");
    this.legendKey = "";
    this.results.key = null;
    if (this.comparison) this.refreshChart();
    this.changed();
  }

  /** "All panels:", its tooltip naming the family's rules. */
  writeSharedTitle() {
    const family = this.familyName ? this.page.families().get(this.familyName) : null;
    if (!family) return;
    const layout = viewClassFor(family.name)?.formLayout || {};
    setText(this.sharedTitle, "compare.all_panels");
    this.sharedTitle.title = t("compare.rules_title", { family: t(layout.title || family.title) });
  }

  build() {
    this.sharedTitle = el("h2");
    this.sharedBody = el("div", { class: "cmp-rules-body" });
    this.sharedSection = el("section", { class: "cmp-rules", testid: "compare-rules", hidden: true }, this.sharedTitle, this.sharedBody);
    this.sharedForm = new OptionsForm({
      section: this.sharedSection, title: this.sharedTitle, body: this.sharedBody, shared: el("div"),
      onChange: (name, value) => this.sharedChanged(name, value), idPrefix: "compare-option",
    });
    this.mazeSlot = el("div", { class: "cmp-maze" });
    this.statusSlot = el("div", { class: "cmp-status" });
    this.errorSlot = el("div", { class: "cmp-error" });
    this.leaveButton = el("button", {
      type: "button", class: "cmp-leave", testid: "compare-leave", t: "compare.leave",
      tattr: { title: "compare.leave_title" }, on: { click: () => this.close() },
    });
    this.addButton = el("button", {
      type: "button", testid: "compare-add", t: "compare.add", on: { click: () => this.addPanel() },
    });
    this.runButton = el("button", {
      type: "button", class: "primary", t: "compare.run_all", tattr: { title: "compare.run_all_title" }, // data-testid "run" while open (borrow)
      on: { click: () => this.run() },
    });
    this.stopButton = el("button", {
      type: "button", testid: "compare-stop", t: "compare.stop", hidden: true, on: { click: () => this.stop() },
    });
    this.notice = el("p", { class: "cmp-notice", testid: "compare-notice", hidden: true });
    this.panelsEl = el("div", { class: "cmp-panels", testid: "compare-panels" });
    this.legend = el("div", { class: "legend cmp-legend-line", testid: "compare-legend", tattr: { "aria-label": "compare.legend" } });
    // On the page only while open: closed, the single view's page has no element of the comparison.
    this.parts = [
      el("div", { class: "cmp-toolbar" },
        this.leaveButton,
        this.mazeSlot,
        this.sharedSection,
        el("div", { class: "cmp-actions" }, this.addButton, this.runButton, this.stopButton),
        this.statusSlot),
      this.errorSlot,
      this.notice,
      this.panelsEl,
      el("div", { class: "cmp-bottom" }, this.bar.root, this.legend),
      this.results.root,
    ];
    // A file dropped anywhere on the comparison opens it, as on the single view's board.
    this.host.addEventListener("dragover", (event) => event.preventDefault());
    this.host.addEventListener("drop", (event) => {
      event.preventDefault();
      const file = event.dataTransfer?.files?.[0];
      if (file) this.page.upload(file);
    });
  }

  // ---- opening and closing -----------------------------------------------------------------------

  open() {
    if (this.active) return;
    this.page.beforeOpen();
    this.active = true;
    document.documentElement.classList.add("comparing");
    this.host.replaceChildren(...this.parts);
    this.host.hidden = false;
    this.openButton.hidden = true;
    this.borrow();
    this.sync();
    this.changed();
    this.runButton.focus({ preventScroll: true });
    this.page.opened?.();
  }

  /** Back to the single view, which still shows the same puzzle. */
  close() {
    if (!this.active) return;
    this.stop(true);
    this.clock.pause();
    for (const panel of this.panels) panel.release();
    this.enteredId = null;
    this.comparison = null;
    this.results.reset();
    this.results.root.hidden = true;
    this.active = false;
    document.documentElement.classList.remove("comparing");
    this.host.hidden = true;
    this.host.replaceChildren();
    this.openButton.hidden = false;
    this.giveBack();
    this.page.afterClose();
  }

  /** Move the page's shared controls in, and take the Run button's test id (one element per data-testid). */
  borrow() {
    this.returns = [];
    const take = (node, slot) => {
      if (!node) return;
      this.returns.push([node, node.parentNode, node.nextSibling]);
      slot.append(node);
    };
    take(this.borrowed.maze, this.mazeSlot);
    take(this.borrowed.status, this.statusSlot);
    take(this.borrowed.error, this.errorSlot);
    const run = this.borrowed.run;
    this.runTestid = run?.dataset.testid || "run";
    if (run) delete run.dataset.testid;
    this.runButton.dataset.testid = this.runTestid;
  }

  giveBack() {
    for (const [node, parent, next] of this.returns.reverse()) parent.insertBefore(node, next);
    this.returns = [];
    delete this.runButton.dataset.testid;
    if (this.borrowed.run) this.borrowed.run.dataset.testid = this.runTestid;
  }

  // ---- the puzzle and the panels -----------------------------------------------------------------

  /** The page shows a new puzzle (`data`: what its family view's prepare() gave). */
  puzzleShown(info, data) {
    this.shown = { info, data };
    if (this.active) this.sync();
  }

  /** The family's schema entry and view class for the puzzle shown (or the first family before any). */
  familyNow() {
    const families = this.page.families();
    const name = this.shown?.info?.family ?? families.keys().next().value;
    const family = families.get(name);
    const View = family ? viewClassFor(name) : null;
    if (!family || !View) return null;
    const names = this.shown?.info?.algorithms || family.algorithms || [];
    // A student's run of this puzzle (../code/): one more choice, "Your code", replayed like any run.
    return { family, View, names: this.page.codeRun?.() ? [...names, CODE] : names };
  }

  /** Panels for the family and the puzzle the page shows. */
  sync() {
    if (!this.active) return;
    const now = this.familyNow();
    if (!now) return;
    const { family, View, names } = now;
    if (family.name !== this.familyName) {
      this.familyName = family.name;
      const shared = family.options.filter(isShared);
      this.sharedForm.build({ ...family, options: shared }, { own: [shared.map((o) => o.name)] });
      this.writeSharedTitle();
    }
    while (this.panels.length < MIN_PANELS) this.addPanel(false);
    for (const panel of this.panels) panel.setFamily(family, View, names, this.defaultAlgorithm(names, panel));
    const info = this.shown?.info;
    if (info && this.enteredId !== info.id) {
      this.stop(true);
      this.sharedForm.applyPuzzle(info.options);
      // The rules start as the single view's (its form holds this puzzle's values now).
      for (const name of this.sharedForm.controls.keys()) {
        const value = this.page.option(name);
        if (value !== undefined) this.sharedForm.set(name, value);
      }
      for (const panel of this.panels) this.enterPanel(panel);
      this.enteredId = info.id;
      this.comparison = null;
      this.results.reset();
      this.results.root.hidden = true;
      this.clock.reset();
    }
    this.runButton.disabled = !info;
    this.layout();
    this.selectionChanged();
  }

  /** Show the puzzle in a panel, with the start and goal picked in the single view (grids). */
  enterPanel(panel) {
    panel.enter(this.shown.info, this.shown.data);
    panel.view.useViewOptions(this.page.viewOptions());
    // A formula of the page's (the heuristic lab's "Use as heuristic") is there to pick in every panel.
    const formula = this.page.option("formula");
    if (formula && panel.form.has("formula") && !panel.form.get("formula")) panel.form.set("formula", formula);
  }

  /** The first preferred algorithm the family offers that no other panel has (else the first). */
  defaultAlgorithm(names, panel = null) {
    const used = new Set(this.panels.filter((p) => p !== panel).map((p) => p.algorithm));
    return PREFERRED.find((n) => names.includes(n) && !used.has(n)) || names.find((n) => !used.has(n)) || names[0];
  }

  addPanel(fromUser = true) {
    if (this.panels.length >= MAX_PANELS) return;
    const color = PANEL_COLORS.find((c) => !this.panels.some((p) => p.color === c));
    const panel = new ComparePanel({
      color, clock: this.clock, live: this.live, page: this.panelPage(),
      onSelection: () => this.selectionChanged(),
      onRemove: (p) => this.removePanel(p),
      onRunEvent: () => this.runEvent(),
    });
    const now = this.familyNow();
    this.panels.push(panel);
    this.panelsEl.append(panel.root);
    this.layout();
    if (now && this.active) {
      panel.setFamily(now.family, now.View, now.names, this.defaultAlgorithm(now.names, panel));
      if (this.enteredId && this.shown) this.enterPanel(panel);
    }
    if (fromUser) {
      this.selectionChanged();
      panel.select.focus();
    }
  }

  /** The panels' algorithms, in order (the address keeps them; a student's code is left out: it is not kept). */
  algorithmsShown() {
    return this.panels.map((panel) => panel.algorithm).filter((name) => name && name !== CODE);
  }

  /**
   * Panels with these algorithms (an address's): as many panels as names (2 to 4), each set to its
   * name when the family offers it; the names it does not offer are returned (their panels keep theirs).
   * @param {string[]} names
   * @returns {string[]}
   */
  usePanels(names) {
    while (this.panels.length < Math.min(names.length, MAX_PANELS)) this.addPanel(false);
    while (this.panels.length > Math.max(names.length, MIN_PANELS)) this.removePanel(this.panels[this.panels.length - 1]);
    const refused = [];
    names.slice(0, MAX_PANELS).forEach((name, k) => {
      const panel = this.panels[k];
      if (![...panel.select.options].some((option) => option.value === name)) refused.push(name);
      else if (panel.algorithm !== name) {
        panel.select.value = name;
        panel.selectionChanged();
      }
    });
    return refused;
  }

  removePanel(panel) {
    if (this.panels.length <= MIN_PANELS) return;
    panel.destroy();
    this.panels.splice(this.panels.indexOf(panel), 1);
    this.layout();
    this.selectionChanged();
    this.refreshChart();
    this.updateStatus();
    this.clock.seek(Math.min(this.clock.position, this.available()));
  }

  /** Two panels: two columns; three or four: a row (or a 2 × 2 grid on narrower screens, app.css). */
  layout() {
    const n = this.panels.length;
    this.panelsEl.dataset.count = String(n);
    this.panels.forEach((panel, i) => panel.setPlace(i, n > MIN_PANELS));
    this.addButton.disabled = n >= MAX_PANELS;
    if (n >= MAX_PANELS) setAttr(this.addButton, "title", "compare.add_full", { n: MAX_PANELS });
    else setAttr(this.addButton, "title", "compare.add_title");
  }

  /** What a panel may ask of the comparison. */
  panelPage() {
    return {
      labelOf: (name) => this.labelOf(name),
      sharedOption: (name) => (this.sharedForm.has(name) ? this.sharedForm.get(name) : this.page.option(name)),
      setSharedOption: (name, value) => this.sharedForm.set(name, value),
      sharedValues: (algorithm) => this.sharedForm.values(algorithm, this.page.viewOptions()),
      showError: (message) => this.page.showError(message),
      textScale: () => this.page.textScale(),
      codeRun: () => this.page.codeRun?.() || null,
    };
  }

  labelOf(name) {
    if (name === CODE) return this.page.codeRun?.()?.label || t("compare.your_code");
    return this.page.algorithms().find((a) => a.name === name)?.label || name;
  }

  sharedChanged(name, value) {
    for (const panel of this.panels) panel.sharedOptionChanged(name, value, this.sharedForm);
    this.selectionChanged();
  }

  /** An algorithm or an option changed: which panels now show a run that is not the present choice. */
  selectionChanged() {
    this.stale.clear();
    const comparison = this.comparison;
    let changed = false;
    for (const panel of this.panels) {
      let why = "";
      if (comparison && !panel.run) why = t("compare.stale_new");
      else if (comparison && panel.run.signature !== panel.signature()) why = t("compare.stale_changed");
      if (why) changed = true;
      this.stale.set(panel, why);
    }
    if (comparison && comparison.panels !== this.panels.map((p) => p.run?.id).join()) changed = true;
    this.notice.hidden = !changed;
    this.notice.textContent = changed ? t("compare.notice") : "";
    this.changed();
    if (this.active) this.page.panelsChanged?.();
  }

  // ---- running -------------------------------------------------------------------------------------

  /** What is wrong with the choices, in words naming the panel and the option; null when all is fine. */
  problem() {
    const shared = this.sharedForm.problem(this.panels[0]?.algorithm);
    if (shared) return shared;
    for (const [i, panel] of this.panels.entries()) {
      const own = panel.form.problem(panel.algorithm);
      if (own) return { ...own, message: t("compare.panel_problem", { n: i + 1, message: own.message }) };
    }
    return null;
  }

  run() {
    const info = this.shown?.info;
    if (!this.active || !info || this.enteredId !== info.id) return;
    const problem = this.problem();
    if (problem) {
      this.page.showError(problem.message);
      problem.input?.focus();
      return;
    }
    const viewValues = this.page.viewOptions();
    for (const panel of this.panels) panel.view.useViewOptions(viewValues);
    const notReady = this.panels[0].view.checkReady();
    if (notReady) {
      this.page.showError(t("compare.not_ready", { why: notReady }));
      return;
    }
    this.page.showError("");
    this.clock.pause();
    this.panels.forEach((panel, i) => panel.start(`p${i}`, info.id, panel.options()));
    this.comparison = { puzzle: info.id, panels: this.panels.map((p) => p.run.id).join() };
    this.results.reset();
    this.results.root.hidden = false;
    this.pacedFor = -1;
    this.chartAt = -Infinity;
    this.clock.reset();
    this.clock.pace(1);
    this.showPace();
    this.stopButton.hidden = false;
    this.updateStatus();
    this.selectionChanged();
    this.clock.play();
  }

  /** Stop every search still running (their Stages say "cancelled"); `quiet`: leave the status line alone. */
  stop(quiet = false) {
    const running = this.panels.some((p) => p.run && !p.run.finished);
    for (const panel of this.panels) panel.cancel();
    this.stopButton.hidden = true;
    if (running && !quiet) {
      this.clock.pause();
      this.updateStatus();
      this.changed();
    }
  }

  connectionChanged(connected) {
    if (connected) return;
    for (const panel of this.panels) panel.connectionLost();
  }

  /** A panel's run sent something: follow it at most once a frame. */
  runEvent() {
    this.clock.more();
    if (this.updatePending) return;
    this.updatePending = true;
    requestAnimationFrame(() => {
      this.updatePending = false;
      if (!this.active) return;
      const total = this.totalSteps();
      if (total !== this.pacedFor) {
        this.pacedFor = total;
        this.clock.pace(total);
        this.showPace();
      }
      this.updateStatus();
      const now = performance.now();
      if (now - this.chartAt > CHART_EVERY_MS || this.clock.complete) {
        this.chartAt = now;
        this.refreshChart();
      }
      this.changed();
    });
  }

  refreshChart() {
    const running = this.panels.filter((p) => p.run);
    this.results.setSeries(running.map((p) => p.series()), this.available());
  }

  /** The status line: "searching…", "streaming 40%", then "done" once every trace is here (../stage/run_status.js words it). */
  updateStatus() {
    const runs = this.panels.map((p) => p.run).filter(Boolean);
    if (!this.writeStatus()) return;
    if (!runs.every((r) => r.finished)) return;
    this.stopButton.hidden = true;
    const failed = this.panels.find((p) => p.run?.error);
    if (failed && !runs.some((r) => r.cancelled)) {
      this.page.showError(t("compare.failed", { n: failed.index + 1, label: this.labelOf(failed.run.algorithm), error: failed.run.error }));
    }
  }

  /** The status line of the comparison's runs (written again in another language); false: none to write. */
  writeStatus() {
    const runs = this.panels.map((p) => p.run).filter(Boolean);
    if (!this.active || !this.comparison || !runs.length) return false;
    const received = this.panels.reduce((sum, p) => sum + (p.run ? Math.min(p.timeline.length, p.run.records ?? 0) : 0), 0);
    const { text, tone, detail } = comparisonStatus(runs, received);
    this.page.setStatus(text, tone, detail, () => this.writeStatus());
    return true;
  }

  // ---- the shared timeline ---------------------------------------------------------------------------

  /** The steps reachable now: the most expansions any panel's records hold. */
  available() {
    let steps = 0;
    for (const panel of this.panels) if (panel.run && panel.steps > steps) steps = panel.steps;
    return steps;
  }

  /** The comparison's steps in all, as far as known (the longest search's expansions). */
  totalSteps() {
    let steps = 0;
    for (const panel of this.panels) steps = Math.max(steps, panel.expectedSteps);
    return steps;
  }

  apply(k) {
    for (const panel of this.panels) panel.apply(k);
  }

  showPace() {
    this.bar.showPace(this.comparison ? this.totalSteps() : 0);
  }

  /** The user chose a pace: a preset's speed follows the comparison's steps. */
  paceChosen() {
    if (this.comparison) this.clock.pace(this.totalSteps());
    this.showPace();
  }

  /** Redraw the figures, the bar, the chart's cursor and (at the end) the table for the clock's step. */
  changed() {
    if (!this.active) return;
    const k = this.clock.position;
    for (const panel of this.panels) panel.render(k, this.stale.get(panel) || "");
    this.bar.update({ total: this.comparison ? this.totalSteps() : null, enabled: Boolean(this.comparison) });
    this.results.setCursor(k);
    const ended = this.comparison && this.panels.every((p) => p.traceComplete) && this.clock.atEnd;
    this.results.showTable(ended ? this.entries() : null, this.shown?.info?.name || "");
    this.showLegend();
  }

  /** The table's rows: each panel's run, its options in words, its colour and number. */
  entries() {
    return this.panels.map((panel, i) => ({
      number: i + 1,
      color: panel.color,
      label: this.labelOf(panel.run.algorithm),
      text: panel.view.describeRun(panel.run.algorithm, panel.run.options) || "",
      options: panel.run.options,
      result: panel.run.result,
    }));
  }

  /** The family's legend under the timeline (the first panel's; the colours mean the same in each). */
  showLegend() {
    const panel = this.panels[0];
    if (!panel?.entered) return;
    const algorithm = panel.run?.algorithm || panel.algorithm;
    const key = `${this.enteredId}|${algorithm}|${Math.round(panel.timeline.maxValue)}|${panel.traceComplete}`;
    if (key === this.legendKey) return;
    this.legendKey = key;
    panel.view.legend(this.legend, { algorithm });
  }
}
