// The step-cycle maze's editor (issue 12): a click editor (../../edit/click_editor.js) whose click on
// a cell of the maze (or of a layer) marks or clears it, or puts the start or the goal there, as the
// tool says — operations of server/puzzles/step/edit.py, each with the operations that take it back.

import { ClickEditor } from "../../edit/click_editor.js";
import { BLANK } from "./step_board.js";
import { t } from "../../i18n.js";
import { wordsOf } from "../words.js";

// Catalog keys, read as words in the current language (wordsOf).
const TOOLS = { mark: "fam.step.tool_mark", start: "fam.step.tool_start", goal: "fam.step.tool_goal" };
const HINTS = { mark: "fam.step.hint_mark", start: "fam.step.hint_start", goal: "fam.step.hint_goal" };

/** @param {import("./step_view.js").StepView} view */
export function stepEditor(view) {
  return new ClickEditor({
    view, tools: wordsOf(TOOLS), toolPrefix: "step-tool", hints: wordsOf(HINTS),
    title: t("fam.step.edit_title"),
    opAt: (event, tool) => {
      const hit = view.renderer.hit(event.clientX, event.clientY);
      if (!hit || !view.board) return null;
      const cell = [hit.r, hit.c];
      const marked = view.board.kinds[hit.r * view.info.cols + hit.c] !== BLANK;
      // A cell that becomes the start or goal is marked; taking it back restores it as it was.
      const restore = { op: "mark", cell, marked };
      if (tool === "start") return { op: { op: "start", cell }, undo: [{ op: "start", cell: view.info.start }, restore] };
      if (tool === "goal") {
        const [first, ...rest] = view.info.goals;
        const goals = [{ op: "goal", cell: first }, ...rest.map((goal) => ({ op: "goal", cell: goal, add: true }))];
        return { op: { op: "goal", cell }, undo: [...goals, restore] };
      }
      return { op: { op: "mark", cell, marked: !marked }, undo: [restore] };
    },
  });
}
