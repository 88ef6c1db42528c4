// @ts-check
// The teacher's table of results: a row per student (`tr[data-student=<identifier>]`), a cell per task
// (`td[data-task=<kind>]`: "4 / 5", attempts and time, the verdict's sentence under it) and the total
// (`td[data-total]`). Any column sorts (a click on its header; aria-sort says how), numbers as numbers;
// a re-render (a live update) keeps the sort. Everything from students is text, never markup.

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { kindTitle, points } from "./api.js";
import { shortTime } from "./when.js";

/** @typedef {{key: string, label: string, value: (row: any) => string | number | null, numeric: boolean}} Column */

export class ResultsTable {
  /**
   * @param {{host: HTMLElement, onOpen: (row: any, kind: string) => void}} args
   *   onOpen: a task's cell was chosen (its counted submission opens)
   */
  constructor({ host, onOpen }) {
    this.onOpen = onOpen;
    this.sort = { key: "name", dir: 1 };
    /** @type {Column[]} */
    this.columns = [];
    this.rows = [];
    this.table = el("table", { class: "as-results", testid: "results-table" });
    this.empty = el("p", { class: "hint as-empty", testid: "results-empty", t: "assignment.no_submissions" });
    host.append(el("div", { class: "as-results-wrap" }, this.table), this.empty);
  }

  /** @param {any} assignment @param {any[]} rows */
  render(assignment, rows) {
    this.assignment = assignment;
    this.rows = Array.isArray(rows) ? rows : [];
    const kinds = (assignment.tasks || []).map((t) => t.kind);
    const task = (kind) => (row) => {
      const cell = row.tasks?.[kind];
      return cell && typeof cell.score === "number" ? cell.score : null;
    };
    this.columns = [
      { key: "name", label: t("assignment.col_name"), value: (row) => String(row.name || ""), numeric: false },
      { key: "student", label: t("assignment.col_identifier"), value: (row) => String(row.student || ""), numeric: false },
      ...kinds.map((kind) => ({ key: kind, label: kindTitle(kind), value: task(kind), numeric: true })),
      { key: "total", label: t("assignment.col_total"), value: (row) => (typeof row.total === "number" ? row.total : null), numeric: true },
    ];
    if (!this.columns.some((c) => c.key === this.sort.key)) this.sort = { key: "name", dir: 1 };
    const head = el("tr", {}, ...this.columns.map((column) => {
      const on = this.sort.key === column.key;
      const button = el("button", { type: "button", class: "as-sort", testid: `sort-${column.key}`, text: column.label });
      button.addEventListener("click", () => this.sortBy(column.key));
      const worth = kinds.includes(column.key)
        ? el("span", { class: "as-col-points", text: t("assignment.col_pts", { points: taskPoints(assignment, column.key) }) })
        : column.key === "total" ? el("span", { class: "as-col-points", text: t("assignment.col_of", { points: points(assignment.total_points) }) }) : null;
      return el("th", {
        scope: "col", class: column.numeric ? "num" : null, "data-key": column.key,
        "aria-sort": on ? (this.sort.dir > 0 ? "ascending" : "descending") : "none",
      }, button, worth);
    }));
    const body = el("tbody", {}, ...this.sorted().map((row) => this.row(row, kinds)));
    this.table.replaceChildren(el("thead", {}, head), body);
    this.empty.hidden = this.rows.length > 0;
    this.table.dataset.rows = String(this.rows.length);
  }

  /** @param {string} key */
  sortBy(key) {
    this.sort = this.sort.key === key ? { key, dir: -this.sort.dir } : { key, dir: this.columns.find((c) => c.key === key)?.numeric ? -1 : 1 };
    if (this.assignment) this.render(this.assignment, this.rows);
  }

  /** The rows in the order chosen (empty scores last, whichever way). */
  sorted() {
    const column = this.columns.find((c) => c.key === this.sort.key) || this.columns[0];
    const { dir } = this.sort;
    const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });
    return [...this.rows].sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
      const order = column.numeric ? Number(x) - Number(y) : collator.compare(String(x), String(y));
      return order * dir || collator.compare(String(a.student || ""), String(b.student || ""));
    });
  }

  /** @param {any} row @param {string[]} kinds */
  row(row, kinds) {
    const cells = kinds.map((kind) => {
      const cell = row.tasks?.[kind];
      if (!cell) return el("td", { "data-task": kind, class: "num as-none", text: "—" });
      const scored = typeof cell.score === "number";
      const tone = scored ? (cell.score >= cell.points ? "good" : cell.score > 0 ? "warn" : "bad") : "";
      const waiting = !scored && (cell.status === "queued" || cell.status === "grading");
      const score = scored ? `${points(cell.score)} / ${points(cell.points)}` : waiting ? t("assignment.grading") : "—";
      const meta = [t("assignment.n_attempts", { count: cell.attempts || 0 }), shortTime(cell.time)].filter(Boolean).join(", ");
      const open = el("button", { type: "button", class: "as-open", title: cell.sentence || t("assignment.open_submission"), testid: "open-submission" },
        el("span", { class: `as-score ${tone}`, text: score }),
        el("span", { class: "as-meta", text: meta }),
        cell.sentence ? el("span", { class: "as-sentence", text: cell.sentence }) : null);
      open.addEventListener("click", () => this.onOpen(row, kind));
      return el("td", { "data-task": kind, "data-status": cell.status || "", class: "num" }, open);
    });
    return el("tr", { "data-student": String(row.student || "") },
      el("td", { class: "as-name", text: String(row.name || "") }),
      el("td", { class: "as-ident", text: String(row.student || "") }),
      ...cells,
      el("td", { "data-total": "", class: "num as-total", text: typeof row.total === "number" ? points(row.total) : "—" }));
  }
}

/** A task's points. @param {any} assignment @param {string} kind */
function taskPoints(assignment, kind) {
  return points(assignment.tasks.find((t) => t.kind === kind)?.points);
}
