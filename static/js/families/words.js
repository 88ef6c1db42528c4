// @ts-check
// The family views' words (static/i18n/<lang>/fam_*.json): legend items whose label is a catalog key
// (kept in the current language by i18n.js), and numbers for running text the language's way.

import { el } from "../dom.js";
import { fmt, t } from "../i18n.js";
import { legendItem } from "../legend.js";

/**
 * A legend item labelled by catalog `key` (re-translated when the language changes).
 * @param {string} key
 * @param {Record<string, any> | undefined} params
 * @param {...Node} marks
 */
export function item(key, params, ...marks) {
  const node = legendItem("", ...marks);
  node.append(el("span", { t: key, params }));
  return node;
}

/**
 * An item whose marks follow its label (a colour ramp with its range).
 * @param {string} key
 * @param {Record<string, any> | undefined} params
 * @param {...Node} marks
 */
export function itemLabelFirst(key, params, ...marks) {
  const node = item(key, params, ...marks);
  node.append(...marks);
  return node;
}

/**
 * A count, cost or g for running text in the current language ("1,053.414" / "1.053,414"); "—" for none.
 * @param {number | null | undefined} value
 * @param {number} [decimals]
 */
export function num(value, decimals = 3) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  return fmt(value, decimals);
}

/**
 * Empty `node`, which stays empty when the language changes (no key of its own any more).
 * @param {HTMLElement} node
 */
export function clearText(node) {
  delete node.dataset.i18n;
  delete node.dataset.i18nParams;
  node.textContent = "";
}

/**
 * An object whose every property reads as the text of its catalog key, in the language of the moment
 * it is read (for a part that takes words, not keys: the click editor's tools and hints).
 * @param {Record<string, string>} keys
 * @returns {Record<string, string>}
 */
export function wordsOf(keys) {
  /** @type {Record<string, string>} */
  const words = {};
  for (const [name, key] of Object.entries(keys)) {
    Object.defineProperty(words, name, { get: () => t(key), enumerable: true });
  }
  return words;
}
