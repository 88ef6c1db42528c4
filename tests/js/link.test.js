// Unit tests of the link format the page's address and its share links share (static/js/share/link.js),
// run by Node's own test runner (tests/test_js_units.py): what the page writes it reads back, the
// comparison and the drawer included, and a bad page parameter is refused naming it.

import assert from "node:assert/strict";
import { test } from "node:test";

const { LinkError, readLink, shareUrl } = await import("../../static/js/share/link.js");

const BASE = { origin: "http://localhost:5000", pathname: "/" };
const GALLERY = { galleryName: "seed-lee-example", id: "abc" };
const UPLOAD = { galleryName: null, id: "0123456789abcdef0123" };

test("a link names the gallery puzzle, the choices and the step, and reads back", () => {
  const url = shareUrl({ puzzle: GALLERY, algorithm: "astar", options: { heuristic: "octile", start: [3, 1], goal: null }, at: 120 }, BASE);
  assert.equal(url, "http://localhost:5000/?gallery=seed-lee-example&algorithm=astar&heuristic=octile&start=3,1&at=120");
  const link = readLink(new URL(url).search);
  assert.deepEqual([link.gallery, link.puzzle, link.at, link.exercise, link.compare, link.drawer], ["seed-lee-example", null, 120, false, false, null]);
  assert.equal(link.rest.toString(), "algorithm=astar&heuristic=octile&start=3%2C1");
});

test("the comparison and the drawer are page parameters; the comparison has no step and no drawer", () => {
  const compared = shareUrl({ puzzle: UPLOAD, algorithm: "bfs", at: 40, compare: true, drawer: "lab" }, BASE);
  assert.equal(compared, `http://localhost:5000/?puzzle=${UPLOAD.id}&algorithm=bfs&compare=1`);
  const link = readLink(new URL(compared).search);
  assert.equal(link.compare, true);
  assert.equal(link.puzzle, UPLOAD.id);
  assert.equal(link.rest.toString(), "algorithm=bfs"); // the server sees only the run's choices
  const panels = shareUrl({ puzzle: GALLERY, algorithm: "bfs", compare: true, panels: ["bfs", "astar", "dfs"] }, BASE);
  assert.equal(panels, "http://localhost:5000/?gallery=seed-lee-example&algorithm=bfs&compare=1&panels=bfs,astar,dfs");
  assert.deepEqual(readLink(new URL(panels).search).panels, ["bfs", "astar", "dfs"]);
  assert.equal(readLink(new URL(panels).search).rest.toString(), "algorithm=bfs");
  const explained = readLink(new URL(shareUrl({ puzzle: GALLERY, algorithm: "bfs", at: 3, drawer: "explain" }, BASE)).search);
  assert.deepEqual([explained.drawer, explained.at, explained.compare], ["explain", 3, false]);
});

test("a link may carry the page's language: no option, and alone it is no link", () => {
  const url = shareUrl({ puzzle: GALLERY, algorithm: "bfs", lang: "de" }, BASE);
  assert.equal(url, "http://localhost:5000/?gallery=seed-lee-example&algorithm=bfs&lang=de");
  assert.equal(readLink(new URL(url).search).rest.toString(), "algorithm=bfs");
  assert.equal(readLink("?lang=de"), null);
});

test("an old share link still reads: exercise=1 without compare or drawer", () => {
  const link = readLink("?gallery=seed-lee-example&algorithm=astar&exercise=1");
  assert.deepEqual([link.exercise, link.compare, link.drawer, link.at], [true, false, null, null]);
});

test("a bad page parameter is refused naming it", () => {
  for (const [search, name] of [["?gallery=x&compare=yes", "compare"], ["?gallery=x&drawer=predict", "drawer"],
    ["?gallery=x&at=soon", "at"], ["?gallery=x&compare=1&panels=bfs", "panels"], ["?gallery=x&panels=a,b,c,d,e", "panels"], ["?algorithm=bfs", "gallery"], ["?gallery=x&puzzle=y", "puzzle"]]) {
    assert.throws(() => readLink(search), (err) => err instanceof LinkError && err.parameter === name, search);
  }
  assert.equal(readLink(""), null);
});
