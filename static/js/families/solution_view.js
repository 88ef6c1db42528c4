// The shared part of the views whose search is drawn as a scene at the trace's position (not cell by
// cell) and whose result is a solution replayed beside the board (../move_replay.js); a family's
// view extends it when that is how it shows a search. The Player drives the family's search state and a stand-in renderer
// that redraws the scene; the result waits until the trace is played to its end, then the solution
// is revealed (or why there is none) in the panel solutionPanel() built.

import { sentence } from "../format.js";
import { onLanguage, t } from "../i18n.js";
import { animationScale } from "../playback/pace.js";
import { FamilyView } from "./family_view.js";

export class SolutionView extends FamilyView {
  /**
   * @param {import("./family_view.js").FamilyViewArgs} args
   * @param {import("./canvas_renderer.js").CanvasRenderer} renderer  the family's, on args.canvas
   * @param {any} search  the family's search state (reset/apply/status.length, position)
   */
  constructor(args, renderer, search) {
    super(args);
    this.renderer = renderer;
    this.search = search;
    this.replay = null; // its MoveReplay
    this.panels = null; // solutionPanel()'s parts: message, wait, body, …
    this.mode = "idle"; // "idle" (no run yet) | "search" (the trace) | "replay" (the solution)
    this.pendingResult = null; // the run's result, shown once the trace is played to its end
    this.revealed = false;
    this.illegal = null; // a checked solution's first illegal move (markIllegal)
    // What the Player drives besides the search state: a "renderer" that redraws the scene.
    this.traceView = {
      paint: null,
      repaintAll: () => this.traceChanged(true),
      requestDraw: () => this.traceChanged(),
      drawNow: () => this.traceChanged(),
    };
    onLanguage(() => this.languageChanged());
  }

  /** The texts written at run time (the notice, the canvas's caption), again in the new language. */
  languageChanged() {
    if (!this.active || !this.panels || !this.replay) return;
    const result = this.revealed ? this.pendingResult : null;
    if (result && !result.found) this.panels.message.textContent = sentence(this.whyNoneOrIllegal(result));
    if (this.mode === "replay") {
      if (!this.replay.playing) this.replay.show(this.replay.step, this.replay.overview);
    } else this.traceChanged(true);
  }

  /** The move list needs the room. */
  get wideRight() {
    return true;
  }

  /** What the trace Player drives: the search state and the trace's "renderer". */
  playerTarget() {
    return { state: this.search, renderer: this.traceView };
  }

  /** Another view takes the board: stop drawing and take the panels away. */
  leave() {
    super.leave();
    this.replay.clear();
    this.renderer.setActive(false);
  }

  /**
   * The family's MoveReplay on the panel's list and buttons; a replay control gives it the canvas
   * (enterReplay) unless `args` say otherwise.
   */
  newReplay(Replay, args = {}) {
    return new Replay({
      renderer: this.renderer,
      list: this.panels.moves,
      controls: [this.panels.buttons],
      speedScale: () => this.speedScale(),
      onActivate: () => this.enterReplay(),
      ...args,
    });
  }

  /** Replay durations from the trace player's pace (player.js's rule, shared by every view). */
  speedScale() {
    return animationScale(this.player.speed, this.player.preset);
  }

  /** The Player moved through the trace (or a run began or ended): redraw what it has reached. */
  traceChanged(_force = false) {}

  /** The Player has reached the end of a complete trace. */
  get traceAtEnd() {
    return this.timeline.complete && this.search.position >= this.timeline.length;
  }

  /**
   * At the trace's end the result is revealed and, when there is a solution, the canvas shows its
   * replay: true then (nothing else to draw).
   */
  revealAtEnd() {
    const atEnd = this.traceAtEnd;
    this.reveal(atEnd && this.pendingResult !== null);
    if (!atEnd || !this.replay.loaded) return false;
    if (this.mode !== "replay") this.enterReplay(false);
    return true;
  }

  /** A run began: the canvas shows its trace, its result waits for the end, and the panel says so. */
  searchStarted() {
    this.mode = "search";
    this.pendingResult = null;
    this.reveal(false);
    this.panels.root.hidden = false;
    this.panels.wait.hidden = false;
  }

  /** The result is kept until the trace is played to its end (the end tells the story's ending). */
  result(result) {
    this.pendingResult = result;
    this.traceChanged(true);
  }

  /** A new puzzle: no solution shown (whatever the last one showed). */
  hideSolution() {
    this.revealed = null;
    this.reveal(false);
  }

  /** Show the solution (at the end of the trace) or hide it again (stepped back into the search). */
  reveal(on) {
    if (on === this.revealed) return;
    this.revealed = on;
    const result = on ? this.pendingResult : null;
    const why = result && !result.found ? this.whyNoneOrIllegal(result) : "";
    const message = this.panels.message;
    message.hidden = !why;
    message.textContent = sentence(why);
    this.panels.wait.hidden = on || this.runId === null;
    // A checked solution that breaks a rule is replayed as far as it is legal (its moves so far).
    const partial = Boolean(result?.checked && !result.found && Array.isArray(result.moves) && result.moves.length);
    this.panels.body.hidden = !(result && (result.found || partial));
    this.showSolution(partial ? { ...result, found: true } : result, why);
  }

  /** Why a run found no solution, in words ("" says nothing). */
  whyNone(result) {
    return result.message || "";
  }

  /** Why a run or a checked solution found none: the checker's reason first. */
  whyNoneOrIllegal(result) {
    if (result.checked) return this.illegal?.reason || result.check_summary || t("fam.view.not_legal");
    return this.whyNone(result);
  }

  /**
   * Load the solution into the replay (a found `result`), or clear it (`why`: there is none).
   * @param {any} result  null while the trace has not reached its end
   * @param {string} _why
   */
  showSolution(result, _why) {
    if (result?.found) this.replay.load(result);
    else {
      this.replay.clear();
      if (this.mode === "replay") this.mode = this.runId !== null ? "search" : "idle";
    }
  }

  // ---- the teacher's lab (./family_view.js) -----------------------------------------------------

  /** The heat map: the family's renderer draws it over its board (CanvasRenderer.setHeat). */
  showHeat(heat) {
    this.renderer.setHeat(heat);
  }

  get drawsHeat() {
    return true;
  }

  /** A checked solution's first illegal move: named in the solution's panel (whyNone). */
  markIllegal(illegal) {
    this.illegal = illegal;
  }

  /** The canvas shows the solution; `fromUser`: a replay control was used (pause the trace). */
  enterReplay(fromUser = true) {
    if (!this.replay.loaded) return;
    if (fromUser && this.player.playing) this.player.pause();
    if (this.mode === "replay") return;
    this.mode = "replay";
    this.replayEntered(fromUser);
  }

  /** The canvas has just been given to the replay: show where it is. */
  replayEntered(_fromUser) {
    this.replay.show(this.replay.step);
  }
}
