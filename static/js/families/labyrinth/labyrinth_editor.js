// The labyrinth's editor (issue 12): a click editor (../../edit/click_editor.js) whose click on a
// board tile turns it a quarter turn clockwise, on the free tile turns the free tile (shift-click:
// counter-clockwise) — server/puzzles/labyrinth/edit.py's `turn` and `turn_free`.

import { ClickEditor } from "../../edit/click_editor.js";

/** @param {import("./labyrinth_view.js").LabyrinthView} view */
export function labyrinthEditor(view) {
  return new ClickEditor({
    view,
    title: "Edit the board: a click on a tile turns it",
    hints: {
      click: "Editing: a click on a tile, or on the free tile, turns it a quarter turn clockwise "
        + "(shift-click: counter-clockwise).",
    },
    opAt: (event) => {
      const hit = view.renderer.tileAt(event.clientX, event.clientY);
      if (!hit) return null;
      const times = event.shiftKey ? 3 : 1;
      const turn = (k) => (hit.free ? { op: "turn_free", times: k } : { op: "turn", cell: [hit.r, hit.c], times: k });
      return { op: turn(times), undo: [turn(4 - times)] };
    },
  });
}
