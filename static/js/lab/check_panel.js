// @ts-check
// "Check a solution" beside the board: a solution pasted into the box or dropped on it (a file's
// text), in any of the family's notations, sent to POST /api/puzzles/<id>/check with the form's
// rules; the verdict in words ("Legal, cost 54; the optimum is 52 (not optimal)", or the first illegal
// move and the rule it breaks) and the server's `replay` played on the board by the family's own
// animation (SingleView.showChecked → Stage.showResult), the first illegal move marked there
// (FamilyView.markIllegal).

import * as api from "../api.js";
import { el } from "../dom.js";
import { number, sentence } from "../format.js";
import { lang, onLanguage, t } from "../i18n.js";

const MAX_BYTES = 1024 * 1024; // the server's max_solution_bytes: a larger file is refused here first

/**
 * What the checker reads of the page.
 * @typedef {object} CheckPage
 * @property {() => any} puzzle  the puzzle shown (its info), or null
 * @property {() => Object<string, any>} options  the run options of the form's present choice
 * @property {(args: {result: any, text: string, options: object,
 *   illegal: {move: number, reason: string, cell: number, target: number} | null}) => void} replay
 *   show the checked solution on the board
 */

export class CheckPanel {
  /** @param {{root: HTMLElement, page: CheckPage}} args */
  constructor({ root, page }) {
    this.root = root;
    this.page = page;
    this.asked = 0;
    /** @type {any} the last answer shown */
    this.answer = null;
    this.name = "check";
    this.tabKey = "lab.check.tab"; // the drawer writes it (and again when the language changes)
    this.info = null; // the puzzle shown (its notation is in the box's placeholder)
    this.build();
    onLanguage(() => {
      this.writePlaceholder();
      if (this.answer) this.writeDetails(this.answer);
    });
  }

  /** The tab's words in the page's language. */
  get tab() {
    return t(this.tabKey);
  }

  build() {
    this.input = /** @type {HTMLTextAreaElement} */ (el("textarea", {
      id: "check-input", class: "check-input", testid: "check-input", rows: 4, spellcheck: "false",
      autocomplete: "off", autocapitalize: "off", "aria-describedby": "check-hint", tattr: { "aria-label": "lab.check.input" },
    }));
    this.checkButton = el("button", { type: "submit", class: "primary", testid: "check-run", t: "lab.check.run" });
    this.file = /** @type {HTMLInputElement} */ (el("input", { type: "file", testid: "check-file", accept: ".txt,.json,text/plain,application/json" }));
    this.file.addEventListener("change", () => {
      const file = this.file.files?.[0];
      if (file) this.readFile(file);
      this.file.value = "";
    });
    const form = el("form", { class: "check-form", testid: "check-form" },
      this.input,
      el("div", { class: "check-row" },
        this.checkButton,
        el("label", { class: "upload-button" }, el("span", { t: "lab.check.open" }), this.file),
        el("span", { class: "hint", id: "check-hint", t: "lab.check.drop" })),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    // Ctrl+Enter checks from the box (Enter alone is a new line: solutions run over lines).
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        this.check();
      }
    });
    this.input.addEventListener("dragover", (event) => {
      event.preventDefault();
      event.stopPropagation();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
      this.input.classList.add("dropping");
    });
    this.input.addEventListener("dragleave", () => this.input.classList.remove("dropping"));
    this.input.addEventListener("drop", (event) => {
      event.preventDefault();
      event.stopPropagation();
      this.input.classList.remove("dropping");
      const file = event.dataTransfer?.files?.[0];
      if (file) this.readFile(file);
      else {
        const text = event.dataTransfer?.getData("text/plain");
        if (text) {
          this.input.value = text;
          this.check();
        }
      }
    });
    this.error = el("p", { class: "field-error lab-error", testid: "check-error", role: "alert", hidden: true });
    this.busy = el("p", { class: "hint", testid: "check-busy", hidden: true, t: "lab.check.busy" });
    this.headline = el("p", { class: "lab-headline", testid: "check-verdict", role: "status", "aria-live": "polite", hidden: true });
    this.details = el("p", { class: "hint", testid: "check-details", hidden: true });
    this.section = el("section", { class: "lab-section", testid: "lab-check" },
      form, this.error, this.busy, this.headline, this.details,
    );
    this.root.append(this.section);
  }

  /** In sight or not (nothing to do: the replay stays on the board). */
  setOpen(_shown) {}

  /** A puzzle is shown: the old verdict goes (the text stays, to check it on this board too). */
  puzzleShown(info) {
    this.asked++;
    this.forgetVerdict();
    this.say("");
    this.busy.hidden = true;
    this.checkButton.disabled = !info;
    this.info = info;
    this.writePlaceholder();
  }

  /** The box's placeholder: what the family's checker reads (GET /api/puzzles/<id>: solution_notation). */
  writePlaceholder() {
    const given = this.info?.solution_notation;
    const notation = given ? `${given[0].toUpperCase()}${given.slice(1)}, ` : "";
    this.input.placeholder = t("lab.check.placeholder", { notation });
  }

  /** A file's text into the box, then checked. @param {File} file */
  async readFile(file) {
    if (file.size > MAX_BYTES) {
      this.say(t("lab.check.too_large", { name: file.name, mb: MAX_BYTES / 1024 / 1024 }));
      return;
    }
    try {
      this.input.value = await file.text();
    } catch {
      this.say(t("lab.check.unreadable", { name: file.name }));
      return;
    }
    this.check();
  }

  say(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
    this.input.classList.toggle("invalid", Boolean(message));
  }

  /** A new check begins: the last verdict goes, so it never stands beside a new text's error. */
  forgetVerdict() {
    this.answer = null;
    this.headline.hidden = true;
    this.details.hidden = true;
    delete this.root.dataset.checked;
  }

  async check() {
    const info = this.page.puzzle();
    const text = this.input.value;
    if (!info) return;
    this.forgetVerdict();
    if (!text.trim()) {
      this.say(t("lab.check.empty"));
      return;
    }
    const ask = ++this.asked;
    const options = this.page.options();
    this.say("");
    this.busy.hidden = false;
    this.checkButton.disabled = true;
    this.root.dataset.checking = "1";
    try {
      const answer = await api.checkSolution(info.id, text, options);
      if (ask !== this.asked || this.page.puzzle() !== info) return;
      this.show(answer, info, options);
    } catch (err) {
      if (ask !== this.asked) return;
      this.say(api.errorWords(err, t("lab.check.failed")));
    } finally {
      if (ask === this.asked) {
        this.busy.hidden = true;
        this.checkButton.disabled = false;
        delete this.root.dataset.checking;
      }
    }
  }

  /** The verdict, and the replay on the board. */
  show(answer, info, options) {
    this.answer = answer;
    const good = Boolean(answer.valid && answer.optimal);
    this.headline.textContent = sentence(answer.summary || answer.reason || t(answer.valid ? "lab.check.legal" : "lab.check.illegal"));
    this.headline.className = `lab-headline ${good ? "good" : answer.valid ? "warn" : "bad"}`;
    this.headline.hidden = false;
    this.writeDetails(answer);
    this.details.hidden = false;
    this.root.dataset.checked = answer.valid ? (answer.optimal ? "optimal" : "legal") : "illegal";
    const replay = answer.replay;
    if (!replay || typeof replay !== "object") return;
    const illegal = answer.valid ? null : {
      move: answer.first_illegal_move || 0,
      reason: answer.reason || "",
      cell: lastCell(replay, info),
      target: targetCell(answer.reason, info),
    };
    const verdict = this.headline.textContent.replace(/\.$/, "");
    const result = { ...replay, check_summary: verdict, check_tone: good ? "good" : answer.valid ? "warn" : "bad" };
    this.page.replay({ result, text: t("lab.check.caption", { verdict }), options, illegal });
  }

  /** What was read and replayed, in the page's language (the optimum's note is the server's). @param {any} answer */
  writeDetails(answer) {
    const moves = Number.isInteger(answer.moves) ? answer.moves : null;
    const parts = [];
    if (moves !== null) parts.push(t("lab.check.moves_read", { count: moves, moves: number(moves) }));
    if (answer.first_illegal_move) {
      parts.push(t("lab.check.replayed_to", { before: answer.first_illegal_move - 1, move: answer.first_illegal_move }));
    } else if (!answer.valid) parts.push(t("lab.check.replayed_partly"));
    else parts.push(t("lab.check.replayed"));
    if (answer.optimum_note) parts.push(answer.optimum_note);
    this.details.textContent = sentence(parts.join("; "));
  }
}

/** A [row, col] (or an object holding one under cell/tile/player) as a cell index, or -1. */
function cellOf(item, info) {
  const pair = Array.isArray(item) ? item : item && typeof item === "object" ? item.cell || item.tile || item.player : null;
  if (!Array.isArray(pair) || pair.length !== 2 || !pair.every(Number.isInteger) || !info?.width) return -1;
  const [r, c] = pair;
  return r >= 0 && c >= 0 && r < info.height && c < info.width ? r * info.width + c : -1;
}

/** Where the replayed walk stopped: its path's last state's cell (-1: unknown). */
function lastCell(replay, info) {
  const path = Array.isArray(replay.path) ? replay.path : [];
  return path.length ? cellOf(path[path.length - 1], info) : -1;
}

/**
 * The cell an illegal move tried to enter, when the reason names it ("… enters a wall at (3, 5)",
 * "… to (4, 6) is diagonal"): the last "at (r, c)" or "to (r, c)"; -1 when it names none.
 */
function targetCell(reason, info) {
  let found = [...String(reason || "").matchAll(/\b(?:at|to) \((\d+), (\d+)\)/g)];
  // Another language words it otherwise: the last "(r, c)" it names.
  if (!found.length && lang() !== "en") found = [...String(reason || "").matchAll(/\((\d+), ?(\d+)\)/g)];
  if (!found.length) return -1;
  const [, r, c] = found[found.length - 1];
  return cellOf([Number(r), Number(c)], info);
}
