// What the search has done up to the player's position in the timeline, per state (cell, phase):
// its status (record kind + 1, 0 = not reached), its g and whether the backtraced path holds it, in
// typed arrays sized cells × P. It has the shape the Player drives (reset/apply/status.length).

import { KIND } from "../../timeline.js";

// Status = record kind + 1, as the grid's (0 = not reached yet).
export const STATUS = {
  NONE: 0, OPEN: 1, CLOSED: 2, UPDATED: 3, PATH: 4, OPEN_B: 5, CLOSED_B: 6, UPDATED_B: 7,
};

export class StepSearch {
  constructor() {
    this.P = 1;
    this.status = new Uint8Array(0);
    this.score = new Float32Array(0);
    this.onPath = new Uint8Array(0);
    this.reset();
  }

  /** A new run (or board): `states` = cells × P, all unreached. */
  resize(states, P) {
    this.P = P;
    if (this.status.length !== states) {
      this.status = new Uint8Array(states);
      this.score = new Float32Array(states);
      this.onPath = new Uint8Array(states);
    }
    this.reset();
  }

  reset() {
    this.status.fill(0);
    this.score.fill(0);
    this.onPath.fill(0);
    this.position = 0; // records applied
    this.current = -1; // the state of the latest close record
    this.currentAt = -1; // its record index
    this.pathCount = 0;
    this.version = (this.version || 0) + 1; // bumped on every change (the renderer's caches follow it)
  }

  /** Apply records [from, to) of the timeline (`paint` is not needed: the view redraws the board). */
  apply(timeline, from, to) {
    const { kinds, cells, values } = timeline;
    const { status, score, onPath } = this;
    const size = status.length;
    for (let i = from; i < to; i++) {
      const state = cells[i];
      if (state < 0 || state >= size) continue; // not a state of this board
      const kind = kinds[i];
      if (kind === KIND.PATH) {
        if (!onPath[state]) this.pathCount++;
        onPath[state] = 1;
        continue; // the path is drawn over what the search left
      }
      status[state] = kind + 1;
      score[state] = values[i];
      if (kind === KIND.CLOSE || kind === KIND.CLOSE_B) {
        this.current = state;
        this.currentAt = i;
      }
    }
    this.position = to;
    this.version++;
  }

  /** A keyframe for the Player (copies of the per-state arrays: 6 bytes a state). */
  snapshot() {
    return {
      status: this.status.slice(), score: this.score.slice(), onPath: this.onPath.slice(),
      position: this.position, current: this.current, currentAt: this.currentAt, pathCount: this.pathCount,
    };
  }

  restore(snap) {
    this.status.set(snap.status);
    this.score.set(snap.score);
    this.onPath.set(snap.onPath);
    Object.assign(this, {
      position: snap.position, current: snap.current, currentAt: snap.currentAt, pathCount: snap.pathCount,
    });
    this.version++;
  }

  get snapshotBytes() {
    return 6 * this.status.length + 64;
  }

  /**
   * The states the current expansion has generated so far (open or update records after its close
   * record, up to the position): what the expanded state leads to.
   */
  generatedNow(timeline) {
    const out = [];
    if (this.current < 0) return out;
    const { kinds, cells } = timeline;
    for (let i = this.currentAt + 1; i < this.position && out.length < 64; i++) {
      const kind = kinds[i];
      if (kind === KIND.CLOSE || kind === KIND.CLOSE_B || kind === KIND.PATH) break;
      out.push(cells[i]);
    }
    return out;
  }

  /** Counts per phase: {open: [..P], closed: [..P]} (a bulk loop; called once per drawn frame). */
  countsByPhase() {
    const P = this.P;
    const open = new Array(P).fill(0);
    const closed = new Array(P).fill(0);
    const status = this.status;
    for (let i = 0, n = status.length; i < n; i++) {
      const s = status[i];
      if (s === 0) continue;
      const p = i % P;
      if (s === STATUS.CLOSED || s === STATUS.CLOSED_B) closed[p]++;
      else open[p]++;
    }
    return { open, closed };
  }
}
