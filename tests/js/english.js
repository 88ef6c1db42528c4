// The page's English catalog, loaded as the page loads it (static/js/i18n.js fetching /i18n/en.json,
// which the server merges from static/i18n/en/*.json and each family view's i18n/en.json), for unit
// tests that read the page's words.

import { readdirSync, readFileSync } from "node:fs";

const root = new URL("../../static/", import.meta.url);

/** Every file of the English page catalog merged. */
function englishCatalog() {
  const files = [];
  const shared = new URL("i18n/en/", root);
  for (const name of readdirSync(shared)) if (name.endsWith(".json")) files.push(new URL(name, shared));
  const families = new URL("js/families/", root);
  for (const family of readdirSync(families, { withFileTypes: true })) {
    if (!family.isDirectory()) continue;
    const own = new URL(`${family.name}/i18n/en.json`, families);
    try {
      readFileSync(own);
      files.push(own);
    } catch {
      // a family view without words of its own
    }
  }
  return Object.assign({}, ...files.map((file) => JSON.parse(readFileSync(file, "utf-8"))));
}

/** Load the English catalog into static/js/i18n.js (a fake fetch and document, as in a page). */
export async function useEnglish() {
  const catalog = englishCatalog();
  globalThis.fetch = async () => ({ ok: true, json: async () => catalog });
  globalThis.document = globalThis.document || { documentElement: { lang: "en" }, querySelectorAll: () => [] };
  const { setLanguage } = await import("../../static/js/i18n.js");
  await setLanguage("en", { remember: false });
}
