// @ts-check
// The single view: one Stage (../stage/stage.js) on the page's board, with what the page shows of
// it — the transport bar under the board, the figures at the playhead, the caption that says which
// run is shown (and marks it as the previous run when the choices changed), the legend, Run and
// Stop, and the run's status, spinner and progress. The editor's re-solve goes through the Stage's
// instant mode; explain mode and share/export read the Stage's run and position.

import { ExplainPanel } from "../explain/panel.js";
import { Figures } from "../figures.js";
import { seconds, setNumber } from "../format.js";
import { TransportBar } from "../playback/transport_bar.js";
import { runStatus } from "../stage/run_status.js";
import { Stage } from "../stage/stage.js";
import { idle, isBusy, setBusy, setProgress, setStatus, showError, working } from "./status.js";
import { byId } from "../dom.js";
import { onLanguage, t } from "../i18n.js";

const $ = byId;
const NARROW = "(max-width: 1050px)"; // the CSS breakpoint where the panels stack under each other

export class SingleView {
  /**
   * @param {{live, selection: import("./selection.js").Selection, hosts: object, shell: object,
   *          puzzle: () => any, onRunEnded: (ok: boolean) => void, onReSolved: (run, since: number) => void,
   *          onPlayerChange?: () => void, onRunStarted?: () => void}} args
   *   puzzle(): the puzzle shown; onRunEnded: a run ended (the address's step follows);
   *   onReSolved: an instant re-solve took the board (the editing benchmark's probe);
   *   onPlayerChange: the playhead or the run changed (the address follows);
   *   onRunStarted: Run started a search on the board (the lab's heat map makes way for it).
   */
  constructor({ live, selection, hosts, shell, puzzle, onRunEnded, onReSolved, onPlayerChange = () => {},
    onRunStarted = () => {} }) {
    this.selection = selection;
    this.puzzle = puzzle;
    this.onRunEnded = onRunEnded;
    this.onReSolved = onReSolved;
    this.onPlayerChange = onPlayerChange;
    this.onRunStarted = onRunStarted;
    this.stale = false; // the algorithm or an option changed since the run on the board
    this.reSolveStarted = 0; // performance.now() when the latest re-solve was started
    this.stage = new Stage({
      live, board: $("board"), hosts, shell, canvas: { testid: "canvas", label: "shell.canvas_label" },
      onPlayerChange: () => this.playerChanged(),
      onRun: (event, run) => this.runEvent(event, run),
    });
    this.figures = new Figures({ $ });
    // Explain mode: the algorithm's code beside the board, following the playhead (../explain/).
    this.explain = new ExplainPanel({
      panel: $("explain-panel"),
      button: $("explain"),
      timeline: this.stage.timeline,
      onToggle: () => requestAnimationFrame(() => this.view?.refit()),
    });
    this.bar = new TransportBar({
      clock: this.stage.player,
      label: "play.trace",
      testids: { back: "step-back", range: "scrub", "player-label": "player-label" },
      rangeLabel: "play.trace_range",
      positionTitle: "play.trace_position",
      onPace: () => this.applyPace(),
    });
    $("bar").replaceWith(this.bar.root);
    this.bar.root.id = "bar";
    $("run").addEventListener("click", () => this.start());
    $("cancel").addEventListener("click", () => this.cancel());
    this.applyPace();
    // Another language: what this view wrote at run time is written again (the caption, the
    // figures, the bar's read-outs, the run's status unless a load or a search is saying more).
    onLanguage(() => this.languageChanged());
  }

  /** The page's language changed: every text this view computed is written again. */
  languageChanged() {
    const run = this.run;
    // The run's words (its algorithm's label, the view's description of its options) in the new
    // language; a student's code and a checked solution keep the words they were given.
    if (run && run.slot !== "replay" && run.algorithm !== "code" && this.selection.algorithms.length) {
      run.text = this.selection.runText(run.algorithm, run.options);
    }
    this.showRunCaption();
    if (this.run?.finished) this.showStatus(this.run);
    if (this.run?.result) $("seconds").textContent = seconds(this.run.result.seconds);
    this.showPace();
    this.legend();
    this.playerChanged();
  }

  get view() {
    return this.stage.view;
  }

  get run() {
    return this.stage.run;
  }

  get player() {
    return this.stage.player;
  }

  // ---- a puzzle -----------------------------------------------------------------------------------

  /** A new puzzle on the board (`view` from stage.viewFor). */
  show(info, data, view) {
    this.stage.show(info, data, view);
    this.stale = false;
    $("board-tools").classList.toggle("unused", !view.zoomable);
    document.querySelector(".layout").classList.toggle("wide-right", Boolean(view.wideRight));
  }

  /** What every family shows of a new puzzle: empty figures, the caption, the legend, the pace. */
  shown() {
    this.resetStats();
    this.legend();
    this.showRunCaption();
    this.showPace();
    this.playerChanged();
  }

  // ---- runs ---------------------------------------------------------------------------------------

  /**
   * The run the present choices make, or null after saying in the banner why none can start.
   * @returns {import("../stage/stage.js").StartArgs | null}
   */
  runArgs() {
    const info = this.puzzle();
    const view = this.view;
    if (!info || !view) return null;
    const problem = this.selection.problem();
    if (problem) {
      // Never changed to fit: the user sees what is wrong and where.
      showError(problem.message);
      problem.input.focus();
      return null;
    }
    const notReady = view.checkReady();
    if (notReady) {
      showError(notReady);
      return null;
    }
    const algorithm = this.selection.algorithm;
    const options = this.selection.values(algorithm);
    return {
      puzzle: info.id, algorithm, options, text: this.selection.runText(algorithm, options),
      signature: this.selection.signature(info.id),
    };
  }

  /** Run: search the puzzle shown with the form's choices, and play it. */
  start() {
    const args = this.runArgs();
    if (!args) return;
    showError("");
    this.stale = false;
    this.onRunStarted();
    this.stage.start(args);
  }

  /**
   * A run made elsewhere, started as Run starts one: a student's code replayed as the algorithm
   * `code` (../code/code_panel.js), with its own text and the page's signature (the menu keeps its
   * choice: the algorithm the code was compared with).
   * @param {import("../stage/stage.js").StartArgs} args
   */
  startWith(args) {
    if (!this.puzzle() || !this.view) return;
    showError("");
    this.stale = false;
    this.stage.start(args);
  }

  /**
   * A checked solution (../lab/check_panel.js) on the board: the server's `replay` shown as a run,
   * played by the family's own animation, its first illegal move marked (Stage.showResult).
   * @param {{result: any, text: string, options?: object,
   *          illegal?: {move: number, reason: string, cell: number, target: number} | null}} args
   */
  showChecked(args) {
    if (!this.puzzle() || !this.view) return;
    showError("");
    this.stale = false;
    this.stage.showResult(args);
  }

  /** True when the board shows a checked solution, not a search. */
  get showsChecked() {
    return this.run?.slot === "replay";
  }

  /**
   * The editor changed the board: search it again and show the end at once (no animation), when the
   * board shows a run (`force`: it did before a reload).
   */
  reSolve(force = false) {
    if ((!this.run && !force) || !this.puzzle()) return;
    this.stage.reSolve(() => {
      const args = this.runArgs();
      if (args) {
        showError("");
        this.reSolveStarted = performance.now();
      }
      return args;
    });
  }

  /**
   * Stop every run of this board: Stop pressed, another puzzle coming, the comparison opening. The run
   * on the board stops where it is (what arrived can be played) and the Stage says "cancelled".
   */
  cancel() {
    this.stage.cancel();
  }

  /** The socket closed. */
  connectionLost() {
    this.stage.connectionLost(t("shell.connection_lost"));
  }

  /** What the board does at each step of a run (../stage/run.js). */
  runEvent(event, run) {
    const handlers = {
      started: () => this.runStarted(run),
      status: () => this.runStatus(run),
      frame: () => this.runFrame(run),
      computed: () => this.runComputed(run),
      done: () => this.runDone(run),
      error: () => this.runFailed(run),
      cancelled: () => this.runCancelled(run),
      shown: () => this.runShown(run),
    };
    handlers[event]?.();
  }

  /** The status line says what ../stage/run_status.js words of `run`. */
  showStatus(run) {
    const { text, tone, detail } = runStatus(run);
    setStatus(text, tone, detail, run.finished ? () => this.showStatus(run) : null);
  }

  runStarted(run) {
    if (run.instant) {
      this.showStatus(run); // "re-solving…": gathered off-screen, the board keeps its run meanwhile
      return;
    }
    this.resetStats();
    this.legend();
    this.showRunCaption();
    this.applyPace();
    if (run.slot === "replay") this.showStatus(run);
    else {
      working(runStatus(run).text);
      $("cancel").hidden = false;
    }
    this.player.play();
    this.bringBoardIntoView();
  }

  runStatus(run) {
    const { text, fraction } = runStatus(run);
    if (run.state === "searching") {
      working(text);
    } else if (fraction !== null) {
      this.applyPace();
      this.showStatus(run);
      setBusy(null);
      setProgress(fraction);
    } else {
      this.showStatus(run);
    }
  }

  runFrame(run) {
    if (run.records === null && isBusy()) setBusy(null); // the first frames are here: the board speaks for itself now
    if (run.records === null && run.total === null) this.applyPace(); // a provisional pace
    if (!this.player.playing) this.playerChanged(); // playing, the player updates them every frame
  }

  runComputed(run) {
    setNumber($("records"), run.records);
    $("seconds").textContent = seconds(run.result.seconds);
    $("seconds").classList.remove("none");
    this.applyPace();
    this.playerChanged();
  }

  runDone(run) {
    this.legend();
    this.ended(run);
    // A checked solution: no search ran (share links and exports keep to the form's choice).
    if (run.slot !== "replay") this.onRunEnded(true);
  }

  /** The run on the board ended: its status, and nothing in progress any more. */
  ended(run) {
    this.showStatus(run);
    idle();
    $("cancel").hidden = true;
  }

  runCancelled(run) {
    if (run !== this.run) return; // a re-solve stopped: the board keeps its run, and what comes next says so
    this.ended(run);
  }

  runFailed(run) {
    if (run.instant && run !== this.run) {
      showError(run.error); // the re-solve failed: the board keeps its run
      return;
    }
    this.onRunEnded(false);
    if (this.stage.timeline.length === 0) {
      // Nothing of it arrived (e.g. the server refused an option): the board shows no run.
      this.stage.forgetRun();
      this.stale = false;
      this.showRunCaption();
      this.legend();
      this.playerChanged();
    }
    this.ended(run);
    showError(run.error);
  }

  /** An instant re-solve took the board, at its end. */
  runShown(run) {
    this.stale = false;
    this.showRunCaption();
    this.onReSolved(run, this.reSolveStarted);
  }

  /** After Run the next key press belongs to the player, and the board must be in sight (phones). */
  bringBoardIntoView() {
    const board = $("board");
    board.focus({ preventScroll: true });
    const rect = board.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) {
      const narrow = window.matchMedia(NARROW).matches;
      (narrow ? $("run-caption") : board).scrollIntoView({ block: "start", behavior: "smooth" });
    }
  }

  // ---- what the page shows of the board -----------------------------------------------------------

  resetStats() {
    this.figures.reset();
    setNumber($("records"), null);
    $("seconds").textContent = "—";
    $("seconds").classList.add("none");
  }

  /** The legend under the board, for the run shown (or the algorithm chosen). */
  legend() {
    this.view?.legend($("legend"), { algorithm: this.run ? this.run.algorithm : this.selection.algorithm });
  }

  /** The choices changed: the run on the board may now be the previous one. */
  choicesChanged() {
    this.stale = Boolean(this.run) && this.selection.signature(this.puzzle()?.id) !== this.run.signature;
    this.showRunCaption();
  }

  /** The board and the panel say which run they show; a changed choice marks it as the previous run. */
  showRunCaption() {
    const run = this.run;
    const caption = $("run-caption");
    const label = $("run-label");
    const badge = $("stale-badge");
    const stale = Boolean(run) && this.stale;
    if (!run) {
      caption.textContent = this.puzzle() ? t("shell.not_searched") : "";
      label.textContent = "";
    } else if (stale) {
      const next = this.selection.runText(this.selection.algorithm, this.selection.values());
      caption.textContent = t("shell.shown_previous", { run: run.text, next });
      label.textContent = t("shell.previous_run", { run: run.text });
      badge.textContent = t("shell.previous_badge");
    } else {
      caption.textContent = t("shell.shown", { run: run.text });
      label.textContent = t("shell.shown", { run: run.text });
    }
    badge.hidden = !stale;
    for (const node of [caption, label, $("board"), $("now-stats"), $("optimal")]) node.classList.toggle("stale", stale);
  }

  /** The steps of the run in all, as far as known. */
  total() {
    return this.stage.total();
  }

  /** The player moved, played or paused: the bar, the figures and explain mode follow. */
  playerChanged() {
    const { player, stage } = this;
    const run = this.run;
    this.bar.update({ total: this.total(), enabled: Boolean(run) || stage.timeline.length > 0 });
    this.bar.range.dataset.route = player.lastRoute; // how the board reached this step (tests, benchmarks)
    this.bar.range.dataset.keyframes = String(player.keyframes.size);
    this.explain.update({ view: this.view, run, position: player.position, playing: player.playing });
    this.figures.update(stage.figuresAt());
    this.onPlayerChange();
  }

  /** A preset plays the whole run in its time: its speed follows the run's number of records. */
  applyPace() {
    this.player.pace(this.total() ?? this.stage.timeline.length);
    this.showPace();
  }

  showPace() {
    this.bar.showPace(this.total());
  }
}
