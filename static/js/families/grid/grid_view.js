// The grid maze family's view: the maze on its own canvas (zoom, pan, the wave's colours and numbers),
// the "Start & goal" panel (a click on a free cell sets the start or the goal when the file left them
// ambiguous, or to override them), the banner that asks for them, the hover read-out and the legend.
// The interface is FamilyView's (../family_view.js); every bit of state lives on the instance.

import * as api from "../../api.js";
import { el } from "../../dom.js";
import { sentence } from "../../format.js";
import { onLanguage, setText, t } from "../../i18n.js";
import { clearText, num } from "../words.js";
import { reducedMotion } from "../../motion.js";
import { evaluateFormula } from "../../formula.js";
import { FamilyView } from "../family_view.js";
import { KIND } from "../../timeline.js";
import { GridEditor } from "./grid_editor.js";
import { pickButtons } from "./pick_buttons.js";
import { renderGridLegend } from "./grid_legend.js";
import { GridRenderer } from "./grid_renderer.js";
import { GridState } from "./grid_state.js";

const RESCALE_EVERY_MS = 250; // the colour scale grows at most this often while frames arrive
const SQRT2_MINUS_1 = Math.SQRT2 - 1;

/** server/puzzles/grid/problem.py heuristic_value: a distance for an offset of (dr, dc) >= 0 cells. */
export function heuristicValue(name, dr, dc) {
  if (name === "manhattan") return dr + dc;
  if (name === "euclidean") return Math.sqrt(dr * dr + dc * dc);
  if (name === "octile") return Math.max(dr, dc) + SQRT2_MINUS_1 * Math.min(dr, dc);
  return Math.max(dr, dc); // chebyshev
}

/** A touch screen: no hover, no shift-click. */
const touchScreen = () => window.matchMedia("(hover:none), (pointer:coarse)").matches;

export class GridView extends FamilyView {
  // Where the shell puts this family's option controls (all under the algorithm menu), and the
  // muted notes after their labels.
  // The notes are catalog keys or notations (the form writes them through t()).
  static formLayout = {
    own: [],
    shared: [["heuristic", "weight"]],
    notes: { weight: "(f = g + w·h)", diagonal: "fam.grid.note_diagonal" },
  };
  static kindKey = "fam.grid.kind"; // the board in words (its text alternative)
  static playsMaking = true; // playMaking replays a generated maze's making

  /** @param {import("../family_view.js").FamilyViewArgs} args */
  constructor(args) {
    super(args);
    this.renderer = new GridRenderer(this.canvas);
    this.renderer.onCellClick = (cell, event) => this.cellClicked(cell, event);
    this.renderer.onHover = (cell) => this.cellHovered(cell);
    this.cells = null; // Uint8Array, 0 = wall, 1..9 = cost
    this.state = null; // GridState, one per maze
    this.picked = { start: null, goal: null }; // flat cell indices chosen by clicking
    this.pickMode = "off"; // "off" | "start" | "goal"
    this.rescaledAt = -Infinity;
    this.run = null; // {algorithm, options, heuristic, weight, box}: what the shown run used
    this.editor = new GridEditor({ view: this });
    this.hoveredCell = -1; // the cell of the hover read-out, written again in another language
    this.buildPanels();
    onLanguage(() => this.languageChanged());
  }

  /** The texts written at run time, again in the new language (the keyed ones translate themselves). */
  languageChanged() {
    if (!this.info) return;
    this.writeMarkerTexts();
    if (this.hoveredCell >= 0 && this.active) this.cellHovered(this.hoveredCell);
  }

  buildPanels() {
    this.pickButtons = pickButtons((mode) => this.setPickMode(mode));
    this.pickedText = el("span", { testid: "picked" });
    this.clearButton = el("button", {
      type: "button", class: "link", testid: "clear-picks", t: "fam.grid.reset_picks",
      on: { click: () => this.clearPicks() },
    });
    // Start and goal typed as "row, col": the keyboard's (and a phone's) way to set them.
    const field = (which, labelKey) => {
      const input = el("input", {
        type: "text", id: `${which}-rc`, testid: `${which}-rc`, inputmode: "numeric", autocomplete: "off",
        spellcheck: "false", "aria-describedby": "endpoint-hint",
      });
      input.addEventListener("change", () => this.typed(which, input));
      return { input, wrap: el("div", { class: "option" }, el("label", { for: `${which}-rc`, t: labelKey }), input) };
    };
    this.fields = { start: field("start", "fam.grid.start_rc"), goal: field("goal", "fam.grid.goal_rc") };
    this.fieldError = el("span", { class: "field-error", testid: "endpoint-error", role: "status", hidden: true });
    this.hint = el("p", { class: "hint", id: "endpoint-hint" });
    this.panel = el("section", {},
      el("h2", { t: "fam.grid.endpoints" }),
      el("div", { class: "segmented", role: "group", tattr: { "aria-label": "fam.grid.click_sets" } },
        this.pickButtons.off, this.pickButtons.start, this.pickButtons.goal),
      this.hint,
      el("div", { class: "option-row" }, this.fields.start.wrap, this.fields.goal.wrap),
      this.fieldError,
      el("p", { class: "picked" }, this.pickedText, " ", this.clearButton),
      el("h2", { t: "fam.grid.edit_board" }),
      this.editor.panel,
    );
    this.banner = el("div", { class: "banner warn", testid: "endpoint-problem", role: "alert", hidden: true });
    // An image drawn on a lattice is read as its cells; this reads it again pixel by pixel.
    this.latticeText = el("span", { testid: "lattice-note" });
    this.latticeRow = el("p", { class: "hint", hidden: true }, this.latticeText, " ", el("button", {
      type: "button", class: "link", testid: "lattice-off", t: "fam.grid.lattice_off",
      on: { click: () => this.shell.reread({ lattice: "off" }, this.info?.name || t("fam.grid.the_maze")) },
    }));
    this.panel.prepend(this.latticeRow);
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  /** Fetch what enter() needs (the cells), without changing what is shown. */
  async prepare(info) {
    this.shell.setBusy(t("fam.grid.loading_cells"));
    const cells = await api.getCells(info.id);
    if (cells.length !== info.width * info.height) throw new api.ApiError(t("fam.grid.cells_incomplete"));
    return { cells };
  }

  /** Show a maze: its canvas is in the board now (`edited`: the same board after a change of size). */
  enter(info, { cells, edited = false }) {
    this.info = info;
    this.cells = cells;
    this.state = new GridState(info.width, info.height);
    this.picked = { start: null, goal: null };
    this.editor.reset(info, { edited });
    this.run = null;
    const lattice = info.lattice;
    this.latticeRow.hidden = !lattice;
    if (!lattice) clearText(this.latticeText);
    else if (lattice.kind === "blocks") setText(this.latticeText, "fam.grid.lattice_blocks", { w: info.width, h: info.height, k: lattice.k });
    else setText(this.latticeText, "fam.grid.lattice_walls", { w: info.width, h: info.height, period: lattice.period });
    this.place(this.hosts.left, this.panel);
    this.place(this.hosts.banner, this.banner);
    if (this.hosts.boardTools) {
      this.place(this.hosts.boardTools, this.editor.toolbar);
      this.hosts.boardTools.hidden = false;
    }
    setText(this.hint, touchScreen() ? "fam.grid.hint_touch" : "fam.grid.hint_click");
    this.renderer.measureTools = () => {
      this.renderer.toolsWidth = this.shell.toolsWidth();
    };
    this.renderer.textScale = this.shell.textScale();
    this.renderer.setActive(true);
    this.renderer.setMaze(info.width, info.height, cells, this.state);
    if (edited && this.editor.active) this.setTool(this.editor.tool);
    else this.setPickMode(info.endpoint_problem ? "start" : "off");
    this.updateMarkers();
  }

  /** What the trace Player drives: the per-cell state and the renderer that paints it. */
  playerTarget() {
    return { state: this.state, renderer: this.renderer };
  }

  /** Another view takes the board: stop drawing and take the panels away (the maze stays: info). */
  leave() {
    this.finishMaking?.(); // a generated board's making (playMaking) ends on the board
    this.renderer.setActive(false);
    this.setTool("off");
    this.unplace();
    if (this.hosts.boardTools) this.hosts.boardTools.hidden = true;
  }

  // ---- the board tools ---------------------------------------------------------------------------

  /** The board zooms and pans: its zoom buttons apply. */
  get zoomable() {
    return true;
  }

  fit() {
    this.renderer.fit();
  }

  zoomBy(factor) {
    this.renderer.zoomBy(factor);
  }

  /** The page's text size changed: the board's buttons did too. */
  refit() {
    this.renderer.measureTools?.();
    this.renderer.textScale = this.shell.textScale();
    if (this.renderer.autoFit) this.renderer.fit();
    else this.renderer.requestDraw();
  }

  // ---- options -----------------------------------------------------------------------------------

  /** The options whose control is the board: start and goal as [row, col], or null (the file's). */
  viewOptions() {
    const toRC = (cell) => (cell === null ? null : [Math.floor(cell / this.info.width), cell % this.info.width]);
    return { start: toRC(this.picked.start), goal: toRC(this.picked.goal) };
  }

  /** Take view options chosen in another view (a comparison's panels use the single view's start and goal). */
  useViewOptions({ start = null, goal = null } = {}) {
    if (!this.info) return;
    const cellOf = (p) => (Array.isArray(p) ? p[0] * this.info.width + p[1] : null);
    this.picked = { start: cellOf(start), goal: cellOf(goal) };
    this.updateMarkers();
  }

  optionChanged(name, value, form) {
    // The heuristic that suits the move rule (manhattan overestimates with diagonal moves).
    if (name === "diagonal") form.set("heuristic", value ? "octile" : "manhattan");
  }

  /** Null when a run can start; else what is missing (and the board is set to pick it). */
  checkReady() {
    if (!this.fieldError.hidden) return this.fieldError.textContent; // a typed start or goal was refused
    const missing = this.endpointsMissing();
    if (!missing.length) return null;
    this.setPickMode(missing[0]);
    return t(missing.length > 1 ? "fam.grid.choose_both" : `fam.grid.choose_${missing[0]}`);
  }

  // ---- a run ---------------------------------------------------------------------------------------

  runStarted(runId, { algorithm, options }) {
    this.finishMaking?.(); // a search starts on the finished board
    this.renderer.setIllegal(null); // a checked solution's mark goes with it
    this.renderer.setScoreMax(1);
    this.rescaledAt = -Infinity;
    const goals = this.goalCells();
    const W = this.info.width;
    let box = null;
    if (goals.length) {
      box = [Infinity, -Infinity, Infinity, -Infinity];
      for (const cell of goals) {
        const r = Math.floor(cell / W), c = cell % W;
        box = [Math.min(box[0], r), Math.max(box[1], r), Math.min(box[2], c), Math.max(box[3], c)];
      }
    }
    // The heuristic the server uses when none is named: the first for the move rule (problem.py).
    const heuristic = options.heuristic || (options.diagonal ? "octile" : "manhattan");
    this.run = { algorithm, options, heuristic, weight: options.weight ?? 1, box };
  }

  /** A frame's records are in the timeline. */
  frame() {
    // Grow the colour scale with headroom and at most a few times a second: each change recolours
    // every closed cell. Until then, higher scores show in the ramp's top colour.
    const now = performance.now();
    if (this.timeline.maxValue > this.renderer.scoreMax && now - this.rescaledAt > RESCALE_EVERY_MS) {
      this.renderer.setScoreMax(Math.ceil(this.timeline.maxValue * 1.25));
      this.rescaledAt = now;
    }
  }

  /** The server's account of what it used (the heuristic it resolved) wins over what was asked. */
  result(result) {
    if (this.run && result.options?.heuristic) this.run.heuristic = result.options.heuristic;
  }

  /** The words for a cell's recorded value: g, the cost so far (BFS: its steps from the start). */
  valueWords(algorithm) {
    return t(algorithm === "bfs" ? "fam.grid.words_steps" : "fam.grid.words_cost");
  }

  /** h and f of a cell for the shown run, when its algorithm has them: {h, f} or null. */
  estimate(cell, g) {
    const run = this.run;
    if (!run || (run.algorithm !== "astar" && run.algorithm !== "greedy")) return null;
    const h = this.heuristicOf(cell);
    if (h === null) return null;
    return { h, f: run.algorithm === "greedy" ? h : g === null ? null : g + run.weight * h };
  }

  // ---- the teacher's lab (../family_view.js) -------------------------------------------------------

  /** The heat map over the cells (zoom and pan apply to it as to the board). */
  showHeat(heat) {
    this.renderer.setHeat(heat);
  }

  get drawsHeat() {
    return true;
  }

  /** A checked path: its cells as path records from the start, painted one by one. */
  replayRecords(result) {
    const W = this.info?.width || 0;
    const path = Array.isArray(result?.path) ? result.path : [];
    const n = path.length;
    const kinds = new Uint8Array(n).fill(KIND.PATH);
    const cells = new Int32Array(n);
    const values = new Float32Array(n);
    let g = 0;
    path.forEach(([r, c], k) => {
      cells[k] = r * W + c;
      if (k > 0) g += this.stepCost(cells[k - 1], cells[k]) ?? 1;
      values[k] = g;
    });
    return { kinds, cells, values };
  }

  markIllegal(illegal) {
    this.renderer.setIllegal(illegal);
  }

  // ---- explain mode (../family_view.js): a record's cell is its state ---------------------------

  /**
   * h of a cell under the shown run's heuristic (problem.py: the distance to the goals' box), or null;
   * "yours": the run's formula over the cell's features (problem.py FEATURES, ../../formula.js).
   */
  heuristicOf(cell) {
    const run = this.run;
    if (!run || !run.box || !this.info) return null;
    const W = this.info.width;
    const r = Math.floor(cell / W), c = cell % W;
    const [r0, r1, c0, c1] = run.box;
    if (run.heuristic === "yours") {
      const goalRow = Math.min(Math.max(r, r0), r1), goalCol = Math.min(Math.max(c, c0), c1);
      const features = { row: r, col: c, goal_row: goalRow, goal_col: goalCol, dr: Math.abs(r - goalRow), dc: Math.abs(c - goalCol) };
      return evaluateFormula(String(run.options.formula || ""), features);
    }
    return heuristicValue(run.heuristic, Math.max(r0 - r, 0, r - r1), Math.max(c0 - c, 0, c - c1));
  }

  /** The cost of a move (problem.py successors): the entered cell's weight, times √2 diagonally. */
  stepCost(from, to) {
    const W = this.info?.width;
    if (!W || !this.cells) return null;
    const weight = this.cells[to];
    const diagonal = Math.floor(from / W) !== Math.floor(to / W) && from % W !== to % W;
    return diagonal ? weight * Math.SQRT2 : weight;
  }

  /** Exercise mode's click: the free cell under the point is its state (a wall or off the board: none). */
  statesAt(clientX, clientY) {
    if (!this.info || !this.cells) return null;
    const cell = this.renderer.cellAt(clientX, clientY);
    return cell < 0 || this.cells[cell] === 0 ? [] : [cell];
  }

  /** "(row, col)". */
  stateLabel(cell) {
    const W = this.info?.width || 1;
    return `(${Math.floor(cell / W)}, ${cell % W})`;
  }

  /** The state being expanded at the playhead: its g, and h and f for best-first algorithms. */
  playheadFigures() {
    const run = this.run;
    if (!run) return [];
    const cell = this.state.current;
    const g = cell >= 0 ? this.state.score[cell] : null;
    const figures = [{ key: "g", label: "g", value: g, def: t(run.algorithm === "bfs" ? "fam.grid.def_g_steps" : "fam.grid.def_g_cost") }];
    if (run.algorithm === "astar" || run.algorithm === "greedy") {
      const e = cell >= 0 ? this.estimate(cell, g) : null;
      figures.push(
        { key: "h", label: "h", value: e ? e.h : null, def: t("fam.grid.def_h", { heuristic: run.heuristic }) },
        {
          key: "f", label: "f", value: e ? e.f : null,
          def: run.algorithm === "greedy" ? t("fam.view.def_f_greedy") : t("fam.view.def_f", { w: num(run.weight) }),
        },
      );
    }
    return figures;
  }

  /** Every record is here: the exact colour scale. */
  traceComplete() {
    this.renderer.setScoreMax(this.timeline.maxValue);
  }

  legend(container, { algorithm }) {
    renderGridLegend(container, {
      weighted: Boolean(this.info?.weighted),
      backward: algorithm === "bidirectional",
      scoreMax: this.timeline.maxValue,
      scoreKey: algorithm === "bfs" ? "fam.grid.legend_by_g_steps" : "fam.grid.legend_by_g_cost",
    });
  }

  /** A run's options in words: "manhattan heuristic, weight 1 · 4 directions · start (1, 1)". */
  describeRun(algorithm, options) {
    const parts = [];
    if (algorithm === "astar" || algorithm === "greedy") {
      let heuristic = options.heuristic || (options.diagonal ? "octile" : "manhattan");
      if (heuristic === "yours") heuristic = t("fam.view.your_h", { formula: options.formula || "?" });
      parts.push(algorithm === "astar"
        ? t("fam.view.heuristic_weight", { heuristic, w: num(options.weight ?? 1) })
        : t("fam.view.heuristic", { heuristic }));
    }
    parts.push(t(options.diagonal ? "fam.grid.run_8" : "fam.grid.run_4"));
    const rc = (p) => `(${p[0]}, ${p[1]})`;
    if (options.start) parts.push(t("fam.grid.run_start", { rc: rc(options.start) }));
    if (options.goal) parts.push(t("fam.grid.run_goal", { rc: rc(options.goal) }));
    return parts.join(" · ");
  }

  // ---- start and goal ----------------------------------------------------------------------------

  setPickMode(mode) {
    this.setTool(mode);
  }

  /** One tool at a time: "off" (pan), "start"/"goal" (a click picks it), or the editor's draw tools. */
  setTool(tool) {
    const drawing = !(tool in this.pickButtons);
    this.pickMode = drawing ? "off" : tool;
    for (const [value, button] of Object.entries(this.pickButtons)) {
      button.setAttribute("aria-pressed", String(!drawing && tool === value));
    }
    this.editor.setTool(drawing ? tool : "off"); // also marks Pan on the board's tools
    this.renderer.drawing = drawing ? this.editor : null;
    this.canvas.classList.toggle("picking", tool !== "off");
  }

  // ---- editing (grid_editor.js) ---------------------------------------------------------------------

  /** The start and goal cells drawn now (flat indices, or null). */
  endpointCells() {
    const W = this.info.width;
    const first = (list) => (list.length ? list[0][0] * W + list[0][1] : null);
    return {
      start: this.picked.start ?? first(this.info.starts),
      goal: this.picked.goal ?? first(this.info.goals),
    };
  }

  /** The editor moved the start or goal: it is the board's own now (no longer a run option). */
  setEndpoint(which, cell) {
    const W = this.info.width;
    this.info[`${which}s`] = [[Math.floor(cell / W), cell % W]];
    this.picked[which] = null;
    this.updateMarkers();
  }

  /** Cells the editor changed (null: many): repaint them. */
  cellsChanged(cells) {
    if (!cells) this.renderer.repaintAll();
    else for (const cell of cells) this.renderer.paint(cell);
    this.renderer.requestDraw();
  }

  /** The server confirmed an edit: the new puzzle's info (its id); what is drawn is already ahead of it. */
  puzzleEdited(info, pending) {
    const { starts, goals } = this.info;
    this.info = pending ? { ...info, starts, goals } : info;
    this.editor.reset(this.info, { edited: true });
    this.updateMarkers();
  }

  /** What enter() needs to show the board as it is now (the comparison view's panels). */
  currentData() {
    return { cells: this.cells };
  }

  /** Show an undo's or redo's operations at once (the shell sends them). */
  applyEdits(ops) {
    this.editor.applyLocally(ops);
  }

  clearPicks() {
    this.picked = { start: null, goal: null };
    this.fieldError.hidden = true;
    this.updateMarkers();
    this.shell.optionsChanged();
  }

  /** A start or goal typed as "row, col": checked here (on the board, a free cell), never moved. */
  typed(which, input) {
    const text = input.value.trim();
    let problem = null;
    if (!text) {
      this.picked[which] = null;
    } else {
      const numbers = text.split(/[\s,;()]+/).filter(Boolean).map(Number);
      const [r, c] = numbers;
      const { width: W, height: H } = this.info;
      if (numbers.length !== 2 || !numbers.every(Number.isInteger)) problem = [`fam.grid.typed_not_rc_${which}`, { text }];
      else if (r < 0 || r >= H || c < 0 || c >= W) problem = [`fam.grid.typed_off_${which}`, { r, c, rmax: H - 1, cmax: W - 1 }];
      else if (this.cells[r * W + c] === 0) problem = [`fam.grid.typed_wall_${which}`, { r, c }];
      else this.picked[which] = r * W + c;
    }
    if (problem) setText(this.fieldError, problem[0], problem[1]);
    else clearText(this.fieldError);
    this.fieldError.hidden = !problem;
    input.classList.toggle("invalid", Boolean(problem));
    if (problem) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    this.updateMarkers(problem ? which : null);
    this.shell.optionsChanged();
  }

  endpointsMissing() {
    const missing = [];
    if (this.picked.start === null && !this.info.starts.length) missing.push("start");
    if (this.picked.goal === null && !this.info.goals.length) missing.push("goal");
    return missing;
  }

  cellClicked(cell, event) {
    if (!this.info) return;
    const which = event.shiftKey ? "goal" : this.pickMode;
    if (which === "off") return;
    if (this.cells[cell] === 0) {
      this.shell.showError(t("fam.grid.clicked_wall"));
      return;
    }
    this.shell.showError("");
    this.fieldError.hidden = true;
    this.fields[which].input.classList.remove("invalid");
    this.picked[which] = cell;
    // Guide the user through both clicks when the file decided neither.
    if (which === "start" && this.pickMode === "start" && this.picked.goal === null && !this.info.goals.length) {
      this.setPickMode("goal");
    }
    this.updateMarkers();
    this.shell.optionsChanged();
  }

  cellHovered(cell) {
    this.hoveredCell = cell;
    if (cell < 0 || !this.info) {
      this.shell.setHover("");
      return;
    }
    const W = this.info.width;
    const weight = this.cells[cell];
    const parts = [t("fam.view.hover_rc", { r: Math.floor(cell / W), c: cell % W }),
      weight === 0 ? t("fam.grid.hover_wall") : t("fam.grid.hover_weight", { w: weight })];
    if (this.run && weight !== 0) {
      const reached = this.state.status[cell] !== 0;
      const g = reached ? this.state.score[cell] : null;
      if (reached) parts.push(`g ${num(g)} (${this.valueWords(this.run.algorithm)})`);
      const e = this.estimate(cell, g);
      if (e) {
        parts.push(`h ${num(e.h)}`);
        if (e.f !== null) parts.push(`f ${num(e.f)}`);
      }
    }
    this.shell.setHover(parts.join(" · "));
  }

  /** The goal cells of a run now: the picked one, else the file's. */
  goalCells() {
    const W = this.info.width;
    return this.picked.goal !== null ? [this.picked.goal] : this.info.goals.map(([r, c]) => r * W + c);
  }

  /** `keepField`: "start" or "goal" whose text field holds a refused entry (left as typed). */
  updateMarkers(keepField = null) {
    const info = this.info;
    const W = info.width;
    const cellOf = ([r, c]) => r * W + c;
    const starts = this.picked.start !== null ? [this.picked.start] : info.starts.map(cellOf);
    const goals = this.goalCells();
    this.renderer.setMarkers(starts, goals);
    this.banner.hidden = !info.endpoint_problem || this.endpointsMissing().length === 0;
    const text = (cell) => `${Math.floor(cell / W)}, ${cell % W}`;
    for (const which of ["start", "goal"]) {
      const input = this.fields[which].input;
      if (which !== keepField) input.value = this.picked[which] !== null ? text(this.picked[which]) : "";
    }
    this.writeMarkerTexts();
    this.clearButton.hidden = this.picked.start === null && this.picked.goal === null;
  }

  /** The banner, the fields' placeholders and the chosen ends, in the current language. */
  writeMarkerTexts() {
    const info = this.info;
    const W = info.width;
    const missing = this.endpointsMissing();
    const which = missing.length > 1 ? "both" : missing[0] || "start";
    const how = touchScreen() ? t(`fam.grid.how_touch_${missing[0] || "start"}`) : t(`fam.grid.how_click_${which}`);
    this.banner.textContent = info.endpoint_problem
      ? t("fam.grid.banner", { problem: sentence(info.endpoint_problem), how })
      : "";
    const rc = (cell) => `(${Math.floor(cell / W)}, ${cell % W})`;
    for (const end of ["start", "goal"]) {
      const fromFile = end === "start" ? info.starts : info.goals;
      this.fields[end].input.placeholder = fromFile.length
        ? t("fam.grid.placeholder_file", { r: fromFile[0][0], c: fromFile[0][1] }) : t("fam.grid.placeholder_rc");
    }
    const parts = [];
    if (this.picked.start !== null) parts.push(t("fam.grid.run_start", { rc: rc(this.picked.start) }));
    if (this.picked.goal !== null) parts.push(t("fam.grid.run_goal", { rc: rc(this.picked.goal) }));
    this.pickedText.textContent = parts.length ? t("fam.grid.chosen", { list: parts.join(", ") }) : "";
  }

  // ---- the making of a generated board (../../making/generate_dialog.js) ----------------------------

  /**
   * Replay how a generated board was made: `generated.steps` (POST /api/generate) is base64 of int32
   * little-endian pairs (flat cell, new value) that, applied in order to a board filled with
   * `initial_fill`, give the cells shown. Played over 2–4 s (longer for more steps); a click or a
   * key anywhere, Run or another puzzle skip to the end (`this.finishMaking()`, set while it plays).
   * It always ends on exactly the cells shown before; body[data-making="1"] while it plays (tests).
   */
  playMaking(generated) {
    this.finishMaking?.();
    const cells = this.cells;
    if (!cells || typeof generated?.steps !== "string" || !Number.isInteger(generated.initial_fill)) return;
    const text = atob(generated.steps);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    const steps = new DataView(bytes.buffer);
    const count = Math.floor(bytes.length / 8);
    if (!count) return;
    const final = cells.slice();
    const renderer = this.renderer;
    let done = 0;
    let frame = 0;
    const apply = (until) => {
      for (; done < until; done++) {
        const cell = steps.getInt32(done * 8, true);
        if (cell < 0 || cell >= cells.length) continue; // the check at the end restores the board
        cells[cell] = steps.getInt32(done * 8 + 4, true);
        renderer.paint(cell);
      }
      renderer.requestDraw();
    };
    const finish = () => {
      cancelAnimationFrame(frame);
      document.removeEventListener("pointerdown", finish, true);
      document.removeEventListener("keydown", finish, true);
      this.finishMaking = null;
      delete document.body.dataset.making;
      apply(count);
      if (cells.some((value, i) => value !== final[i])) {
        console.warn("The generation's steps did not end on the board: the board is shown as it is.");
        cells.set(final);
        renderer.repaintAll();
      }
    };
    this.finishMaking = finish;
    document.addEventListener("pointerdown", finish, true);
    document.addEventListener("keydown", finish, true);
    document.body.dataset.making = "1";
    cells.fill(generated.initial_fill);
    renderer.repaintAll();
    const duration = Math.min(4000, 2000 + count / 50); // ms: 2 s, growing to 4 s at 100,000 steps
    const started = performance.now();
    const tick = (now) => {
      apply(Math.min(count, Math.ceil((count * (now - started)) / duration)));
      if (done < count) frame = requestAnimationFrame(tick);
      else finish();
    };
    if (reducedMotion()) {
      finish(); // the board as made, at once: nothing moves by itself under reduced motion
      return;
    }
    frame = requestAnimationFrame(tick);
  }

  // ---- the board by keyboard (A2: ../../board/cell_cursor.js; FamilyView cursorGrid …) ---------

  /** The cursor walks the maze's cells; it starts on the start. */
  cursorGrid() {
    if (!this.info || !this.renderer.maze) return null;
    const W = this.info.width;
    const { start } = this.endpointCells();
    const home = start === null ? undefined : { column: start % W, row: Math.floor(start / W) };
    return { columns: W, rows: this.info.height, home };
  }

  /** A cell's square after zoom and pan (the renderer's view transform). */
  cursorRect(column, row) {
    const { scale, ox, oy } = this.renderer.view;
    return { x: ox + column * scale, y: oy + row * scale, width: scale, height: scale };
  }

  /** "(3, 4): wall", "(1, 1): start", "(5, 7): free, expanded, g 12". */
  cursorLabel(column, row) {
    const cell = row * this.info.width + column;
    const weight = this.cells[cell];
    const what = [];
    if (weight === 0) what.push(this.a11yWords("a11y.cell.wall"));
    else {
      const { start, goal } = this.endpointCells();
      if (cell === start) what.push(this.a11yWords("a11y.cell.start"));
      if (cell === goal) what.push(this.a11yWords("a11y.cell.goal"));
      if (cell !== start && cell !== goal) what.push(this.a11yWords("a11y.cell.free"));
      if (weight > 1) what.push(this.a11yWords("a11y.cell.weight", { weight }));
      const status = this.run ? this.state.status[cell] : 0; // grid_state.js STATUS: 2, 6 closed; 1, 3, 5, 7 open
      if (status === 2 || status === 6) what.push(this.a11yWords("a11y.cell.expanded"));
      else if (status !== 0 && status !== 4) what.push(this.a11yWords("a11y.cell.frontier"));
      if (status !== 0) what.push(this.a11yWords("a11y.cell.g", { g: num(this.state.score[cell]) }));
      // The lab's heat map (../heat.js), in words: h/h* of the cell, an overestimate, a dead end.
      const heat = this.renderer.heat;
      const ratio = heat ? heat.ratio[cell] : 255;
      if (ratio === 254) what.push(this.a11yWords("a11y.cell.deadEnd"));
      else if (ratio < 254) what.push(this.a11yWords("a11y.cell.heat", { ratio: Math.round((100 * ratio) / heat.scale) / 100 }));
      if (heat && heat.over[cell]) what.push(this.a11yWords("a11y.cell.over"));
    }
    return this.a11yWords("a11y.cell.label", { cell: this.stateLabel(cell), what: what.join(", ") });
  }

  /** The start and goal drawn (picked, else the file's). */
  boardFacts() {
    if (!this.info) return { start: null, goal: null };
    const { start, goal } = this.endpointCells();
    return { start: start === null ? null : this.stateLabel(start), goal: goal === null ? null : this.stateLabel(goal) };
  }
}
