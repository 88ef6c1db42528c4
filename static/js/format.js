// @ts-check
// Number display for the stats panel. Digits are grouped by CSS (the language's group mark drawn
// before each group: a comma in English, a point in German, as `number()` writes every other number
// on the page), not in the text, so an element's text stays the bare number ("1234567") for
// copy-paste and for tests. Every number the page writes goes through these, in the page's language
// (i18n.js: 6,617,994 / 6.617.994; 0.8 / 0,8).

import { fmt, has, t } from "./i18n.js";

/**
 * Put `value` into `el` as a grouped number, or "—" when there is none.
 * @param {HTMLElement} el
 * @param {number | null | undefined} value
 * @param {number} [decimals] at most this many decimals (trailing zeros dropped)
 */
export function setNumber(el, value, decimals = 3) {
  const none = value === null || value === undefined || Number.isNaN(value);
  el.classList.toggle("none", none);
  if (none) {
    el.textContent = "—";
    return;
  }
  let text = Number.isInteger(value) ? String(value) : value.toFixed(decimals).replace(/\.?0+$/, "");
  let sign = "";
  if (text.startsWith("-")) {
    sign = "-";
    text = text.slice(1);
  }
  const [whole, fraction] = text.split(".");
  const parts = [];
  for (let end = whole.length; end > 0; end -= 3) parts.unshift(whole.slice(Math.max(0, end - 3), end));
  /** @type {Node[]} */
  const spans = parts.map((digits, i) => {
    const span = document.createElement("span");
    if (i > 0) span.className = "group";
    span.textContent = i === 0 ? sign + digits : digits;
    return span;
  });
  // The decimal mark of the language (the fraction's digits as they are: "1.25" / "1,25").
  if (fraction) spans.push(document.createTextNode(`${decimalMark()}${fraction}`));
  el.replaceChildren(...spans);
}

/** The current language's decimal mark ("." / ","). */
const decimalMark = () => fmt(1.5, 1, false).replace(/\d/g, "") || ".";

/**
 * "1,234,567" (German "1.234.567") for running text (status lines), where commas read best: a count, rounded, written as
 * `number` writes it.
 * @type {(n: number) => string}
 */
export const withCommas = (n) => number(Math.round(n));

/**
 * A duration for display: "< 1 ms", "250 ms", "1.25 s", or "—" when there is none.
 * @param {number | null | undefined} s seconds
 * @returns {string}
 */
export function seconds(s) {
  if (s === null || s === undefined) return "—";
  if (s < 0.001) return t("common.under_ms");
  if (s < 1) return t("common.ms", { ms: Math.round(s * 1000) });
  return t("common.s", { s: fixed(s, 2) });
}

/**
 * A server clause as a sentence: capital first letter, final full stop ("" stays "").
 * @param {string | null | undefined} text
 * @returns {string}
 */
export function sentence(text) {
  const bare = (text || "").trim();
  return bare ? bare.charAt(0).toUpperCase() + bare.slice(1) + (/[.!?]$/.test(bare) ? "" : ".") : "";
}

/**
 * A count, cost or g for running text, written one way everywhere in the page (and as the server's
 * texts write it: server/search/costs.py cost_text): digits grouped by commas, at most `decimals`
 * decimals ("52", "70,888", "1,053.414"); "—" for none.
 * @param {number | null | undefined} value
 * @param {number} [decimals]
 * @returns {string}
 */
export function number(value, decimals = 3) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  return fmt(value, decimals);
}

/**
 * `value` with exactly `decimals` decimals, in the language's mark ("1.25" / "1,25"), not grouped.
 * @param {number} value
 * @param {number} decimals
 */
export function decimal(value, decimals) {
  return value.toFixed(decimals).replace(".", decimalMark());
}
const fixed = decimal;

/**
 * A size, written one way everywhere: width × height and the unit ("34 × 25 cells").
 * @param {number} width
 * @param {number} height
 * @param {string} [unit] a catalog key ("common.cells"), "" for none
 * @returns {string}
 */
export function sizeText(width, height, unit = "common.cells") {
  // `unit` a catalog key (or a word already translated: t() of a non-key is the word itself).
  // A family's bare unit ("cells", "tiles") is the catalog's "common.<unit>".
  const key = has(`common.${unit}`) ? `common.${unit}` : unit;
  return unit ? t("common.size", { width, height, unit: t(key) }) : `${width} × ${height}`;
}

/**
 * A server's message about a file, with the file's name once (the server already starts with it).
 * @param {unknown} what the file's name
 * @param {unknown} reason the server's message
 * @returns {string}
 */
export function fileMessage(what, reason) {
  const text = String(reason || "").trim();
  const name = String(what || "");
  if (name && (text.startsWith(`${name}:`) || text.startsWith(`${name},`))) return t("common.could_not_open", { text });
  return t("common.could_not_open_name", { name, text });
}
