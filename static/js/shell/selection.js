// @ts-check
// The user's choice of a run: the algorithm menu (each family's last choice remembered) and the
// options form built from the family's schema (../options_form.js), with the run they make in words
// and as a signature (a changed choice marks the run on the board as the previous one).

import { OptionsForm } from "../options_form.js";
import { byId } from "../dom.js";

const $ = byId;

export class Selection {
  /**
   * @param {{view: () => any, onChange: () => void}} args
   *   view(): the family view showing the puzzle (its view options, its words for a run);
   *   onChange(): the algorithm or an option changed.
   */
  constructor({ view, onChange }) {
    this.view = view;
    this.onChange = onChange;
    this.algorithms = []; // GET /api/algorithms
    this.families = new Map(); // family name -> its schema entry (GET /api/families)
    this.menuChoice = new Map(); // family name -> the algorithm last selected for it
    this.formFamily = null; // the family the options form is built for
    this.family = null; // the family of the puzzle shown
    this.menu = $("algorithm");
    this.form = new OptionsForm({
      section: $("family-options"),
      title: $("family-options-title"),
      body: $("family-options-body"),
      shared: $("algorithm-options"),
      onChange: (name, value) => {
        this.view()?.optionChanged(name, value, this.form);
        this.onChange();
      },
    });
    this.menu.addEventListener("change", () => this.algorithmChanged());
  }

  /** What the server offers: its algorithms and families. */
  setCatalog(algorithms, families) {
    this.algorithms = algorithms;
    this.families = new Map(families.map((family) => [family.name, family]));
  }

  get algorithm() {
    return this.menu.value;
  }

  /** An algorithm's label: "A*", "Breadth-first (Lee's wavefront)". */
  label(name) {
    return this.algorithms.find((a) => a.name === name)?.label || name;
  }

  /** The menu and the form for a family before any puzzle (the first family's). */
  useFamily(name, View) {
    const family = this.families.get(name);
    if (!family) return;
    this.buildForm(family, View);
    this.fillMenu(name, family.algorithms || []);
    this.algorithmChanged();
  }

  /** The menu and the form for a puzzle shown: its family's, with its own option values. */
  forPuzzle(info, View) {
    const family = this.families.get(info.family);
    this.buildForm(family, View);
    this.form.applyPuzzle(info.options);
    this.fillMenu(info.family, info.algorithms || family.algorithms || []);
    this.family = info.family;
    this.algorithmChanged();
  }

  /**
   * The server's words in another language (GET /api/algorithms and /api/families fetched again):
   * the menu's labels, the summary and the form in it, every choice and typed value kept.
   */
  relabel(algorithms, families) {
    this.setCatalog(algorithms, families);
    for (const option of this.menu.options) option.text = this.label(option.value);
    const family = this.formFamily ? this.families.get(this.formFamily) : null;
    if (family) this.form.relabel(family, this.menu.value);
    const algorithm = this.algorithms.find((a) => a.name === this.menu.value);
    $("algorithm-summary").textContent = algorithm ? algorithm.summary : "";
  }

  /** The options form for a family (rebuilt only when the family changes: choices survive puzzles). */
  buildForm(family, View) {
    if (this.formFamily === family.name) return;
    this.form.build(family, View?.formLayout);
    this.formFamily = family.name;
  }

  /** The menu for a family: `names` in order; the family's last choice, else the current one if offered. */
  fillMenu(family, names) {
    const previous = this.menu.value;
    this.menu.replaceChildren(...names.map((name) => new Option(this.label(name), name)));
    const remembered = this.menuChoice.get(family);
    // This family's last choice, else its own default (its best optimal method: BFS on a 15-puzzle
    // would only hit the limits), else the algorithm shown before.
    const preferred = this.families.get(family)?.default_algorithm;
    this.menu.value = [remembered, preferred, previous].find((n) => n && names.includes(n)) || names[0] || "";
  }

  algorithmChanged() {
    const algorithm = this.algorithms.find((a) => a.name === this.menu.value);
    $("algorithm-summary").textContent = algorithm ? algorithm.summary : "";
    this.form.showFor(this.menu.value);
    if (this.family) this.menuChoice.set(this.family, this.menu.value);
    this.onChange();
  }

  /** A share link's algorithm and options (checked by the server) into the menu, the form and the view. */
  apply(algorithm, options) {
    if (algorithm && [...this.menu.options].some((option) => option.value === algorithm)) {
      this.menu.value = algorithm;
      this.algorithmChanged();
    }
    const viewValues = {};
    for (const [name, value] of Object.entries(options)) {
      if (this.form.has(name)) this.form.set(name, value);
      else viewValues[name] = value;
    }
    if (Object.keys(viewValues).length) this.view()?.useViewOptions(viewValues);
    this.onChange();
  }

  /** The options a run with the present choices sends (the form's and the view's). */
  values(algorithm = this.algorithm) {
    return this.form.values(algorithm, this.view()?.viewOptions() || {});
  }

  /** What is wrong with the form for the chosen algorithm ({message, input}), or null. */
  problem() {
    return this.form.problem(this.algorithm);
  }

  /** An algorithm and its options in words: "A* · Manhattan heuristic, weight 1 · 4 directions". */
  runText(algorithm, options) {
    const rest = this.view()?.describeRun(algorithm, options) || "";
    return rest ? `${this.label(algorithm)} · ${rest}` : this.label(algorithm);
  }

  /** What a run of `puzzleId` with the present choices would be (compared with the run on the board). */
  signature(puzzleId) {
    if (!puzzleId || !this.view()) return "";
    return JSON.stringify([puzzleId, this.algorithm, this.values()]);
  }
}
