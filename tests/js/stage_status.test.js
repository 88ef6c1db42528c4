// Unit tests of a Stage's run events and of a run's status in words (static/js/stage/stage.js,
// run_status.js), run by Node's own test runner (tests/test_js_units.py). The socket is a fake that
// keeps each run's handlers, so a test plays the server's messages itself; the family view is a stub.

import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.performance = { now: () => 0 };
globalThis.requestAnimationFrame = () => 1;

// The page's English catalog, loaded as the page loads it: the statuses are read in words.
const { useEnglish } = await import("./english.js");
await useEnglish();

const { Stage } = await import("../../static/js/stage/stage.js");
const { comparisonStatus, panelBadge, runStatus } = await import("../../static/js/stage/run_status.js");

/** A Stage on a fake socket and a stub view; `events` lists what its host heard, as [event, run]. */
function stageWithHost() {
  const live = {
    handlers: new Map(),
    cancelled: [],
    serial: 0,
    start(_args, handlers) {
      const id = `r${this.serial++}`;
      this.handlers.set(id, handlers);
      return id;
    },
    cancel(id) {
      this.cancelled.push(id);
    },
  };
  const events = [];
  const stage = new Stage({ live, board: null, hosts: null, shell: null, onRun: (event, run) => events.push([event, run]) });
  stage.view = { runStarted() {}, frame() {}, result() {}, traceComplete() {} };
  return { stage, live, events };
}

const args = { puzzle: "p", algorithm: "bfs", options: {} };

test("Stop: the Stage says cancelled, and the run's status reads so", () => {
  const { stage, live, events } = stageWithHost();
  const run = stage.start(args);
  stage.cancel();
  assert.deepEqual(events.map(([event]) => event), ["started", "cancelled"]);
  assert.equal(events[1][1], run);
  assert.equal(run.state, "cancelled");
  assert.deepEqual(live.cancelled, [run.id]);
  assert.deepEqual(runStatus(run), { text: "cancelled", tone: "idle", detail: "", fraction: null });
  stage.cancel(); // nothing left to stop: nothing heard
  assert.equal(events.length, 2);
});

test("a new run replacing one still going: cancelled for the old, then started", () => {
  const { stage, events } = stageWithHost();
  const old = stage.start(args);
  const next = stage.start(args);
  assert.deepEqual(events.map(([event, run]) => [event, run === old ? "old" : run === next ? "next" : "?"]),
    [["started", "old"], ["cancelled", "old"], ["started", "next"]]);
});

test("a re-solve in flight is cancelled too, and said so", () => {
  const { stage, events } = stageWithHost();
  stage.reSolve(() => args);
  const pending = stage.pending;
  assert.ok(pending?.instant);
  assert.equal(runStatus(pending).text, "re-solving…");
  stage.cancel();
  assert.equal(stage.pending, null);
  assert.deepEqual(events.map(([event]) => event), ["started", "cancelled"]);
  assert.equal(events[1][1], pending);
});

test("the server's count is what its phase counts: expansions, then records sent", () => {
  const { stage, live } = stageWithHost();
  const run = stage.start(args);
  const handlers = live.handlers.get(run.id);
  handlers.onStatus({ run: run.id, phase: "queued", done: 0, total: null, message: "waiting for a worker…" });
  assert.equal(runStatus(run).text, "waiting for a worker…");
  handlers.onStatus({ run: run.id, phase: "searching", done: 12345, total: null, message: "" });
  assert.equal(run.expandedSoFar, 12345);
  assert.deepEqual(runStatus(run), { text: "searching… 12,345 expanded", tone: "busy", detail: "", fraction: null });
  handlers.onStatus({ run: run.id, phase: "streaming", done: 250, total: 1000, message: "" });
  assert.equal(run.recordsSent, 250);
  assert.equal(run.expandedSoFar, 12345, "the search's count stays what it was");
  assert.deepEqual(runStatus(run), {
    text: "streaming 25%", tone: "busy", detail: " · 250 of 1,000 steps received", fraction: 0.25,
  });
});

test("an ended run in words: done with its time, a checked solution, an error", () => {
  const done = { state: "done", slot: "main", result: { seconds: 0.25 } };
  assert.equal(runStatus(done).text, "done");
  assert.match(runStatus(done).detail, /^ in /);
  const checked = { state: "done", slot: "replay", result: { found: true } };
  assert.deepEqual(runStatus(checked), { text: "checked", tone: "done", detail: " · a legal solution", fraction: null });
  const failed = { state: "error", slot: "main", error: "no" };
  assert.deepEqual(runStatus(failed), { text: "error", tone: "error", detail: "", fraction: null });
});

test("a comparison's runs in one status, and a panel's badge", () => {
  const run = (state, extra = {}) => ({ state, finished: ["done", "error", "cancelled"].includes(state), cancelled: state === "cancelled", result: null, error: null, records: null, message: "", ...extra });
  assert.equal(comparisonStatus([run("starting"), run("starting")], 0).text, "starting…");
  assert.deepEqual(comparisonStatus([run("searching"), run("streaming", { result: {}, records: 10 })], 0),
    { text: "searching…", tone: "busy", detail: " · 1 of 2 computed", fraction: null });
  assert.equal(comparisonStatus([run("streaming", { result: {}, records: 10 }), run("streaming", { result: {}, records: 30 })], 10).text, "streaming 25%");
  assert.deepEqual(comparisonStatus([run("done", { result: {} }), run("error", { error: "x" })], 0),
    { text: "error", tone: "error", detail: " · 1 of 2 searches failed", fraction: null });
  assert.equal(comparisonStatus([run("cancelled"), run("done", { result: {} })], 0).text, "cancelled");
  assert.deepEqual(panelBadge(run("cancelled"), { steps: 1234, atEnd: false, waiting: false }), { text: "Stopped at step 1,234", tone: "warn" });
  assert.deepEqual(panelBadge(run("error", { error: "gone" }), { steps: 0, atEnd: false, waiting: false }), { text: "Error: gone", tone: "bad" });
  assert.equal(panelBadge(run("streaming"), { steps: 5, atEnd: false, waiting: false }), null);
  assert.equal(panelBadge(null, { steps: 0, atEnd: true, waiting: true }), null);
});
