// @ts-check
// The board of the assignment pages: one Stage (../stage/stage.js) showing the assignment's puzzle
// with its family's view, a transport bar under it, and the small adapters that give the existing
// panels (Your code, the Lab, Check) the `page` they expect — the assignment's puzzle, algorithm and
// options instead of the main page's form. A run (a student's code, a teacher's replay) plays here.

import * as api from "../api.js";
import { el } from "../dom.js";
import { t } from "../i18n.js";
import { TransportBar } from "../playback/transport_bar.js";
import { runStatus } from "../stage/run_status.js";
import { Stage } from "../stage/stage.js";

export class Board {
  /**
   * @param {{host: HTMLElement, live: import("../live.js").RunSource, prefix?: string}} args  host: where
   *   the board goes; live: where its runs come from; prefix: before the transport bar's test ids
   */
  constructor({ host, live, prefix = "as-" }) {
    this.live = live;
    /** @type {Object<string, any>} the run options (the assignment's, over the family's defaults) */
    this.values = {};
    /** @type {Map<string, any>} the families' schema entries by name */
    this.families = new Map();
    this.algorithm = "";
    this.algorithmLabel = "";
    /** @type {string[]} the names of the family's run options */
    this.runNames = [];
    /** @type {any} the puzzle's info */
    this.info = null;
    this.hover = el("div", { class: "hover", hidden: true });
    this.busy = el("div", { class: "busy" }, el("div", { class: "spinner" }), el("span", { t: "assignment.loading_board" }));
    this.canvasBox = el("div", { class: "board as-board", testid: "as-board", tabindex: "0", tattr: { "aria-label": "assignment.board_label" } },
      this.hover, this.busy);
    this.status = el("p", { class: "as-board-status hint", testid: "as-board-status", role: "status", "aria-live": "polite" });
    this.hosts = {
      left: el("div"), right: el("div", { class: "as-board-extra" }), banner: el("div"), boardTools: el("div", { hidden: true }),
    };
    this.stage = new Stage({
      live, board: this.canvasBox, hosts: this.hosts, shell: this.shell(), canvas: { testid: "canvas", label: t("assignment.board") },
      onPlayerChange: () => this.sync(),
      onRun: (event, run) => this.runEvent(event, run),
    });
    this.bar = new TransportBar({
      clock: this.stage.player, label: t("assignment.search_trace"), prefix,
      onPace: () => {
        this.stage.player.pace(this.stage.total() ?? this.stage.timeline.length);
        this.sync();
      },
    });
    this.root = el("div", { class: "as-board-wrap" }, this.canvasBox, this.bar.root, this.status, this.hosts.right);
    host.append(this.root);
    this.sync();
  }

  /** The transport bar follows the player and the run. */
  sync() {
    const total = this.stage.total();
    this.bar.update({ total, enabled: Boolean(this.stage.run) });
    this.bar.showPace(total ?? 0);
  }

  /** What the family view may ask of the page (../families/family_view.js ViewShell). */
  shell() {
    return {
      option: (name) => this.values[name],
      setOption: (name, value) => { this.values[name] = value; },
      showError: (message) => this.say(message),
      setBusy: (text) => { this.busy.hidden = !text; },
      setHover: (text) => {
        this.hover.textContent = text;
        this.hover.hidden = !text;
      },
      toolsWidth: () => 0,
      optionsChanged: () => {},
      textScale: () => 1,
      edit: () => {}, // the assignment's board is pinned: nothing edits it
      remember: () => {},
      historyButtons: () => [],
      reread: () => {},
    };
  }

  get view() {
    return this.stage.view;
  }

  /** A line under the board ("" clears it). @param {string} text @param {string} [tone] */
  say(text, tone = "") {
    this.status.textContent = text;
    this.status.className = `as-board-status hint${tone ? ` ${tone}` : ""}`;
  }

  /**
   * Show the assignment's puzzle: its info, the family's view, the options the assignment pinned.
   * @param {any} assignment the assignment's public view
   * @returns {Promise<any>} the puzzle's info
   */
  async load(assignment) {
    const families = await api.getFamilies();
    this.families = new Map((Array.isArray(families) ? families : []).map((f) => [f.name, f]));
    const info = await api.getPuzzle(assignment.puzzle);
    const family = this.families.get(info.family);
    const defaults = Object.fromEntries((family?.options || []).map((o) => [o.name, o.default]));
    // The puzzle's own overrides ({name: {default, min, max}}: what this board's file set for an option, as the
    // page's form applies them) give their defaults.
    const puzzleDefaults = Object.fromEntries(Object.entries(info.options || {})
      .filter(([, override]) => override && typeof override === "object" && "default" in override)
      .map(([name, override]) => [name, override.default]));
    this.values = { ...defaults, ...puzzleDefaults, ...(assignment.options || {}) };
    // The run options (not those the file was read with): what a run, the lab and the checker take.
    this.runNames = (family?.options || []).filter((o) => o.stage !== "load").map((o) => o.name);
    this.algorithm = assignment.algorithm;
    this.algorithmLabel = assignment.algorithm_label || assignment.algorithm;
    const view = this.stage.viewFor(info.family, info);
    if (!view) throw new api.ApiError(t("assignment.cannot_show", { family: info.family }));
    const data = await view.prepare(info);
    this.stage.show(info, data, view);
    this.info = info;
    this.busy.hidden = true;
    requestAnimationFrame(() => view.refit());
    return info;
  }

  /** The run options of the assignment: the family's defaults under the assignment's own. */
  options() {
    return Object.fromEntries(this.runNames.filter((name) => this.values[name] !== undefined && this.values[name] !== null).map((name) => [name, this.values[name]]));
  }

  /** Play a run on the board. @param {import("../stage/stage.js").StartArgs} args */
  play(args) {
    if (!this.info) return;
    this.say("");
    this.stage.start(args);
  }

  /** The board without a run: one still computing is cancelled, one playing stops and is cleared. */
  clearRun() {
    this.stage.cancel();
    this.stage.player.pause();
    this.stage.clearBoard();
  }

  /** @param {import("../stage/stage.js").RunEvent} event @param {any} run */
  runEvent(event, run) {
    if (event === "started") this.stage.player.play();
    if (event !== "frame") this.stage.player.pace(this.stage.total() ?? this.stage.timeline.length);
    this.sync();
    const { text, tone } = runStatus(run);
    this.say(run.error || text, tone === "error" ? "bad" : "");
  }

  /** What "Your code" (../code/code_tab.js CodePage) reads of the page. */
  codePage() {
    return {
      puzzle: () => this.info,
      options: (_algorithm) => this.options(),
      algorithm: () => this.algorithm,
      label: (name) => (name === this.algorithm ? this.algorithmLabel : name),
      stateForm: (info) => this.families.get(info?.family)?.state_form || "",
      signature: (puzzleId) => JSON.stringify([puzzleId, this.algorithm, this.values]),
      animate: (args) => this.play(args),
    };
  }

  /** What the heuristic lab (../lab/lab_panel.js LabPage) reads of the page. */
  labPage() {
    return {
      puzzle: () => this.info,
      view: () => this.view,
      families: () => this.families,
      options: () => this.options(),
      algorithms: () => [], // "Use as heuristic" belongs to the main page
      algorithm: () => this.algorithm,
      useHeuristic: () => {},
    };
  }

  /** What the checker (../lab/check_panel.js CheckPage) reads of the page. */
  checkPage() {
    return {
      puzzle: () => this.info,
      options: () => this.options(),
      replay: (args) => {
        if (this.info) this.stage.showResult(args);
      },
    };
  }

  /**
   * The state a click on the board names, in the family's notation, or null (a wall, off the board,
   * or a view that cannot tell: FamilyView.statesAt).
   * @param {MouseEvent} event
   * @returns {string | null}
   */
  stateAt(event) {
    const states = this.view?.statesAt(event.clientX, event.clientY);
    if (!states || !states.length) return null;
    return this.view.stateLabel(states[0]);
  }

  /** True when a click on the board names a state (a view whose cells are states). */
  get clickable() {
    return Boolean(this.view) && this.view.statesAt(0, 0) !== null;
  }
}
