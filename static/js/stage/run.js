// @ts-check
// One search on a Stage and its state machine:
//
//   idle → starting → searching → streaming → done
//                  ↘      ↘           ↘
//                   error | cancelled (from any state before done)
//
// "starting": sent, not yet acknowledged or queued for a worker; "searching": the server computes;
// "streaming": records are arriving (the result may already be known: `computed`); "done": every
// record is here, not merely computed. An instant run (the editor's re-solve) goes through the same
// states off-screen; the Stage shows it only once it is done.

/** @typedef {"idle" | "starting" | "searching" | "streaming" | "done" | "error" | "cancelled"} RunState */

/** @type {Record<RunState, RunState[]>} the states each state may go to */
const NEXT = {
  idle: ["starting", "cancelled"],
  starting: ["starting", "searching", "streaming", "done", "error", "cancelled"],
  searching: ["searching", "streaming", "done", "error", "cancelled"],
  streaming: ["streaming", "done", "error", "cancelled"],
  done: [],
  error: [],
  cancelled: [],
};
const ENDED = new Set(["done", "error", "cancelled"]);

export class Run {
  /**
   * @param {{algorithm: string, options: object, text?: string, signature?: string, slot?: string,
   *          instant?: boolean}} args
   *   text: the run in words ("A* · manhattan heuristic, weight 1"); signature: the choices it was
   *   made from (a changed choice marks the run shown as the previous one); slot: the socket slot.
   */
  constructor({ algorithm, options, text = "", signature = "", slot = "main", instant = false }) {
    /** @type {string | null} */
    this.id = null;
    this.algorithm = algorithm;
    this.options = options;
    this.text = text;
    this.signature = signature;
    this.slot = slot;
    this.instant = instant;
    /** @type {RunState} */
    this.state = "idle";
    this.message = ""; // the server's words on the state ("waiting for a worker…")
    this.expandedSoFar = 0; // while searching: the states the server has expanded so far
    this.recordsSent = 0; // while streaming: the records the server has sent so far (of `total`)
    /** @type {number | null} */
    this.total = null; // records to stream, once known
    /** @type {any} */
    this.result = null; // run_done's result: the search is computed
    /** @type {number | null} */
    this.records = null; // records in the whole trace, from run_done
    /** @type {any} run_done's `tiles` (a huge board: no records, tiles of any step), or null */
    this.tiles = null;
    /** @type {string | null} */
    this.error = null;
    /** @type {Array<[any, any]> | null} an instant run's frames until it is shown */
    this.buffered = instant ? [] : null;
  }

  /** Done, failed or cancelled: nothing more will arrive. */
  get finished() {
    return ENDED.has(this.state);
  }

  get cancelled() {
    return this.state === "cancelled";
  }

  /** The result is known (the trace may still be arriving). */
  get computed() {
    return this.result !== null;
  }

  /**
   * Move to `state`; false (and no change) when the machine does not allow it (e.g. a late status
   * after the run was cancelled).
   * @param {RunState} state
   * @returns {boolean}
   */
  to(state) {
    if (!NEXT[this.state].includes(state)) return false;
    this.state = state;
    return true;
  }
}
