// The sliding-tile solution's replay (../move_replay.js): one step a move, the tile sliding into the
// blank (animated), the list of moves in words ("slide 7 down"); the view draws the board (and the
// solution's place in the 8-puzzle's state space) through onShow.

import { setText } from "../../i18n.js";
import { MoveReplay } from "../move_replay.js";
import { moveText, slideBetween } from "./sliding_board.js";

export const SLIDE_MS = 260; // one tile sliding, at speed factor 1
const PAUSE_BETWEEN_MS = 140; // play: a breath between moves, at speed factor 1

export class SlidingReplay extends MoveReplay {
  /**
   * @param {{renderer, list: HTMLOListElement, controls: import("../move_replay.js").ReplayButtons[],
   *          speedScale: () => number, onActivate: () => void,
   *          onShow: (step: number, slide: {tile: number, from: number, to: number} | null) => void}} args
   */
  constructor(args) {
    super({ ...args, pauseMs: PAUSE_BETWEEN_MS, pauseFirst: true, labels: { play: "fam.view.play_moves", pause: "fam.view.pause" } });
    this.onShow = args.onShow;
    this.path = []; // the boards, start first (Uint8Array each)
    this.clear();
  }

  forget() {
    this.moves = [];
    this.path = [];
  }

  /** A found solution: its boards (`path`) and moves ({blank, tile, text}). */
  load({ path, moves }) {
    this.clear();
    if (!moves.length) return;
    this.path = path;
    this.moves = moves;
    const title = "fam.view.show_after";
    this.fillList(moves.length, (step) => {
      const move = moves[step - 1];
      const li = this.item(step, sentenceCase(moveText(move)), title);
      const blank = document.createElement("span");
      blank.className = "muted";
      if (move.blank) setText(blank, "fam.sliding.blank_paren", { move: move.blank });
      li.append(blank);
      return li;
    });
    this.updateControls();
  }

  draw(step) {
    this.onShow(step, null);
  }

  animateStep(step) {
    const slide = slideBetween(this.path[step - 1], this.path[step]);
    this.onShow(step, slide);
    return slide ? this.renderer.slide(slide, SLIDE_MS * this.speedScale()) : Promise.resolve();
  }
}

const sentenceCase = (text) => text.charAt(0).toUpperCase() + text.slice(1);
