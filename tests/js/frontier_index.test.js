// Unit tests of the one frontier index explain mode and Predict share (static/js/explain/frontier.js
// frontierIndexOf), run by Node's own test runner (tests/test_js_units.py): one index per run and
// trace whoever asks, a new one for a new trace, and the refusals in one place.

import assert from "node:assert/strict";
import { test } from "node:test";

const { frontierIndexOf } = await import("../../static/js/explain/frontier.js");
const { KIND, Timeline } = await import("../../static/js/timeline.js");

const view = (tracedStates = true) => ({ tracedStates, heuristicOf: () => 0, stepCost: () => null });

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
