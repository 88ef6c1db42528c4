// What the searches drawn from snapshots share (families whose trace cells do not name states):
// counts of expanded and frontier states up to the player's position in the timeline, the g of the
// state expanded last and the largest so far, and the frames' snapshots (one per close record, sorted
// by record index) that tell what the trace's cells do not. It has the shape the Player drives
// (reset / apply / snapshot / restore); a family's search extends it where it draws more.

import { KIND } from "../timeline.js";

export class SnapshotSearch {
  constructor() {
    // The Player compares a jump with the board's size to choose a bulk replay; these views redraw
    // their whole scene anyway, so no jump counts as long.
    this.status = { length: Number.MAX_SAFE_INTEGER };
    this.snapshots = []; // sorted by record index i
  }

  /** A new run: forget the snapshots too. */
  clear() {
    this.snapshots = [];
    this.reset();
  }

  /** Back to record 0 (the family's own fields too, in its override). */
  reset() {
    this.position = 0;
    this.expanded = 0;
    this.opened = 0;
    this.lastClose = -1; // record index of the latest close record applied
    this.g = null; // its value
    this.maxG = 0;
  }

  /** Apply records [from, to) of the timeline (the Player calls this; `paint` is unused here). */
  apply(timeline, from, to) {
    const { kinds, values } = timeline;
    for (let i = from; i < to; i++) {
      const kind = kinds[i];
      if (kind === KIND.OPEN || kind === KIND.OPEN_B) this.opened++;
      else if (kind === KIND.CLOSE || kind === KIND.CLOSE_B) {
        this.expanded++;
        this.lastClose = i;
        this.g = values[i];
        if (values[i] > this.maxG) this.maxG = values[i];
      }
    }
    this.position = to;
  }

  /** A keyframe for the Player: a few counters (the boards stay in `snapshots`). */
  snapshot() {
    const { position, expanded, opened, lastClose, g, maxG } = this;
    return { position, expanded, opened, lastClose, g, maxG };
  }

  restore(snap) {
    Object.assign(this, snap);
  }

  get snapshotBytes() {
    return 64;
  }

  addSnapshots(list) {
    for (const snap of list || []) this.snapshots.push(snap);
  }

  get frontier() {
    return Math.max(0, this.opened - this.expanded);
  }

  /** The snapshot of the state expanded last (at or before the position), or null. */
  currentSnapshot() {
    const list = this.snapshots;
    let lo = 0;
    let hi = list.length - 1;
    let found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].i <= this.lastClose) {
        found = list[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}
