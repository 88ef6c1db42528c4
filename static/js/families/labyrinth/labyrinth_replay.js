// The labyrinth's solution replay, move by move (../move_replay.js): each step animates that move's
// push and walk.

import { t } from "../../i18n.js";
import { MoveReplay } from "../move_replay.js";
import { pathState } from "./labyrinth_board.js";

const PAUSE_BETWEEN_MS = 450; // play: a breath between moves, at speed factor 1

export class LabyrinthReplay extends MoveReplay {
  /**
   * @param {{renderer, list: HTMLOListElement, controls: import("../move_replay.js").ReplayButtons[],
   *          speedScale: () => number, onActivate: () => void}} args
   */
  constructor(args) {
    super({ ...args, pauseMs: PAUSE_BETWEEN_MS, pauseLast: true });
    this.states = []; // the board after each move (states[0]: the start)
    this.clear();
  }

  forget() {
    super.forget();
    this.states = [];
  }

  /** A found solution: `path` holds the state after each move (path[0] is the start). */
  load(result) {
    this.clear();
    if (!result.found || !Array.isArray(result.moves) || !Array.isArray(result.path)) return;
    this.states = result.path.map(pathState);
    this.moves = result.moves;
    this.fillList(this.moves.length, (step) => this.item(step, this.moves[step - 1].text, "fam.view.show_after"));
    this.updateControls();
  }

  draw(step) {
    const lastMove = step > 0 ? this.moves[step - 1] : null;
    this.renderer.show(this.states[step], { caption: this.caption(), lastMove });
  }

  caption() {
    const n = this.moves.length;
    if (this.step === 0) return t("fam.labyrinth.caption_start", { count: n });
    return t("fam.labyrinth.caption_move", { step: this.step, n });
  }

  animateStep(step) {
    return this.renderer.animate(this.states[step - 1], this.moves[step - 1], this.states[step], {
      scale: this.speedScale(),
      caption: this.caption(),
    });
  }
}
