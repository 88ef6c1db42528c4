// What the search has done up to the player's position in the timeline, for the labyrinth: counts of
// expanded and frontier states, the g of the state being expanded, and its board (the frames'
// snapshots, one per close record: ../snapshot_search.js). It has the shape the Player drives
// (reset/apply/status); everything is SnapshotSearch's.

import { SnapshotSearch } from "../snapshot_search.js";

export class LabyrinthSearch extends SnapshotSearch {
  constructor() {
    super();
    this.reset();
  }
}
