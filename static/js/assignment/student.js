// @ts-check
// The student's page of an assignment (/a/<id>, templates/assignment.html; docs/STUDENT.md "Doing an
// assignment"): what the assignment is (puzzle, algorithm, tasks and points, deadline, what is
// stored and until when), who the student is (a name and an identifier, kept in this browser), the
// puzzle on a board, and one section per task with the existing panel that does it (./tasks.js). A
// submission's receipt is kept in localStorage (`assignment.<id>`), so a reload shows its verdict again.

import { errorWords } from "../api.js";
import { el, byId } from "../dom.js";
import { initLanguage, onLanguage, setAttr, setText, t } from "../i18n.js";
import { mountLanguageMenu } from "../language_menu.js";
import { storage } from "../code/editor.js";
import { Live } from "../live.js";
import { KINDS, points, get, submit } from "./api.js";
import { Board } from "./board.js";
import { TaskSection, refusal } from "./tasks.js";
import { fromNow, localTime } from "./when.js";

const ID_KEY = "assignment.student"; // localStorage: {name, student}

/** The assignment's id from the address /a/<id>. */
export const assignmentId = () => decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

class StudentPage {
  constructor() {
    this.id = assignmentId();
    this.main = byId("as-main");
    this.keyName = `assignment.${this.id}`;
    /** @type {Map<string, any>} kind -> the panel doing the task */
    this.panels = new Map();
    /** @type {TaskSection[]} */
    this.sections = [];
  }

  async start() {
    let assignment;
    try {
      assignment = await get(this.id);
    } catch (err) {
      this.main.replaceChildren(el("div", { class: "as-missing", testid: "as-missing", role: "alert" },
        el("h2", { t: "assignment.missing" }),
        el("p", { text: errorWords(err, t("assignment.load_failed")) }),
        el("p", { class: "hint", t: "assignment.missing_hint" })));
      document.body.dataset.ready = "missing";
      return;
    }
    this.assignment = assignment;
    const title = () => { document.title = t("assignment.doc_title", { title: assignment.title }); };
    title();
    onLanguage(title);
    byId("as-heading").textContent = assignment.title;
    const side = el("div", { class: "as-side" });
    const boardHost = el("div", { class: "as-board-host" });
    this.main.replaceChildren(side, boardHost);
    side.append(this.summary(assignment), this.identity());
    this.live = new Live();
    this.board = new Board({ host: boardHost, live: this.live });
    const tasks = KINDS.map((kind) => assignment.tasks.find((t) => t.kind === kind)).filter(Boolean);
    for (const task of tasks) {
      const section = new TaskSection({ assignment, task, onSubmit: (s) => this.submit(s) });
      this.sections.push(section);
      side.append(section.root);
    }
    let info = null;
    try {
      info = await this.board.load(assignment);
    } catch (err) {
      this.board.say(errorWords(err, t("assignment.puzzle_failed")), "bad");
    }
    for (const section of this.sections) await this.mount(section, info);
    this.restore();
    document.body.dataset.ready = "1";
  }

  /** What the assignment is, in a few lines. @param {any} a */
  summary(a) {
    const deadlineText = () => (a.deadline ? `${localTime(a.deadline)} (${fromNow(a.deadline)})` : t("assignment.no_deadline"));
    const row = (label, value, testid = null) => el("div", {}, el("dt", { t: label }), el("dd", { testid, text: value }));
    const state = a.open !== false ? null : el("p", { class: "banner warn", testid: "as-closed", t: "assignment.closed_banner" });
    const deadline = row("assignment.deadline", deadlineText(), "as-deadline");
    const total = el("dd", { testid: "as-total", t: "assignment.points_in_all", params: { points: points(a.total_points) } });
    onLanguage(() => {
      deadline.lastElementChild.textContent = deadlineText();
      setText(total, "assignment.points_in_all", { points: points(a.total_points) });
    });
    return el("section", { class: "as-summary", testid: "as-summary" },
      el("dl", { class: "as-facts" },
        row("assignment.puzzle", `${a.puzzle_name || a.puzzle}${a.family ? ` (${a.family})` : ""}`, "as-puzzle"),
        row("assignment.algorithm", a.algorithm_label || a.algorithm, "as-algorithm"),
        deadline,
        el("div", {}, el("dt", { t: "assignment.points" }), total)),
      state,
      el("p", { class: "hint as-stored", testid: "as-stored", text: a.stored || "" }));
  }

  /** The student's name and identifier (kept in this browser for the next assignment). */
  identity() {
    let kept = {};
    try { kept = JSON.parse(storage.get(ID_KEY) || "{}") || {}; } catch { /* none kept */ }
    const input = (testid, label, value, hint) => {
      const field = /** @type {HTMLInputElement} */ (el("input", { type: "text", id: testid, testid, maxlength: 100, value: value || "", autocomplete: "off" }));
      field.addEventListener("change", () => this.keepIdentity());
      return el("label", { for: testid, class: "as-id-field" }, el("span", { t: label }), field, el("span", { class: "hint", t: hint }));
    };
    const box = el("section", { class: "as-identity", tattr: { "aria-label": "assignment.who" } },
      input("student-name", "assignment.your_name", kept.name, "assignment.your_name_hint"),
      input("student-id", "assignment.your_id", kept.student, "assignment.your_id_hint"));
    return box;
  }

  keepIdentity() {
    storage.set(ID_KEY, JSON.stringify(this.who()));
  }

  who() {
    return { name: byId("student-name").value.trim(), student: byId("student-id").value.trim() };
  }

  /** The panel that does a task, in its section. @param {TaskSection} section @param {any} info */
  async mount(section, info) {
    const root = section.body;
    const kind = section.kind;
    if (kind === "code") {
      const { CodePanel } = await import("../code/code_panel.js");
      const holder = el("div", { class: "as-code code-section" });
      root.append(holder);
      const panel = new CodePanel({ root: holder, page: this.board.codePage() });
      panel.puzzleShown(info);
      // Python loads the first time the student turns to this task (it is heavy).
      holder.addEventListener("focusin", () => panel.setOpen(true), { once: true });
      holder.addEventListener("pointerdown", () => panel.setOpen(true), { once: true });
      this.panels.set(kind, panel);
    } else if (kind === "heuristic") {
      const { LabPanel } = await import("../lab/lab_panel.js");
      const holder = el("div", { class: "lab as-lab" });
      root.append(holder);
      const panel = new LabPanel({ root: holder, page: this.board.labPage() });
      panel.puzzleShown(info);
      panel.setOpen(true);
      panel.useButton.hidden = true; // "Use as heuristic" fills the main page's form: none here
      this.panels.set(kind, panel);
    } else if (kind === "solution") {
      const { CheckPanel } = await import("../lab/check_panel.js");
      const holder = el("div", { class: "lab as-lab" });
      root.append(holder);
      const panel = new CheckPanel({ root: holder, page: this.board.checkPage() });
      panel.puzzleShown(info);
      this.panels.set(kind, panel);
    } else if (kind === "predict") {
      const states = /** @type {HTMLTextAreaElement} */ (el("textarea", {
        class: "as-predict", testid: "predict-states", rows: Math.min(12, Math.max(4, Number(section.task.count) || 5)),
        spellcheck: "false", tattr: { "aria-label": "assignment.predict_label" },
      }));
      const example = this.board.view?.stateLabel(0);
      if (example) setAttr(states, "placeholder", "assignment.predict_placeholder_eg", { example });
      else setAttr(states, "placeholder", "assignment.predict_placeholder");
      root.append(states);
      if (this.board.clickable) {
        root.append(el("p", { class: "hint", t: "assignment.predict_click" }));
        this.board.canvasBox.addEventListener("click", (event) => {
          const text = this.board.stateAt(event);
          if (!text) return;
          states.value = `${states.value.replace(/\s+$/, "")}${states.value.trim() ? "\n" : ""}${text}`;
        });
      }
      this.panels.set(kind, { states });
    }
  }

  /** The answer of a task, as the server takes it (a file still being read is waited for). @param {string} kind */
  async answer(kind) {
    const panel = this.panels.get(kind);
    if (!panel) return null;
    if (kind === "code") {
      await panel.reading;
      return { code: panel.editor.value };
    }
    if (kind === "heuristic") return { formula: panel.input.value.trim() };
    if (kind === "solution") return { solution: panel.input.value };
    return { states: panel.states.value.split("\n").map((s) => s.trim()).filter(Boolean) };
  }

  /** @param {TaskSection} section */
  async submit(section) {
    const who = this.who();
    if (!who.name || !who.student) {
      section.say("assignment.identity_first", {}, "bad");
      byId(who.name ? "student-id" : "student-name").focus();
      return;
    }
    this.keepIdentity();
    const answer = await this.answer(section.kind);
    const empty = !answer || Object.values(answer).every((v) => (Array.isArray(v) ? !v.length : !String(v).trim()));
    if (empty) {
      section.say("assignment.answer_empty", {}, "bad");
      return;
    }
    section.submitButton.disabled = true;
    section.say("assignment.sending", {}, "busy");
    try {
      const got = await submit(this.id, { ...who, task: section.kind, answer });
      const kept = { submission: got.submission, receipt: got.receipt, task: section.kind, attempt: got.attempt, attempts_left: got.attempts_left };
      this.keep(kept);
      section.received(got, kept);
    } catch (err) {
      section.sayText(refusal(err), "bad");
      section.root.dataset.state = "refused";
    } finally {
      section.submitButton.disabled = false;
    }
  }

  /** The receipts this browser holds: kind -> kept. */
  kept() {
    try {
      const all = JSON.parse(storage.get(this.keyName) || "{}");
      return all && typeof all === "object" ? all : {};
    } catch {
      return {};
    }
  }

  /** @param {import("./tasks.js").Kept} entry */
  keep(entry) {
    storage.set(this.keyName, JSON.stringify({ ...this.kept(), [entry.task]: entry }));
  }

  /** After a reload: the latest submission of each task again. */
  restore() {
    const kept = this.kept();
    for (const section of this.sections) {
      const entry = kept[section.kind];
      if (!entry?.submission || !entry?.receipt) continue;
      section.showAttempts(entry.attempts_left);
      section.say("assignment.asking_last", {}, "busy");
      section.follow(entry);
    }
  }
}

// The catalog first (the page is written in the reader's language), then the header's menu and the page.
await initLanguage();
mountLanguageMenu(document.querySelector("header.top") || document.body);
new StudentPage().start();
