// @ts-check
// A Stage is one board's whole life: the family view that draws it (one per family, made on first
// use, each with its own canvas), the run's Timeline, Tally and Player, and the run itself from the
// socket to the end of its trace (./run.js: idle → starting → searching → streaming → done | error |
// cancelled). The single view is one Stage (../shell/single_view.js); the comparison is 2–4 Stages
// under one shared clock (../compare/panel.js). A new panel type (a checker's replay, a student's own
// search) is a Stage with a host of its own that listens to `onRun`.
//
// Its events come from a source (`live`, a RunSource: ../live.js): the socket in the page (Live), the
// widget's comm in a notebook (../notebook/comm_source.js). The Stage only starts and cancels runs
// through it and hears their status, frames, result and error; it never knows which one it has.
//
// The editor's instant re-solve is a mode of the same machine: `reSolve()` starts an instant run
// whose frames are gathered off-screen while the board keeps the run it shows; when it is done it
// takes the board in one go (event "shown"). At most one is in flight; a change meanwhile asks for
// one more when it ends, with the choices of that moment.

import { viewClassFor } from "../families/index.js";
import { Player } from "../playback/player.js";
import { Tally } from "../tally.js";
import { Timeline } from "../timeline.js";
import { el } from "../dom.js";
import { has, setAttr, t } from "../i18n.js";
import { Run } from "./run.js";
import { StepIndex } from "./step_index.js";

/** @typedef {import("../families/family_view.js").FamilyView} FamilyView */

/**
 * @typedef {"started" | "status" | "frame" | "computed" | "done" | "error" | "cancelled" | "shown"} RunEvent
 *   started: sent; status: the server's state changed (run.state, run.message, run.expandedSoFar,
 *   run.recordsSent, run.total); frame: records arrived; computed: the result is known (run.result);
 *   done: every record is here; error: it failed (run.error); cancelled: it was stopped (cancel()), or
 *   a new run of this Stage replaced it; shown: an instant run took the board (after its computed and
 *   done). What a host shows of them in words: ./run_status.js.
 */

/**
 * @typedef {object} StartArgs
 * @property {string} puzzle       the puzzle's id
 * @property {string} algorithm
 * @property {object} options
 * @property {string} [text]       the run in words
 * @property {string} [signature]  the choices it was made from
 * @property {string} [slot]       the socket slot ("main", "p0"…)
 * @property {boolean} [instant]   the editor's re-solve: shown at its end, not animated
 */

export class Stage {
  /**
   * @param {{live: import("../live.js").RunSource, board: HTMLElement,
   *          hosts: import("../families/family_view.js").ViewHosts, shell: import("../families/family_view.js").ViewShell,
   *          canvas?: {testid: string, label: string}, keyframeBudget?: number, viewPlayer?: import("../families/family_view.js").ViewPlayer,
   *          indexSteps?: boolean, damaged?: string, onPlayerChange?: () => void,
   *          onRun?: (event: RunEvent, run: Run) => void}} args
   *   live: where the runs come from (the page's socket, a notebook widget's comm);
   *   board: where the view's canvas goes (first child); hosts/shell: what the family view is given
   *   (families/family_view.js); viewPlayer: what the view takes for "the player" (a comparison
   *   panel's follows the shared clock; default the Stage's Player); indexSteps: keep the index of
   *   expansions (the comparison's shared steps); damaged: the error for a trace that cannot be read.
   */
  constructor({
    live, board, hosts, shell, canvas = { testid: "canvas", label: "stage.board" }, keyframeBudget, viewPlayer,
    indexSteps = false, damaged = "stage.damaged",
    onPlayerChange = () => {}, onRun = () => {},
  }) {
    this.live = live;
    this.board = board;
    this.hosts = hosts;
    this.shell = shell;
    this.canvasAttrs = canvas;
    this.damaged = damaged;
    this.onRun = onRun;
    this.timeline = new Timeline();
    this.tally = new Tally(this.timeline);
    this.player = new Player({ timeline: this.timeline, onChange: onPlayerChange, keyframeBudget });
    this.viewPlayer = viewPlayer || this.player;
    this.steps = indexSteps ? new StepIndex() : null;
    /** @type {Map<string, FamilyView>} family name -> its view (kept for the next puzzle of that family) */
    this.views = new Map();
    /** @type {FamilyView | null} the family view showing the puzzle */
    this.view = null;
    /** @type {any} the puzzle's info */
    this.info = null;
    this.entered = false;
    /** @type {Run | null} the run on the board */
    this.run = null;
    /** @type {Run | null} an instant run gathered off-screen */
    this.pending = null;
    /** @type {(() => StartArgs | null) | null} a re-solve asked for while one was in flight */
    this.again = null;
  }

  // ---- the view and the puzzle ---------------------------------------------------------------------

  /**
   * The view for a family: one instance each, with its own canvas; null for a family we cannot show.
   * A puzzle whose info has `deep_zoom` (a huge board) gets the family's tiled view.
   * @param {string} family
   * @param {any} [info] the puzzle's info
   * @returns {FamilyView | null}
   */
  viewFor(family, info = null) {
    const tiled = Boolean(info?.deep_zoom); // a board too big to draw cell by cell: the family's tiled view
    const key = tiled ? `${family}:tiles` : family;
    if (this.views.has(key)) return this.views.get(key);
    const View = viewClassFor(family, { tiled });
    if (!View) return null;
    const canvas = el("canvas", { testid: this.canvasAttrs.testid });
    // The label: a catalog key (kept in the page's language), or a text already in words.
    if (has(this.canvasAttrs.label)) setAttr(canvas, "aria-label", this.canvasAttrs.label);
    else canvas.setAttribute("aria-label", this.canvasAttrs.label);
    const view = new View({ canvas, hosts: this.hosts, timeline: this.timeline, player: this.viewPlayer, shell: this.shell });
    this.views.set(key, view);
    return view;
  }

  /**
   * Show a puzzle with `view` (from viewFor): the old view leaves first and stops drawing.
   * @param {any} info the puzzle's info
   * @param {any} data what the view's prepare() gave
   * @param {FamilyView} view
   */
  show(info, data, view) {
    this.leave();
    if (this.view && this.view !== view) this.view.canvas.remove();
    this.view = view;
    this.info = info;
    this.board.prepend(view.canvas);
    this.run = null;
    this.timeline.reset();
    this.tally.reset();
    this.steps?.clear();
    view.enter(info, data);
    const target = view.playerTarget();
    this.player.attach(target.state, target.renderer);
    this.entered = true;
  }

  /** Stop drawing (another puzzle comes, the panel goes); the canvas stays until the next show(). */
  leave() {
    if (!this.entered) return;
    this.entered = false;
    this.view.leave();
  }

  /** The tally at the playhead: {expanded, generated, frontier, maxFrontier}, or null without a run. */
  counts() {
    if (!this.run || !this.entered) return null;
    if (this.run.tiles) return this.view.tileCounts(this.player.position); // no records: the view knows
    return this.tally.at(this.player.position);
  }

  /** The steps of the run in all, as far as known (its records, or those the stream announced). */
  total() {
    const run = this.run;
    if (run?.tiles) return run.tiles.steps;
    return run ? run.records ?? run.total : null;
  }

  /**
   * What the figures show at the playhead (../figures.js draws it beside the single board, a
   * comparison panel under its own): the counts, the view's g/h/f, and the result once at the end.
   */
  figuresAt() {
    const { run, player } = this;
    return {
      hasRun: Boolean(run),
      counts: this.counts(),
      position: player.position,
      total: this.total(),
      received: this.timeline.length,
      playing: player.playing,
      atEnd: Boolean(run?.result) && player.atEnd,
      viewFigures: run && this.entered ? this.view.playheadFigures() : [],
      result: run?.result || null,
      runText: run?.text || "",
    };
  }

  /** Every record of the run is here (or it failed, or was stopped: what arrived is all there is). */
  get complete() {
    return !this.run || this.run.finished;
  }

  /** The run ended with its whole trace. */
  get traceComplete() {
    return Boolean(this.run && this.run.state === "done");
  }

  // ---- runs ---------------------------------------------------------------------------------------

  /**
   * Start a search; an instant one (the editor's re-solve) is gathered off-screen while the board
   * keeps the run it shows. Any run of this Stage still going is cancelled first.
   * @param {StartArgs} args
   * @returns {Run}
   */
  start({ puzzle, algorithm, options, text = "", signature = "", slot = "main", instant = false }) {
    this.cancel();
    const run = new Run({ algorithm, options, text, signature, slot, instant });
    if (instant) this.pending = run;
    else {
      this.run = run;
      this.clearBoard();
    }
    run.to("starting");
    const mine = (handler) => (...args) => (run === this.run || run === this.pending) && handler(run, ...args);
    run.id = this.live.start({ puzzle, algorithm, options, slot, instant }, {
      onStatus: mine((r, msg) => this.status(r, msg)),
      onFrame: mine((r, frame, msg) => this.frame(r, frame, msg)),
      onDone: mine((r, msg) => this.computed(r, msg)),
      onError: mine((r, error) => this.fail(r, error)),
    });
    if (!instant) this.view.runStarted(run.id, { algorithm, options });
    this.emit("started", run);
    return run;
  }

  /**
   * Show a result no search made (a checked solution, ../lab/check_panel.js) as a run that is done at
   * once: its records are the view's (replayRecords: the grid's path cell by cell; none for the
   * families that replay a solution beside the board), its result goes to the view as run_done's
   * would, and the host hears started, computed and done as for a search. `illegal`: the solution's
   * first illegal move, marked by the view (FamilyView.markIllegal).
   * @param {{result: any, text?: string, options?: object,
   *          illegal?: {move: number, reason: string, cell: number, target: number} | null}} args
   * @returns {Run}
   */
  showResult({ result, text = "", options = {}, illegal = null }) {
    this.cancel();
    const run = new Run({ algorithm: "check", options, text, slot: "replay" });
    run.id = `replay-${Date.now().toString(36)}`;
    this.run = run;
    this.clearBoard();
    run.to("starting");
    this.view.runStarted(run.id, { algorithm: "check", options });
    this.view.markIllegal(illegal);
    this.emit("started", run);
    const records = this.view.replayRecords(result);
    const n = records ? records.kinds.length : 0;
    run.to("streaming");
    if (n) {
      const bytes = (/** @type {Int32Array | Float32Array} */ a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      this.timeline.addFrame(0, records.kinds, bytes(records.cells), bytes(records.values));
      this.emit("frame", run);
    }
    run.result = result;
    run.records = n;
    this.timeline.expected = n;
    this.view.result(result);
    this.emit("computed", run);
    this.maybeFinish(run);
    return run;
  }

  /**
   * The editor changed the board: search it again, shown at its end. `makeArgs` gives the run's
   * choices when it starts (null: nothing to re-solve); one in flight makes this one wait for it.
   * @param {() => StartArgs | null} makeArgs
   */
  reSolve(makeArgs) {
    if (this.pending) {
      this.again = makeArgs;
      return;
    }
    const args = makeArgs();
    if (args) this.start({ ...args, instant: true });
  }

  /**
   * Stop the run on the board (if it is still going) and any re-solve; the host hears "cancelled" for
   * each run stopped (what arrived of the board's can still be played).
   */
  cancel() {
    const run = this.run;
    const pending = this.pending;
    this.pending = null;
    this.again = null;
    if (run && !run.finished) {
      this.live.cancel(run.id);
      run.to("cancelled");
      this.player.pause();
      this.emit("cancelled", run);
    }
    if (pending) {
      this.live.cancel(pending.id);
      pending.to("cancelled");
      this.emit("cancelled", pending);
    }
  }

  /** The socket closed: the runs still going fail with `message`. @param {string} message */
  connectionLost(message) {
    if (this.pending) this.fail(this.pending, message);
    if (this.run && !this.run.finished) this.fail(this.run, message);
  }

  /** The board shows no run (one that failed before any record arrived). */
  forgetRun() {
    this.run = null;
  }

  /** A new run takes the board: no trace, no counts, the playhead at 0. */
  clearBoard() {
    this.timeline.reset();
    this.tally.reset();
    this.steps?.clear();
    this.player.rewind();
  }

  /** Give back the memory the trace and keyframes hold (a comparison closes). */
  release() {
    this.cancel();
    this.leave();
    this.run = null;
    this.timeline.reset();
    this.tally.reset();
    this.player.dropKeyframes();
    const small = 1 << 16;
    Object.assign(this.timeline, { kinds: new Uint8Array(small), cells: new Int32Array(small), values: new Float32Array(small) });
    this.steps?.release();
  }

  // ---- the socket's events ------------------------------------------------------------------------

  /** @param {RunEvent} event @param {Run} run */
  emit(event, run) {
    this.onRun(event, run);
  }

  /** @param {Run} run @param {any} msg */
  status(run, msg) {
    if (run.finished) return;
    const phase = msg.phase === "searching" || msg.phase === "streaming" ? msg.phase : "starting"; // "queued": still starting
    if (!run.to(phase)) return;
    run.message = msg.message || "";
    // run_status's `done` counts what its phase does (docs/PROTOCOL.md): expansions, then records sent.
    if (phase === "searching") run.expandedSoFar = msg.done || 0;
    else if (phase === "streaming") run.recordsSent = msg.done || 0;
    if (Number.isInteger(msg.total)) run.total = msg.total;
    if (run === this.run) this.emit("status", run);
  }

  /** @param {Run} run @param {any} frame @param {any} msg */
  frame(run, frame, msg) {
    if (run.finished) return;
    run.to("streaming");
    if (run === this.pending) {
      run.buffered?.push([frame, msg]);
      return;
    }
    if (!this.addFrame(run, frame, msg)) return;
    this.emit("frame", run);
    this.maybeFinish(run);
  }

  /** Records into the timeline, then to the view; false when they cannot be read (the run fails). */
  addFrame(run, frame, msg) {
    try {
      this.timeline.addFrame(frame.start, frame.kinds, frame.cells, frame.values);
    } catch (err) {
      console.warn(err);
      this.fail(run, t(this.damaged)); // a key, or words given
      return false;
    }
    this.steps?.scan(this.timeline);
    this.view.frame(msg);
    return true;
  }

  /** run_done: the result is known; the trace may still be arriving. @param {Run} run @param {any} msg */
  computed(run, msg) {
    if (run.finished) return;
    run.result = msg.result;
    run.records = msg.records;
    if (run === this.pending) {
      this.showInstant(run);
      return;
    }
    this.timeline.expected = msg.records;
    if (msg.tiles) {
      // A huge board: no records came; the board at any step is drawn from tiles (run_done.tiles).
      run.tiles = msg.tiles;
      this.view.tiledRun(msg.tiles);
      this.player.useSteps(msg.tiles.steps);
    }
    this.view.result(msg.result);
    this.emit("computed", run);
    this.maybeFinish(run);
  }

  /** "done" only once the whole trace is here, not merely computed. @param {Run} run */
  maybeFinish(run) {
    if (run.finished || run.records === null || this.timeline.length < run.records) return;
    run.to("done");
    this.view.traceComplete();
    this.player.schedule(); // playback may have been waiting at the end for these records
    this.emit("done", run);
  }

  /** @param {Run} run @param {string} error */
  fail(run, error) {
    if (run.finished) return;
    run.error = error;
    run.to("error");
    if (run === this.pending) this.pending = null;
    else this.player.pause(); // what arrived can still be stepped through and played again
    this.emit("error", run);
    if (run.instant) this.reSolveEnded();
  }

  /** An instant run is computed: it takes the board in one task (one redraw), at its end. @param {Run} run */
  showInstant(run) {
    this.pending = null;
    this.run = run;
    this.clearBoard();
    this.view.runStarted(run.id, { algorithm: run.algorithm, options: run.options, instant: true });
    const frames = run.buffered || [];
    run.buffered = null;
    for (const [frame, msg] of frames) if (!this.addFrame(run, frame, msg)) return;
    this.timeline.expected = run.records;
    this.view.result(run.result);
    this.emit("computed", run);
    this.maybeFinish(run);
    this.player.last();
    this.emit("shown", run);
    this.reSolveEnded();
  }

  /** A re-solve ended (shown or failed): the one asked for meanwhile starts now. */
  reSolveEnded() {
    const again = this.again;
    this.again = null;
    if (again) this.reSolve(again);
  }
}
