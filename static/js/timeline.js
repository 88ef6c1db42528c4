// @ts-check
// Every record of a run, as received, in growable typed arrays (no object per record): the player
// reads from here at its own pace, independent of how fast frames arrive.

import { t } from "./i18n.js";

// Record kinds (server/search/events.py): the first column of every trace.
export const KIND = { OPEN: 0, CLOSE: 1, UPDATE: 2, PATH: 3, OPEN_B: 4, CLOSE_B: 5, UPDATE_B: 6 };

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export class Timeline {
  /** @param {number} [capacity] records to allocate at first (grows by doubling) */
  constructor(capacity = 1 << 16) {
    this.kinds = new Uint8Array(capacity);
    this.cells = new Int32Array(capacity);
    this.values = new Float32Array(capacity);
    this.length = 0; // records received without a gap, from index 0
    this.maxValue = 0; // the largest value received (the colour scale of the scores)
    /** @type {number | null} */
    this.expected = null; // records in the whole run, once the server has said so
    this.generation = 0; // bumped by reset: what was computed from the old records is stale
  }

  reset() {
    this.generation++;
    this.length = 0;
    this.maxValue = 0;
    this.expected = null;
  }

  /**
   * Make room for `n` records, doubling so that appending stays amortised O(1).
   * @param {number} n
   */
  reserve(n) {
    if (n <= this.kinds.length) return;
    let size = this.kinds.length;
    while (size < n) size *= 2;
    /**
     * @template {Uint8Array | Int32Array | Float32Array} T
     * @param {{ new (length: number): T }} Type
     * @param {T} old
     * @returns {T}
     */
    const grow = (Type, old) => {
      const fresh = new Type(size);
      fresh.set(old.subarray(0, this.length));
      return fresh;
    };
    this.kinds = grow(Uint8Array, this.kinds);
    this.cells = grow(Int32Array, this.cells);
    this.values = grow(Float32Array, this.values);
  }

  /**
   * Add one frame: `start` is the index of its first record; the three columns are raw bytes.
   * @param {number} start
   * @param {Uint8Array} kindBytes one byte per record
   * @param {Uint8Array} cellBytes four bytes (little-endian int32) per record
   * @param {Uint8Array} valueBytes four bytes (little-endian float32) per record
   */
  addFrame(start, kindBytes, cellBytes, valueBytes) {
    const n = kindBytes.length;
    if (cellBytes.length !== 4 * n || valueBytes.length !== 4 * n) {
      throw new Error(t("stage.columns_disagree", { kinds: n, bytes: cellBytes.length }));
    }
    if (start > this.length) throw new Error(t("stage.frame_gap", { start, length: this.length }));
    this.reserve(start + n);
    this.kinds.set(kindBytes, start);
    if (LITTLE_ENDIAN) {
      // One memcpy per column: the wire format is little-endian, like the host.
      new Uint8Array(this.cells.buffer).set(cellBytes, start * 4);
      new Uint8Array(this.values.buffer).set(valueBytes, start * 4);
    } else {
      const dc = new DataView(cellBytes.buffer, cellBytes.byteOffset, cellBytes.byteLength);
      const dv = new DataView(valueBytes.buffer, valueBytes.byteOffset, valueBytes.byteLength);
      for (let i = 0; i < n; i++) {
        this.cells[start + i] = dc.getInt32(4 * i, true);
        this.values[start + i] = dv.getFloat32(4 * i, true);
      }
    }
    let max = this.maxValue;
    const values = this.values;
    for (let i = start, end = start + n; i < end; i++) if (values[i] > max) max = values[i];
    this.maxValue = max;
    this.length = Math.max(this.length, start + n);
  }

  /** @returns {boolean} every record of the run has arrived */
  get complete() {
    return this.expected !== null && this.length >= this.expected;
  }
}
