// The board as the trace has left it after the first N records: per-cell status and score in typed
// arrays, so replaying millions of records from 0 is one tight loop. The records are reversible: each
// applied record remembers the status and score its cell had before (5 bytes a record), so stepping
// back takes records back one by one instead of replaying from the start; and a snapshot (5 bytes a
// cell) is a keyframe the Player restores for long jumps (../family_view.js, PlayerTarget).

import { withRoom } from "../../growable.js";
import { KIND } from "../../timeline.js";

// Cell status = record kind + 1 (0 = not reached yet), so one subtraction maps the two.
export const STATUS = {
  NONE: 0, OPEN: 1, CLOSED: 2, UPDATED: 3, PATH: 4, OPEN_B: 5, CLOSED_B: 6, UPDATED_B: 7,
};

export class GridState {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.status = new Uint8Array(width * height);
    this.score = new Float32Array(width * height);
    this.path = new Int32Array(256); // path cells in the order received (goal back to start)
    this.pathLength = 0;
    this.current = -1; // the cell of the last close record
    this.sawBackward = false; // true once a backward-search record was applied
    this.firstBackward = Infinity; // the index of the first backward-search record applied
    // Cells that joined a frontier, compacted lazily (see frontierCells); may hold stale entries.
    this.frontierList = new Int32Array(1024);
    this.frontierLength = 0;
    // What record i overwrote: its cell's status and score before it (the undo log, per record).
    this.prevStatus = new Uint8Array(0);
    this.prevScore = new Float32Array(0);
    this.logged = 0; // records [0, logged) are in the log
    this.logGeneration = -1; // the timeline's generation the log belongs to
  }

  reset() {
    this.status.fill(0);
    this.score.fill(0);
    this.pathLength = 0;
    this.current = -1;
    this.sawBackward = false;
    this.firstBackward = Infinity;
    this.frontierLength = 0;
  }

  /**
   * Apply records [from, to) of the timeline. `paint(cell)` is called for each touched cell
   * (the renderer recolours it), unless `paint` is null (a bulk replay repaints once at the end).
   */
  apply(timeline, from, to, paint) {
    if (to > this.prevStatus.length) this.growLog(to, timeline.kinds.length);
    const generation = timeline.generation ?? 0;
    if (generation !== this.logGeneration) {
      this.logGeneration = generation; // another run: its log is written afresh
      this.logged = 0;
    }
    // Records below `logged` were applied before and logged then (a replay writes the same values).
    const logged = from <= this.logged ? this.logged : Infinity;
    const { kinds, cells, values } = timeline;
    const { status, score, prevStatus, prevScore } = this;
    const size = status.length;
    let current = this.current;
    for (let i = from; i < to; i++) {
      const cell = cells[i];
      if (cell < 0 || cell >= size) continue; // a state with no cell on the board
      const kind = kinds[i];
      if (i >= logged) {
        prevStatus[i] = status[cell];
        prevScore[i] = score[cell];
      }
      const before = status[cell];
      status[cell] = kind + 1;
      if (kind === KIND.PATH) {
        // A path cell no expansion reached (inside a jump of jump point search) shows its g on the path.
        if (before === 0) score[cell] = values[i];
        this.pushPath(cell);
      } else if ((kind & 1) === 0) {
        // open, update and their backward twins (kinds 0, 2, 4, 6): the cell is on a frontier
        score[cell] = values[i];
        if (kind >= KIND.OPEN_B && i < this.firstBackward) this.firstBackward = i;
        this.pushFrontier(cell);
      } else {
        // close or close_back: expanded
        score[cell] = values[i];
        current = cell;
        if (kind >= KIND.OPEN_B && i < this.firstBackward) this.firstBackward = i;
      }
      if (paint !== null) paint(cell);
    }
    this.current = current;
    this.sawBackward = this.firstBackward < to;
    if (logged !== Infinity && to > this.logged) this.logged = to;
  }

  /**
   * Take back records [from, to), newest first (records [0, to) were applied): the board after
   * `from` records. `paint(cell)` as in apply, or null.
   */
  undo(timeline, from, to, paint) {
    const { kinds, cells } = timeline;
    const { status, score, prevStatus, prevScore } = this;
    const size = status.length;
    for (let i = to - 1; i >= from; i--) {
      const cell = cells[i];
      if (cell < 0 || cell >= size) continue;
      const before = prevStatus[i];
      status[cell] = before;
      score[cell] = prevScore[i];
      if (kinds[i] === KIND.PATH) this.pathLength--;
      if ((before & 1) === 1) this.pushFrontier(cell); // back on a frontier (duplicates are compacted)
      if (paint !== null) paint(cell);
    }
    this.current = this.lastCloseBefore(timeline, from);
    this.sawBackward = this.firstBackward < from;
    if (!this.sawBackward) this.firstBackward = Infinity;
  }

  /** The cell of the last close record among the first `position` records, or -1. */
  lastCloseBefore(timeline, position) {
    const { kinds, cells } = timeline;
    const size = this.status.length;
    for (let i = position - 1; i >= 0; i--) {
      const kind = kinds[i];
      if ((kind === KIND.CLOSE || kind === KIND.CLOSE_B) && cells[i] >= 0 && cells[i] < size) return cells[i];
    }
    return -1;
  }

  /** Room in the undo log for `n` records (doubling, at most the timeline's capacity). */
  growLog(n, capacity) {
    let size = Math.max(1024, this.prevStatus.length);
    while (size < n) size *= 2;
    size = Math.max(n, Math.min(size, capacity));
    const status = new Uint8Array(size);
    const score = new Float32Array(size);
    status.set(this.prevStatus);
    score.set(this.prevScore);
    this.prevStatus = status;
    this.prevScore = score;
  }

  /** A keyframe: everything apply/undo change, as copies (about snapshotBytes). */
  snapshot() {
    this.compactFrontier();
    return {
      status: this.status.slice(),
      score: this.score.slice(),
      path: this.path.slice(0, this.pathLength),
      frontier: this.frontierList.slice(0, this.frontierLength),
      current: this.current,
      firstBackward: this.firstBackward,
    };
  }

  /** Back to a keyframe (copied into the same arrays: the renderer's painter keeps reading them). */
  restore(snap) {
    this.status.set(snap.status);
    this.score.set(snap.score);
    if (this.path.length < snap.path.length) this.path = new Int32Array(snap.path.length * 2);
    this.path.set(snap.path);
    this.pathLength = snap.path.length;
    if (this.frontierList.length < snap.frontier.length) this.frontierList = new Int32Array(snap.frontier.length * 2);
    this.frontierList.set(snap.frontier);
    this.frontierLength = snap.frontier.length;
    this.current = snap.current;
    this.firstBackward = snap.firstBackward;
    this.sawBackward = snap.firstBackward !== Infinity;
  }

  /** Bytes of one snapshot, about: 5 a cell (status and score) plus the frontier and the path. */
  get snapshotBytes() {
    return 5 * this.status.length + 4 * (this.frontierLength + this.pathLength) + 64;
  }

  pushFrontier(cell) {
    if (this.frontierLength === this.frontierList.length) {
      this.compactFrontier();
      if (this.frontierLength > this.frontierList.length / 2) {
        const bigger = new Int32Array(this.frontierList.length * 2);
        bigger.set(this.frontierList.subarray(0, this.frontierLength));
        this.frontierList = bigger;
      }
    }
    this.frontierList[this.frontierLength++] = cell;
  }

  /** Drop entries that left the frontier (odd status = on a frontier) and duplicates. */
  compactFrontier() {
    const list = this.frontierList;
    const status = this.status;
    let kept = 0;
    for (let k = 0; k < this.frontierLength; k++) {
      const cell = list[k];
      const s = status[cell];
      if ((s & 1) === 1 && s < 0x80) {
        status[cell] = s | 0x80; // mark: seen in this pass
        list[kept++] = cell;
      }
    }
    for (let k = 0; k < kept; k++) status[list[k]] &= 0x7f;
    this.frontierLength = kept;
  }

  /** The cells now on a frontier (a view, valid until the next apply). */
  frontierCells() {
    this.compactFrontier();
    return this.frontierList.subarray(0, this.frontierLength);
  }

  pushPath(cell) {
    this.path = withRoom(this.path, this.pathLength + 1);
    this.path[this.pathLength++] = cell;
  }
}
