// The solution's replay, move by move: the ordered move list (the current move highlighted), and
// prev / play / next, each step animating that move's push and walk. Stepping while a move is still
// animating first jumps that move to its end, so the board never lags behind the list.

import { pathState } from "./labyrinth_board.js";

const PAUSE_BETWEEN_MS = 450; // play: a breath between moves, at speed factor 1

export class LabyrinthReplay {
  /**
   * @param {{renderer, list: HTMLOListElement, prev, next, play, position: HTMLElement,
   *          speedScale: () => number, onActivate: () => void}} args
   */
  constructor({ renderer, list, prev, next, play, position, speedScale, onActivate }) {
    Object.assign(this, { renderer, list, prevButton: prev, nextButton: next, playButton: play, positionEl: position });
    this.speedScale = speedScale;
    this.onActivate = onActivate; // the view takes the canvas from the search trace
    this.states = [];
    this.moves = [];
    this.step = 0; // moves applied
    this.playing = false;
    this.playToken = 0;
    prev.addEventListener("click", () => this.userStep(-1));
    next.addEventListener("click", () => this.userStep(1));
    play.addEventListener("click", () => this.togglePlay());
    this.clear();
  }

  get loaded() {
    return this.moves.length > 0;
  }

  clear() {
    this.stop();
    this.states = [];
    this.moves = [];
    this.step = 0;
    this.list.replaceChildren();
    this.updateControls();
  }

  /** A found solution: `path` holds the state after each move (path[0] is the start). */
  load(result) {
    this.clear();
    if (!result.found || !Array.isArray(result.moves) || !Array.isArray(result.path)) return;
    this.states = result.path.map(pathState);
    this.moves = result.moves;
    this.list.replaceChildren(...this.moves.map((move, k) => {
      const li = document.createElement("li");
      li.dataset.testid = "move";
      li.textContent = move.text;
      li.title = "Show the board after this move";
      li.addEventListener("click", () => {
        this.stop();
        this.onActivate();
        this.show(k + 1);
      });
      return li;
    }));
    this.updateControls();
  }

  /** Show the board after `step` moves, at rest. */
  show(step) {
    if (!this.loaded) return;
    this.step = Math.max(0, Math.min(this.moves.length, step));
    const lastMove = this.step > 0 ? this.moves[this.step - 1] : null;
    this.renderer.show(this.states[this.step], { caption: this.caption(), lastMove });
    this.updateControls();
  }

  caption() {
    const n = this.moves.length;
    if (this.step === 0) return `Solution in ${n} move${n === 1 ? "" : "s"}: the start (press Next ▶)`;
    return `Solution: move ${this.step} of ${n}`;
  }

  userStep(delta) {
    this.stop();
    this.onActivate();
    if (delta > 0) this.advance();
    else this.show(this.step - 1);
  }

  /** Animate the next move; resolves when it has ended (or was cut short). */
  advance() {
    if (!this.loaded) return Promise.resolve();
    this.renderer.finishAnimation(); // a move still running lands first
    if (this.step >= this.moves.length) {
      this.show(this.step);
      return Promise.resolve();
    }
    const from = this.states[this.step];
    const move = this.moves[this.step];
    this.step += 1;
    this.updateControls();
    return this.renderer.animate(from, move, this.states[this.step], {
      scale: this.speedScale(),
      caption: this.caption(),
    });
  }

  togglePlay() {
    if (this.playing) {
      this.stop();
      return;
    }
    this.onActivate();
    this.play();
  }

  async play() {
    if (!this.loaded) return;
    if (this.step >= this.moves.length) this.show(0);
    this.playing = true;
    const token = ++this.playToken;
    this.updateControls();
    while (this.playing && token === this.playToken && this.step < this.moves.length) {
      await this.advance();
      if (token !== this.playToken) return;
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_MS * this.speedScale()));
    }
    if (token === this.playToken) this.stop();
  }

  stop() {
    this.playing = false;
    this.playToken++;
    this.updateControls?.();
  }

  updateControls() {
    if (!this.list) return;
    const n = this.moves.length;
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
    this.playButton.textContent = this.playing ? "❚❚ Pause moves" : "▶ Play moves";
    this.playButton.setAttribute("aria-pressed", String(this.playing));
    this.positionEl.textContent = n ? `${this.step} / ${n}` : "";
  }
}
