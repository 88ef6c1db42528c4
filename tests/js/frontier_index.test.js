// Unit tests of the one frontier index explain mode and Predict share (static/js/explain/frontier.js
// frontierIndexOf), run by Node's own test runner (tests/test_js_units.py): one index per run and
// trace whoever asks, a new one for a new trace, and the refusals in one place.

import assert from "node:assert/strict";
import { test } from "node:test";

const { useEnglish } = await import("./english.js");
await useEnglish(); // the refusals are read in words
const { frontierIndexOf } = await import("../../static/js/explain/frontier.js");
const { KIND, Timeline } = await import("../../static/js/timeline.js");

const view = (tracedStates = true) => ({ tracedStates, heuristicOf: () => 0, stepCost: () => null, stateIds: () => null });

/** A trace of `n` records: the start opened, then each record closes one state and opens the next. */
function timelineOf(n) {
  const timeline = new Timeline(16);
  const kinds = new Uint8Array(n).map((_, i) => (i % 2 ? KIND.CLOSE : KIND.OPEN));
  const cells = new Int32Array(n).map((_, i) => i >> 1);
  const values = new Float32Array(n);
  const bytes = (a) => new Uint8Array(a.buffer);
  timeline.addFrame(0, kinds, bytes(cells), bytes(values));
  return timeline;
}

test("explain mode and Predict get the same index for a run; a new trace gets a new one", () => {
  const timeline = timelineOf(8);
  const run = { algorithm: "astar", options: {} };
  const shown = view();
  const explained = frontierIndexOf({ timeline, run, view: shown });
  const predicted = frontierIndexOf({ timeline, run, view: shown, cellsWillDo: true });
  assert.ok(explained.index);
  assert.deepEqual(explained.index.at(3, 5).rows.map((row) => row.cell), [1], "after state 0's expansion: state 1 waits");
  assert.equal(predicted.index, explained.index);
  assert.equal(frontierIndexOf({ timeline, run: { ...run }, view: shown }).index === explained.index, false, "another run");
  timeline.reset();
  assert.notEqual(frontierIndexOf({ timeline, run, view: shown }).index, explained.index);
});

test("the refusals: no queue, stack or heap; a trace of cells; a trace too long", () => {
  const timeline = timelineOf(4);
  assert.deepEqual(frontierIndexOf({ timeline, run: { algorithm: "idastar" }, view: view() }), { index: null, why: "" });
  const cells = frontierIndexOf({ timeline, run: { algorithm: "astar" }, view: view(false), cellsWillDo: true });
  assert.equal(cells.index, null);
  assert.match(cells.why, /names a state only by its cell/);
  assert.equal(frontierIndexOf({ timeline, run: { algorithm: "bfs" }, view: view(false) }).index, null, "a list names states");
  assert.ok(frontierIndexOf({ timeline, run: { algorithm: "bfs" }, view: view(false), cellsWillDo: true }).index, "clicks name cells");
  const long = { length: 3_000_001, generation: 0 };
  const refused = frontierIndexOf({ timeline: long, run: { algorithm: "bfs" }, view: view() });
  assert.equal(refused.index, null);
  assert.equal(refused.why, "The frontier is rebuilt for traces of up to 3,000,000 steps; this one has 3,000,001.");
});

test("over the trace's state numbers (FamilyView.stateIds): states that share a cell are told apart", () => {
  // Two states on cell 5 (a sliding board's blank, say), numbered 1 and 2, with h 3 and 1; the start 0.
  const timeline = new Timeline(16);
  const kinds = Uint8Array.from([KIND.OPEN, KIND.CLOSE, KIND.OPEN, KIND.OPEN, KIND.CLOSE]);
  const cells = Int32Array.from([0, 0, 5, 5, 5]);
  const values = Float32Array.from([0, 0, 1, 1, 1]);
  const bytes = (a) => new Uint8Array(a.buffer);
  timeline.addFrame(0, kinds, bytes(cells), bytes(values));
  const ids = { data: Int32Array.from([0, 0, 1, 2, 2]), length: 5 };
  const h = [4, 3, 1];
  const named = { tracedStates: true, heuristicOf: (id) => h[id], stepCost: () => 1, stateIds: () => ids };
  const { index } = frontierIndexOf({ timeline, run: { algorithm: "astar", options: {} }, view: named });
  assert.ok(index);
  const { rows, exact } = index.at(4, 5);
  assert.deepEqual(rows.map((row) => [row.cell, row.f, row.h]), [[2, 2, 1], [1, 4, 3]], "by f, then h: state 2 first");
  assert.equal(exact, true, "the trace's expansion of state 2 agrees");
  // A record the server could not number (-1: past its cap) ends the rebuild there.
  const capped = { data: Int32Array.from([0, 0, 1, -1, 2]), length: 5 };
  const cut = frontierIndexOf({ timeline, run: { algorithm: "bfs" }, view: { ...named, stateIds: () => capped } }).index;
  cut.at(5, 5);
  assert.equal(cut.unnamed, 3);
});
