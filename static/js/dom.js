// A small helper for building markup with DOM calls (the page has no inline markup templates with
// style attributes: a strict Content-Security-Policy is planned).

import { setAttr, setText } from "./i18n.js";

/**
 * el("p", {class: "hint", testid: "x", t: KEY}, ...children): an element. Props: `class`,
 * `testid` (data-testid), `t` (the text of a catalog key, with `params`; kept in the current
 * language: i18n.js), `tattr` ({title: key | [key, params], "aria-label": …}: attributes from the
 * catalog, kept likewise), `text` (textContent, for what is not a sentence: numbers, names, or a text
 * already translated), `on` ({event: handler}), `hidden` (boolean); anything else becomes an
 * attribute (null, undefined and false are skipped).
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "testid") node.dataset.testid = value;
    else if (key === "text") node.textContent = value;
    else if (key === "t") setText(node, value, props.params || undefined);
    else if (key === "params") continue;
    else if (key === "tattr")
      for (const [name, spec] of Object.entries(value)) {
        const [textKey, params] = Array.isArray(spec) ? spec : [spec, undefined];
        setAttr(node, name, textKey, params);
      }
    else if (key === "hidden") node.hidden = Boolean(value);
    else if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

/**
 * The page's element with this id, typed loosely (the page's markup is known to the shell, not to
 * the type checker: `byId("algorithm").value` is a <select>'s value).
 * @param {string} id
 * @returns {any}
 */
export const byId = (id) => document.getElementById(id);
