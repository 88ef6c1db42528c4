// @ts-check
// The names of a run's states, where the trace's cells do not name them (several states share a cell:
// FamilyView.stateIds) or where h is the server's:
// the frames' `named` field (docs/PROTOCOL.md). Each distinct state has a number (0, 1, 2… in the
// order it first appears in the trace; -1 past the server's cap), one per record; of each number, its
// h under the run's heuristic (when the algorithm uses one), the record that first named it (its
// cell is where it stands on the board) and, for families that draw states from snapshots, its board.
// A view keeps one of these per run and answers FamilyView.stateIds() with `ids`: explain mode and
// Predict then rebuild the frontier over these numbers instead of the cells.

import { asBytes } from "../live.js";
import { GrowableColumn } from "../growable.js";

export class NamedStates {
  /** @param {(board: any) => any} [decode]  a board as the view keeps it (e.g. tiles as a Uint8Array) */
  constructor(decode = (board) => board) {
    this.decode = decode;
    this.clear();
  }

  /** A new run: nothing named yet. */
  clear() {
    /** True once a frame of this run named its states. */
    this.active = false;
    this.ids = new GrowableColumn(Int32Array); // record -> its state's number
    this.h = new GrowableColumn(Float64Array); // number -> h (when `hasH`)
    this.first = new GrowableColumn(Int32Array); // number -> the record that first named it
    /** @type {any[]} number -> its board (decoded), when the family sends boards */
    this.boards = [];
    this.hasH = false;
    this.count = 0; // states numbered so far
  }

  /**
   * A frame's `named` field, for its records from `start` on.
   * @param {any} named
   * @param {number} start
   */
  add(named, start) {
    if (!named) return;
    this.active = true;
    const bytes = asBytes(named.states);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = bytes.byteLength >> 2;
    // Records arrive in order; a frame that starts past what is held (never, over one socket) leaves -1s.
    while (this.ids.length < start) this.ids.push(-1);
    for (let k = 0; k < n; k++) {
      const id = view.getInt32(4 * k, true);
      this.ids.push(id);
      if (id >= 0 && id >= this.count) {
        while (this.first.length <= id) this.first.push(start + k);
        this.count = id + 1;
      }
    }
    if (named.h !== undefined && named.h !== null) {
      this.hasH = true;
      const hb = asBytes(named.h);
      const hv = new DataView(hb.buffer, hb.byteOffset, hb.byteLength);
      for (let k = 0; k < hb.byteLength >> 2; k++) this.h.push(hv.getFloat32(4 * k, true));
    }
    if (Array.isArray(named.boards)) for (const board of named.boards) this.boards.push(this.decode(board));
  }

  /** The numbers, one a record, while a run names its states; else null (the cells name them). */
  column() {
    return this.active ? this.ids : null;
  }

  /** h of state `id`, or null. @param {number} id */
  hOf(id) {
    return this.hasH && id >= 0 && id < this.h.length ? this.h.data[id] : null;
  }

  /** The board of state `id`, or null. @param {number} id */
  boardOf(id) {
    return id >= 0 && id < this.boards.length ? this.boards[id] : null;
  }

  /** The record that first named state `id` (-1: unknown). @param {number} id */
  firstRecord(id) {
    return id >= 0 && id < this.first.length ? this.first.data[id] : -1;
  }

  /**
   * The states named so far whose first record stands on one of `cells` (a click on the board names
   * cells; a cell holds several states).
   * @param {number[]} cells
   * @param {Int32Array} recordCells  the timeline's cells
   * @returns {number[]}
   */
  statesOn(cells, recordCells) {
    const at = new Set(cells);
    const out = [];
    for (let id = 0; id < this.first.length; id++) if (at.has(recordCells[this.first.data[id]])) out.push(id);
    return out;
  }
}
