// @ts-check
// The teacher's page of an assignment (/a/<id>/teacher#<token>, templates/teacher.html; docs/TEACHER.md).
// The token is read from the address's fragment (which never reaches a server), kept in memory and
// sessionStorage, and sent only as `Authorization: Bearer` — never in a URL the page requests. A
// wrong token shows one sentence and nothing else. The table (./results_table.js) is live: the
// page's socket watches the assignment (`assignment_watch`), and each `assignment_update` fetches the
// results again (debounced), re-rendered in place with the sort kept.

import { el, byId } from "../dom.js";
import { Live } from "../live.js";
import { AssignmentError, KIND_TITLES, exportFile, points, remove, results, setClosed } from "./api.js";
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
      this.refuse("This teacher link is not valid: it has no key after the #. Open the whole teacher link you saved.");
      return;
    }
    let answer;
    try {
      answer = await results(this.id, this.token);
    } catch (err) {
      const status = err instanceof AssignmentError ? err.status : 0;
      if (status === 403) this.refuse("This teacher link is not valid.");
      else if (status === 404) this.refuse(err instanceof Error ? err.message : "No such assignment.", "No such assignment");
      else this.refuse(err instanceof Error ? err.message : "The results could not be loaded.", "The results could not be loaded");
      return;
    }
    this.build(answer.assignment);
    this.show(answer);
    this.watch();
    try {
      await this.board.load(answer.assignment);
    } catch (err) {
      this.board.say(err instanceof Error ? err.message : "The puzzle could not be shown.", "bad");
    }
    document.body.dataset.ready = "1";
  }

  /** One sentence, nothing else. @param {string} text @param {string} [title] */
  refuse(text, title = "Not valid") {
    this.main.replaceChildren(el("div", { class: "as-missing", testid: "teacher-refused", role: "alert" },
      el("h2", { text: title }), el("p", { text })));
    document.body.dataset.ready = "refused";
  }

  /** @param {any} a the assignment */
  build(a) {
    byId("as-heading").textContent = a.title;
    document.title = `${a.title} · results`;
    this.facts = el("dl", { class: "as-facts", testid: "teacher-summary" });
    const classUrl = `${location.origin}/a/${encodeURIComponent(this.id)}`;
    const link = /** @type {HTMLInputElement} */ (el("input", { type: "text", readonly: true, class: "as-link", testid: "teacher-class-link", value: classUrl, "aria-label": "Class link" }));
    const copied = el("span", { class: "as-copied", role: "status" });
    const copy = el("button", { type: "button", text: "Copy", testid: "teacher-class-link-copy" });
    copy.addEventListener("click", async () => {
      link.select();
      try {
        await navigator.clipboard.writeText(link.value);
        copied.textContent = "copied";
      } catch {
        copied.textContent = "selected: press Ctrl+C";
      }
    });
    const button = (testid, text, title, action) => {
      const b = el("button", { type: "button", testid, text, title });
      b.addEventListener("click", action);
      return b;
    };
    this.closeButton = button("results-close", "Close submissions", "Stop accepting submissions (you can reopen them)", () => this.toggleClosed());
    this.note = el("p", { class: "as-note", testid: "teacher-note", role: "status", "aria-live": "polite" });
    const tools = el("div", { class: "as-tools" },
      button("export-csv", "Moodle CSV", "Grades for Moodle's grade import (comma, UTF-8)", () => this.download("moodle")),
      button("export-canvas", "Canvas CSV", "Grades for Canvas's gradebook import", () => this.download("canvas")),
      button("export-json", "JSON", "Everything, for your own scripts", () => this.download("json")),
      this.closeButton,
      button("results-delete", "Delete…", "Delete the assignment and every submission, for good", () => this.remove()));
    const tableHost = el("div", { class: "as-table-host" });
    const side = el("div", { class: "as-side as-teacher-side" },
      el("section", { class: "as-summary" }, this.facts,
        el("div", { class: "as-link-line" }, el("span", { class: "as-link-label", text: "Class link" }), link, copy, copied)),
      tools, this.note, tableHost);
    const boardHost = el("div", { class: "as-board-host" });
    this.main.replaceChildren(side, boardHost);
    this.main.classList.add("as-teacher");
    this.live = new Live();
    this.board = new Board({ host: boardHost, live: this.live });
    this.view = new SubmissionView({ host: side, board: this.board, id: this.id, token: () => this.token });
    this.table = new ResultsTable({ host: tableHost, onOpen: (row, kind) => this.view.open(row, kind) });
  }

  /** @param {any} answer {assignment, rows, version} */
  show(answer) {
    const a = answer.assignment;
    this.assignment = a;
    this.version = answer.version ?? this.version;
    const tasks = (a.tasks || []).map((t) => `${KIND_TITLES[t.kind] || t.kind} (${points(t.points)})`).join(", ");
    const row = (label, value) => el("div", {}, el("dt", { text: label }), el("dd", { text: value }));
    this.facts.replaceChildren(
      row("Puzzle", `${a.puzzle_name || a.puzzle}${a.family ? ` (${a.family})` : ""}`),
      row("Algorithm", a.algorithm_label || a.algorithm),
      row("Tasks", `${tasks}; ${points(a.total_points)} points in all`),
      row("Deadline", a.deadline ? `${localTime(a.deadline)} (${fromNow(a.deadline)})` : "none"),
      row("Verdicts", a.reveal === "after_deadline" ? "shown to students after the deadline" : "shown to students at once"),
      row("Attempts", `${a.attempts ?? "unlimited"}; the ${a.counts === "last" ? "last" : "best"} counts`),
      row("Submissions", a.closed ? "closed" : a.open === false ? "not accepted now (past the deadline)" : "open"),
      row("Kept until", a.keep_until ? localTime(a.keep_until) : "—"));
    this.closeButton.textContent = a.closed ? "Reopen submissions" : "Close submissions";
    this.closeButton.dataset.closed = String(Boolean(a.closed));
    this.table.render(a, answer.rows);
    document.body.dataset.version = String(this.version);
  }

  /** The socket watches the assignment; each update fetches the table again. */
  watch() {
    const socket = this.live.socket;
    const join = () => socket.emit("assignment_watch", { id: this.id, token: this.token }, (reply) => {
      if (reply && reply.error) this.say(`Live updates are off: ${reply.error}`);
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
      this.say(err instanceof Error ? err.message : "The results could not be fetched again.");
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
      this.say(`Saved ${name}.`);
    } catch (err) {
      this.say(err instanceof Error ? err.message : "The export failed.");
    }
  }

  async toggleClosed() {
    const closing = !this.assignment?.closed;
    try {
      await setClosed(this.id, this.token, closing);
      this.say(closing ? "Submissions are closed: students cannot submit until you reopen them." : "Submissions are open again.");
      await this.refresh();
    } catch (err) {
      this.say(err instanceof Error ? err.message : "That did not work.");
    }
  }

  async remove() {
    if (!window.confirm("Delete this assignment and every submission? This cannot be undone.")) return;
    try {
      await remove(this.id, this.token);
    } catch (err) {
      this.say(err instanceof Error ? err.message : "The assignment could not be deleted.");
      return;
    }
    try { sessionStorage.removeItem(`assignment.teacher.${this.id}`); } catch { /* nothing kept */ }
    this.live.socket.off("assignment_update");
    this.main.replaceChildren(el("div", { class: "as-missing", testid: "teacher-deleted", role: "status" },
      el("h2", { text: "Deleted" }),
      el("p", { text: "The assignment and every submission are gone from the server. The class link and this link open nothing now." })));
  }
}

new TeacherPage().start();
