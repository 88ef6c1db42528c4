// Zenji's editor (issue 12): a click editor (../../edit/click_editor.js). "Turn": a click on a tile turns
// it a quarter turn clockwise (shift-click: counter-clockwise) — server/puzzles/zenji/edit.py's `turn`,
// taken back by the turns that complete a whole one. "Set tile": a click gives the tile the four side
// codes typed, N E S W as in the file format (`tile`; a 3 or a 4 moves the source or the drain there;
// the server refuses a board it would break and says why).

import { el } from "../../dom.js";
import { t } from "../../i18n.js";
import { wordsOf } from "../words.js";
import { ClickEditor } from "../../edit/click_editor.js";

// Catalog keys, read as words in the current language (wordsOf).
const TOOLS = { turn: "fam.view.tool_turn", set: "fam.view.tool_set" };
const HINTS = { turn: "fam.zenji.hint_turn", set: "fam.zenji.hint_set" };

/** @param {import("./zenji_view.js").ZenjiView} view */
export function zenjiEditor(view) {
  const sides = el("input", {
    type: "text", testid: "tile-sides", value: "0012", maxlength: "4", inputmode: "numeric", pattern: "[0-4]{4}",
    tattr: { "aria-label": "fam.zenji.sides_label" }, size: "5", autocomplete: "off", spellcheck: "false",
  });
  const editor = new ClickEditor({
    view, tools: wordsOf(TOOLS), toolPrefix: "zenji-tool", hints: wordsOf(HINTS), extra: sides,
    title: t("fam.view.edit_title"),
    opAt: (event, tool) => {
      const tile = view.renderer.tileAt(event.clientX, event.clientY);
      if (tile < 0 || !view.board || !view.info) return null;
      const cols = view.board.cols;
      const cell = [Math.floor(tile / cols), tile % cols];
      if (tool === "set") {
        if (!/^[0-4]{4}$/.test(sides.value.trim())) {
          view.shell.showError(t("fam.zenji.sides_bad"));
          return null;
        }
        const codes = [...sides.value.trim()].map(Number);
        const tiles = view.info.tiles;
        const undo = [];
        // A 3 or a 4 moves the source or the drain here: taking it back puts it back where it was first.
        for (const code of [3, 4].filter((c) => codes.includes(c))) {
          tiles.forEach((row, r) => row.forEach((tileSides, c) => {
            if (tileSides.includes(code) && (r !== cell[0] || c !== cell[1])) undo.push({ op: "tile", cell: [r, c], sides: tileSides });
          }));
        }
        undo.push({ op: "tile", cell, sides: tiles[cell[0]][cell[1]] });
        return { op: { op: "tile", cell, sides: codes }, undo };
      }
      const times = event.shiftKey ? 3 : 1;
      return { op: { op: "turn", cell, times }, undo: [{ op: "turn", cell, times: 4 - times }] };
    },
  });
  sides.addEventListener("input", () => editor.setTool("set"));
  return editor;
}
