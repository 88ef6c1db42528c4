// The board as the trace has left it after the first N records: per-cell status and score in typed
// arrays, so replaying millions of records from 0 (stepping back) is one tight loop.

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
    // Cells that joined a frontier, compacted lazily (see frontierCells); may hold stale entries.
    this.frontierList = new Int32Array(1024);
    this.frontierLength = 0;
  }

  reset() {
    this.status.fill(0);
    this.score.fill(0);
    this.pathLength = 0;
    this.current = -1;
    this.sawBackward = false;
    this.frontierLength = 0;
  }

  /**
   * Apply records [from, to) of the timeline. `paint(cell)` is called for each touched cell
   * (the renderer recolours it), unless `paint` is null (a bulk replay repaints once at the end).
   */
  apply(timeline, from, to, paint) {
    const { kinds, cells, values } = timeline;
    const status = this.status;
    const score = this.score;
    const size = status.length;
    let current = this.current;
    for (let i = from; i < to; i++) {
      const cell = cells[i];
      if (cell < 0 || cell >= size) continue; // a state with no cell on the board
      const kind = kinds[i];
      status[cell] = kind + 1;
      if (kind === KIND.PATH) {
        this.pushPath(cell);
      } else if ((kind & 1) === 0) {
        // open, update and their backward twins (kinds 0, 2, 4, 6): the cell is on a frontier
        score[cell] = values[i];
        if (kind >= KIND.OPEN_B) this.sawBackward = true;
        this.pushFrontier(cell);
      } else {
        // close or close_back: expanded
        score[cell] = values[i];
        current = cell;
        if (kind >= KIND.OPEN_B) this.sawBackward = true;
      }
      if (paint !== null) paint(cell);
    }
    this.current = current;
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
    if (this.pathLength === this.path.length) {
      const bigger = new Int32Array(this.path.length * 2);
      bigger.set(this.path);
      this.path = bigger;
    }
    this.path[this.pathLength++] = cell;
  }
}
