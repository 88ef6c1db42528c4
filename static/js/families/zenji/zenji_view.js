// Zenji's view (rotating pipe tiles): the board on its own canvas; during the search, for every tile
// the status of each of its four rotations at the player's position in the trace, the state being
// expanded (its tile ringed and drawn turned, with a quarter-turn animation) and the water's route
// to it (reconstructed from the trace; under free flow the frames' snapshots say which tiles it
// passes); after the run the solution replayed turn by turn and then the water flowing, beside its
// list of turns. The interface is FamilyView's (../family_view.js), the search and the solution's
// reveal SolutionView's (../solution_view.js); every bit of state lives on the instance.

import { sizeText } from "../../format.js";
import { has, t } from "../../i18n.js";
import { num } from "../words.js";
import { reducedMotion } from "../../motion.js";
import { SolutionView } from "../solution_view.js";
import { NamedStates } from "../named_states.js";
import {
  boardOf, decodeG, decodeState, sideAfter, solutionOf, tileName, timesWord, waterRoute,
} from "./zenji_board.js";
import { renderZenjiLegend } from "./zenji_legend.js";
import { zenjiEditor } from "./zenji_editor.js";
import { buildZenjiPanels } from "./zenji_panels.js";
import { ZenjiRenderer } from "./zenji_renderer.js";
import { TURN_MS, ZenjiReplay } from "./zenji_replay.js";
import { routeTo, STATE, ZenjiSearch } from "./zenji_search.js";

const MIN_TURN_MS = 60; // a search-trace turn shorter than this is not animated
// Catalog keys: a side's code in words (the hover read-out).
const SIDE_WORDS = ["fam.zenji.side_closed", "fam.zenji.side_inlet", "fam.zenji.side_outlet", "fam.zenji.side_source", "fam.zenji.side_drain"];
/** A flow's name and what it means, in words ("downhill flow: water flows only east or south"). */
const flowWords = (flow) => (has(`fam.zenji.flow_${flow}`) ? t(`fam.zenji.flow_${flow}`) : t("fam.zenji.flow_other", { flow }));

const mod4 = (k) => ((k % 4) + 4) % 4;

export class ZenjiView extends SolutionView {
  // The flow has a section of its own ("Water"); the rest goes under the algorithm menu.
  static formLayout = {
    title: "fam.zenji.form_title",
    own: [["flow"]],
    shared: [["heuristic", "weight"]],
    notes: { weight: "(f = g + w·h)" },
  };
  static kindKey = "fam.zenji.kind"; // the board in words (its text alternative)
  static sizeUnit = "tiles"; // sizes are width × height in tiles

  /** @param {import("../family_view.js").FamilyViewArgs} args */
  constructor(args) {
    super(args, new ZenjiRenderer(args.canvas), new ZenjiSearch());
    this.run = null; // {id, algorithm, options, flow}: the run shown
    this.board = null;
    this.renderer.onHover = (tile) => this.tileHovered(tile);
    this.shown = null; // {position, expanded, current}: the trace position on the canvas
    this.autoPlayed = false; // the solution plays by itself once a run, when the trace first ends
    this.panels = buildZenjiPanels();
    this.replay = this.newReplay(ZenjiReplay);
    this.editor = zenjiEditor(this);
    this.named = new NamedStates(); // the run's states by number (the frames' `named`): h, and under free flow the tiles passed
    this.hoveredTile = -1; // the hover read-out's tile, written again in another language
  }

  /** The canvas's caption (SolutionView's) and the hover read-out, again in the new language. */
  languageChanged() {
    if (!this.active || !this.board) return;
    this.shown = null; // the search's scene is drawn again, its caption with it
    if (this.mode === "idle") this.showIdle();
    else super.languageChanged();
    if (this.hoveredTile >= 0) this.tileHovered(this.hoveredTile);
  }

  get runId() {
    return this.run ? this.run.id : null;
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  enter(info, { edited = false } = {}) {
    this.info = info;
    this.board = boardOf(info);
    this.run = null;
    this.mode = "idle";
    this.shown = null;
    this.pendingResult = null;
    this.search.setSize(this.board.rows * this.board.cols);
    this.hideSolution();
    this.panels.root.hidden = true; // no run, no solution to speak of
    this.place(this.hosts.right, this.panels.root);
    this.place(this.hosts.left, this.editor.panel);
    this.editor.reset({ edited });
    this.renderer.textScale = this.shell.textScale();
    this.renderer.setActive(true);
    this.renderer.setBoard(this.board);
    this.showIdle();
  }

  leave() {
    super.leave();
    this.run = null;
    this.shell.setHover("");
  }

  /** The page's text size or layout changed: draw again (captions and markers follow it). */
  refit() {
    this.renderer.textScale = this.shell.textScale();
    this.renderer.draw();
  }

  // ---- options -----------------------------------------------------------------------------------

  /** The flow the form would run with (the puzzle's when the form has none). */
  formFlow() {
    return this.shell.option("flow") || this.board?.flow || "downhill";
  }

  optionChanged(name) {
    // Before any run the idle caption names the new flow; after one the board keeps showing the run
    // (the shell marks it as the previous run) until Run is pressed.
    if (!this.active || name !== "flow" || this.run) return;
    this.showIdle();
  }

  checkReady() {
    return this.info ? null : t("fam.zenji.open_first");
  }

  emptyScene(caption) {
    return {
      rotations: new Float32Array(this.board.rows * this.board.cols),
      markers: null, current: -1, used: null, highlight: -1, badges: null, water: null, caption,
    };
  }

  showIdle() {
    const flow = this.formFlow();
    const size = sizeText(this.board.cols, this.board.rows, "tiles");
    this.renderer.show(this.emptyScene(t("fam.zenji.caption_idle", { size, flow: flowWords(flow) })));
  }

  // ---- the search ----------------------------------------------------------------------------------

  runStarted(runId, { algorithm, options = {}, instant = false } = {}) {
    this.run = { id: runId, algorithm: algorithm || null, options, flow: options.flow || this.board.flow };
    this.shown = null;
    this.search.clear();
    this.named.clear();
    this.autoPlayed = instant; // a re-solve after an edit shows the solved board, not the replay
    this.searchStarted();
    this.traceChanged(true);
  }

  /** A raw run_frame: under free flow each expansion's `used` tiles ride next to the records. */
  frame(msg) {
    if (msg?.run === this.runId && Array.isArray(msg.snapshots)) {
      this.search.addSnapshots(msg.snapshots.map((s) => ({ i: s.i, used: new Set(s.used || []) })));
    }
    if (msg?.run === this.runId && msg.named) this.named.add(msg.named, msg.start);
  }

  /**
   * A trace value as {turns, tiles}, tiles counting the source. The contract's g counts the source;
   * a trace whose start state has g = 0 (the generic engines start there) counts only the tiles
   * entered after it, so one is added: the first record, the source's open, tells which.
   */
  decode(value) {
    const g = decodeG(value, this.board.scale);
    if (!g) return null;
    const timeline = this.timeline;
    const first = timeline.length > 0 ? decodeG(timeline.values[0], this.board.scale) : null;
    if (first && first.turns === 0 && first.tiles === 0) g.tiles += 1;
    return g;
  }

  /** The trace's values are g encoded as turns and tiles, except BFS's wave numbers. */
  get valuesAreWaves() {
    return this.run?.algorithm === "bfs";
  }

  /** The Player moved through the trace: redraw the state it has reached. */
  traceChanged(force = false) {
    if (!this.active || this.revealAtEnd()) return;
    const search = this.search;
    if (!this.run) {
      this.mode = "idle";
      this.showIdle();
      return;
    }
    const wasReplay = this.mode === "replay";
    this.mode = "search";
    if (!force && !wasReplay && this.shown && this.shown.position === search.position) return;
    const before = wasReplay ? null : this.shown;
    this.shown = { position: search.position, expanded: search.expanded, current: search.current };
    const scene = this.searchScene();
    const current = search.current;
    if (this.traceAtEnd && this.pendingResult && !this.pendingResult.found) {
      scene.caption = this.pendingResult.stopped
        ? `The search stopped: ${this.pendingResult.stopped}`
        : "Search over: no turns make the water reach the drain";
    }
    this.lastScene = before ? this.lastScene : null;
    const turn = before && current >= 0 && search.expanded === before.expanded + 1 && search.position > before.position
      ? this.turnFrom(before.current, current) : null;
    this.lastScene = scene;
    if (turn) {
      this.renderer.show(scene);
      this.renderer.animate({ turn, ms: turn.ms });
    } else {
      // The same state still expanded: a turn animating goes on under the new markers.
      this.renderer.show(scene, { cut: !before || before.current !== current });
    }
  }

  /**
   * The quarter-turn animation as the trace reaches a new expanded state: its tile turns from how it
   * was drawn (the previous state's rotation if it was the same tile, else as in the file) to the
   * state's rotation, clockwise; no longer than the time to the next expansion at this pace.
   */
  turnFrom(previous, current) {
    const cols = this.board.cols;
    const now = decodeState(current, cols);
    const was = previous >= 0 ? decodeState(previous, cols) : null;
    const drawn = this.lastScene?.rotations;
    const from = drawn ? Math.round(drawn[now.tile]) % 4 : was && was.tile === now.tile ? was.rot : 0;
    const delta = mod4(now.rot - from);
    if (delta === 0) return null;
    let ms = TURN_MS * delta * this.speedScale();
    if (this.player.playing) {
      if (!Number.isFinite(this.player.speed)) return null;
      const recordsPerExpansion = this.search.position / Math.max(1, this.search.expanded);
      ms = Math.min(ms, (0.8 * 1000 * recordsPerExpansion) / this.player.speed);
    }
    if (ms < MIN_TURN_MS) return null;
    return { tile: now.tile, from, to: from + delta, ms };
  }

  searchScene() {
    const { cols, scale } = this.board;
    const search = this.search;
    const scene = this.emptyScene("");
    const current = search.current;
    if (current >= 0) {
      const { tile, rot } = decodeState(current, cols);
      scene.rotations[tile] = rot;
    }
    scene.current = current;
    const free = this.run.flow === "free";
    const snap = free ? search.currentSnapshot() : null;
    // The expanded state's water so far, its tiles drawn turned as the state has them.
    const route = current >= 0 && !search.backward
      ? routeTo(search, current, this.board, { waves: this.valuesAreWaves, free, used: snap ? snap.used : null })
      : null;
    if (route) {
      for (const step of route) scene.rotations[step.tile] = step.rot;
      scene.water = { route: waterRoute(route, cols), progress: 1, tail: route[route.length - 1].tile };
    }
    scene.route = route ? route.length : 0;
    scene.used = snap ? snap.used : route ? new Set(route.map((step) => step.tile)) : null;
    // Expanded markers are coloured by their turns (BFS: by their wave, its values being steps).
    const unit = this.valuesAreWaves ? 1 : scale;
    const maxTurns = Math.floor(Math.round(this.timeline.maxValue) / unit);
    scene.markers = { states: search.states, values: search.values, scale: unit, maxTurns };
    scene.caption = this.searchCaption(current);
    return scene;
  }

  searchCaption(current) {
    const search = this.search;
    const cols = this.board.cols;
    if (current < 0) {
      return t(search.position > 0 ? "fam.zenji.caption_joins" : "fam.zenji.caption_starts");
    }
    const { tile, rot } = decodeState(current, cols);
    const turned = rot === 0 ? t("fam.zenji.as_in_file") : t("fam.zenji.turned", { times: timesWord(rot) });
    let text = t(search.backward ? "fam.zenji.expanding_back" : "fam.zenji.expanding", { tile: tileName(tile, cols), turned });
    const g = this.valuesAreWaves ? null : this.decode(search.g);
    if (g) {
      text += t(search.backward ? "fam.zenji.caption_g_back" : "fam.zenji.caption_g", {
        turns: t("fam.zenji.quarter", { count: g.turns }), tiles: t("fam.zenji.tiles", { count: g.tiles }),
      });
    }
    else if (search.g !== null) text += t("fam.zenji.caption_wave", { wave: num(search.g) });
    text += t("fam.zenji.caption_frontier", { frontier: search.frontier });
    return text;
  }

  // ---- explain mode (../family_view.js) -----------------------------------------------------------

  /**
   * Downhill, a record's cell (tile * 4 + rotation) is its state; under free flow the tiles passed are
   * not, and the frames number the states (`named`, which also brings h: the relaxed bound is the
   * server's).
   */
  get tracedStates() {
    return this.named.active || (this.run?.flow || this.board?.flow) !== "free";
  }

  stateIds() {
    return this.named.column();
  }

  /** The trace cell (tile * 4 + rotation) of a state: its number's first record's, or the cell itself. */
  cellOfState(state) {
    if (!this.named.active) return state;
    const r = this.named.firstRecord(state);
    return r >= 0 ? this.timeline.cells[r] : -1;
  }

  /** Exercise mode's click: a tile holds a state per rotation (and, under free flow, per tiles passed). */
  statesAt(clientX, clientY) {
    if (!this.board) return null;
    const tile = this.renderer.tileAt(clientX, clientY);
    const cells = tile < 0 ? [] : [0, 1, 2, 3].map((rot) => tile * 4 + rot);
    return this.named.active ? this.named.statesOn(cells, this.timeline.cells) : cells;
  }

  /** The family's notation: "(row, col) turned k"; under free flow also how many tiles the water passed. */
  stateLabel(state) {
    const cols = this.board?.cols || 1;
    const cell = this.cellOfState(state);
    if (cell < 0) return t("fam.view.state_not_sent", { id: state });
    const tile = cell >> 2;
    const text = t("fam.zenji.state_label", { rc: `(${Math.floor(tile / cols)}, ${tile % cols})`, rot: cell & 3 });
    const used = this.named.boardOf(state)?.used;
    return Array.isArray(used) ? t("fam.zenji.state_passed", { text, count: used.length }) : text;
  }

  /** h of a state: the server's, under the run's heuristic (the frames' `named`). */
  heuristicOf(state) {
    return this.named.hOf(state);
  }

  /** The state being expanded at the playhead: turns and tiles so far, and its tile's rotation. */
  playheadFigures() {
    if (!this.run) return [];
    const search = this.search;
    const current = search.current;
    const state = current >= 0 ? decodeState(current, this.board.cols) : null;
    const rotation = {
      key: "rotation",
      label: state ? t("fam.zenji.fig_rotation_of", { rc: `(${state.r}, ${state.c})` }) : t("fam.zenji.fig_rotation"),
      value: state ? state.rot : null,
      def: t("fam.zenji.def_rotation"),
    };
    if (this.valuesAreWaves) {
      return [{ key: "g", label: t("fam.zenji.fig_wave"), value: search.g, def: t("fam.zenji.def_wave") }, rotation];
    }
    const g = this.decode(search.g);
    const back = search.backward; // a bidirectional search's backward half counts from the drain
    return [
      { key: "turns", label: t("fam.zenji.fig_turns"), value: g ? g.turns : null,
        def: t(back ? "fam.zenji.def_turns_back" : "fam.zenji.def_turns") },
      { key: "tiles", label: t("fam.zenji.fig_tiles"), value: g ? g.tiles : null,
        def: t(back ? "fam.zenji.def_tiles_back" : "fam.zenji.def_tiles") },
      rotation,
    ];
  }

  tileHovered(tile) {
    this.hoveredTile = tile;
    if (tile < 0 || !this.board) {
      this.shell.setHover("");
      return;
    }
    const { cols, tiles, source, drain, repeats } = this.board;
    const sides = tiles[tile];
    const rot = this.mode === "search" && this.search.current >= 0 && Math.floor(this.search.current / 4) === tile
      ? this.search.current % 4 : 0;
    const sideWord = (code) => (SIDE_WORDS[code] ? t(SIDE_WORDS[code]) : "?");
    const words = [0, 1, 2, 3].map((d) => `${"NESW"[d]} ${sideWord(sideAfter(sides, rot, d))}`);
    const parts = [t("fam.zenji.hover_tile", { tile: tileName(tile, cols) })];
    if (tile === source) parts.push(t("fam.zenji.hover_source"));
    else if (tile === drain) parts.push(t("fam.zenji.hover_drain"));
    parts.push(`${words.join(", ")}${rot ? ` (${t("fam.zenji.turned", { times: timesWord(rot) })})` : ""}`);
    if (this.run && this.mode === "search") {
      const states = [];
      for (let r = 0; r < (tile === source || tile === drain ? 1 : 4); r++) {
        if (repeats[tile][r]) continue;
        const status = this.search.states[tile * 4 + r];
        const g = this.valuesAreWaves || status === STATE.NONE ? null : this.decode(this.search.values[tile * 4 + r]);
        const at = g ? t("fam.zenji.hover_at", { turns: g.turns, tiles: g.tiles }) : "";
        const what = status === STATE.OPEN ? `${t("fam.zenji.hover_open")}${at}` : status === STATE.CLOSED ? `${t("fam.zenji.hover_closed")}${at}`
          : status === STATE.PATH ? t("fam.zenji.hover_solution") : t("fam.zenji.hover_unreached");
        states.push(`${r}: ${what}`);
      }
      parts.push(t("fam.zenji.hover_rotations", { list: states.join(", ") }));
    }
    this.shell.setHover(parts.join(" · "));
  }

  // ---- the result and its replay (../solution_view.js) ------------------------------------------

  whyNone(result) {
    return result.message || (result.stopped ? t("fam.view.stopped", { reason: result.stopped }) : t("fam.zenji.no_solution"));
  }

  showSolution(result, why) {
    const solution = result?.found ? solutionOf(result, this.board) : null;
    const set = (node, value) => {
      node.textContent = value === null || value === undefined ? "—" : String(value);
      node.classList.toggle("none", value === null || value === undefined);
    };
    const { turns, turnedTiles, waterTiles } = this.panels.figures;
    set(turns, solution ? solution.cost : null);
    set(turnedTiles, solution ? solution.moves.length : null);
    set(waterTiles, solution ? solution.tiles : null);
    if (solution) this.replay.load(solution, this.board);
    else super.showSolution(null, why);
  }

  /**
   * The first time a run's trace ends, the solution plays by itself: the turns, then the water.
   * Back at the end later: the solved board, the water flowing.
   */
  replayEntered(fromUser) {
    this.shown = null;
    if (!fromUser && !this.autoPlayed) {
      this.autoPlayed = true;
      this.replay.show(0);
      if (!reducedMotion()) this.replay.play(); // nothing plays by itself under reduced motion
    } else if (!fromUser) {
      this.replay.show(this.replay.count);
    } else {
      super.replayEntered(fromUser);
    }
  }

  // ---- what the shell shows for it -------------------------------------------------------------

  legend(container, { algorithm } = {}) {
    const waves = (this.run?.algorithm ?? algorithm) === "bfs";
    const maxTurns = this.run && this.board
      ? Math.floor(Math.round(this.timeline.maxValue) / (waves ? 1 : this.board.scale)) : 0;
    renderZenjiLegend(container, { maxTurns, waves });
  }

  /** A run's options in words: "downhill flow · relaxed heuristic". */
  describeRun(algorithm, options) {
    const parts = [];
    const flow = options.flow || this.board?.flow || "downhill";
    parts.push(has(`fam.zenji.flow_name_${flow}`) ? t(`fam.zenji.flow_name_${flow}`) : t("fam.zenji.flow_name", { flow }));
    if (options.heuristic !== undefined) {
      const heuristic = options.heuristic || this.info?.heuristics?.[0] || t("fam.view.default");
      const weight = options.weight;
      parts.push(weight !== undefined && weight !== null && weight !== 1
        ? t("fam.view.heuristic_weight", { heuristic, w: num(weight) }) : t("fam.view.heuristic", { heuristic }));
    }
    if (options.max_depth !== undefined && options.max_depth !== null) parts.push(t("fam.view.depth_limit", { limit: options.max_depth }));
    return parts.join(" · ");
  }

  // ---- the board by keyboard (A2: ../../board/cell_cursor.js; FamilyView cursorGrid …) ---------

  /** The cursor walks the board's tiles; it starts on the source. */
  cursorGrid() {
    const board = this.renderer.board;
    if (!board || !this.renderer.lastLayout) return null;
    const source = board.source; // a flat index (zenji_board.js)
    return { columns: board.cols, rows: board.rows, home: { column: source % board.cols, row: Math.floor(source / board.cols) } };
  }

  /** A tile's square in the renderer's last layout. */
  cursorRect(column, row) {
    const L = this.renderer.lastLayout;
    if (!L) return null;
    return { x: L.bx + column * L.unit, y: L.by + row * L.unit, width: L.unit, height: L.unit };
  }

  /** The source and the drain, where the water starts and must reach. */
  boardFacts() {
    const board = this.board;
    if (!board) return { start: undefined, goal: undefined };
    const at = (cell) => `(${Math.floor(cell / board.cols)}, ${cell % board.cols})`;
    return { start: at(board.source), goal: at(board.drain) };
  }

  /** A record's value is g encoded as turns × scale + tiles (docs/PROTOCOL.md): the turns are said. */
  recordG(value, _kind) {
    const scale = this.board?.scale;
    return Number.isFinite(value) && scale ? Math.floor(value / scale) : null;
  }
}
