// @ts-check
// A run's status in words: the one place that words it, for every host of a Stage (./stage.js) —
// the single view's status line ("Search: streaming 40%", ../shell/single_view.js), a comparison
// panel's spinner and badge (../compare/panel.js) and the comparison's line over all its runs
// (../compare/compare_view.js). The hosts show what these say; they do not word a run themselves.

import { seconds } from "../format.js";
import { t } from "../i18n.js";

/** @typedef {import("./run.js").Run} Run */

/**
 * @typedef {object} RunStatus
 * @property {string} text      the state in a word or a few, in the page's language (what the status line's
 *   data-testid="status" reads)
 * @property {"idle" | "busy" | "done" | "error"} tone
 * @property {string} detail    what follows the text (" in 0.4 s", " · 10 of 50 steps received")
 * @property {number | null} fraction  the share of the records received while streaming, when the total is known
 */

/** @returns {RunStatus} */
const status = (text, tone, detail = "", fraction = null) => ({ text, tone, detail, fraction });

/**
 * One run's status: starting (or re-solving, or replaying a checked solution), searching, streaming,
 * done, error or cancelled, with its figures.
 * @param {Run} run
 * @returns {RunStatus}
 */
export function runStatus(run) {
  const replay = run.slot === "replay"; // a checked solution shown as a run (Stage.showResult): no search
  switch (run.state) {
    case "idle":
    case "starting":
      if (replay) return status(t("status.replaying"), "busy");
      return status(run.instant ? t("status.resolving") : run.message || t("status.starting"), "busy");
    case "searching":
      return status(t("status.searching_expanded", { count: Math.round(run.expandedSoFar) }), "busy");
    case "streaming": {
      if (replay) return status(t("status.replaying"), "busy");
      if (!run.total) return status(run.message || t("status.streaming"), "busy");
      const fraction = Math.min(1, run.recordsSent / run.total);
      return status(t("status.streaming_percent", { percent: Math.floor(fraction * 100) }), "busy",
        t("status.received", { sent: Math.round(run.recordsSent), total: Math.round(run.total) }), fraction);
    }
    case "done":
      if (replay) return status(t("status.checked"), "done", run.result?.found ? t("status.legal") : t("status.illegal"));
      return status(t("status.done"), "done", t("status.in_time", { time: seconds(run.result?.seconds) }));
    case "error":
      return status(t("status.error"), "error");
    case "cancelled":
      return status(t("status.cancelled"), "idle");
  }
  return status(run.state, "idle");
}

/**
 * The comparison's runs in one status: cancelled when one was stopped; once all ended, done or how
 * many failed; before, how many are computed; then how much of their records arrived.
 * @param {Run[]} runs   the panels' runs
 * @param {number} received  records arrived over all of them (at most each run's own count)
 * @returns {RunStatus}
 */
export function comparisonStatus(runs, received) {
  const n = runs.length;
  if (runs.some((r) => r.cancelled)) return status(t("status.cancelled"), "idle");
  if (runs.every((r) => r.finished)) {
    const failed = runs.filter((r) => r.error).length;
    if (failed) return status(t("status.error"), "error", t("status.failed_of", { failed, n }));
    const slowest = Math.max(...runs.map((r) => r.result?.seconds || 0));
    return status(t("status.done"), "done", t("status.searches_slowest", { n, time: seconds(slowest) }));
  }
  const computed = runs.filter((r) => r.result || r.error).length;
  if (computed < n) {
    const queued = runs.find((r) => r.state === "starting" && r.message);
    const starting = runs.every((r) => r.state === "starting");
    const text = computed === 0 && queued ? queued.message : starting ? t("status.starting") : t("status.searching");
    return status(text, "busy", t("status.computed_of", { computed, n }));
  }
  const records = runs.reduce((sum, r) => sum + (r.records ?? 0), 0);
  const fraction = Math.min(1, received / Math.max(1, records));
  return status(t("status.streaming_percent", { percent: Math.floor(fraction * 100) }), "busy",
    t("status.records_of", { received: Math.round(received), records: Math.round(records) }), fraction);
}

/**
 * A comparison panel's badge at the shared step: how its run ended, or that the step is past the
 * records that arrived; null when there is nothing to say.
 * @param {Run | null} run
 * @param {{steps: number, atEnd: boolean, waiting: boolean}} at  steps: the expansions its records
 *   hold; atEnd: every record is here and the shared step is past its last expansion; waiting: the
 *   shared step is past what arrived while more is coming
 * @returns {{text: string, tone: "bad" | "warn" | "done"} | null}
 */
export function panelBadge(run, { steps, atEnd, waiting }) {
  if (!run) return null;
  if (run.error) return { text: t("status.badge_error", { error: run.error }), tone: "bad" };
  if (run.cancelled) return { text: t("status.badge_stopped", { step: Math.round(steps) }), tone: "warn" };
  if (atEnd) return { text: t("status.badge_finished", { step: Math.round(steps) }), tone: "done" };
  if (waiting) return { text: t("status.badge_waiting"), tone: "warn" };
  return null;
}
