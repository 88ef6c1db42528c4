// @ts-check
// One task's section on the student's page: its words, points and attempts left, the existing panel
// that does the task (Your code, the Lab, Check) or Predict's list of states, a Submit button and the
// verdict's line (`submit-verdict`). What is submitted is the answer itself, never a verdict: the
// server grades it, and the line follows the submission until it is graded.

import { el } from "../dom.js";
import { AssignmentError, KIND_TITLES, points, submission } from "./api.js";
import { localTime } from "./when.js";

const POLL_FIRST_MS = 1000;
const POLL_MAX_MS = 5000;

/**
 * @typedef {object} Kept  what this browser keeps of a task's latest submission (localStorage)
 * @property {string} submission
 * @property {string} receipt
 * @property {string} task
 * @property {number | null} [attempt]
 * @property {number | null} [attempts_left]
 */

/** The verdict's tone: all the points, some, none. @param {any} result */
export function toneOf(result) {
  if (!result || typeof result.score !== "number") return "";
  if (result.score >= result.points) return "good";
  return result.score > 0 ? "warn" : "bad";
}

/** A 4xx in words for the student. @param {unknown} err */
export function refusal(err) {
  if (!(err instanceof AssignmentError)) return err instanceof Error ? err.message : "The answer could not be sent.";
  const prefix = { 403: "Not accepted: ", 413: "Too large: ", 429: "Too often: ", 400: "Not accepted: " }[err.status] || "";
  return `${prefix}${err.message}`;
}

export class TaskSection {
  /**
   * @param {{assignment: any, task: any, onSubmit: (section: TaskSection) => void}} args
   */
  constructor({ assignment, task, onSubmit }) {
    this.assignment = assignment;
    this.task = task;
    this.kind = task.kind;
    this.polling = 0; // numbered polls: a newer submission stops the older one's
    this.attemptsLine = el("span", { class: "as-attempts", testid: "attempts-left" });
    this.body = el("div", { class: "as-task-body" });
    this.submitButton = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "primary as-submit", testid: "submit", text: "Submit" }));
    this.submitButton.addEventListener("click", () => onSubmit(this));
    this.verdict = el("p", { class: "as-verdict", testid: "submit-verdict", role: "status", "aria-live": "polite" });
    this.root = el("section", { class: "as-task", "data-task": task.kind, testid: `task-${task.kind}` },
      el("div", { class: "as-task-head" },
        el("h2", { text: KIND_TITLES[task.kind] || task.kind }),
        el("span", { class: "as-task-points", text: `${points(task.points)} ${task.points === 1 ? "point" : "points"}` }),
        this.attemptsLine),
      el("p", { class: "as-task-text", text: task.text || "" }),
      this.body,
      el("div", { class: "as-submit-row" }, this.submitButton, this.verdict));
    this.showAttempts(null);
  }

  /** "3 attempts left", "unlimited attempts". @param {number | null | undefined} left */
  showAttempts(left) {
    const limit = this.assignment.attempts;
    if (limit === null || limit === undefined) this.attemptsLine.textContent = "unlimited attempts";
    else {
      const n = typeof left === "number" ? left : limit;
      this.attemptsLine.textContent = `${n} of ${limit} ${limit === 1 ? "attempt" : "attempts"} left`;
    }
  }

  /** The verdict's line. @param {string} text @param {string} [tone] */
  say(text, tone = "") {
    this.verdict.textContent = text;
    this.verdict.className = `as-verdict${tone ? ` ${tone}` : ""}`;
  }

  /** The submission was received: say so, then follow it until it is graded. @param {any} answer @param {Kept} kept */
  received(answer, kept) {
    const limit = this.assignment.attempts;
    const attempt = answer.attempt ? `attempt ${answer.attempt}${limit ? ` of ${limit}` : ""}` : "";
    this.showAttempts(answer.attempts_left);
    this.say(`Received${attempt ? ` (${attempt})` : ""}. ${queued(answer.ahead)}`, "busy");
    this.follow(kept);
  }

  /**
   * Ask for the submission until it is graded (or hidden until the deadline): every second at first,
   * then less often (at most every 5 s).
   * @param {Kept} kept
   */
  async follow(kept) {
    const poll = ++this.polling;
    let wait = POLL_FIRST_MS;
    this.root.dataset.state = "waiting";
    for (;;) {
      let view;
      try {
        view = await submission(this.assignment.id, kept.submission, { receipt: kept.receipt });
      } catch (err) {
        if (poll !== this.polling) return;
        const gone = err instanceof AssignmentError && err.status === 404;
        this.say(gone ? "This browser's receipt for your last submission is no longer valid (the assignment may have been deleted)." : refusal(err), "bad");
        this.root.dataset.state = "error";
        return;
      }
      if (poll !== this.polling) return;
      if (this.show(view)) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (poll !== this.polling) return;
      wait = Math.min(POLL_MAX_MS, wait * 1.5);
    }
  }

  /** A submission's view on the line; true when there is nothing more to wait for. @param {any} view */
  show(view) {
    const attempt = view.attempt ? ` (attempt ${view.attempt}${this.assignment.attempts ? ` of ${this.assignment.attempts}` : ""})` : "";
    if (view.status === "queued") {
      this.say(`Received${attempt}. ${queued(view.ahead)}`, "busy");
      return false;
    }
    if (view.status === "grading") {
      this.say(`Received${attempt}. Grading now…`, "busy");
      return false;
    }
    if (!view.result && view.hidden_until) {
      this.say(`Received${attempt}. Verdicts are shown after the deadline (${localTime(view.hidden_until)}).`, "");
      this.root.dataset.state = "hidden";
      return true;
    }
    const result = view.result;
    if (view.status === "failed" && !result) {
      this.say(`Received${attempt}, but it could not be graded. Try again, or ask your teacher.`, "bad");
      this.root.dataset.state = "failed";
      return true;
    }
    if (!result) return false;
    const score = `${points(result.score)} / ${points(result.points)}`;
    this.say(`${score}${attempt}: ${result.sentence || ""}`.trim(), toneOf(result));
    this.root.dataset.state = "graded";
    this.root.dataset.score = String(result.score);
    return true;
  }
}

/** "Queued: 3 ahead…" @param {number | undefined} ahead */
function queued(ahead) {
  if (typeof ahead !== "number") return "Waiting for the grader…";
  return ahead ? `Queued: ${ahead} ahead…` : "Queued: next in line…";
}
