// The frontier at any step of a trace, rebuilt from its records the way the server's algorithm holds
// it: a FIFO queue for breadth-first search (server/search/algorithms/breadth_first.py: the goal test
// on generation, so a goal generated is never queued), a stack for depth-first search (depth_first.py,
// the same), and for best-first search a heap ordered by (f, h, insertion order) with lazy deletion
// (best_first.py: an update pushes the state again; the old entry goes stale and is skipped when
// popped). One pass over the records simulates the structure and notes, for every entry, the record
// at which it left (popped, or skipped as stale); then the frontier at step p is the entries pushed
// before p that had not left by p, in pop order — any step, forwards or backwards, without replaying.
// Each simulated pop is checked against the trace's close record: if they ever disagree (a heuristic
// the page computes differently, float rounding of g in the trace), the order is not claimed past it.
//
// Explain mode and Predict read the same run's frontier: `frontierIndexOf` makes one index per run
// and trace for both, and says in one place why there is none.

import { t } from "../i18n.js";
import { GrowableColumn } from "../growable.js";
import { KIND } from "../timeline.js";
import { listingFor } from "./listings.js";

/** @typedef {import("../families/family_view.js").FamilyView} FamilyView */

const NEVER = 0x7fffffff;
const STALE_ROWS = 2; // stale heap entries listed at most
const MAX_RECORDS = 3_000_000; // past this the frontier is not rebuilt (its arrays, and a scan of them per step)
const UNTRACED = "explain.untraced"; // a catalog key: t() when it is said

/** @type {WeakMap<object, {key: any[], index: FrontierIndex}>} a timeline -> the index made last over it */
const madeFor = new WeakMap();

/**
 * The frontier index of `run` over `timeline`, one for all its readers (explain mode, Predict): made
 * when the trace, the run or the view changes, else the one made before, so the trace is simulated
 * once however many panels read it. Or why there is none (`index` null):
 * - the algorithm keeps no queue, stack or heap (iterative deepening, bidirectional search, a wall
 *   follower): `why` is "", the reader says what the algorithm keeps instead;
 * - the trace names a state only by its cell (FamilyView.tracedStates false, and no state numbers:
 *   FamilyView.stateIds): a heap's keys need the
 *   state, and so does a list that names states; a reader of cells only (`cellsWillDo`: Predict's
 *   clicks name cells) still gets a queue's or a stack's order, which needs no state;
 * - the trace is longer than the rebuild's limit.
 * @param {{timeline: import("../timeline.js").Timeline, run: {algorithm: string, options?: any},
 *          view: FamilyView, cellsWillDo?: boolean}} args
 * @returns {{index: FrontierIndex | null, why: string}}
 */
export function frontierIndexOf({ timeline, run, view, cellsWillDo = false }) {
  const listing = listingFor(run.algorithm);
  const discipline = listing?.frontier;
  if (discipline !== "fifo" && discipline !== "lifo" && discipline !== "heap") return { index: null, why: "" };
  if (!view.tracedStates && (discipline === "heap" || !cellsWillDo)) return { index: null, why: t(UNTRACED) };
  if (timeline.length > MAX_RECORDS) {
    return { index: null, why: t("explain.too_long", { limit: MAX_RECORDS, length: timeline.length }) };
  }
  const key = [timeline.generation, run, view];
  const made = madeFor.get(timeline);
  if (made && key.every((part, i) => part === made.key[i])) return { index: made.index, why: "" };
  const index = new FrontierIndex(timeline, {
    discipline,
    ids: view.stateIds(),
    keyOf: heapKey(listing.mode, run.options?.weight ?? 1, view),
    stepCost: (from, to) => view.stepCost(from, to), // null when the view cannot tell: the trace's g
  });
  madeFor.set(timeline, { key, index });
  return { index, why: "" };
}

/**
 * A heap entry's priority under best-first search's `mode`: Dijkstra g; greedy h; A* g + weight·h;
 * null where the view cannot compute h (then the heap's order is not known).
 * @param {string} mode
 * @param {number} weight
 * @param {FamilyView} view
 * @returns {(cell: number, g: number) => {f: number, h: number} | null}
 */
function heapKey(mode, weight, view) {
  return (cell, g) => {
    if (mode === "dijkstra") return { f: g, h: 0 };
    const h = view.heuristicOf(cell);
    if (typeof h !== "number" || !Number.isFinite(h)) return null;
    return mode === "greedy" ? { f: h, h } : { f: g + weight * h, h };
  };
}

export class FrontierIndex {
  /**
   * @param {object} args
   * @param {"fifo"|"lifo"|"heap"} args.discipline
   * @param {(cell: number, g: number) => {f: number, h: number} | null} args.keyOf  a heap entry's
   *   priority, or null when it cannot be computed (then only the entries are known, not their order)
   * @param {((from: number, to: number) => number | null) | null} [args.stepCost]  the cost of a move,
   *   as the server computes it: g is then summed in float64 along the expansions, as the server does
   *   (the trace carries g as float32, which can tie two f the server tells apart, e.g. with the
   *   √2 of diagonal moves); each sum is checked against the trace's g, and the trace wins if they
   *   ever disagree
   * @param {{data: Int32Array | Float64Array, length: number} | null} [args.ids]  the records' state
   *   numbers (FamilyView.stateIds), growing with the trace; null: a record's cell is its state. An
   *   entry's `cell` is then that number, and a record without one (-1, past the server's cap) ends
   *   the rebuild there (`unnamed`).
   */
  constructor(timeline, { discipline, keyOf, stepCost = null, ids = null }) {
    this.timeline = timeline;
    this.ids = ids;
    this.unnamed = -1; // the first record whose state has no number
    this.discipline = discipline;
    this.keyOf = keyOf;
    this.stepCost = stepCost;
    this.expanding = -1; // the entry of the state being expanded (the last close record's)
    this.generation = timeline.generation ?? 0;
    this.ordered = true; // every entry's key is known
    this.record = new GrowableColumn(Int32Array); // entry -> the record that pushed it (ascending)
    this.cell = new GrowableColumn(Int32Array);
    this.g = new GrowableColumn(Float64Array);
    this.f = new GrowableColumn(Float64Array);
    this.h = new GrowableColumn(Float64Array);
    this.left = new GrowableColumn(Int32Array); // entry -> the record at which it left the frontier
    this.next = new GrowableColumn(Int32Array); // entry -> the record of the next push of its cell
    this.last = new Map(); // cell -> its latest entry
    this.closedAt = new Map(); // cell -> the record that expanded it
    this.closes = new GrowableColumn(Int32Array); // records of the close records, in order
    this.skipped = new Map(); // close record -> stale entries popped just before it
    this.heap = []; // entries (heap: by key; fifo: from `head`; lifo: the top is the end)
    this.head = 0;
    this.done = 0; // records simulated
    this.mismatch = -1; // the first close record the simulation disagreed with
  }

  /** Simulate up to record `to` (exclusive), as far as the trace allows. */
  extend(to) {
    const { timeline } = this;
    const { kinds, values } = timeline;
    const ids = this.ids;
    const cells = ids ? ids.data : timeline.cells;
    const limit = Math.min(to, timeline.length, ids ? ids.length : Infinity);
    const queue = this.discipline !== "heap";
    let r = this.done;
    for (; r < limit && this.mismatch < 0; r++) {
      const kind = kinds[r];
      const cell = cells[r];
      if (ids && cell < 0 && kind !== KIND.PATH) {
        this.unnamed = r;
        this.mismatch = r; // nothing past it can be told
        break;
      }
      if (kind === KIND.OPEN || kind === KIND.UPDATE) {
        // BFS and DFS test for the goal on generation: a goal is never put on the frontier; its
        // open record is followed by the path's (wait for the next record to know).
        if (queue) {
          if (r + 1 >= timeline.length && !timeline.complete) break;
          if (r + 1 < timeline.length && kinds[r + 1] === KIND.PATH) continue;
        }
        this.pushEntry(r, cell, this.exactG(r, cell, values[r]));
      } else if (kind === KIND.CLOSE) {
        this.closes.push(r);
        if (this.discipline === "heap" && !this.ordered) {
          this.closedAt.set(cell, r); // no keys, no pops: the live entries are all it can tell
          continue;
        }
        const e = this.pop(r);
        if (e < 0 || this.cell.data[e] !== cell) {
          this.mismatch = r;
          break;
        }
        this.expanding = e;
        this.closedAt.set(cell, r);
      }
    }
    this.done = Math.max(this.done, r);
  }

  /** g of the state record `r` pushes: the expanding state's g plus the step, in float64, if it rounds to the trace's. */
  exactG(r, cell, traced) {
    if (!this.stepCost || this.expanding < 0) return traced; // no step cost, or a start (g 0)
    const step = this.stepCost(this.cell.data[this.expanding], cell);
    if (typeof step !== "number") return traced;
    const g = this.g.data[this.expanding] + step;
    if (Math.fround(g) === traced) return g;
    this.stepCost = null; // it disagrees with the server: the trace's g from here on
    return traced;
  }

  pushEntry(r, cell, g) {
    const e = this.record.length;
    let f = g;
    let h = 0;
    if (this.discipline === "heap") {
      const key = this.keyOf(cell, g);
      if (key === null) this.ordered = false;
      else ({ f, h } = key);
    }
    this.record.push(r);
    this.cell.push(cell);
    this.g.push(g);
    this.f.push(f);
    this.h.push(h);
    this.left.push(NEVER);
    this.next.push(NEVER);
    const before = this.last.get(cell);
    if (before !== undefined) this.next.data[before] = r;
    this.last.set(cell, e);
    if (this.discipline === "heap") this.heapPush(e);
    else this.heap.push(e);
  }

  /** The entry the close record `r` expands (stale ones popped on the way are noted), or -1. */
  pop(r) {
    const left = this.left.data;
    if (this.discipline === "fifo") {
      if (this.head >= this.heap.length) return -1;
      const e = this.heap[this.head++];
      left[e] = r;
      return e;
    }
    if (this.discipline === "lifo") {
      if (!this.heap.length) return -1;
      const e = this.heap.pop();
      left[e] = r;
      return e;
    }
    if (!this.ordered) return -1;
    let stale = 0;
    while (this.heap.length) {
      const e = this.heapPop();
      left[e] = r;
      const cell = this.cell.data[e];
      if (this.closedAt.has(cell) || this.last.get(cell) !== e) {
        stale++; // closed, or reached more cheaply since: lazy deletion skips it
        continue;
      }
      if (stale) this.skipped.set(r, stale);
      return e;
    }
    return -1;
  }

  /** (f, h, insertion order) of entry a before entry b. */
  before(a, b) {
    const f = this.f.data;
    if (f[a] !== f[b]) return f[a] < f[b];
    const h = this.h.data;
    if (h[a] !== h[b]) return h[a] < h[b];
    return a < b;
  }

  heapPush(e) {
    const heap = this.heap;
    let i = heap.length;
    heap.push(e);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(e, heap[parent])) break;
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = e;
  }

  heapPop() {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length) {
      let i = 0;
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.before(heap[r], heap[l]) ? r : l;
        if (!this.before(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }

  /** How many close records come before `position`. */
  closesBefore(position) {
    return lowerBound(this.closes.data, this.closes.length, position);
  }

  /**
   * The frontier after `position` records: {rows, live, stale, staleFirst, exact, upTo}. rows: the first `count`
   * live entries in the order they would be popped, with the stale ones that would be popped (and
   * skipped) before them: [{entry, cell, g, h, f, stale}]. exact: every pop so far agreed with the
   * trace and, for a heap, every key is known (else the entries are in the order generated).
   * staleFirst: the stale entries the heap pops (and skips) before the first live one. upTo:
   * the step the frontier is of (`position`, or one less while the next record is on its way).
   */
  at(position, count) {
    this.extend(position);
    const exact = this.mismatch < 0 && (this.discipline !== "heap" || this.ordered);
    const upTo = Math.min(position, this.done);
    const n = lowerBound(this.record.data, this.record.length, upTo);
    const { left, next, cell: cells } = this;
    const leftD = left.data;
    const nextD = next.data;
    const cellD = cells.data;
    const isStale = (e) => {
      if (nextD[e] < upTo) return true; // pushed again, cheaper, before the playhead
      const closed = this.closedAt.get(cellD[e]);
      return closed !== undefined && closed < upTo;
    };
    // The first `count` live entries still on the frontier at `upTo` in pop order, and the first few
    // stale ones (a heap pops them before the live entries with larger keys, and skips them).
    const order = this.discipline === "heap" && this.ordered
      ? (a, b) => this.before(a, b)
      : this.discipline === "lifo" ? (a, b) => a > b : (a, b) => a < b;
    const insert = (list, e, keep) => {
      if (list.length === keep && !order(e, list[keep - 1])) return;
      let i = list.length === keep ? keep - 1 : list.length;
      while (i > 0 && order(e, list[i - 1])) {
        list[i] = list[i - 1];
        i--;
      }
      list[i] = e;
    };
    const liveBest = [];
    const staleBest = [];
    let live = 0;
    let stale = 0;
    const unordered = this.discipline === "heap" && !this.ordered;
    for (let e = 0; e < n; e++) {
      if (leftD[e] < upTo) continue; // popped (or skipped) already
      if (this.discipline === "heap" && isStale(e)) {
        if (unordered) continue; // without keys, when a stale entry is popped is unknown
        stale++;
        insert(staleBest, e, STALE_ROWS);
      } else {
        live++;
        insert(liveBest, e, count);
      }
    }
    // How many stale entries the next pops skip before the first live one.
    let staleFirst = 0;
    if (stale && liveBest.length) {
      for (let e = 0; e < n; e++) {
        if (leftD[e] >= upTo && isStale(e) && order(e, liveBest[0])) staleFirst++;
      }
    }
    // Stale entries listed: those popped before the last live entry shown.
    const lastLive = liveBest[liveBest.length - 1];
    const shownStale = staleBest.filter((e) => lastLive === undefined || order(e, lastLive));
    const rows = [...liveBest, ...shownStale].sort((a, b) => (order(a, b) ? -1 : 1)).map((e) => ({
      entry: e, cell: cellD[e], g: this.g.data[e], h: this.h.data[e], f: this.f.data[e], stale: !liveBest.includes(e),
    }));
    return { rows, live, stale, staleFirst, exact, upTo };
  }
}

/** The first index in sorted `data[0..length)` whose value is >= `value`. */
function lowerBound(data, length, value) {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (data[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
