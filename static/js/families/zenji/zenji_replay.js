// Zenji's solution replay, step by step (../move_replay.js): each turn of the solution (the tile
// rotating 90° per quarter turn, its count of turns shown on it), then the water flowing from the
// source to the drain along its route. The list holds the turns in path order and a last line for
// the water.

import { setText, t } from "../../i18n.js";
import { MoveReplay } from "../move_replay.js";
import { rotationsAfter, tileName, timesWord, waterRoute } from "./zenji_board.js";

export const TURN_MS = 300; // one quarter turn, at speed factor 1
const WATER_MS_PER_TILE = 260;
const PAUSE_BETWEEN_MS = 450; // play: a breath between steps, at speed factor 1

export class ZenjiReplay extends MoveReplay {
  /**
   * @param {{renderer, list: HTMLOListElement, controls: import("../move_replay.js").ReplayButtons[],
   *          speedScale: () => number, onActivate: () => void}} args
   */
  constructor(args) {
    super({
      ...args, pauseMs: PAUSE_BETWEEN_MS, pauseFirst: true, labels: { play: "fam.view.play_solution", pause: "fam.view.pause" },
    });
    this.board = null;
    this.solution = null; // step 0 = the board as in the file; moves.length + 1 = the water has flowed
    this.clear();
  }

  /** Steps in all: one per turned tile, and the water. */
  get count() {
    return this.solution ? this.solution.moves.length + 1 : 0;
  }

  forget() {
    this.solution = null;
  }

  /** A found solution (solutionOf) on `board` (boardOf). */
  load(solution, board) {
    this.clear();
    if (!solution) return;
    this.board = board;
    this.solution = { ...solution, route: waterRoute(solution.water, board.cols) };
    const { moves } = this.solution;
    const title = "fam.zenji.show_after";
    const items = moves.map((move, k) => {
      const li = this.item(k + 1, move.text ? sentenceCase(move.text)
        : t("fam.zenji.turn_item", { tile: tileName(move.tile, board.cols), times: timesWord(move.turns) }), title);
      const count = document.createElement("span");
      count.className = "muted";
      setText(count, "fam.zenji.quarter_paren", { count: move.turns });
      li.append(count);
      return li;
    });
    items.push(this.item(moves.length + 1,
      ["fam.zenji.water_item", { n: solution.water.length || solution.tiles }], title));
    this.list.replaceChildren(...items);
    this.updateControls();
  }

  /** The scene after `step` steps, at rest. */
  scene(step) {
    const { moves, route } = this.solution;
    const size = this.board.rows * this.board.cols;
    const done = Math.min(step, moves.length);
    const badges = new Map();
    for (let k = 0; k < done; k++) badges.set(moves[k].tile, (badges.get(moves[k].tile) || 0) + moves[k].turns);
    const move = step >= 1 && step <= moves.length ? moves[step - 1] : null;
    return {
      rotations: rotationsAfter(moves, done, size),
      markers: null,
      current: -1,
      used: null,
      highlight: move ? move.tile : -1,
      badges,
      water: { route, progress: step > moves.length ? 1 : 0 },
      caption: this.caption(step),
    };
  }

  turnsAfter(step) {
    const { moves } = this.solution;
    let sum = 0;
    for (let k = 0; k < Math.min(step, moves.length); k++) sum += moves[k].turns;
    return sum;
  }

  caption(step) {
    const { moves, cost } = this.solution;
    const n = moves.length;
    const cols = this.board.cols;
    const quarter = (k) => t("fam.zenji.quarter", { count: k });
    if (step <= 0) {
      return n ? t("fam.zenji.caption_start", { turns: quarter(cost), count: n })
        : t("fam.zenji.caption_no_turns");
    }
    if (step <= n) {
      const move = moves[step - 1];
      return t("fam.zenji.caption_turn", {
        step, n, tile: tileName(move.tile, cols), times: timesWord(move.turns), done: quarter(this.turnsAfter(step)), cost,
      });
    }
    return t("fam.zenji.caption_water", { n: this.solution.water.length, turns: quarter(cost) });
  }

  draw(step) {
    this.renderer.show(this.scene(step));
  }

  /** A turn of the tile, then the water along its route. */
  animateStep(step) {
    const { moves } = this.solution;
    const scale = this.speedScale();
    this.renderer.show(this.scene(step));
    if (step <= moves.length) {
      const move = moves[step - 1];
      const from = this.scene(step - 1).rotations[move.tile];
      return this.renderer.animate({ turn: { tile: move.tile, from, to: from + move.turns }, ms: TURN_MS * move.turns * scale });
    }
    const tiles = Math.max(1, this.solution.water.length);
    return this.renderer.animate({ water: { from: 0, to: 1 }, ms: WATER_MS_PER_TILE * tiles * scale });
  }
}

const sentenceCase = (text) => text.charAt(0).toUpperCase() + text.slice(1);
