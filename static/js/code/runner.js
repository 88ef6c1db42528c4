// @ts-check
// The Python worker's life for "Your code" (./code_panel.js): Pyodide in a module Web Worker
// (./worker.js, its messages in docs/PROTOCOL.md "Student mode"). A worker starts loading Python at
// once, so it is warm by the next Run. A program's time limit counts from the worker's `ready` (a
// run posted while Python is still starting waits for it); when the limit passes, or at Stop, the
// worker is terminated (the page never waits on Python) and a fresh one starts loading at once.
// What the program prints streams out, the first 64 KB.
//
//   const runner = new PythonRunner({ onStatus, onPython, onOutput });
//   runner.start();                                   // Python starts loading (once)
//   const outcome = await runner.run(code, space, steps, limitSeconds);
//   runner.stop();                                    // the running program, terminated
//   runner.ready                                      // Python has started in this worker

import { fmt, lang, t } from "../i18n.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const MAX_OUTPUT_CHARS = 64 * 1024; // the worker sends at most this much; the page keeps no more
/** The status while Python starts. */
export const LOADING = "code.loading_python"; // a catalog key
// A run posted while Python is still starting: its limit counts from Python's "ready", or, from a
// worker that never says so, this much later (starting takes seconds, not minutes).
const START_ALLOWANCE_S = 60;

/**
 * How a run ended: the worker's `done` message, the time limit, Stop, or no Python to run it.
 * @typedef {{kind: "done", msg: any} | {kind: "timeout", limit: number} | {kind: "stopped"}
 *   | {kind: "failed", key: string, params?: Record<string, any>}} RunOutcome
 */

/**
 * @typedef {object} RunnerCalls
 * @property {(key: string, params: Record<string, any>, tone: string) => void} onStatus  the status line's
 *   catalog key and params: a run's
 *   progress ("busy"), or why Python cannot run ("bad")
 * @property {(state: "loading" | "ready", idle: boolean) => void} onPython  Python's state in the
 *   worker; `idle`: its loading or ready message came with no program waiting (the panel may say so)
 * @property {(text: string) => void} onOutput  what the running program printed (a part of it)
 */

/** The worker's own messages (./worker.js), in the page's language. */
function workerWords() {
  const keys = ["start_failed", "network_left", "crashed", "crashed_stack", "repeated", "stack_head"];
  return Object.fromEntries(keys.map((key) => [key, t(`code.worker.${key}`)]));
}

/** The messages of the Python harness (./harness.py) for the student, in the page's language; the
 *  harness keeps its English ones when a key is missing. */
export const HARNESS_KEYS = ["walked_only", "heuristic_note", "not_a_state_list", "not_reached", "not_a_state",
  "beyond", "successors_unreached", "step_limit", "cost_not_a_move", "expected_path", "returned_single",
  "returned_other", "path_not_a_state", "path_empty", "path_wrong_start", "path_beyond", "path_not_a_move",
  "output_cut", "more_frames", "note", "no_search", "search_is", "define_search", "a_tuple"];

function harnessWords() {
  return Object.fromEntries([["lang", lang()], ...HARNESS_KEYS.map((key) => [key, t(`code.harness.${key}`)])]);
}

export class PythonRunner {
  /** @param {RunnerCalls} calls */
  constructor({ onStatus, onPython, onOutput }) {
    this.onStatus = onStatus;
    this.onPython = onPython;
    this.onOutput = onOutput;
    /** @type {Worker | null} */
    this.worker = null;
    this.workerReady = false; // Python has started in this worker (it said so, or it ran a program)
    /** @type {{resolve: (outcome: RunOutcome) => void, worker: Worker, timer: number, tick: number, started: number, limit: number} | null} */
    this.pending = null; // the program running now
    this.printed = 0; // characters of output passed on in this run
  }

  /** Python has started in the present worker. */
  get ready() {
    return this.workerReady;
  }

  /** Python starts loading in a worker, unless one is there already. */
  start() {
    if (!this.worker) this.startWorker();
  }

  /**
   * Run the program in the worker; resolves with {kind: "done", msg} (the worker's `done`),
   * {kind: "timeout", limit}, {kind: "stopped"} or {kind: "failed", message}.
   * @param {string} code @param {any} space @param {number} steps @param {number} limit seconds
   * @returns {Promise<RunOutcome>}
   */
  run(code, space, steps, limit) {
    this.printed = 0;
    const worker = this.worker || this.startWorker();
    if (!worker) return Promise.resolve({ kind: "failed", key: "code.no_python" });
    return new Promise((resolve) => {
      const pending = { resolve, worker, timer: 0, tick: 0, started: performance.now(), limit };
      pending.tick = window.setInterval(() => {
        if (!this.workerReady) {
          this.onStatus(LOADING, {}, "busy");
          return;
        }
        const s = (performance.now() - pending.started) / 1000;
        this.onStatus("code.running_s", { s: fmt(s, 1), limit }, "busy");
      }, 200);
      this.pending = pending;
      this.arm(pending, this.workerReady ? limit : limit + START_ALLOWANCE_S);
      worker.postMessage({ type: "run", code, space, steps, words: workerWords(), harness: harnessWords() });
    });
  }

  /** Stop the running program, if any (its run resolves as stopped; a fresh Python starts loading). */
  stop() {
    if (this.pending) this.finish({ kind: "stopped" });
  }

  /** A fresh worker (Pyodide starts loading in it at once, so it is warm by the next Run). */
  startWorker() {
    let worker;
    try {
      worker = new Worker(WORKER_URL, { type: "module", name: "your-code" });
    } catch (err) {
      console.warn(err);
      this.onStatus("code.no_module_workers", {}, "bad");
      return null;
    }
    this.worker = worker;
    this.workerReady = false;
    worker.addEventListener("message", (event) => this.fromWorker(worker, event.data));
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.workerFailed(worker, event.message || t("code.worker_error"));
    });
    worker.addEventListener("messageerror", () => this.workerFailed(worker, t("code.worker_message")));
    return worker;
  }

  /** Terminate a worker (an endless program, Stop): the next Run gets a fresh Python. */
  dropWorker() {
    this.worker?.terminate();
    this.worker = null;
    this.workerReady = false;
  }

  workerFailed(worker, why) {
    if (worker !== this.worker) return;
    this.dropWorker();
    const params = { why };
    if (this.pending?.worker === worker) this.finish({ kind: "failed", key: "code.python_failed", params });
    else this.onStatus("code.python_failed", params, "bad");
  }

  fromWorker(worker, msg) {
    if (worker !== this.worker || !msg || typeof msg !== "object") return;
    const pending = this.pending?.worker === worker ? this.pending : null;
    switch (msg.type) {
      case "loading":
        // Python starts (again, after a crash of it): a run waiting meanwhile gets its time from "ready".
        this.workerReady = false;
        if (pending) this.arm(pending, pending.limit + START_ALLOWANCE_S);
        this.onPython("loading", !pending);
        break;
      case "ready":
        this.workerReady = true;
        if (pending) this.arm(pending, pending.limit); // the program starts now: its time counts from here
        this.onPython("ready", !pending);
        break;
      case "output":
        if (pending) this.print(String(msg.text ?? ""));
        break;
      case "done":
        this.workerReady = true;
        this.onPython("ready", false);
        if (pending) this.finish({ kind: "done", msg });
        break;
      default:
        break;
    }
  }

  /** Pass on what the program printed, up to 64 KB in a run (then one line says the rest was cut). */
  print(text) {
    if (this.printed >= MAX_OUTPUT_CHARS) return;
    const room = MAX_OUTPUT_CHARS - this.printed;
    const part = text.length > room ? `${text.slice(0, room)}\n${t("code.output_cut")}` : text;
    this.printed += part.length;
    this.onOutput(part);
  }

  /** The running program's time limit, from now. */
  arm(pending, limitSeconds) {
    window.clearTimeout(pending.timer);
    pending.started = performance.now();
    pending.timer = window.setTimeout(() => this.finish({ kind: "timeout", limit: pending.limit }), limitSeconds * 1000);
  }

  /** The program ended (or was ended): resolve its run once. @param {RunOutcome} outcome */
  finish(outcome) {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    window.clearTimeout(pending.timer);
    window.clearInterval(pending.tick);
    if (outcome.kind === "timeout" || outcome.kind === "stopped") {
      if (pending.worker === this.worker) this.dropWorker();
      this.startWorker(); // a fresh Python, loading while the student reads the message
    }
    pending.resolve(outcome);
  }
}
