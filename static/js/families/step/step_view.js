// The step-cycle ("1-2-3") maze family's view: the maze on its own canvas with one mark per phase in
// every cell, the state space beside it as one layer per phase, what the search is doing at the
// player's position in the trace (the state being expanded and the jumps it generates), and after
// the run the solution as jumps, replayed move by move beside its move list. The interface is
// FamilyView's (../family_view.js), the search and the solution's reveal SolutionView's
// (../solution_view.js); every bit of state lives on the instance.

import { sizeText } from "../../format.js";
import { t } from "../../i18n.js";
import { num } from "../words.js";
import { SolutionView } from "../solution_view.js";
import {
  BLANK, GOAL, START, boardOf, cycleProblem, cycleText, decodeState, directionWord, estimate,
} from "./step_board.js";
import { renderStepLegend } from "./step_legend.js";
import { MODES } from "./step_layout.js";
import { stepEditor } from "./step_editor.js";
import { buildStepPanels } from "./step_panels.js";
import { StepRenderer } from "./step_renderer.js";
import { StepReplay } from "./step_replay.js";
import { STATUS, StepSearch } from "./step_search.js";

const DEFAULT_CYCLE = [1, 2, 3];
// The hover read-out's word for a state's status (catalog keys).
const STATUS_WORDS = {
  [STATUS.OPEN]: "fam.step.st_open", [STATUS.CLOSED]: "fam.step.st_closed", [STATUS.UPDATED]: "fam.step.st_updated",
  [STATUS.OPEN_B]: "fam.step.st_open_b", [STATUS.CLOSED_B]: "fam.step.st_closed_b", [STATUS.UPDATED_B]: "fam.step.st_updated_b",
};

const rc = (r, c) => `(${r}, ${c})`;

export class StepView extends SolutionView {
  // Where the shell puts this family's option controls: the cycle in a section of its own, the rest
  // under the algorithm menu; muted notes after labels.
  // The title and notes are catalog keys (the form writes them in the current language).
  static kindKey = "fam.step.kind"; // the board in words (its text alternative)
  static formLayout = {
    title: "fam.step.form_title",
    own: [["cycle"]],
    shared: [["heuristic", "weight"]],
    notes: { cycle: "fam.step.note_cycle", weight: "(f = g + w·h)" },
  };

  /** @param {import("../family_view.js").FamilyViewArgs} args */
  constructor(args) {
    super(args, new StepRenderer(args.canvas), new StepSearch());
    this.renderer.onHover = (hit) => this.hovered(hit);
    this.board = null;
    this.runId = null;
    this.run = null; // {algorithm, options, cycle, heuristic, weight}
    this.idleCycle = DEFAULT_CYCLE; // the cycle the idle board shows (the form's, when valid)
    this.layoutMode = "both"; // what the board shows: the maze, the layers or both (step_layout.js MODES)
    this.solutionCaption = "";
    this.legendHost = null;
    this.panels = buildStepPanels();
    for (const [mode, button] of Object.entries(this.panels.modes)) {
      button.addEventListener("click", () => this.setMode(mode));
    }
    // Its controls leave the canvas as it is (it shows the solution once revealed); the presentation
    // bar's buttons drive it too.
    this.replay = this.newReplay(StepReplay, {
      controls: [this.panels.buttons, this.panels.bar],
      onActivate: () => {},
      onShow: (step, overview) => this.replayShown(step, overview),
    });
    this.setMode(this.layoutMode);
    this.editor = stepEditor(this);
    this.hoveredAt = null; // the hover read-out's hit, written again in another language
  }

  /** The canvas's caption and the hover read-out, again in the new language. */
  languageChanged() {
    if (!this.active || !this.info) return;
    const result = this.revealed ? this.pendingResult : null;
    if (result?.found && this.replay.loaded) this.replayShown(this.replay.step, this.replay.overview);
    else if (result?.found) this.solutionCaption = t("fam.step.start_is_goal");
    else if (result) this.solutionCaption = t("fam.step.no_solution", { why: this.whyNoneOrIllegal(result) });
    super.languageChanged();
    if (this.hoveredAt) this.hovered(this.hoveredAt);
  }

  get cycle() {
    return this.run ? this.run.cycle : this.idleCycle;
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  /** Show a step maze (puzzle info from the API): its canvas is in the board now (`edited`: changed). */
  enter(info, { edited = false } = {}) {
    this.info = info;
    this.board = boardOf(info);
    this.runId = null;
    this.run = null;
    this.pendingResult = null;
    this.idleCycle = this.validCycle(this.shell.option("cycle")) || this.fileCycle();
    this.search.resize(0, this.idleCycle.length); // sized by the first run (a big board's arrays are large)
    this.hideSolution();
    this.panels.root.hidden = true; // no run, no solution to speak of
    this.place(this.hosts.left, this.panels.left, this.editor.panel);
    this.editor.reset({ edited });
    this.place(this.hosts.right, this.panels.root);
    this.place(this.hosts.banner, this.panels.banner);
    this.showBar();
    this.renderer.setActive(true);
    this.renderer.setPuzzle(this.board, this.idleCycle);
    this.traceChanged();
  }

  leave() {
    super.leave();
    this.runId = null;
  }

  /** The page's text size or layout changed: draw again (titles and captions follow the text size). */
  refit() {
    this.showBar();
    this.renderer.requestDraw();
  }

  /** Presentation mode hides the side panels: the replay's bar above the board stands in for them. */
  showBar() {
    const presenting = document.documentElement.classList.contains("presenting");
    this.panels.banner.hidden = !(presenting && this.revealed && this.replay.loaded);
  }

  setMode(mode) {
    if (!MODES.includes(mode)) return;
    this.layoutMode = mode;
    for (const [name, button] of Object.entries(this.panels.modes)) button.setAttribute("aria-pressed", String(name === mode));
    this.renderer.setMode(mode);
  }

  // ---- options -----------------------------------------------------------------------------------

  fileCycle() {
    return this.validCycle(this.info?.cycle) || DEFAULT_CYCLE;
  }

  /** `cycle` when it is a usable cycle for this puzzle, else null. */
  validCycle(cycle) {
    if (!Array.isArray(cycle)) return null;
    return cycleProblem(cycle, this.limits()) ? null : cycle.slice();
  }

  limits() {
    return { maxLength: this.info?.max_cycle_length ?? 16, maxStep: this.info?.max_step ?? 1000 };
  }

  optionChanged(name, value) {
    if (!this.active || name !== "cycle") return;
    // Before any run the board shows the new cycle (its marks and layers); after one it keeps showing
    // the run (the shell marks it as the previous run) until Run is pressed.
    const cycle = value === null ? this.fileCycle() : this.validCycle(value);
    if (!cycle) return;
    this.idleCycle = cycle;
    if (this.runId !== null) return;
    this.renderer.setScene({ cycle });
    this.traceChanged();
    if (this.legendHost) this.legend(this.legendHost, { algorithm: this.legendAlgorithm });
  }

  checkReady() {
    const cycle = this.shell.option("cycle");
    if (cycle === null || cycle === undefined) return null; // the file's cycle
    const problem = cycleProblem(cycle, this.limits());
    return problem ? t("fam.step.cycle_problem", { problem }) : null;
  }

  // ---- the search ----------------------------------------------------------------------------------

  runStarted(runId, { algorithm, options = {} } = {}) {
    this.runId = runId;
    const cycle = this.validCycle(options.cycle) || this.fileCycle();
    const heuristic = options.heuristic || this.info.heuristics?.[0] || "manhattan";
    this.run = { algorithm: algorithm || null, options, cycle, heuristic, weight: options.weight ?? 1 };
    this.search.resize(this.info.rows * this.info.cols * cycle.length, cycle.length);
    this.searchStarted();
    this.renderer.setScene({ cycle, search: this.search, timeline: this.timeline, showSearchMarks: true, solution: null });
    this.traceChanged();
  }

  traceComplete() {
    this.traceChanged();
  }

  /** The server's account of the run wins over what was asked (the heuristic it resolved). */
  result(result) {
    if (this.run && result?.options?.heuristic) this.run.heuristic = result.options.heuristic;
    super.result(result);
  }

  /** The Player moved through the trace (or a run began or ended): redraw what it has reached. */
  traceChanged() {
    if (!this.active) return;
    this.reveal(this.traceAtEnd && this.pendingResult !== null && this.runId !== null);
    this.renderer.setScene({
      scoreMax: Math.max(1, this.timeline.maxValue),
      caption: this.revealed ? this.solutionCaption : this.searchCaption(),
    });
  }

  searchCaption() {
    const { rows, cols } = this.info;
    const cycle = this.cycle;
    if (this.runId === null) {
      const states = rows * cols * cycle.length;
      return t("fam.step.caption_idle", { size: sizeText(cols, rows, "cells"), cycle: cycleText(cycle), states });
    }
    const s = this.search;
    if (s.current < 0) {
      return t(s.position > 0 ? "fam.step.caption_waits" : "fam.view.caption_press_play");
    }
    if (s.pathCount > 0) return t("fam.step.caption_path", { count: s.pathCount });
    const { r, c, phase } = decodeState(s.current, cols, cycle.length);
    const g = s.score[s.current];
    const head = t("fam.step.caption_head", { rc: rc(r, c), next: cycle[phase], g: num(g) });
    const made = s.generatedNow(this.timeline).map((state) => decodeState(state, cols, cycle.length));
    if (made.length) return t("fam.step.caption_jumps", { head, list: made.map((m) => rc(m.r, m.c)).join(", ") });
    if (this.info && this.board.kinds[s.current / cycle.length | 0] === GOAL) return t("fam.step.caption_goal", { head });
    return t(s.position - 1 === s.currentAt ? "fam.step.caption_next" : "fam.step.caption_none", { head });
  }

  // ---- explain mode (../family_view.js) -----------------------------------------------------------

  /** h of a state under the shown run's heuristic (step_board.js estimate), or null. */
  heuristicOf(state) {
    if (!this.run || !this.info || this.run.heuristic === "yours") return null; // a formula: the server's
    const cycle = this.run.cycle;
    const { r, c } = decodeState(state, this.info.cols, cycle.length);
    return estimate(this.board, this.run.heuristic, r, c, Math.max(...cycle));
  }

  /** Exercise mode's click: a cell of the maze holds a state per phase, a cell of a layer its phase's. */
  statesAt(clientX, clientY) {
    if (!this.info) return null;
    const hit = this.renderer.hit(clientX, clientY);
    if (!hit) return [];
    const P = this.cycle.length;
    const cell = hit.r * this.info.cols + hit.c;
    return hit.layer === null ? Array.from({ length: P }, (_, p) => cell * P + p) : [cell * P + hit.layer];
  }

  /** "(row, col) phase p". */
  stateLabel(state) {
    const P = this.cycle.length;
    const { r, c, phase } = decodeState(state, this.info?.cols || 1, P);
    return t("fam.step.state_label", { rc: rc(r, c), phase });
  }

  /** The state being expanded at the playhead: g (moves so far), its phase and next move; h, f. */
  playheadFigures() {
    if (this.runId === null || !this.run) return [];
    const s = this.search;
    const cycle = this.run.cycle;
    const P = cycle.length;
    const at = s.current >= 0 ? decodeState(s.current, this.info.cols, P) : null;
    const g = at ? s.score[s.current] : null;
    const figures = [
      { key: "g", label: "g", value: g, def: t("fam.view.def_g") },
      { key: "phase", label: t("fam.step.fig_phase"), value: at ? at.phase : null, def: t("fam.step.def_phase", { P }) },
      { key: "next", label: t("fam.step.fig_next"), value: at ? cycle[at.phase] : null, def: t("fam.step.def_next") },
    ];
    const algorithm = this.run.algorithm;
    if (algorithm === "astar" || algorithm === "greedy") {
      const h = at && this.run.heuristic !== "yours" ? estimate(this.board, this.run.heuristic, at.r, at.c, Math.max(...cycle)) : null;
      figures.push(
        { key: "h", label: "h", value: h, def: t("fam.view.def_h", { heuristic: this.run.heuristic }) },
        {
          key: "f", label: "f", value: h === null ? null : algorithm === "greedy" ? h : g + this.run.weight * h,
          def: algorithm === "greedy" ? t("fam.view.def_f_greedy") : t("fam.view.def_f", { w: num(this.run.weight) }),
        },
      );
    }
    return figures;
  }

  // ---- the result and its replay (../solution_view.js) ------------------------------------------

  /** Show the solution (at the end of the trace) or hide it again (stepped back into the search). */
  whyNone(result) {
    return result.message || (result.stopped
      ? t("fam.view.stopped", { reason: result.stopped })
      : t("fam.step.unreachable", { cycle: cycleText(this.cycle) }));
  }

  showSolution(result, why) {
    if (result && result.found) {
      this.solutionCaption = t("fam.step.start_is_goal");
      this.replay.load(result); // draws the solution and sets the caption (when it has moves)
    } else {
      this.replay.clear();
      this.renderer.setScene({ solution: null });
      this.solutionCaption = result ? t("fam.step.no_solution", { why }) : "";
    }
    this.showBar();
  }

  replayShown(step, overview) {
    const moves = this.replay.moves;
    const n = moves.length;
    if (overview) this.solutionCaption = t("fam.step.caption_overview", { count: n });
    else if (step === 0) this.solutionCaption = t("fam.step.caption_start", { count: n });
    else {
      const m = moves[step - 1];
      this.solutionCaption = t("fam.step.caption_move", {
        step, n, length: m.length, dir: directionWord(m.direction), from: rc(...m.from), to: rc(...m.to),
      });
    }
    this.renderer.setScene({ caption: this.solutionCaption });
  }

  // ---- the hover read-out ------------------------------------------------------------------------

  hovered(hit) {
    this.hoveredAt = hit;
    if (!hit || !this.info) {
      this.shell.setHover("");
      return;
    }
    const { r, c, layer } = hit;
    const cols = this.info.cols;
    const kind = this.board.kinds[r * cols + c];
    const parts = [t("fam.view.hover_rc", { r, c }),
      t(kind === BLANK ? "fam.step.hover_blank" : kind === START ? "fam.step.hover_start" : kind === GOAL ? "fam.step.hover_goal" : "fam.step.hover_marked")];
    if (kind !== BLANK) {
      const cycle = this.cycle;
      const P = cycle.length;
      const phases = layer === null ? [...Array(P).keys()] : [layer];
      const shown = this.runId !== null && this.search.status.length === this.info.rows * cols * P;
      for (const p of phases) {
        const state = (r * cols + c) * P + p;
        let word = t("fam.step.st_unreached");
        if (shown && this.search.status[state]) {
          word = `${t(STATUS_WORDS[this.search.status[state]] || "fam.step.st_reached")}, g ${num(this.search.score[state])}`;
        }
        parts.push(t("fam.step.hover_next", { next: cycle[p], word: shown ? word : "—" }));
      }
    }
    this.shell.setHover(parts.join(" · "));
  }

  // ---- what the shell shows for it -------------------------------------------------------------

  legend(container, { algorithm } = {}) {
    this.legendHost = container;
    this.legendAlgorithm = algorithm;
    renderStepLegend(container, {
      cycle: this.cycle,
      backward: algorithm === "bidirectional",
      improves: !["bfs", "dfs", "iddfs", "idastar"].includes(algorithm),
      scoreMax: this.timeline.maxValue,
      scoreKey: algorithm === "bfs" ? "fam.step.legend_by_wave" : "fam.step.legend_by_moves",
    });
  }

  /** A run's options in words: "cycle 1,2,3 · manhattan heuristic, weight 1". */
  describeRun(algorithm, options) {
    const cycle = Array.isArray(options.cycle) ? options.cycle : this.info?.cycle || DEFAULT_CYCLE;
    const parts = [t("fam.step.run_cycle", { cycle: cycleText(cycle) })];
    if (options.heuristic !== undefined) {
      const heuristic = options.heuristic || this.info?.heuristics?.[0] || t("fam.view.default");
      parts.push(options.weight !== undefined
        ? t("fam.view.heuristic_weight", { heuristic, w: num(options.weight) })
        : t("fam.view.heuristic", { heuristic }));
    }
    if (options.max_depth !== undefined && options.max_depth !== null) parts.push(t("fam.view.depth_limit", { limit: options.max_depth }));
    return parts.join(" · ");
  }

  // ---- the board by keyboard (A2: ../../board/cell_cursor.js; FamilyView cursorGrid …) ---------

  /** The cursor walks the maze's cells (the big board, not the phase layers). */
  cursorGrid() {
    const L = this.renderer.layout;
    const board = this.renderer.board;
    if (!board || !L?.main || !(L.unit > 0)) return null;
    return { columns: board.cols, rows: board.rows };
  }

  /** A cell's square on the big board. */
  cursorRect(column, row) {
    const L = this.renderer.layout;
    if (!L?.main || !(L.unit > 0)) return null;
    return { x: L.main.x + column * L.unit, y: L.main.y + row * L.unit, width: L.unit, height: L.unit };
  }
}
