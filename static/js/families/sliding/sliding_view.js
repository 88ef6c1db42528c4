// The sliding-tile puzzles' view (8-, 15-, 24-puzzle; docs/SLIDING.md): the board on its own canvas;
// during a run the board of the state being expanded at the player's position (from the frames'
// snapshots; a tile slides when the next expansion is one move away), g, h and f at the playhead;
// for the 8-puzzle the whole state space beside the board (sliding_space.js), the states the search
// has expanded lit as it plays; after the run the solution replayed with the tiles sliding, beside
// its moves in words. The interface is FamilyView's (../family_view.js), the search and the solution's
// reveal SolutionView's (../solution_view.js); every bit of state lives on the instance.

import { number, withCommas } from "../../format.js";
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
const PUZZLE_NAMES = { 3: "8-puzzle", 4: "15-puzzle", 5: "24-puzzle" };
const H_NAMES = { misplaced: "misplaced tiles h₁", manhattan: "Manhattan distance h₂", linear_conflict: "linear conflict" };
const H_SHORT = { misplaced: "h₁ (misplaced)", manhattan: "h₂ (Manhattan)", linear_conflict: "linear conflict" };
const USES_H = new Set(["astar", "greedy", "idastar"]);

const plural = (k, word) => `${withCommas(k)} ${word}${k === 1 ? "" : "s"}`;

export class SlidingView extends SolutionView {
  static formLayout = { own: [], shared: [["heuristic", "weight"]], notes: { weight: "(f = g + w·h)" } };
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
    return this.info ? null : "Open a sliding-tile puzzle first.";
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
    return PUZZLE_NAMES[this.board.n] || `${this.board.n}² − 1 puzzle`;
  }

  /** The state-space part of a scene (8-puzzle), or null. */
  spaceScene({ current = -1, path = null } = {}) {
    if (!this.ranked) return null;
    const space = this.space;
    const search = this.search;
    const lit = this.run ? search.distinctReached() : 0;
    const start = rankOf(this.board.tiles);
    let note;
    if (!space) note = "Computing every state reachable from the goal (breadth-first search)…";
    else if (this.run) {
      const pct = (100 * lit) / space.size;
      note = `${plural(lit, "distinct state")} expanded: ${pct < 0.1 ? pct.toFixed(2) : pct.toFixed(1)}% of the space`
        + (path ? " · the solution: the blue line" : "")
        + (search.expanded > search.snapshots.length
          ? ` (of the first ${withCommas(search.snapshots.length)} expansions: the boards the server sends)` : "");
    } else {
      note = `The start (blue ring) is ${space.dist[start]} moves from the goal (green ring). `
        + "A bar holds the states that many moves from the goal, lowest h₂ at the bottom.";
    }
    return {
      space,
      note,
      title: `All ${withCommas(space ? space.size : 181440)} states, by moves from the goal`,
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
    if (h !== null) parts.push(`${H_SHORT[heuristic] || heuristic} of the start: ${h}`);
    parts.push(this.editor.on ? "click a tile next to the blank to slide it" : "press Run to search");
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
      return result.stopped ? `The search stopped: ${result.stopped}` : `Search over: ${this.whyNone(result)}`;
    }
    if (!snap) {
      return this.search.position > 0 ? "Search: the start waits on the frontier" : "Search: press Play (space) to watch it";
    }
    if (snap.i !== this.search.lastClose) {
      return `Expansion ${withCommas(this.search.expanded)}: the server sent the boards of the first `
        + `${withCommas(this.search.snapshots.length)} expansions only (the last one shown)`;
    }
    // The board drawn is the state: no other notation of it here (explain and Predict write its rows).
    const parts = ["Expanding this board"];
    const g = this.search.g;
    if (g !== null) parts.push(`g = ${number(g)}`);
    if (USES_H.has(this.run.algorithm)) {
      const h = this.hOf(tiles);
      if (h !== null) parts.push(`h = ${h}`, `f = ${number(this.fOf(g, h))}`);
    }
    parts.push(`frontier ${withCommas(this.search.frontier)}`);
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
    return tiles ? boardText(tiles, n) : `board ${id} (not sent)`;
  }

  /** The board drawn small (Predict's choices, explain mode's frontier). */
  stateFigure(id) {
    const tiles = this.boardOf(id);
    return tiles ? smallBoard(tiles, this.board.goal, this.board.n, this.stateLabel(id)) : null;
  }

  /** Where a record's blank stands, alike for every board (exercise mode's list, without names). */
  cellLabel(cell) {
    return `the blank at ${cellName(cell, this.board?.n || 3)}`;
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
    const figures = [{ key: "g", label: "g", value: g, def: "moves so far, state expanded" }];
    if (USES_H.has(this.run.algorithm)) {
      figures.push({
        key: "h", label: "h", value: h,
        def: known ? `estimated moves to go (${H_NAMES[name] || name})` : `${name}: computed by the server, not shown here`,
      }, {
        key: "f", label: "f", value: this.fOf(g, h),
        def: this.run.algorithm === "greedy" ? "its priority: f = h" : `its priority: f = g + ${number(this.run.weight)}·h`,
      });
    }
    if (this.ranked) {
      figures.push({ key: "hstar", label: "h*", value: tiles ? this.distanceOf(tiles) : null, def: "its real distance to the goal (the state space)" });
    }
    return figures;
  }

  // ---- the result and its replay (../solution_view.js) ------------------------------------------

  whyNone(result) {
    return result.message || (result.stopped ? `stopped: ${result.stopped}` : "no sequence of moves reaches the goal");
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
      this.replay.play();
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
    if (step === 0) caption = `Solution: ${plural(n, "move")} (press Next ▶ or Play moves)`;
    else caption = `Move ${step} of ${n}: ${moveText(moves[step - 1])}`;
    const h = this.hOf(tiles);
    // A checked solution may end elsewhere: the caption says so, as its verdict does.
    const last = path[path.length - 1];
    const endsAtGoal = last.length === this.board.goal.length && last.every((tile, i) => tile === this.board.goal[i]);
    if (h !== null && step < n) caption += endsAtGoal ? ` · h = ${h}, ${n - step} to go` : ` · h = ${h}`;
    if (step === n) caption += endsAtGoal ? " · the goal" : " · not the goal";
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
    if (!hit || !this.board) {
      this.shell.setHover("");
      return;
    }
    const n = this.board.n;
    if (hit.cell !== undefined) {
      const tiles = this.renderer.scene?.tiles || this.board.tiles;
      const tile = tiles[hit.cell];
      if (!tile) {
        this.shell.setHover(`the blank at ${cellName(hit.cell, n)}`);
        return;
      }
      const home = this.goalPos[tile];
      const away = Math.abs(Math.floor(home / n) - Math.floor(hit.cell / n)) + Math.abs((home % n) - (hit.cell % n));
      this.shell.setHover(`tile ${tile} at ${cellName(hit.cell, n)} · its goal cell ${cellName(home, n)}: `
        + (away ? `${away} move${away === 1 ? "" : "s"} away (Manhattan)` : "home"));
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
    this.shell.setHover(`${plural(count, "state")} ${d} move${d === 1 ? "" : "s"} from the goal`
      + (this.run ? ` · ${withCommas(lit)} of them expanded` : ""));
  }

  // ---- what the shell shows for it -------------------------------------------------------------

  legend(container, _run = {}) {
    this.legendHost = container;
    renderSlidingLegend(container, { space: this.ranked });
  }

  /** A run's options in words: "Manhattan distance h₂, weight 2". */
  describeRun(_algorithm, options) {
    if (options.heuristic === undefined) return "";
    const name = options.heuristic || this.info?.heuristics?.[0] || "default";
    const words = `${H_NAMES[name] || name} heuristic`;
    const weight = options.weight;
    return weight !== undefined && weight !== null && weight !== 1 ? `${words}, weight ${number(weight)}` : words;
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
