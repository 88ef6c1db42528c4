// Under the panels: the table of results (one row per panel, shown once every search has finished and
// the shared timeline is at its end), its CSV and JSON downloads (the columns of `run.py compare`,
// ./table.js), and the chart of the frontier and the states expanded at each step.

import { el } from "../dom.js";
import { onLanguage, t } from "../i18n.js";
import { number, seconds } from "../format.js";
import { bestKnownCost, markOptimal, rowsToCsv, rowsToJson, summaryRow } from "./table.js";
import { CompareChart } from "./chart.js";

/** The table's columns after the algorithm's: their heads are compare.col.<column> (tooltips: compare.tip.<column>). */
const HEADS = ["expanded", "generated", "max_frontier", "cost", "moves", "optimal_guaranteed", "optimal_achieved", "seconds"];

export class CompareResults {
  constructor() {
    this.csvButton = el("button", { type: "button", testid: "compare-csv", text: "⬇ CSV", tattr: { title: "compare.csv_title" }, on: { click: () => this.download("csv") } });
    this.jsonButton = el("button", { type: "button", testid: "compare-json", text: "⬇ JSON", tattr: { title: "compare.json_title" }, on: { click: () => this.download("json") } });
    this.wait = el("p", { class: "hint cmp-wait", testid: "compare-table-wait", t: "compare.wait" });
    this.table = el("table", { class: "cmp-table", testid: "compare-table", hidden: true });
    this.best = el("p", { class: "hint cmp-best", testid: "compare-best", hidden: true });
    this.legend = el("div", { class: "cmp-legend", testid: "compare-chart-legend" });
    this.canvas = el("canvas", { testid: "compare-chart", tattr: { "aria-label": "compare.chart_label" } });
    const chartWrap = el("div", { class: "cmp-chart-wrap" }, this.canvas);
    this.root = el("section", { class: "cmp-results", testid: "compare-results", hidden: true },
      el("div", { class: "cmp-table-box" },
        el("div", { class: "cmp-box-head" },
          el("h2", { t: "compare.results" }), this.best, el("span", { class: "cmp-downloads" }, this.csvButton, this.jsonButton)),
        this.wait,
        el("div", { class: "cmp-table-scroll" }, this.table)),
      el("div", { class: "cmp-chart-box" },
        el("div", { class: "cmp-box-head" }, el("h2", { t: "compare.chart_head" }), this.legend),
        chartWrap),
    );
    this.chart = new CompareChart(this.canvas);
    this.rows = [];
    this.key = null; // what the table shows ("" none): the first showTable() always applies
    this.name = "comparison";
    this.showTable(null);
    this.shown = { entries: null, puzzleName: "" };
    onLanguage(() => {
      this.key = null; // the table's words, written again in the new language
      this.showTable(this.shown.entries, this.shown.puzzleName);
    });
  }

  /** A new comparison (or none): the table waits, the chart is empty. */
  reset() {
    this.showTable(null);
    this.chart.setSeries([], 1);
  }

  /** The chart's lines: each panel's series() (panel.js); `steps`: the shared timeline's length. */
  setSeries(series, steps) {
    this.chart.setSeries(series, steps);
    const key = series.map((s) => `${s.color}:${s.label}`).join("|");
    if (key !== this.legendKey) {
      this.legendKey = key;
      this.legend.replaceChildren(...series.map((s) => {
        const mark = el("span", { class: "swatch line" });
        mark.style.background = s.color; // CSSOM: allowed by the strict CSP
        return el("span", { class: "legend-item" }, mark, s.label);
      }));
    }
  }

  setCursor(k) {
    this.chart.setCursor(k);
  }

  /**
   * Show the table for `entries` ([{panel number, color, label, text (options in words), options, result}])
   * or hide it (null: the comparison is not at its end).
   */
  showTable(entries, puzzleName = "") {
    const key = entries ? JSON.stringify(entries.map((e) => [e.color, e.text, e.result.algorithm, e.result.cost, e.result.expanded])) : "";
    if (key === this.key) return;
    this.key = key;
    this.shown = { entries, puzzleName };
    this.table.hidden = !entries;
    this.wait.hidden = Boolean(entries);
    this.best.hidden = !entries;
    this.csvButton.disabled = !entries;
    this.jsonButton.disabled = !entries;
    if (!entries) {
      this.rows = [];
      this.table.replaceChildren();
      return;
    }
    if (puzzleName) this.name = `${puzzleName.replace(/\.[^.]+$/, "").replace(/[^\w.-]+/g, "_")}-comparison`;
    this.rows = markOptimal(entries.map((e) => summaryRow(e.result, e.options)));
    const best = bestKnownCost(this.rows);
    const proven = this.rows.some((r) => (r.found && r.optimal_guaranteed) || r.optimum !== null);
    this.best.textContent = best === null ? t("compare.no_path_found")
      : t("compare.best_cost", { cost: number(best), how: t(proven ? "compare.proven" : "compare.cheapest") });
    this.best.title = t("compare.best_title");
    const head = el("tr", {},
      el("th", { scope: "col", t: "compare.col.algorithm" }),
      ...HEADS.map((col) => el("th", { scope: "col", class: "num", t: `compare.col.${col}`, tattr: { title: `compare.tip.${col}` } })),
    );
    const body = entries.map((entry, i) => {
      const row = this.rows[i];
      const cell = (col, value, text, cls = "num") => el("td", { class: cls, "data-col": col, "data-value": value === null ? "" : String(value) }, text);
      let achieved = t("compare.achieved_none");
      let tone = "";
      if (row.optimal_achieved === true) {
        achieved = t("compare.achieved_yes");
        tone = "good";
      } else if (row.optimal_achieved === false) {
        achieved = t("compare.achieved_no");
        tone = "bad";
      }
      const mark = el("span", { class: "cmp-number", text: String(entry.number) });
      const tr = el("tr", { testid: "compare-row", "data-algorithm": row.algorithm, class: tone === "bad" ? "not-optimal" : null },
        el("td", { class: "cmp-alg", "data-col": "algorithm", "data-value": row.algorithm, "data-options": row.options },
          el("div", { class: "cmp-alg-text", title: entry.text ? `${entry.label} · ${entry.text}` : entry.label },
            mark, el("b", { text: entry.label }), entry.text ? el("span", { class: "muted", text: entry.text }) : null)),
        cell("expanded", row.expanded, number(row.expanded)),
        cell("generated", row.generated, number(row.generated)),
        cell("max_frontier", row.max_frontier, number(row.max_frontier)),
        cell("cost", row.cost, row.found ? number(row.cost) : t("compare.no_path")),
        cell("moves", row.moves, row.found ? number(row.moves) : "—"),
        cell("optimal_guaranteed", row.optimal_guaranteed, t(row.optimal_guaranteed ? "compare.yes" : "compare.no")),
        cell("optimal_achieved", row.optimal_achieved, achieved, ["num", "verdict-cell", tone].join(" ")),
        cell("seconds", row.seconds, seconds(row.seconds)),
      );
      tr.style.setProperty("--c", entry.color); // CSSOM: allowed by the strict CSP
      return tr;
    });
    this.table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
  }

  download(kind) {
    if (!this.rows.length) return;
    const text = kind === "csv" ? rowsToCsv(this.rows) : rowsToJson(this.rows);
    const type = kind === "csv" ? "text/csv" : "application/json";
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = el("a", { href: url, download: `${this.name}.${kind}` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }
}
