// @ts-check
// The teacher's page of an assignment (/a/<id>/teacher#<token>, templates/teacher.html; docs/TEACHER.md).
// The token is read from the address's fragment (which never reaches a server), kept in memory and
// sessionStorage, and sent only as `Authorization: Bearer` — never in a URL the page requests. A
// wrong token shows one sentence and nothing else. The table (./results_table.js) is live: the
// page's socket watches the assignment (`assignment_watch`), and each `assignment_update` fetches the
// results again (debounced), re-rendered in place with the sort kept.

import { el, byId } from "../dom.js";
import { initLanguage, lang, onLanguage, setText, t } from "../i18n.js";
import { mountLanguageMenu } from "../language_menu.js";
import { Live } from "../live.js";
import { AssignmentError, exportFile, kindTitle, points, remove, results, setClosed } from "./api.js";
import { Board } from "./board.js";
import { ResultsTable } from "./results_table.js";
import { SubmissionView } from "./submission_view.js";
import { fromNow, localTime } from "./when.js";
import { saveBlob } from "../share/download.js";

const REFRESH_MS = 300; // updates closer than this are one fetch

/** The assignment's id from the address /a/<id>/teacher. */
const assignmentId = () => decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");

/** The token: the fragment, else this tab's sessionStorage (a reload without it). @param {string} id */
function readToken(id) {
  const key = `assignment.teacher.${id}`;
  const fromHash = decodeURIComponent(location.hash.replace(/^#/, ""));
  try {
    if (fromHash) sessionStorage.setItem(key, fromHash);
    return fromHash || sessionStorage.getItem(key) || "";
  } catch {
    return fromHash;
  }
}

class TeacherPage {
  constructor() {
    this.id = assignmentId();
    this.token = readToken(this.id);
    this.main = byId("as-main");
    this.timer = 0;
    this.fetching = false;
    this.again = false;
    this.version = -1;
  }

  async start() {
    if (!this.token) {
      this.refuse(t("assignment.teacher_no_key"));
      return;
    }
    let answer;
    try {
      answer = await results(this.id, this.token);
    } catch (err) {
      const status = err instanceof AssignmentError ? err.status : 0;
      if (status === 403) this.refuse(t("assignment.teacher_invalid"));
      else if (status === 404) this.refuse(err instanceof Error ? err.message : t("assignment.missing_sentence"), "assignment.missing");
      else this.refuse(err instanceof Error ? err.message : t("assignment.results_failed_sentence"), "assignment.results_failed");
      return;
    }
    this.build(answer.assignment);
    this.show(answer);
    this.watch();
    try {
      await this.board.load(answer.assignment);
    } catch (err) {
      this.board.say(err instanceof Error ? err.message : t("assignment.puzzle_failed"), "bad");
    }
    document.body.dataset.ready = "1";
  }

  /** One sentence, nothing else. @param {string} text @param {string} [title] a catalog key */
  refuse(text, title = "assignment.not_valid") {
    this.main.replaceChildren(el("div", { class: "as-missing", testid: "teacher-refused", role: "alert" },
      el("h2", { t: title }), el("p", { text })));
    document.body.dataset.ready = "refused";
  }

  /** @param {any} a the assignment */
  build(a) {
    byId("as-heading").textContent = a.title;
    const title = () => { document.title = t("assignment.results_title", { title: a.title }); };
    title();
    onLanguage(title);
    this.facts = el("dl", { class: "as-facts", testid: "teacher-summary" });
    // The class link carries the page's language (?lang=): the students' page opens in it.
    const classUrl = () => `${location.origin}/a/${encodeURIComponent(this.id)}?lang=${lang()}`;
    const link = /** @type {HTMLInputElement} */ (el("input", { type: "text", readonly: true, class: "as-link", testid: "teacher-class-link", value: classUrl(), tattr: { "aria-label": "assignment.class_link" } }));
    onLanguage(() => { link.value = classUrl(); });
    const copied = el("span", { class: "as-copied", role: "status" });
    const copy = el("button", { type: "button", t: "assignment.copy", testid: "teacher-class-link-copy" });
    copy.addEventListener("click", async () => {
      link.select();
      try {
        await navigator.clipboard.writeText(link.value);
        setText(copied, "assignment.copied");
      } catch {
        setText(copied, "assignment.selected_copy");
      }
    });
    const button = (testid, text, title, action) => {
      const b = el("button", { type: "button", testid, t: text, tattr: { title } });
      b.addEventListener("click", action);
      return b;
    };
    this.closeButton = button("results-close", "assignment.close_submissions", "assignment.close_submissions_help", () => this.toggleClosed());
    this.note = el("p", { class: "as-note", testid: "teacher-note", role: "status", "aria-live": "polite" });
    const tools = el("div", { class: "as-tools" },
      button("export-csv", "assignment.moodle_csv", "assignment.moodle_csv_help", () => this.download("moodle")),
      button("export-canvas", "assignment.canvas_csv", "assignment.canvas_csv_help", () => this.download("canvas")),
      button("export-json", "assignment.json", "assignment.json_help", () => this.download("json")),
      this.closeButton,
      button("results-delete", "assignment.delete", "assignment.delete_help", () => this.remove()));
    const tableHost = el("div", { class: "as-table-host" });
    const side = el("div", { class: "as-side as-teacher-side" },
      el("section", { class: "as-summary" }, this.facts,
        el("div", { class: "as-link-line" }, el("span", { class: "as-link-label", t: "assignment.class_link" }), link, copy, copied)),
      tools, this.note, tableHost);
    const boardHost = el("div", { class: "as-board-host" });
    this.main.replaceChildren(side, boardHost);
    this.main.classList.add("as-teacher");
    this.live = new Live();
    this.board = new Board({ host: boardHost, live: this.live });
    this.view = new SubmissionView({ host: side, board: this.board, id: this.id, token: () => this.token });
    this.table = new ResultsTable({ host: tableHost, onOpen: (row, kind) => this.view.open(row, kind) });
    // The facts and the table are written from figures: again in the new language.
    onLanguage(() => { if (this.answer) this.show(this.answer); });
  }

  /** @param {any} answer {assignment, rows, version} */
  show(answer) {
    const a = answer.assignment;
    this.answer = answer;
    this.assignment = a;
    this.version = answer.version ?? this.version;
    const tasks = (a.tasks || []).map((task) => `${kindTitle(task.kind)} (${points(task.points)})`).join(", ");
    const row = (label, value) => el("div", {}, el("dt", { t: label }), el("dd", { text: value }));
    const attempts = a.attempts ?? t("assignment.unlimited");
    this.facts.replaceChildren(
      row("assignment.puzzle", `${a.puzzle_name || a.puzzle}${a.family ? ` (${a.family})` : ""}`),
      row("assignment.algorithm", a.algorithm_label || a.algorithm),
      row("assignment.tasks", t("assignment.tasks_in_all", { tasks, points: points(a.total_points) })),
      row("assignment.deadline", a.deadline ? `${localTime(a.deadline)} (${fromNow(a.deadline)})` : t("assignment.no_deadline")),
      row("assignment.verdicts", t(a.reveal === "after_deadline" ? "assignment.reveal_after" : "assignment.reveal_at_once")),
      row("assignment.attempts", t(a.counts === "last" ? "assignment.attempts_last_counts" : "assignment.attempts_best_counts", { attempts })),
      row("assignment.submissions", t(a.closed ? "assignment.sub_closed" : a.open === false ? "assignment.sub_past" : "assignment.sub_open")),
      row("assignment.kept_until", a.keep_until ? localTime(a.keep_until) : "—"));
    setText(this.closeButton, a.closed ? "assignment.reopen_submissions" : "assignment.close_submissions");
    this.closeButton.dataset.closed = String(Boolean(a.closed));
    this.table.render(a, answer.rows);
    document.body.dataset.version = String(this.version);
  }

  /** The socket watches the assignment; each update fetches the table again. */
  watch() {
    const socket = this.live.socket;
    const join = () => socket.emit("assignment_watch", { id: this.id, token: this.token }, (reply) => {
      if (reply && reply.error) this.say(t("assignment.live_off", { error: reply.error }));
      else document.body.dataset.watching = "1";
    });
    socket.on("connect", join);
    if (socket.connected) join();
    socket.on("assignment_update", (msg) => {
      if (msg && msg.id && msg.id !== this.id) return;
      clearTimeout(this.timer);
      this.timer = window.setTimeout(() => this.refresh(), REFRESH_MS);
    });
  }

  /** Fetch the results again (one at a time; an update meanwhile asks once more). */
  async refresh() {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    try {
      this.show(await results(this.id, this.token));
    } catch (err) {
      this.say(err instanceof Error ? err.message : t("assignment.refetch_failed"));
    } finally {
      this.fetching = false;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    }
  }

  /** @param {string} text */
  say(text) {
    this.note.textContent = text;
  }

  /** @param {"moodle" | "canvas" | "json"} format */
  async download(format) {
    try {
      const { blob, name } = await exportFile(this.id, this.token, format);
      saveBlob(blob, name);
      this.say(t("assignment.saved", { name }));
    } catch (err) {
      this.say(err instanceof Error ? err.message : t("assignment.export_failed"));
    }
  }

  async toggleClosed() {
    const closing = !this.assignment?.closed;
    try {
      await setClosed(this.id, this.token, closing);
      this.say(t(closing ? "assignment.closed_note" : "assignment.reopened_note"));
      await this.refresh();
    } catch (err) {
      this.say(err instanceof Error ? err.message : t("assignment.did_not_work"));
    }
  }

  async remove() {
    if (!window.confirm(t("assignment.delete_confirm"))) return;
    try {
      await remove(this.id, this.token);
    } catch (err) {
      this.say(err instanceof Error ? err.message : t("assignment.delete_failed"));
      return;
    }
    try { sessionStorage.removeItem(`assignment.teacher.${this.id}`); } catch { /* nothing kept */ }
    this.live.socket.off("assignment_update");
    this.main.replaceChildren(el("div", { class: "as-missing", testid: "teacher-deleted", role: "status" },
      el("h2", { t: "assignment.deleted" }),
      el("p", { t: "assignment.deleted_text" })));
  }
}

// The catalog first (the page is written in the reader's language), then the header's menu and the page.
await initLanguage();
mountLanguageMenu(document.querySelector("header.top") || document.body);
new TeacherPage().start();
