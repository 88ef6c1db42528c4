// @ts-check
// Where each expansion of a trace is: the record index of its k-th close record and the frontier's
// size just before it. The comparison's shared step k ("every panel after its k-th expansion") is
// turned into a trace position with it, and the chart draws the frontier from it.

import { GrowableColumn } from "../growable.js";
import { KIND } from "../timeline.js";

export class StepIndex {
  constructor() {
    this.closeAt = new GrowableColumn(); // record index of each close record, in order: step k -> closeAt[k]
    this.frontierAt = new GrowableColumn(); // the frontier's size at step k (before the k-th close)
    this.scanned = 0;
    this.frontier = 0;
  }

  clear() {
    this.closeAt.clear();
    this.frontierAt.clear();
    this.scanned = 0;
    this.frontier = 0;
  }

  /** Give back the memory (the comparison closed). */
  release() {
    this.closeAt = new GrowableColumn();
    this.frontierAt = new GrowableColumn();
    this.scanned = 0;
    this.frontier = 0;
  }

  /**
   * Index the records that arrived since the last call.
   * @param {import("../timeline.js").Timeline} timeline
   */
  scan(timeline) {
    const { kinds, length } = timeline;
    let frontier = this.frontier;
    for (let i = this.scanned; i < length; i++) {
      const kind = kinds[i];
      if (kind === KIND.OPEN || kind === KIND.OPEN_B) frontier++;
      else if (kind === KIND.CLOSE || kind === KIND.CLOSE_B) {
        this.closeAt.push(i);
        this.frontierAt.push(frontier);
        frontier--;
      }
    }
    this.frontier = frontier;
    this.scanned = length;
  }

  /** Expansions in the records indexed. */
  get steps() {
    return this.closeAt.length;
  }

  /**
   * The trace index shown at step k: before the (k+1)-th expansion, or `end` past the last.
   * @param {number} k
   * @param {number} end
   */
  positionFor(k, end) {
    return k < this.closeAt.length ? this.closeAt.data[k] : end;
  }
}
