// @ts-check
// Exercise mode's panel beside the board: how many expansions to ask, the score, the question, the
// states on the frontier as buttons (the student's answer by list; the board takes a click too), the
// Continue button after a wrong answer, the feedback lines (newest first) and the final line. Only
// DOM here: ./exercise.js decides what it says.

import { el } from "../dom.js";
import { onLanguage, setText } from "../i18n.js";

/** How many expansions a run asks about: [value, words] (0: every one). */
const ASK_CHOICES = [[10, "predict.ask_10"], [20, "predict.ask_20"], [0, "predict.ask_all"]];
const FEEDBACK_LINES = 6; // lines kept, newest first

/**
 * Text, or how to write it (again, in the language chosen next).
 * @typedef {string | (() => string)} Words
 */
/** @param {Words} words */
const said = (words) => (typeof words === "function" ? words() : words);

/**
 * @typedef {object} Choice  a button of the list
 * @property {number} cell
 * @property {string} label  the state as explain mode names it
 * @property {string} keys   what the rule orders by ("f 12 = g 5 + h 7"), or ""
 * @property {HTMLElement | null} [figure]  the state drawn small by its family's view (a board), or null
 */

/**
 * The keys under a choice; under a drawn state "f 18 = g 1 + h 17" goes on two lines (f first), so the
 * narrow card never breaks it elsewhere.
 * @param {string} keys
 * @param {boolean} split
 */
function keysNode(keys, split) {
  const at = split ? keys.indexOf(" = ") : -1;
  if (at < 0) return el("span", { class: "choice-keys", text: keys });
  return el("span", { class: "choice-keys", title: keys },
    el("b", { text: keys.slice(0, at) }), el("br"), keys.slice(at)); // its text reads as one line: "f 18 = g 1 + h 17"
}

/** @type {WeakMap<HTMLElement, {kind: string, head: Words, text: Words}>} a feedback line -> its words */
const lines = new WeakMap();

export class ExercisePanel {
  /**
   * @param {{host: HTMLElement, onAsk: (count: number) => void, onChoose: (cell: number) => void,
   *          onContinue: () => void}} args  onAsk: the number of expansions to ask changed (0: all);
   *   onChoose: a state of the list was chosen; onContinue: play on after a wrong answer.
   */
  constructor({ host, onAsk, onChoose, onContinue }) {
    this.host = host;
    this.onChoose = onChoose;
    this.ask = el("select", { testid: "exercise-ask", id: "exercise-ask" },
      ...ASK_CHOICES.map(([value, key]) => el("option", { value: String(value), t: key })));
    this.ask.addEventListener("change", () => onAsk(Number(this.ask.value)));
    this.score = el("span", { class: "exercise-score", testid: "exercise-score", "aria-live": "polite" });
    this.question = el("p", { class: "exercise-question", testid: "exercise-question" });
    this.choices = el("div", { class: "exercise-choices", testid: "exercise-choices", role: "group", tattr: { "aria-label": "predict.choices_label" } });
    this.note = el("p", { class: "exercise-note", testid: "exercise-note" });
    this.continueButton = el("button", {
      type: "button", class: "primary exercise-continue", testid: "exercise-continue", hidden: true,
      t: "predict.continue", tattr: { title: "predict.continue_title" },
      on: { click: () => onContinue() },
    });
    this.feedback = el("div", { class: "exercise-feedback", testid: "exercise-feedback", "aria-live": "polite" });
    this.final = el("p", { class: "exercise-final", testid: "exercise-final", hidden: true });
    host.replaceChildren(
      el("h2", { class: "exercise-title", t: "predict.title" }),
      el("div", { class: "exercise-head" },
        el("label", { for: "exercise-ask" }, el("span", { t: "predict.ask" }), " ", this.ask), this.score),
      this.final, this.question, this.note, this.choices, this.continueButton, this.feedback,
    );
    /** @type {Map<number, HTMLButtonElement>} cell -> its button */
    this.buttons = new Map();
    /** @type {[Words, Words]} the question and the note shown */
    this.said = ["", ""];
    /** @type {Words} the final line */
    this.finalWords = "";
    onLanguage(() => {
      this.say(...this.said);
      this.setFinal(this.finalWords);
      for (const line of this.feedback.children) this.fillLine(/** @type {HTMLElement} */ (line));
    });
  }

  /** @param {number} count 0: every expansion */
  setAsk(count) {
    this.ask.value = String(count);
  }

  /** "Score: 3 / 4". @param {number} right @param {number} asked */
  setScore(right, asked) {
    setText(this.score, "predict.score", { right, asked });
  }

  /**
   * The question's words (or what to do to get one), and the note under the list.
   * @param {Words} question
   * @param {Words} [note]
   */
  say(question, note = "") {
    this.said = [question, note];
    this.question.textContent = said(question);
    const text = said(note);
    this.note.textContent = text;
    this.note.hidden = !text;
  }

  /**
   * The states to choose from (none: the list goes), enabled.
   * @param {Choice[]} list
   */
  showChoices(list) {
    this.buttons.clear();
    const buttons = list.map(({ cell, label, keys, figure = null }) => {
      const button = /** @type {HTMLButtonElement} */ (el("button", {
        type: "button", class: `exercise-choice${figure ? " with-figure" : ""}`, testid: "exercise-choice", "data-cell": String(cell),
        "aria-label": figure ? `${label}${keys ? `, ${keys}` : ""}` : null,
        on: { click: () => this.onChoose(cell) },
      }, figure, el("span", { class: "choice-label", text: label }), keys ? keysNode(keys, Boolean(figure)) : null));
      // Enter and Space pick it (the page's Space plays and pauses everywhere else).
      button.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        this.onChoose(cell);
      });
      this.buttons.set(cell, button);
      return button;
    });
    this.choices.replaceChildren(...buttons);
    this.choices.hidden = !buttons.length;
  }

  /**
   * The answer given: the list is kept, disabled, the answer marked and a wrong choice struck out.
   * @param {number} answer
   * @param {number | null} chosen  null: skipped
   */
  markAnswer(answer, chosen) {
    for (const [cell, button] of this.buttons) {
      button.disabled = true;
      button.classList.toggle("answer", cell === answer);
      button.classList.toggle("chosen-wrong", chosen !== null && cell === chosen && cell !== answer);
    }
  }

  /** Only these cells stay enabled (several states on the frontier share the cell clicked). @param {Set<number>} cells */
  narrow(cells) {
    for (const [cell, button] of this.buttons) {
      button.disabled = !cells.has(cell);
      button.classList.toggle("narrowed", cells.has(cell));
    }
    const first = [...this.buttons.values()].find((b) => !b.disabled);
    first?.focus();
  }

  /** @param {boolean} shown */
  showContinue(shown) {
    this.continueButton.hidden = !shown;
    if (shown) this.continueButton.focus({ preventScroll: true });
  }

  /** Bring the newest feedback line (and Continue above it) into sight within the panel. */
  showLatest() {
    const line = this.feedback.firstElementChild;
    if (!line || this.host.hidden) return;
    const box = this.host;
    const top = (this.continueButton.hidden ? line : this.continueButton).getBoundingClientRect().top;
    const bottom = line.getBoundingClientRect().bottom;
    const view = box.getBoundingClientRect();
    if (bottom > view.bottom) box.scrollTop += Math.min(bottom - view.bottom + 8, top - view.top);
  }

  /**
   * A feedback line on top of the earlier ones.
   * @param {"right" | "wrong" | "skipped" | "info"} kind
   * @param {Words} head  "Right", "Not quite"… (bold)
   * @param {Words} text
   */
  addFeedback(kind, head, text) {
    const line = el("p", { class: `feedback-line ${kind}`, "data-kind": kind });
    lines.set(line, { kind, head, text });
    this.fillLine(line);
    for (const old of this.feedback.children) old.classList.add("older");
    this.feedback.prepend(line);
    while (this.feedback.children.length > FEEDBACK_LINES) this.feedback.lastElementChild.remove();
  }

  /** A feedback line's words, in the current language. @param {HTMLElement} line */
  fillLine(line) {
    const words = lines.get(line);
    if (!words) return;
    const mark = words.kind === "right" ? "✓ " : words.kind === "wrong" ? "✗ " : "";
    const text = said(words.text);
    line.replaceChildren(el("strong", { text: `${mark}${said(words.head)}` }), text ? ` ${text}` : "");
  }

  clearFeedback() {
    this.feedback.replaceChildren();
  }

  /** The final line ("You predicted 18 of 20 expansions."), or none. @param {Words} words */
  setFinal(words) {
    this.finalWords = words;
    const text = said(words);
    this.final.textContent = text;
    this.final.hidden = !text;
  }
}
