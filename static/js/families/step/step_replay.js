// The step-cycle maze's solution replay, move by move (../move_replay.js): each step flies the player
// along that move's jump. When the solution first shows, every jump is drawn at once (the overview);
// stepping shows the moves up to the current one.

import { MoveReplay } from "../move_replay.js";
import { moveText } from "./step_board.js";

const PAUSE_BETWEEN_MS = 420; // play: a breath between moves, at speed factor 1

export class StepReplay extends MoveReplay {
  /**
   * @param {{renderer, list: HTMLOListElement, controls: import("../move_replay.js").ReplayButtons[],
   *          speedScale: () => number, onShow: (step, overview) => void}} args
   *   controls: sets of buttons that drive the replay alike (the panel's, the presentation bar's).
   */
  constructor({ onShow, ...args }) {
    super({ ...args, pauseMs: PAUSE_BETWEEN_MS });
    this.onShow = onShow; // the view updates its caption
    this.path = []; // [r, c, phase] for the start and after each move
    this.clear();
  }

  forget() {
    super.forget();
    this.path = [];
  }

  /** A found solution: `path` holds [r, c, phase] for the start and after each move. */
  load(result) {
    this.clear();
    if (!result?.found || !Array.isArray(result.moves) || !Array.isArray(result.path)) return;
    this.moves = result.moves;
    this.path = result.path;
    this.fillList(this.moves.length, (step) => this.item(step, moveText(this.moves[step - 1]), "fam.step.show_after"));
    this.show(this.moves.length, true);
  }

  draw() {
    this.renderer.finishAnimation();
    this.publish();
  }

  publish() {
    this.renderer.setScene({ solution: { moves: this.moves, path: this.path, step: this.step, overview: this.overview } });
    this.onShow(this.step, this.overview);
  }

  animateStep(step) {
    this.publish();
    return this.renderer.animateJump(step - 1, this.speedScale());
  }
}
