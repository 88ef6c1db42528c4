// The solution's replay, move by move: the ordered move list (the current move highlighted) and
// prev / play / next, each step flying the player along that move's jump. When the solution first
// shows, every jump is drawn at once (the overview); stepping shows the moves up to the current one.

import { moveText } from "./step_board.js";

const PAUSE_BETWEEN_MS = 420; // play: a breath between moves, at speed factor 1

export class StepReplay {
  /**
   * @param {{renderer, list: HTMLOListElement, controls: [{prev, next, play, position: HTMLElement}],
   *          speedScale: () => number, onShow: (step, overview) => void}} args
   *   controls: sets of buttons that drive the replay alike (the panel's, the presentation bar's).
   */
  constructor({ renderer, list, controls, speedScale, onShow }) {
    Object.assign(this, { renderer, list, controls });
    this.speedScale = speedScale;
    this.onShow = onShow; // the view updates its caption
    this.moves = [];
    this.path = [];
    this.step = 0; // moves made
    this.overview = true; // every jump drawn alike (the solution as first shown)
    this.playing = false;
    this.playToken = 0;
    for (const { prev, next, play } of controls) {
      prev.addEventListener("click", () => this.userStep(-1));
      next.addEventListener("click", () => this.userStep(1));
      play.addEventListener("click", () => this.togglePlay());
    }
    this.clear();
  }

  get loaded() {
    return this.moves.length > 0;
  }

  clear() {
    this.stop();
    this.moves = [];
    this.path = [];
    this.step = 0;
    this.overview = true;
    this.list.replaceChildren();
    this.updateControls();
  }

  /** A found solution: `path` holds [r, c, phase] for the start and after each move. */
  load(result) {
    this.clear();
    if (!result?.found || !Array.isArray(result.moves) || !Array.isArray(result.path)) return;
    this.moves = result.moves;
    this.path = result.path;
    this.list.replaceChildren(...this.moves.map((move, k) => {
      const li = document.createElement("li");
      li.dataset.testid = "move";
      li.textContent = moveText(move);
      li.title = "Show the maze after this move";
      li.addEventListener("click", () => {
        this.stop();
        this.show(k + 1, false);
      });
      return li;
    }));
    this.show(this.moves.length, true);
  }

  /** Show the solution after `step` moves, at rest; `overview`: every jump drawn alike. */
  show(step, overview = false) {
    if (!this.loaded) return;
    this.renderer.finishAnimation();
    this.step = Math.max(0, Math.min(this.moves.length, step));
    this.overview = overview;
    this.publish();
  }

  publish() {
    this.renderer.setScene({ solution: { moves: this.moves, path: this.path, step: this.step, overview: this.overview } });
    this.updateControls();
    this.onShow(this.step, this.overview);
  }

  userStep(delta) {
    this.stop();
    if (delta > 0) this.advance();
    else {
      // From the overview, Prev starts the walk-through at the last move.
      this.show(this.overview ? this.moves.length - 1 : this.step - 1, false);
    }
  }

  /** The next move, flown; resolves when it has landed (or was cut short). */
  advance() {
    if (!this.loaded) return Promise.resolve();
    this.renderer.finishAnimation(); // a jump still in the air lands first
    if (this.overview) {
      // From the overview, Next starts the walk-through at the first move.
      this.step = 0;
      this.overview = false;
    }
    if (this.step >= this.moves.length) {
      this.show(this.step, false);
      return Promise.resolve();
    }
    this.step += 1;
    this.overview = false;
    this.publish();
    return this.renderer.animateJump(this.step - 1, this.speedScale());
  }

  togglePlay() {
    if (this.playing) {
      this.stop();
      return;
    }
    this.play();
  }

  async play() {
    if (!this.loaded) return;
    if (this.overview || this.step >= this.moves.length) this.show(0, false);
    this.playing = true;
    const token = ++this.playToken;
    this.updateControls();
    while (this.playing && token === this.playToken && this.step < this.moves.length) {
      await this.advance();
      if (token !== this.playToken) return;
      if (this.step >= this.moves.length) break; // landed on the goal: no pause after the last move
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
    if (!this.list || !this.controls) return;
    const n = this.moves.length;
    const items = this.list.children;
    for (let k = 0; k < items.length; k++) {
      const current = !this.overview && k === this.step - 1;
      items[k].classList.toggle("current", current);
      items[k].classList.toggle("done", !this.overview && k < this.step - 1);
      if (current) items[k].setAttribute("aria-current", "step");
      else items[k].removeAttribute("aria-current");
    }
    if (!this.overview) items[this.step - 1]?.scrollIntoView?.({ block: "nearest" });
    for (const { prev, next, play, position } of this.controls) {
      prev.disabled = !n || (!this.overview && this.step === 0);
      next.disabled = !n || (!this.overview && this.step >= n);
      play.disabled = !n;
      play.textContent = this.playing ? "❚❚ Pause moves" : "▶ Play moves";
      play.setAttribute("aria-pressed", String(this.playing));
      position.textContent = !n ? "" : this.overview ? `all ${n}` : `${this.step} / ${n}`;
    }
  }
}
