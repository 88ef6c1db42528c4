// What the search has done up to the player's position in the timeline, for the labyrinth: counts of
// expanded and frontier states, the g of the state being expanded, and its board (the frames'
// snapshots, one per close record: ../snapshot_search.js). It has the shape the Player drives
// (reset/apply/status).

import { KIND } from "../../timeline.js";
import { SnapshotSearch } from "../snapshot_search.js";

export class LabyrinthSearch extends SnapshotSearch {
  constructor() {
    super();
    this.reset();
  }

  reset() {
    super.reset();
    this.maxG = 0;
  }

  /** Apply records [from, to) of the timeline (the Player calls this; `paint` is unused here). */
  apply(timeline, from, to) {
    const { kinds, values } = timeline;
    for (let i = from; i < to; i++) {
      const kind = kinds[i];
      if (kind === KIND.OPEN) this.opened++;
      else if (kind === KIND.CLOSE) {
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
}
