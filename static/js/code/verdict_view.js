// @ts-check
// The verdict's place in "Your code" (./code_panel.js): the server's verdict on a run (POST
// …/code/verdict, docs/STUDENT.md "The verdict") — its headline coloured by the verdict, the states
// where the orders part, the other messages — the program's error with a "Go to line" button and its
// traceback, or one problem instead (a refusal, a time limit).
//
//   const view = new VerdictView({ onGoToLine });  // view.box: the element to place
//   view.show({ verdict, error, algorithm });       // show(null) clears it
//   view.showProblem(message, error);

import { el } from "../dom.js";
import { t } from "../i18n.js";

// The verdict's tone: matches green, differs amber, illegal and no path red.
const TONES = { matches: "good", valid: "good", differs: "warn", stopped: "warn", illegal: "bad", "no path": "bad" };

/** A state in its student form (JSON) as Python writes it: lists as tuples, strings quoted. */
function pyRepr(value) {
  if (Array.isArray(value)) return value.length === 1 ? `(${pyRepr(value[0])},)` : `(${value.map(pyRepr).join(", ")})`;
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  return String(value);
}

export class VerdictView {
  /** @param {{onGoToLine: (line: number) => void}} args  the error's "Go to line N" pressed */
  constructor({ onGoToLine }) {
    this.onGoToLine = onGoToLine;
    this.box = el("div", { class: "code-verdict", testid: "code-verdict", "aria-live": "polite" });
  }

  /** One message in the verdict's place (a time limit): a catalog key and its params (kept in the
   * current language), with the program's error if any. @param {string} key @param {Record<string, any>} [params] */
  showProblem(key, params = {}, error = null) {
    this.showParts(el("strong", { t: key, params }), error);
  }

  /** One message already written (the server's refusal, in the page's language when it was asked). */
  showProblemText(message, error = null) {
    this.showParts(el("strong", { text: message }), error);
  }

  showParts(strong, error) {
    const parts = [el("p", { class: "code-headline bad", testid: "code-problem" }, strong)];
    if (error) parts.push(...this.errorParts(error));
    this.box.replaceChildren(...parts);
    this.box.hidden = false;
  }

  /**
   * The verdict: the server's messages (the first bold, coloured by `verdict`), where the orders
   * differ with both states named, the program's error with its line; null clears it.
   * @param {{verdict?: any, error?: any, algorithm?: string} | null} what
   */
  show(what) {
    if (!what) {
      this.box.replaceChildren();
      this.box.hidden = true;
      return;
    }
    const { verdict, error } = what;
    const parts = [];
    if (verdict) parts.push(...this.verdictParts(verdict));
    if (error) parts.push(...this.errorParts(error, !verdict));
    this.box.replaceChildren(...parts);
    this.box.hidden = !parts.length;
  }

  /** The headline (its lead bold, the states where the orders part, its explanation), then the other messages. */
  verdictParts(verdict) {
    const parts = [];
    const messages = (Array.isArray(verdict.messages) ? verdict.messages : []).map(String).filter(Boolean);
    const tone = TONES[verdict.verdict] || "warn";
    // The first message's lead in bold ("Differs from BFS at expansion 2:"), its explanation after it.
    const first = messages[0] || String(verdict.verdict || "");
    const lead = /^.*?[:.](?=\s|$)/.exec(first)?.[0] || first;
    const box = el("div", { class: `code-headline ${tone}`, testid: "code-headline" }, el("strong", { text: lead }));
    // Where the orders part: both states named, first (the explanation below may be long).
    const order = verdict.order;
    if (order && order.at !== null && order.at !== undefined && (order.yours_state !== undefined || order.ours_state !== undefined)) {
      const ours = order.label || order.algorithm || t("code.ours");
      box.append(" ", el("span", { class: "code-states", testid: "code-states" },
        el("span", { t: "code.yours" }), el("code", { text: order.yours_shown || pyRepr(order.yours_state) }),
        ` · ${ours}: `, el("code", { text: order.ours_shown || pyRepr(order.ours_state) }),
        order.tie ? el("span", { t: "code.tie" }) : ""));
    }
    const explanation = first.slice(lead.length).trim();
    if (explanation) box.append(el("span", { class: "code-why", text: explanation }));
    parts.push(box);
    const rest = messages.slice(1).map((text) => el("li", { text }));
    if (rest.length) parts.push(el("ul", { class: "code-messages" }, ...rest));
    return parts;
  }

  /** The program's error: its kind and message, its line (a button to go there), its traceback. */
  errorParts(error, headline = false) {
    const line = Number.isInteger(error.line) && error.line > 0 ? error.line : 0;
    const kind = error.kind || t("code.error_kind");
    const said = { t: line ? "code.error_on_line" : "code.error_text", params: { kind, line, message: error.message || "" } };
    const parts = [headline
      ? el("p", { class: "code-headline bad", testid: "code-error" }, el("strong", said))
      : el("p", { class: "code-error", testid: "code-error", ...said })];
    const actions = [];
    if (line) {
      actions.push(el("button", { type: "button", class: "code-goto", testid: "code-goto", t: "code.go_to_line", params: { line },
        on: { click: () => this.onGoToLine(line) } }));
    }
    if (error.traceback) {
      actions.push(el("details", { class: "code-traceback" }, el("summary", { t: "code.traceback" }),
        el("pre", { testid: "code-traceback", text: String(error.traceback) })));
    }
    if (actions.length) parts.push(el("div", { class: "code-error-actions" }, ...actions));
    return parts;
  }
}
