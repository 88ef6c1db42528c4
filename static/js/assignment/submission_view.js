// @ts-check
// One submission opened on the teacher's page: who, which attempt, the score and the verdict's
// sentence, and the answer with what shows it best — code as read-only text with "Replay on the
// board" (the recorded run played as the algorithm `code`), a formula judged again by the Lab (its
// heat map on the board), a solution checked again by Check (replayed on the board), predictions
// beside the truth. The answer is text (textContent), never markup.

import { el } from "../dom.js";
import { setText, t } from "../i18n.js";
import { kindTitle, points, replay, submission } from "./api.js";
import { toneOf } from "./tasks.js";
import { localTime } from "./when.js";

export class SubmissionView {
  /**
   * @param {{host: HTMLElement, board: import("./board.js").Board, id: string, token: () => string}} args
   */
  constructor({ host, board, id, token }) {
    this.board = board;
    this.id = id;
    this.token = token;
    this.asked = 0;
    /** @type {any} */
    this.lab = null;
    /** @type {any} */
    this.check = null;
    this.root = el("section", { class: "as-submission", testid: "submission-view", hidden: true, "aria-live": "polite" });
    host.append(this.root);
  }

  /** Open the counted submission of a row's task. @param {any} row @param {string} kind */
  async open(row, kind) {
    const sid = row.tasks?.[kind]?.submission;
    if (!sid) return;
    const ask = ++this.asked;
    this.root.hidden = false;
    this.root.replaceChildren(el("p", { class: "hint", t: "assignment.opening_submission" }));
    let view;
    try {
      view = await submission(this.id, sid, { token: this.token() });
    } catch (err) {
      if (ask === this.asked) this.root.replaceChildren(el("p", { class: "field-error", role: "alert", text: err instanceof Error ? err.message : t("assignment.open_failed") }));
      return;
    }
    if (ask !== this.asked) return;
    this.board.clearRun(); // the last submission's replay leaves the board
    await this.show(view);
    this.root.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  /** @param {any} view the teacher's submission view */
  async show(view) {
    const result = view.result;
    const close = el("button", { type: "button", class: "as-close-view", testid: "submission-close", t: "assignment.close" });
    close.addEventListener("click", () => { this.root.hidden = true; });
    const score = result ? `${points(result.score)} / ${points(result.points)}` : view.status;
    this.root.replaceChildren(
      el("div", { class: "as-sub-head" },
        el("h2", {}, el("span", { t: "assignment.kind_colon", params: { kind: kindTitle(view.task) } }), el("span", { testid: "submission-who", text: `${view.name || ""} (${view.student || ""})` })),
        close),
      el("p", { class: "hint", t: "assignment.attempt_received", params: { attempt: view.attempt ?? "?", when: localTime(view.received) } }),
      result
        ? el("p", { class: `as-verdict ${toneOf(result)}`, testid: "submission-verdict", text: `${score}: ${result.sentence || ""}` })
        : el("p", { class: `as-verdict ${toneOf(result)}`, testid: "submission-verdict", t: "assignment.not_graded", params: { score } }),
    );
    this.root.dataset.task = view.task;
    const answer = view.answer || {};
    if (view.task === "code") this.code(view, answer);
    else if (view.task === "heuristic") await this.heuristic(answer);
    else if (view.task === "solution") await this.solution(answer);
    else if (view.task === "predict") this.predict(result);
  }

  /** The code as text, and its recorded run replayed on the board. */
  code(view, answer) {
    const status = el("span", { class: "hint", testid: "replay-status" });
    const button = el("button", { type: "button", testid: "replay", t: "assignment.replay" });
    button.addEventListener("click", async () => {
      this.lab?.setOpen(false); // a formula's heat map would hide the run
      setText(status, "assignment.asking_run");
      try {
        const { run } = await replay(this.id, view.submission, this.token());
        const info = this.board.info;
        if (!info) throw new Error(t("assignment.no_board"));
        this.board.play({
          puzzle: info.id, algorithm: "code", options: { ...this.board.options(), code: run },
          text: t("assignment.student_code", { name: view.name || t("assignment.the_student"), label: this.board.algorithmLabel }),
        });
        setText(status, "assignment.playing");
      } catch (err) {
        if (err instanceof Error) {
          delete status.dataset.i18n;
          status.textContent = err.message;
        } else setText(status, "assignment.replay_failed");
      }
    });
    this.root.append(
      el("div", { class: "as-sub-actions" }, button, status),
      el("pre", { class: "as-code-text", testid: "submission-code", tabindex: "0", text: String(answer.code ?? "") }));
  }

  /** The formula, judged again by the Lab: its verdict and heat map on the board. */
  async heuristic(answer) {
    const holder = el("div", { class: "lab as-lab" });
    this.root.append(holder);
    const { LabPanel } = await import("../lab/lab_panel.js");
    const panel = new LabPanel({ root: holder, page: this.board.labPage() });
    if (this.lab) this.lab.setOpen(false);
    this.lab = panel;
    panel.puzzleShown(this.board.info);
    panel.setOpen(true);
    panel.input.value = String(answer.formula ?? "");
    panel.input.readOnly = true;
    panel.useButton.hidden = true;
    await panel.judge();
  }

  /** The solution, checked again by Check and replayed on the board. */
  async solution(answer) {
    const holder = el("div", { class: "lab as-lab" });
    this.root.append(holder);
    const { CheckPanel } = await import("../lab/check_panel.js");
    const panel = new CheckPanel({ root: holder, page: this.board.checkPage() });
    this.check = panel;
    panel.puzzleShown(this.board.info);
    panel.input.value = String(answer.solution ?? "");
    panel.input.readOnly = true;
    await panel.check();
  }

  /** The predictions beside the truth (the result's details). */
  predict(result) {
    const details = Array.isArray(result?.details) ? result.details : Array.isArray(result?.details?.rows) ? result.details.rows : [];
    if (!details.length) {
      this.root.append(el("p", { class: "hint", t: "assignment.no_details" }));
      return;
    }
    this.root.append(el("table", { class: "as-predict-table", testid: "predict-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "#" }), el("th", { scope: "col", t: "assignment.predicted" }),
        el("th", { scope: "col", t: "assignment.truth" }), el("th", { scope: "col" }))),
      el("tbody", {}, ...details.map((d) => el("tr", { class: d.right ? "good" : "bad" },
        el("td", { text: String(d.i ?? "") }),
        el("td", { text: String(d.yours ?? "—") }),
        el("td", { text: String(d.truth ?? "") }),
        el("td", { text: d.right ? "✓" : "✗", tattr: { "aria-label": d.right ? "assignment.right" : "assignment.wrong" } }))))));
  }
}
