// The labyrinth's editor (issue 12): a click editor (../../edit/click_editor.js). "Turn": a click on a
// board tile turns it a quarter turn clockwise, on the free tile turns the free tile (shift-click:
// counter-clockwise) — server/puzzles/labyrinth/edit.py's `turn` and `turn_free`. "Set tile": a click
// puts the tile chosen in the menu there (`tile`, or `free` on the free tile). The start and goal
// columns and the insertion rows are the family's options, in the form above.

import { el } from "../../dom.js";
import { ClickEditor } from "../../edit/click_editor.js";
import { SHAPES } from "./labyrinth_board.js";
import { t } from "../../i18n.js";
import { wordsOf } from "../words.js";

// Catalog keys, read as words in the current language (wordsOf).
const TOOLS = { turn: "fam.view.tool_turn", set: "fam.view.tool_set" };
const HINTS = { turn: "fam.labyrinth.hint_turn", set: "fam.labyrinth.hint_set" };
const CODES = 10; // tile codes 0-9 (docs/LABYRINTH.md)

/** @param {import("./labyrinth_view.js").LabyrinthView} view */
export function labyrinthEditor(view) {
  const choice = el("select", { testid: "tile-code", tattr: { "aria-label": "fam.labyrinth.tile_choice" } },
    ...Array.from({ length: CODES }, (_, code) => new Option(`${SHAPES[code]}  (${code})`, String(code))));
  const editor = new ClickEditor({
    view, tools: wordsOf(TOOLS), toolPrefix: "labyrinth-tool", hints: wordsOf(HINTS), extra: choice,
    title: t("fam.view.edit_title"),
    opAt: (event, tool) => {
      const hit = view.renderer.tileAt(event.clientX, event.clientY);
      if (!hit || !view.info) return null;
      if (tool === "set") {
        const code = Number(choice.value);
        if (hit.free) return { op: { op: "free", code }, undo: [{ op: "free", code: view.info.free_tile }] };
        const cell = [hit.r, hit.c];
        return { op: { op: "tile", cell, code }, undo: [{ op: "tile", cell, code: view.info.board[hit.r][hit.c] }] };
      }
      const times = event.shiftKey ? 3 : 1;
      const turn = (k) => (hit.free ? { op: "turn_free", times: k } : { op: "turn", cell: [hit.r, hit.c], times: k });
      return { op: turn(times), undo: [turn(4 - times)] };
    },
  });
  choice.addEventListener("change", () => editor.setTool("set"));
  return editor;
}
