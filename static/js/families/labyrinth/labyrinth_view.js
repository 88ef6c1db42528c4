// The shifting-tile labyrinth family's view: the board on its own canvas, what the search is doing at
// the player's position in the trace (counts, g, the board of the state being expanded), and after
// the run the solution's replay beside its move list. The shell keeps the shared parts (upload,
// run/stop, status, stats, the trace player); the interface is FamilyView's (../family_view.js), the
// search and the solution's reveal SolutionView's (../solution_view.js); every bit of state lives on
// the instance.

import { setNumber } from "../../format.js";
import { t } from "../../i18n.js";
import { num } from "../words.js";
import { asBytes } from "../../live.js";
import { SolutionView } from "../solution_view.js";
import { initialState, snapshotState } from "./labyrinth_board.js";
import { renderLabyrinthLegend } from "./labyrinth_legend.js";
import { labyrinthEditor } from "./labyrinth_editor.js";
import { buildLabyrinthPanels } from "./labyrinth_panels.js";
import { LabyrinthRenderer } from "./labyrinth_renderer.js";
import { LabyrinthReplay } from "./labyrinth_replay.js";
import { LabyrinthSearch } from "./labyrinth_search.js";
import { labyrinthMini, labyrinthText } from "./labyrinth_mini.js";
import { NamedStates } from "../named_states.js";

const SNAPSHOT_CAP = 100000; // the server sends at most this many boards a run (docs/PROTOCOL.md)
// The options that change what the idle board shows (or make a shown solution stale).
const BOARD_OPTIONS = new Set(["moves", "start_col", "goal_col", "view"]);

export class LabyrinthView extends SolutionView {
  // Where the shell puts this family's option controls: these in a section of their own (a row
  // holds controls side by side), the rest under the algorithm menu; muted notes after labels.
  // The title and notes are catalog keys (the form writes them in the current language).
  static formLayout = {
    title: "fam.labyrinth.form_title",
    own: [["moves"], ["start_col", "goal_col"], ["view"]],
    shared: [["heuristic", "weight"]],
    notes: { start_col: "fam.labyrinth.note_below", goal_col: "fam.labyrinth.note_above", weight: "(f = g + w·h)" },
  };
  static kindKey = "fam.labyrinth.kind"; // the board in words (its text alternative)
  static sizeUnit = "tiles"; // sizes are width × height in tiles (the shell's common.tiles)

  /** @param {import("../family_view.js").FamilyViewArgs} args */
  constructor(args) {
    // The search: counts and boards at the Player's position.
    super(args, new LabyrinthRenderer(args.canvas), new LabyrinthSearch());
    this.runId = null;
    this.shownAt = -1; // the trace position whose board is shown
    this.panels = buildLabyrinthPanels();
    this.replay = this.newReplay(LabyrinthReplay);
    this.editor = labyrinthEditor(this);
    // The run's states by number (the frames' `named`): each board, for explain mode and Predict.
    this.named = new NamedStates((board) => ({ ...board, board: asBytes(board.board).slice() }));
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  /** Show a labyrinth (puzzle info from the API): its canvas is in the board now. */
  enter(info, { edited = false } = {}) {
    this.info = info;
    this.runId = null;
    this.mode = "idle";
    this.algorithm = null;
    this.search.clear();
    this.pendingResult = null;
    this.hideSolution();
    this.panels.root.hidden = true; // no run, no solution to speak of
    this.place(this.hosts.right, this.panels.root);
    this.place(this.hosts.left, this.editor.panel);
    this.editor.reset({ edited });
    this.renderer.setActive(true);
    this.endpoints = { start_col: info.start_col, goal_col: info.goal_col };
    this.renderer.setPuzzle({ ...info, start_col: this.column("start_col"), goal_col: this.column("goal_col") });
    this.showIdle();
  }

  leave() {
    super.leave();
    this.runId = null;
  }

  /** The page's text size or layout changed: draw again (the captions follow the page's text size). */
  refit() {
    this.renderer.draw();
  }

  // ---- options -----------------------------------------------------------------------------------

  /**
   * A start or goal column from the form when it is on the board; else the last one that was (the
   * form shows what is wrong and the run is refused: a column is never moved to fit).
   */
  column(name) {
    const value = this.shell.option(name);
    if (Number.isInteger(value) && value >= 0 && value < this.info.cols) this.endpoints[name] = value;
    return this.endpoints[name];
  }

  optionChanged(name) {
    if (!this.active || !BOARD_OPTIONS.has(name)) return;
    // Before any run the board shows the new start and goal; after one it keeps showing the run
    // (the shell marks it as the previous run) until Run is pressed.
    if (this.runId !== null) return;
    this.renderer.setEndpoints(this.column("start_col"), this.column("goal_col"));
    this.showIdle();
  }

  showIdle() {
    const state = initialState(this.info);
    state.player.c = this.column("start_col");
    const size = t("fam.labyrinth.size", { w: this.info.cols, h: this.info.rows });
    const caption = this.runId === null ? t("fam.labyrinth.caption_idle", { size }) : t("fam.labyrinth.caption_start_search");
    this.renderer.show(state, { caption });
  }

  // ---- the search ----------------------------------------------------------------------------------

  runStarted(runId, { algorithm } = {}) {
    this.runId = runId;
    this.algorithm = algorithm || null;
    this.renderer.setEndpoints(this.column("start_col"), this.column("goal_col"));
    this.search.clear();
    this.named.clear();
    this.searchStarted();
    this.traceChanged();
  }

  /** A raw run_frame: its boards (one per expansion) ride next to the records. */
  frame(msg) {
    if (msg?.run === this.runId && msg.snapshots) {
      this.search.addSnapshots(msg.snapshots.map((s) => ({ ...s, board: asBytes(s.board).slice() })));
    }
    if (msg?.run === this.runId && msg.named) this.named.add(msg.named, msg.start);
  }

  /** The Player moved through the trace: redraw the expanded state it has reached. */
  traceChanged() {
    if (!this.active || this.revealAtEnd()) return;
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
    let caption = t("fam.labyrinth.caption_search", { expanded, frontier, g: num(g, 1) });
    if (!state.player) caption += t("fam.labyrinth.caption_sets");
    if (snap.i !== this.search.lastClose && this.search.snapshots.length >= SNAPSHOT_CAP) {
      caption = t("fam.labyrinth.caption_capped", { cap: SNAPSHOT_CAP });
    }
    this.renderer.show(state, { caption });
  }

  // ---- explain mode (../family_view.js) -----------------------------------------------------------

  /**
   * A record's cell is only where the player stands, shared by states with other boards; the frames
   * number the states (`named`), so the run's states are named once its first frame came.
   */
  get tracedStates() {
    return this.named.active;
  }

  stateIds() {
    return this.named.column();
  }

  /** Exercise mode's click: a board tile names the states whose player stands there. */
  statesAt(clientX, clientY) {
    if (!this.info) return null;
    const hit = this.renderer.tileAt(clientX, clientY);
    const cells = hit && !hit.free ? [hit.r * this.info.cols + hit.c] : [];
    return this.named.active ? this.named.statesOn(cells, this.timeline.cells) : cells;
  }

  /** State `id` as the view draws it ({rows, cols, tiles, free, player, places}), or null. */
  stateOf(id) {
    const snap = this.named.boardOf(id);
    if (!snap || !this.info) return null;
    return { ...snapshotState(snap, this.info.rows, this.info.cols), places: snap.places };
  }

  /** The family's notation: "(2, 3) · hand ┼ · ┌┬┐ / ├┼┤ / └┴┘" (the player, the tile in hand, the board's rows). */
  stateLabel(id) {
    const state = this.stateOf(id);
    if (state) return labyrinthText(state);
    const cell = this.named.active ? -2 : id;
    if (cell === -2) return t("fam.view.state_not_sent", { id });
    return this.cellLabel(cell);
  }

  /** The board drawn small, the player an orange dot (Predict's choices, explain mode's frontier). */
  stateFigure(id) {
    const state = this.stateOf(id);
    return state ? labyrinthMini(state, this.stateLabel(id)) : null;
  }

  /** Where a record's player stands (exercise mode without names). */
  cellLabel(cell) {
    const cols = this.info?.cols || 1;
    return cell < 0 ? t("fam.labyrinth.player_off") : t("fam.labyrinth.player_on", { rc: `(${Math.floor(cell / cols)}, ${cell % cols})` });
  }

  /** h of state `id`: the server's, under the run's heuristic (the frames' `named`). */
  heuristicOf(id) {
    return this.named.hOf(id);
  }

  stepCost() {
    return 1;
  }

  /** The state being expanded at the playhead: its g (moves so far). */
  playheadFigures() {
    if (this.runId === null) return [];
    return [{ key: "g", label: "g", value: this.search.g, def: t("fam.view.def_g") }];
  }

  // ---- the result and its replay (../solution_view.js) ------------------------------------------

  showSolution(result, why) {
    const { insertions, walkedCells } = this.panels.figures;
    setNumber(insertions, result?.found ? result.insertions : null);
    setNumber(walkedCells, result?.found ? result.walked_cells : null);
    super.showSolution(result, why);
  }

  replayEntered(fromUser) {
    this.shownAt = this.search.position;
    super.replayEntered(fromUser);
  }

  // ---- what the shell shows for it -------------------------------------------------------------

  legend(container) {
    renderLabyrinthLegend(container);
  }

  /** A run's options in words: "relaxed heuristic, weight 1 · combined moves · start column 0, goal column 4". */
  describeRun(algorithm, options) {
    const parts = [];
    if (options.heuristic !== undefined) {
      const heuristic = options.heuristic || t("fam.view.default");
      parts.push(options.weight !== undefined
        ? t("fam.view.heuristic_weight", { heuristic, w: num(options.weight) })
        : t("fam.view.heuristic", { heuristic }));
    }
    if (options.moves) parts.push(t("fam.labyrinth.run_moves", { moves: options.moves }));
    if (options.start_col !== undefined || options.goal_col !== undefined) {
      parts.push(t("fam.labyrinth.run_cols", { start: options.start_col ?? this.info?.start_col, goal: options.goal_col ?? this.info?.goal_col }));
    }
    if (options.view === "sets") parts.push(t("fam.labyrinth.run_sets"));
    if (options.max_depth !== undefined && options.max_depth !== null) parts.push(t("fam.view.depth_limit", { limit: options.max_depth }));
    return parts.join(" · ");
  }

  // ---- the board by keyboard (A2: ../../board/cell_cursor.js; FamilyView cursorGrid …) ---------

  /** The cursor walks the board's tiles. */
  cursorGrid() {
    const puzzle = this.renderer.puzzle;
    return puzzle ? { columns: puzzle.cols, rows: puzzle.rows } : null;
  }

  /** A tile's square in the renderer's layout. */
  cursorRect(column, row) {
    if (!this.renderer.puzzle) return null;
    const L = this.renderer.layout();
    return { x: L.bx + column * L.unit, y: L.by + row * L.unit, width: L.unit, height: L.unit };
  }
}

