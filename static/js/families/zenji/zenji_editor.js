// Zenji's editor (issue 12): an Edit toggle in the view's panel; while it is on, a click or tap on a
// tile turns it a quarter turn clockwise (shift-click: counter-clockwise, three turns clockwise). Each
// click is one edit operation (server/puzzles/zenji/edit.py) sent through the shell, which loads the
// new board and re-solves a run that was on it. Mouse, pen and touch all arrive as pointer events; a
// press that moves more than a few pixels is not a click.

import { el } from "../../dom.js";

const HINT = "Editing: a click on a tile turns it a quarter turn clockwise (shift-click: counter-clockwise).";
const SLOP = 8; // CSS px a press may move and still be a click

export class ZenjiEditor {
  /** @param {{view: import("./zenji_view.js").ZenjiView}} args */
  constructor({ view }) {
    this.view = view;
    this.on = false;
    this.press = null; // {id, x, y}
    this.toggle = el("button", {
      type: "button", testid: "edit-board", "aria-pressed": "false", text: "Edit",
      title: "Edit the board: a click on a tile turns it", on: { click: () => this.setOn(!this.on) },
    });
    this.hint = el("p", { class: "hint", testid: "edit-hint", role: "status", hidden: true });
    this.panel = el("section", { class: "editor family-editor" }, el("h2", { text: "Edit" }), this.toggle, this.hint);
    const canvas = view.canvas;
    canvas.addEventListener("pointerdown", (event) => this.down(event));
    canvas.addEventListener("pointerup", (event) => this.up(event));
    canvas.addEventListener("pointercancel", () => { this.press = null; });
  }

  /** A new puzzle (not an edited one): editing off. */
  reset({ edited = false } = {}) {
    this.press = null;
    this.setOn(edited && this.on);
  }

  setOn(on) {
    this.on = on;
    this.toggle.setAttribute("aria-pressed", String(on));
    this.hint.textContent = on ? HINT : "";
    this.hint.hidden = !on;
    this.view.canvas.classList.toggle("drawing", on);
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
    const tile = this.view.renderer.tileAt(event.clientX, event.clientY);
    if (tile < 0 || !this.view.board) return;
    const cols = this.view.board.cols;
    const cell = [Math.floor(tile / cols), tile % cols];
    this.view.shell.edit([{ op: "turn", cell, times: event.shiftKey ? 3 : 1 }], { reload: true });
  }
}
