// Plays a timeline onto the board: play, pause, step, scrub, at a speed from 1 step/s to "max"
// (as many records as fit in a frame's time budget). A step is one record. Any position is reached
// from the cheapest base: the board as it is (forwards), the board with records taken back (a state
// with `undo`), a keyframe (a state with `snapshot`/`restore`: one every `spacing` records, sqrt(N)
// apart at first, farther apart when they would take more than `keyframeBudget` bytes; one more at
// the end of a complete trace) or record 0.
// Only the cells the move touched are repainted, or every cell when that is cheaper.
//
// The pace: a preset plays a whole run in a set time whatever its size (normal: 20 s, to talk
// over), so its steps per second follow the run's record count; the slider sets a fixed speed.

export const DEFAULT_SPEED = 1500; // steps/s: the reference speed of a "custom" pace (and of animations)
export const PRESETS = {
  slow: { label: "Slow", seconds: 60 },
  normal: { label: "Normal", seconds: 20 },
  fast: { label: "Fast", seconds: 5 },
  instant: { label: "Instant", seconds: 0 }, // as fast as the screen can draw
};
export const DEFAULT_PRESET = "normal";
// The families' animations (a push, a jump, a turn) last this much of their designed time at each preset.
const PRESET_ANIMATION = { slow: 1.8, normal: 1, fast: 0.5, instant: 0.15 };

/**
 * How long a family's animations last (1 = as designed), from the player's pace: a preset's own
 * factor, else from the steps per second (slower steps, slower animations). One rule for every view.
 */
export function animationScale(speed, preset = null) {
  if (preset && Object.hasOwn(PRESETS, preset)) return PRESET_ANIMATION[preset] ?? 1;
  if (!Number.isFinite(speed)) return 0.15;
  return Math.max(0.15, Math.min(4, Math.pow(DEFAULT_SPEED / Math.max(1, speed), 0.3)));
}
const MIN_PRESET_SPEED = 2; // steps/s: a tiny run still moves
const MAX_SPEED_EXPONENT = 6; // the slider's top below "max" is 10^6 steps/s
const FRAME_BUDGET_MS = 12; // work per animation frame at max speed, leaving time to draw
const CHUNK = 32768; // records applied between clock checks
export const KEYFRAME_BUDGET = 160 * 1024 * 1024; // bytes of keyframes a player keeps at most
const MIN_KEYFRAME_SPACING = 16; // records
// Costs in "records applied": copying a keyframe back (or clearing the board) per byte, taking back a
// record, and painting one touched cell against repainting every cell (a tight loop, ~6 x cheaper).
const RESTORE_PER_BYTE = 1 / 256;
const UNDO_COST = 1.2;
const REPAINT_ALL_PER_CELL = 1 / 8;

/** Slider position (0..1000) -> steps per second; 1000 means "max" (Infinity). */
export function speedFromSlider(value) {
  const v = Number(value);
  if (v >= 1000) return Infinity;
  return Math.pow(10, (v / 1000) * MAX_SPEED_EXPONENT);
}

export function sliderFromSpeed(speed) {
  if (!Number.isFinite(speed)) return 1000;
  return Math.round((Math.log10(Math.max(1, speed)) / MAX_SPEED_EXPONENT) * 1000);
}

/** The steps per second that play `records` in a preset's time (Infinity: instant). */
export function presetSpeed(preset, records) {
  const seconds = PRESETS[preset]?.seconds ?? PRESETS[DEFAULT_PRESET].seconds;
  if (seconds <= 0) return Infinity;
  return Math.max(MIN_PRESET_SPEED, records / seconds);
}

export function speedLabel(speed) {
  if (!Number.isFinite(speed)) return "max";
  if (speed < 10) return `${speed.toFixed(1)} steps/s`;
  if (speed < 1e4) return `${Math.round(speed).toLocaleString("en-US")} steps/s`;
  return `${Math.round(speed / 1000).toLocaleString("en-US")}k steps/s`;
}

export class Player {
  /** @param {{timeline, onChange: () => void, keyframeBudget?: number}} args */
  constructor({ timeline, onChange, keyframeBudget = KEYFRAME_BUDGET }) {
    this.timeline = timeline;
    this.onChange = onChange;
    this.keyframeBudget = keyframeBudget;
    this.keyframes = new Map(); // position -> the state's snapshot there
    this.keyframeSpacing = 0; // records between keyframes (a power of two; Infinity: none fit)
    this.keyframeTimeline = -1; // the timeline's generation the keyframes belong to
    this.keyframeFit = 0; // keyframes the budget holds
    this.endKeyframe = 0; // the position of the end's keyframe (a complete trace), or 0
    this.lastRoute = ""; // how the last move was made: forward, undo, keyframe, start (tests, benchmarks)
    this.state = null;
    this.renderer = null;
    this.position = 0; // records applied to the board
    this.playing = false;
    this.speed = DEFAULT_SPEED;
    this.preset = DEFAULT_PRESET; // a preset's name, or null for a fixed speed from the slider
    this.carry = 0; // fractional steps owed from earlier frames
    this.lastTime = 0;
    this.frame = 0;
    this.pendingSeek = null;
  }

  /** Use a new board (a new maze): back to record 0. */
  attach(state, renderer) {
    this.state = state;
    this.renderer = renderer;
    this.rewind();
  }

  /** Forget the board state (a new run): back to record 0, paused. */
  rewind() {
    this.pause();
    this.position = 0;
    this.pendingSeek = null;
    this.dropKeyframes();
    if (this.state) {
      this.state.reset();
      this.renderer.repaintAll();
    }
    this.onChange();
  }

  /** A fixed speed in steps/s (Infinity: max); `preset` names the preset it comes from, if any. */
  setSpeed(speed, preset = null) {
    this.speed = speed;
    this.preset = preset;
    this.carry = 0;
  }

  /** The first position (0) or the last record received. */
  first() {
    this.step(-this.position);
  }

  last() {
    this.pause();
    this.seek(this.timeline.length);
  }

  get atEnd() {
    return this.timeline.complete && this.position >= this.timeline.length;
  }

  play() {
    if (!this.state) return;
    if (this.timeline.complete && this.position >= this.timeline.length) this.seek(0);
    this.playing = true;
    this.lastTime = performance.now();
    this.carry = 0;
    this.schedule();
    this.onChange();
  }

  pause() {
    this.playing = false;
    this.onChange();
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  step(delta) {
    this.pause();
    this.seek(this.position + delta);
  }

  /** Show the board after `target` records (clamped to what has arrived). */
  seek(target) {
    if (!this.state) return;
    const to = Math.max(0, Math.min(this.timeline.length, Math.floor(target)));
    this.applyTo(to);
    this.renderer.requestDraw();
    this.onChange();
  }

  /** Coalesce scrubbing to one seek per animation frame. */
  seekSoon(target) {
    this.pause();
    this.pendingSeek = target;
    this.schedule();
  }

  applyTo(to) {
    const { state, renderer, timeline } = this;
    const from = this.position;
    if (to === from) return;
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

  /** Bytes the keyframes take, about (the state's snapshotBytes each). */
  get keyframeBytes() {
    return this.keyframes.size * (this.state?.snapshotBytes ?? 0);
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

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame((now) => {
      this.frame = 0;
      this.tick(now);
    });
  }

  tick(now) {
    if (!this.state) return;
    if (this.pendingSeek !== null) {
      const target = this.pendingSeek;
      this.pendingSeek = null;
      this.seek(target);
    }
    if (!this.playing) return;
    const available = this.timeline.length;
    const dt = Math.min(100, now - this.lastTime); // a hidden tab must not jump ahead on return
    this.lastTime = now;
    if (this.position < available) {
      if (Number.isFinite(this.speed)) {
        this.carry += (this.speed * dt) / 1000;
        const steps = Math.floor(this.carry);
        this.carry -= steps;
        if (steps > 0) this.applyTo(Math.min(available, this.position + steps));
      } else {
        const deadline = performance.now() + FRAME_BUDGET_MS;
        while (this.position < available && performance.now() < deadline) {
          this.applyTo(Math.min(available, this.position + CHUNK));
        }
      }
      this.renderer.drawNow();
    }
    if (this.position >= available && this.timeline.complete) {
      this.playing = false; // the end of the whole trace
    } else {
      this.schedule(); // more to play, or waiting for frames still on their way
    }
    this.onChange();
  }
}
