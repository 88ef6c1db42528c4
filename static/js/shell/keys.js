// @ts-check
// The page's keys and display modes: the transport keys go to the clock in front (the single view's
// Player, or the comparison's shared clock: ../playback/transport_bar.js), F presentation mode, E
// explain mode, P predict (exercise mode), ? the list of keys, Ctrl+Z/Y the editor's undo and redo; the large-text toggle.

import { transportKey } from "../playback/transport_bar.js";
import { byId } from "../dom.js";
import { setAttr, setText } from "../i18n.js";

const $ = byId;
const TEXT_INPUTS = new Set(["text", "number", "search", "email", "url", "tel", "password"]);

export class Keys {
  /**
   * @param {{clock: () => any, dialogOpen: () => boolean, explain: {toggle: () => void},
   *          predict?: {toggle: () => void}, editKey: (event: KeyboardEvent) => boolean, refit: () => void}} args
   *   clock(): the clock the keys drive now; dialogOpen(): a dialog of the page has the keyboard;
   *   explain, predict: E and P (explain mode, the exercise mode);
   *   editKey: the editor's keys (true when it took the key); refit: the board's layout changed.
   */
  constructor({ clock, dialogOpen, explain, predict, editKey, refit }) {
    this.clock = clock;
    this.dialogOpen = dialogOpen;
    this.explain = explain;
    this.predict = predict;
    this.editKey = editKey;
    this.refit = refit;
    document.addEventListener("keydown", (event) => this.keydown(event));
    $("present").addEventListener("click", () => this.setPresenting(!this.presenting));
    $("large-text").addEventListener("click", () => this.setLargeText(!document.documentElement.classList.contains("large")));
    $("keys").addEventListener("click", () => this.openKeys());
    $("keys-close").addEventListener("click", () => $("keys-dialog").close());
    $("keys-dialog").addEventListener("click", (event) => {
      if (event.target === event.currentTarget) event.currentTarget.close();
    });
    try {
      if (localStorage.getItem("largeText")) this.setLargeText(true);
    } catch { /* private mode */ }
  }

  keydown(event) {
    if (this.editKey(event)) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (this.dialogOpen() || $("keys-dialog").open) return; // a dialog has the keyboard (Esc closes it)
    const target = event.target;
    const tag = target?.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT") return;
    if (tag === "INPUT" && (TEXT_INPUTS.has(target.type) || target.type === "checkbox" || target.type === "file")) return;
    const key = event.key;
    let handled = true;
    if (transportKey(event, this.clock())) handled = true;
    else if (key === "f" || key === "F") this.setPresenting(!this.presenting);
    else if (key === "e" || key === "E") this.explain.toggle();
    else if ((key === "p" || key === "P") && this.predict) this.predict.toggle();
    else if (key === "?") this.openKeys();
    else if (key === "Escape" && this.presenting) this.setPresenting(false);
    else handled = false;
    if (handled) event.preventDefault();
  }

  get presenting() {
    return document.documentElement.classList.contains("presenting");
  }

  /** Presentation mode: the side panels give way, the board fills the screen above a compact bar. */
  setPresenting(on) {
    document.documentElement.classList.toggle("presenting", on);
    const button = $("present");
    button.setAttribute("aria-pressed", String(on));
    setText(button, on ? "shell.exit_present" : "shell.present");
    setAttr(button, "title", on ? "shell.exit_present_title" : "shell.present_title");
    requestAnimationFrame(() => this.refit());
  }

  openKeys() {
    const dialog = $("keys-dialog");
    if (!dialog.open) dialog.showModal();
  }

  setLargeText(on) {
    document.documentElement.classList.toggle("large", on);
    $("large-text").setAttribute("aria-pressed", String(on));
    requestAnimationFrame(() => this.refit());
    try { localStorage.setItem("largeText", on ? "1" : ""); } catch { /* private mode */ }
  }
}
