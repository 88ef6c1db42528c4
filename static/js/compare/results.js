// Under the panels: the table of results (one row per panel, shown once every search has finished and
// the shared timeline is at its end), its CSV and JSON downloads (the columns of `run.py compare`,
// ./table.js), and the chart of the frontier and the states expanded at each step.

import { el } from "../dom.js";
import { number, seconds } from "../format.js";
import { bestKnownCost, markOptimal, rowsToCsv, rowsToJson, summaryRow } from "./table.js";
import { CompareChart } from "./chart.js";

const WAIT_TEXT = "The table appears when every search has finished and the timeline is at its end (the End key, or the last-step button).";

export class CompareResults {
  constructor() {
    this.csvButton = el("button", { type: "button", testid: "compare-csv", text: "⬇ CSV", title: "Download the table as CSV (the columns of run.py compare --csv)", on: { click: () => this.download("csv") } });
    this.jsonButton = el("button", { type: "button", testid: "compare-json", text: "⬇ JSON", title: "Download the table as JSON (the objects of run.py compare --json)", on: { click: () => this.download("json") } });
    this.wait = el("p", { class: "hint cmp-wait", testid: "compare-table-wait", text: WAIT_TEXT });
    this.table = el("table", { class: "cmp-table", testid: "compare-table", hidden: true });
    this.best = el("p", { class: "hint cmp-best", testid: "compare-best", hidden: true });
    this.legend = el("div", { class: "cmp-legend", testid: "compare-chart-legend" });
    this.canvas = el("canvas", { testid: "compare-chart", "aria-label": "Chart: frontier size and states expanded at each step, one line per algorithm" });
    const chartWrap = el("div", { class: "cmp-chart-wrap" }, this.canvas);
    this.root = el("section", { class: "cmp-results", testid: "compare-results", hidden: true },
      el("div", { class: "cmp-table-box" },
        el("div", { class: "cmp-box-head" },
          el("h2", { text: "Results" }), this.best, el("span", { class: "cmp-downloads" }, this.csvButton, this.jsonButton)),
        this.wait,
        el("div", { class: "cmp-table-scroll" }, this.table)),
      el("div", { class: "cmp-chart-box" },
        el("div", { class: "cmp-box-head" }, el("h2", { text: "Frontier and expanded per step" }), this.legend),
        chartWrap),
    );
    this.chart = new CompareChart(this.canvas);
    this.rows = [];
    this.key = null; // what the table shows ("" none): the first showTable() always applies
    this.name = "comparison";
    this.showTable(null);
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
    this.best.textContent = best === null ? "No algorithm found a path."
      : `Best cost known: ${number(best)} (${proven ? "proven optimal" : "the cheapest found; none proves it optimal"})`;
    this.best.title = "“Optimal achieved”: the run's cost equals the best cost known (run.py compare decides it the same way).";
    const head = el("tr", {},
      el("th", { scope: "col", text: "Algorithm" }),
      ...[
        ["Expanded", "states taken off the frontier"],
        ["Generated", "put on the frontier, or back cheaper"],
        ["Max frontier", "most on the frontier at once"],
        ["Cost", "the path's cost"],
        ["Moves", "path steps: states on the path − 1"],
        ["Optimal guaranteed", "the algorithm guarantees an optimal path"],
        ["Optimal achieved", "its cost equals the best cost known"],
        ["Compute time", "the server's search time"],
      ].map(([text, title]) => el("th", { scope: "col", class: "num", text, title })),
    );
    const body = entries.map((entry, i) => {
      const row = this.rows[i];
      const cell = (col, value, text, cls = "num") => el("td", { class: cls, "data-col": col, "data-value": value === null ? "" : String(value) }, text);
      let achieved = "— (no path)";
      let tone = "";
      if (row.optimal_achieved === true) {
        achieved = "yes ✓";
        tone = "good";
      } else if (row.optimal_achieved === false) {
        achieved = "NO ✗";
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
        cell("cost", row.cost, row.found ? number(row.cost) : "no path"),
        cell("moves", row.moves, row.found ? number(row.moves) : "—"),
        cell("optimal_guaranteed", row.optimal_guaranteed, row.optimal_guaranteed ? "yes" : "no"),
        cell("optimal_achieved", row.optimal_achieved, achieved, `num verdict-cell ${tone}`),
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
