// @ts-check
// The board's live region: one polite status element (role=status, aria-live=polite), made here and
// visually hidden, through which the board speaks to a screen reader — what the step at the playhead
// did, the run's verdict, the cell under the keyboard's cursor (./board_access.js says what and when).
// Repeating the same words is made audible by a zero-width change; `throttle` keeps a playing run
// from flooding the reader (at most one sentence every `gap` ms, the latest one wins).

import { el } from "../dom.js";

const GAP_MS = 3000; // while playing: at most one announcement every three seconds

export class LiveRegion {
  /** @param {{host: HTMLElement, id?: string, gap?: number}} args  host: where the element goes */
  constructor({ host, id = "board-live", gap = GAP_MS }) {
    this.gap = gap;
    this.node = el("div", {
      id, class: "board-sr-only", role: "status", "aria-live": "polite", "aria-atomic": "true", testid: "board-live",
    });
    host.append(this.node);
    this.last = 0; // performance.now() of the last sentence said
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** @type {(() => string) | null} the sentence waiting for the throttle */
    this.waiting = null;
    this.flip = false;
  }

  /** The words the region holds now (tests read them on data-testid=board-live). */
  get text() {
    return (this.node.textContent || "").replace(/\u200b/g, "");
  }

  /**
   * Say `text` now (stepping, the cursor, a verdict): anything waiting for the throttle is dropped.
   * @param {string} text
   */
  say(text) {
    this.cancel();
    if (!text) return;
    // The same words again (the cursor back on a wall): a reader announces only a change.
    this.flip = text === this.text ? !this.flip : false;
    this.node.textContent = this.flip ? `${text}\u200b` : text;
    this.last = performance.now();
  }

  /**
   * Say what `make()` words, at most once every `gap` ms (a playing run): the latest waits for its
   * turn and is worded when it is said.
   * @param {() => string} make
   */
  throttle(make) {
    this.waiting = make;
    if (this.timer !== null) return;
    const wait = Math.max(0, this.last + this.gap - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      const next = this.waiting;
      this.waiting = null;
      if (next) this.say(next());
    }, wait);
  }

  /** Drop a sentence waiting for the throttle. */
  cancel() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
  }
}
