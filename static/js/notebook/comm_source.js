// @ts-check
// The widget's RunSource (../live.js): a Stage's runs over an anywidget model's comm instead of the
// page's socket. The messages are the socket's (docs/PROTOCOL.md) wrapped in `{type}`: out go
// run_start, run_ack (every frame, as the socket does) and run_cancel; in come run_reply (the
// socket's answer to run_start) and `event` (run_status, run_frame, run_done, run_error), whose
// bytes the kernel sent as the message's buffers with `{"$buffer": i}` in their place.

import { lang, t } from "../i18n.js";
import { asBytes, frameRecords, newRunId } from "../live.js";

const START_TIMEOUT_MS = 15000; // as the socket waits for run_start's answer

/**
 * `value` with every `{"$buffer": i}` replaced by the bytes of `buffers[i]` (a Uint8Array: a view,
 * as asBytes takes it; anywidget hands buffers over as DataView or ArrayBuffer).
 * @param {any} value
 * @param {ArrayLike<any>} buffers
 * @returns {any}
 */
export function restoreBuffers(value, buffers) {
  if (Array.isArray(value)) return value.map((item) => restoreBuffers(item, buffers));
  if (value && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$buffer" && Number.isInteger(value.$buffer)) return asBytes(buffers?.[value.$buffer]);
    return Object.fromEntries(keys.map((key) => [key, restoreBuffers(value[key], buffers)]));
  }
  return value;
}

/**
 * @typedef {object} WidgetModel  what the widget uses of anywidget's model
 * @property {(name: string) => any} get
 * @property {(content: any, callbacks?: any, buffers?: any[]) => void} send
 * @property {(event: string, handler: (...args: any[]) => void) => void} on
 * @property {(event: string, handler: (...args: any[]) => void) => void} off
 */

/** @typedef {import("../live.js").RunSource} RunSource */

/** A RunSource over the widget's comm. @implements {RunSource} */
export class CommSource {
  /** @param {WidgetModel} model */
  constructor(model) {
    this.model = model;
    // This view's own slots: a widget shown twice (two outputs of one model) shares the kernel's connection,
    // where one view's run in slot "main" would otherwise replace the other's.
    this.view = Math.random().toString(36).slice(2, 10);
    /** @type {Map<string, import("../live.js").RunHandlers & {slot: string, timer?: any}>} run id -> handlers */
    this.runs = new Map();
    this.listener = (content, buffers) => this.received(content, buffers || []);
    model.on("msg:custom", this.listener);
  }

  /** Stop listening (the widget's view is gone): every run is cancelled. */
  dispose() {
    this.model.off("msg:custom", this.listener);
    for (const run of [...this.runs.keys()]) this.cancel(run);
  }

  /** @param {any} content @param {ArrayLike<any>} buffers */
  received(content, buffers) {
    if (!content || typeof content !== "object") return;
    if (content.type === "run_reply") this.replied(content);
    else if (content.type === "event") this.event(String(content.event), restoreBuffers(content.payload ?? {}, buffers));
  }

  /** The answer to run_start: a refusal ends the run in words. @param {any} reply */
  replied(reply) {
    const handlers = this.runs.get(reply.run);
    if (!handlers) return;
    clearTimeout(handlers.timer);
    if (reply.ok !== true) {
      this.runs.delete(reply.run);
      handlers.onError?.(reply.error || t("api.refused"));
    }
  }

  /** One of the run's events, its bytes back in place. @param {string} name @param {any} msg */
  event(name, msg) {
    const handlers = this.runs.get(msg?.run);
    if (name === "run_status") handlers?.onStatus?.(msg);
    else if (name === "run_frame") {
      try {
        handlers?.onFrame?.(frameRecords(msg), msg);
      } finally {
        // Always, even for a run we no longer follow, so the kernel never waits on us.
        this.model.send({ type: "run_ack", run: msg?.run, seq: msg?.seq });
      }
    } else if (name === "run_done" || name === "run_error") {
      if (!handlers) return;
      clearTimeout(handlers.timer);
      this.runs.delete(msg.run);
      if (name === "run_done") handlers.onDone?.(msg);
      else handlers.onError?.(msg.error || t("api.search_failed"));
    }
  }

  /**
   * Start a run (as Live.start): a run of the same slot is forgotten (the kernel cancels it).
   * @param {{puzzle: string, algorithm: string, options: object, slot?: string, instant?: boolean}} args
   * @param {import("../live.js").RunHandlers} handlers
   * @returns {string}
   */
  start({ puzzle, algorithm, options, slot = "main", instant = false }, handlers) {
    const run = newRunId();
    for (const [id, h] of this.runs) {
      if (h.slot === slot) {
        clearTimeout(h.timer);
        this.runs.delete(id);
      }
    }
    const entry = { ...handlers, slot, timer: 0 };
    entry.timer = setTimeout(() => {
      if (this.runs.get(run) !== entry) return;
      this.runs.delete(run);
      entry.onError?.(t("api.no_answer"));
    }, START_TIMEOUT_MS);
    this.runs.set(run, entry);
    /** @type {Record<string, any>} */
    const message = { type: "run_start", run, slot: `${this.view}:${slot}`, puzzle, algorithm, options, lang: lang() };
    if (instant) message.instant = true;
    this.model.send(message);
    return run;
  }

  /** @param {string} run */
  cancel(run) {
    if (!run) return;
    clearTimeout(this.runs.get(run)?.timer);
    this.runs.delete(run);
    this.model.send({ type: "run_cancel", run });
  }
}
