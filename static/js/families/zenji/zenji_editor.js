// Zenji's editor (issue 12): a click editor (../../edit/click_editor.js) whose click on a tile turns it
// a quarter turn clockwise (shift-click: counter-clockwise) — server/puzzles/zenji/edit.py's `turn`,
// taken back by the turns that complete a whole one.

import { ClickEditor } from "../../edit/click_editor.js";

/** @param {import("./zenji_view.js").ZenjiView} view */
export function zenjiEditor(view) {
  return new ClickEditor({
    view,
    title: "Edit the board: a click on a tile turns it",
    hints: { click: "Editing: a click on a tile turns it a quarter turn clockwise (shift-click: counter-clockwise)." },
    opAt: (event) => {
      const tile = view.renderer.tileAt(event.clientX, event.clientY);
      if (tile < 0 || !view.board) return null;
      const cell = [Math.floor(tile / view.board.cols), tile % view.board.cols];
      const times = event.shiftKey ? 3 : 1;
      return { op: { op: "turn", cell, times }, undo: [{ op: "turn", cell, times: 4 - times }] };
    },
  });
}
