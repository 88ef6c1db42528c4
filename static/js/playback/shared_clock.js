// @ts-check
// The comparison's one timeline: the playback clock (./clock.js) where step k means "every panel at
// its k-th expansion". Moving it moves every panel: `apply(k)` seeks each panel's own Player to the
// trace index of its k-th close record (../stage/step_index.js). A panel whose search ended before k
// stays at its end.
//
// While traces are still arriving, playing redraws the boards at most every `busyInterval()` ms: four
// large boards drawn every frame would keep the page from receiving the records (measured on
// perfect2k: `done` after 26 s at the Normal pace, 7–10 s with the boards still; scripts/bench_compare_page.py).

import { PlaybackClock } from "./clock.js";

export class SharedClock extends PlaybackClock {
  /**
   * @param {{available: () => number, complete: () => boolean, apply: (k: number) => void,
   *          onChange?: () => void, busyInterval?: () => number}} args
   *   available(): the last step any panel's records reach so far; complete(): every trace is in;
   *   apply(k): show every panel at step k; busyInterval(): ms between redraws while playing.
   */
  constructor({ available, complete, apply, onChange, busyInterval = () => 0 }) {
    super({ onChange, chunk: 2048 });
    this.available = available;
    this.allIn = complete;
    this.apply = apply;
    this.busyInterval = busyInterval;
    this.appliedAt = -Infinity; // when playing last moved the boards
    this.appliedPosition = 0;
  }

  get length() {
    return this.available();
  }

  get complete() {
    return this.allIn();
  }

  get settled() {
    return this.appliedPosition === this.position;
  }

  /** A new comparison: back to step 0, paused. */
  reset() {
    this.playing = false;
    this.pendingSeek = null;
    this.show(0);
    this.onChange();
  }

  /** @param {number} to */
  show(to) {
    this.position = to;
    this.apply(to);
    this.appliedPosition = to;
  }

  /** @param {number} to @param {boolean} fast */
  advance(to, fast) {
    if (fast) this.show(to);
    else this.position = to; // the boards follow in flush(), when due
  }

  /** @param {number} now */
  isDue(now) {
    return now - this.appliedAt >= this.busyInterval();
  }

  /** @param {boolean} due @param {number} now */
  flush(due, now) {
    if (!due || this.settled) return;
    this.show(this.position);
    this.appliedAt = now;
  }
}
