// @ts-check
// The lab's place beside the board (like explain mode's, and instead of it: one panel there at a
// time): the header's "Lab" button opens and closes it; its parts (./lab_panel.js, ./check_panel.js)
// are tabs, one shown at a time (a laptop's height holds one), each told when a puzzle is shown and
// whether it is in sight (the heat map is on the board only while its tab is, with its legend). A part
// may have a header button of its own (`opener`: "Your code", ../code/code_tab.js) that opens the
// panel at its tab; the Lab button opens it at the last tab without one.

import { el } from "../dom.js";
import { setAttr } from "../i18n.js";

const HEAT_PART = "heuristic"; // the part that draws a heat map on the board (./lab_panel.js)

/**
 * @typedef {object} LabPart
 * @property {HTMLElement} section  its content (in the panel)
 * @property {string} tab  its tab's words
 * @property {string} [tabKey]  its tab's words as a catalog key (then they follow a language switch)
 * @property {string} name  its tab's data-testid is lab-tab-<name>
 * @property {(info: any) => void} puzzleShown
 * @property {(shown: boolean) => void} setOpen  in sight or not
 * @property {HTMLElement} [opener]  a header button of its own that opens the panel at this tab (the
 *   Lab button opens it at the last tab without one)
 * @property {string} [label]  the panel's accessible name while this tab is shown
 * @property {string} [labelKey]  the same as a catalog key
 */

export class LabDrawer {
  /**
   * @param {{panel: HTMLElement, button: HTMLElement, explain: {on: boolean, toggle(on?: boolean): void},
   *          refit: () => void, parts: (root: HTMLElement) => LabPart[]}} args
   *   explain: explain mode's panel (closed when the lab opens, and the lab when it opens);
   *   refit: the board's box changed.
   */
  constructor({ panel, button, explain, refit, parts }) {
    this.panel = panel;
    this.button = button;
    this.explain = explain;
    this.refit = refit;
    this.on = false;
    this.tabs = el("div", { class: "lab-tabs", role: "tablist", tattr: { "aria-label": "lab.tabs" } });
    panel.append(this.tabs);
    this.parts = parts(panel);
    /** @type {LabPart} */
    this.current = this.parts[0];
    this.tabButtons = this.parts.map((part, k) => {
      const id = `lab-tab-${part.name}`;
      const tab = el("button", { type: "button", role: "tab", id, testid: id, "aria-controls": `lab-part-${part.name}`,
        ...(part.tabKey ? { t: part.tabKey } : { text: part.tab }) });
      part.section.id = `lab-part-${part.name}`;
      part.section.setAttribute("role", "tabpanel");
      part.section.setAttribute("aria-labelledby", id);
      tab.addEventListener("click", () => this.show(part));
      tab.addEventListener("keydown", (event) => {
        const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        const next = this.parts[(k + step + this.parts.length) % this.parts.length];
        this.show(next);
        this.tabButtons[this.parts.indexOf(next)].focus();
      });
      return tab;
    });
    this.tabs.append(...this.tabButtons);
    this.labLabel = panel.getAttribute("aria-label") || "";
    // The panel's own name as a catalog key (the page's template gives it one), kept across switches.
    this.labLabelKey = /** @type {string | undefined} */ (JSON.parse(panel.getAttribute("data-i18n-attr") || "{}")["aria-label"]?.[0]);
    /** @type {LabPart} the tab the Lab button opens: the last shown of those without a button of their own */
    this.labPart = this.parts.find((p) => !p.opener) || this.current;
    this.show(this.current);
    button.addEventListener("click", () => this.openAt(this.labPart));
    for (const part of this.parts) part.opener?.addEventListener("click", () => this.openAt(part));
    // Explain mode takes the same place: opening it closes the lab (its own listener ran first).
    const explainButton = document.getElementById("explain");
    explainButton?.addEventListener("click", () => {
      if (this.explain.on && this.on) this.toggle(false);
    });
  }

  /** Open or close the panel. @param {boolean} [on] */
  toggle(on = !this.on) {
    if (on === this.on) return;
    this.on = on;
    if (on && this.explain.on) this.explain.toggle(false);
    this.panel.hidden = !on;
    this.pressed();
    document.documentElement.classList.toggle("lab-open", on);
    this.tell();
    this.refit();
    if (on) {
      const section = this.current.section;
      const input = section.querySelector("[data-focus]") || section.querySelector("input:not([disabled]), textarea");
      const touch = ["(hover: none)", "(pointer: coarse)"].join(", "); // a media query, not words
      if (input instanceof HTMLElement && !window.matchMedia(touch).matches) input.focus();
      if (window.matchMedia("(max-width: 1050px)").matches) this.panel.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  }

  /**
   * A header button: open the panel at `part`'s tab, or close it when that tab is already in sight.
   * (The Lab button's parts count as one: it closes the panel on any of them.)
   * @param {LabPart} part
   */
  openAt(part) {
    const mine = (p) => (part.opener ? p === part : !p.opener);
    if (this.on && mine(this.current)) {
      this.toggle(false);
      return;
    }
    this.show(part);
    this.toggle(true);
  }

  /** Which header button is pressed: the one whose tab is in sight. */
  pressed() {
    this.button.setAttribute("aria-pressed", String(this.on && !this.current.opener));
    for (const p of this.parts) p.opener?.setAttribute("aria-pressed", String(this.on && p === this.current));
  }

  /** Show one part's tab. @param {LabPart} part */
  show(part) {
    this.current = part;
    if (!part.opener) this.labPart = part;
    const labelKey = part.labelKey || (part.label ? "" : this.labLabelKey);
    if (labelKey) setAttr(this.panel, "aria-label", labelKey);
    else this.panel.setAttribute("aria-label", part.label || this.labLabel);
    this.parts.forEach((p, k) => {
      p.section.hidden = p !== part;
      this.tabButtons[k].setAttribute("aria-selected", String(p === part));
      this.tabButtons[k].tabIndex = p === part ? 0 : -1;
    });
    this.panel.dataset.tab = part.name;
    this.pressed();
    this.tell();
  }

  /** Each part: in sight or not. */
  tell() {
    for (const part of this.parts) part.setOpen(this.on && part === this.current);
  }

  /**
   * A search took the board (Run: not a checked solution's replay, a student's code or a re-solve
   * after an edit). The heuristic lab's heat map is drawn over the cells and would hide the run (its
   * path, its expanded cells, their numbers): with the lab's heuristic tab in sight the panel closes,
   * and its heat map with it; the Lab button brings both back.
   */
  runStarted() {
    if (this.on && this.current.name === HEAT_PART) this.toggle(false);
  }

  /** A puzzle was shown (loaded or edited). @param {any} info */
  puzzleShown(info) {
    for (const part of this.parts) part.puzzleShown(info);
  }
}
