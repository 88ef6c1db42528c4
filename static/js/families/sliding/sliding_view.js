// The sliding-tile puzzles' view (8-, 15-, 24-puzzle; docs/SLIDING.md): the board on its own canvas;
// during a run the board of the state being expanded at the player's position (from the frames'
// snapshots; a tile slides when the next expansion is one move away), g, h and f at the playhead;
// for the 8-puzzle the whole state space beside the board (sliding_space.js), the states the search
// has expanded lit as it plays; after the run the solution replayed with the tiles sliding, beside
// its moves in words. The interface is FamilyView's (../family_view.js), the search and the solution's
// reveal SolutionView's (../solution_view.js); every bit of state lives on the instance.

import { sentence } from "../../format.js";
import { t } from "../../i18n.js";
import { num } from "../words.js";
import { reducedMotion } from "../../motion.js";
import { SolutionView } from "../solution_view.js";
import {
  PAGE_HEURISTICS, blankOf, boardOf, cellName, goalPositions, heuristicValue, moveText, movesOf, rankOf, sameBoard,
  slideBetween,
} from "./sliding_board.js";
import { slidingEditor } from "./sliding_editor.js";
import { renderSlidingLegend } from "./sliding_legend.js";
import { buildSlidingPanels } from "./sliding_panels.js";
import { SlidingRenderer } from "./sliding_renderer.js";
import { SLIDE_MS, SlidingReplay } from "./sliding_replay.js";
import { boardText, smallBoard } from "./sliding_mini.js";
import { SlidingSearch } from "./sliding_search.js";
import { NamedStates } from "../named_states.js";
import { StateSpace, UNREACHED } from "./sliding_space.js";

const MIN_SLIDE_MS = 60; // a search-trace slide shorter than this is not animated
// Catalog keys: the puzzles' names and the heuristics' names, long and short.
const PUZZLE_NAMES = { 3: "fam.sliding.name_8", 4: "fam.sliding.name_15", 5: "fam.sliding.name_24" };
const H_NAMES = { misplaced: "fam.sliding.h_misplaced", manhattan: "fam.sliding.h_manhattan", linear_conflict: "fam.sliding.h_linear" };
const H_SHORT = { misplaced: "fam.sliding.hs_misplaced", manhattan: "fam.sliding.hs_manhattan", linear_conflict: "fam.sliding.h_linear" };
const USES_H = new Set(["astar", "greedy", "idastar"]);

/** A heuristic's name in words (a name the page does not know stays as it is). */
const hName = (name, names = H_NAMES) => (names[name] ? t(names[name]) : name);

export class SlidingView extends SolutionView {
  static formLayout = { own: [], shared: [["heuristic", "weight"]], notes: { weight: "(f = g + w·h)" } };
  static kindKey = "fam.sliding.kind"; // the board in words (its text alternative)
  static sizeUnit = "tiles";

  /** @param {import("../family_view.js").FamilyViewArgs} args */
  constructor(args) {
    super(args, new SlidingRenderer(args.canvas), new SlidingSearch());
    this.board = null; // sliding_board.js boardOf
    this.goalPos = null;
    this.run = null; // {id, algorithm, options, heuristic, weight}
    this.space = null; // the 8-puzzle's StateSpace for the goal shown (null: none, or still computing)
    this.spaceGoal = null; // the goal it is (being) computed for
    this.spaceToken = 0;
    this.drawnTiles = null; // the board on the canvas (a slide animates from it)
    this.autoPlayed = false;
    this.legendHost = null;
    this.renderer.onHover = (hit) => this.hovered(hit);
    this.panels = buildSlidingPanels();
    // The run's states by number (the frames' `named`): each board, for explain mode and Predict.
    this.named = new NamedStates((board) => Uint8Array.from(board?.tiles || []));
    this.explainWatch = null; // a MutationObserver of the page's "presenting" class (the replay's bar)
    this.replay = this.newReplay(SlidingReplay, {
      controls: [this.panels.buttons, this.panels.bar],
      onShow: (step, slide) => this.replayShown(step, slide),
    });
    this.editor = slidingEditor(this);
  }

  get runId() {
    return this.run ? this.run.id : null;
  }

  get ranked() {
    return this.board?.n === 3;
  }

  /** The captions, the state space's words and the hover read-out, again in the new language. */
  languageChanged() {
    if (!this.active || !this.board) return;
    const result = this.revealed ? this.pendingResult : null;
    if (result && !result.found) this.panels.message.textContent = sentence(this.whyNoneOrIllegal(result));
    this.redraw();
    if (this.hoveredAt) this.hovered(this.hoveredAt);
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  enter(info, { edited = false } = {}) {
    const drawn = this.drawnTiles;
    this.info = info;
    this.board = boardOf(info);
    this.goalPos = goalPositions(this.board.goal);
    this.run = null;
    this.mode = "idle";
    this.pendingResult = null;
    this.search.clearRun(this.ranked);
    this.hideSolution();
    this.panels.root.hidden = true; // no run, no solution to speak of
    this.place(this.hosts.right, this.panels.root);
    this.place(this.hosts.left, this.editor.panel);
    this.place(this.hosts.banner, this.panels.banner);
    this.editor.reset({ edited });
    if (!this.explainWatch) {
      this.explainWatch = new MutationObserver(() => this.showBar());
      this.explainWatch.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    }
    this.renderer.textScale = this.shell.textScale();
    this.renderer.setActive(true);
    this.computeSpace();
    // After an edit: an undo's slide is animated; a slide already drawn (slideLocally) goes on.
    const slide = edited && drawn ? slideBetween(drawn, this.board.tiles) : null;
    const same = edited && drawn && sameBoard(drawn, this.board.tiles);
    this.showIdle({ cut: !same });
    if (slide) this.renderer.slide(slide, SLIDE_MS * this.speedScale());
    if (this.legendHost) this.legend(this.legendHost, {});
  }

  leave() {
    super.leave();
    this.explainWatch?.disconnect();
    this.explainWatch = null;
    this.run = null;
    this.spaceToken++; // a state space still being computed is dropped (computed again on entering)
    if (!this.space) this.spaceGoal = null;
    this.shell.setHover("");
  }

  refit() {
    this.showBar();
    this.renderer.textScale = this.shell.textScale();
    this.renderer.draw();
  }

  /** Presentation mode hides the side panels: the replay's bar above the board stands in for them. */
  showBar() {
    const presenting = document.documentElement.classList.contains("presenting");
    this.panels.banner.hidden = !(presenting && this.revealed && this.replay.loaded);
  }

  /** The 8-puzzle's state space for the goal shown: computed once per goal, in slices. */
  computeSpace() {
    if (!this.ranked) {
      this.spaceToken++;
      this.space = null;
      this.spaceGoal = null;
      return;
    }
    const goal = this.board.goal;
    if (this.spaceGoal && sameBoard(this.spaceGoal, goal)) return;
    this.space = null;
    this.spaceGoal = goal.slice();
    const token = ++this.spaceToken;
    StateSpace.build(this.spaceGoal, () => token === this.spaceToken).then((space) => {
      if (!space || token !== this.spaceToken) return;
      this.space = space;
      this.canvas.dataset.spaceMs = String(Math.round(space.ms));
      this.redraw();
      if (this.revealed) this.showFigures();
    });
  }

  /** Draw again whatever the canvas shows (the state space just arrived). */
  redraw() {
    if (!this.active) return;
    if (this.mode === "replay") {
      if (!this.renderer.animating) this.replayShown(this.replay.step, null);
    } else if (this.run) this.traceChanged(true);
    else this.showIdle({ cut: false });
  }

  /** The editor slid a tile (the server's answer follows): show it at once, sliding. */
  slideLocally(cell) {
    const tiles = this.board.tiles;
    const blank = blankOf(tiles);
    const slide = { tile: tiles[cell], from: cell, to: blank };
    tiles[blank] = tiles[cell];
    tiles[cell] = 0;
    this.mode = "idle";
    this.showIdle();
    this.renderer.slide(slide, SLIDE_MS * this.speedScale());
  }

  // ---- options -----------------------------------------------------------------------------------

  /** The heuristic the form would run with. */
  formHeuristic() {
    return this.shell.option("heuristic") || this.info?.heuristics?.[0] || "manhattan";
  }

  optionChanged(name) {
    if (!this.active || this.run || (name !== "heuristic" && name !== "weight")) return;
    this.showIdle({ cut: false });
  }

  checkReady() {
    return this.info ? null : t("fam.sliding.open_first");
  }

  // ---- scenes ------------------------------------------------------------------------------------

  hOf(tiles, heuristic = this.run?.heuristic || this.formHeuristic()) {
    if (!this.board) return null;
    return heuristicValue(heuristic, tiles, this.board.goal, this.goalPos, this.board.n);
  }

  rankOfTiles(tiles) {
    return this.ranked ? rankOf(tiles) : -1;
  }

  /** A state's real distance to the goal (8-puzzle, once the space is computed), or null. */
  distanceOf(tiles) {
    if (!this.space || !this.ranked) return null;
    const d = this.space.dist[rankOf(tiles)];
    return d === UNREACHED ? null : d;
  }

  puzzleName() {
    return PUZZLE_NAMES[this.board.n] ? t(PUZZLE_NAMES[this.board.n]) : t("fam.sliding.name_n", { n: this.board.n });
  }

  /** The state-space part of a scene (8-puzzle), or null. */
  spaceScene({ current = -1, path = null } = {}) {
    if (!this.ranked) return null;
    const space = this.space;
    const search = this.search;
    const lit = this.run ? search.distinctReached() : 0;
    const start = rankOf(this.board.tiles);
    let note;
    if (!space) note = t("fam.sliding.space_computing");
    else if (this.run) {
      const pct = (100 * lit) / space.size;
      note = t("fam.sliding.space_lit", { count: lit, pct: num(pct, pct < 0.1 ? 2 : 1) })
        + (path ? t("fam.sliding.space_path") : "")
        + (search.expanded > search.snapshots.length
          ? t("fam.sliding.space_capped", { first: search.snapshots.length }) : "");
    } else {
      note = t("fam.sliding.space_idle", { d: space.dist[start] });
    }
    return {
      space,
      note,
      title: t("fam.sliding.space_title", { size: space ? space.size : 181440 }),
      key: this.runId,
      ranks: search.distinctRanks,
      lit,
      current,
      start,
      goal: rankOf(this.board.goal),
      path,
    };
  }

  /** Show `tiles` on the canvas (sliding from what was drawn when `slide`). */
  showScene(scene, { slide = null, ms = 0, cut = true } = {}) {
    this.drawnTiles = scene.tiles.slice();
    this.renderer.show(scene, { cut });
    if (slide && ms >= MIN_SLIDE_MS) this.renderer.slide(slide, ms);
    this.canvas.dataset.mode = this.mode;
  }

  showIdle({ cut = true } = {}) {
    const { n, tiles } = this.board;
    const heuristic = this.formHeuristic();
    const h = this.hOf(tiles, heuristic);
    const parts = [this.puzzleName()];
    if (h !== null) parts.push(t("fam.sliding.h_of_start", { name: hName(heuristic, H_SHORT), h }));
    parts.push(t(this.editor.on ? "fam.sliding.idle_editing" : "fam.sliding.idle_run"));
    this.showScene({
      n, tiles: tiles.slice(), goal: this.board.goal, caption: parts.join(" · "), mark: -1,
      space: this.spaceScene({ current: -1 }),
    }, { cut });
  }

  // ---- the search ----------------------------------------------------------------------------------

  runStarted(runId, { algorithm, options = {}, instant = false } = {}) {
    const heuristic = options.heuristic || this.info?.heuristics?.[0] || "manhattan";
    this.run = { id: runId, algorithm: algorithm || null, options, heuristic, weight: options.weight ?? 1, instant };
    this.search.clearRun(this.ranked);
    this.named.clear();
    this.autoPlayed = instant; // a re-solve after an edit shows the solved board, not the replay
    this.searchStarted();
    this.traceChanged(true);
  }

  /** A raw run_frame: each expansion's board (and rank, 8-puzzle) rides next to the records. */
  frame(msg) {
    if (msg?.run !== this.runId) return;
    if (Array.isArray(msg.snapshots)) this.search.addSnapshots(msg.snapshots);
    if (msg.named) this.named.add(msg.named, msg.start);
  }

  /** The server's account of the run wins over what was asked (the heuristic it resolved). */
  result(result) {
    if (this.run && result?.options?.heuristic) this.run.heuristic = result.options.heuristic;
    super.result(result);
  }

  traceComplete() {
    this.traceChanged(true);
  }

  /** The snapshot of the state expanded at the playhead, or null (none yet, or past the server's cap). */
  ownSnapshot() {
    const snap = this.search.currentSnapshot();
    return snap && snap.i === this.search.lastClose ? snap : null;
  }

  /** The board of the state expanded at the playhead (the start before the first expansion). */
  currentTiles() {
    const snap = this.search.currentSnapshot();
    return snap && snap.tiles.length === this.board.tiles.length ? snap.tiles : this.board.tiles;
  }

  /** The Player moved through the trace: redraw the state it has reached. */
  traceChanged(force = false) {
    if (!this.active) return;
    if (this.revealAtEnd() || !this.run) {
      if (!this.run) {
        this.mode = "idle";
        this.showIdle();
      }
      return;
    }
    const wasReplay = this.mode === "replay";
    this.mode = "search";
    const search = this.search;
    const snap = search.currentSnapshot();
    const tiles = this.currentTiles();
    const slide = !wasReplay && !force ? slideBetween(this.drawnTiles, tiles) : null;
    let ms = 0;
    if (slide) {
      ms = SLIDE_MS * this.speedScale();
      if (this.player.playing) {
        if (!Number.isFinite(this.player.speed)) ms = 0;
        else {
          const recordsPerExpansion = search.position / Math.max(1, search.expanded);
          ms = Math.min(ms, (0.8 * 1000 * recordsPerExpansion) / this.player.speed);
        }
      }
    }
    const current = snap ? (snap.rank >= 0 ? snap.rank : this.rankOfTiles(snap.tiles)) : -1;
    this.showScene({
      n: this.board.n, tiles: tiles.slice(), goal: this.board.goal, caption: this.searchCaption(snap, tiles),
      mark: -1, space: this.spaceScene({ current }),
    }, { slide: ms > 0 ? slide : null, ms, cut: !sameBoard(this.drawnTiles, tiles) });
  }

  searchCaption(snap, tiles) {
    const result = this.pendingResult;
    if (this.traceAtEnd && result && !result.found) {
      return result.stopped ? t("fam.sliding.search_stopped", { reason: result.stopped }) : t("fam.sliding.search_over", { why: this.whyNone(result) });
    }
    if (!snap) {
      return t(this.search.position > 0 ? "fam.sliding.caption_waits" : "fam.view.caption_press_play");
    }
    if (snap.i !== this.search.lastClose) {
      return t("fam.sliding.caption_capped", { expanded: this.search.expanded, first: this.search.snapshots.length });
    }
    // The board drawn is the state: no other notation of it here (explain and Predict write its rows).
    const parts = [t("fam.sliding.expanding")];
    const g = this.search.g;
    if (g !== null) parts.push(`g = ${num(g)}`);
    if (USES_H.has(this.run.algorithm)) {
      const h = this.hOf(tiles);
      if (h !== null) parts.push(`h = ${h}`, `f = ${num(this.fOf(g, h))}`);
    }
    parts.push(t("fam.sliding.frontier", { frontier: this.search.frontier }));
    return parts.join(" · ");
  }

  fOf(g, h) {
    if (h === null || g === null) return null;
    return this.run?.algorithm === "greedy" ? h : g + (this.run?.weight ?? 1) * h;
  }

  // ---- explain mode and the figures (../family_view.js) -----------------------------------------

  /**
   * A record's cell is where the blank stands, shared by many boards; the frames number the states
   * (`named`), so the run's states are named once its first frame came.
   */
  get tracedStates() {
    return this.named.active;
  }

  stateIds() {
    return this.named.column();
  }

  /** The board of state `id` (the frames' `named`), or null. */
  boardOf(id) {
    const tiles = this.named.boardOf(id);
    return tiles && this.board && tiles.length === this.board.tiles.length ? tiles : null;
  }

  /** The family's notation: the board's rows, "_" the blank: "7 2 4 / 5 _ 6 / 8 3 1". */
  stateLabel(id) {
    const n = this.board?.n || 3;
    const tiles = this.boardOf(id);
    return tiles ? boardText(tiles, n) : t("fam.sliding.board_not_sent", { id });
  }

  /** The board drawn small (Predict's choices, explain mode's frontier). */
  stateFigure(id) {
    const tiles = this.boardOf(id);
    return tiles ? smallBoard(tiles, this.board.goal, this.board.n, this.stateLabel(id)) : null;
  }

  /** Where a record's blank stands, alike for every board (exercise mode's list, without names). */
  cellLabel(cell) {
    return t("fam.sliding.blank_at", { cell: cellName(cell, this.board?.n || 3) });
  }

  /** h of state `id` under the run's heuristic: the server's (any heuristic, "yours" too), else the page's. */
  heuristicOf(id) {
    if (!this.run) return null;
    const h = this.named.hOf(id);
    if (h !== null) return h;
    const tiles = this.boardOf(id);
    return tiles ? this.hOf(tiles) : null;
  }

  stepCost() {
    return 1;
  }

  /** g, h and f of the state expanded at the playhead; for the 8-puzzle its real distance h*. */
  playheadFigures() {
    if (!this.run || !this.board) return [];
    const snap = this.ownSnapshot();
    const tiles = snap ? snap.tiles : null;
    const g = snap ? this.search.g : null;
    const name = this.run.heuristic;
    const h = tiles ? this.hOf(tiles) : null;
    const known = PAGE_HEURISTICS.includes(name);
    const figures = [{ key: "g", label: "g", value: g, def: t("fam.view.def_g") }];
    if (USES_H.has(this.run.algorithm)) {
      figures.push({
        key: "h", label: "h", value: h,
        def: known ? t("fam.view.def_h", { heuristic: hName(name) }) : t("fam.sliding.def_h_server", { name }),
      }, {
        key: "f", label: "f", value: this.fOf(g, h),
        def: this.run.algorithm === "greedy" ? t("fam.view.def_f_greedy") : t("fam.view.def_f", { w: num(this.run.weight) }),
      });
    }
    if (this.ranked) {
      figures.push({ key: "hstar", label: "h*", value: tiles ? this.distanceOf(tiles) : null, def: t("fam.sliding.def_hstar") });
    }
    return figures;
  }

  // ---- the result and its replay (../solution_view.js) ------------------------------------------

  whyNone(result) {
    return result.message || (result.stopped ? t("fam.view.stopped", { reason: result.stopped }) : t("fam.sliding.no_solution"));
  }

  showSolution(result, why) {
    this.solution = result?.found ? movesOf(result, this.board.n) : null;
    this.solutionRanks = this.solution && this.ranked ? this.solution.path.map((tiles) => rankOf(tiles)) : null;
    this.showFigures();
    if (this.solution && this.solution.moves.length) this.replay.load(this.solution);
    else super.showSolution(null, why);
    this.showBar();
  }

  showFigures() {
    const set = (node, value) => {
      node.textContent = value === null || value === undefined ? "—" : String(value);
      node.classList.toggle("none", value === null || value === undefined);
    };
    const { moves, optimal, startH } = this.panels.figures;
    const solution = this.revealed ? this.solution : null;
    set(moves, solution ? solution.moves.length : null);
    set(optimal, solution && this.board ? this.distanceOf(this.board.tiles) : null);
    set(startH, solution && this.board ? this.hOf(this.board.tiles) : null);
  }

  /**
   * The first time a run's trace ends the solution plays by itself; later, the solved board. A
   * re-solve after an edit (playing by hand) keeps the board as it is, its solution listed.
   */
  replayEntered(fromUser) {
    if (!fromUser && this.run?.instant) this.replay.show(0);
    else if (!fromUser && !this.autoPlayed) {
      this.autoPlayed = true;
      this.replay.show(0);
      if (!reducedMotion()) this.replay.play(); // nothing plays by itself under reduced motion
    } else if (!fromUser) this.replay.show(this.replay.count);
    else super.replayEntered(fromUser);
  }

  /**
   * The editor acts on the puzzle's board: when the canvas shows another (a search state, the
   * solution's end), the trace and the replay pause and the board is shown first; true then.
   */
  showBoardForEditing() {
    if (!this.board || sameBoard(this.drawnTiles, this.board.tiles)) return false;
    if (this.player.playing) this.player.pause();
    this.replay.stop();
    this.renderer.finishAnimation();
    this.showIdle();
    return true;
  }

  /** The replay shows the board after `step` moves (sliding in when `slide`). */
  replayShown(step, slide) {
    if (!this.active || !this.solution) return;
    const { path, moves } = this.solution;
    const tiles = path[Math.min(step, path.length - 1)];
    const n = moves.length;
    let caption;
    if (step === 0) caption = t("fam.sliding.caption_start", { count: n });
    else caption = t("fam.sliding.caption_move", { step, n, move: moveText(moves[step - 1]) });
    const h = this.hOf(tiles);
    // A checked solution may end elsewhere: the caption says so, as its verdict does.
    const last = path[path.length - 1];
    const endsAtGoal = last.length === this.board.goal.length && last.every((tile, i) => tile === this.board.goal[i]);
    if (h !== null && step < n) caption += endsAtGoal ? t("fam.sliding.caption_to_go", { h, left: n - step }) : ` · h = ${h}`;
    if (step === n) caption += t(endsAtGoal ? "fam.sliding.caption_goal" : "fam.sliding.caption_not_goal");
    const moved = step > 0 ? slideBetween(path[step - 1], path[step]) : null;
    const ranks = this.solutionRanks;
    this.mode = "replay";
    this.showScene({
      n: this.board.n, tiles: tiles.slice(), goal: this.board.goal, caption, mark: moved ? moved.to : -1,
      space: this.spaceScene({ current: ranks ? ranks[step] : -1, path: ranks }),
    }, { cut: true });
    void slide; // the replay starts the slide itself (SlidingReplay.animateStep)
  }

  // ---- the hover read-out ------------------------------------------------------------------------

  hovered(hit) {
    this.hoveredAt = hit;
    if (!hit || !this.board) {
      this.shell.setHover("");
      return;
    }
    const n = this.board.n;
    if (hit.cell !== undefined) {
      const tiles = this.renderer.scene?.tiles || this.board.tiles;
      const tile = tiles[hit.cell];
      if (!tile) {
        this.shell.setHover(t("fam.sliding.blank_at", { cell: cellName(hit.cell, n) }));
        return;
      }
      const home = this.goalPos[tile];
      const away = Math.abs(Math.floor(home / n) - Math.floor(hit.cell / n)) + Math.abs((home % n) - (hit.cell % n));
      this.shell.setHover(t("fam.sliding.hover_tile", {
        tile, cell: cellName(hit.cell, n), home: cellName(home, n),
        away: away ? t("fam.sliding.hover_away", { count: away }) : t("fam.sliding.hover_home"),
      }));
      return;
    }
    const space = this.space;
    if (!space) return;
    const d = hit.column;
    let lit = 0;
    if (this.run) {
      const upto = this.search.distinctReached();
      const ranks = this.search.distinctRanks;
      for (let k = 0; k < upto; k++) if (space.dist[ranks[k]] === d) lit++;
    }
    const count = space.counts[d] || 0;
    this.shell.setHover(t("fam.sliding.hover_bin", { states: t("fam.sliding.states", { count }), d, moves: t("fam.sliding.moves_word", { count: d }) })
      + (this.run ? t("fam.sliding.hover_lit", { lit }) : ""));
  }

  // ---- what the shell shows for it -------------------------------------------------------------

  legend(container, _run = {}) {
    this.legendHost = container;
    renderSlidingLegend(container, { space: this.ranked });
  }

  /** A run's options in words: "Manhattan distance h₂, weight 2". */
  describeRun(_algorithm, options) {
    if (options.heuristic === undefined) return "";
    const heuristic = hName(options.heuristic || this.info?.heuristics?.[0] || t("fam.view.default"));
    const weight = options.weight;
    return weight !== undefined && weight !== null && weight !== 1
      ? t("fam.view.heuristic_weight", { heuristic, w: num(weight) }) : t("fam.view.heuristic", { heuristic });
  }

  // ---- the board by keyboard (A2: ../../board/cell_cursor.js; FamilyView cursorGrid …) ---------

  /** The cursor walks the board's n × n cells; it starts on the blank. */
  cursorGrid() {
    if (!this.board || !this.renderer.lastLayout) return null;
    const n = this.board.n;
    const tiles = this.renderer.scene?.tiles || this.board.tiles;
    const blank = tiles.indexOf(0);
    return { columns: n, rows: n, home: blank >= 0 ? { column: blank % n, row: Math.floor(blank / n) } : undefined };
  }

  /** A cell's square in the renderer's last layout. */
  cursorRect(column, row) {
    const L = this.renderer.lastLayout;
    if (!L) return null;
    return { x: L.bx + column * L.unit, y: L.by + row * L.unit, width: L.unit, height: L.unit };
  }

  /** "(0, 1): tile 7", "(1, 1): the blank". */
  cursorLabel(column, row) {
    const n = this.board.n;
    const cell = row * n + column;
    const tile = (this.renderer.scene?.tiles || this.board.tiles)[cell];
    const what = tile ? this.a11yWords("a11y.cell.tile", { tile }) : this.a11yWords("a11y.cell.blank");
    return this.a11yWords("a11y.cell.label", { cell: cellName(cell, n), what });
  }

  /** The start board and the goal, row by row ("7 2 4 / 5 _ 6 / 8 3 1"). */
  boardFacts() {
    if (!this.board) return { start: null, goal: null };
    return { start: boardText(this.board.tiles, this.board.n), goal: boardText(this.board.goal, this.board.n) };
  }
}
