// @ts-check
// Dates in words for the assignment pages: the server sends ISO 8601 in UTC; the pages show the
// reader's local time and how far away it is ("in 3 days", "2 hours ago"), in the page's language
// (Intl.DateTimeFormat / RelativeTimeFormat of i18n.lang()).

import { lang, t } from "../i18n.js";

const UNITS = /** @type {const} */ ([
  ["year", 365 * 86400], ["month", 30 * 86400], ["week", 7 * 86400], ["day", 86400], ["hour", 3600], ["minute", 60],
]);

/** The date in the reader's local time, e.g. "Tue, 15 Dec 2026, 23:59". @param {string | null | undefined} iso */
export function localTime(iso) {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return "—";
  return new Intl.DateTimeFormat(lang(), { weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }).format(date);
}

/** "in 3 days", "2 hours ago", "now". @param {string | null | undefined} iso @param {number} [now] */
export function fromNow(iso, now = Date.now()) {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  const seconds = (date.getTime() - now) / 1000;
  const words = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return words.format(Math.round(seconds / size), unit);
  }
  return t("assignment.now");
}

/** A short time for the table: "15 Dec, 14:03". @param {string | null | undefined} iso */
export function shortTime(iso) {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(lang(), { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false }).format(date);
}

/** A datetime-local input's value (the reader's local time) as UTC ISO ("" → null). @param {string} value */
export function localInputToIso(value) {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
