// @ts-check
// The 8-puzzle's whole state space, for drawing beside the board: the 9!/2 = 181,440 boards reachable
// from the goal, found by a breadth-first search over permutation ranks (sliding_board.js rankOf, the
// server's snapshot "rank"), each with its distance from the goal (a Uint8Array indexed by rank, 255:
// not reachable) and its place in its distance's column (sorted by Manhattan distance, then rank: the
// states a good heuristic prefers sit low in each column). Computed in slices that yield to the page
// (a few hundred ms in all), once per goal, by each view that shows it (no state shared between views).

import { goalPositions, manhattan, rankOf, unrankInto } from "./sliding_board.js";

export const STATES = 362880; // 9!
export const UNREACHED = 255;
const SLICE = 12000; // states expanded between yields to the page

/** A macrotask break: the page draws and takes input in between. */
const breath = () => new Promise((resolve) => setTimeout(resolve, 0));

export class StateSpace {
  /**
   * @param {Uint8Array} goal  the goal's 9 numbers
   * @param {Uint8Array} dist  distance by rank (UNREACHED elsewhere)
   * @param {Int32Array} slot  place within its distance's column, by rank (−1: unreachable)
   * @param {number[]} counts  states at each distance
   * @param {number} ms  how long it took
   */
  constructor(goal, dist, slot, counts, ms) {
    this.goal = goal;
    this.dist = dist;
    this.slot = slot;
    this.counts = counts;
    this.maxDist = counts.length - 1;
    this.size = counts.reduce((a, b) => a + b, 0);
    this.maxCount = Math.max(...counts);
    this.ms = ms;
  }

  /**
   * Every state reachable from `goal`, by BFS; `alive()` false stops it (the view left or the goal
   * changed): null then.
   * @param {Uint8Array} goal
   * @param {() => boolean} alive
   * @returns {Promise<StateSpace | null>}
   */
  static async build(goal, alive = () => true) {
    const started = performance.now();
    const dist = new Uint8Array(STATES).fill(UNREACHED);
    const queue = new Int32Array(STATES / 2 + 1);
    const board = new Uint8Array(9);
    const used = new Uint8Array(9);
    const start = rankOf(goal);
    dist[start] = 0;
    queue[0] = start;
    let head = 0;
    let tail = 1;
    const counts = [1];
    while (head < tail) {
      const stop = Math.min(tail, head + SLICE);
      for (; head < stop; head++) {
        const rank = queue[head];
        const d = dist[rank] + 1;
        unrankInto(rank, board, used);
        let b = 0;
        while (board[b] !== 0) b++;
        const r = (b / 3) | 0;
        const c = b % 3;
        for (let k = 0; k < 4; k++) {
          const nb = k === 0 ? (r > 0 ? b - 3 : -1) : k === 1 ? (r < 2 ? b + 3 : -1)
            : k === 2 ? (c > 0 ? b - 1 : -1) : c < 2 ? b + 1 : -1;
          if (nb < 0) continue;
          board[b] = board[nb];
          board[nb] = 0;
          const next = rankOf(board);
          board[nb] = board[b];
          board[b] = 0;
          if (dist[next] !== UNREACHED) continue;
          dist[next] = d;
          counts[d] = (counts[d] || 0) + 1;
          queue[tail++] = next;
        }
      }
      if (head < tail) {
        await breath();
        if (!alive()) return null;
      }
    }
    // Each column sorted by Manhattan distance, then rank: a key per state, one numeric sort.
    const goalPos = goalPositions(goal);
    const keys = new Float64Array(tail);
    for (let k = 0; k < tail; k++) {
      const rank = queue[k];
      unrankInto(rank, board, used);
      keys[k] = (dist[rank] * 64 + manhattan(board, goalPos, 3)) * STATES + rank;
      if ((k + 1) % 60000 === 0) {
        await breath();
        if (!alive()) return null;
      }
    }
    keys.sort();
    const slot = new Int32Array(STATES).fill(-1);
    let column = -1;
    let at = 0;
    for (let k = 0; k < tail; k++) {
      const rank = keys[k] % STATES;
      const d = dist[rank];
      if (d !== column) {
        column = d;
        at = 0;
      }
      slot[rank] = at++;
    }
    return new StateSpace(goal, dist, slot, counts, performance.now() - started);
  }
}

/**
 * Where the space's states go in a rectangle: one bar per distance (0 at the left), bottom-aligned,
 * its height proportional to its count (the histogram of distances); each bar a grid of `binsX` ×
 * rows bins of `cap` states (by slot, low h₂ at the bottom); a bin is drawn `cell` px square.
 */
export class SpaceLayout {
  /**
   * @param {StateSpace} space
   * @param {{x: number, y: number, w: number, h: number}} rect  the plot's area (CSS px)
   */
  constructor(space, rect) {
    this.space = space;
    this.rect = rect;
    const columns = space.maxDist + 1;
    const colW = rect.w / columns;
    // Bins about 3 px square, fewer when that would need more than a bin per state.
    const cell = Math.max(2, Math.min(colW / 2, 3.2));
    this.binsX = Math.max(1, Math.floor((colW * 0.84) / cell));
    this.rowsMax = Math.max(4, Math.floor(rect.h / cell));
    this.cap = Math.max(1, Math.ceil(space.maxCount / (this.binsX * this.rowsMax)));
    this.cell = cell;
    this.colW = colW;
    this.columns = columns;
    // Bin b of column d is index base[d] + b.
    this.base = new Int32Array(columns + 1);
    this.binsIn = new Int32Array(columns);
    for (let d = 0; d < columns; d++) {
      this.binsIn[d] = Math.ceil((space.counts[d] || 0) / this.cap);
      this.base[d + 1] = this.base[d] + this.binsIn[d];
    }
    this.totalBins = this.base[columns];
    this.rowsUsed = Math.ceil(Math.max(...this.binsIn) / this.binsX);
  }

  /** The bin index of a state, or −1 when it is not in the space. @param {number} rank */
  binOf(rank) {
    const d = this.space.dist[rank];
    if (d === UNREACHED) return -1;
    return this.base[d] + Math.floor(this.space.slot[rank] / this.cap);
  }

  /** States in bin `bin` of column `d` (the last bin may hold fewer). */
  binSize(d, b) {
    const count = this.space.counts[d] || 0;
    return Math.min(this.cap, count - b * this.cap);
  }

  /** The centre of a state's bin (CSS px), or null. @param {number} rank */
  pointOf(rank) {
    const d = this.space.dist[rank];
    if (d === UNREACHED) return null;
    const b = Math.floor(this.space.slot[rank] / this.cap);
    const { x, y } = this.binXY(d, b);
    return { x: x + this.cell / 2, y: y + this.cell / 2 };
  }

  /** The top-left corner of bin `b` of column `d`. */
  binXY(d, b) {
    const { rect, cell, binsX, colW } = this;
    const barW = binsX * cell;
    const x0 = rect.x + d * colW + (colW - barW) / 2;
    const bx = b % binsX;
    const by = Math.floor(b / binsX);
    return { x: x0 + bx * cell, y: rect.y + rect.h - (by + 1) * cell };
  }

  /** The column under an x (CSS px), or −1. @param {number} px */
  columnAt(px) {
    const d = Math.floor((px - this.rect.x) / this.colW);
    return d >= 0 && d < this.columns ? d : -1;
  }
}
