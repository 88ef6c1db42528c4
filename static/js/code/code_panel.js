// @ts-check
// "Your code" (docs/STUDENT.md): a student's `def search(problem):` in Python, run in this browser by
// Pyodide in a Web Worker (./worker.js, docs/PROTOCOL.md "Student mode"), judged by the server and
// animated on the board like any run.
//
// The panel is made of parts with one job each: the editor (./editor.js: the text, its line numbers
// and keys, kept in localStorage), the runner (./runner.js: the worker's life, the time limit, the
// output) and the verdict's place (./verdict_view.js). The panel itself holds the tools above the code
// (Template loads a skeleton from ./templates/<name>.py; Open .py reads a file; the time and step
// limits), and the Run: the puzzle's rules (POST /api/puzzles/<id>/code/rules: the family's own Python
// modules and the puzzle's data, or an explicit graph for a family without them; cached per puzzle and
// options) go to the runner with the code; at `done` the expanded ids (packed as text) go up in parts
// (POST …/code/runs, never one oversized message) and POST …/code/verdict judges the run by its id
// against the algorithm chosen in the page's menu; the verdict is shown, and the run is played on the
// board as the hidden algorithm `code` (its run option `code`, run:<id>, names the run kept on the
// server), so the figures, explain mode and the comparison show it like any run.

import * as api from "../api.js";
import { el } from "../dom.js";
import { number, seconds, withCommas } from "../format.js";
import { CodeEditor, KEYS_HINT, storage } from "./editor.js";
import { LOADING, PythonRunner } from "./runner.js";
import { VerdictView } from "./verdict_view.js";

const TEMPLATE_URL = (name) => new URL(`./templates/${name}.py`, import.meta.url);
const TEMPLATES = [
  ["bfs", "Breadth-first (BFS)"],
  ["dfs", "Depth-first (DFS)"],
  ["ucs", "Uniform cost (Dijkstra)"],
  ["astar", "A*"],
  ["idastar", "IDA*"],
];
const LIMITS = [5, 15, 60]; // seconds a program may run
// Calls of successors (docs/STUDENT.md "Limits"): "" is the puzzle's own (…/code/rules `steps.default`,
// enough for BFS over every state of an 8-puzzle), or one of these, up to the server's `steps.max`.
const STEP_CHOICES = [150_000, 300_000, 500_000, 1_000_000, 2_000_000, 5_000_000];
const STEPS_MAX = 1_000_000; // until the server says its own
const PART_CHARS = 512 * 1024; // characters of packed ids in one upload (server/code_runs.py PART_CHARS)
const MAX_FILE_BYTES = 256 * 1024;
const SPACES_KEPT = 4; // rules cached (an explicit graph is megabytes)
const LIMIT_KEY = "code.limit"; // localStorage: the time limit chosen
const STEPS_KEY = "code.steps"; // localStorage: the step limit chosen ("" the puzzle's own)
const CODE_LABEL = "Your code";

export class CodePanel {
  /** @param {{root: HTMLElement, page: import("./code_tab.js").CodePage}} args */
  constructor({ root, page }) {
    this.root = root;
    this.page = page;
    this.info = null;
    this.open = false;
    this.asked = 0; // numbered runs: what an older one answers is dropped
    this.running = false;
    /** @type {Map<string, any>} puzzle id + options -> its space (the newest last) */
    this.spaces = new Map();
    /** @type {Map<string, {code: string, label: string, options: object}>} puzzle id -> the latest run of
     *  the code on it, with the options its space was walked under (its ids number that space's states) */
    this.runs = new Map();
    this.ended = 0; // runs ended (tests wait for the count to change)
    this.textAsked = 0; // numbered asks for a new text (a template, a file): only the newest may replace the text
    /** @type {Promise<void>} the last file being read into the editor (what reads the text waits for it) */
    this.reading = Promise.resolve();
    this.runner = new PythonRunner({
      onStatus: (text, tone) => this.status(text, tone),
      onPython: (state, idle) => this.python(state, idle),
      onOutput: (text) => this.print(text),
    });
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
      if (file) this.reading = this.readFile(file);
      this.file.value = "";
    });
    this.limit = /** @type {HTMLSelectElement} */ (el("select", { class: "code-limit", testid: "code-limit", "aria-label": "Time limit",
      title: "How long your program may run before it is stopped" },
    ...LIMITS.map((s) => new Option(`limit ${s} s`, String(s)))));
    this.limit.addEventListener("change", () => storage.set(LIMIT_KEY, this.limit.value));
    this.steps = /** @type {HTMLSelectElement} */ (el("select", { class: "code-limit", testid: "code-steps", "aria-label": "Step limit",
      title: "How many calls of successors (expansions) your program may make" }));
    this.stepsMax = STEPS_MAX;
    this.stepsDefault = 0; // the puzzle's own limit, once its rules came
    this.fillSteps();
    this.steps.addEventListener("change", () => storage.set(STEPS_KEY, this.steps.value));

    this.editor = new CodeEditor({ onRun: () => this.run(), onFile: (file) => { this.reading = this.readFile(file); } });

    this.runButton = el("button", { type: "button", class: "primary", testid: "code-run", text: "Run ▶",
      title: "Run your search on the puzzle shown (Ctrl+Enter in the code)", on: { click: () => this.run() } });
    this.stopButton = el("button", { type: "button", testid: "code-stop", text: "Stop", hidden: true,
      on: { click: () => this.stop() } });
    this.statusLine = el("p", { class: "code-status", testid: "code-status", role: "status", "aria-live": "polite" });
    this.fileError = el("p", { class: "field-error lab-error", testid: "code-file-error", role: "alert", hidden: true });
    // What a state of the puzzle shown looks like to the student's code (the family's state form).
    this.formLine = el("span", { class: "code-form", testid: "code-state-form" });
    // The API in brief, under the state form (docs/STUDENT.md has it whole).
    const api = [
      ["problem.start", "the start state (problem.starts: all of them)"],
      ["problem.is_goal(s)", "True at a goal"],
      ["problem.successors(s)", "a list of (state, cost) pairs; each call is one expansion of s"],
      ["problem.heuristic(s)", "the default heuristic; problem.heuristics[\"name\"](s) by name"],
      ["problem.cost(path)", "a path's cost, checked move by move"],
      ["return", "the path: a list of states from the start to a goal, or None"],
    ];
    this.apiHelp = el("details", { class: "code-api", testid: "code-api" },
      el("summary", { title: "What your search(problem) can use" }, this.formLine),
      el("dl", {}, ...api.flatMap(([name, what]) => [el("dt", {}, el("code", { text: name })), el("dd", { text: what })])),
      this.limitsHint = el("p", { class: "hint", testid: "code-limits" }));
    this.sayLimits();

    this.outputBox = el("pre", { class: "code-output", testid: "code-output", "aria-label": "What your program printed", tabindex: "0" });
    this.outputWrap = el("div", { class: "code-output-wrap", hidden: true },
      el("h3", { class: "code-h", text: "Output" }), this.outputBox);

    this.verdictView = new VerdictView({ onGoToLine: (line) => this.editor.goToLine(line) });

    // One row of tools above the code (a laptop's height is for the code and the verdict).
    this.root.append(
      el("div", { class: "code-tools" },
        this.runButton, this.stopButton,
        this.template,
        el("label", { class: "upload-button code-open", title: "Open a Python file (.py) in the editor" }, el("span", { text: "Open .py…" }), this.file),
        this.limit, this.steps),
      this.fileError,
      this.apiHelp,
      this.editor.box,
      this.editor.hint, // the editor's description (screen readers)
      this.statusLine,
      this.verdictView.box,
      this.outputWrap,
    );
  }

  /** The step limit's menu: the puzzle's own, then each choice up to the server's most (the most itself
   *  included); the choice kept when it is still offered. */
  fillSteps() {
    const kept = this.steps.value || storage.get(STEPS_KEY) || "";
    const own = this.stepsDefault ? `steps ${withCommas(this.stepsDefault)} (this puzzle)` : "steps: this puzzle's";
    const values = [...new Set([...STEP_CHOICES.filter((n) => n < this.stepsMax), this.stepsMax])];
    this.steps.replaceChildren(new Option(own, ""), ...values.map((n) => new Option(`steps ${withCommas(n)}`, String(n))));
    this.steps.value = values.map(String).includes(kept) ? kept : "";
  }

  /** The calls of successors the next run may make. */
  stepLimit() {
    const chosen = Number(this.steps.value);
    return chosen > 0 ? Math.min(chosen, this.stepsMax) : this.stepsDefault || 150_000;
  }

  /** The limits in words, under the API. @param {string} [how] how the rules reach the page */
  sayLimits(how = "") {
    const steps = this.stepsDefault
      ? `${withCommas(this.stepLimit())} calls of successors (this puzzle: ${withCommas(this.stepsDefault)}; up to ${withCommas(this.stepsMax)} in the menu beside Run)`
      : `calls of successors: enough for this puzzle (up to ${withCommas(this.stepsMax)} in the menu beside Run)`;
    this.limitsHint.textContent = `Limits: ${steps}; the time chosen beside Run; 64 KB of printed output. The standard library only (collections, heapq, math…).${how ? ` ${how}` : ""}`;
  }

  /** The text and the limits this browser kept; else the breadth-first template to start from. */
  restore() {
    const limit = storage.get(LIMIT_KEY);
    if (limit && LIMITS.map(String).includes(limit)) this.limit.value = limit;
    this.editor.restore(() => this.fetchTemplate("bfs"));
  }

  // ---- the drawer's calls ------------------------------------------------------------------------

  /** In sight or not: the first time, Python starts loading in its worker. @param {boolean} shown */
  setOpen(shown) {
    this.open = shown;
    if (!shown) return;
    this.runner.start();
    if (!this.running && !this.runner.ready && !this.statusLine.textContent) this.status(LOADING, "busy");
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
    this.verdictView.show(null);
    this.runButton.disabled = !info;
    const form = info ? this.page.stateForm(info) : "";
    this.formLine.textContent = form ? `A state here: ${form}` : "The API";
    this.formLine.title = form ? `A state of this puzzle, as your code sees it: ${form}` : "";
    this.runButton.title = info ? "Run your search on the puzzle shown (Ctrl+Enter)" : "Open a puzzle first";
  }

  /** The latest run of the code on a puzzle: {code, label}, or null. @param {string} puzzleId */
  codeRun(puzzleId) {
    return this.runs.get(puzzleId) || null;
  }

  // ---- templates and files -----------------------------------------------------------------------

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
    const ask = this.askText();
    const text = await this.fetchTemplate(name);
    if (!ask.current()) return;
    if (text === null) {
      this.sayFile(`The ${label} template could not be loaded from the server.`);
      return;
    }
    if (ask.typedSince()) {
      this.status(`The ${label} template came after you typed, so your text stays: choose it again to load it.`, "");
      return;
    }
    this.sayFile("");
    this.editor.setText(text);
    this.status(`The ${label} template: fill in its TODOs. Ctrl+Z brings your previous text back.`, "");
  }

  /**
   * A new text asked for (a template fetched, a file read): whether its answer is still the newest
   * ask, and whether the user touched the editor since — then the answer must not replace their text.
   */
  askText() {
    const number = ++this.textAsked;
    const touches = this.editor.touches;
    return { current: () => number === this.textAsked, typedSince: () => touches !== this.editor.touches };
  }

  /** A .py file into the editor: text only, at most 256 KB. @param {File} file */
  async readFile(file) {
    if (file.size > MAX_FILE_BYTES) {
      this.sayFile(`${file.name} is ${withCommas(file.size / 1024)} KB: a program is at most ${MAX_FILE_BYTES / 1024} KB here.`);
      return;
    }
    const ask = this.askText();
    let text;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (bytes.includes(0)) throw new TypeError("binary");
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    } catch {
      if (ask.current()) this.sayFile(`${file.name} is not a text file: open a Python program (.py).`);
      return;
    }
    if (!ask.current()) return;
    if (ask.typedSince()) {
      this.status(`${file.name} was read after you typed, so your text stays: open it again to load it.`, "");
      return;
    }
    this.sayFile("");
    this.editor.setText(text);
    this.root.dataset.file = file.name;
    this.status(`Opened ${file.name} (${number(text.split("\n").length)} lines). Ctrl+Z brings your previous text back.`, "");
  }

  sayFile(message) {
    this.fileError.textContent = message;
    this.fileError.hidden = !message;
  }

  // ---- what the runner reports -------------------------------------------------------------------

  /** Python's state in the worker (`data-python`); loading or ready with no program waiting is said. */
  python(state, idle) {
    this.root.dataset.python = state;
    if (!idle) return;
    // A fresh worker after a stop loads quietly: the status keeps saying why the last run stopped.
    if (state === "loading" && !this.statusLine.textContent) this.status(LOADING, "busy");
    if (state === "ready" && !this.running && this.statusLine.textContent === LOADING) this.status(`Python is ready: press Run. ${KEYS_HINT}`, "");
  }

  /** What the program printed, as it comes (a text node: never markup). */
  print(text) {
    this.outputBox.append(text);
    this.outputWrap.hidden = false;
    this.outputBox.scrollTop = this.outputBox.scrollHeight;
  }

  // ---- a run -------------------------------------------------------------------------------------

  /** Stop the program (and forget the run). @param {boolean} [quiet] */
  stop(quiet = false) {
    if (!this.running) return;
    this.asked++;
    this.runner.stop();
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
    this.editor.save();
    const ask = ++this.asked;
    const options = this.page.options();
    const algorithm = this.page.algorithm();
    const limit = Number(this.limit.value) || LIMITS[0];
    this.setRunning(true);
    this.clearOutput();
    this.verdictView.show(null);
    this.editor.markLine(0);
    delete this.root.dataset.verdict;
    this.root.dataset.outcome = "";

    let space;
    try {
      this.status("Asking the server for the puzzle's rules…", "busy");
      space = await this.rulesFor(info.id, options);
    } catch (err) {
      if (ask !== this.asked) return;
      this.refused(err, "The puzzle's rules could not be fetched");
      return;
    }
    if (ask !== this.asked) return;
    this.stepsDefault = Number(space?.steps?.default) || 0;
    this.stepsMax = Number(space?.steps?.max) || STEPS_MAX;
    this.fillSteps();
    this.root.dataset.rules = String(space?.kind || "");
    this.sayLimits(space?.kind === "graph"
      ? `This family's rules do not run in your browser: the server sends its states as a list, at most ${withCommas(space.count || 0)} of them.`
      : "The rules are the server's own Python, run beside your code.");
    const steps = this.stepLimit();

    this.status(this.runner.ready ? "Running your program…" : LOADING, "busy");
    const outcome = await this.runner.run(source, space, steps, limit);
    if (ask !== this.asked) return;
    this.root.dataset.outcome = outcome.kind;
    if (outcome.kind === "timeout") {
      this.setRunning(false);
      this.status(`Stopped after ${limit} s: your program did not finish (an endless loop?).`, "bad");
      this.verdictView.showProblem(`Stopped after ${limit} s: your program did not finish (an endless loop?). A longer limit is in the menu above the code.`);
      return;
    }
    if (outcome.kind === "failed") {
      this.setRunning(false);
      this.status(outcome.message, "bad");
      return;
    }
    if (outcome.kind !== "done") return;

    const msg = outcome.msg;
    const packed = typeof msg.expanded === "string" ? msg.expanded : "";
    const count = Number.isInteger(msg.count) ? msg.count : 0;
    const path = Array.isArray(msg.path) ? msg.path : null;
    const illegal = typeof msg.illegal === "string" ? msg.illegal : null;
    const error = msg.error && typeof msg.error === "object" ? msg.error : null;
    const took = typeof msg.seconds === "number" ? ` in ${seconds(msg.seconds)}` : "";
    if (error) this.editor.markLine(Number.isInteger(error.line) ? error.line : 0);
    if (error && !count && !path && !illegal) {
      this.setRunning(false);
      this.status(`Your program stopped with ${error.kind || "an error"}${took}.`, "bad");
      this.verdictView.show({ error });
      return;
    }
    // An exception stopped the program before it returned (a returned value that is no path is no stop:
    // the verdict then says no path came back, and the error says why).
    const raised = error && error.kind !== "PathError";
    const stopped = msg.stopped || (raised ? `${error.kind || "an error"}${error.line ? ` on line ${error.line}` : ""}: ${error.message || ""}` : null);
    const expandedWords = `${withCommas(count)} ${count === 1 ? "state" : "states"}`;
    this.status(`Your program expanded ${expandedWords}${took}; sending the run to the server…`, "busy");

    let verdict;
    try {
      const run = await this.upload(info.id, packed, ask, expandedWords, took);
      if (ask !== this.asked) return;
      this.status(`Your program expanded ${expandedWords}${took}; the server is judging it…`, "busy");
      verdict = await api.json(`/api/puzzles/${encodeURIComponent(info.id)}/code/verdict`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ options, algorithm, run, count, path, illegal, stopped }),
      });
    } catch (err) {
      if (ask !== this.asked) return;
      this.refused(err, "Your run could not be judged", error);
      return;
    }
    if (ask !== this.asked) return;
    this.setRunning(false);
    this.verdictView.show({ verdict, error, algorithm });
    this.root.dataset.verdict = String(verdict?.verdict || "");
    if (!verdict || typeof verdict.code !== "string" || this.info !== info) {
      this.status("Judged.", "");
      return;
    }
    const label = verdict.order?.label || this.page.label(algorithm);
    this.runs.set(info.id, { code: verdict.code, label: CODE_LABEL, options });
    const animated = Number.isInteger(verdict.animated) ? verdict.animated : count;
    const played = animated < count
      ? `The board plays your first ${withCommas(animated)} of them (too many to animate); the verdict covers them all.`
      : "Now playing on the board.";
    this.root.dataset.animated = String(animated);
    this.status(`Judged: ${withCommas(count)} ${count === 1 ? "expansion" : "expansions"}${took}. ${played}`, "");
    this.page.animate({
      puzzle: info.id,
      algorithm: "code",
      options: { ...this.page.options("code"), code: verdict.code }, // the rules, and the run to replay
      text: `your code (compared with ${label})`,
      signature: this.page.signature(info.id),
    });
  }

  /**
   * The run's packed ids sent up in parts of PART_CHARS characters (POST …/code/runs), each part a
   * small request; the run's id on the server.
   * @param {string} id @param {string} packed @param {number} ask @param {string} expandedWords @param {string} took
   * @returns {Promise<string | null>}
   */
  async upload(id, packed, ask, expandedWords, took) {
    const parts = Math.max(1, Math.ceil(packed.length / PART_CHARS));
    let run = null;
    for (let part = 0; part < parts; part++) {
      if (ask !== this.asked) return null;
      if (parts > 1) this.status(`Your program expanded ${expandedWords}${took}; sending the run to the server (part ${part + 1} of ${parts})…`, "busy");
      const answer = await api.json(`/api/puzzles/${encodeURIComponent(id)}/code/runs`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ run, part, parts, text: packed.slice(part * PART_CHARS, (part + 1) * PART_CHARS) }),
      });
      run = answer.run;
    }
    this.root.dataset.parts = String(parts);
    return run;
  }

  /** The puzzle's rules under these options (cached: the same puzzle and rules ask once). */
  async rulesFor(id, options) {
    const key = `${id}|${JSON.stringify(options)}`;
    if (this.spaces.has(key)) {
      const space = this.spaces.get(key);
      this.spaces.delete(key);
      this.spaces.set(key, space); // the newest last
      return space;
    }
    const space = await api.json(`/api/puzzles/${encodeURIComponent(id)}/code/rules`, {
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
    this.status(`${what}.`, "bad");
    this.verdictView.showProblem(api.errorWords(err, `${what}.`), error);
  }
}
