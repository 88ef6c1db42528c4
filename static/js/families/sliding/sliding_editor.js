// The sliding-tile editor (issue 20): play the puzzle by hand. While editing, a click on a tile next to
// the blank slides it into the blank (`{"op": "slide", "cell": i}`, taken back by sliding it back:
// the blank's old cell), and two buttons set the goal: the board as it is now, or 1 … n²−1 then the
// blank (`set_goal`, taken back by the goal before). The shell sends the operations (../../edit/),
// keeps them in the shared Undo/Redo history and re-solves a run that was on the board.

import { el } from "../../dom.js";
import { t } from "../../i18n.js";
import { wordsOf } from "../words.js";
import { ClickEditor } from "../../edit/click_editor.js";
import { blankOf, defaultGoal, sameBoard } from "./sliding_board.js";

const HINT = "fam.sliding.edit_hint"; // a catalog key, read as words in the current language (wordsOf)

/** @param {import("./sliding_view.js").SlidingView} view */
export function slidingEditor(view) {
  const editor = new ClickEditor({
    view,
    hints: wordsOf({ click: HINT }),
    title: t("fam.sliding.edit_title"),
    opAt: (event) => {
      const board = view.board;
      if (!board || !view.info || view.showBoardForEditing()) return null;
      const cell = view.renderer.cellAt(event.clientX, event.clientY);
      if (cell < 0) return null;
      const n = board.n;
      const blank = blankOf(board.tiles);
      if (cell === blank) return null;
      const next = Math.abs(cell - blank) === n || (Math.abs(cell - blank) === 1 && Math.floor(cell / n) === Math.floor(blank / n));
      if (!next) {
        view.shell.setHover(t("fam.sliding.only_next"));
        return null;
      }
      view.slideLocally(cell);
      return { op: { op: "slide", cell }, undo: [{ op: "slide", cell: blank }] };
    },
  });
  const setGoal = (tiles) => {
    const board = view.board;
    if (!board || !view.info || sameBoard(tiles, board.goal)) return;
    const op = { op: "set_goal", tiles: Array.from(tiles) };
    view.shell.remember([op], [{ op: "set_goal", tiles: Array.from(board.goal) }], true);
    view.shell.edit([op], { reload: true });
  };
  const here = el("button", {
    type: "button", testid: "sliding-goal-here", t: "fam.sliding.goal_here",
    tattr: { title: "fam.sliding.goal_here_title" }, on: { click: () => view.board && setGoal(view.board.tiles) },
  });
  const standard = el("button", {
    type: "button", testid: "sliding-goal-standard", t: "fam.sliding.goal_standard",
    tattr: { title: "fam.sliding.goal_standard_title" }, on: { click: () => view.board && setGoal(defaultGoal(view.board.n)) },
  });
  // Editing on: the canvas shows the puzzle's board (the one a click slides on).
  editor.toggle.addEventListener("click", () => editor.on && view.showBoardForEditing());
  editor.panel.append(el("div", { class: "option-row editor-row sliding-goal-row" }, here, standard));
  return editor;
}
