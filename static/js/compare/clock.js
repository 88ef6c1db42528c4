// The comparison's one timeline: a position k that means "every panel at its k-th expansion". It
// plays, pauses, steps and scrubs like the single view's Player (../player.js: the same presets,
// speeds and slider scale), but its steps are expansions, and moving it moves every panel: `apply(k)`
// seeks each panel's own Player to the trace index of its k-th close record (panel.js). A panel whose
// search ended before k stays at its end.
//
// While traces are still arriving, playing redraws the boards at most every `busyInterval()` ms: four
// large boards drawn every frame would keep the page from receiving the records (measured on
// perfect2k: `done` after 26 s at the Normal pace, 7–10 s with the boards still; scripts/bench_compare_page.py).

import { DEFAULT_PRESET, DEFAULT_SPEED, presetSpeed } from "../player.js";

const FRAME_BUDGET_MS = 12; // work per animation frame at max speed, leaving time to draw
const CHUNK = 2048; // expansions applied between clock checks at max speed

export class SharedClock {
  /**
   * @param {{available: () => number, complete: () => boolean, apply: (k: number) => void,
   *          onChange: () => void}} args
   *   available(): the last step any panel's records reach so far; complete(): every trace is in;
   *   apply(k): show every panel at step k.
   */
  constructor({ available, complete, apply, onChange, busyInterval = () => 0 }) {
    Object.assign(this, { available, complete, apply, onChange, busyInterval });
    this.appliedAt = -Infinity; // when playing last moved the boards
    this.position = 0;
    this.playing = false;
    this.speed = DEFAULT_SPEED; // steps (expansions) per second; Infinity = as fast as the screen draws
    this.preset = DEFAULT_PRESET;
    this.carry = 0;
    this.lastTime = 0;
    this.frame = 0;
    this.pendingSeek = null;
    this.appliedPosition = 0;
  }

  /** The steps reachable now (the shared range's maximum). */
  get length() {
    return this.available();
  }

  get atEnd() {
    return this.complete() && this.position >= this.available();
  }

  /** A new comparison: back to step 0, paused. */
  reset() {
    this.playing = false;
    this.position = 0;
    this.pendingSeek = null;
    this.apply(0);
    this.appliedPosition = 0;
    this.onChange();
  }

  /** A fixed speed in steps/s (Infinity: max); `preset` names the preset it comes from, if any. */
  setSpeed(speed, preset = null) {
    this.speed = speed;
    this.preset = preset;
    this.carry = 0;
  }

  /** A preset's speed for a comparison of `steps` steps (the longest search's expansions). */
  pace(steps) {
    if (this.preset) this.setSpeed(presetSpeed(this.preset, Math.max(1, steps)), this.preset);
  }

  first() {
    this.pause();
    this.seek(0);
  }

  last() {
    this.pause();
    this.seek(this.length);
  }

  play() {
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

  step(delta) {
    this.pause();
    this.seek(this.position + delta);
  }

  /** Show step `target` (clamped to what has arrived). */
  seek(target) {
    const to = Math.max(0, Math.min(this.length, Math.floor(Number(target) || 0)));
    this.position = to;
    this.apply(to);
    this.appliedPosition = to;
    this.onChange();
  }

  /** Coalesce scrubbing to one seek per animation frame. */
  seekSoon(target) {
    this.playing = false;
    this.pendingSeek = target;
    this.schedule();
  }

  /** New records arrived: a clock waiting at the end of what had arrived goes on. */
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

  tick(now) {
    if (this.pendingSeek !== null) {
      const target = this.pendingSeek;
      this.pendingSeek = null;
      this.seek(target);
    }
    if (!this.playing) return;
    const available = this.length;
    const dt = Math.min(100, now - this.lastTime); // a hidden tab must not jump ahead on return
    this.lastTime = now;
    const complete = this.complete();
    const due = complete || now - this.appliedAt >= this.busyInterval();
    if (this.position < available) {
      if (Number.isFinite(this.speed)) {
        this.carry += (this.speed * dt) / 1000;
        const steps = Math.floor(this.carry);
        this.carry -= steps;
        this.position = Math.min(available, this.position + steps);
      } else if (!due) {
        this.position = available; // drawn at the next due frame
      } else {
        const deadline = performance.now() + FRAME_BUDGET_MS;
        while (this.position < available && performance.now() < deadline) {
          this.position = Math.min(available, this.position + CHUNK);
          this.apply(this.position);
        }
      }
    }
    if (due && this.position !== this.appliedPosition) {
      this.apply(this.position);
      this.appliedAt = now;
      this.appliedPosition = this.position;
    }
    if (this.position >= available && complete && this.appliedPosition === this.position) {
      this.playing = false; // the end of every trace
    } else {
      this.schedule(); // more to play, or waiting for records still on their way
    }
    if (due) this.onChange();
  }
}
