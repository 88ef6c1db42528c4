// Zenji's solution replay, step by step (../move_replay.js): each turn of the solution (the tile
// rotating 90° per quarter turn, its count of turns shown on it), then the water flowing from the
// source to the drain along its route. The list holds the turns in path order and a last line for
// the water.

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
      ...args, pauseMs: PAUSE_BETWEEN_MS, pauseFirst: true, labels: { play: "▶ Play solution", pause: "❚❚ Pause" },
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
    const title = "Show the board after this step";
    const items = moves.map((move, k) => {
      const li = this.item(k + 1, move.text ? sentenceCase(move.text) : `Turn ${tileName(move.tile, board.cols)} ${timesWord(move.turns)} clockwise`, title);
      const count = document.createElement("span");
      count.className = "muted";
      count.textContent = ` (${move.turns} quarter turn${move.turns === 1 ? "" : "s"})`;
      li.append(count);
      return li;
    });
    items.push(this.item(moves.length + 1,
      `The water flows from the source to the drain through ${solution.water.length || solution.tiles} tiles`, title));
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
    const quarter = (k) => `${k} quarter turn${k === 1 ? "" : "s"}`;
    if (step <= 0) {
      return n ? `Solution: ${quarter(cost)} on ${n} tile${n === 1 ? "" : "s"}, then the water flows (press Next ▶)`
        : "Solution: no turns needed, the water flows as the tiles lie (press Next ▶)";
    }
    if (step <= n) {
      const move = moves[step - 1];
      return `Turn ${step} of ${n}: ${tileName(move.tile, cols)} ${timesWord(move.turns)} clockwise · ` +
        `${quarter(this.turnsAfter(step))} of ${cost} so far`;
    }
    return `The water flows from the source to the drain through ${this.solution.water.length} tiles · ${quarter(cost)} in all`;
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
