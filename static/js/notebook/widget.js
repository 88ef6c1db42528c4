// @ts-check
// The notebook widget (anywidget 0.11: `export default {render({model, el})}`), bundled by
// scripts/build_widget.sh into static/build/widget.js. It is the page's own board, not a copy: the
// assignment pages' Board (../assignment/board.js: a Stage with the family's view and the transport
// bar), the figures at the playhead (../figures.js, with the page's test ids), the run's status line
// (../stage/run_status.js, through the Board) and a student's verdict (../code/verdict_view.js).
// `view: "compare"` is the page's comparison (../compare/compare_view.js: panels on one timeline,
// then the table), open from the start, over a hidden Board that holds the puzzle as the page's
// single view does while the comparison is open.
// Its runs come from the kernel over the comm (./comm_source.js) and so do its API requests and
// catalogs (./comm_api.js through api.setTransport). The kernel's traits (server/notebook/): view,
// puzzle, runs, verdicts, lang, error.

import * as api from "../api.js";
import { Board } from "../assignment/board.js";
import { VerdictView } from "../code/verdict_view.js";
import { CompareView } from "../compare/compare_view.js";
import { CODE } from "../compare/panel.js";
import { el } from "../dom.js";
import { Figures } from "../figures.js";
import { lang, setAttr, setLanguage, t } from "../i18n.js";
import { transportKey } from "../playback/transport_bar.js";
import { commTransport } from "./comm_api.js";
import { CommSource } from "./comm_source.js";

/** @typedef {import("./comm_source.js").WidgetModel} WidgetModel */
/** @typedef {{algorithm: string, options?: object, label?: string}} RunEntry */

/** The kernel's traits (server/notebook/): a change of any shows the widget anew. */
const TRAITS = ["view", "puzzle", "runs", "verdicts", "lang", "error"];

/** The figures' labels (catalog keys) by the page's ids (templates/index.html), which ../figures.js fills. */
const FIGURE_KEYS = {
  expanded: "figures.expanded", generated: "figures.generated", frontier: "figures.frontier",
  "max-frontier": "figures.max_frontier", cost: "figures.cost", "path-length": "figures.path_length",
};

/**
 * The transports of the widgets shown, latest last: the page's modules ask through one
 * (api.setTransport is the modules' one hook), the latest widget's; every comm reaches the same kernel.
 * @type {ReturnType<typeof commTransport>[]}
 */
const transports = [];

/** The Board, telling the widget each time it syncs (the player moved, a run event came). */
class NotebookBoard extends Board {
  /** @param {{host: HTMLElement, live: import("../live.js").RunSource, onSync: () => void}} args */
  constructor({ host, live, onSync }) {
    super({ host, live, prefix: "" });
    this.onSync = onSync;
    /** @type {(() => void) | null} the run has all its records (set by the widget) */
    this.onDone = null;
  }

  sync() {
    super.sync();
    this.onSync?.();
  }

  /** @param {import("../stage/stage.js").RunEvent} event @param {any} run */
  runEvent(event, run) {
    super.runEvent(event, run);
    if (event === "done") this.onDone?.(); // the legend's ranges are the run's now
  }
}

/** The figures at the playhead, as the page's side panel shows them (../figures.js). */
function figuresPanel() {
  /** @type {Record<string, HTMLElement>} */
  const byId = {};
  const value = (id) => (byId[id] = el("dd", { testid: id, class: id === "cost" ? "big" : null, text: "—" }));
  const stat = (id) => el("div", { class: "stat" }, el("dt", { t: FIGURE_KEYS[id] }), value(id));
  byId.playhead = el("p", { class: "playhead", testid: "playhead" });
  byId["view-figures"] = el("dl", { class: "stats", testid: "view-figures", hidden: true });
  byId["result-when"] = el("span", { class: "muted", testid: "result-when" });
  byId.optimal = el("p", { class: "verdict", testid: "optimal" });
  byId.figures = el("div", { class: "figures", testid: "figures", hidden: true }); // the page's compact strip: not shown here
  const root = el("aside", { class: "mazeviz-figures", tattr: { "aria-label": "shell.figures" } },
    byId.playhead,
    el("h3", { t: "shell.at_this_step" }),
    el("dl", { class: "stats" }, ...["expanded", "generated", "frontier", "max-frontier"].map(stat)),
    byId["view-figures"],
    el("h3", {}, el("span", { t: "shell.result" }), " ", byId["result-when"]),
    byId.optimal,
    el("dl", { class: "stats" }, stat("cost"), stat("path-length")));
  return { root, figures: new Figures({ $: (id) => byId[id] }) };
}

export class NotebookWidget {
  /** @param {WidgetModel} model @param {HTMLElement} host */
  constructor(model, host) {
    this.model = model;
    this.root = el("div", { class: "mazeviz-widget", testid: "mazeviz" });
    host.append(this.root);
    this.transport = commTransport(model);
    transports.push(this.transport);
    api.setTransport(this.transport.fetch);
    this.source = new CommSource(model);
    /** @type {NotebookBoard | null} */
    this.board = null;
    /** @type {CompareView | null} */
    this.compare = null;
    this.figures = null;
    this.disposed = false;
    this.generation = 0; // each show() a new one: what an older one still awaits is dropped
    // The kernel changed what to show (a cell set the widget's traits again): shown anew, once.
    this.traitsChanged = () => {
      if (this.again) return;
      this.again = true;
      queueMicrotask(() => {
        this.again = false;
        if (!this.disposed) this.show();
      });
    };
    this.again = false;
    for (const name of TRAITS) model.on(`change:${name}`, this.traitsChanged);
    // The transport keys (space, arrows, Home/End) while the focus is in the widget, not in a field;
    // kept from the notebook, whose own shortcuts would take them too.
    this.onKey = (/** @type {KeyboardEvent} */ event) => {
      const target = /** @type {HTMLElement | null} */ (event.target);
      const typing = ["TEXTAREA", "SELECT"].includes(target?.tagName)
        || (target?.tagName === "INPUT" && /** @type {HTMLInputElement} */ (target).type !== "range");
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || typing) return;
      const clock = this.compare ? this.compare.clock : this.board?.stage.player;
      if (clock && transportKey(event, clock)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    this.root.addEventListener("keydown", this.onKey);
  }

  /** A sentence instead of the board (an error, a board too big). @param {string} text */
  sayOnly(text) {
    this.root.replaceChildren(el("p", { class: "mazeviz-message", testid: "mazeviz-message", role: "status", text }));
  }

  /** What is shown leaves: its runs are cancelled, its clocks stopped. */
  clear() {
    if (this.compare) {
      this.compare.stop(true);
      this.compare.clock.pause();
    }
    if (this.board) {
      this.board.stage.cancel();
      this.board.stage.player.pause();
      this.board.stage.leave();
    }
    this.compare = null;
    this.board = null;
    this.figures = null;
    this.root.replaceChildren();
  }

  async show() {
    const { model } = this;
    this.clear();
    const generation = ++this.generation;
    const gone = () => this.disposed || generation !== this.generation;
    try {
      await setLanguage(model.get("lang") || "en", { remember: false, page: false });
    } catch {
      // no catalog: the keys show, the rest still works
    }
    if (gone()) return;
    this.root.lang = lang(); // the notebook's own <html lang> is not ours to set
    const error = model.get("error");
    if (error) {
      this.sayOnly(String(error));
      return;
    }
    /** @type {RunEntry[]} */
    const runs = Array.isArray(model.get("runs")) ? model.get("runs") : [];
    const verdicts = Array.isArray(model.get("verdicts")) ? model.get("verdicts") : [];
    const puzzle = String(model.get("puzzle") || "");
    try {
      const info = await api.getPuzzle(puzzle);
      if (gone()) return;
      if (info.deep_zoom) {
        this.sayOnly(t("notebook.too_big"));
        return;
      }
      if (model.get("view") === "compare" && runs.length >= 2) await this.showCompare(puzzle, runs, verdicts, gone);
      else await this.showSingle(puzzle, runs[0] || null, verdicts[0] || null, gone);
    } catch (err) {
      if (!gone()) this.sayOnly(t("notebook.failed", { why: api.errorWords(err, t("api.unreachable")) }));
    }
  }

  /**
   * One board: the puzzle, its run played from the start, the figures and the verdict.
   * @param {string} puzzle @param {RunEntry | null} entry @param {any} verdict
   * @param {() => boolean} gone  true once this is no longer to be shown
   */
  async showSingle(puzzle, entry, verdict, gone) {
    const boardHost = el("div", { class: "mazeviz-board" });
    const { root: figuresRoot, figures } = figuresPanel();
    this.figures = figures;
    const verdictView = new VerdictView({ onGoToLine: () => {} }); // the code is in the notebook's cell
    this.root.replaceChildren(el("div", { class: "mazeviz-single" }, boardHost, figuresRoot), verdictView.box);
    verdictView.show(verdict ? { verdict, algorithm: entry?.algorithm } : null);
    figures.reset();
    const board = new NotebookBoard({ host: boardHost, live: this.source, onSync: () => this.syncFigures() });
    this.board = board;
    setAttr(board.canvasBox, "aria-label", "notebook.board_label");
    const algorithm = entry?.algorithm || "astar";
    const options = entry?.options || {};
    await board.load({ puzzle, algorithm, options, algorithm_label: entry?.label || algorithm });
    if (gone()) return;
    // The family's legend under the transport bar, as on the page (what each colour and mark means).
    const legend = el("div", { class: "legend", testid: "legend", tattr: { "aria-label": "notebook.legend" } });
    boardHost.append(legend);
    board.view?.legend(legend, { algorithm });
    board.onDone = () => board.view?.legend(legend, { algorithm });
    if (!entry) return;
    board.play({ puzzle, algorithm, options: { ...board.options(), ...options }, text: entry.label || algorithm });
  }

  /**
   * The comparison: a panel per entry (2–4) on one timeline, run at once; the table at the end.
   * @param {string} puzzle @param {RunEntry[]} runs @param {any[]} verdicts
   * @param {() => boolean} gone  true once this is no longer to be shown
   */
  async showCompare(puzzle, runs, verdicts, gone) {
    const holder = el("div", { hidden: true }); // the hidden single board: the puzzle's data and its options
    const host = el("div", { class: "compare mazeviz-compare", testid: "compare-view", tattr: { "aria-label": "notebook.compare_label" } });
    const status = el("p", { class: "status" }, el("span", { class: "status-dot", testid: "status-dot" }),
      el("span", { class: "status-line" }, el("span", { testid: "status" }), el("span", { testid: "status-detail" })));
    const error = el("p", { class: "banner error", testid: "error", role: "alert", hidden: true });
    const verdictBoxes = verdicts.map((verdict, k) => {
      if (!verdict) return null;
      const view = new VerdictView({ onGoToLine: () => {} });
      view.show({ verdict, algorithm: runs[k]?.algorithm });
      return view.box;
    }).filter(Boolean);
    this.root.replaceChildren(holder, host, ...verdictBoxes);
    const board = new NotebookBoard({ host: holder, live: this.source, onSync: () => {} });
    this.board = board;
    const [algorithms, families] = await Promise.all([api.getAlgorithms(), api.getFamilies()]);
    const first = runs[0];
    await board.load({ puzzle, algorithm: first.algorithm, options: first.options || {}, algorithm_label: first.label || first.algorithm });
    if (gone()) return;
    const code = runs.find((entry) => entry.algorithm === CODE);
    const familyMap = new Map((Array.isArray(families) ? families : []).map((f) => [f.name, f]));
    const labels = new Map(runs.map((entry) => [entry.algorithm, entry.label]));
    const compare = new CompareView({
      host, openButton: el("button", { type: "button", hidden: true }), live: this.source,
      borrowed: { maze: null, status, error, run: null },
      page: {
        // The kernel's labels for its entries (a student's function by its name), else the server's.
        algorithms: () => (Array.isArray(algorithms) ? algorithms : []).map((a) => (labels.get(a.name) ? { ...a, label: labels.get(a.name) } : a)),
        families: () => familyMap,
        viewOptions: () => board.view?.viewOptions() || {},
        option: (name) => board.values[name],
        setStatus: (text, tone = "idle", detail = "") => {
          status.querySelector("[data-testid=status]").textContent = text;
          status.querySelector("[data-testid=status-detail]").textContent = detail;
          status.firstElementChild.className = `status-dot tone-${tone}`;
        },
        showError: (message) => {
          error.textContent = message;
          error.hidden = !message;
        },
        textScale: () => 1,
        upload: () => {},
        beforeOpen: () => {},
        opened: () => {},
        afterClose: () => {},
        panelsChanged: () => {},
        codeRun: () => (code ? { code: code.options?.code, label: code.label || t("compare.your_code"), options: code.options || {} } : null),
      },
    });
    this.compare = compare;
    compare.puzzleShown(board.info, board.view.currentData());
    compare.open();
    compare.leaveButton.hidden = true; // nothing to go back to in a notebook
    compare.usePanels(runs.map((entry) => entry.algorithm));
    runs.slice(0, compare.panels.length).forEach((entry, k) => {
      const panel = compare.panels[k];
      for (const [name, value] of Object.entries(entry.options || {})) {
        if (panel.form.has(name)) panel.form.set(name, value);
        else if (compare.sharedForm.has(name)) compare.sharedForm.set(name, value);
      }
    });
    compare.selectionChanged();
    compare.run();
  }

  syncFigures() {
    if (this.figures && this.board) this.figures.update(this.board.stage.figuresAt());
  }

  dispose() {
    this.disposed = true;
    this.root.removeEventListener("keydown", this.onKey);
    for (const name of TRAITS) this.model.off(`change:${name}`, this.traitsChanged);
    this.clear();
    this.source.dispose();
    this.transport.dispose();
    transports.splice(transports.indexOf(this.transport), 1);
    if (transports.length) api.setTransport(transports[transports.length - 1].fetch); // another widget's comm
    this.root.remove();
  }
}

export default {
  /** @param {{model: WidgetModel, el: HTMLElement}} args @returns {() => void} the cleanup */
  render({ model, el: host }) {
    const widget = new NotebookWidget(model, host);
    widget.show();
    return () => widget.dispose();
  },
};
