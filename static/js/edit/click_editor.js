// An editor made of clicks, for boards of a few dozen tiles (a family view builds one with its own clicks): an
// Edit toggle in the view's panel, optional tools ("Click sets: Mark | Start | Goal"), a hint, and
// Undo/Redo; while editing, a click or tap on the board is one edit operation, which the family's
// `opAt(event, tool)` names together with the operation that takes it back. The shell sends it, loads
// the new board and re-solves a run that was on it. Mouse, pen and touch all arrive as pointer
// events; a press that moves more than a few pixels is not a click.

import { el } from "../dom.js";
import { has, setText } from "../i18n.js";

/** A text given by a family view: a catalog key (kept in the current language) or a text already written. */
const shown = (value) => (has(value) ? { t: value } : { text: value });
/** A title given likewise, as el()'s props. */
const titled = (value) => (value && has(value) ? { tattr: { title: value } } : { title: value });

const SLOP = 8; // CSS px a press may move and still be a click

export class ClickEditor {
  /**
   * @param {{view, title: string, hints: Object<string, string>, tools?: Object<string, string>,
   *          toolPrefix?: string, extra?: HTMLElement,
   *          opAt: (event: PointerEvent, tool: string) => ({op, undo}|null)}} args
   *   `hints`: the hint per tool (one tool, "click", when there are no `tools`); `extra`: a control
   *   shown with the tools (e.g. which tile a click puts down). `title`, the hints and the tools' names
   *   may be catalog keys (fam.* of the family's view) or texts already written.
   */
  constructor({ view, title, hints, tools = null, toolPrefix = "tool", extra = null, opAt }) {
    Object.assign(this, { view, hints, opAt });
    this.on = false;
    this.tool = tools ? Object.keys(tools)[0] : "click";
    this.press = null; // {id, x, y}
    this.toggle = el("button", {
      type: "button", testid: "edit-board", "aria-pressed": "false", t: "edit.edit", ...titled(title),
      on: { click: () => this.setOn(!this.on) },
    });
    this.toolButtons = Object.fromEntries(Object.entries(tools || {}).map(([tool, text]) => [tool, el("button", {
      type: "button", testid: `${toolPrefix}-${tool}`, "aria-pressed": "false", ...shown(text),
      on: { click: () => this.setTool(tool) },
    })]));
    this.tools = tools ? el("div", { class: "option-row editor-row" },
      el("span", { t: "edit.click_sets_colon" }),
      el("div", { class: "segmented", role: "group", tattr: { "aria-label": "edit.click_sets" } }, ...Object.values(this.toolButtons)),
      extra)
      : null;
    this.hint = el("p", { class: "hint", testid: "edit-hint", role: "status" });
    this.panel = el("section", { class: "editor family-editor" },
      el("h2", { t: "edit.edit" }),
      el("div", { class: "option-row editor-row" }, this.toggle, ...view.shell.historyButtons()),
      ...(this.tools ? [this.tools] : []), this.hint);
    const canvas = view.canvas;
    canvas.addEventListener("pointerdown", (event) => this.down(event));
    canvas.addEventListener("pointerup", (event) => this.up(event));
    canvas.addEventListener("pointercancel", () => { this.press = null; });
    this.show();
  }

  /** A new puzzle: editing off; the same board after an edit: as it was. */
  reset({ edited = false } = {}) {
    this.press = null;
    if (!edited) this.on = false;
    this.show();
  }

  setOn(on) {
    this.on = on;
    this.show();
  }

  setTool(tool) {
    this.tool = tool;
    this.setOn(true);
  }

  show() {
    this.toggle.setAttribute("aria-pressed", String(this.on));
    for (const [tool, button] of Object.entries(this.toolButtons)) button.setAttribute("aria-pressed", String(tool === this.tool));
    if (this.tools) this.tools.hidden = !this.on;
    const hint = this.on ? this.hints[this.tool] || "" : "";
    if (hint && has(hint)) setText(this.hint, hint);
    else {
      delete this.hint.dataset.i18n;
      this.hint.textContent = hint;
    }
    this.hint.hidden = !this.on;
    this.view.canvas.classList.toggle("drawing", this.on);
  }

  down(event) {
    if (!this.on || !this.view.active || (event.pointerType === "mouse" && event.button !== 0)) return;
    this.press = { id: event.pointerId, x: event.clientX, y: event.clientY };
    event.preventDefault();
  }

  up(event) {
    const press = this.press;
    this.press = null;
    if (!this.on || !press || press.id !== event.pointerId) return;
    if (Math.hypot(event.clientX - press.x, event.clientY - press.y) > SLOP) return;
    const change = this.opAt(event, this.tool);
    if (!change) return;
    this.view.shell.remember([change.op], change.undo, true);
    this.view.shell.edit([change.op], { reload: true });
  }
}
