// What the search has done up to the player's position in the timeline, for sliding-tile puzzles: counts
// of expanded and frontier states and the g of the state expanded last (../snapshot_search.js), its
// board (the frames' snapshots, one per close record: {i, tiles, rank}), and for the 8-puzzle the
// distinct states expanded so far, in the order they were first expanded (the state-space view
// lights them). The trace's cells are the blank's cells, so a state is known only from its snapshot.

import { withRoom } from "../../growable.js";
import { SnapshotSearch } from "../snapshot_search.js";
import { STATES } from "./sliding_space.js";

export class SlidingSearch extends SnapshotSearch {
  constructor() {
    super();
    this.firstSeen = null; // Int32Array by rank: the ordinal of the snapshot that first expanded it, −1 never (8-puzzle)
    this.distinctRanks = new Int32Array(1024); // distinct states in order of first expansion
    this.distinctOrdinal = new Int32Array(1024); // the snapshot ordinal of each one's first expansion
    this.distinct = 0;
    this.reset();
  }

  /** A new run: forget the snapshots and the distinct states; `ranked`: the 8-puzzle (ranks come). */
  clearRun(ranked) {
    this.clear();
    this.distinct = 0;
    if (ranked) {
      if (!this.firstSeen) this.firstSeen = new Int32Array(STATES);
      this.firstSeen.fill(-1);
    } else this.firstSeen = null;
  }

  /** Snapshots from a frame (sorted by record index), as {i, tiles: Uint8Array, rank: number (−1 none)}. */
  addSnapshots(list) {
    for (const raw of list || []) {
      const tiles = Uint8Array.from(Array.isArray(raw.tiles) ? raw.tiles.flat() : []);
      const rank = Number.isInteger(raw.rank) ? raw.rank : -1;
      const ordinal = this.snapshots.length;
      this.snapshots.push({ i: raw.i, tiles, rank });
      if (this.firstSeen && rank >= 0 && rank < STATES && this.firstSeen[rank] < 0) {
        this.firstSeen[rank] = ordinal;
        this.distinctRanks = withRoom(this.distinctRanks, this.distinct + 1);
        this.distinctOrdinal = withRoom(this.distinctOrdinal, this.distinct + 1);
        this.distinctRanks[this.distinct] = rank;
        this.distinctOrdinal[this.distinct] = ordinal;
        this.distinct++;
      }
    }
  }


  /** How many snapshots the position has reached (those at or before the latest close record). */
  snapshotsReached() {
    const list = this.snapshots;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].i <= this.lastClose) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Distinct states expanded by the position (8-puzzle): a prefix of distinctRanks. */
  distinctReached() {
    const m = this.snapshotsReached();
    const ord = this.distinctOrdinal;
    let lo = 0;
    let hi = this.distinct;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ord[mid] < m) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
