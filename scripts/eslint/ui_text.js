// ESLint rule "i18n/ui-text": no words for people written in the page's code. Every visible word and
// every title/aria-label comes from a catalog (static/js/i18n.js: `t(key)`, `el(tag, {t: key})`).
// It reports a string (or template) literal with a word of two or more letters
//   - where text reaches people: the props text/title/aria-label/placeholder/alt/label/summary/hint,
//     assignments to textContent/innerText/title/placeholder/alt/ariaLabel, setAttribute of those,
//     the children of el(), append/prepend/replaceChildren/createTextNode, fillText/strokeText;
//   - anywhere else when it reads like a phrase: two words separated by a space,
// unless it is an identifier-like token, a selector, a class list, a font, an event or message name
// (the calls and props in NOT_TEXT), or in the allow-list of names and symbols (eslint.config.js).

const TEXT_PROPS = new Set(["text", "title", "aria-label", "placeholder", "alt", "label", "summary", "hint",
  "aria-description", "aria-roledescription", "aria-valuetext", "message", "note", "tooltip", "caption"]);
const TEXT_MEMBERS = new Set(["textContent", "innerText", "innerHTML", "title", "placeholder", "alt", "ariaLabel",
  "ariaDescription", "ariaValueText"]);
const TEXT_CALLS = new Set(["append", "prepend", "replaceChildren", "createTextNode", "fillText", "strokeText",
  "alert", "confirm", "prompt", "after", "before", "replaceWith", "insertAdjacentText"]);
const NOT_TEXT_CALLS = new Set(["querySelector", "querySelectorAll", "closest", "matches", "add", "remove", "toggle",
  "contains", "replace", "addEventListener", "removeEventListener", "dispatchEvent", "getAttribute",
  "hasAttribute", "removeAttribute", "emit", "on", "off", "once", "fetch", "postMessage", "import", "log", "warn",
  "error", "info", "debug", "getItem", "setItem", "removeItem", "getElementById", "createElement", "get", "has",
  "delete", "set", "startsWith", "endsWith", "includes", "split", "join", "match", "test", "exec", "indexOf",
  "setProperty", "getPropertyValue", "getContext", "measureText", "runPython", "runPythonAsync", "loadPackage",
  "CustomEvent", "Event", "Worker", "URL", "RegExp", "t", "has", "setText", "setAttr", "require", "define",
  "mark", "measure", "replaceAll", "toLocaleString", "send", "request", "json", "assert", "ok", "equal"]);
const NOT_TEXT_PROPS = new Set(["class", "className", "testid", "id", "type", "role", "name", "for", "rel", "href",
  "src", "accept", "autocomplete", "inputmode", "pattern", "lang", "style", "font", "mode", "event", "key", "code",
  "method", "credentials", "headers", "cache", "mime", "mimetype", "transports", "path", "query", "selector",
  "kind", "t", "tattr", "params", "value", "align", "baseline", "cursor", "display", "state", "status", "sort",
  "data", "format", "unit", "icon", "shortcut", "keys", "field", "slot", "algorithm", "engine", "family", "puzzle"]);
const WORD = /[A-Za-zÄÖÜäöüß]{2,}/;
const PHRASE = /[A-Za-zÄÖÜäöüß]{2,}[,.:;!?]?\s+[A-Za-zÄÖÜäöüß(]{2,}/;
// Tokens that only look like words: CSS values, units, colours, identifiers with _ or -, MIME types.
const TOKEN = /^[\w.:#/@*+-]*$/;

function textOf(node) {
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral") return node.quasis.map((q) => q.value.cooked ?? "").join(" ");
  return null;
}

function calleeName(call) {
  const callee = call.callee;
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier")
    return callee.property.name;
  return null;
}

function propKey(prop) {
  if (prop.key.type === "Identifier") return prop.key.name;
  if (prop.key.type === "Literal") return String(prop.key.value);
  return null;
}

export default {
  meta: {
    type: "problem",
    docs: { description: "words for people come from the i18n catalogs" },
    schema: [{ type: "object", properties: { allow: { type: "array", items: { type: "string" } } } }],
  },
  create(context) {
    const allow = new Set((context.options[0] && context.options[0].allow) || []);
    const allowed = (text) => {
      const trimmed = text.trim();
      if (!WORD.test(trimmed) || allow.has(trimmed)) return true;
      // every word-like piece allowed (names, symbols), e.g. "A* ·"
      const words = trimmed.match(/[A-Za-zÄÖÜäöüß*]{2,}/g) || [];
      return words.every((w) => allow.has(w));
    };
    const report = (node, text, where) =>
      context.report({ node, message: `words for people must come from the catalog (i18n.t): ${JSON.stringify(text.slice(0, 60))} ${where}` });

    /** Where a literal sits: "sink", "not-text" or "other". */
    function placeOf(node) {
      let child = node;
      let parent = node.parent;
      // look through `a ? "x" : "y"`, `"x" + y`, `a || "x"`, [..] and (..)
      while (parent && (parent.type === "ConditionalExpression" || parent.type === "BinaryExpression"
        || parent.type === "LogicalExpression" || parent.type === "ArrayExpression" || parent.type === "TemplateLiteral")) {
        if (parent.type === "ConditionalExpression" && parent.test === child) return "other";
        child = parent;
        parent = parent.parent;
      }
      if (!parent) return "other";
      if (parent.type === "Property" && parent.value === child) {
        const key = propKey(parent);
        if (key === null) return "other";
        if (TEXT_PROPS.has(key)) return "sink";
        if (NOT_TEXT_PROPS.has(key) || key.startsWith("data-") || key.startsWith("aria-") === false && /^[a-z-]+$/.test(key) && key.includes("-")) return "not-text";
        return "other";
      }
      if (parent.type === "Property" && parent.key === child) return "not-text";
      if (parent.type === "AssignmentExpression" && parent.right === child && parent.left.type === "MemberExpression") {
        const prop = parent.left.property;
        const name = prop.type === "Identifier" ? prop.name : prop.type === "Literal" ? String(prop.value) : "";
        if (TEXT_MEMBERS.has(name)) return "sink";
        return "not-text";
      }
      if (parent.type === "CallExpression" || parent.type === "NewExpression") {
        const name = calleeName(parent);
        const index = parent.arguments.indexOf(child);
        if (name === "el" && index >= 2) return "sink";
        if (name === "el") return "not-text";
        if (name === "setAttribute" && index === 1) {
          const attr = parent.arguments[0];
          return attr && attr.type === "Literal" && TEXT_PROPS.has(String(attr.value)) ? "sink" : "not-text";
        }
        if (name && TEXT_CALLS.has(name)) return "sink";
        if (name && NOT_TEXT_CALLS.has(name)) return "not-text";
        return "other";
      }
      if (parent.type === "ImportDeclaration" || parent.type === "ExportNamedDeclaration"
        || parent.type === "ExportAllDeclaration" || parent.type === "ImportExpression") return "not-text";
      if (parent.type === "SwitchCase" || parent.type === "MemberExpression") return "not-text";
      if (parent.type === "BinaryExpression" || parent.type === "CallExpression") return "not-text";
      return "other";
    }

    function check(node) {
      const text = textOf(node);
      if (text === null || allowed(text)) return;
      if (node.parent && node.parent.type === "TemplateLiteral") return; // checked as the template
      if (node.parent && node.parent.type === "TaggedTemplateExpression") return;
      const place = placeOf(node);
      if (place === "not-text") return;
      if (place === "sink") {
        if (TOKEN.test(text.trim()) && !/^[A-ZÄÖÜ][a-zäöüß]/.test(text.trim())) return; // "ok", "px", ids
        report(node, text, "(shown to people)");
        return;
      }
      if (PHRASE.test(text)) report(node, text, "(reads like a phrase)");
    }

    return { Literal: check, TemplateLiteral: check };
  },
};
