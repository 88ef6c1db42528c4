// @ts-check
// One task's section on the student's page: its words, points and attempts left, the existing panel
// that does the task (Your code, the Lab, Check) or Predict's list of states, a Submit button and the
// verdict's line (`submit-verdict`). What is submitted is the answer itself, never a verdict: the
// server grades it, and the line follows the submission until it is graded.

import { el } from "../dom.js";
import { setText, t } from "../i18n.js";
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
  if (!(err instanceof AssignmentError)) return err instanceof Error ? err.message : t("assignment.send_failed");
  const prefix = { 403: "assignment.not_accepted", 413: "assignment.too_large", 429: "assignment.too_often", 400: "assignment.not_accepted" }[err.status];
  return prefix ? t(prefix, { message: err.message }) : err.message;
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
    this.submitButton = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "primary as-submit", testid: "submit", t: "assignment.submit" }));
    this.submitButton.addEventListener("click", () => onSubmit(this));
    this.verdict = el("p", { class: "as-verdict", testid: "submit-verdict", role: "status", "aria-live": "polite" });
    this.root = el("section", { class: "as-task", "data-task": task.kind, testid: `task-${task.kind}` },
      el("div", { class: "as-task-head" },
        KIND_TITLES[task.kind] ? el("h2", { t: KIND_TITLES[task.kind] }) : el("h2", { text: task.kind }),
        el("span", { class: "as-task-points", t: "assignment.task_points", params: { count: task.points, points: points(task.points) } }),
        this.attemptsLine),
      el("p", { class: "as-task-text", text: task.text || "" }),
      this.body,
      el("div", { class: "as-submit-row" }, this.submitButton, this.verdict));
    this.showAttempts(null);
  }

  /** "3 attempts left", "unlimited attempts". @param {number | null | undefined} left */
  showAttempts(left) {
    const limit = this.assignment.attempts;
    if (limit === null || limit === undefined) setText(this.attemptsLine, "assignment.attempts_unlimited");
    else {
      const n = typeof left === "number" ? left : limit;
      setText(this.attemptsLine, "assignment.attempts_left", { n, count: limit });
    }
  }

  /** The verdict's line: a catalog key and its params (kept in the current language).
   * @param {string} key @param {Record<string, any>} [params] @param {string} [tone] */
  say(key, params = {}, tone = "") {
    setText(this.verdict, key, params);
    this.verdict.className = `as-verdict${tone ? ` ${tone}` : ""}`;
  }

  /** The verdict's line, a text already written (the server's words). @param {string} text @param {string} [tone] */
  sayText(text, tone = "") {
    delete this.verdict.dataset.i18n;
    delete this.verdict.dataset.i18nParams;
    this.verdict.textContent = text;
    this.verdict.className = `as-verdict${tone ? ` ${tone}` : ""}`;
  }

  /** The submission was received: say so, then follow it until it is graded. @param {any} answer @param {Kept} kept */
  received(answer, kept) {
    const limit = this.assignment.attempts;
    this.showAttempts(answer.attempts_left);
    this.say("assignment.received", { attempt: attemptWords(answer.attempt, limit), queued: queued(answer.ahead) }, "busy");
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
        if (gone) this.say("assignment.receipt_gone", {}, "bad");
        else this.sayText(refusal(err), "bad");
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
    const attempt = attemptWords(view.attempt, this.assignment.attempts);
    if (view.status === "queued") {
      this.say("assignment.received", { attempt, queued: queued(view.ahead) }, "busy");
      return false;
    }
    if (view.status === "grading") {
      this.say("assignment.received_grading", { attempt }, "busy");
      return false;
    }
    if (!view.result && view.hidden_until) {
      this.say("assignment.received_hidden", { attempt, when: localTime(view.hidden_until) });
      this.root.dataset.state = "hidden";
      return true;
    }
    const result = view.result;
    if (view.status === "failed" && !result) {
      this.say("assignment.received_failed", { attempt }, "bad");
      this.root.dataset.state = "failed";
      return true;
    }
    if (!result) return false;
    const score = `${points(result.score)} / ${points(result.points)}`;
    this.sayText(`${score}${attempt}: ${result.sentence || ""}`.trim(), toneOf(result));
    this.root.dataset.state = "graded";
    this.root.dataset.score = String(result.score);
    return true;
  }
}

/** "Queued: 3 ahead…" @param {number | undefined} ahead */
function queued(ahead) {
  if (typeof ahead !== "number") return t("assignment.waiting_grader");
  return ahead ? t("assignment.queued_ahead", { ahead }) : t("assignment.queued_next");
}

/** " (attempt 2 of 3)", or "" when the attempt is not known. @param {number | null | undefined} attempt @param {number | null | undefined} limit */
function attemptWords(attempt, limit) {
  if (!attempt) return "";
  return t(limit ? "assignment.attempt_of" : "assignment.attempt", { attempt, limit: limit || 0 });
}
