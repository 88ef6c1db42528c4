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
import { fmt, lang, onLanguage, setAttr, setText, t } from "../i18n.js";
import { CodeEditor, KEYS_HINT, storage } from "./editor.js";
import { LOADING, PythonRunner } from "./runner.js";
import { VerdictView } from "./verdict_view.js";

// The skeletons: their comments and messages in the page's language (the German ones: templates/<name>.de.py).
const TEMPLATE_URL = (name) => new URL(`./templates/${name}${lang() === "de" ? ".de" : ""}.py`, import.meta.url);
// The templates' names (catalog keys: the label is written when shown).
const TEMPLATES = [
  ["bfs", "code.template_bfs"],
  ["dfs", "code.template_dfs"],
  ["ucs", "code.template_ucs"],
  ["astar", "code.template_astar"],
  ["idastar", "code.template_idastar"],
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
const CODE_LABEL = "code.your_code"; // a catalog key: its text goes with a run (the comparison's menus)

/** A duration in the page's language: "250 ms", "1.25 s" / "1,25 s". @param {number} s seconds */
function duration(s) {
  if (s < 0.001) return "< 1 ms";
  if (s < 1) return `${fmt(Math.round(s * 1000))} ms`;
  return `${fmt(s, 2)} s`;
}

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
      onStatus: (key, params, tone) => this.status(key, params, tone),
      onPython: (state, idle) => this.python(state, idle),
      onOutput: (text) => this.print(text),
    });
    this.build();
    this.restore();
  }

  // ---- markup ------------------------------------------------------------------------------------

  build() {
    this.template = /** @type {HTMLSelectElement} */ (el("select", { class: "code-template", testid: "code-template", tattr: { "aria-label": "code.template_menu" } },
      el("option", { value: "", t: "code.template_choose" }), ...TEMPLATES.map(([name, label]) => el("option", { value: name, t: label }))));
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
    this.limit = /** @type {HTMLSelectElement} */ (el("select", { class: "code-limit", testid: "code-limit",
      tattr: { "aria-label": "code.time_limit", title: "code.time_limit_help" } },
    ...LIMITS.map((s) => el("option", { value: String(s), t: "code.limit_s", params: { s } }))));
    this.limit.addEventListener("change", () => storage.set(LIMIT_KEY, this.limit.value));
    this.steps = /** @type {HTMLSelectElement} */ (el("select", { class: "code-limit", testid: "code-steps",
      tattr: { "aria-label": "code.step_limit", title: "code.step_limit_help" } }));
    this.stepsMax = STEPS_MAX;
    this.stepsDefault = 0; // the puzzle's own limit, once its rules came
    this.fillSteps();
    this.steps.addEventListener("change", () => storage.set(STEPS_KEY, this.steps.value));

    this.editor = new CodeEditor({ onRun: () => this.run(), onFile: (file) => { this.reading = this.readFile(file); } });

    this.runButton = el("button", { type: "button", class: "primary", testid: "code-run", t: "code.run",
      tattr: { title: "code.run_help" }, on: { click: () => this.run() } });
    this.stopButton = el("button", { type: "button", testid: "code-stop", t: "code.stop", hidden: true,
      on: { click: () => this.stop() } });
    this.statusLine = el("p", { class: "code-status", testid: "code-status", role: "status", "aria-live": "polite" });
    this.fileError = el("p", { class: "field-error lab-error", testid: "code-file-error", role: "alert", hidden: true });
    // What a state of the puzzle shown looks like to the student's code (the family's state form).
    this.formLine = el("span", { class: "code-form", testid: "code-state-form" });
    // The API in brief, under the state form (docs/STUDENT.md has it whole).
    const api = [
      ["problem.start", "code.api_start"],
      ["problem.is_goal(s)", "code.api_is_goal"],
      ["problem.successors(s)", "code.api_successors"],
      ["problem.heuristic(s)", "code.api_heuristic"],
      ["problem.cost(path)", "code.api_cost"],
      ["return", "code.api_return"],
    ];
    this.apiHelp = el("details", { class: "code-api", testid: "code-api" },
      el("summary", { tattr: { title: "code.api_title" } }, this.formLine),
      el("dl", {}, ...api.flatMap(([name, what]) => [el("dt", {}, el("code", { text: name })), el("dd", { t: what })])),
      this.limitsHint = el("p", { class: "hint", testid: "code-limits" }));
    this.sayLimits();

    this.outputBox = el("pre", { class: "code-output", testid: "code-output", tattr: { "aria-label": "code.output_label" }, tabindex: "0" });
    this.outputWrap = el("div", { class: "code-output-wrap", hidden: true },
      el("h3", { class: "code-h", t: "code.output" }), this.outputBox);

    this.verdictView = new VerdictView({ onGoToLine: (line) => this.editor.goToLine(line) });

    // One row of tools above the code (a laptop's height is for the code and the verdict).
    this.root.append(
      el("div", { class: "code-tools" },
        this.runButton, this.stopButton,
        this.template,
        el("label", { class: "upload-button code-open", tattr: { title: "code.open_help" } }, el("span", { t: "code.open" }), this.file),
        this.limit, this.steps),
      this.fileError,
      this.apiHelp,
      this.editor.box,
      this.editor.hint, // the editor's description (screen readers)
      this.statusLine,
      this.verdictView.box,
      this.outputWrap,
    );
    // What is written from figures (the limits, the state form) is written again in the new language.
    onLanguage(() => {
      this.sayLimits(this.limitsHow);
      this.sayForm();
    });
  }

  /** The step limit's menu: the puzzle's own, then each choice up to the server's most (the most itself
   *  included); the choice kept when it is still offered. */
  fillSteps() {
    const kept = this.steps.value || storage.get(STEPS_KEY) || "";
    const own = this.stepsDefault
      ? el("option", { value: "", t: "code.steps_own_n", params: { n: this.stepsDefault } })
      : el("option", { value: "", t: "code.steps_own" });
    const values = [...new Set([...STEP_CHOICES.filter((n) => n < this.stepsMax), this.stepsMax])];
    this.steps.replaceChildren(own, ...values.map((n) => el("option", { value: String(n), t: "code.steps_n", params: { n } })));
    this.steps.value = values.map(String).includes(kept) ? kept : "";
  }

  /** The calls of successors the next run may make. */
  stepLimit() {
    const chosen = Number(this.steps.value);
    return chosen > 0 ? Math.min(chosen, this.stepsMax) : this.stepsDefault || 150_000;
  }

  /** The limits in words, under the API (written again when the language changes).
   * @param {[string, Record<string, any>?] | null} [how] how the rules reach the page: a key and its params */
  sayLimits(how = null) {
    this.limitsHow = how;
    const steps = this.stepsDefault
      ? t("code.limits_steps", { n: this.stepLimit(), own: this.stepsDefault, max: this.stepsMax })
      : t("code.limits_steps_enough", { max: this.stepsMax });
    const more = how ? ` ${t(how[0], how[1] || {})}` : "";
    this.limitsHint.textContent = `${t("code.limits", { steps })}${more}`;
  }

  /** The state form's line (the API's summary), in the current language. */
  sayForm() {
    const form = this.form || "";
    if (form) {
      setText(this.formLine, "code.state_here", { form });
      setAttr(this.formLine, "title", "code.state_here_title", { form });
    } else {
      setText(this.formLine, "code.the_api");
      this.formLine.removeAttribute("data-i18n-attr");
      this.formLine.title = "";
    }
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
    if (!this.running && !this.runner.ready && !this.statusLine.textContent) this.status(LOADING, {}, "busy");
    // The drawer focuses the editor when it opens; on the first opening the panel arrived after that.
    if (document.activeElement === document.body && !window.matchMedia("(hover:none),(pointer:coarse)").matches) {
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
    this.form = info ? this.page.stateForm(info) : "";
    this.sayForm();
    setAttr(this.runButton, "title", info ? "code.run_help_short" : "code.open_puzzle_first");
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
    const labelKey = TEMPLATES.find(([n]) => n === name)?.[1];
    const label = labelKey ? t(labelKey) : name;
    const ask = this.askText();
    const text = await this.fetchTemplate(name);
    if (!ask.current()) return;
    if (text === null) {
      this.sayFile("code.template_failed", { label });
      return;
    }
    if (ask.typedSince()) {
      this.status("code.template_late", { label });
      return;
    }
    this.sayFile("");
    this.editor.setText(text);
    this.status("code.template_loaded", { label });
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
      this.sayFile("code.file_too_big", { name: file.name, kb: Math.round(file.size / 1024), max: MAX_FILE_BYTES / 1024 });
      return;
    }
    const ask = this.askText();
    let text;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (bytes.includes(0)) throw new TypeError("binary");
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    } catch {
      if (ask.current()) this.sayFile("code.file_not_text", { name: file.name });
      return;
    }
    if (!ask.current()) return;
    if (ask.typedSince()) {
      this.status("code.file_late", { name: file.name });
      return;
    }
    this.sayFile("");
    this.editor.setText(text);
    this.root.dataset.file = file.name;
    this.status("code.file_opened", { name: file.name, count: text.split("\n").length });
  }

  /** The file's problem (a catalog key and its params), or "" for none. @param {string} key @param {Record<string, any>} [params] */
  sayFile(key, params) {
    if (key) setText(this.fileError, key, params);
    else this.fileError.textContent = "";
    this.fileError.hidden = !key;
  }

  // ---- what the runner reports -------------------------------------------------------------------

  /** Python's state in the worker (`data-python`); loading or ready with no program waiting is said. */
  python(state, idle) {
    this.root.dataset.python = state;
    if (!idle) return;
    // A fresh worker after a stop loads quietly: the status keeps saying why the last run stopped.
    if (state === "loading" && !this.statusLine.textContent) this.status(LOADING, {}, "busy");
    if (state === "ready" && !this.running && this.statusLine.dataset.i18n === LOADING) this.status("code.python_ready", { keys: t(KEYS_HINT) });
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
    if (!quiet) this.status("code.stopped");
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

  /**
   * The status line: a catalog key and its params (kept in the current language), and its tone.
   * @param {string} key @param {Record<string, any>} [params] @param {string} [tone]
   */
  status(key, params = {}, tone = "") {
    setText(this.statusLine, key, params);
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
      this.status("code.open_puzzle_first_long", {}, "bad");
      return;
    }
    const source = this.editor.value;
    if (!source.trim()) {
      this.status("code.write_first", {}, "bad");
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
      this.status("code.asking_rules", {}, "busy");
      space = await this.rulesFor(info.id, options);
    } catch (err) {
      if (ask !== this.asked) return;
      this.refused(err, "code.rules_failed");
      return;
    }
    if (ask !== this.asked) return;
    this.stepsDefault = Number(space?.steps?.default) || 0;
    this.stepsMax = Number(space?.steps?.max) || STEPS_MAX;
    this.fillSteps();
    this.root.dataset.rules = String(space?.kind || "");
    this.sayLimits(space?.kind === "graph"
      ? ["code.rules_graph", { count: space.count || 0 }]
      : ["code.rules_python"]);
    const steps = this.stepLimit();

    this.status(this.runner.ready ? "code.running" : LOADING, {}, "busy");
    const outcome = await this.runner.run(source, space, steps, limit);
    if (ask !== this.asked) return;
    this.root.dataset.outcome = outcome.kind;
    if (outcome.kind === "timeout") {
      this.setRunning(false);
      this.status("code.timeout", { limit }, "bad");
      this.verdictView.showProblem("code.timeout_long", { limit });
      return;
    }
    if (outcome.kind === "failed") {
      this.setRunning(false);
      this.status(outcome.key, outcome.params, "bad");
      return;
    }
    if (outcome.kind !== "done") return;

    const msg = outcome.msg;
    const packed = typeof msg.expanded === "string" ? msg.expanded : "";
    const count = Number.isInteger(msg.count) ? msg.count : 0;
    const path = Array.isArray(msg.path) ? msg.path : null;
    const illegal = typeof msg.illegal === "string" ? msg.illegal : null;
    const error = msg.error && typeof msg.error === "object" ? msg.error : null;
    const took = typeof msg.seconds === "number" ? t("code.took", { time: duration(msg.seconds) }) : "";
    if (error) this.editor.markLine(Number.isInteger(error.line) ? error.line : 0);
    if (error && !count && !path && !illegal) {
      this.setRunning(false);
      this.status(error.kind ? "code.stopped_with" : "code.stopped_with_error", { kind: error.kind || "", took }, "bad");
      this.verdictView.show({ error });
      return;
    }
    // An exception stopped the program before it returned (a returned value that is no path is no stop:
    // the verdict then says no path came back, and the error says why).
    const raised = error && error.kind !== "PathError";
    // What stopped it, for the server's verdict (written in the page's language: the server quotes it).
    const stopped = msg.stopped || (raised
      ? t(error.line ? "code.stopped_on_line" : "code.stopped_by", { kind: error.kind || t("code.an_error"), line: error.line || 0, message: error.message || "" })
      : null);
    this.status("code.sending", { count, took }, "busy");

    let verdict;
    try {
      const run = await this.upload(info.id, packed, ask, count, took);
      if (ask !== this.asked) return;
      this.status("code.judging", { count, took }, "busy");
      verdict = await api.json(`/api/puzzles/${encodeURIComponent(info.id)}/code/verdict`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ options, algorithm, run, count, path, illegal, stopped }),
      });
    } catch (err) {
      if (ask !== this.asked) return;
      this.refused(err, "code.judge_failed", error);
      return;
    }
    if (ask !== this.asked) return;
    this.setRunning(false);
    this.verdictView.show({ verdict, error, algorithm });
    this.root.dataset.verdict = String(verdict?.verdict || "");
    if (!verdict || typeof verdict.code !== "string" || this.info !== info) {
      this.status("code.judged");
      return;
    }
    const label = verdict.order?.label || this.page.label(algorithm);
    this.runs.set(info.id, { code: verdict.code, label: t(CODE_LABEL), options });
    const animated = Number.isInteger(verdict.animated) ? verdict.animated : count;
    this.root.dataset.animated = String(animated);
    this.status(animated < count ? "code.judged_some" : "code.judged_all", { count, took, animated });
    this.page.animate({
      puzzle: info.id,
      algorithm: "code",
      options: { ...this.page.options("code"), code: verdict.code }, // the rules, and the run to replay
      text: t("code.compared_with", { label }),
      signature: this.page.signature(info.id),
    });
  }

  /**
   * The run's packed ids sent up in parts of PART_CHARS characters (POST …/code/runs), each part a
   * small request; the run's id on the server.
   * @param {string} id @param {string} packed @param {number} ask @param {number} count @param {string} took
   * @returns {Promise<string | null>}
   */
  async upload(id, packed, ask, count, took) {
    const parts = Math.max(1, Math.ceil(packed.length / PART_CHARS));
    let run = null;
    for (let part = 0; part < parts; part++) {
      if (ask !== this.asked) return null;
      if (parts > 1) this.status("code.sending_part", { count, took, part: part + 1, parts }, "busy");
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

  /** The server refused or failed (400 with its reason, 429 too many runs, 503 busy). @param {string} what a key */
  refused(err, what, error = null) {
    this.setRunning(false);
    this.status(what, {}, "bad");
    this.verdictView.showProblemText(api.errorWords(err, t(what)), error);
  }
}
