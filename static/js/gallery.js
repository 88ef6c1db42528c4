// The gallery of bundled puzzles, in a dialog: every entry at once, grouped by family, each with its
// size (width × height and the family's unit) and its description in words on the page (not in a
// tooltip: a projector, a phone and the keyboard cannot see tooltips).

import { el } from "./dom.js";
import { sizeText } from "./format.js";

export class Gallery {
  /**
   * @param {{dialog: HTMLDialogElement, list: HTMLElement, close: HTMLElement, onChoose: (entry) => void}} args
   */
  constructor({ dialog, list, close, onChoose }) {
    Object.assign(this, { dialog, list, onChoose });
    this.active = null; // the name of the entry shown on the board
    close.addEventListener("click", () => this.close());
    // A click on the backdrop (outside the dialog's box) closes it too.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) this.close();
    });
  }

  /**
   * Fill the dialog: `entries` from GET /api/gallery; `families` maps a family's name to
   * {title, unit} (its heading and the unit of its sizes).
   */
  fill(entries, families) {
    const groups = new Map();
    for (const entry of entries) {
      if (!groups.has(entry.family)) groups.set(entry.family, []);
      groups.get(entry.family).push(entry);
    }
    const sections = [...groups].map(([family, items]) => {
      const info = families.get(family) || { title: family, unit: "" };
      // A family of one or two entries shares its row with the next such family (five families fit
      // a 1080-pixel screen without scrolling).
      const size = items.length <= 2 ? "narrow" : "wide";
      return el("section", { class: "gallery-group", "data-size": size, "aria-label": info.title },
        el("h3", { text: info.title }),
        el("ul", {}, ...items.map((entry) => el("li", {}, this.button(entry, info.unit)))));
    });
    this.list.replaceChildren(...sections);
    if (!entries.length) this.list.append(el("p", { class: "muted", t: "gallery_ui.none" }));
    this.markActive(this.active);
  }

  button(entry, unit) {
    const size = entry.width && entry.height ? sizeText(entry.width, entry.height, unit) : "";
    return el("button", {
      type: "button", class: "gallery-entry", "data-name": entry.name,
      on: { click: () => { this.close(); this.onChoose(entry); } },
    },
    el("span", { class: "gallery-title", text: entry.title }),
    el("small", { class: "gallery-size", text: size }),
    el("span", { class: "gallery-description", text: entry.description || "" }));
  }

  markActive(name) {
    this.active = name;
    for (const button of this.list.querySelectorAll("button[data-name]")) {
      const on = button.dataset.name === name;
      button.classList.toggle("active", on);
      if (on) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }

  get isOpen() {
    return this.dialog.open;
  }

  open() {
    if (this.dialog.open) return;
    this.dialog.showModal();
    const current = this.list.querySelector("button.active") || this.list.querySelector("button");
    current?.focus();
  }

  close() {
    if (this.dialog.open) this.dialog.close();
  }
}
