// @ts-check
// "Your code" (docs/STUDENT.md): a student's `def search(problem):` in Python, run in this browser by
// Pyodide in a Web Worker (./worker.js, docs/PROTOCOL.md "Student mode"), judged by the server and
// animated on the board like any run.
//
// The editor is a <textarea> (monospace, Tab indents by four spaces, Enter keeps the indentation,
// line numbers beside it, its text kept in localStorage); Template loads a skeleton from
// ./templates/<name>.py; Open .py reads a file. Run: the puzzle's reachable states and moves
// (POST /api/puzzles/<id>/code/space, cached per puzzle and options) go to the worker with the code;
// what the program prints is shown as it comes; a timer terminates the worker after the chosen limit
// (the page never waits on Python) and a fresh one is made at once for the next run. At `done` the
// expansions and the path go to POST …/code/verdict with the algorithm chosen in the page's menu;
// the verdict is shown, and the run is played on the board as the hidden algorithm `code` (its run
// option `code` replays the student's expansions), so the figures, explain mode and the comparison
// show it like any run.

import * as api from "../api.js";
import { el } from "../dom.js";
import { number, seconds, withCommas } from "../format.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const TEMPLATE_URL = (name) => new URL(`./templates/${name}.py`, import.meta.url);
const TEMPLATES = [
  ["bfs", "Breadth-first (BFS)"],
  ["dfs", "Depth-first (DFS)"],
  ["ucs", "Uniform cost (Dijkstra)"],
  ["astar", "A*"],
  ["idastar", "IDA*"],
];
const LIMITS = [5, 15, 60]; // seconds a program may run
const STEPS = 150_000; // calls of successors (docs/STUDENT.md "Limits")
const MAX_FILE_BYTES = 256 * 1024;
const MAX_OUTPUT_CHARS = 64 * 1024; // the worker sends at most this much; the page keeps no more
const SPACES_KEPT = 4; // spaces cached (a large one is megabytes)
const INDENT = "    ";
const STORE = { source: "code.source", limit: "code.limit" }; // localStorage keys
const SAVE_AFTER_MS = 400;
const LOADING = "Loading Python (first time: a few seconds)…";
const KEYS_HINT = "Ctrl+Enter runs. Tab indents (Shift+Tab: back); Esc, then Tab, leaves the editor.";
// A run posted while Python is still starting: its limit counts from Python's "ready", or, from a
// worker that never says so, this much later (starting takes seconds, not minutes).
const START_ALLOWANCE_S = 60;
export const CODE_LABEL = "Your code";
// The verdict's tone: matches green, differs amber, illegal and no path red.
const TONES = { matches: "good", differs: "warn", stopped: "warn", illegal: "bad", "no path": "bad" };

/** A state in its student form (JSON) as Python writes it: lists as tuples, strings quoted. */
export function pyRepr(value) {
  if (Array.isArray(value)) return value.length === 1 ? `(${pyRepr(value[0])},)` : `(${value.map(pyRepr).join(", ")})`;
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  return String(value);
}

const storage = {
  get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); } catch { /* private mode, or full: the text stays in the page */ }
  },
};

export class CodePanel {
  /** @param {{root: HTMLElement, page: import("./code_tab.js").CodePage}} args */
  constructor({ root, page }) {
    this.root = root;
    this.page = page;
    this.info = null;
    this.open = false;
    /** @type {Worker | null} */
    this.worker = null;
    this.workerReady = false; // Python has started in this worker (it said so, or it ran a program)
    /** @type {{resolve: (outcome: any) => void, worker: Worker, timer: number, tick: number, started: number, limit: number} | null} */
    this.pending = null; // the program running now
    this.asked = 0; // numbered runs: what an older one answers is dropped
    this.running = false;
    /** @type {Map<string, any>} puzzle id + options -> its space (the newest last) */
    this.spaces = new Map();
    /** @type {Map<string, {code: string, label: string, options: object}>} puzzle id -> the latest run of
     *  the code on it, with the options its space was walked under (its ids number that space's states) */
    this.runs = new Map();
    this.output = "";
    this.errorLine = 0;
    this.lineCount = 0;
    this.saveTimer = 0;
    this.ended = 0; // runs ended (tests wait for the count to change)
    this.escaped = false; // Esc was pressed: the next Tab leaves the editor
    this.build();
    this.restore();
  }

  // ---- markup ------------------------------------------------------------------------------------

  build() {
    this.template = /** @type {HTMLSelectElement} */ (el("select", { class: "code-template", testid: "code-template", "aria-label": "Load a template" },
      new Option("Template…", ""), ...TEMPLATES.map(([name, label]) => new Option(label, name))));
    this.template.addEventListener("change", () => {
      const name = this.template.value;
      this.template.value = "";
      if (name) this.loadTemplate(name);
    });
    this.file = /** @type {HTMLInputElement} */ (el("input", { type: "file", testid: "code-file", accept: ".py,text/x-python,text/plain" }));
    this.file.addEventListener("change", () => {
      const file = this.file.files?.[0];
      if (file) this.readFile(file);
      this.file.value = "";
    });
    this.limit = /** @type {HTMLSelectElement} */ (el("select", { class: "code-limit", testid: "code-limit", "aria-label": "Time limit",
      title: "How long your program may run before it is stopped" },
    ...LIMITS.map((s) => new Option(`limit ${s} s`, String(s)))));
    this.limit.addEventListener("change", () => storage.set(STORE.limit, this.limit.value));

    this.gutter = el("div", { class: "code-lines", "aria-hidden": "true" });
    this.editor = /** @type {HTMLTextAreaElement} */ (el("textarea", {
      class: "code-editor", testid: "code-editor", id: "code-editor", spellcheck: "false", autocomplete: "off",
      autocapitalize: "off", autocorrect: "off", wrap: "off", "data-focus": "", "aria-label": "Your Python code",
      "aria-describedby": "code-keys", placeholder: "def search(problem):\n    ...",
    }));
    this.editor.addEventListener("input", () => this.edited());
    this.editor.addEventListener("scroll", () => { this.gutter.scrollTop = this.editor.scrollTop; });
    this.editor.addEventListener("keydown", (event) => this.key(event));
    this.editor.addEventListener("dragover", (event) => {
      if (!event.dataTransfer?.types.includes("Files")) return;
      event.preventDefault();
      event.stopPropagation();
      this.editor.classList.add("dropping");
    });
    this.editor.addEventListener("dragleave", () => this.editor.classList.remove("dropping"));
    this.editor.addEventListener("drop", (event) => {
      const file = event.dataTransfer?.files?.[0];
      this.editor.classList.remove("dropping");
      if (!file) return; // dropped text goes in as the browser puts it
      event.preventDefault();
      event.stopPropagation();
      this.readFile(file);
    });

    this.runButton = el("button", { type: "button", class: "primary", testid: "code-run", text: "Run ▶",
      title: "Run your search on the puzzle shown (Ctrl+Enter in the code)", on: { click: () => this.run() } });
    this.stopButton = el("button", { type: "button", testid: "code-stop", text: "Stop", hidden: true,
      on: { click: () => this.stop() } });
    this.statusLine = el("p", { class: "code-status", testid: "code-status", role: "status", "aria-live": "polite" });
    this.fileError = el("p", { class: "field-error lab-error", testid: "code-file-error", role: "alert", hidden: true });
    // What a state of the puzzle shown looks like to the student's code (the family's state form).
    this.formLine = el("p", { class: "code-form", testid: "code-state-form" });

    this.outputBox = el("pre", { class: "code-output", testid: "code-output", "aria-label": "What your program printed", tabindex: "0" });
    this.outputWrap = el("div", { class: "code-output-wrap", hidden: true },
      el("h3", { class: "code-h", text: "Output" }), this.outputBox);

    this.verdictBox = el("div", { class: "code-verdict", testid: "code-verdict", "aria-live": "polite" });

    // One row of tools above the code (a laptop's height is for the code and the verdict).
    this.root.append(
      el("div", { class: "code-tools" },
        this.runButton, this.stopButton,
        this.template,
        el("label", { class: "upload-button code-open", title: "Open a Python file (.py) in the editor" }, el("span", { text: "Open .py…" }), this.file),
        this.limit),
      this.fileError,
      this.formLine,
      el("div", { class: "code-box" }, this.gutter, this.editor),
      el("span", { id: "code-keys", hidden: true, text: KEYS_HINT }), // the editor's description (screen readers)
      this.statusLine,
      this.verdictBox,
      this.outputWrap,
    );
  }

  /** The text and the limit this browser kept; else the breadth-first template to start from. */
  restore() {
    const limit = storage.get(STORE.limit);
    if (limit && LIMITS.map(String).includes(limit)) this.limit.value = limit;
    const saved = storage.get(STORE.source);
    if (saved) {
      this.editor.value = saved;
      this.numberLines();
    } else {
      this.numberLines();
      this.fetchTemplate("bfs").then((text) => {
        if (text !== null && !this.editor.value) {
          this.editor.value = text;
          this.numberLines();
        }
      });
    }
  }

  // ---- the drawer's calls ------------------------------------------------------------------------

  /** In sight or not: the first time, Python starts loading in its worker. @param {boolean} shown */
  setOpen(shown) {
    this.open = shown;
    if (!shown) return;
    if (!this.worker) this.startWorker();
    if (!this.running && !this.workerReady && !this.statusLine.textContent) this.status(LOADING, "busy");
    // The drawer focuses the editor when it opens; on the first opening the panel arrived after that.
    if (document.activeElement === document.body && !window.matchMedia("(hover: none), (pointer: coarse)").matches) {
      this.editor.focus({ preventScroll: true });
    }
  }

  /** A puzzle is shown: an old verdict goes (the code stays, to run it on this puzzle too). */
  puzzleShown(info) {
    if (info && this.info && info.id === this.info.id) return;
    this.info = info;
    if (this.running) this.stop(true);
    this.showVerdict(null);
    this.runButton.disabled = !info;
    const form = info ? this.page.stateForm(info) : "";
    this.formLine.textContent = form ? `A state here: ${form}` : "";
    this.formLine.title = form ? `A state of this puzzle, as your code sees it: ${form}. problem.successors(s) gives a list of (state, cost) pairs.` : "";
    this.formLine.hidden = !form;
    this.runButton.title = info ? "Run your search on the puzzle shown (Ctrl+Enter)" : "Open a puzzle first";
  }

  /** The latest run of the code on a puzzle: {code, label}, or null. @param {string} puzzleId */
  codeRun(puzzleId) {
    return this.runs.get(puzzleId) || null;
  }

  // ---- the editor --------------------------------------------------------------------------------

  edited() {
    this.numberLines();
    window.clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => storage.set(STORE.source, this.editor.value), SAVE_AFTER_MS);
  }

  /** The line numbers beside the text (redrawn when the count or the marked line changes). */
  numberLines() {
    let count = 1;
    const text = this.editor.value;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
    if (count === this.lineCount && this.gutter.dataset.error === String(this.errorLine)) return;
    this.lineCount = count;
    this.gutter.dataset.error = String(this.errorLine);
    const lines = [];
    for (let n = 1; n <= count; n++) lines.push(el("span", { class: n === this.errorLine ? "bad" : null, text: String(n) }));
    this.gutter.replaceChildren(...lines);
    this.gutter.style.setProperty("--digits", String(String(count).length)); // CSSOM: allowed by the CSP
    this.gutter.scrollTop = this.editor.scrollTop;
  }

  /** Tab and Shift+Tab indent, Enter keeps the indentation (one more after a colon), Ctrl+Enter runs. */
  key(event) {
    const escaped = this.escaped;
    this.escaped = event.key === "Escape";
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.run();
      return;
    }
    if (event.key === "Tab" && !escaped && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      if (event.shiftKey) this.dedent();
      else this.indent();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      const { value, selectionStart } = this.editor;
      const lineStart = value.lastIndexOf("\n", selectionStart - 1) + 1;
      const line = value.slice(lineStart, selectionStart);
      const indent = /^[ \t]*/.exec(line)[0] + (/:\s*(#.*)?$/.test(line) ? INDENT : "");
      if (!indent) return;
      event.preventDefault();
      this.insert(`\n${indent}`);
    }
  }

  /** Insert text at the cursor as typing would (the browser's undo keeps it). @param {string} text */
  insert(text) {
    const editor = this.editor;
    if (!document.execCommand?.("insertText", false, text)) editor.setRangeText(text, editor.selectionStart, editor.selectionEnd, "end");
    this.edited();
  }

  indent() {
    const { value, selectionStart: start, selectionEnd: end } = this.editor;
    if (start === end || !value.slice(start, end).includes("\n")) {
      const column = start - (value.lastIndexOf("\n", start - 1) + 1);
      this.insert(" ".repeat(INDENT.length - (column % INDENT.length)));
      return;
    }
    this.changeLines((line) => (line ? INDENT + line : line));
  }

  dedent() {
    this.changeLines((line) => line.replace(/^ {1,4}|^\t/, ""));
  }

  /** Apply `change` to each line the selection touches, keeping them selected. @param {(line: string) => string} change */
  changeLines(change) {
    const editor = this.editor;
    const { value, selectionStart: start, selectionEnd: end } = editor;
    const from = value.lastIndexOf("\n", start - 1) + 1;
    const stop = end > start && value[end - 1] === "\n" ? end - 1 : end;
    let to = value.indexOf("\n", stop);
    if (to < 0) to = value.length;
    const old = value.slice(from, to);
    const changed = old.split("\n").map(change).join("\n");
    if (changed === old) return;
    editor.setSelectionRange(from, to);
    this.insert(changed);
    editor.setSelectionRange(from, from + changed.length);
  }

  /** Replace the whole text as an edit (Ctrl+Z brings the old text back). @param {string} text */
  replaceText(text) {
    const editor = this.editor;
    editor.focus({ preventScroll: true });
    editor.select();
    if (!document.execCommand?.("insertText", false, text) || editor.value !== text) editor.value = text;
    editor.setSelectionRange(0, 0);
    editor.scrollTop = 0;
    this.errorLine = 0;
    this.edited();
  }

  /** Put the cursor on a line of the code and bring it into sight. @param {number} line 1-based */
  goToLine(line) {
    const editor = this.editor;
    const lines = editor.value.split("\n");
    const n = Math.max(1, Math.min(line, lines.length));
    let start = 0;
    for (let i = 0; i < n - 1; i++) start += lines[i].length + 1;
    const end = start + lines[n - 1].length;
    editor.focus({ preventScroll: true });
    editor.setSelectionRange(start, end);
    const height = parseFloat(getComputedStyle(editor).lineHeight) || 18;
    editor.scrollTop = Math.max(0, (n - 1) * height - editor.clientHeight / 3);
    this.gutter.scrollTop = editor.scrollTop;
    editor.scrollIntoView({ block: "nearest" });
  }

  async fetchTemplate(name) {
    try {
      const response = await fetch(TEMPLATE_URL(name));
      if (!response.ok) throw new Error(String(response.status));
      return await response.text();
    } catch (err) {
      console.warn(err);
      return null;
    }
  }

  async loadTemplate(name) {
    const label = TEMPLATES.find(([n]) => n === name)?.[1] || name;
    const text = await this.fetchTemplate(name);
    if (text === null) {
      this.sayFile(`The ${label} template could not be loaded from the server.`);
      return;
    }
    this.sayFile("");
    this.replaceText(text);
    this.status(`The ${label} template: fill in its TODOs. Ctrl+Z brings your previous text back.`, "");
  }

  /** A .py file into the editor: text only, at most 256 KB. @param {File} file */
  async readFile(file) {
    if (file.size > MAX_FILE_BYTES) {
      this.sayFile(`${file.name} is ${withCommas(file.size / 1024)} KB: a program is at most ${MAX_FILE_BYTES / 1024} KB here.`);
      return;
    }
    let text;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (bytes.includes(0)) throw new TypeError("binary");
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    } catch {
      this.sayFile(`${file.name} is not a text file: open a Python program (.py).`);
      return;
    }
    this.sayFile("");
    this.replaceText(text);
    this.root.dataset.file = file.name;
    this.status(`Opened ${file.name} (${number(text.split("\n").length)} lines). Ctrl+Z brings your previous text back.`, "");
  }

  sayFile(message) {
    this.fileError.textContent = message;
    this.fileError.hidden = !message;
  }

  // ---- the worker --------------------------------------------------------------------------------

  /** A fresh worker (Pyodide starts loading in it at once, so it is warm by the next Run). */
  startWorker() {
    let worker;
    try {
      worker = new Worker(WORKER_URL, { type: "module", name: "your-code" });
    } catch (err) {
      console.warn(err);
      this.status("This browser cannot run Python here (no module workers).", "bad");
      return null;
    }
    this.worker = worker;
    this.workerReady = false;
    worker.addEventListener("message", (event) => this.fromWorker(worker, event.data));
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.workerFailed(worker, event.message || "it stopped with an error");
    });
    worker.addEventListener("messageerror", () => this.workerFailed(worker, "a message could not be read"));
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
    const message = `Python could not start in this page: ${why}.`;
    if (this.pending?.worker === worker) this.finish({ kind: "failed", message });
    else this.status(message, "bad");
  }

  fromWorker(worker, msg) {
    if (worker !== this.worker || !msg || typeof msg !== "object") return;
    const pending = this.pending?.worker === worker ? this.pending : null;
    switch (msg.type) {
      case "loading":
        // Python starts (again, after a crash of it): a run waiting meanwhile gets its time from "ready".
        this.workerReady = false;
        this.root.dataset.python = "loading";
        if (pending) this.arm(pending, pending.limit + START_ALLOWANCE_S);
        // A fresh worker after a stop loads quietly: the status keeps saying why the last run stopped.
        else if (!this.statusLine.textContent) this.status(LOADING, "busy");
        break;
      case "ready":
        this.workerReady = true;
        if (pending) this.arm(pending, pending.limit); // the program starts now: its time counts from here
        if (!pending && !this.running && this.statusLine.textContent === LOADING) this.status(`Python is ready: press Run. ${KEYS_HINT}`, "");
        this.root.dataset.python = "ready";
        break;
      case "output":
        if (pending) this.print(String(msg.text ?? ""));
        break;
      case "done":
        this.workerReady = true;
        this.root.dataset.python = "ready";
        if (pending) this.finish({ kind: "done", msg });
        break;
      default:
        break;
    }
  }

  print(text) {
    if (this.output.length >= MAX_OUTPUT_CHARS) return;
    const room = MAX_OUTPUT_CHARS - this.output.length;
    const part = text.length > room ? `${text.slice(0, room)}\n… (the rest is not shown: at most 64 KB)` : text;
    this.output += part;
    this.outputBox.append(part); // a text node: never markup
    this.outputWrap.hidden = false;
    this.outputBox.scrollTop = this.outputBox.scrollHeight;
  }

  /**
   * Run the program in the worker; resolves with {kind: "done", msg} (the worker's `done`),
   * {kind: "timeout"}, {kind: "stopped"} or {kind: "failed", message}.
   */
  execute(source, space, limit) {
    const worker = this.worker || this.startWorker();
    if (!worker) return Promise.resolve({ kind: "failed", message: "This browser cannot run Python here." });
    return new Promise((resolve) => {
      const pending = { resolve, worker, timer: 0, tick: 0, started: performance.now(), limit };
      pending.tick = window.setInterval(() => {
        if (!this.workerReady) {
          this.status(LOADING, "busy");
          return;
        }
        const s = (performance.now() - pending.started) / 1000;
        this.status(`Running your program… ${s.toFixed(1)} s of ${limit} s`, "busy");
      }, 200);
      this.pending = pending;
      this.arm(pending, this.workerReady ? limit : limit + START_ALLOWANCE_S);
      worker.postMessage({ type: "run", code: source, space, steps: STEPS });
    });
  }

  /** The running program's time limit, from now. */
  arm(pending, limitSeconds) {
    window.clearTimeout(pending.timer);
    pending.started = performance.now();
    pending.timer = window.setTimeout(() => this.finish({ kind: "timeout", limit: pending.limit }), limitSeconds * 1000);
  }

  /** The program ended (or was ended): resolve its run once. */
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

  // ---- a run -------------------------------------------------------------------------------------

  /** Stop the program (and forget the run). @param {boolean} [quiet] */
  stop(quiet = false) {
    if (!this.running) return;
    this.asked++;
    if (this.pending) this.finish({ kind: "stopped" });
    this.setRunning(false);
    if (!quiet) this.status("Stopped.", "");
  }

  setRunning(on) {
    this.running = on;
    this.runButton.disabled = on || !this.info;
    this.stopButton.hidden = !on;
    if (on) this.root.dataset.running = "1";
    else if (this.root.dataset.running) {
      delete this.root.dataset.running;
      this.root.dataset.ended = String(++this.ended);
    }
  }

  status(text, tone = "") {
    this.statusLine.textContent = text;
    this.statusLine.className = `code-status${tone ? ` ${tone}` : ""}`;
  }

  clearOutput() {
    this.output = "";
    this.outputBox.replaceChildren();
    this.outputWrap.hidden = true;
  }

  /** Run: the space, the program, the verdict, then the run on the board. */
  async run() {
    const info = this.info;
    if (this.running) return;
    if (!info) {
      this.status("Open a puzzle first: Gallery… or Open file….", "bad");
      return;
    }
    const source = this.editor.value;
    if (!source.trim()) {
      this.status("Write your search first (or choose a Template).", "bad");
      this.editor.focus();
      return;
    }
    window.clearTimeout(this.saveTimer);
    storage.set(STORE.source, source);
    const ask = ++this.asked;
    const options = this.page.options();
    const algorithm = this.page.algorithm();
    const limit = Number(this.limit.value) || LIMITS[0];
    this.setRunning(true);
    this.clearOutput();
    this.showVerdict(null);
    this.setErrorLine(0);
    delete this.root.dataset.verdict;
    this.root.dataset.outcome = "";

    let space;
    try {
      this.status("Asking the server for the puzzle's states and moves…", "busy");
      space = await this.spaceFor(info.id, options);
    } catch (err) {
      if (ask !== this.asked) return;
      this.refused(err, "The puzzle's states could not be fetched");
      return;
    }
    if (ask !== this.asked) return;

    this.status(this.workerReady ? "Running your program…" : LOADING, "busy");
    const outcome = await this.execute(source, space, limit);
    if (ask !== this.asked) return;
    this.root.dataset.outcome = outcome.kind;
    if (outcome.kind === "timeout") {
      this.setRunning(false);
      this.status(`Stopped after ${limit} s: your program did not finish (an endless loop?).`, "bad");
      this.showProblem(`Stopped after ${limit} s: your program did not finish (an endless loop?). A longer limit is in the menu above the code.`);
      return;
    }
    if (outcome.kind === "failed") {
      this.setRunning(false);
      this.status(outcome.message, "bad");
      return;
    }
    if (outcome.kind !== "done") return;

    const msg = outcome.msg;
    const expanded = Array.isArray(msg.expanded) ? msg.expanded : [];
    const path = Array.isArray(msg.path) ? msg.path : null;
    const error = msg.error && typeof msg.error === "object" ? msg.error : null;
    const took = typeof msg.seconds === "number" ? ` in ${seconds(msg.seconds)}` : "";
    if (error) this.setErrorLine(Number.isInteger(error.line) ? error.line : 0);
    if (error && !expanded.length && !path) {
      this.setRunning(false);
      this.status(`Your program stopped with ${error.kind || "an error"}${took}.`, "bad");
      this.showVerdict({ error });
      return;
    }
    // An exception stopped the program before it returned (a returned value that is no path is no stop:
    // the verdict then says no path came back, and the error says why).
    const raised = error && error.kind !== "PathError";
    const stopped = msg.stopped || (raised ? `${error.kind || "an error"}${error.line ? ` on line ${error.line}` : ""}: ${error.message || ""}` : null);
    this.status(`Your program expanded ${withCommas(expanded.length)} ${expanded.length === 1 ? "state" : "states"}${took}; the server is judging it…`, "busy");

    let verdict;
    try {
      verdict = await api.json(`/api/puzzles/${encodeURIComponent(info.id)}/code/verdict`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ options, algorithm, expanded, path, stopped }),
      });
    } catch (err) {
      if (ask !== this.asked) return;
      this.refused(err, "Your run could not be judged", error);
      return;
    }
    if (ask !== this.asked) return;
    this.setRunning(false);
    this.showVerdict({ verdict, error, algorithm });
    this.root.dataset.verdict = String(verdict?.verdict || "");
    if (!verdict || typeof verdict.code !== "string" || this.info !== info) {
      this.status("Judged.", "");
      return;
    }
    const label = verdict.order?.label || this.page.label(algorithm);
    this.runs.set(info.id, { code: verdict.code, label: CODE_LABEL, options });
    this.status(`Judged: ${withCommas(expanded.length)} ${expanded.length === 1 ? "expansion" : "expansions"}${took}. Now playing on the board.`, "");
    this.page.animate({
      puzzle: info.id,
      algorithm: "code",
      options: { ...this.page.options("code"), code: verdict.code }, // the rules, and the run to replay
      text: `your code (compared with ${label})`,
      signature: this.page.signature(info.id),
    });
  }

  /** The puzzle's space under these options (cached: the same puzzle and rules ask once). */
  async spaceFor(id, options) {
    const key = `${id}|${JSON.stringify(options)}`;
    if (this.spaces.has(key)) {
      const space = this.spaces.get(key);
      this.spaces.delete(key);
      this.spaces.set(key, space); // the newest last
      return space;
    }
    const space = await api.json(`/api/puzzles/${encodeURIComponent(id)}/code/space`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ options }),
    });
    this.spaces.set(key, space);
    while (this.spaces.size > SPACES_KEPT) this.spaces.delete(this.spaces.keys().next().value);
    return space;
  }

  /** The server refused or failed (400 with its reason, 429 too many runs, 503 busy). */
  refused(err, what, error = null) {
    this.setRunning(false);
    const message = err instanceof api.ApiError ? err.message : `${what}.`;
    if (!(err instanceof api.ApiError)) console.warn(err);
    this.status(`${what}.`, "bad");
    this.showProblem(message, error);
  }

  setErrorLine(line) {
    this.errorLine = line;
    this.numberLines();
  }

  // ---- the verdict -------------------------------------------------------------------------------

  /** One message in the verdict's place (a refusal, a time limit), with the program's error if any. */
  showProblem(message, error = null) {
    const parts = [el("p", { class: "code-headline bad", testid: "code-problem" }, el("strong", { text: message }))];
    if (error) parts.push(...this.errorParts(error));
    this.verdictBox.replaceChildren(...parts);
    this.verdictBox.hidden = false;
  }

  /**
   * The verdict: the server's messages (the first bold, coloured by `verdict`), where the orders
   * differ with both states named, the program's error with its line; null clears it.
   * @param {{verdict?: any, error?: any, algorithm?: string} | null} what
   */
  showVerdict(what) {
    if (!what) {
      this.verdictBox.replaceChildren();
      this.verdictBox.hidden = true;
      return;
    }
    const { verdict, error } = what;
    const parts = [];
    if (verdict) {
      const messages = (Array.isArray(verdict.messages) ? verdict.messages : []).map(String).filter(Boolean);
      const tone = TONES[verdict.verdict] || "warn";
      // The first message's lead in bold ("Differs from BFS at expansion 2:"), its explanation after it.
      const first = messages[0] || String(verdict.verdict || "");
      const lead = /^.*?[:.](?=\s|$)/.exec(first)?.[0] || first;
      const box = el("div", { class: `code-headline ${tone}`, testid: "code-headline" }, el("strong", { text: lead }));
      // Where the orders part: both states named, first (the explanation below may be long).
      const order = verdict.order;
      if (order && order.at !== null && order.at !== undefined && (order.yours_state !== undefined || order.ours_state !== undefined)) {
        const ours = order.label || order.algorithm || "ours";
        box.append(" ", el("span", { class: "code-states", testid: "code-states" },
          "yours: ", el("code", { text: order.yours_shown || pyRepr(order.yours_state) }),
          ` · ${ours}: `, el("code", { text: order.ours_shown || pyRepr(order.ours_state) }),
          order.tie ? " (the same key: another valid tie-break)" : ""));
      }
      const explanation = first.slice(lead.length).trim();
      if (explanation) box.append(el("span", { class: "code-why", text: explanation }));
      parts.push(box);
      const rest = messages.slice(1).map((text) => el("li", { text }));
      if (rest.length) parts.push(el("ul", { class: "code-messages" }, ...rest));
    }
    if (error) parts.push(...this.errorParts(error, !verdict));
    this.verdictBox.replaceChildren(...parts);
    this.verdictBox.hidden = !parts.length;
  }

  /** The program's error: its kind and message, its line (a button to go there), its traceback. */
  errorParts(error, headline = false) {
    const line = Number.isInteger(error.line) && error.line > 0 ? error.line : 0;
    const text = `${error.kind || "Error"}${line ? ` on line ${line}` : ""}: ${error.message || ""}`.trim();
    const parts = [headline
      ? el("p", { class: "code-headline bad", testid: "code-error" }, el("strong", { text }))
      : el("p", { class: "code-error", testid: "code-error", text })];
    const actions = [];
    if (line) {
      actions.push(el("button", { type: "button", class: "code-goto", testid: "code-goto", text: `Go to line ${line}`,
        on: { click: () => this.goToLine(line) } }));
    }
    if (error.traceback) {
      actions.push(el("details", { class: "code-traceback" }, el("summary", { text: "Traceback" }),
        el("pre", { testid: "code-traceback", text: String(error.traceback) })));
    }
    if (actions.length) parts.push(el("div", { class: "code-error-actions" }, ...actions));
    return parts;
  }
}
