// The labyrinth family's part of the page: its options (move model, start and goal column, view),
// what the search is doing at the player's position in the trace (counts, g, the board of the state
// being expanded), and after the run the solution's replay. app.js keeps the shared parts (upload,
// run/stop, status, stats, the trace player) and hands over to this view for a labyrinth.

import { asBytes } from "./live.js";
import { initialState, snapshotState } from "./labyrinth_board.js";
import { LabyrinthRenderer } from "./labyrinth_renderer.js";
import { LabyrinthReplay } from "./labyrinth_replay.js";
import { LabyrinthSearch } from "./labyrinth_search.js";
import { COLORS, OKABE_ITO } from "./colors.js";
import { setNumber } from "./format.js";

const $ = (id) => document.getElementById(id);
const SNAPSHOT_CAP = 100000; // the server sends at most this many boards a run (docs/PROTOCOL.md)
const DEFAULT_SPEED = 1500; // app.js's default: the replay's durations are 1x there

/** Replay durations from the trace player's speed: slower steps, slower animations. */
export function animationScale(speed) {
  if (!Number.isFinite(speed)) return 0.15;
  return Math.max(0.15, Math.min(4, Math.pow(DEFAULT_SPEED / Math.max(1, speed), 0.3)));
}

export class LabyrinthView {
  /** @param {{canvas, socket, timeline, player, speed: () => number}} args */
  constructor({ canvas, socket, timeline, player, speed }) {
    this.timeline = timeline;
    this.player = player;
    this.renderer = new LabyrinthRenderer(canvas);
    this.search = new LabyrinthSearch();
    this.info = null;
    this.runId = null;
    this.result = null;
    this.mode = "idle"; // "idle" (no run yet) | "search" (the trace) | "replay" (the solution)
    this.replay = new LabyrinthReplay({
      renderer: this.renderer,
      list: $("moves"),
      prev: $("replay-prev"),
      next: $("replay-next"),
      play: $("replay-play"),
      position: $("replay-position"),
      speedScale: () => animationScale(speed()),
      onActivate: () => this.enterReplay(),
    });
    // The boards ride in the frames next to the records; live.js hands on only the records, so
    // listen for the same event here (live.js acknowledges every frame).
    socket.on("run_frame", (msg) => {
      if (msg?.run === this.runId && msg.snapshots) {
        this.search.addSnapshots(msg.snapshots.map((s) => ({ ...s, board: asBytes(s.board).slice() })));
      }
    });
    for (const id of ["move-model", "start-col", "goal-col", "lab-view"]) {
      $(id).addEventListener("change", () => this.optionsChanged());
    }
    // What the Player drives: the search state and a "renderer" that draws the expanded board.
    this.traceView = {
      paint: () => {},
      repaintAll: () => this.traceChanged(),
      requestDraw: () => this.traceChanged(),
      drawNow: () => this.traceChanged(),
    };
  }

  get active() {
    return this.info !== null;
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  /** Show a labyrinth (puzzle info from the API); `algorithms` labels its algorithm menu. */
  enter(info, algorithms) {
    const select = $("algorithm");
    // The grid's menu comes back on leave(); a second labyrinth keeps the first one's saved copy.
    if (!this.active) this.gridMenu = { options: Array.from(select.options), value: select.value };
    this.info = info;
    this.runId = null;
    this.result = null;
    this.mode = "idle";
    this.search.clear();
    this.replay.clear();
    setFamilyPanels(true);
    const labels = new Map(algorithms.map((a) => [a.name, a.label]));
    const names = info.algorithms || [];
    const previous = select.value;
    select.replaceChildren(...names.map((name) => new Option(labels.get(name) || name, name)));
    select.value = names.includes(previous) ? previous : names.includes("astar") ? "astar" : names[0] || "";
    $("heuristic").replaceChildren(...(info.heuristics || []).map((name) => new Option(name, name)));
    $("move-model").value = info.moves || "combined";
    for (const [id, value] of [["start-col", info.start_col], ["goal-col", info.goal_col]]) {
      $(id).min = "0";
      $(id).max = String(info.cols - 1);
      $(id).value = String(value);
    }
    $("lab-message").hidden = true;
    this.showSolutionStats(null);
    this.renderer.setActive(true);
    this.renderer.setPuzzle(info);
    this.showIdle();
    this.updateSearchPanel();
    renderLabyrinthLegend($("legend"));
  }

  /** Back to a grid maze: hand the canvas and the panels back. */
  leave() {
    if (!this.active) return;
    this.info = null;
    this.runId = null;
    this.replay.clear();
    this.renderer.setActive(false);
    setFamilyPanels(false);
    if (this.gridMenu) {
      $("algorithm").replaceChildren(...this.gridMenu.options);
      $("algorithm").value = this.gridMenu.value;
    }
  }

  runOptions(algorithm) {
    const weight = parseFloat($("weight").value);
    return {
      moves: $("move-model").value,
      start_col: this.column("start-col"),
      goal_col: this.column("goal-col"),
      heuristic: algorithm?.uses_heuristic ? $("heuristic").value : "",
      weight: algorithm?.uses_weight && Number.isFinite(weight) ? weight : 1.0,
      view: $("lab-view").value,
    };
  }

  /** A column input's value, clamped to the board (the server checks it again). */
  column(id) {
    const value = parseInt($(id).value, 10);
    const fallback = id === "start-col" ? this.info.start_col : this.info.goal_col;
    return Number.isFinite(value) ? Math.max(0, Math.min(this.info.cols - 1, value)) : fallback;
  }

  optionsChanged() {
    if (!this.active) return;
    this.renderer.setEndpoints(this.column("start-col"), this.column("goal-col"));
    if (this.mode !== "search") {
      // The shown solution was for other options: back to the new start, ready to run.
      this.replay.clear();
      this.mode = "idle";
      this.showIdle();
    }
  }

  showIdle() {
    const state = initialState(this.info);
    state.player.c = this.column("start-col");
    this.renderer.show(state, { caption: `${this.info.rows} × ${this.info.cols} tiles: press Run to search` });
  }

  // ---- the search ----------------------------------------------------------------------------------

  runStarted(runId) {
    this.runId = runId;
    this.result = null;
    this.mode = "search";
    this.search.clear();
    this.replay.clear();
    $("lab-message").hidden = true;
    this.showSolutionStats(null);
    this.traceChanged();
  }

  /** The Player moved through the trace: redraw the expanded state it has reached. */
  traceChanged() {
    if (!this.active) return;
    this.updateSearchPanel();
    const atEnd = this.timeline.complete && this.search.position >= this.timeline.length;
    if (atEnd && this.replay.loaded) {
      if (this.mode !== "replay") this.enterReplay(false);
      return;
    }
    if (this.mode === "replay" && !this.player.playing && this.search.position === this.shownAt) return;
    this.mode = this.runId ? "search" : "idle";
    this.shownAt = this.search.position;
    const snap = this.search.currentSnapshot();
    if (!snap) {
      if (this.mode === "idle" || this.search.expanded === 0) this.showIdle();
      return;
    }
    const state = snapshotState(snap, this.info.rows, this.info.cols);
    const { expanded, frontier, g } = this.search;
    let caption = `Search: expanding state ${expanded.toLocaleString("en-US")} · g = ${fmt(g)}` +
      ` · frontier ${frontier.toLocaleString("en-US")}`;
    if (!state.player) caption += " · the player: a set of places";
    if (snap.i !== this.search.lastClose && this.search.snapshots.length >= SNAPSHOT_CAP) {
      caption = `Search: boards are shown for the first ${SNAPSHOT_CAP.toLocaleString("en-US")} expansions only`;
    }
    this.renderer.show(state, { caption });
  }

  updateSearchPanel() {
    const s = this.search;
    const started = this.runId !== null;
    setNumber($("lab-expanded"), started ? s.expanded : null);
    setNumber($("lab-frontier"), started ? s.frontier : null);
    setNumber($("lab-depth"), started && s.g !== null ? s.g : null);
  }

  // ---- the result and its replay ---------------------------------------------------------------

  showResult(result) {
    this.result = result;
    const message = $("lab-message");
    message.hidden = result.found || !result.message;
    message.textContent = result.found ? "" : sentence(result.message || "");
    this.showSolutionStats(result);
    this.replay.load(result);
    if (this.timeline.complete && this.search.position >= this.timeline.length) this.enterReplay(false);
  }

  showSolutionStats(result) {
    setNumber($("insertions"), result?.found ? result.insertions : null);
    setNumber($("walked-cells"), result?.found ? result.walked_cells : null);
  }

  /** The canvas shows the solution; `fromUser`: a replay control was used (pause the trace). */
  enterReplay(fromUser = true) {
    if (!this.replay.loaded) return;
    if (fromUser && this.player.playing) this.player.pause();
    if (this.mode === "replay") return;
    this.mode = "replay";
    this.shownAt = this.search.position;
    this.replay.show(this.replay.step);
  }
}

/** Show the labyrinth's panels and hide the grid-only ones (or the reverse). */
function setFamilyPanels(labyrinth) {
  document.querySelector(".layout")?.classList.toggle("labyrinth", labyrinth);
  for (const el of document.querySelectorAll("[data-family]")) {
    el.hidden = el.dataset.family !== (labyrinth ? "labyrinth" : "grid");
  }
}

const fmt = (v) => (v === null ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(1));

function sentence(text) {
  const t = text.trim();
  return t ? t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".") : "";
}

function renderLabyrinthLegend(container) {
  const item = (label, mark) => {
    const el = document.createElement("span");
    el.className = "legend-item";
    el.append(mark, document.createTextNode(label));
    return el;
  };
  const swatch = (color, cls = "") => {
    const el = document.createElement("span");
    el.className = `swatch ${cls}`;
    el.style.background = color;
    return el;
  };
  const badge = (color, text) => {
    const el = swatch(color, "marker");
    el.textContent = text;
    return el;
  };
  container.replaceChildren(
    item("Player", swatch(OKABE_ITO.orange, "marker round")),
    item("Start (below the board)", badge(COLORS.start, "S")),
    item("Goal (above the board)", badge(COLORS.goal, "G")),
    item("Insertion point", swatch("#5d636c", "arrow")),
    item("This move's push", swatch(OKABE_ITO.bluishGreen, "arrow")),
    item("Walk", swatch(COLORS.path, "line")),
  );
}
