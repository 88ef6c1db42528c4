// @ts-check
// "Your code" as a tab of the drawer beside the board (../lab/drawer.js), opened at this tab by the
// header's "Your code" button (its `opener`). Only this small module is on the page at load: the
// panel itself (./code_panel.js) is imported the first time the tab is in sight, and it makes the
// Python worker (./worker.js, Pyodide) then, so nothing of Python is fetched for a page whose panel
// is never opened and the worker is warm by the first Run.

import { el } from "../dom.js";
import { t } from "../i18n.js";

/**
 * What the panel reads of the page and asks of it.
 * @typedef {object} CodePage
 * @property {() => any} puzzle  the puzzle shown (its info), or null
 * @property {(algorithm?: string) => Object<string, any>} options  the run options of the form's present
 *   choice (for `algorithm`: the chosen one by default)
 * @property {() => string} algorithm  the algorithm chosen in the page's menu (what the verdict compares with)
 * @property {(name: string) => string} label  an algorithm's label ("A*")
 * @property {(info: any) => string} stateForm  a state of that puzzle's family in words ("(row, col)")
 * @property {(puzzleId: string) => string} signature  the page's choices as a run's signature
 * @property {(args: import("../stage/stage.js").StartArgs) => void} animate  play a run on the board
 */

export class CodeTab {
  /** @param {{opener: HTMLElement, page: CodePage}} args */
  constructor({ opener, page }) {
    this.name = "code";
    // Catalog keys: the drawer writes t(tab) and t(label) (and again when the language changes).
    this.tabKey = "code.tab";
    this.labelKey = "code.tab_label";
    this.opener = opener;
    this.page = page;
    this.section = el("section", { class: "lab-section code-section", testid: "code-panel" },
      el("p", { class: "hint code-boot", t: "code.loading_editor" }));
    /** @type {import("./code_panel.js").CodePanel | null} */
    this.panel = null;
    /** @type {Promise<void> | null} */
    this.loading = null;
    this.info = null;
    this.shown = false;
  }

  /** The tab's name in the current language. */
  get tab() {
    return t(this.tabKey);
  }

  /** The tab's description in the current language. */
  get label() {
    return t(this.labelKey);
  }

  /** Into the drawer's panel (after its tabs). @param {HTMLElement} root @returns {this} */
  mount(root) {
    root.append(this.section);
    return this;
  }

  /** In sight or not: the first time in sight, the panel (and Python) loads. @param {boolean} shown */
  setOpen(shown) {
    this.shown = shown;
    if (shown && !this.loading) this.loading = this.load();
    this.panel?.setOpen(shown);
  }

  async load() {
    try {
      const { CodePanel } = await import("./code_panel.js");
      this.section.replaceChildren();
      this.panel = new CodePanel({ root: this.section, page: this.page });
      this.panel.puzzleShown(this.info);
      this.panel.setOpen(this.shown);
    } catch (err) {
      console.warn(err);
      this.loading = null; // the next opening tries again
      this.section.replaceChildren(el("p", { class: "field-error", role: "alert", t: "code.panel_failed" }));
    }
  }

  /** A puzzle is shown (loaded or edited). */
  puzzleShown(info) {
    this.info = info;
    this.panel?.puzzleShown(info);
  }

  /**
   * The latest run of the student's code on this puzzle, for the comparison's menus: {code, label}
   * (the run option `code` that replays it), or null.
   * @param {string | null | undefined} puzzleId
   * @returns {{code: string, label: string} | null}
   */
  codeRun(puzzleId) {
    return puzzleId && this.panel ? this.panel.codeRun(puzzleId) : null;
  }
}
