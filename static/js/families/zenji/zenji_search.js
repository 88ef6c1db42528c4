// What the Zenji search has done up to the player's position in the timeline: the status of every
// state (tile × rotation: not reached, on the frontier, expanded, on the solution's path), the state
// being expanded and its g, and (free flow) the tiles its water already passes, from the frames'
// snapshots. It has the shape the Player drives (reset / apply / status.length).

import { KIND } from "../../timeline.js";
import { SnapshotSearch } from "../snapshot_search.js";

// Status of a state, one byte each.
export const STATE = { NONE: 0, OPEN: 1, CLOSED: 2, PATH: 3 };

export class ZenjiSearch extends SnapshotSearch {
  constructor() {
    super();
    this.states = new Uint8Array(0); // STATE per state index (tile * 4 + rot)
    this.values = new Float32Array(0); // the trace's value (encoded g) of each reached state
    // this.snapshots: {i, used: Set of tiles} sorted by record index
    this.reset();
  }

  /** A new board: one status per tile and rotation. */
  setSize(tiles) {
    this.states = new Uint8Array(tiles * 4);
    this.values = new Float32Array(tiles * 4);
    this.clear();
  }

  reset() {
    super.reset();
    this.states.fill(0);
    this.values.fill(0);
    this.current = -1; // the state index of the one expanded last
    this.backward = false; // it was expanded by a bidirectional search's backward half
    this.pathRecords = 0;
    // Every g each state was reached with (under free flow one tile and rotation is many states,
    // one per set of tiles the water passed; iterative deepening reaches states again): the route
    // back to the source is read from these.
    this.reachedG = new Map();
  }

  /** Apply records [from, to) of the timeline (the Player calls this; `paint` is unused here). */
  apply(timeline, from, to) {
    const { kinds, cells, values } = timeline;
    const states = this.states;
    const size = states.length;
    for (let i = from; i < to; i++) {
      const kind = kinds[i];
      const cell = cells[i];
      const known = cell >= 0 && cell < size;
      if (kind === KIND.PATH) {
        this.pathRecords++;
        if (known) states[cell] = STATE.PATH;
        continue;
      }
      if ((kind & 1) === 0) {
        // open, update and their backward twins: on a frontier
        if (kind === KIND.OPEN || kind === KIND.OPEN_B) this.opened++;
        if (known) {
          states[cell] = STATE.OPEN;
          this.values[cell] = values[i];
          if (kind === KIND.OPEN || kind === KIND.UPDATE) this.reached(cell, values[i]);
        }
      } else {
        this.expanded++;
        this.lastClose = i;
        this.current = known ? cell : -1;
        this.g = values[i];
        this.backward = kind === KIND.CLOSE_B;
        if (known) {
          states[cell] = STATE.CLOSED;
          this.values[cell] = values[i];
          if (kind === KIND.CLOSE) this.reached(cell, values[i]);
        }
      }
    }
    this.position = to;
  }

  reached(cell, value) {
    const g = Math.round(value);
    const seen = this.reachedG.get(cell);
    if (seen) seen.add(g);
    else this.reachedG.set(cell, new Set([g]));
  }

  /** Counts of states by status (for the page's tests and the caption). */
  counts(stateCount = this.states.length) {
    const out = { none: 0, open: 0, closed: 0, path: 0 };
    const states = this.states;
    for (let i = 0; i < stateCount; i++) {
      const s = states[i];
      if (s === STATE.OPEN) out.open++;
      else if (s === STATE.CLOSED) out.closed++;
      else if (s === STATE.PATH) out.path++;
      else out.none++;
    }
    return out;
  }

  /** The snapshot of the state expanded last (its own, not an earlier one's), or null. */
  currentSnapshot() {
    const found = super.currentSnapshot();
    return found && found.i === this.lastClose ? found : null;
  }
}

const ROUTE_BUDGET = 5000; // states tried at most while reading a route back (it is drawn once a step)

/**
 * The water's route to `state` (the one expanded last) as the trace tells it: from the state back to
 * the source, each step a neighbour state reached (up to the playhead) with g = this g minus the cost
 * of entering this tile (turns × scale + 1; BFS: 1) whose outlet faces this tile's inlet, so every
 * link is a legal move and the route costs exactly the state's g. Returns [{tile, rot, enter, leave}]
 * from the source, or null when the trace does not tell one (then no route is drawn). `board`:
 * boardOf; `used` (free flow): the snapshot's tiles, which the route must be exactly.
 */
export function routeTo(search, state, board, { waves = false, free = false, used = null } = {}) {
  const { cols, rows, tiles, source, repeats } = board;
  if (search.g === null) return null;
  const sideOf = (tile, rot, d) => tiles[tile][(((d - rot) % 4) + 4) % 4];
  const STEPS = [[-1, 0], [0, 1], [1, 0], [0, -1]];
  const onRoute = new Set();
  const route = []; // from `state` back, each {tile, rot, enter, leave}
  let budget = ROUTE_BUDGET;

  // Depth first over the candidate parents (usually one), undoing a dead end.
  const back = (s, g, leave) => {
    if (--budget < 0) return false;
    const tile = s >> 2;
    const rot = s & 3;
    if (tile === source) {
      if (used && used.size !== onRoute.size + 1) return false;
      route.push({ tile, rot, enter: -1, leave });
      return true;
    }
    onRoute.add(tile);
    const before = g - (waves ? 1 : rot * board.scale + 1);
    const r = Math.floor(tile / cols);
    const c = tile % cols;
    for (let d = 0; d < 4; d++) {
      if (!free && d !== 0 && d !== 3) continue; // downhill: water comes from the north or the west
      if (sideOf(tile, rot, d) !== 1) continue; // an inlet on this side
      const pr = r + STEPS[d][0];
      const pc = c + STEPS[d][1];
      if (pr < 0 || pc < 0 || pr >= rows || pc >= cols) continue;
      const ptile = pr * cols + pc;
      if (onRoute.has(ptile) || (used && !used.has(ptile))) continue;
      const facing = (d + 2) % 4;
      for (let prot = 0; prot < 4; prot++) {
        if (repeats[ptile][prot] || sideOf(ptile, prot, facing) !== 2) continue; // its outlet faces us
        const parent = ptile * 4 + prot;
        if (!search.reachedG.get(parent)?.has(before)) continue;
        const mark = route.length;
        route.push({ tile, rot, enter: d, leave });
        if (back(parent, before, facing)) return true;
        route.length = mark;
      }
    }
    onRoute.delete(tile);
    return false;
  };
  if (!search.reachedG.get(state)?.has(Math.round(search.g))) return null;
  return back(state, Math.round(search.g), -1) ? route.reverse() : null;
}
