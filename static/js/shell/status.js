// @ts-check
// What the page says of its state: the status line (data-testid="status" reads it bare: "done" =
// every record arrived), the error banner, the spinner over the board (with a Cancel button while
// something that can be cancelled is under way: an upload) and the progress bar under it.

//
// The words are in the page's language: `setStatus` takes text already translated and, optionally,
// how to say it again (`again`), which runs when the language changes (the status line then follows
// the menu without waiting for the next change of state); `sayStatus` does both from catalog keys.

import { byId } from "../dom.js";
import { onLanguage, t } from "../i18n.js";

const $ = byId;

/** @type {(() => void) | null} how to write the status line again in another language */
let again = null;

/**
 * The search's own state in a word, a tone for its dot, and details after it.
 * @param {string} text
 * @param {"idle" | "busy" | "done" | "error"} [tone]
 * @param {string} [detail]
 * @param {(() => void) | null} [rewrite] writes it again (in a new language); null: it stays as it is
 */
export function setStatus(text, tone = "idle", detail = "", rewrite = null) {
  $("status").textContent = text;
  $("status-detail").textContent = detail;
  $("status-dot").className = `status-dot tone-${tone}`;
  again = rewrite;
}

/**
 * The status line from catalog keys ("status.ready"), kept in the page's language.
 * @param {string} key
 * @param {"idle" | "busy" | "done" | "error"} [tone]
 * @param {string} [detailKey]
 */
export function sayStatus(key, tone = "idle", detailKey = "") {
  setStatus(t(key), tone, detailKey ? t(detailKey) : "", () => sayStatus(key, tone, detailKey));
}

onLanguage(() => again?.());

/** The error banner: a message in words, or "" to hide it. @param {string} message */
export function showError(message) {
  const banner = $("error");
  banner.textContent = message;
  banner.hidden = !message;
}

/**
 * The spinner over the board: text, or null to hide it; `onCancel`: a Cancel button beside the text.
 * @param {string | null} text
 * @param {(() => void) | null} [onCancel]
 */
export function setBusy(text, onCancel = null) {
  $("busy").hidden = text === null;
  $("busy-text").textContent = text || "";
  const cancel = /** @type {HTMLButtonElement} */ ($("busy-cancel"));
  cancel.hidden = text === null || !onCancel;
  cancel.onclick = text !== null && onCancel ? () => onCancel() : null;
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

/**
 * Busy over the board and in the status line at once (loading, starting).
 * @param {string} text
 * @param {(() => void) | null} [onCancel] a Cancel button over the board (an upload's)
 */
export function working(text, onCancel = null) {
  progressing(text, null, onCancel);
}

/**
 * Work that knows how far it is (an upload, the server reading it): the text in the status line and
 * over the board, the fraction done in the bar (null: not known).
 * @param {string} text
 * @param {number | null} fraction
 * @param {(() => void) | null} [onCancel]
 */
export function progressing(text, fraction, onCancel = null) {
  setStatus(text, "busy");
  setBusy(text, onCancel);
  setProgress(fraction === null ? "indeterminate" : Math.min(1, Math.max(0, fraction)));
}

/** Nothing in progress any more. */
export function idle() {
  setBusy(null);
  setProgress(null);
}
