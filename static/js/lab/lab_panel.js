// @ts-check
// The heuristic lab beside the board: a formula over the family's features (GET /api/families
// `features`, each name's meaning in its tooltip), judged by the server against the true cost-to-go
// of every reachable state (POST /api/puzzles/<id>/heuristic): the verdict in words (admissible?
// consistent? over how many states; the worst overestimate, the worst move, h at the goal; a walk
// stopped early said as such) and the heat map the family view draws over the board
// (FamilyView.showHeat, ../families/heat.js). "Use as heuristic" puts "yours" and the formula into
// the options form, so A*, greedy and IDA* run it, the comparison's panels take it and share links
// keep it. A new puzzle, an edit or clearing the formula removes the heat map.

import * as api from "../api.js";
import { el } from "../dom.js";
import { number, withCommas } from "../format.js";
import { lang, onLanguage, onServerWords, setText, t } from "../i18n.js";
import { decodeHeat, ratioRgb, DEAD_END_RGB, HATCH, ARROW, HEAT_TOP } from "../families/heat.js";
import { FORMULA, HEURISTIC, MAX_TEXT, YOURS } from "../options_form.js";

/**
 * What the lab reads of the page.
 * @typedef {object} LabPage
 * @property {() => any} puzzle  the puzzle shown (its info), or null
 * @property {() => any} view  the family view showing it (FamilyView), or null
 * @property {() => Map<string, any>} families  the families' schema entries by name
 * @property {() => Object<string, any>} options  the run options of the form's present choice
 * @property {(algorithm: string | null, options: Object<string, any>) => void} useHeuristic  put
 *   options into the form (and the algorithm into the menu, when it is given and offered)
 * @property {() => string[]} algorithms  the algorithms offered for the puzzle shown
 * @property {() => string} algorithm  the algorithm chosen now
 */

const HEURISTIC_ALGORITHMS = ["astar", "greedy", "idastar"]; // the ones that run a heuristic

export class LabPanel {
  /** @param {{root: HTMLElement, page: LabPage}} args */
  constructor({ root, page }) {
    this.root = root;
    this.page = page;
    /** @type {any} the last verdict shown (the server's answer) */
    this.verdict = null;
    this.heat = null;
    this.asked = 0; // numbered requests: an answer to an older one is dropped
    this.familyName = null;
    this.name = "heuristic";
    this.tabKey = "lab.tab"; // the drawer writes it (and again when the language changes)
    this.open = false; // the panel is shown: its heat map is on the board only then (with its legend)
    this.info = null; // the puzzle shown
    this.build();
    onLanguage(() => this.languageChanged());
    onServerWords(() => this.writeNames());
  }

  /** The tab's words in the page's language. */
  get tab() {
    return t(this.tabKey);
  }

  /**
   * The language changed: the verdict and the arrows' menu at once; the features' meanings (the
   * server's words) once the page has fetched the families again (i18n.onServerWords: writeNames).
   */
  languageChanged() {
    for (const option of this.arrows.options) option.text = t(`lab.arrows.${option.value}`);
    if (this.verdict) this.writeVerdict(this.verdict);
    this.writeNote();
  }

  build() {
    this.input = /** @type {HTMLInputElement} */ (el("input", {
      type: "text", id: "lab-formula", class: "formula", testid: "lab-formula", maxlength: MAX_TEXT,
      spellcheck: "false", autocomplete: "off", autocapitalize: "off", tattr: { placeholder: "lab.placeholder" },
      "aria-describedby": "lab-names",
    }));
    this.judgeButton = el("button", { type: "submit", class: "primary", testid: "lab-judge", t: "lab.judge" });
    const form = el("form", { class: "lab-form", testid: "lab-form" },
      el("label", { for: "lab-formula", class: "lab-h", text: "h =" }), this.input, this.judgeButton);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.judge();
    });
    this.input.addEventListener("input", () => {
      if (!this.input.value.trim() && (this.heat || this.verdict)) this.clear(false); // emptied: the map goes
    });
    this.names = el("p", { class: "lab-names", id: "lab-names", testid: "lab-features" });
    this.error = el("p", { class: "field-error lab-error", testid: "lab-error", role: "alert", hidden: true });
    this.headline = el("p", { class: "lab-headline", testid: "lab-headline", hidden: true });
    this.details = el("ul", { class: "lab-details", testid: "lab-details" });
    this.busy = el("p", { class: "hint", testid: "lab-busy", hidden: true, t: "lab.busy" });
    this.legend = this.buildLegend();
    this.showHeatBox = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", testid: "lab-show-heat", checked: true }));
    this.showHeatBox.addEventListener("change", () => this.drawHeat());
    this.arrows = /** @type {HTMLSelectElement} */ (el("select", { testid: "lab-arrows", id: "lab-arrows", class: "lab-arrows" },
      ...["25", "100", "all", "0"].map((value) => new Option(t(`lab.arrows.${value}`), value))));
    this.arrows.addEventListener("change", () => this.drawHeat());
    this.heatToggle = el("div", { class: "lab-toggles", hidden: true },
      el("label", { class: "check lab-toggle" }, this.showHeatBox, " ", el("span", { t: "lab.heat_toggle" })),
      el("label", { class: "lab-toggle", for: "lab-arrows" }, el("span", { t: "lab.arrows_label" }), " ", this.arrows));
    this.useButton = el("button", {
      type: "button", testid: "lab-use", disabled: true, t: "lab.use", tattr: { title: "lab.use_title" },
    });
    this.useButton.addEventListener("click", () => this.use());
    this.clearButton = el("button", { type: "button", testid: "lab-clear", t: "lab.clear", tattr: { title: "lab.clear_title" } });
    this.clearButton.addEventListener("click", () => this.clear(true));
    this.note = el("p", { class: "hint", testid: "lab-note", hidden: true });
    this.section = el("section", { class: "lab-section", testid: "lab-heuristic" },
      form,
      this.names,
      this.error,
      this.busy,
      el("div", { class: "lab-verdict", testid: "lab-verdict", role: "status", "aria-live": "polite" }, this.headline, this.details),
      this.legend.root,
      this.note,
      el("div", { class: "lab-actions" }, this.useButton, this.clearButton, this.heatToggle),
    );
    this.root.append(this.section);
  }

  /** The legend of the heat map: the scale as a bar, the marks beside it. */
  buildLegend() {
    // The scale as a gradient through the board's own colours (a div: the board is the page's only canvas).
    const bar = el("div", { class: "lab-scale", "aria-hidden": "true" });
    const stops = [];
    for (let k = 0; k <= 20; k++) stops.push(`rgb(${ratioRgb((k / 20) * HEAT_TOP).join(",")}) ${k * 5}%`);
    bar.style.setProperty("background", `linear-gradient(to right, ${stops.join(", ")})`); // CSSOM: allowed by the CSP
    bar.append(el("span", { class: "lab-scale-one" }));
    const tick = (text, at, cls = "") => el("span", { class: `tick ${cls}`.trim(), "data-at": at, text });
    const wordTick = (key, at, cls = "") => el("span", { class: `tick ${cls}`.trim(), "data-at": at, t: key });
    const swatch = (cls, key) => el("span", { class: "lab-key" }, el("span", { class: `lab-swatch ${cls}` }), el("span", { t: key }));
    const root = el("div", { class: "lab-legend", testid: "lab-legend", hidden: true },
      el("p", { class: "lab-legend-title", t: "lab.legend_title" }),
      bar,
      el("div", { class: "lab-ticks", "aria-hidden": "true" },
        tick("0", "0"), tick("½", "20"), wordTick("lab.tick_exact", "40", "exact"), tick("2", "80"), wordTick("lab.tick_top", "100")),
      el("p", { class: "lab-keys" },
        swatch("under", "lab.key_under"),
        swatch("over", "lab.key_over"),
        swatch("dead", "lab.key_dead"),
        el("span", { class: "lab-key" }, el("span", { class: "lab-arrow", text: "→" }), el("span", { t: "lab.key_move" }))),
    );
    // The swatches' colours come from the same scale as the board's (the stylesheet holds only shapes).
    /** @type {Array<[string, number[]]>} */
    const swatches = [["under", ratioRgb(0.5)], ["over", ratioRgb(2)], ["dead", DEAD_END_RGB]];
    for (const [cls, rgb] of swatches) {
      root.querySelector(`.lab-swatch.${cls}`)?.setAttribute("data-rgb", rgb.join(","));
    }
    root.querySelectorAll(".lab-swatch").forEach((node) => {
      const rgb = node.getAttribute("data-rgb");
      if (rgb && node instanceof HTMLElement) node.style.setProperty("--swatch", `rgb(${rgb})`); // CSSOM: allowed by the CSP
    });
    root.style.setProperty("--hatch", HATCH);
    root.style.setProperty("--arrow", ARROW);
    return { root };
  }

  // ---- the puzzle ---------------------------------------------------------------------------------

  /** The panel was opened or closed: the heat map follows it. */
  setOpen(open) {
    this.open = open;
    this.drawHeat();
  }

  /** A puzzle is shown (loaded, or edited: a new board): the old verdict and heat map go. */
  puzzleShown(info) {
    this.clear(false, { keepText: true });
    this.info = info;
    this.writeNames();
  }

  /** The features' names (their meanings in tooltips and under "What they mean"), or why there are none. */
  writeNames() {
    const info = this.info;
    const family = info ? this.page.families().get(info.family) : null;
    this.familyName = family?.name || null;
    const features = Array.isArray(family?.features) ? family.features : [];
    this.features = features;
    const usable = features.length > 0;
    this.input.disabled = !usable;
    this.judgeButton.disabled = !usable;
    if (!usable) {
      const title = family?.title ? t(family.title) : "";
      this.names.replaceChildren(title
        ? t("lab.no_features", { family: lang() === "en" ? title.toLowerCase() : title })
        : t("lab.no_features_here"));
      return;
    }
    const chips = features.map(({ name, meaning }) => {
      // The name is the formula's (code, the same in every language); its meaning the server's words.
      const chip = el("button", { type: "button", class: "lab-name", testid: "lab-name", title: meaning || name, text: name });
      chip.addEventListener("click", () => this.insert(name));
      return chip;
    });
    this.names.replaceChildren(
      el("span", { class: "muted", t: "lab.names" }), " ", ...chips,
      el("details", { class: "lab-help" },
        el("summary", { t: "lab.meanings" }),
        el("dl", {}, ...features.flatMap(({ name, meaning }) => [el("dt", {}, el("code", { text: name })), el("dd", { text: meaning || "" })])),
        el("p", { class: "muted", t: "lab.operators" })),
    );
  }

  /** Put a feature's name into the formula at the cursor. */
  insert(name) {
    const input = this.input;
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? start;
    const before = input.value.slice(0, start);
    const pad = before && !/[\s(]$/.test(before) ? " " : "";
    input.setRangeText(pad + name, start, end, "end");
    input.focus();
  }

  // ---- judging ------------------------------------------------------------------------------------

  async judge() {
    const info = this.page.puzzle();
    const formula = this.input.value.trim();
    if (!info) return;
    if (!formula) {
      this.clear(false);
      this.say(t("lab.no_formula"));
      return;
    }
    const ask = ++this.asked;
    this.say("");
    this.busy.hidden = false;
    this.judgeButton.disabled = true;
    this.root.dataset.judging = "1";
    try {
      const verdict = await api.judgeHeuristic(info.id, formula, this.page.options());
      if (ask !== this.asked || this.page.puzzle() !== info) return;
      this.show(verdict, info);
    } catch (err) {
      if (ask !== this.asked) return;
      this.clear(false, { keepText: true });
      this.say(api.errorWords(err, t("lab.failed")));
    } finally {
      if (ask === this.asked) {
        this.busy.hidden = true;
        this.judgeButton.disabled = false;
        delete this.root.dataset.judging;
      }
    }
  }

  /** One line of error under the formula ("" clears it). */
  say(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
    this.input.classList.toggle("invalid", Boolean(message));
    if (message) this.input.setAttribute("aria-invalid", "true");
    else this.input.removeAttribute("aria-invalid");
  }

  /** The verdict in words, and its heat map on the board. */
  show(verdict, info) {
    this.verdict = verdict;
    this.writeVerdict(verdict);
    const view = this.page.view();
    this.heat = view?.drawsHeat && info ? decodeHeat(verdict.heat, info.width * info.height) : null;
    this.writeNote();
    this.legend.root.hidden = !this.heat;
    this.heatToggle.hidden = !this.heat;
    this.useButton.disabled = !this.usable();
    this.drawHeat();
    this.root.dataset.judged = String(verdict.formula ?? "");
  }

  /** Why there is no heat map (the board is too large, or its view draws none); hidden when there is one. */
  writeNote() {
    this.note.hidden = Boolean(this.heat) || !this.verdict;
    this.note.textContent = this.heat || !this.verdict ? "" : t(this.verdict.heat === undefined ? "lab.too_large" : "lab.no_heat_view");
  }

  /** The verdict in the page's language: the headline and the details. @param {any} verdict */
  writeVerdict(verdict) {
    const good = verdict.admissible && verdict.consistent;
    const words = t(verdict.admissible
      ? (verdict.consistent ? "lab.verdict.both" : "lab.verdict.admissible")
      : (verdict.consistent ? "lab.verdict.consistent" : "lab.verdict.neither"));
    const n = withCommas(verdict.states);
    const states = t(verdict.complete ? "lab.states_reachable" : "lab.states_walked", { count: verdict.states, n });
    this.headline.textContent = t("lab.headline", { words, states });
    this.headline.className = `lab-headline ${good ? "good" : "bad"}`;
    this.headline.hidden = false;
    const items = [];
    // States in the family's one notation, written by the server (Family.json_text): "7 2 4 / 5 _ 6 / 8 3 1".
    // A short one ("(3, 4)", an 8-puzzle's rows) is never split over two lines.
    const where = (words, state) => {
      const text = words ?? this.stateWords(state);
      return text.length <= 24 ? text.replace(/ /g, "\u00a0") : text;
    };
    if (!verdict.complete) {
      items.push([t("lab.stopped", { why: verdict.stopped || t("lab.a_limit") }), "warn"]);
    }
    if (verdict.overestimates) {
      const w = verdict.worst || {};
      items.push([t("lab.overestimates", {
        count: verdict.overestimates, n: withCommas(verdict.overestimates), h: number(w.h), hstar: number(w.h_star), where: where(w.text, w.state),
      }), "bad", "lab-over"]);
    } else {
      items.push([t("lab.no_overestimates"), "good", "lab-over"]);
    }
    if (verdict.inconsistent_moves) {
      const m = verdict.worst_move || {};
      items.push([t("lab.inconsistent", {
        count: verdict.inconsistent_moves, n: withCommas(verdict.inconsistent_moves), from: where(m.from_text, m.from),
        to: where(m.to_text, m.to), cost: number(m.cost), hfrom: number(m.h_from), hto: number(m.h_to),
      }), "bad", "lab-moves"]);
    } else {
      items.push([t("lab.consistent_everywhere"), "good", "lab-moves"]);
    }
    // The API's name for states where h is no finite number (the contract said not_a_number).
    const nan = verdict.not_finite ?? verdict.not_a_number;
    const example = verdict.example_not_finite ?? verdict.example_not_a_number;
    if (nan) {
      const eg = example !== undefined ? t("lab.not_finite_example", { where: where(verdict.example_text, example) }) : "";
      items.push([t("lab.not_finite", { count: nan, n: withCommas(nan), example: eg }), "bad"]);
    }
    const goalH = verdict.h_at_goal;
    const goal = goalH === null || goalH === undefined ? "—" : number(goalH);
    items.push([t(goalH ? "lab.goal_wrong" : "lab.goal", { h: goal }), goalH ? "bad" : "", "lab-goal"]);
    if (verdict.dead_ends) items.push([t("lab.dead_ends", { count: verdict.dead_ends, n: withCommas(verdict.dead_ends) }), ""]);
    this.details.replaceChildren(...items.map(([text, tone, testid]) => el("li", { class: tone || null, testid: testid || null, text })));
  }

  /** A state the server sent without its words (an older answer): its JSON, short. */
  stateWords(state) {
    const text = JSON.stringify(state);
    return text && text.length > 60 ? `${text.slice(0, 57)}…` : text || "—";
  }

  /** The heat map on the board, or off (the checkbox, a clear). */
  drawHeat() {
    const view = this.page.view();
    if (!view) return;
    const on = this.open && this.heat && this.showHeatBox.checked;
    const limit = this.arrows.value === "all" ? Infinity : Number(this.arrows.value);
    // The worst moves come first: a few arrows say where, hundreds would hide the board.
    view.showHeat(on ? { ...this.heat, moves: this.heat.moves.slice(0, limit) } : null);
  }

  /** "Use as heuristic" works for a judged formula when an algorithm of the puzzle runs one. */
  usable() {
    return Boolean(this.verdict) && this.page.algorithms().some((name) => HEURISTIC_ALGORITHMS.includes(name));
  }

  /** The formula into the options form (heuristic "yours"); A* chosen unless a heuristic search is. */
  use() {
    const formula = this.verdict?.formula ?? this.input.value.trim();
    if (!formula) return;
    const offered = this.page.algorithms();
    const now = this.page.algorithm();
    const algorithm = HEURISTIC_ALGORITHMS.includes(now) ? now : HEURISTIC_ALGORITHMS.find((name) => offered.includes(name)) || null;
    this.page.useHeuristic(algorithm, { [HEURISTIC]: YOURS, [FORMULA]: formula });
    setText(this.useButton, "lab.used");
    setTimeout(() => setText(this.useButton, "lab.use"), 1500);
  }

  /**
   * Remove the verdict and the heat map; `focus`: the formula's field gets the focus (the Clear
   * button), `keepText`: the formula stays typed (a new puzzle: judge it again there).
   */
  clear(focus, { keepText = false } = {}) {
    this.asked++;
    this.verdict = null;
    this.heat = null;
    if (!keepText) this.input.value = "";
    this.say("");
    this.busy.hidden = true;
    this.judgeButton.disabled = this.input.disabled;
    delete this.root.dataset.judging;
    delete this.root.dataset.judged;
    this.headline.hidden = true;
    this.details.replaceChildren();
    this.legend.root.hidden = true;
    this.heatToggle.hidden = true;
    this.note.hidden = true;
    this.useButton.disabled = true;
    this.drawHeat();
    if (focus) this.input.focus();
  }
}
