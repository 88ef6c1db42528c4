// The grid maze's editor: draw and erase walls, paint weights 1–9, drag the start and the goal, undo
// and redo, clear, resize. Each change shows on the board at once and goes to the server as edit
// operations (server/puzzles/grid/edit.py) through the shell's EditSession; the server answers with a
// new puzzle, which the page re-solves when a run is on the board. Mouse, pen and touch all arrive as
// pointer events; a fast stroke is joined cell to cell with a line, so it leaves no gaps.

import { el } from "../../dom.js";
import { setText, t } from "../../i18n.js";
import { clearText } from "../words.js";

const DRAW_TOOLS = ["wall", "erase", "weight"];

/** The cells on the line from `a` to `b` (flat indices on a board `width` wide), both ends included. */
function cellsOnLine(a, b, width) {
  let r0 = Math.floor(a / width), c0 = a % width;
  const r1 = Math.floor(b / width), c1 = b % width;
  const dr = Math.abs(r1 - r0), dc = Math.abs(c1 - c0);
  const sr = r0 < r1 ? 1 : -1, sc = c0 < c1 ? 1 : -1;
  const out = [r0 * width + c0];
  // Bresenham, with a 4-connected step where it moves diagonally: a wall drawn at an angle must not
  // let a 4-neighbour search slip through its corners.
  let err = dc - dr;
  while (r0 !== r1 || c0 !== c1) {
    const e2 = 2 * err;
    if (e2 > -dr && e2 < dc) {
      // A diagonal step: take the column step first, then the row step.
      err -= dr;
      c0 += sc;
      out.push(r0 * width + c0);
      err += dc;
      r0 += sr;
    } else if (e2 > -dr) {
      err -= dr;
      c0 += sc;
    } else {
      err += dc;
      r0 += sr;
    }
    out.push(r0 * width + c0);
  }
  return out;
}

function toBase64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export class GridEditor {
  /** @param {{view: import("./grid_view.js").GridView}} args */
  constructor({ view }) {
    this.view = view;
    this.tool = "off";
    this.weight = 5;
    this.stroke = null; // {value, last, old: Map(cell -> value before), unsent: []} or {move: "start"|"goal", from, to}
    this.buildPanel();
  }

  buildPanel() {
    const toolButton = (tool, key, titleKey) => el("button", {
      type: "button", testid: `tool-${tool}`, "aria-pressed": "false", t: key, tattr: { title: titleKey },
      on: { click: () => this.view.setTool(tool) },
    });
    this.panButton = el("button", {
      type: "button", testid: "tool-pan", "aria-pressed": "true", t: "fam.grid.pick_pan", tattr: { title: "fam.grid.tool_pan_title" },
      on: { click: () => this.view.setTool("off") },
    });
    this.buttons = {
      wall: toolButton("wall", "fam.grid.tool_wall", "fam.grid.tool_wall_title"),
      erase: toolButton("erase", "fam.grid.tool_erase", "fam.grid.tool_erase_title"),
      weight: toolButton("weight", "fam.grid.tool_weight", "fam.grid.tool_weight_title"),
    };
    this.weightSelect = el("select", { testid: "brush-weight", id: "brush-weight", tattr: { "aria-label": "fam.grid.brush_label" } },
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((w) => {
        const option = new Option("", String(w));
        setText(option, "fam.grid.brush_cost", { w });
        return option;
      }));
    this.weightSelect.value = String(this.weight);
    this.weightSelect.addEventListener("change", () => {
      this.weight = Number(this.weightSelect.value);
      setText(this.buttons.weight, "fam.grid.tool_cost", { w: this.weight });
      this.view.setTool("weight");
    });
    setText(this.buttons.weight, "fam.grid.tool_cost", { w: this.weight });
    const action = (testid, key, titleKey, click) => el("button", { type: "button", testid, t: key, tattr: { title: titleKey }, on: { click } });
    this.clearButton = action("clear-board", "fam.grid.clear", "fam.grid.clear_title", () => this.clear());
    this.rowsInput = el("input", { type: "number", testid: "board-rows", min: "2", max: "2000", tattr: { "aria-label": "fam.grid.rows" } });
    this.colsInput = el("input", { type: "number", testid: "board-cols", min: "2", max: "2000", tattr: { "aria-label": "fam.grid.cols" } });
    this.resizeButton = action("resize-board", "fam.grid.resize", "fam.grid.resize_title", () => this.resize());
    this.status = el("p", { class: "hint", testid: "edit-status", role: "status" });
    // The tools a drawing hand needs are on the board itself (also in presentation mode); the rest here.
    this.toolbar = el("div", { class: "board-edit-tools", role: "group", tattr: { "aria-label": "fam.grid.drag_group" } },
      this.panButton, this.buttons.wall, this.buttons.erase, this.buttons.weight, ...this.view.shell.historyButtons());
    this.panel = el("div", { class: "editor" },
      el("div", { class: "option-row editor-row" },
        el("label", { t: "fam.grid.brush", for: "brush-weight" }), this.weightSelect, this.clearButton),
      el("div", { class: "option-row editor-row" },
        this.rowsInput, el("span", { text: "×" }), this.colsInput, this.resizeButton),
      this.status,
    );
  }

  /** A maze is shown (`edited`: the same board, changed): its size in the resize fields. */
  reset(info, { edited = false } = {}) {
    if (!edited) this.stroke = null;
    this.rowsInput.value = String(info.height);
    this.colsInput.value = String(info.width);
    // The server edits boards up to a size (server/puzzles/grid/edit.py): a larger one is only shown.
    const limit = info.edit_max_cells ?? Infinity;
    this.tooLarge = info.width * info.height > limit;
    for (const control of [...this.panel.querySelectorAll("button, select, input"), ...this.toolbar.querySelectorAll("button")]) {
      if (!["undo", "redo"].includes(control.dataset.testid)) control.disabled = this.tooLarge; // history's own
    }
    if (this.tooLarge) {
      this.tool = "off";
      setText(this.status, "fam.grid.too_large", { limit });
    } else this.setTool(this.tool);
  }

  setTool(tool) {
    if (this.tooLarge && DRAW_TOOLS.includes(tool)) return;
    this.tool = tool;
    for (const [name, button] of Object.entries(this.buttons)) button.setAttribute("aria-pressed", String(name === tool));
    this.panButton.setAttribute("aria-pressed", String(tool === "off" && this.view.pickMode === "off"));
    if (DRAW_TOOLS.includes(tool)) setText(this.status, "fam.grid.drawing_hint");
    else clearText(this.status);
  }

  get active() {
    return DRAW_TOOLS.includes(this.tool);
  }

  // ---- strokes (the renderer's `drawing` hooks) ----------------------------------------------------

  begin(cell, event) {
    if (!this.active || cell < 0 || !this.view.info) return false;
    const { start, goal } = this.view.endpointCells();
    if (cell === start || cell === goal) {
      const which = cell === start ? "start" : "goal";
      this.stroke = { move: which, from: cell, to: cell };
      return true;
    }
    const cells = this.view.cells;
    const value = this.tool === "erase" ? 1 : this.tool === "weight" ? this.weight : cells[cell] === 0 ? 1 : 0;
    this.stroke = { value, last: cell, old: new Map(), unsent: [] };
    this.paintCell(cell);
    this.sendStroke();
    event?.preventDefault?.();
    return true;
  }

  extend(cell) {
    const stroke = this.stroke;
    if (!stroke || cell < 0) return;
    if (stroke.move) {
      const other = this.view.endpointCells()[stroke.move === "start" ? "goal" : "start"];
      if (cell === stroke.to || cell === other || this.view.cells[cell] === 0) return;
      stroke.to = cell;
      this.moveEndpoint(stroke.move, cell);
      return;
    }
    if (cell === stroke.last) return;
    for (const c of cellsOnLine(stroke.last, cell, this.view.info.width)) this.paintCell(c);
    stroke.last = cell;
    this.sendStroke();
  }

  end() {
    const stroke = this.stroke;
    this.stroke = null;
    if (!stroke) return;
    if (stroke.move) {
      if (stroke.to !== stroke.from) {
        this.remember([this.endpointOp(stroke.move, stroke.to)], [this.endpointOp(stroke.move, stroke.from)]);
      }
      return;
    }
    this.sendStroke();
    if (!stroke.old.size) return;
    const byOld = new Map();
    for (const [cell, value] of stroke.old) {
      if (!byOld.has(value)) byOld.set(value, []);
      byOld.get(value).push(cell);
    }
    const redo = [{ op: "paint", value: stroke.value, cells: [...stroke.old.keys()] }];
    const undo = [...byOld].map(([value, cells]) => ({ op: "paint", value, cells }));
    this.remember(redo, undo);
  }

  /** Paint one cell with the stroke's value, unless it is the start or goal or already has it. */
  paintCell(cell) {
    const { stroke, view } = this;
    const cells = view.cells;
    if (cells[cell] === stroke.value) return;
    const { start, goal } = view.endpointCells();
    if (cell === start || cell === goal) return;
    if (!stroke.old.has(cell)) stroke.old.set(cell, cells[cell]);
    cells[cell] = stroke.value;
    stroke.unsent.push(cell);
    view.cellsChanged([cell]);
  }

  sendStroke() {
    const stroke = this.stroke;
    if (!stroke?.unsent.length) return;
    this.view.shell.edit([{ op: "paint", value: stroke.value, cells: stroke.unsent }]);
    stroke.unsent = [];
  }

  endpointOp(which, cell) {
    const W = this.view.info.width;
    return { op: which, cell: [Math.floor(cell / W), cell % W] };
  }

  moveEndpoint(which, cell) {
    this.view.setEndpoint(which, cell);
    this.view.shell.edit([this.endpointOp(which, cell)], { key: which });
  }

  // ---- history (the shell's: static/js/edit/history.js) ----------------------------------------------

  remember(redo, undo, reload = false) {
    this.view.shell.remember(redo, undo, reload);
  }

  /** Operations from the history, shown on the board at once (a change of size waits for the server). */
  applyLocally(ops) {
    const view = this.view;
    const changed = [];
    for (const op of ops) {
      if (op.op === "paint") {
        for (const cell of op.cells) view.cells[cell] = op.value;
        changed.push(...op.cells);
      } else if (op.op === "start" || op.op === "goal") {
        view.setEndpoint(op.op, op.cell[0] * view.info.width + op.cell[1]);
      } else if (op.op === "clear") {
        view.cells.fill(1);
        changed.push(-1);
      } else if (op.op === "cells" && op.rows === view.info.height && op.cols === view.info.width) {
        view.cells.set(Uint8Array.from(atob(op.values), (ch) => ch.charCodeAt(0)));
        changed.push(-1);
      }
    }
    view.cellsChanged(changed.includes(-1) ? null : changed);
  }

  /** The whole board as one operation (what a clear or a resize takes back). */
  boardOps() {
    const view = this.view;
    const { start, goal } = view.endpointCells();
    const ops = [{ op: "cells", rows: view.info.height, cols: view.info.width, values: toBase64(view.cells) }];
    if (start !== null) ops.push(this.endpointOp("start", start));
    if (goal !== null) ops.push(this.endpointOp("goal", goal));
    return ops;
  }

  clear() {
    this.remember([{ op: "clear" }], this.boardOps());
    this.applyLocally([{ op: "clear" }]);
    this.view.shell.edit([{ op: "clear" }]);
  }

  resize() {
    const rows = Number(this.rowsInput.value), cols = Number(this.colsInput.value);
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 1 || cols < 1) {
      this.view.shell.showError(t("fam.grid.resize_bad"));
      return;
    }
    const op = { op: "resize", rows, cols };
    this.remember([op], this.boardOps(), true);
    this.view.shell.edit([op], { reload: true });
  }
}
