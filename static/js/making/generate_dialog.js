// The "New…" dialog: make a puzzle with one of the server's generators (GET /api/families: each
// family's `generators`, their options as schemas). A family and a kind are chosen from menus (the
// kind's label and help shown), the kind's options become inputs (min, max, step and default from
// the schema; never checked here: the server checks them and its message shows in the dialog, the
// option it names marked), the seed can be drawn at random, and for a family whose view can animate
// the making (its view class says `playsMaking`) a checkbox asks for the steps. POST /api/generate;
// the new puzzle's info, titled with what it is and its seed, goes to `onGenerated`.

import * as api from "../api.js";
import { el } from "../dom.js";
import { lang, setText, t } from "../i18n.js";
import { viewClassFor } from "../families/index.js";

const RANDOM_SEED_MAX = 999_999; // a random seed short enough to note down and type again

export class GenerateDialog {
  /**
   * @param {{dialog: HTMLDialogElement, form: HTMLFormElement, openButton: HTMLElement,
   *   closeButton: HTMLElement, families: () => Map, current: () => string | null,
   *   onGenerated: (info, animate: boolean) => void}} args  families(): the page's family schemas
   *   by name; current(): the family of the puzzle shown (the dialog opens on it).
   */
  constructor({ dialog, form, openButton, closeButton, families, current = () => null, onGenerated }) {
    Object.assign(this, { dialog, form, families, current, onGenerated });
    this.familyName = null; // the family chosen
    this.kindOf = new Map(); // family name -> the kind last chosen in it
    this.typed = new Map(); // "kind:option" (the seed: "seed") -> the text typed, kept across kinds
    this.inputs = new Map(); // option name -> {option, input}
    this.busy = 0; // the request under way (a token: closing the dialog drops its answer)
    this.build();
    openButton.addEventListener("click", () => this.open());
    closeButton.addEventListener("click", () => this.close());
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) this.close();
    });
    dialog.addEventListener("close", () => this.stopWaiting());
    // The page's keys (space plays the trace, arrows step it) are not for the dialog's controls.
    dialog.addEventListener("keydown", (event) => event.stopPropagation());
  }

  get isOpen() {
    return this.dialog.open;
  }

  build() {
    this.familySelect = el("select", { id: "generate-family", testid: "generate-family", on: { change: () => this.chooseFamily(this.familySelect.value) } });
    this.kindSelect = el("select", { id: "generate-kind", testid: "generate-kind", on: { change: () => this.chooseKind(this.kindSelect.value) } });
    this.kindHelp = el("p", { class: "hint", id: "generate-kind-help", testid: "generate-kind-help" });
    this.kindSelect.setAttribute("aria-describedby", "generate-kind-help");
    this.boardNote = el("p", { class: "hint", testid: "generate-board" });
    this.fields = el("div", { class: "generate-fields" });
    this.animate = el("input", { type: "checkbox", id: "generate-animate", testid: "generate-animate", checked: true });
    this.animateRow = el("label", { class: "check generate-animate", for: "generate-animate" }, this.animate, el("span", { t: "make.animate" }));
    this.error = el("p", { class: "banner error", testid: "generate-error", role: "alert", hidden: true });
    this.goButton = el("button", { type: "submit", class: "primary", testid: "generate-go", t: "make.generate" });
    this.form.noValidate = true; // the server checks the values and says which one is wrong
    this.form.replaceChildren(
      el("div", { class: "option-row generate-what" },
        el("div", { class: "option" }, el("label", { for: "generate-family", t: "make.puzzle" }), this.familySelect),
        el("div", { class: "option" }, el("label", { for: "generate-kind", t: "make.kind" }), this.kindSelect)),
      this.kindHelp,
      this.fields,
      this.animateRow,
      this.error,
      el("div", { class: "generate-actions" }, this.goButton),
    );
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.generate();
    });
  }

  /** Families with generators, in the page's order. */
  makers() {
    return [...this.families().values()].filter((family) => family.generators?.length);
  }

  open() {
    if (this.dialog.open) return;
    const makers = this.makers();
    this.familySelect.replaceChildren(...makers.map((f) => new Option(f.title || f.name, f.name)));
    this.showError(makers.length ? "" : t("make.no_generators"));
    const shown = this.current();
    const name = makers.some((f) => f.name === shown) ? shown
      : makers.some((f) => f.name === this.familyName) ? this.familyName : makers[0]?.name;
    if (name) this.chooseFamily(name);
    this.dialog.showModal();
    this.kindSelect.focus();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  chooseFamily(name) {
    const family = this.families().get(name);
    if (!family) return;
    this.familyName = name;
    this.familySelect.value = name;
    this.kindSelect.replaceChildren(...family.generators.map((g) => new Option(g.label || g.name, g.name)));
    const View = viewClassFor(name);
    this.animateRow.hidden = !View?.playsMaking;
    const kind = this.kindOf.get(name);
    this.chooseKind(family.generators.some((g) => g.name === kind) ? kind : family.generators[0].name);
  }

  /** The kind's help, its board's note and an input per option (what was typed before kept). */
  chooseKind(kindName) {
    const kind = this.kind(kindName);
    if (!kind) return;
    this.kindOf.set(this.familyName, kind.name);
    this.kindSelect.value = kind.name;
    this.kindHelp.textContent = kind.help ? `${kind.help[0].toUpperCase()}${kind.help.slice(1)}.` : "";
    if (kind.board) setText(this.boardNote, "make.board", { board: kind.board });
    else this.boardNote.textContent = "";
    this.boardNote.hidden = !kind.board;
    this.inputs.clear();
    const control = (option) => this.control(kind, option);
    const byName = new Map(kind.options.map((o) => [o.name, o]));
    const size = ["rows", "cols"].filter((n) => byName.has(n)).map((n) => control(byName.get(n)));
    const rest = kind.options.filter((o) => o.name !== "rows" && o.name !== "cols").map(control);
    // The size side by side, the board it makes under it, then the seed and the kind's own options.
    this.fields.replaceChildren(...(size.length ? [el("div", { class: "option-row" }, ...size)] : []), this.boardNote, ...rest);
    this.showError("");
  }

  kind(name) {
    return this.families().get(this.familyName)?.generators.find((g) => g.name === name) || null;
  }

  /** One option's label, input (data-testid generate-<name>) and help; the seed with a Random button. */
  control(kind, option) {
    const id = `generate-${option.name}`;
    const key = option.name === "seed" ? "seed" : `${kind.name}:${option.name}`;
    const common = { id, testid: id, "aria-describedby": `${id}-help`, autocomplete: "off" };
    let input;
    if (option.type === "bool") input = el("input", { type: "checkbox", ...common });
    else if (option.type === "choice") {
      input = el("select", common, ...(option.choices || []).map((c) => new Option(c.label ?? String(c.value), String(c.value))));
    } else if (option.type === "int" || option.type === "float") {
      input = el("input", {
        type: "number", inputmode: option.type === "int" ? "numeric" : "decimal",
        step: option.type === "int" ? 1 : option.step ?? "any", min: option.min, max: option.max, ...common,
      });
    } else input = el("input", { type: "text", spellcheck: "false", ...common });
    const stored = this.typed.get(key);
    const value = stored ?? option.default;
    if (option.type === "bool") input.checked = stored === undefined ? Boolean(option.default) : stored === "true";
    else input.value = Array.isArray(value) ? value.join(", ") : value === null || value === undefined ? "" : String(value);
    input.addEventListener("input", () => {
      this.typed.set(key, option.type === "bool" ? String(input.checked) : input.value);
      this.unmark(input);
    });
    input.addEventListener("change", () => this.typed.set(key, option.type === "bool" ? String(input.checked) : input.value));
    this.inputs.set(option.name, { option, input });
    const numeric = option.type === "int" || option.type === "float";
    const bounded = numeric && option.min !== undefined && option.max !== undefined && option.name !== "seed";
    const range = bounded ? t("make.range", { min: option.min, max: option.max }) : "";
    const help = el("span", { class: "hint", id: `${id}-help`, text: `${option.help || ""}${range}` });
    const field = option.name === "seed"
      ? el("div", { class: "generate-seed" }, input, el("button", {
        type: "button", testid: "generate-random-seed", tattr: { title: "make.random_seed_help" }, t: "make.random_seed",
        on: { click: () => this.randomSeed(option) },
      }))
      : input;
    if (option.type === "bool") return el("label", { class: "check", for: id }, input, option.label, help);
    return el("div", { class: "option" }, el("label", { for: id, text: option.label }), field, help);
  }

  randomSeed(option) {
    const max = Math.min(option.max ?? RANDOM_SEED_MAX, RANDOM_SEED_MAX);
    const min = option.min ?? 0;
    const seed = min + (crypto.getRandomValues(new Uint32Array(1))[0] % (max - min + 1));
    const { input } = this.inputs.get(option.name);
    input.value = String(seed);
    this.typed.set("seed", input.value);
    this.unmark(input);
  }

  /** The request's body: the options as JSON values (what cannot be read is sent as typed: the server names it). */
  body() {
    const body = { kind: this.kindSelect.value };
    for (const [name, { option, input }] of this.inputs) body[name] = valueOf(option, input);
    body.steps = !this.animateRow.hidden && this.animate.checked;
    return body;
  }

  async generate() {
    const kind = this.kind(this.kindSelect.value);
    if (!kind || this.busy) return;
    const body = this.body();
    const token = Symbol("generate");
    this.busy = token;
    this.showError("");
    this.goButton.disabled = true;
    setText(this.goButton, "make.generating");
    this.form.setAttribute("aria-busy", "true");
    try {
      const info = await api.generatePuzzle(body);
      if (this.busy !== token) return; // closed meanwhile: the user went back to the page
      const generated = info.generated || {};
      info.title = titleOf(kind, generated.options || body);
      info.description = generated.description || "";
      this.stopWaiting();
      this.close();
      this.onGenerated(info, body.steps);
    } catch (err) {
      if (this.busy !== token) return;
      this.stopWaiting();
      this.showError(api.errorWords(err, t("make.failed")));
    }
  }

  stopWaiting() {
    this.busy = 0;
    this.goButton.disabled = false;
    setText(this.goButton, "make.generate");
    this.form.removeAttribute("aria-busy");
  }

  /** The server's message; the option it names ("option 'rows': …") is marked and focused. */
  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
    for (const { input } of this.inputs.values()) this.unmark(input);
    const named = /option '([^']+)'/.exec(message || "");
    const entry = named && this.inputs.get(named[1]);
    if (entry) {
      entry.input.classList.add("invalid");
      entry.input.setAttribute("aria-invalid", "true");
      entry.input.focus();
    }
  }

  unmark(input) {
    input.classList.remove("invalid");
    input.removeAttribute("aria-invalid");
  }
}

/** An input's value as JSON: numbers and lists of whole numbers parsed, else the text as typed. */
function valueOf(option, input) {
  const text = input.value.trim();
  switch (option.type) {
    case "bool":
      return input.checked;
    case "choice":
      return (option.choices || []).find((c) => String(c.value) === input.value)?.value ?? input.value;
    case "int":
    case "float": {
      if (!text) return null;
      const number = Number(text);
      return Number.isFinite(number) ? number : text;
    }
    case "int_list":
    case "point": {
      const numbers = text.split(/[\s,;]+/).filter(Boolean).map(Number);
      return numbers.length && numbers.every(Number.isFinite) ? numbers : text;
    }
    default:
      return text;
  }
}

/** "Perfect maze (Prim) · 20 × 20 · seed 7", with the kind's own options: "… · wall density 0.3 · seed 7". */
function titleOf(kind, values) {
  const parts = [kind.label || kind.name];
  if (values.rows !== undefined && values.cols !== undefined) parts.push(`${values.rows} × ${values.cols}`);
  for (const option of kind.options) {
    if (["rows", "cols", "seed"].includes(option.name) || values[option.name] === undefined) continue;
    const value = values[option.name];
    // English writes an option's name in lower case here; German keeps a noun's capital.
    const label = lang() === "en" ? option.label.toLowerCase() : option.label;
    parts.push(`${label} ${Array.isArray(value) ? value.join(",") : value}`);
  }
  if (values.seed !== undefined) parts.push(t("make.seed", { seed: values.seed }));
  return parts.join(" · ");
}
