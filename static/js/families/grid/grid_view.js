// The grid maze family's view: the maze on its own canvas (zoom, pan, the wave's colours and numbers),
// the "Start & goal" panel (a click on a free cell sets the start or the goal when the file left them
// ambiguous, or to override them), the banner that asks for them, the hover read-out and the legend.
// The interface is the one documented in ../index.js; every bit of state lives on the instance.

import * as api from "../../api.js";
import { el } from "../../dom.js";
import { sentence } from "../../format.js";
import { renderGridLegend } from "./grid_legend.js";
import { GridRenderer } from "./grid_renderer.js";
import { GridState } from "./grid_state.js";

const RESCALE_EVERY_MS = 250; // the colour scale grows at most this often while frames arrive

export class GridView {
  // Where the shell puts this family's option controls (all under the algorithm menu), and the
  // muted notes after their labels.
  static formLayout = { own: [], notes: { weight: "(f = g + w·h)", diagonal: "(no corner cutting)" } };

  /** @param {{canvas: HTMLCanvasElement, hosts: {left, right, banner}, timeline, player, shell}} args */
  constructor({ canvas, hosts, timeline, player, shell }) {
    Object.assign(this, { canvas, hosts, timeline, player, shell });
    this.wideRight = false;
    this.renderer = new GridRenderer(canvas);
    this.renderer.onCellClick = (cell, event) => this.cellClicked(cell, event);
    this.renderer.onHover = (cell) => this.cellHovered(cell);
    this.info = null;
    this.cells = null; // Uint8Array, 0 = wall, 1..9 = cost
    this.state = null; // GridState, one per maze
    this.picked = { start: null, goal: null }; // flat cell indices chosen by clicking
    this.pickMode = "off"; // "off" | "start" | "goal"
    this.rescaledAt = -Infinity;
    this.buildPanels();
  }

  buildPanels() {
    const pickButton = (mode, testid, text) => el("button", {
      type: "button", testid, "aria-pressed": String(mode === "off"), text,
      on: { click: () => this.setPickMode(mode) },
    });
    this.pickButtons = {
      off: pickButton("off", "pick-off", "Pan"),
      start: pickButton("start", "pick-start", "Set start"),
      goal: pickButton("goal", "pick-goal", "Set goal"),
    };
    this.pickedText = el("span", { testid: "picked" });
    this.clearButton = el("button", {
      type: "button", class: "link", testid: "clear-picks", text: "reset",
      on: { click: () => this.clearPicks() },
    });
    this.panel = el("section", {},
      el("h2", { text: "Start & goal" }),
      el("div", { class: "segmented", role: "group", "aria-label": "A click on the board sets" },
        this.pickButtons.off, this.pickButtons.start, this.pickButtons.goal),
      el("p", { class: "hint", text: "Click a free cell; shift-click sets the goal." }),
      el("p", { class: "picked" }, this.pickedText, " ", this.clearButton),
    );
    this.banner = el("div", { class: "banner warn", testid: "endpoint-problem", role: "alert", hidden: true });
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  /** Fetch what enter() needs (the cells), without changing what is shown. */
  async prepare(info) {
    this.shell.setBusy("loading cells…");
    const cells = await api.getCells(info.id);
    if (cells.length !== info.width * info.height) throw new api.ApiError("The maze's cells did not arrive complete.");
    return { cells };
  }

  /** Show a maze: its canvas is in the board now. */
  enter(info, { cells }) {
    this.info = info;
    this.cells = cells;
    this.state = new GridState(info.width, info.height);
    this.picked = { start: null, goal: null };
    this.hosts.left.append(this.panel);
    this.hosts.banner.append(this.banner);
    this.renderer.toolsWidth = this.shell.toolsWidth();
    this.renderer.setActive(true);
    this.renderer.setMaze(info.width, info.height, cells, this.state);
    this.setPickMode(info.endpoint_problem ? "start" : "off");
    this.updateMarkers();
  }

  /** What the trace Player drives: the per-cell state and the renderer that paints it. */
  playerTarget() {
    return { state: this.state, renderer: this.renderer };
  }

  /** Another view takes the board: stop drawing and take the panels away. */
  leave() {
    this.renderer.setActive(false);
    this.setPickMode("off");
    this.panel.remove();
    this.banner.remove();
  }

  // ---- the board tools ---------------------------------------------------------------------------

  fit() {
    this.renderer.fit();
  }

  zoomBy(factor) {
    this.renderer.zoomBy(factor);
  }

  /** The page's text size changed: the board's buttons did too. */
  refit() {
    this.renderer.toolsWidth = this.shell.toolsWidth();
    if (this.renderer.autoFit) this.renderer.fit();
  }

  // ---- options -----------------------------------------------------------------------------------

  /** The options whose control is the board: start and goal as [row, col], or null (the file's). */
  viewOptions() {
    const toRC = (cell) => (cell === null ? null : [Math.floor(cell / this.info.width), cell % this.info.width]);
    return { start: toRC(this.picked.start), goal: toRC(this.picked.goal) };
  }

  optionChanged(name, value, form) {
    // The heuristic that suits the move rule (manhattan overestimates with diagonal moves).
    if (name === "diagonal") form.set("heuristic", value ? "octile" : "manhattan");
  }

  /** Null when a run can start; else what is missing (and the board is set to pick it). */
  checkReady() {
    const missing = this.endpointsMissing();
    if (!missing.length) return null;
    this.setPickMode(missing[0]);
    return `Choose the ${missing.join(" and ")} first: click a free cell on the maze.`;
  }

  // ---- a run ---------------------------------------------------------------------------------------

  runStarted() {
    this.renderer.setScoreMax(1);
    this.rescaledAt = -Infinity;
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

  result() {}

  /** Every record is here: the exact colour scale. */
  traceComplete() {
    this.renderer.setScoreMax(this.timeline.maxValue);
  }

  legend(container, { algorithm }) {
    renderGridLegend(container, {
      weighted: Boolean(this.info?.weighted),
      backward: algorithm === "bidirectional",
      scoreMax: this.timeline.maxValue,
      scoreName: algorithm === "bfs" ? "wave score" : "cost so far",
    });
  }

  /** The move rule, for the verdict's tooltip. */
  describeRule(used) {
    return used.diagonal ? "8 directions, no corner cutting" : "4 directions";
  }

  // ---- start and goal ----------------------------------------------------------------------------

  setPickMode(mode) {
    this.pickMode = mode;
    for (const [value, button] of Object.entries(this.pickButtons)) {
      button.setAttribute("aria-pressed", String(mode === value));
    }
    this.canvas.classList.toggle("picking", mode !== "off");
  }

  clearPicks() {
    this.picked = { start: null, goal: null };
    this.updateMarkers();
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
      this.shell.showError("That cell is a wall: pick a free (light) cell.");
      return;
    }
    this.shell.showError("");
    this.picked[which] = cell;
    // Guide the user through both clicks when the file decided neither.
    if (which === "start" && this.pickMode === "start" && this.picked.goal === null && !this.info.goals.length) {
      this.setPickMode("goal");
    }
    this.updateMarkers();
  }

  cellHovered(cell) {
    if (cell < 0 || !this.info) {
      this.shell.setHover("");
      return;
    }
    const W = this.info.width;
    const weight = this.cells[cell];
    const parts = [`row ${Math.floor(cell / W)}, col ${cell % W}`, weight === 0 ? "wall" : `cost ${weight}`];
    if (this.state.status[cell]) parts.push(`score ${+this.state.score[cell].toFixed(3)}`);
    this.shell.setHover(parts.join(" · "));
  }

  updateMarkers() {
    const info = this.info;
    const W = info.width;
    const cellOf = ([r, c]) => r * W + c;
    const starts = this.picked.start !== null ? [this.picked.start] : info.starts.map(cellOf);
    const goals = this.picked.goal !== null ? [this.picked.goal] : info.goals.map(cellOf);
    this.renderer.setMarkers(starts, goals);
    const missing = this.endpointsMissing();
    this.banner.hidden = !info.endpoint_problem || missing.length === 0;
    this.banner.textContent = info.endpoint_problem
      ? `${sentence(info.endpoint_problem)} Click a free cell on the maze for the ${missing.join(" and ")}` +
        " (shift-click sets the goal)."
      : "";
    const rc = (cell) => `(${Math.floor(cell / W)}, ${cell % W})`;
    const parts = [];
    if (this.picked.start !== null) parts.push(`start ${rc(this.picked.start)}`);
    if (this.picked.goal !== null) parts.push(`goal ${rc(this.picked.goal)}`);
    this.pickedText.textContent = parts.length ? `Chosen: ${parts.join(", ")}` : "";
    this.clearButton.hidden = parts.length === 0;
  }
}
