// @ts-check
// What the page publishes for its tests and benchmarks on <body data-*>: the puzzle shown
// (puzzleId), the editor's state (edits: "pending" | "idle"), and for each instant re-solve the time
// from the change to the path drawn (resolveMs), the server's search time (resolveSearchMs) and a
// count (resolved). Nothing in the page reads them.

/** @param {string} name @param {string} value */
export function probe(name, value) {
  document.body.dataset[name] = value;
}

/**
 * A re-solve took the board: measured after the next paint, from `since` (the change not yet
 * re-solved, or the re-solve's start).
 * @param {number} since performance.now() of the change
 * @param {number} searchSeconds the server's search time
 */
export function resolvedProbe(since, searchSeconds) {
  requestAnimationFrame(() => {
    const body = document.body.dataset;
    body.resolveMs = String(Math.round(performance.now() - since));
    body.resolveSearchMs = String(Math.round(searchSeconds * 1000 || 0));
    body.resolved = String(Number(body.resolved || 0) + 1);
  });
}
