// @ts-check
// A huge board (info.deep_zoom: drawn from the server's tiles, its runs without records) leaves out
// the tools that need every record or every cell in the page: the comparison, the lab's drawer (Lab,
// Your code), explain mode and Predict. Their buttons are disabled with the reason as their title
// (their keys click the buttons, so they follow), and a panel open when such a board arrives closes.

import { withCommas } from "../format.js";
import { t } from "../i18n.js";

/** The header's buttons of those tools, by element id. */
const TOOLS = ["compare-open", "lab", "code", "explain", "predict"];

export class HugeBoardGuard {
  /**
   * @param {{close: () => void}} args  close: shut the comparison and every panel beside the board
   */
  constructor({ close }) {
    this.close = close;
    /** @type {Map<string, string>} each button's own title, given back on a board of ordinary size */
    this.titles = new Map();
    this.huge = false;
  }

  /** A puzzle is shown: limit the tools to what its size allows. @param {any} info */
  puzzleShown(info) {
    const huge = Boolean(info?.deep_zoom);
    if (huge && !this.huge) this.close();
    this.huge = huge;
    const reason = huge
      ? t("shell.huge_reason", { width: withCommas(Number(info.width)), height: withCommas(Number(info.height)) })
      : "";
    for (const id of TOOLS) {
      const button = /** @type {HTMLButtonElement | null} */ (document.getElementById(id));
      if (!button) continue;
      if (!this.titles.has(id)) this.titles.set(id, button.title);
      button.disabled = huge;
      button.title = huge ? reason : this.titles.get(id) || "";
    }
  }
}
