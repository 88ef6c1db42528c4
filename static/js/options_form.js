// The run options form, built from a family's options schema (GET /api/families, docs/PROTOCOL.md):
// one control per option the user sets (stage "run" or "both", control "form"). Values come out
// typed — numbers as numbers, booleans, null for an empty optional value — and only for the options
// of that family that the selected algorithm uses. A puzzle's own defaults and bounds (its info's
// `options`) are applied when it is entered. The server writes the schema's words (labels, help,
// choices) in the page's language; the form's own words come from the catalog (options.*), and a
// change of language rebuilds the form from the schema fetched again, keeping what the user typed
// (`snapshot`, `restore`).

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const MAX_TEXT = 500; // characters of a "text" option (server/puzzles/options.py MAX_LONG_TEXT)
// The heuristic lab's pair (server/puzzles/options.py): the heuristic "yours" evaluates the text
// option "formula"; choosing "yours" with no formula is refused here, naming the formula.
export const HEURISTIC = "heuristic";
export const FORMULA = "formula";
export const YOURS = "yours";

export class OptionsForm {
  /**
   * @param {{section: HTMLElement, title: HTMLElement, body: HTMLElement, shared: HTMLElement,
   *          onChange: (name: string, value: any) => void, idPrefix?: string, testidPrefix?: string}} args
   *   section/title/body: the family's own options section; shared: the place under the algorithm menu;
   *   idPrefix/testidPrefix: a control's id and data-testid are <prefix>-<name> ("option-weight"; a
   *   comparison's forms use their own, the page holding several forms at once).
   */
  constructor({ section, title, body, shared, onChange, idPrefix = "option", testidPrefix = idPrefix }) {
    Object.assign(this, { section, title, body, shared, onChange, idPrefix, testidPrefix });
    this.family = null;
    this.notes = {};
    this.controls = new Map(); // name -> {option, input, wrap, min, max, own}
  }

  /**
   * Build the controls of `family` (its schema entry), placed as `layout` says (a view's formLayout:
   * {title, own: [[name, ...], ...], shared: [[name, ...], ...], notes: {name: "(a muted note after
   * the label)"}}: `own` rows go in the family's section, `shared` rows side by side under the menu).
   */
  build(family, layout = {}) {
    this.family = family;
    this.notes = layout.notes || {};
    this.controls.clear();
    const shown = family.options.filter((o) => o.stage !== "load" && o.control !== "view");
    const byName = new Map(shown.map((o) => [o.name, o]));
    const ownRows = (layout.own || [])
      .map((row) => row.filter((name) => byName.has(name)).map((name) => this.control(byName.get(name), true)))
      .filter((row) => row.length);
    this.body.replaceChildren(...ownRows.map((row) => (row.length === 1 ? row[0] : el("div", { class: "option-row" }, ...row))));
    this.layout = layout;
    this.title.textContent = t(layout.title || family.title || ""); // a view's title may be a catalog key
    this.section.hidden = ownRows.length === 0;
    const owned = new Set((layout.own || []).flat());
    // Under the algorithm menu: schema order, except that a row of `layout.shared` sits side by side.
    const rows = (layout.shared || []).map((row) => row.filter((name) => byName.has(name) && !owned.has(name)));
    const placed = new Set();
    const sharedNodes = [];
    for (const option of shown.filter((o) => !owned.has(o.name))) {
      if (placed.has(option.name)) continue;
      const row = rows.find((r) => r.length > 1 && r.includes(option.name));
      if (row) {
        row.forEach((name) => placed.add(name));
        sharedNodes.push(el("div", { class: "option-row" }, ...row.map((name) => this.control(byName.get(name), false))));
      } else {
        placed.add(option.name);
        sharedNodes.push(this.control(option, false));
      }
    }
    this.shared.replaceChildren(...sharedNodes);
    for (const { option } of this.controls.values()) this.set(option.name, option.default ?? null);
  }

  /** One control and its label; `data-testid` is option-<name> (or the form's own prefix). */
  control(option, own) {
    const id = `${this.idPrefix}-${option.name}`;
    const testid = `${this.testidPrefix}-${option.name}`;
    const common = { id, testid, title: option.help || null };
    const note = this.notes[option.name] ? t(this.notes[option.name]) : "";
    const label = labelParts(note ? `${option.label} ${note}` : option.label);
    let input;
    let wrap;
    if (option.type === "bool") {
      input = el("input", { type: "checkbox", ...common });
      wrap = el("label", { class: "check" }, input, ...label);
    } else {
      if (option.type === "choice") {
        input = el("select", common,
          ...(option.choices || []).map((choice) => new Option(choice.label ?? String(choice.value), String(choice.value))));
      } else if (option.type === "int" || option.type === "float") {
        const step = option.type === "int" ? 1 : option.step ?? "any";
        input = el("input", { type: "number", step, tattr: option.optional ? { placeholder: "options.default" } : {}, ...common });
      } else if (option.type === "text") {
        // A free text (a heuristic formula): wide, monospace, never corrected by the browser.
        input = el("input", {
          type: "text", class: "text-option", maxlength: MAX_TEXT, spellcheck: "false", autocomplete: "off",
          autocapitalize: "off", placeholder: option.placeholder || textPlaceholder(option), ...common,
        });
      } else {
        // point ("row, col") and int_list ("0, 2, 4") as text
        input = el("input", { type: "text", tattr: option.optional ? { placeholder: "options.default" } : {}, ...common });
      }
      wrap = el("div", { class: option.type === "text" ? "option wide-option" : "option" }, el("label", { for: id }, ...label), input);
    }
    const message = el("span", { class: "field-error", testid: `${testid}-error`, role: "status", hidden: true });
    wrap.append(message);
    const entry = { option, input, wrap, own, message, min: option.min ?? null, max: option.max ?? null };
    input.addEventListener("change", () => {
      this.mark(entry);
      // A formula typed means the heuristic "yours"; leaving "yours" clears the formula's complaint.
      if (option.name === FORMULA && this.get(FORMULA) && this.has(HEURISTIC) && this.get(HEURISTIC) !== YOURS) {
        this.set(HEURISTIC, YOURS);
        this.onChange(HEURISTIC, YOURS);
      }
      if (option.name === HEURISTIC && this.controls.has(FORMULA)) this.mark(this.controls.get(FORMULA));
      this.onChange(option.name, this.get(option.name));
    });
    this.controls.set(option.name, entry);
    this.setBounds(entry);
    return wrap;
  }

  setBounds(entry) {
    if (entry.input.type !== "number") return;
    for (const key of ["min", "max"]) {
      if (entry[key] === null) entry.input.removeAttribute(key);
      else entry.input.setAttribute(key, String(entry[key]));
    }
  }

  /** A puzzle was entered: its `options` ({name: {default, min, max}}) override the schema's. */
  applyPuzzle(overrides = {}) {
    for (const entry of this.controls.values()) {
      const override = overrides?.[entry.option.name];
      if (!override) continue;
      if ("min" in override) entry.min = override.min;
      if ("max" in override) entry.max = override.max;
      this.setBounds(entry);
      if ("default" in override) this.set(entry.option.name, override.default);
      this.mark(entry);
    }
  }

  /** What is wrong with a control's value, in words naming the option; null when it is fine. */
  check(entry) {
    const { option, input } = entry;
    const name = labelText(option.label);
    if (option.type === "int" || option.type === "float") {
      const text = input.value.trim();
      if (input.validity?.badInput || (text && !Number.isFinite(Number(text)))) return t("options.not_number", { name, text: text || input.value });
      if (!text) return option.optional ? null : t("options.enter_number", { name });
      const value = Number(text);
      if (option.type === "int" && !Number.isInteger(value)) return t("options.not_whole", { name, text });
      const { min, max } = entry;
      if ((min !== null && value < min) || (max !== null && value > max)) {
        const range = min !== null && max !== null ? t("options.range_from_to", { min, max })
          : min !== null ? t("options.range_at_least", { min }) : t("options.range_at_most", { max });
        return t("options.out_of_range", { name, text, range });
      }
    } else if (option.type === "text") {
      const text = input.value.trim();
      if (text.length > MAX_TEXT) return t("options.too_long", { name, length: text.length, max: MAX_TEXT });
      if (!text && option.name === FORMULA && this.get(HEURISTIC) === YOURS) return t("options.need_formula", { name });
    } else if (option.type === "point" || option.type === "int_list") {
      const text = input.value.trim();
      if (!text) return null;
      const numbers = text.split(/[\s,;]+/).filter(Boolean).map(Number);
      if (!numbers.every(Number.isInteger) || (option.type === "point" && numbers.length !== 2)) {
        return t(option.type === "point" ? "options.not_point" : "options.not_list", { name, text });
      }
    }
    return null;
  }

  /** Show (or clear) a control's problem under it. */
  mark(entry) {
    const problem = entry.wrap.hidden ? null : this.check(entry);
    entry.message.textContent = problem || "";
    entry.message.hidden = !problem;
    entry.input.classList.toggle("invalid", Boolean(problem));
    if (problem) entry.input.setAttribute("aria-invalid", "true");
    else entry.input.removeAttribute("aria-invalid");
    return problem;
  }

  /**
   * The first problem among the controls `algorithm` uses: {name, message, input}, or null. Each
   * control shows its own problem; nothing is ever changed to fit.
   */
  problem(algorithm) {
    let first = null;
    for (const entry of this.controls.values()) {
      if (!usedBy(entry.option, algorithm)) continue;
      const message = this.mark(entry);
      if (message && !first) first = { name: entry.option.name, message, input: entry.input };
    }
    return first;
  }

  /** Show the controls the selected algorithm uses (an option's `algorithms`, null = all). */
  showFor(algorithm) {
    for (const { option, wrap } of this.controls.values()) wrap.hidden = !usedBy(option, algorithm);
    const own = [...this.controls.values()].filter((c) => c.own);
    this.section.hidden = !own.some((c) => !c.wrap.hidden);
  }

  has(name) {
    return this.controls.has(name);
  }

  /** What the user has in the controls now (raw: a half-typed value too), their bounds and problems. */
  snapshot() {
    const out = {};
    for (const [name, { input, min, max, message }] of this.controls) {
      out[name] = { value: input.value, checked: input.checked, min, max, marked: !message.hidden };
    }
    return out;
  }

  /** The controls as `snapshot` saw them (after a rebuild: the schema in another language). */
  restore(saved) {
    for (const [name, entry] of this.controls) {
      const was = saved[name];
      if (!was) continue;
      if (entry.input.type === "checkbox") entry.input.checked = was.checked;
      else if (entry.input.tagName !== "SELECT" || [...entry.input.options].some((o) => o.value === was.value)) entry.input.value = was.value;
      entry.min = was.min;
      entry.max = was.max;
      this.setBounds(entry);
      if (was.marked) this.mark(entry);
    }
  }

  /** The same family's schema in another language: the form rebuilt, the user's values kept. */
  relabel(family, algorithm) {
    const saved = this.snapshot();
    this.build(family, this.layout || {});
    this.restore(saved);
    this.showFor(algorithm);
  }

  /** A control's value, typed; null for an empty optional value (undefined: no such control). */
  get(name) {
    const entry = this.controls.get(name);
    if (!entry) return undefined;
    const { option, input } = entry;
    const fallback = option.default ?? null;
    switch (option.type) {
      case "bool":
        return input.checked;
      case "choice": {
        const choice = (option.choices || []).find((c) => String(c.value) === input.value);
        return choice ? choice.value : fallback;
      }
      case "int":
      case "float": {
        const text = input.value.trim();
        const number = Number(text);
        if (!text || !Number.isFinite(number)) return text || !option.optional ? fallback : null;
        // Never clamped: a value out of range is refused (problem()), and the server checks again.
        return number;
      }
      case "int_list":
      case "point": {
        const text = input.value.trim();
        if (!text) return option.optional ? null : fallback;
        const numbers = text.split(/[\s,;]+/).filter(Boolean).map(Number);
        if (!numbers.every(Number.isInteger) || (option.type === "point" && numbers.length !== 2)) return fallback;
        return numbers;
      }
      case "text":
        return input.value.trim();
      default:
        return input.value;
    }
  }

  /** Set a control (a value the control cannot hold is ignored). */
  set(name, value) {
    const entry = this.controls.get(name);
    if (!entry) return;
    const { option, input } = entry;
    if (option.type === "bool") input.checked = Boolean(value);
    else if (option.type === "choice") {
      // null: the first choice (the server lists the recommended one first).
      const wanted = value === null || value === undefined ? option.choices?.[0]?.value : value;
      if ((option.choices || []).some((c) => String(c.value) === String(wanted))) input.value = String(wanted);
    } else if (Array.isArray(value)) input.value = value.join(", ");
    else input.value = value === null || value === undefined ? "" : String(value);
  }

  /**
   * The run's options: the family's run-stage options the algorithm uses, form controls' values and
   * `viewValues` for those whose control is the view. Empty optional values are sent as null.
   */
  values(algorithm, viewValues = {}) {
    const out = {};
    for (const option of this.family?.options || []) {
      if (option.stage === "load" || !usedBy(option, algorithm)) continue;
      const value = option.control === "view" ? viewValues[option.name] : this.get(option.name);
      if (value === undefined || (value === null && !option.optional)) continue;
      // An empty text is its default (no formula): left out, so runs and share links stay as before.
      if (option.type === "text" && value === "" && !option.default) continue;
      out[option.name] = value;
    }
    return out;
  }
}

/** A text option's hint: "e.g. dr + dc" from its help's own example, else nothing. */
function textPlaceholder(option) {
  const match = /(?:e\.g\.|z\.\s?B\.)\s*(.+)$/.exec(option.help || ""); // the server's help, in English or German
  return match ? t("options.eg", { example: match[1] }) : null;
}

/** An option's label without its muted note: "Start column (below)" -> "Start column". */
const labelText = (label = "") => label.replace(/\s+\([^()]*\)$/, "");

const usedBy = (option, algorithm) => !option.algorithms || option.algorithms.includes(algorithm);

/** "Start column (below)" -> "Start column " and a muted "(below)", as the page always showed it. */
function labelParts(label = "") {
  const match = /^(.*\S)\s+(\([^()]*\))$/.exec(label);
  if (!match) return [label];
  return [`${match[1]} `, el("span", { class: "muted", text: match[2] })];
}
