// @ts-check
// The board by keyboard: a cell cursor, an outline drawn over the canvas (an element of its own, not
// in the family's renderer), moved with the arrow keys while the board has the focus, and Enter to
// act on its cell as a click there would — picking a start or goal, an edit, Predict's
// answer — by dispatching the pointer and mouse events of a click at the cell's centre on the
// view's canvas. A move sends a pointermove there too, so the hover read-out (and the lab's heat-map
// read-out) follows the cursor. The view tells the geometry (families/family_view.js: cursorGrid,
// cursorRect, cursorLabel); a view without it has no cursor.
//
// The keys (the board focused):
//   the cursor appears when the board is reached with Tab, with Enter on the board, or with an
//   arrow key while there is no run to step; with the cursor shown:
//     ←↑→↓ move it (Ctrl: five cells), Enter acts on its cell (Shift+Enter: a Shift+click, the
//     grid's goal), "," and "." step the player one back / forward; Space, Shift+←/→, Home and
//     End stay the player's (play/pause, ten steps, first, last); Escape hides the cursor (the arrows step the
//     player again), Tab moves the focus on (and hides it).
//   Without the cursor (the board focused by Run or a click) the arrows step the player as before.

import { el } from "../dom.js";

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const FAR = 5; // cells a Ctrl+arrow moves

export class CellCursor {
  /**
   * @param {{board: HTMLElement, view: () => import("../families/family_view.js").FamilyView | null,
   *          say: (text: string) => void, step: (delta: number) => void, hasRun: () => boolean,
   *          onAct?: () => void}} args
   *   board: the focusable board (the canvas's wrapper); view(): the family view shown; say: the
   *   live region; step: the player's step; hasRun: the board shows a run (the arrows step it);
   *   onAct: a cell was acted on (a start or goal may have changed).
   */
  constructor({ board, view, say, step, hasRun, onAct = () => {} }) {
    this.onAct = onAct;
    this.board = board;
    this.view = view;
    this.say = say;
    this.step = step;
    this.hasRun = hasRun;
    this.on = false;
    /** @type {{column: number, row: number} | null} */
    this.at = null;
    /** @type {any} the grid the position belongs to ({columns, rows} and the view) */
    this.gridKey = "";
    this.lastKey = ""; // the key pressed last anywhere ("Tab": the focus came by keyboard)
    this.frame = 0;
    this.box = el("div", { class: "board-cursor", testid: "board-cursor", "aria-hidden": "true", hidden: true });
    board.append(this.box);
    document.addEventListener("keydown", (event) => { this.lastKey = event.key; }, true);
    document.addEventListener("pointerdown", (event) => {
      this.lastKey = "";
      if (event.isTrusted && this.on && board.contains(/** @type {Node} */ (event.target))) this.hide(); // a mouse took over
    }, true);
    board.addEventListener("focus", () => {
      if (this.lastKey === "Tab") this.show();
    });
    board.addEventListener("blur", () => this.hide());
    board.addEventListener("keydown", (event) => this.keydown(event));
  }

  /** The view's cursor grid now, or null. */
  grid() {
    const view = this.view();
    return view && view.active ? view.cursorGrid() : null;
  }

  /** @param {KeyboardEvent} event */
  keydown(event) {
    if (event.target !== this.board || event.altKey || event.metaKey || event.defaultPrevented) return;
    const arrow = ARROWS[/** @type {keyof ARROWS} */ (event.key)];
    if (!this.on) {
      if (event.ctrlKey || event.shiftKey) return;
      if (event.key === "Enter" || (arrow && !this.hasRun())) {
        if (!this.show()) return;
        if (arrow) this.move(arrow[0], arrow[1]);
        event.preventDefault();
      }
      return; // the arrows step the player (../shell/keys.js)
    }
    if (arrow && !event.shiftKey) {
      const far = event.ctrlKey ? FAR : 1;
      this.move(arrow[0] * far, arrow[1] * far);
    } else if (event.key === "Enter" && !event.ctrlKey) this.act(event.shiftKey);
    else if (event.key === "Escape") this.hide();
    else if ((event.key === "," || event.key === ".") && !event.ctrlKey) this.step(event.key === "," ? -1 : 1);
    else return;
    event.preventDefault(); // ../shell/keys.js leaves a key whose default was prevented alone
  }

  /** Show the cursor on its cell (the view's home on a new grid); false when the view has none. */
  show() {
    const grid = this.grid();
    if (!grid) return false;
    const key = `${grid.columns}x${grid.rows}:${this.view()?.constructor.name}`;
    if (key !== this.gridKey || !this.at) {
      this.gridKey = key;
      const home = grid.home || { column: Math.floor(grid.columns / 2), row: Math.floor(grid.rows / 2) };
      this.at = { column: home.column, row: home.row };
    }
    this.clamp(grid);
    this.on = true;
    this.board.classList.add("cursor-on");
    this.place();
    this.follow();
    this.hover();
    this.announce();
    return true;
  }

  /** Hide the cursor: the arrows step the player again. */
  hide() {
    if (!this.on) return;
    this.on = false;
    this.board.classList.remove("cursor-on");
    this.box.hidden = true;
    cancelAnimationFrame(this.frame);
    const canvas = this.view()?.canvas;
    if (canvas) {
      canvas.dispatchEvent(new PointerEvent("pointerleave", { pointerId: 1, pointerType: "mouse" }));
      canvas.dispatchEvent(new MouseEvent("mouseleave"));
    }
  }

  /** @param {{columns: number, rows: number}} grid */
  clamp(grid) {
    if (!this.at) return;
    this.at.column = Math.max(0, Math.min(grid.columns - 1, this.at.column));
    this.at.row = Math.max(0, Math.min(grid.rows - 1, this.at.row));
  }

  /** @param {number} dx @param {number} dy */
  move(dx, dy) {
    const grid = this.grid();
    if (!grid || !this.at) return;
    this.at.column += dx;
    this.at.row += dy;
    this.clamp(grid);
    this.place();
    this.hover();
    this.announce();
  }

  /** Say the cursor's cell. */
  announce() {
    const view = this.view();
    if (view && this.at) this.say(view.cursorLabel(this.at.column, this.at.row));
  }

  /** The cell's rectangle in page (client) px, or null. */
  clientRect() {
    const view = this.view();
    if (!view || !this.at) return null;
    const r = view.cursorRect(this.at.column, this.at.row);
    if (!r) return null;
    const c = view.canvas.getBoundingClientRect();
    return { x: c.left + r.x, y: c.top + r.y, width: r.width, height: r.height };
  }

  /** The outline over the cell (in the board's box; it follows zoom, pan and resizing). */
  place() {
    const rect = this.on ? this.clientRect() : null;
    if (!rect) {
      this.box.hidden = true;
      return;
    }
    const b = this.board.getBoundingClientRect();
    const pad = 2; // the outline sits just outside the cell
    const style = this.box.style;
    style.left = `${rect.x - b.left - this.board.clientLeft - pad}px`;
    style.top = `${rect.y - b.top - this.board.clientTop - pad}px`;
    style.width = `${rect.width + 2 * pad}px`;
    style.height = `${rect.height + 2 * pad}px`;
    this.box.dataset.column = String(this.at?.column); // where it is (tests)
    this.box.dataset.row = String(this.at?.row);
    this.box.hidden = false;
  }

  /** While shown, the outline is placed again every frame (a zoom, a pan, the layout changing). */
  follow() {
    cancelAnimationFrame(this.frame);
    const tick = () => {
      if (!this.on) return;
      if (!this.grid()) {
        this.hide();
        return;
      }
      this.place();
      this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  /** The events of a pointer at the cell's centre. @param {string[]} types @param {boolean} shift */
  dispatch(types, shift = false) {
    const view = this.view();
    const rect = this.clientRect();
    if (!view || !rect) return;
    const at = {
      bubbles: true, cancelable: true, composed: true, view: window, shiftKey: shift,
      clientX: rect.x + rect.width / 2, clientY: rect.y + rect.height / 2,
    };
    for (const type of types) {
      const down = type.endsWith("down") || type === "click";
      const buttons = { button: 0, buttons: type.endsWith("down") ? 1 : 0, detail: down ? 1 : 0 };
      const event = type.startsWith("pointer")
        ? new PointerEvent(type, { ...at, ...buttons, pointerId: 1, pointerType: "mouse", isPrimary: true })
        : new MouseEvent(type, { ...at, ...buttons });
      view.canvas.dispatchEvent(event);
    }
  }

  /** The hover read-out follows the cursor. */
  hover() {
    this.dispatch(["pointermove", "mousemove"]);
  }

  /** Enter: a click on the cursor's cell (`shift`: a Shift+click); then its cell is said again. */
  act(shift = false) {
    this.dispatch(["pointerdown", "mousedown", "pointerup", "mouseup", "click"], shift);
    requestAnimationFrame(() => {
      this.onAct();
      if (!this.on) return;
      this.hover();
      this.announce();
    });
  }
}
