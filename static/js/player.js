// Plays a timeline onto the board: play, pause, step, scrub, at a speed from 1 step/s to "max"
// (as many records as fit in a frame's time budget). A step is one record. Going back replays the
// records from 0 into the typed-array state, which stays fast for millions of records.
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
const MIN_PRESET_SPEED = 2; // steps/s: a tiny run still moves
const MAX_SPEED_EXPONENT = 6; // the slider's top below "max" is 10^6 steps/s
const FRAME_BUDGET_MS = 12; // work per animation frame at max speed, leaving time to draw
const CHUNK = 32768; // records applied between clock checks

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
  /** @param {{timeline, onChange: () => void}} args */
  constructor({ timeline, onChange }) {
    this.timeline = timeline;
    this.onChange = onChange;
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
    const size = state.status.length;
    if (to < this.position) {
      state.reset();
      state.apply(timeline, 0, to, null);
      renderer.repaintAll();
    } else if (to - this.position > size) {
      // A long jump: cheaper to repaint every cell once than each record.
      state.apply(timeline, this.position, to, null);
      renderer.repaintAll();
    } else {
      state.apply(timeline, this.position, to, renderer.paint);
    }
    this.position = to;
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
