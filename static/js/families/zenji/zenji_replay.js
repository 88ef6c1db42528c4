// The solution's replay, step by step: each turn of the solution (the tile rotating 90° per quarter
// turn, its count of turns shown on it), then the water flowing from the source to the drain along
// its route. The list holds the turns in path order and a last line for the water (the current step
// highlighted); prev / play / next. Stepping while a step still animates first lands it.

import { rotationsAfter, tileName, timesWord, waterRoute } from "./zenji_board.js";

export const TURN_MS = 300; // one quarter turn, at speed factor 1
const WATER_MS_PER_TILE = 260;
const PAUSE_BETWEEN_MS = 450; // play: a breath between steps, at speed factor 1

export class ZenjiReplay {
  /**
   * @param {{renderer, list: HTMLOListElement, prev, next, play, position: HTMLElement,
   *          speedScale: () => number, onActivate: () => void}} args
   */
  constructor({ renderer, list, prev, next, play, position, speedScale, onActivate }) {
    Object.assign(this, { renderer, list, prevButton: prev, nextButton: next, playButton: play, positionEl: position });
    this.speedScale = speedScale;
    this.onActivate = onActivate; // the view takes the canvas from the search trace
    this.board = null;
    this.solution = null;
    this.step = 0; // steps done: 0 = the board as in the file; moves.length + 1 = the water has flowed
    this.playing = false;
    this.playToken = 0;
    prev.addEventListener("click", () => this.userStep(-1));
    next.addEventListener("click", () => this.userStep(1));
    play.addEventListener("click", () => this.togglePlay());
    this.clear();
  }

  get loaded() {
    return this.solution !== null;
  }

  /** Steps in all: one per turned tile, and the water. */
  get steps() {
    return this.solution ? this.solution.moves.length + 1 : 0;
  }

  clear() {
    this.stop();
    this.solution = null;
    this.step = 0;
    this.list.replaceChildren();
    this.updateControls();
  }

  /** A found solution (solutionOf) on `board` (boardOf). */
  load(solution, board) {
    this.clear();
    if (!solution) return;
    this.board = board;
    this.solution = { ...solution, route: waterRoute(solution.water, board.cols) };
    const { moves } = this.solution;
    const items = moves.map((move, k) => {
      const li = this.item(k + 1, move.text ? sentenceCase(move.text) : `Turn ${tileName(move.tile, board.cols)} ${timesWord(move.turns)} clockwise`);
      const count = document.createElement("span");
      count.className = "muted";
      count.textContent = ` (${move.turns} quarter turn${move.turns === 1 ? "" : "s"})`;
      li.append(count);
      return li;
    });
    items.push(this.item(moves.length + 1,
      `The water flows from the source to the drain through ${solution.water.length || solution.tiles} tiles`));
    this.list.replaceChildren(...items);
    this.updateControls();
  }

  item(step, text) {
    const li = document.createElement("li");
    li.dataset.testid = "move";
    li.textContent = text;
    li.title = "Show the board after this step";
    li.addEventListener("click", () => {
      this.stop();
      this.onActivate();
      this.show(step);
    });
    return li;
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

  /** Show the board after `step` steps, at rest. */
  show(step) {
    if (!this.loaded) return;
    this.step = Math.max(0, Math.min(this.steps, step));
    this.renderer.show(this.scene(this.step));
    this.updateControls();
  }

  userStep(delta) {
    this.stop();
    this.onActivate();
    if (delta > 0) this.advance();
    else this.show(this.step - 1);
  }

  /** Animate the next step; resolves when it has ended (or was cut short). */
  advance() {
    if (!this.loaded) return Promise.resolve();
    this.renderer.finishAnimation(); // a step still running lands first
    if (this.step >= this.steps) {
      this.show(this.step);
      return Promise.resolve();
    }
    const { moves } = this.solution;
    const scale = this.speedScale();
    this.step += 1;
    this.renderer.show(this.scene(this.step));
    this.updateControls();
    if (this.step <= moves.length) {
      const move = moves[this.step - 1];
      const from = this.scene(this.step - 1).rotations[move.tile];
      return this.renderer.animate({ turn: { tile: move.tile, from, to: from + move.turns }, ms: TURN_MS * move.turns * scale });
    }
    const tiles = Math.max(1, this.solution.water.length);
    return this.renderer.animate({ water: { from: 0, to: 1 }, ms: WATER_MS_PER_TILE * tiles * scale });
  }

  togglePlay() {
    if (this.playing) {
      this.stop();
      return;
    }
    this.onActivate();
    this.play();
  }

  /** Play from the current step (from the start when at the end) to the water. */
  async play() {
    if (!this.loaded) return;
    if (this.step >= this.steps) this.show(0);
    this.playing = true;
    const token = ++this.playToken;
    this.updateControls();
    if (this.step === 0) await this.pause(token);
    while (this.playing && token === this.playToken && this.step < this.steps) {
      await this.advance();
      if (token !== this.playToken) return;
      if (this.step < this.steps) await this.pause(token);
    }
    if (token === this.playToken) this.stop();
  }

  pause(token) {
    return new Promise((resolve) => setTimeout(resolve, token === this.playToken ? PAUSE_BETWEEN_MS * this.speedScale() : 0));
  }

  stop() {
    this.playing = false;
    this.playToken++;
    this.updateControls?.();
  }

  updateControls() {
    if (!this.list) return;
    const n = this.steps;
    const items = this.list.children;
    for (let k = 0; k < items.length; k++) {
      const current = k === this.step - 1;
      items[k].classList.toggle("current", current);
      items[k].classList.toggle("done", k < this.step - 1);
      if (current) items[k].setAttribute("aria-current", "step");
      else items[k].removeAttribute("aria-current");
    }
    items[this.step - 1]?.scrollIntoView?.({ block: "nearest" });
    this.prevButton.disabled = !n || this.step === 0;
    this.nextButton.disabled = !n || this.step >= n;
    this.playButton.disabled = !n;
    this.playButton.textContent = this.playing ? "❚❚ Pause" : "▶ Play solution";
    this.playButton.setAttribute("aria-pressed", String(this.playing));
    this.positionEl.textContent = n ? `${this.step} / ${n}` : "";
  }
}

const sentenceCase = (text) => text.charAt(0).toUpperCase() + text.slice(1);
