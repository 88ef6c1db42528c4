// Unit tests of the page's run state machine and playback clocks, run by Node's own test runner
// (tests/test_js_units.py calls `node --test tests/js/`). The clocks are driven by a fake
// requestAnimationFrame whose frames the test advances by hand.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

let now = 0;
let queued = [];
globalThis.performance = { now: () => now };
globalThis.requestAnimationFrame = (callback) => {
  queued.push(callback);
  return queued.length;
};

/** Run one animation frame `ms` after the last. */
function frame(ms = 16) {
  now += ms;
  const callbacks = queued;
  queued = [];
  for (const callback of callbacks) callback(now);
}

const { Run } = await import("../../static/js/stage/run.js");
const { PlaybackClock } = await import("../../static/js/playback/clock.js");
const { SharedClock } = await import("../../static/js/playback/shared_clock.js");
const { presetSpeed } = await import("../../static/js/playback/pace.js");

beforeEach(() => {
  now = 0;
  queued = [];
});

test("a run goes starting → searching → streaming → done, and no further", () => {
  const run = new Run({ algorithm: "bfs", options: {} });
  assert.equal(run.state, "idle");
  for (const state of ["starting", "searching", "streaming", "done"]) assert.ok(run.to(state), state);
  assert.ok(run.finished);
  assert.equal(run.to("streaming"), false);
  assert.equal(run.to("error"), false);
  assert.equal(run.state, "done");
});

test("a late status cannot take a run back, and a cancelled run stays cancelled", () => {
  const run = new Run({ algorithm: "astar", options: {} });
  run.to("starting");
  run.to("streaming");
  assert.equal(run.to("searching"), false); // a status that arrives after the first frame
  assert.ok(run.to("cancelled"));
  assert.ok(run.cancelled && run.finished);
  assert.equal(run.to("done"), false);
});

test("an instant run gathers its frames; a plain one does not", () => {
  assert.deepEqual(new Run({ algorithm: "bfs", options: {}, instant: true }).buffered, []);
  assert.equal(new Run({ algorithm: "bfs", options: {} }).buffered, null);
});

/** A clock over `length` steps, recording where it showed the board. */
class CountingClock extends PlaybackClock {
  constructor(length, complete = true) {
    super();
    this.total = length;
    this.allIn = complete;
    this.shown = [];
  }

  get length() {
    return this.total;
  }

  get complete() {
    return this.allIn;
  }

  show(to) {
    this.position = to;
    this.shown.push(to);
  }
}

test("the clock plays a preset's steps per second and stops at the end", () => {
  const clock = new CountingClock(100);
  clock.pace(100); // Normal: the whole run in 20 s
  assert.equal(clock.speed, presetSpeed("normal", 100));
  clock.play();
  frame(100); // the first frame's time counts at most 100 ms
  frame(100);
  assert.equal(clock.position, 1); // 5 steps/s × 0.2 s
  for (let i = 0; i < 300; i++) frame(100);
  assert.equal(clock.position, 100);
  assert.equal(clock.playing, false);
  assert.ok(clock.atEnd);
});

test("step, first, last and a scrub coalesced to one seek a frame", () => {
  const clock = new CountingClock(50);
  clock.step(10);
  clock.step(-3);
  assert.equal(clock.position, 7);
  clock.last();
  assert.equal(clock.position, 50);
  clock.first();
  assert.equal(clock.position, 0);
  clock.shown = [];
  clock.seekSoon(20);
  clock.seekSoon(30);
  frame();
  assert.deepEqual(clock.shown, [30]);
  clock.step(1000);
  assert.equal(clock.position, 50); // clamped to what has arrived
});

test("playing waits at the end of what has arrived, then goes on when more comes", () => {
  const clock = new CountingClock(10, false);
  clock.setSpeed(Infinity, "instant");
  clock.play();
  frame();
  assert.equal(clock.position, 10);
  assert.ok(clock.playing); // still waiting for records
  clock.total = 25;
  clock.allIn = true;
  clock.more();
  frame();
  assert.equal(clock.position, 25);
  assert.equal(clock.playing, false);
});

test("the shared clock moves every panel, and while traces arrive at most every busy interval", () => {
  const applied = [];
  let available = 1000;
  let complete = false;
  const clock = new SharedClock({
    available: () => available,
    complete: () => complete,
    apply: (k) => applied.push(k),
    busyInterval: () => (complete ? 0 : 200),
  });
  clock.setSpeed(1000, null); // 1,000 steps/s: 16 steps a frame
  clock.play();
  for (let i = 0; i < 30; i++) frame(16); // 480 ms
  const whileBusy = applied.length;
  assert.ok(whileBusy >= 2 && whileBusy <= 4, `applied ${whileBusy} times in 480 ms`);
  complete = true;
  available = clock.position + 5;
  clock.more();
  for (let i = 0; i < 5; i++) frame(16);
  assert.equal(applied.at(-1), available); // every panel shown at the end
  assert.equal(clock.playing, false);
});
