// @ts-check
// "Make an assignment…" on the main page (docs/TEACHER.md): a dialog that starts from what the page
// shows — the puzzle, the algorithm and options of the form, the playhead's expansions (Predict's
// `from`) — and lets the teacher choose the tasks (each with its points and settings), a deadline,
// when verdicts are shown, attempts and which attempt counts. Create posts it (POST /api/assignments)
// and shows the two links: the class link to hand out, the teacher link (the only key; shown once).

import { el } from "../dom.js";
import { lang, setText, t } from "../i18n.js";
import { AssignmentError, KINDS, KIND_TITLES, create } from "./api.js";
import { localInputToIso } from "./when.js";

/**
 * What the dialog reads of the main page.
 * @typedef {object} MakePage
 * @property {() => any} puzzle  the puzzle shown (its info), or null
 * @property {() => {algorithm: string, options: Object<string, any>}} choice  the form's algorithm and options
 * @property {() => number} expanded  states expanded at the playhead (0 without a run of the form's choice)
 * @property {() => Map<string, any>} families  the families' schema entries by name
 * @property {(name: string) => string} label  an algorithm's label ("A*")
 */

/** Why a task cannot apply to a family (its /api/families entry), or "". */
export function taskUnavailable(kind, family) {
  if (!family) return "";
  // English writes the family's name in running text in lower case; German keeps a noun's capital.
  const title = String(family.title || family.name);
  const name = lang() === "en" ? title.toLowerCase() : title;
  if (kind === "heuristic" && !(Array.isArray(family.features) && family.features.length)) {
    return t("assignment.no_features", { family: name });
  }
  if (kind === "solution" && !family.checks_solutions) {
    return t("assignment.no_checker", { family: name });
  }
  return "";
}

/** A link with the page's language (?lang=, before a #fragment): it opens in the language it was made in.
 * @param {string} url */
export function withLang(url) {
  const [path, fragment] = String(url).split("#");
  const joined = `${path}${path.includes("?") ? "&" : "?"}lang=${lang()}`;
  return fragment === undefined ? joined : `${joined}#${fragment}`;
}

const DEFAULT_POINTS = { predict: 2, code: 5, heuristic: 3, solution: 2 };

export class MakeDialog {
  /** @param {{openButton: HTMLElement, page: MakePage}} args */
  constructor({ openButton, page }) {
    this.page = page;
    /** @type {HTMLDialogElement | null} */
    this.dialog = null;
    openButton.addEventListener("click", () => this.open());
  }

  /** A number input. @param {string} testid @param {object} props */
  number(testid, props) {
    return /** @type {HTMLInputElement} */ (el("input", { type: "number", class: "as-num", testid, ...props }));
  }

  build() {
    this.title = /** @type {HTMLInputElement} */ (el("input", { type: "text", id: "assign-title", testid: "assign-title", maxlength: 120 }));
    this.about = el("p", { class: "hint", testid: "assign-about" });
    /** @type {Record<string, {box: HTMLInputElement, points: HTMLInputElement, why: HTMLElement, row: HTMLElement}>} */
    this.tasks = {};
    this.count = this.number("assign-predict-count", { min: 1, max: 50, value: 5, tattr: { "aria-label": "assignment.predict_count" } });
    this.from = this.number("assign-predict-from", { min: 0, value: 0, tattr: { "aria-label": "assignment.predict_from" } });
    this.bar = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", testid: "assign-heuristic-bar" }));
    this.margin = this.number("assign-solution-margin", { min: 0, max: 1000, value: 0, step: "any", tattr: { "aria-label": "assignment.margin_label" } });
    const settings = {
      predict: [el("label", {}, el("span", { t: "assignment.predict_next" }), this.count, el("span", { t: "assignment.predict_after" }), this.from,
        el("span", { class: "hint as-hint", t: "assignment.predict_after_hint" }))],
      code: [el("span", { class: "hint", t: "assignment.code_hint" })],
      heuristic: [el("label", { class: "as-inline-check" }, this.bar, el("span", { t: "assignment.bar_hint" }))],
      solution: [el("label", {}, el("span", { t: "assignment.cost_at_most" }), this.margin, el("span", { t: "assignment.over_optimum" }))],
    };
    const rows = KINDS.map((kind) => {
      const box = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", testid: `assign-task-${kind}`, id: `assign-task-${kind}` }));
      const points = this.number(`assign-points-${kind}`, { min: 0.5, max: 1000, step: "any", value: DEFAULT_POINTS[kind],
        tattr: { "aria-label": ["assignment.points_for", { kind: t(KIND_TITLES[kind]) }] } });
      const why = el("span", { class: "as-why", hidden: true });
      const row = el("div", { class: "as-task-row", "data-task": kind },
        el("label", { class: "as-task-name", for: `assign-task-${kind}` }, box, el("span", { t: KIND_TITLES[kind] })),
        el("label", { class: "as-points" }, points, el("span", { t: "assignment.points_word" })),
        el("div", { class: "as-task-settings" }, ...settings[kind], why));
      box.addEventListener("change", () => this.sync());
      this.tasks[kind] = { box, points, why, row };
      return row;
    });
    this.deadline = /** @type {HTMLInputElement} */ (el("input", { type: "datetime-local", testid: "assign-deadline", id: "assign-deadline" }));
    this.reveal = /** @type {HTMLSelectElement} */ (el("select", { testid: "assign-reveal", id: "assign-reveal" },
      el("option", { value: "now", t: "assignment.reveal_now" }), el("option", { value: "after_deadline", t: "assignment.reveal_after_deadline" })));
    this.attempts = this.number("assign-attempts", { min: 1, max: 100, value: 3, id: "assign-attempts" });
    this.unlimited = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", testid: "assign-unlimited" }));
    this.unlimited.addEventListener("change", () => this.sync());
    this.deadline.addEventListener("input", () => this.sync());
    this.counts = /** @type {HTMLSelectElement} */ (el("select", { testid: "assign-counts", id: "assign-counts" },
      el("option", { value: "best", t: "assignment.counts_best" }), el("option", { value: "last", t: "assignment.counts_last" })));
    this.error = el("p", { class: "field-error as-error", testid: "assign-error", role: "alert", hidden: true });
    this.createButton = el("button", { type: "submit", class: "primary", testid: "assign-create", t: "assignment.create" });
    this.form = el("form", { class: "as-form", testid: "assign-form" },
      el("div", { class: "as-field" }, el("label", { for: "assign-title", t: "assignment.title" }), this.title),
      this.about,
      el("fieldset", { class: "as-tasks" }, el("legend", { t: "assignment.tasks_choose" }), ...rows),
      el("div", { class: "as-settings" },
        el("label", { for: "assign-deadline" }, el("span", { t: "assignment.deadline_label" }), el("span", { class: "muted", t: "assignment.deadline_optional" }), this.deadline),
        el("label", { for: "assign-reveal" }, el("span", { t: "assignment.reveal_label" }), this.reveal),
        el("label", { for: "assign-attempts" }, el("span", { t: "assignment.attempts_label" }), el("span", { class: "as-inline" }, this.attempts,
          el("label", { class: "check" }, this.unlimited, el("span", { t: "assignment.unlimited" })))),
        el("label", { for: "assign-counts" }, el("span", { t: "assignment.counts_label" }), this.counts)),
      this.error,
      el("div", { class: "as-actions" }, this.createButton));
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.links = el("div", { class: "as-links", testid: "assign-links", hidden: true });
    const close = el("button", { type: "button", class: "dialog-close", testid: "assign-close", t: "assignment.close_esc" });
    this.dialog = /** @type {HTMLDialogElement} */ (el("dialog", { class: "dialog as-dialog", testid: "assign-dialog", "aria-labelledby": "assign-heading" },
      el("div", { class: "dialog-head" }, el("h2", { id: "assign-heading", t: "assignment.make" }), close),
      el("div", { class: "as-body" }, this.form, this.links)));
    close.addEventListener("click", () => this.dialog?.close());
    document.body.append(this.dialog);
  }

  /** Open on what the page shows now. */
  open() {
    if (!this.dialog) this.build();
    const dialog = /** @type {HTMLDialogElement} */ (this.dialog);
    const puzzle = this.page.puzzle();
    this.form.hidden = false;
    this.links.hidden = true;
    this.say("");
    this.puzzle = puzzle;
    this.choice = this.page.choice();
    const family = puzzle ? this.page.families().get(puzzle.family) : null;
    this.title.value = puzzle ? String(puzzle.title || puzzle.galleryName || puzzle.name || "").slice(0, 120) : "";
    if (puzzle) {
      setText(this.about, "assignment.about", { puzzle: puzzle.title || puzzle.name || t("assignment.this_puzzle"),
        family: family?.title || puzzle.family, algorithm: this.page.label(this.choice.algorithm) });
    } else setText(this.about, "assignment.open_first");
    this.from.value = String(Math.max(0, this.page.expanded() || 0));
    for (const kind of KINDS) {
      const { box, why } = this.tasks[kind];
      const reason = taskUnavailable(kind, family);
      box.disabled = Boolean(reason) || !puzzle;
      if (reason) box.checked = false;
      why.textContent = reason;
      why.hidden = !reason;
      box.title = reason;
    }
    this.createButton.disabled = !puzzle;
    this.sync();
    if (!dialog.open) dialog.showModal();
    this.title.focus();
  }

  /** Settings follow the choices (a task's inputs only when it is chosen). */
  sync() {
    for (const kind of KINDS) {
      const { box, row } = this.tasks[kind];
      row.classList.toggle("on", box.checked);
      for (const input of row.querySelectorAll(".as-task-settings input, .as-points input")) {
        /** @type {HTMLInputElement} */ (input).disabled = !box.checked;
      }
    }
    this.attempts.disabled = this.unlimited.checked;
    const noDeadline = !this.deadline.value;
    const after = /** @type {HTMLOptionElement} */ (this.reveal.options[1]);
    after.disabled = noDeadline;
    setText(after, noDeadline ? "assignment.reveal_after_deadline_first" : "assignment.reveal_after_deadline");
    if (noDeadline) this.reveal.value = "now";
  }

  /** @param {string} message a text already written ("" for none) */
  say(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }

  /** The assignment as the server takes it. */
  body() {
    const tasks = [];
    for (const kind of KINDS) {
      const { box, points } = this.tasks[kind];
      if (!box.checked) continue;
      const task = { kind, points: Number(points.value) };
      if (kind === "predict") Object.assign(task, { count: Number(this.count.value), from: Number(this.from.value) });
      if (kind === "heuristic") task.bar = this.bar.checked;
      if (kind === "solution") task.margin = Number(this.margin.value);
      tasks.push(task);
    }
    return {
      puzzle: this.puzzle?.id,
      title: this.title.value.trim() || undefined,
      algorithm: this.choice?.algorithm,
      options: this.choice?.options || {},
      tasks,
      deadline: localInputToIso(this.deadline.value),
      reveal: this.reveal.value,
      attempts: this.unlimited.checked ? null : Number(this.attempts.value),
      counts: this.counts.value,
    };
  }

  async submit() {
    if (!this.puzzle) return;
    const body = this.body();
    if (!body.tasks.length) {
      this.say(t("assignment.choose_task"));
      return;
    }
    this.say("");
    this.createButton.disabled = true;
    try {
      const made = await create(body);
      this.showLinks(made);
    } catch (err) {
      const where = err instanceof AssignmentError && err.where ? ` (${err.where})` : "";
      this.say(err instanceof Error && err.message ? `${err.message}${where}` : t("assignment.make_failed"));
    } finally {
      this.createButton.disabled = false;
    }
  }

  /** The two links, read-only, each with Copy. @param {{class_url: string, teacher_url: string}} made */
  showLinks(made) {
    const origin = location.origin;
    const row = (testid, label, url, note) => {
      const input = /** @type {HTMLInputElement} */ (el("input", { type: "text", readonly: true, testid, class: "as-link", value: `${origin}${url}`, tattr: { "aria-label": label } }));
      const copied = el("span", { class: "as-copied", role: "status" });
      const copy = el("button", { type: "button", testid: `${testid}-copy`, t: "assignment.copy" });
      copy.addEventListener("click", async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(input.value);
          setText(copied, "assignment.copied");
        } catch {
          setText(copied, "assignment.selected_copy");
        }
      });
      return el("div", { class: "as-link-row" }, el("h3", { t: label }), el("p", { class: "hint", t: note }),
        el("div", { class: "as-link-line" }, input, copy, copied));
    };
    this.links.replaceChildren(
      el("p", { class: "as-made", t: "assignment.made" }),
      row("assign-class-link", "assignment.class_link", withLang(made.class_url), "assignment.class_link_note"),
      row("assign-teacher-link", "assignment.teacher_link", withLang(made.teacher_url), "assignment.teacher_link_note"),
    );
    this.form.hidden = true;
    this.links.hidden = false;
  }
}
