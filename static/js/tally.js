// @ts-check
// The search's figures at any position of a timeline, counted from the records exactly as the
// server counts them (server/search/stats.py): expanded = close records, generated = open + update
// records, frontier = opens - closes, max frontier = the largest frontier so far. Checkpoints every
// STRIDE records make any position cheap to reach, forwards or backwards, on runs of millions of
// records; moving forwards from the last position only counts the new records.

import { KIND } from "./timeline.js";

const STRIDE = 8192; // records between checkpoints

export class Tally {
  /** @param {import("./timeline.js").Timeline} timeline */
  constructor(timeline) {
    this.timeline = timeline;
    this.reset();
  }

  /** A new run: forget everything counted. */
  reset() {
    // checkpoints[k]: the counts after k * STRIDE records, as [expanded, generated, frontier, maxFrontier].
    /** @type {number[][]} */
    this.checkpoints = [[0, 0, 0, 0]];
    this.position = 0;
    /** @type {number[]} */
    this.counts = [0, 0, 0, 0];
  }

  /**
   * The figures after `position` records: {position, expanded, generated, frontier, maxFrontier}.
   * @param {number} position
   * @returns {{position: number, expanded: number, generated: number, frontier: number, maxFrontier: number}}
   */
  at(position) {
    const to = Math.max(0, Math.min(position, this.timeline.length));
    if (to < this.position || to - this.position > STRIDE) {
      // Back, or far ahead: from the nearest checkpoint at or before `to` (made on the way if missing).
      let k = Math.min(Math.floor(to / STRIDE), this.checkpoints.length - 1);
      if (this.position > k * STRIDE && this.position <= to) k = -1; // the current counts are nearer
      if (k >= 0) {
        this.counts = this.checkpoints[k].slice();
        this.position = k * STRIDE;
      }
    }
    this.advance(to);
    const [expanded, generated, frontier, maxFrontier] = this.counts;
    return { position: to, expanded, generated, frontier, maxFrontier };
  }

  /**
   * Count records [this.position, to), leaving a checkpoint at every multiple of STRIDE passed.
   * @param {number} to
   */
  advance(to) {
    const kinds = this.timeline.kinds;
    let [expanded, generated, frontier, maxFrontier] = this.counts;
    let i = this.position;
    while (i < to) {
      const stop = Math.min(to, (Math.floor(i / STRIDE) + 1) * STRIDE);
      for (; i < stop; i++) {
        const kind = kinds[i];
        if (kind === KIND.OPEN || kind === KIND.OPEN_B) {
          generated++;
          if (++frontier > maxFrontier) maxFrontier = frontier;
        } else if (kind === KIND.CLOSE || kind === KIND.CLOSE_B) {
          expanded++;
          frontier--;
        } else if (kind === KIND.UPDATE || kind === KIND.UPDATE_B) {
          generated++;
        }
      }
      if (i % STRIDE === 0 && i / STRIDE === this.checkpoints.length) {
        this.checkpoints.push([expanded, generated, frontier, maxFrontier]);
      }
    }
    this.counts = [expanded, generated, frontier, maxFrontier];
    this.position = to;
  }
}
