// The Socket.IO connection: starts and cancels runs and routes each run's events to its handlers.
// Every run_frame is acknowledged with a `run_ack` event (the server keeps only a small window of
// frames in flight; docs/PROTOCOL.md).
//
// `Live` is the page's RunSource: where a Stage's run events come from. The widget in a notebook has
// another one over its comm (./notebook/comm_source.js); a Stage knows only this interface.

import { lang, t } from "./i18n.js";

/** Bytes fields arrive as ArrayBuffer or a typed-array view, depending on the parser: normalise. */
export function asBytes(field) {
  if (field instanceof ArrayBuffer) return new Uint8Array(field);
  if (ArrayBuffer.isView(field)) return new Uint8Array(field.buffer, field.byteOffset, field.byteLength);
  return new Uint8Array(0);
}

/**
 * @typedef {object} RunHandlers  what a run's events are handed to
 * @property {(msg: any) => void} [onStatus]   run_status as the server sent it
 * @property {(records: {seq: number, start: number, kinds: Uint8Array, cells: Uint8Array, values: Uint8Array}, msg: any) => void} [onFrame]
 *   a run_frame's records (bytes normalised by asBytes) and the raw message (what a family adds: snapshots)
 * @property {(msg: any) => void} [onDone]     run_done (the result)
 * @property {(error: string) => void} [onError]  run_error, or the start refused: a sentence for people
 */

/**
 * @typedef {object} RunSource  where a Stage's runs come from: the socket in the page (Live), the
 *   widget's comm in a notebook (./notebook/comm_source.js CommSource). Each acknowledges every
 *   frame (run_ack) and cancels a run of the same slot when a new one starts there.
 * @property {(args: {puzzle: string, algorithm: string, options: object, slot?: string, instant?: boolean},
 *   handlers: RunHandlers) => string} start  start a run; returns its id
 * @property {(run: string) => void} cancel  stop following a run and ask the server to stop it
 */

let counter = 0;
/** A new run id (unique in this page). */
export const newRunId = () => `r${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A run_frame's records, normalised (the raw message goes beside it to onFrame). @param {any} msg */
export const frameRecords = (msg) => ({
  seq: msg.seq,
  start: msg.start,
  kinds: asBytes(msg.kinds),
  cells: asBytes(msg.cells),
  values: asBytes(msg.values),
});

/** The page's RunSource: the Socket.IO connection. @implements {RunSource} */
export class Live {
  /** @param {{onConnection?: (connected: boolean) => void}} hooks */
  constructor(hooks = {}) {
    // `io` is the global from /static/vendor/socket.io.msgpack.min.js.
    this.socket = window.io({ transports: ["websocket"] });
    this.runs = new Map(); // run id -> handlers
    const { onConnection = () => {} } = hooks;
    this.socket.on("connect", () => onConnection(true));
    this.socket.on("disconnect", () => onConnection(false));
    this.socket.on("connect_error", () => onConnection(false));

    this.socket.on("run_status", (msg) => this.runs.get(msg?.run)?.onStatus?.(msg));
    this.socket.on("run_frame", (msg, ack) => {
      try {
        const handlers = this.runs.get(msg?.run);
        if (handlers?.onFrame) {
          // The records, normalised; the raw message too, for what a family adds (snapshots).
          handlers.onFrame(frameRecords(msg), msg);
        }
      } finally {
        // Always, even for a run we no longer follow, so the server never waits on us.
        this.socket.emit("run_ack", { run: msg?.run, seq: msg?.seq });
        if (typeof ack === "function") ack(true); // harmless if the server also asked for a callback
      }
    });
    this.socket.on("run_done", (msg) => {
      const handlers = this.runs.get(msg?.run);
      this.runs.delete(msg?.run);
      handlers?.onDone?.(msg);
    });
    this.socket.on("run_error", (msg) => {
      const handlers = this.runs.get(msg?.run);
      this.runs.delete(msg?.run);
      handlers?.onError?.(msg.error || t("api.search_failed"));
    });
  }

  /**
   * Start a run; returns its id. handlers: onStatus, onFrame(records, rawMessage), onDone,
   * onError (plain message).
   * Starting a run in a slot makes the server cancel our previous run in that slot.
   */
  start({ puzzle, algorithm, options, slot = "main", instant = false }, handlers) {
    const run = newRunId();
    for (const [id, h] of this.runs) if (h.slot === slot) this.runs.delete(id);
    this.runs.set(run, { ...handlers, slot });
    if (!this.socket.connected && !this.socket.active) this.socket.connect();
    // `lang`: the server writes the run's messages (status, verdict, errors) in the page's language.
    const message = { run, slot, puzzle, algorithm, options, lang: lang() };
    if (instant) message.instant = true; // the editor's re-solve: counted apart from runs (docs/PROTOCOL.md)
    this.socket.timeout(15000).emit("run_start", message, (err, reply) => {
      const h = this.runs.get(run);
      if (!h) return;
      if (err) {
        this.runs.delete(run);
        h.onError?.(t("api.no_answer"));
      } else if (!reply || reply.ok !== true) {
        this.runs.delete(run);
        h.onError?.((reply && reply.error) || t("api.refused"));
      }
    });
    return run;
  }

  cancel(run) {
    if (!run) return;
    this.runs.delete(run);
    this.socket.emit("run_cancel", { run });
  }
}
