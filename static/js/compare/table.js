// The comparison's table, built from each panel's run result exactly as `run.py compare` builds its
// rows (server/comparing.py: COLUMNS, summary_row, best_known_cost, mark_optimal, rows_to_csv): the
// same columns in the same order, `moves` = path states − 1, and `optimal_achieved` marked against
// the best cost known (a guaranteed-optimal run's cost, or the `optimum` the server adds to a
// non-optimal algorithm's result when it can find it; else the cheapest cost found).

const COLUMNS = [
  "algorithm",
  "options",
  "found",
  "cost",
  "moves",
  "expanded",
  "generated",
  "max_frontier",
  "seconds",
  "optimal_guaranteed",
  "optimal_achieved",
];
const COST_TOLERANCE = 1e-9;

/** An option's value as the CLI's table writes it (Python's str: True/False, lists as [1, 2]). */
function optionText(value) {
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return `[${value.map(optionText).join(", ")}]`;
  return String(value);
}

/** A run's figures for the table (`optimal_achieved` is set by markOptimal). */
export function summaryRow(result, options = {}) {
  const path = result.path || [];
  // A student's recorded run (option `code`) is its ids, not a setting a reader can use: left out.
  const shown = Object.entries(options || {}).filter(([k, v]) => v !== null && v !== undefined && k !== "code");
  return {
    algorithm: result.algorithm,
    options: shown.map(([k, v]) => `${k}=${optionText(v)}`).join(", "),
    found: Boolean(result.found),
    cost: result.found ? result.cost : null,
    moves: result.found ? Math.max(0, path.length - 1) : null,
    expanded: result.expanded,
    generated: result.generated,
    max_frontier: result.max_frontier,
    seconds: result.seconds,
    optimal_guaranteed: Boolean(result.optimal_guaranteed),
    optimal_achieved: null,
    optimum: typeof result.optimum === "number" ? result.optimum : null,
  };
}

/** The optimum when a run guarantees it or found it out (`optimum`), else the cheapest found. */
export function bestKnownCost(rows) {
  const proven = [
    ...rows.filter((r) => r.found && r.optimal_guaranteed).map((r) => r.cost),
    ...rows.filter((r) => r.optimum !== null && r.optimum !== undefined).map((r) => r.optimum),
  ];
  if (proven.length) return Math.min(...proven);
  const found = rows.filter((r) => r.found).map((r) => r.cost);
  return found.length ? Math.min(...found) : null;
}

/** Set each row's `optimal_achieved`: its cost equals the best cost known (null when it found none). */
export function markOptimal(rows) {
  const best = bestKnownCost(rows);
  for (const row of rows) {
    row.optimal_achieved = !row.found || best === null ? null : row.cost <= best + COST_TOLERANCE;
  }
  return rows;
}

/** The rows with exactly the documented columns, in order. */
function publicRows(rows) {
  return rows.map((row) => Object.fromEntries(COLUMNS.map((column) => [column, row[column] ?? null])));
}

/** A CSV field as Python's csv module writes it (QUOTE_MINIMAL); None → "", bools True/False. */
function csvField(value) {
  if (value === null || value === undefined) return "";
  const text = typeof value === "boolean" ? (value ? "True" : "False") : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as `run.py compare --csv` prints it: a header row, then one line per run. */
export function rowsToCsv(rows) {
  const lines = [COLUMNS.join(",")];
  for (const row of publicRows(rows)) lines.push(COLUMNS.map((column) => csvField(row[column])).join(","));
  return `${lines.join("\n")}\n`;
}

/** The table as `run.py compare --json` prints it: a list, one object per run. */
export function rowsToJson(rows) {
  return `${JSON.stringify(publicRows(rows), null, 1)}\n`;
}
