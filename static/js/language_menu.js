// @ts-check
// The header's language menu: a <select> of the languages, each named in itself (Deutsch, English),
// that switches the page at once (i18n.setLanguage: no reload) and remembers the choice.

import { el } from "./dom.js";
import { LANGUAGES, lang, onLanguage, setLanguage } from "./i18n.js";

/** Each language in its own words: the same in every language, so not from a catalog. */
const ENDONYMS = /** @type {Record<string, string>} */ ({ en: "English", de: "Deutsch" });

/**
 * Put the menu into `host`; `onChange(lang)` runs after the page switched (e.g. to refetch what the
 * server wrote in the old language).
 * @param {HTMLElement} host
 * @param {(lang: string) => void} [onChange]
 * @returns {HTMLSelectElement}
 */
export function mountLanguageMenu(host, onChange) {
  const select = /** @type {HTMLSelectElement} */ (el(
    "select",
    { id: "language", testid: "language", tattr: { "aria-label": "language.menu", title: "language.menu" } },
    ...LANGUAGES.map((code) => el("option", { value: code, lang: code, text: ENDONYMS[code] || code })),
  ));
  select.value = lang();
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    if (onChange) onChange(select.value);
  });
  onLanguage((now) => {
    select.value = now;
  });
  host.append(select);
  return select;
}
