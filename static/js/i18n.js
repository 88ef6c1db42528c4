// @ts-check
// The page in the reader's language. Every visible word and every title/aria-label comes from the
// catalog of the current language (static/i18n/<lang>/*.json, served merged as /i18n/<lang>.json),
// rendered by `t(key, params)` with the server's rules (server/i18n): `{name}` is the value as text,
// `{name:n}` a number grouped the language's way (6,617,994 / 6.617.994), and a template may be an
// object of plural forms {"one", "other"} chosen by the parameter `count`.
//
// Switching the language (the header's menu) re-renders at once, without a reload: elements made
// with a key (`el(tag, {t: key})`, `data-i18n` in the templates) are re-translated by `translate`,
// and every part that writes text itself listens with `onLanguage` and writes it again.

export const LANGUAGES = /** @type {const} */ (["en", "de"]);
const STORAGE_KEY = "mazeviz.lang";

/** @type {string} */
let current = "en";
/** @type {Record<string, any>} */
let table = {};
/** @type {Map<string, Record<string, any>>} */
const loaded = new Map();
/** @type {Set<(lang: string) => void>} */
const listeners = new Set();

/**
 * `value` as one of LANGUAGES ("de-CH" → "de"), or null.
 * @param {unknown} value
 * @returns {string | null}
 */
export function supported(value) {
  if (typeof value !== "string") return null;
  const base = value.trim().toLowerCase().replace("_", "-").split("-")[0];
  return /** @type {readonly string[]} */ (LANGUAGES).includes(base) ? base : null;
}

/** The language the page is written in now. */
export const lang = () => current;

/** The locale for Intl formatting ("de-DE" style tags are not needed: "de" groups with "."). */
const locale = () => current;

/**
 * A number written the current language's way: 6,617,994 / 6.617.994; 0.8 / 0,8.
 * @param {number} value
 * @param {number} [decimals] at most this many decimals
 * @param {boolean} [grouped]
 */
export function fmt(value, decimals = 3, grouped = true) {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value);
  return new Intl.NumberFormat(locale(), { maximumFractionDigits: decimals, useGrouping: grouped }).format(value);
}

/**
 * A percentage of `fraction` (0.008 → "0.8 %" / "0,8 %").
 * @param {number} fraction
 * @param {number} [decimals]
 */
export function percent(fraction, decimals = 1) {
  return `${fmt(fraction * 100, decimals)}\u00a0%`;
}

/**
 * A template's placeholders filled.
 * @param {any} template a string, or plural forms {one, other}
 * @param {Record<string, any>} params
 * @returns {string}
 */
function render(template, params) {
  if (template && typeof template === "object") {
    const form = new Intl.PluralRules(locale()).select(Number(params.count));
    template = template[form] ?? template.other ?? "";
  }
  return String(template).replace(/\{(\w+)(?::(\w))?\}/g, (whole, name, spec) => {
    if (!(name in params)) return whole;
    const value = params[name];
    if (spec === "n") return fmt(Number(value));
    if (typeof value === "number" && !Number.isInteger(value)) return fmt(value, 3, false);
    return String(value);
  });
}

/**
 * The string `key` of the current catalog, its placeholders filled. A missing key shows itself
 * (tests/test_i18n_catalogs.py forbids one).
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function t(key, params = {}) {
  const template = table[key];
  return template === undefined ? key : render(template, params);
}

/**
 * Whether the catalog has `key` (for texts that may or may not be translated, like a server's name).
 * @param {string} key
 */
export const has = (key) => table[key] !== undefined;

/**
 * Give `node` the text of `key`, kept in the current language when it changes.
 * @param {HTMLElement} node
 * @param {string} key
 * @param {Record<string, any>} [params]
 */
export function setText(node, key, params) {
  node.dataset.i18n = key;
  if (params) node.dataset.i18nParams = JSON.stringify(params);
  else delete node.dataset.i18nParams;
  node.textContent = t(key, params);
}

/**
 * Give `node` the attribute `name` (title, aria-label, placeholder, alt) from `key`, kept in the
 * current language.
 * @param {Element} node
 * @param {string} name
 * @param {string} key
 * @param {Record<string, any>} [params]
 */
export function setAttr(node, name, key, params) {
  const keys = readAttrKeys(node);
  keys[name] = params ? [key, params] : [key];
  node.setAttribute("data-i18n-attr", JSON.stringify(keys));
  node.setAttribute(name, t(key, params));
}

/** @param {Element} node @returns {Record<string, [string, Record<string, any>?]>} */
function readAttrKeys(node) {
  const raw = node.getAttribute("data-i18n-attr");
  if (!raw) return {};
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}

/**
 * Re-translate every element under `root` made with a key.
 * @param {ParentNode} [root]
 */
export function translate(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const element = /** @type {HTMLElement} */ (node);
    const params = element.dataset.i18nParams ? JSON.parse(element.dataset.i18nParams) : undefined;
    element.textContent = t(element.dataset.i18n || "", params);
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const [name, [key, params]] of Object.entries(readAttrKeys(node))) node.setAttribute(name, t(key, params));
  }
}

/**
 * Call `listener(lang)` after every change of language; returns the unsubscribe.
 * @param {(lang: string) => void} listener
 * @returns {() => void}
 */
export function onLanguage(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** @type {Set<() => void>} */
const serverWordListeners = new Set();

/**
 * Call `listener()` each time the words the server writes (algorithm and option labels, a family's
 * titles) have been fetched again in the new language (app.js announces it after a switch).
 * @param {() => void} listener
 * @returns {() => void}
 */
export function onServerWords(listener) {
  serverWordListeners.add(listener);
  return () => serverWordListeners.delete(listener);
}

/** The server's words are here in the page's language (app.js, after a switch). */
export function announceServerWords() {
  for (const listener of [...serverWordListeners]) listener();
}

/** @type {(url: string, init?: RequestInit) => Promise<Response>} how a catalog is fetched */
let fetchFn = (url, init) => fetch(url, init);

/**
 * Fetch the catalogs through `fn` from now on (../api.js setTransport: the notebook widget's comm).
 * @param {(url: string, init?: RequestInit) => Promise<Response>} fn
 */
export function setCatalogFetch(fn) {
  fetchFn = fn;
}

/** @param {string} name */
async function fetchCatalog(name) {
  const cached = loaded.get(name);
  if (cached) return cached;
  const response = await fetchFn(`/i18n/${name}.json`, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`catalog ${name}: HTTP ${response.status}`);
  const catalog = await response.json();
  loaded.set(name, catalog);
  return catalog;
}

/**
 * Write the page in `name` from now on: its catalog loaded, `<html lang>` set, the choice remembered
 * (localStorage, and the `lang` cookie the server answers in), every keyed element re-translated and
 * every listener told. `page: false` (the notebook widget, a guest in another page): only the catalog
 * and the listeners, the document and its <html lang> left alone.
 * @param {string} name
 * @param {{remember?: boolean, page?: boolean}} [how]
 */
export async function setLanguage(name, { remember = true, page = true } = {}) {
  const chosen = supported(name) || "en";
  table = await fetchCatalog(chosen);
  const changed = chosen !== current;
  current = chosen;
  if (!page) {
    if (changed) for (const listener of [...listeners]) listener(chosen);
    return;
  }
  document.documentElement.lang = chosen;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, chosen);
    } catch {
      // storage refused (private mode): the cookie still carries the choice
    }
    document.cookie = `lang=${chosen}; path=/; max-age=31536000; SameSite=Lax`;
  }
  translate(document);
  if (changed) for (const listener of [...listeners]) listener(chosen);
}

/** The language a shared link names (`?lang=`), or null. */
const addressLanguage = () => supported(new URL(window.location.href).searchParams.get("lang"));

/** The language the menu chose earlier (this browser's storage), or null. */
function rememberedLanguage() {
  try {
    return supported(localStorage.getItem(STORAGE_KEY));
  } catch {
    return null; // storage refused (private mode)
  }
}

/** The language to start in: `?lang=`, else the remembered choice, else the server's (Accept-Language). */
export function startingLanguage() {
  return addressLanguage() || rememberedLanguage() || supported(document.documentElement.lang)
    || supported(navigator.language) || "en";
}

/** Load the starting language's catalog (before the page composes itself). A language chosen (the
 * menu, or a shared link's `?lang=`) is remembered; one only taken from the browser is not. */
export async function initLanguage() {
  await setLanguage(startingLanguage(), { remember: Boolean(addressLanguage() || rememberedLanguage()) });
}
