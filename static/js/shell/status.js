// @ts-check
// What the page says of its state: the status line (data-testid="status" reads it bare: "done" =
// every record arrived), the error banner, the spinner over the board and the progress bar under it.

import { byId } from "../dom.js";

const $ = byId;

/**
 * The search's own state in a word, a tone for its dot, and details after it.
 * @param {string} text
 * @param {"idle" | "busy" | "done" | "error"} [tone]
 * @param {string} [detail]
 */
export function setStatus(text, tone = "idle", detail = "") {
  $("status").textContent = text;
  $("status-detail").textContent = detail;
  $("status-dot").className = `status-dot tone-${tone}`;
}

/** The error banner: a message in words, or "" to hide it. @param {string} message */
export function showError(message) {
  const banner = $("error");
  banner.textContent = message;
  banner.hidden = !message;
}

/** The spinner over the board: text, or null to hide it. @param {string | null} text */
export function setBusy(text) {
  $("busy").hidden = text === null;
  $("busy-text").textContent = text || "";
}

/** True while the spinner shows. */
export const isBusy = () => !$("busy").hidden;

/**
 * The bar under the board: a fraction in [0, 1], "indeterminate", or null to hide it.
 * @param {number | "indeterminate" | null} value
 */
export function setProgress(value) {
  const bar = $("progress");
  bar.hidden = value === null;
  bar.classList.toggle("indeterminate", value === "indeterminate");
  $("progress-bar").style.width = typeof value === "number" ? `${Math.round(value * 100)}%` : "";
}

/** Busy over the board and in the status line at once (loading, starting). @param {string} text */
export function working(text) {
  setStatus(text, "busy");
  setBusy(text);
  setProgress("indeterminate");
}

/** Nothing in progress any more. */
export function idle() {
  setBusy(null);
  setProgress(null);
}
