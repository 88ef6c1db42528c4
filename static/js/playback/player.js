// @ts-check
// Plays a run's trace onto its board: the playback clock (./clock.js) where a step is one record.
// Any position is reached from the cheapest base: the board as it is (forwards), the board with
// records taken back (a state with `undo`), a keyframe (a state with `snapshot`/`restore`: one every
// `spacing` records, sqrt(N) apart at first, farther apart when they would take more than
// `keyframeBudget` bytes; one more at the end of a complete trace) or record 0. Only the cells the
// move touched are repainted, or every cell when that is cheaper.

import { PlaybackClock } from "./clock.js";

const KEYFRAME_BUDGET = 160 * 1024 * 1024; // bytes of keyframes a player keeps at most
const MIN_KEYFRAME_SPACING = 16; // records
// Costs in "records applied": copying a keyframe back (or clearing the board) per byte, taking back a
// record, and painting one touched cell against repainting every cell (a tight loop, ~6 x cheaper).
const RESTORE_PER_BYTE = 1 / 256;
const UNDO_COST = 1.2;
const REPAINT_ALL_PER_CELL = 1 / 8;

/**
 * @typedef {object} BoardState  what a family view's playerTarget().state offers (families/family_view.js)
 * @property {{length: number}} status  one entry per cell
 * @property {() => void} reset
 * @property {(timeline: any, from: number, to: number, paint: ((cell: number) => void) | null) => void} apply
 * @property {() => any} [snapshot]
 * @property {(keyframe: any) => void} [restore]
 * @property {number} [snapshotBytes]
 * @property {(step: number) => void} [seek]  a board drawn from the step alone (Player.useSteps)
 * @property {boolean} [settled]  seek's drawing is complete
 * @property {(timeline: any, to: number, from: number, paint: ((cell: number) => void) | null) => void} [undo]
 */

/**
 * @typedef {object} BoardRenderer  what a family view's playerTarget().renderer offers
 * @property {(cell: number) => void} [paint]
 * @property {() => void} repaintAll
 * @property {() => void} requestDraw
 * @property {() => void} drawNow
 */

export class Player extends PlaybackClock {
  /**
   * @param {{timeline: import("../timeline.js").Timeline, onChange?: () => void, keyframeBudget?: number}} args
   */
  constructor({ timeline, onChange = () => {}, keyframeBudget = KEYFRAME_BUDGET }) {
    super({ onChange });
    this.timeline = timeline;
    this.keyframeBudget = keyframeBudget;
    /** @type {Map<number, any>} position -> the state's snapshot there */
    this.keyframes = new Map();
    this.keyframeSpacing = 0; // records between keyframes (a power of two; Infinity: none fit)
    this.keyframeTimeline = -1; // the timeline's generation the keyframes belong to
    this.keyframeFit = 0; // keyframes the budget holds
    this.endKeyframe = 0; // the position of the end's keyframe (a complete trace), or 0
    this.lastRoute = ""; // how the last move was made: forward, undo, keyframe, start (tests, benchmarks)
    /** @type {BoardState | null} */
    this.state = null;
    /** @type {BoardRenderer | null} */
    this.renderer = null;
    /** @type {number | null} a run of this many steps and no records (a huge board drawn as tiles), or null */
    this.steps = null;
  }

  /**
   * A run whose board is drawn from the step number alone (a huge board as tiles: the view's state
   * has `seek(step)`): `steps` steps, no records; rewind() ends it.
   * @param {number} steps
   */
  useSteps(steps) {
    this.steps = steps;
    this.onChange();
  }

  /**
   * Use a new board (a new puzzle): back to record 0.
   * @param {BoardState} state
   * @param {BoardRenderer} renderer
   */
  attach(state, renderer) {
    this.state = state;
    this.renderer = renderer;
    this.rewind();
  }

  /** Forget the board state (a new run): back to record 0, paused. */
  rewind() {
    this.pause();
    this.steps = null;
    this.position = 0;
    this.pendingSeek = null;
    this.dropKeyframes();
    if (this.state && this.renderer) {
      this.state.reset();
      this.renderer.repaintAll();
    }
    this.onChange();
  }

  get length() {
    return this.steps ?? this.timeline.length;
  }

  get complete() {
    return this.steps !== null || this.timeline.complete;
  }

  /** Everything moved is drawn (tiles: the step's visible tiles have arrived). */
  get settled() {
    return this.steps === null || (this.state?.settled ?? true);
  }

  get ready() {
    return this.state !== null;
  }

  /** @param {number} to */
  show(to) {
    this.applyTo(to);
    this.renderer?.requestDraw();
  }

  /** @param {number} to */
  advance(to) {
    this.applyTo(to);
  }

  flush() {
    this.renderer?.drawNow();
  }

  /** Move the board to record `to` from the cheapest base. @param {number} to */
  applyTo(to) {
    const { timeline } = this;
    const state = /** @type {BoardState} */ (this.state);
    const renderer = /** @type {BoardRenderer} */ (this.renderer);
    const from = this.position;
    if (to === from) return;
    if (this.steps !== null) {
      state.seek(to); // the board after `to` steps, as tiles
      this.position = to;
      this.lastRoute = "tiles";
      return;
    }
    const size = state.status.length;
    const canPaint = typeof renderer.paint === "function";
    this.planKeyframes();
    // The cheapest base to reach `to` from: the board as it is, a keyframe at or before `to`, or 0.
    const restoreCost = (state.snapshotBytes ?? 0) * RESTORE_PER_BYTE;
    let base = 0; // -1: take records back from the board as it is
    let cost = Infinity;
    if (to > from) {
      base = from;
      cost = to - from;
    } else if (typeof state.undo === "function") {
      base = -1;
      cost = (from - to) * UNDO_COST;
    }
    const keyframe = this.keyframeAtOrBefore(to);
    if (keyframe > 0 && (to < from || keyframe > from) && restoreCost + to - keyframe < cost) {
      base = keyframe;
      cost = restoreCost + to - keyframe;
    }
    if (restoreCost + to < cost) base = 0;
    // Repaint the cells the records between the two positions touch, or every cell (always, from
    // another base, for a state without undo: those views redraw their whole scene anyway).
    const changed = Math.abs(to - from);
    const perCell = canPaint && typeof state.undo === "function";
    const repaintAll = changed > size * REPAINT_ALL_PER_CELL || (base !== from && !perCell);
    if (base === -1) {
      state.undo(timeline, to, from, repaintAll ? null : renderer.paint);
      this.lastRoute = "undo";
    } else {
      if (base === from) this.lastRoute = "forward";
      else if (base === 0) {
        state.reset();
        this.lastRoute = "start";
      } else {
        state.restore(this.keyframes.get(base));
        this.lastRoute = "keyframe";
      }
      // Forwards the records paint as they go; from another base the changed range is painted after.
      const paintAsApplied = base === from && !repaintAll && canPaint ? renderer.paint : null;
      this.applyForward(base, to, paintAsApplied);
      if (base !== from && !repaintAll) {
        const cells = timeline.cells;
        const paint = renderer.paint;
        for (let i = Math.min(from, to), end = Math.max(from, to); i < end; i++) paint(cells[i]);
      }
    }
    if (repaintAll) renderer.repaintAll();
    this.position = to;
  }

  /**
   * Apply records [from, to), leaving a keyframe at each multiple of the spacing passed, and one at
   * the end of a complete trace (the End key's target).
   */
  applyForward(from, to, paint) {
    const { state, timeline } = this;
    const spacing = this.keyframeSpacing;
    if (!Number.isFinite(spacing) || !spacing) {
      state.apply(timeline, from, to, paint);
    } else {
      let i = from;
      while (i < to) {
        const next = (Math.floor(i / spacing) + 1) * spacing;
        const stop = Math.min(to, next);
        state.apply(timeline, i, stop, paint);
        i = stop;
        if (i === next && !this.keyframes.has(i)) this.keyframes.set(i, state.snapshot());
      }
    }
    if (this.keyframeFit >= 1 && timeline.complete && to === timeline.length && !this.keyframes.has(to)) {
      this.keyframes.set(to, state.snapshot());
      this.endKeyframe = to;
    }
  }

  /** The spacing for the timeline's length now (keyframes off the new grid are dropped). */
  planKeyframes() {
    const { state, timeline } = this;
    const generation = timeline.generation ?? 0;
    if (generation !== this.keyframeTimeline) {
      this.dropKeyframes();
      this.keyframeTimeline = generation;
    }
    if (typeof state.snapshot !== "function" || typeof state.restore !== "function") {
      this.keyframeSpacing = Infinity;
      this.keyframeFit = 0;
      return;
    }
    const n = Math.max(1, timeline.length);
    const bytes = Math.max(1, state.snapshotBytes ?? 1024);
    this.keyframeFit = Math.floor(this.keyframeBudget / bytes); // keyframes that fit in the budget
    const fit = this.keyframeFit - (timeline.complete ? 1 : 0); // one is the end's
    let spacing = Math.max(MIN_KEYFRAME_SPACING, this.keyframeSpacing || 0);
    while (spacing * spacing < n) spacing *= 2; // about sqrt(n) apart
    if (fit < 1) spacing = Infinity;
    else while (Math.floor(n / spacing) > fit) spacing *= 2;
    if (spacing === this.keyframeSpacing) return;
    this.keyframeSpacing = spacing;
    for (const position of [...this.keyframes.keys()]) {
      if (position !== this.endKeyframe && !(position % spacing === 0)) this.keyframes.delete(position);
    }
  }

  dropKeyframes() {
    this.keyframes.clear();
    this.keyframeSpacing = 0;
    this.endKeyframe = 0;
  }

  /** The position of the last keyframe at or before `position`, or 0 (the start needs none). */
  keyframeAtOrBefore(position) {
    const spacing = this.keyframeSpacing;
    let found = this.endKeyframe > 0 && this.endKeyframe <= position ? this.endKeyframe : 0;
    if (!Number.isFinite(spacing) || !spacing) return found;
    for (let k = Math.floor(position / spacing) * spacing; k > found; k -= spacing) {
      if (this.keyframes.has(k)) return k;
    }
    return found;
  }
}
