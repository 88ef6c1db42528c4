// The shifting-tile labyrinth family's view: the board on its own canvas, what the search is doing at
// the player's position in the trace (counts, g, the board of the state being expanded), and after
// the run the solution's replay beside its move list. The shell keeps the shared parts (upload,
// run/stop, status, stats, the trace player); the interface is the one documented in ../index.js,
// and every bit of state lives on the instance.

import { setNumber, sentence } from "../../format.js";
import { asBytes } from "../../live.js";
import { DEFAULT_SPEED } from "../../player.js";
import { initialState, snapshotState } from "./labyrinth_board.js";
import { renderLabyrinthLegend } from "./labyrinth_legend.js";
import { buildLabyrinthPanels } from "./labyrinth_panels.js";
import { LabyrinthRenderer } from "./labyrinth_renderer.js";
import { LabyrinthReplay } from "./labyrinth_replay.js";
import { LabyrinthSearch } from "./labyrinth_search.js";

const SNAPSHOT_CAP = 100000; // the server sends at most this many boards a run (docs/PROTOCOL.md)
// The options that change what the idle board shows (or make a shown solution stale).
const BOARD_OPTIONS = new Set(["moves", "start_col", "goal_col", "view"]);

/** Replay durations from the trace player's speed: slower steps, slower animations. */
export function animationScale(speed) {
  if (!Number.isFinite(speed)) return 0.15;
  return Math.max(0.15, Math.min(4, Math.pow(DEFAULT_SPEED / Math.max(1, speed), 0.3)));
}

export class LabyrinthView {
  // Where the shell puts this family's option controls: these in a section of their own (a row
  // holds controls side by side), the rest under the algorithm menu; muted notes after labels.
  static formLayout = {
    title: "Labyrinth",
    own: [["moves"], ["start_col", "goal_col"], ["view"]],
    notes: { start_col: "(below)", goal_col: "(above)", weight: "(f = g + w·h)" },
  };

  /** @param {{canvas: HTMLCanvasElement, hosts: {left, right, banner}, timeline, player, shell}} args */
  constructor({ canvas, hosts, timeline, player, shell }) {
    Object.assign(this, { canvas, hosts, timeline, player, shell });
    this.wideRight = true; // the move list needs the room
    this.renderer = new LabyrinthRenderer(canvas);
    this.search = new LabyrinthSearch(); // counts and boards at the Player's position
    this.info = null;
    this.runId = null;
    this.mode = "idle"; // "idle" (no run yet) | "search" (the trace) | "replay" (the solution)
    this.shownAt = -1; // the trace position whose board is shown
    this.panels = buildLabyrinthPanels();
    this.replay = new LabyrinthReplay({
      renderer: this.renderer,
      list: this.panels.moves,
      prev: this.panels.prev,
      next: this.panels.next,
      play: this.panels.play,
      position: this.panels.position,
      speedScale: () => animationScale(this.player.speed),
      onActivate: () => this.enterReplay(),
    });
    // What the Player drives besides the search state: a "renderer" that draws the expanded board.
    this.traceView = {
      paint: () => {},
      repaintAll: () => this.traceChanged(),
      requestDraw: () => this.traceChanged(),
      drawNow: () => this.traceChanged(),
    };
  }

  /** What the trace Player drives: the search state and the trace's "renderer". */
  playerTarget() {
    return { state: this.search, renderer: this.traceView };
  }

  get active() {
    return this.info !== null;
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  /** Nothing to fetch: the puzzle info holds the board. */
  async prepare() {
    return {};
  }

  /** Show a labyrinth (puzzle info from the API): its canvas is in the board now. */
  enter(info) {
    this.info = info;
    this.runId = null;
    this.mode = "idle";
    this.search.clear();
    this.replay.clear();
    this.hosts.right.append(this.panels.root);
    this.panels.message.hidden = true;
    this.showSolutionStats(null);
    this.renderer.setActive(true);
    this.renderer.setPuzzle({ ...info, start_col: this.column("start_col"), goal_col: this.column("goal_col") });
    this.showIdle();
    this.updateSearchPanel();
  }

  /** Another view takes the board: stop drawing and take the panels away. */
  leave() {
    this.info = null;
    this.runId = null;
    this.replay.clear();
    this.renderer.setActive(false);
    this.panels.root.remove();
  }

  // ---- options -----------------------------------------------------------------------------------

  viewOptions() {
    return {};
  }

  /** A start or goal column from the form, on the board (the server checks it again). */
  column(name) {
    const value = this.shell.option(name);
    const fallback = name === "start_col" ? this.info.start_col : this.info.goal_col;
    return Number.isInteger(value) ? Math.max(0, Math.min(this.info.cols - 1, value)) : fallback;
  }

  optionChanged(name) {
    if (!this.active || !BOARD_OPTIONS.has(name)) return;
    this.renderer.setEndpoints(this.column("start_col"), this.column("goal_col"));
    if (this.mode !== "search") {
      // The shown solution was for other options: back to the new start, ready to run.
      this.replay.clear();
      this.mode = "idle";
      this.showIdle();
    }
  }

  checkReady() {
    return null;
  }

  showIdle() {
    const state = initialState(this.info);
    state.player.c = this.column("start_col");
    this.renderer.show(state, { caption: `${this.info.rows} × ${this.info.cols} tiles: press Run to search` });
  }

  // ---- the search ----------------------------------------------------------------------------------

  runStarted(runId) {
    this.runId = runId;
    this.mode = "search";
    this.search.clear();
    this.replay.clear();
    this.panels.message.hidden = true;
    this.showSolutionStats(null);
    this.traceChanged();
  }

  /** A raw run_frame: its boards (one per expansion) ride next to the records. */
  frame(msg) {
    if (msg?.run === this.runId && msg.snapshots) {
      this.search.addSnapshots(msg.snapshots.map((s) => ({ ...s, board: asBytes(s.board).slice() })));
    }
  }

  traceComplete() {}

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
    setNumber(this.panels.expanded, started ? s.expanded : null);
    setNumber(this.panels.frontier, started ? s.frontier : null);
    setNumber(this.panels.depth, started && s.g !== null ? s.g : null);
  }

  // ---- the result and its replay ---------------------------------------------------------------

  result(result) {
    const message = this.panels.message;
    message.hidden = result.found || !result.message;
    message.textContent = result.found ? "" : sentence(result.message || "");
    this.showSolutionStats(result);
    this.replay.load(result);
    if (this.timeline.complete && this.search.position >= this.timeline.length) this.enterReplay(false);
  }

  showSolutionStats(result) {
    setNumber(this.panels.insertions, result?.found ? result.insertions : null);
    setNumber(this.panels.walkedCells, result?.found ? result.walked_cells : null);
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

  // ---- what the shell shows for it -------------------------------------------------------------

  legend(container) {
    renderLabyrinthLegend(container);
  }

  /** The move rule, for the verdict's tooltip. */
  describeRule(used) {
    return `${used.moves} moves`;
  }
}

const fmt = (v) => (v === null ? "—" : Number.isInteger(v) ? String(v) : v.toFixed(1));
