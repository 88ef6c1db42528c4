// The step-cycle maze's editor (issue 12): an Edit toggle in the view's panel; while it is on, a
// click or tap on a cell of the maze (or of a layer) marks or clears it, or puts the start or the goal
// there, as the tool says. Each click is one edit operation (server/puzzles/step/edit.py) sent through
// the shell, which loads the new puzzle and re-solves a run that was on the board. Mouse, pen and touch
// all arrive as pointer events; a press that moves more than a few pixels is not a click.

import { el } from "../../dom.js";
import { BLANK } from "./step_board.js";

const TOOLS = { mark: "Mark", start: "Start", goal: "Goal" };
const HINTS = {
  mark: "Editing: a click on a cell marks it or makes it blank.",
  start: "Editing: a click on a marked or blank cell puts the start there.",
  goal: "Editing: a click on a cell puts the goal there.",
};
const SLOP = 8; // CSS px a press may move and still be a click

export class StepEditor {
  /** @param {{view: import("./step_view.js").StepView}} args */
  constructor({ view }) {
    this.view = view;
    this.on = false;
    this.tool = "mark";
    this.press = null; // {id, x, y}
    this.build();
    const canvas = view.canvas;
    canvas.addEventListener("pointerdown", (event) => this.down(event));
    canvas.addEventListener("pointerup", (event) => this.up(event));
    canvas.addEventListener("pointercancel", () => { this.press = null; });
  }

  build() {
    this.toggle = el("button", {
      type: "button", testid: "edit-board", "aria-pressed": "false", text: "Edit",
      title: "Edit the maze: a click on the board changes a cell", on: { click: () => this.setOn(!this.on) },
    });
    this.toolButtons = Object.fromEntries(Object.entries(TOOLS).map(([tool, text]) => [tool, el("button", {
      type: "button", testid: `step-tool-${tool}`, "aria-pressed": "false", text, on: { click: () => this.setTool(tool) },
    })]));
    this.tools = el("div", { class: "option-row editor-row" },
      el("span", { text: "Click sets:" }),
      el("div", { class: "segmented", role: "group", "aria-label": "Click sets" }, ...Object.values(this.toolButtons)));
    this.hint = el("p", { class: "hint", testid: "edit-hint", role: "status" });
    this.panel = el("section", { class: "editor family-editor" },
      el("h2", { text: "Edit" }), this.toggle, this.tools, this.hint);
    this.show();
  }

  /** A new puzzle (not an edited one): editing off. */
  reset({ edited = false } = {}) {
    this.press = null;
    if (!edited) this.setOn(false);
    else this.show();
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
    this.tools.hidden = !this.on;
    this.hint.textContent = this.on ? HINTS[this.tool] : "";
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
    const hit = this.view.renderer.hit(event.clientX, event.clientY);
    if (!hit || !this.view.board) return;
    const op = this.opAt(hit.r, hit.c);
    if (op) this.view.shell.edit([op], { reload: true });
  }

  /** The operation a click on (r, c) makes with the current tool. */
  opAt(r, c) {
    const cell = [r, c];
    if (this.tool === "start" || this.tool === "goal") return { op: this.tool, cell };
    const kind = this.view.board.kinds[r * this.view.info.cols + c];
    return { op: "mark", cell, marked: kind === BLANK };
  }
}
