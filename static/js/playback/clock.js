// @ts-check
// The one playback clock: play, pause, step, scrub and pace over a range of steps that may still be
// growing (records arriving), driven by requestAnimationFrame. What a step is and how the board is
// moved to one belongs to a subclass: the single view's Player (./player.js: a step is a trace
// record) and the comparison's SharedClock (./shared_clock.js: a step is an expansion in every
// panel). A transport bar (./transport_bar.js) and the keys drive any clock the same way.

import { reducedMotion } from "../motion.js";
import { DEFAULT_PRESET, DEFAULT_SPEED, presetSpeed } from "./pace.js";

const FRAME_BUDGET_MS = 12; // work per animation frame at max speed, leaving time to draw

/**
 * @typedef {object} ClockLike  what a transport bar and the keys use of a clock
 * @property {number} position
 * @property {boolean} playing
 * @property {number} speed
 * @property {string | null} preset
 * @property {number} length
 * @property {() => void} play
 * @property {() => void} pause
 * @property {() => void} toggle
 * @property {(delta: number) => void} step
 * @property {() => void} first
 * @property {() => void} last
 * @property {(target: number) => void} seekSoon
 * @property {(speed: number, preset?: string | null) => void} setSpeed
 */

export class PlaybackClock {
  /**
   * @param {{onChange?: () => void, chunk?: number}} [args]
   *   onChange: the position, the playing state or the pace changed (the bar and figures follow);
   *   chunk: steps applied between clock checks at max speed.
   */
  constructor({ onChange = () => {}, chunk = 32768 } = {}) {
    /** @type {Array<() => void>} told when the position, the playing state or the pace changed */
    this.listeners = [onChange];
    this.chunk = chunk;
    this.position = 0; // the step shown
    this.playing = false;
    // Under prefers-reduced-motion nothing moves by itself: a run that plays goes to its end at once
    // (the "instant" preset), and the reader steps through it by hand (issue 32).
    this.speed = reducedMotion() ? Infinity : DEFAULT_SPEED; // steps per second; Infinity: as fast as the screen draws
    /** @type {string | null} a preset's name, or null for a fixed speed from the slider */
    this.preset = reducedMotion() ? "instant" : DEFAULT_PRESET;
    this.carry = 0; // fractional steps owed from earlier frames
    this.lastTime = 0;
    this.frame = 0;
    /** @type {number | null} a scrub target not yet shown (one seek per animation frame) */
    this.pendingSeek = null;
    /**
     * A host's hold on playing (exercise mode's questions), or null: `stopAt(to)` gives the step
     * playing may reach on its way to `to` (at most `to`) and whether playing pauses there;
     * `pressed()` hears of a Play that could not move because of it.
     * @type {{stopAt: (to: number) => {at: number, held: boolean}, pressed: () => void} | null}
     */
    this.hold = null;
  }

  /** Tell every listener that the position, the playing state or the pace changed. */
  onChange() {
    for (const listener of this.listeners) listener();
  }

  /** One more listener (a host beside the one that made the clock). @param {() => void} listener */
  listen(listener) {
    this.listeners.push(listener);
  }

  // ---- what a subclass defines ------------------------------------------------------------------

  /** The steps reachable now (what has arrived). @returns {number} */
  get length() {
    return 0;
  }

  /** Every step has arrived: the range will not grow. @returns {boolean} */
  get complete() {
    return true;
  }

  /** There is a board to move (else every call is ignored). @returns {boolean} */
  get ready() {
    return true;
  }

  /** Show step `to` now (a seek, a scrub): the board is moved and a draw requested. @param {number} to */
  show(to) {
    this.position = to;
  }

  /**
   * Playing moved the clock to `to`; `fast`: at max speed, where the work of each chunk counts
   * against the frame's budget (so it is done now). A clock may defer the board until `flush`.
   * @param {number} to
   * @param {boolean} fast
   */
  advance(to, fast) {
    void fast;
    this.show(to);
  }

  /**
   * At the end of a frame that played: draw what moved.
   * @param {boolean} due whether this frame may move the boards (isDue)
   * @param {number} now the frame's time
   */
  flush(due, now) {
    void due;
    void now;
  }

  /** Whether this frame may move the boards (a clock can throttle itself). @param {number} now */
  isDue(now) {
    void now;
    return true;
  }

  /** Everything the clock moved is on the board. @returns {boolean} */
  get settled() {
    return true;
  }

  // ---- the clock ----------------------------------------------------------------------------------

  get atEnd() {
    return this.complete && this.position >= this.length;
  }

  /**
   * A fixed speed in steps/s (Infinity: max); `preset` names the preset it comes from, if any.
   * @param {number} speed
   * @param {string | null} [preset]
   */
  setSpeed(speed, preset = null) {
    this.speed = speed;
    this.preset = preset;
    this.carry = 0;
  }

  /** A preset plays the whole run in its time: its speed follows the run's `steps`. @param {number} steps */
  pace(steps) {
    if (this.preset) this.setSpeed(presetSpeed(this.preset, Math.max(1, steps)), this.preset);
  }

  play() {
    if (!this.ready) return;
    if (this.atEnd) this.seek(0);
    this.playing = true;
    this.lastTime = performance.now();
    this.carry = 0;
    this.schedule();
    this.onChange();
  }

  pause() {
    this.playing = false;
    this.onChange();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** @param {number} delta steps forwards (negative: back) */
  step(delta) {
    this.pause();
    this.seek(this.position + delta);
  }

  first() {
    this.step(-this.position);
  }

  last() {
    this.pause();
    this.seek(this.length);
  }

  /** Show step `target` (clamped to what has arrived). @param {number} target */
  seek(target) {
    if (!this.ready) return;
    const to = Math.max(0, Math.min(this.length, Math.floor(Number(target) || 0)));
    this.show(to);
    this.onChange();
  }

  /** Coalesce scrubbing to one seek per animation frame. @param {number} target */
  seekSoon(target) {
    this.pause();
    this.pendingSeek = target;
    this.schedule();
  }

  /** New steps arrived: a clock waiting at the end of what had arrived goes on. */
  more() {
    if (this.playing) this.schedule();
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame((now) => {
      this.frame = 0;
      this.tick(now);
    });
  }

  /** One animation frame: a pending scrub, then the steps the pace owes since the last frame. @param {number} now */
  /**
   * Playing goes on to `to`, unless the host's hold stops it sooner: then it pauses there.
   * @param {number} to
   * @param {boolean} fast
   */
  playTo(to, fast) {
    if (!this.hold) {
      this.advance(to, fast);
      return;
    }
    const from = this.position;
    const { at, held } = this.hold.stopAt(to);
    this.advance(at, fast);
    if (held && this.playing) {
      this.pause();
      if (at === from) this.hold.pressed(); // Play pressed where the hold already stood
    }
  }

  tick(now) {
    if (!this.ready) return;
    if (this.pendingSeek !== null) {
      const target = this.pendingSeek;
      this.pendingSeek = null;
      this.seek(target);
    }
    if (!this.playing) return;
    const available = this.length;
    const dt = Math.min(100, now - this.lastTime); // a hidden tab must not jump ahead on return
    this.lastTime = now;
    const complete = this.complete;
    const due = complete || this.isDue(now);
    const moving = this.position < available;
    if (moving) {
      if (Number.isFinite(this.speed)) {
        this.carry += (this.speed * dt) / 1000;
        const steps = Math.floor(this.carry);
        this.carry -= steps;
        if (steps > 0) this.playTo(Math.min(available, this.position + steps), false);
      } else if (!due) {
        this.playTo(available, false); // shown at the next due frame
      } else {
        const deadline = performance.now() + FRAME_BUDGET_MS;
        while (this.playing && this.position < available && performance.now() < deadline) {
          this.playTo(Math.min(available, this.position + this.chunk), true);
        }
      }
    }
    if (moving || !this.settled) this.flush(due, now);
    if (this.position >= available && complete && this.settled) {
      this.playing = false; // the end of the whole trace
    } else {
      this.schedule(); // more to play, or waiting for steps still on their way
    }
    if (due) this.onChange();
  }
}
