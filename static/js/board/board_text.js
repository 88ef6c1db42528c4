// @ts-check
// The board in words, in the page's language (../i18n.js): what the step at the playhead did
// ("Step 12: (5, 7) expanded, g 12, h 16; 8 in the frontier"), the run's verdict, and the canvas's
// text alternative (the puzzle, its size, start, goal and the state shown). Everything is read from
// the Stage (../stage/stage.js) and its family view (../families/family_view.js: stateLabel,
// playheadFigures, boardFacts, recordG); nothing here keeps state.

import { fmt, t } from "../i18n.js";
import { KIND } from "../timeline.js";

/** A record kind's key: what the step did to its state. */
const KIND_KEYS = {
  [KIND.OPEN]: "a11y.kind.open",
  [KIND.CLOSE]: "a11y.kind.close",
  [KIND.UPDATE]: "a11y.kind.update",
  [KIND.PATH]: "a11y.kind.path",
  [KIND.OPEN_B]: "a11y.kind.open",
  [KIND.CLOSE_B]: "a11y.kind.close",
  [KIND.UPDATE_B]: "a11y.kind.update",
};
const BACKWARD = new Set([KIND.OPEN_B, KIND.CLOSE_B, KIND.UPDATE_B]);
const CLOSING = new Set([KIND.CLOSE, KIND.CLOSE_B]);

/** A figure's value in words: a whole number grouped, else up to two decimals. @param {number} v */
const number = (v) => fmt(v, 2);

/**
 * The state the record `i` names, in the family's notation.
 * @param {import("../families/family_view.js").FamilyView} view
 * @param {import("../timeline.js").Timeline} timeline
 * @param {number} i
 */
function stateOf(view, timeline, i) {
  const cell = timeline.cells[i];
  if (!view.tracedStates) return view.cellLabel(cell);
  const ids = view.stateIds();
  return view.stateLabel(ids && i < ids.length ? Number(ids.data[i]) : cell);
}

/**
 * What the step at the playhead did, or "" when the board shows no run.
 * @param {import("../stage/stage.js").Stage} stage
 * @returns {string}
 */
export function stepText(stage) {
  const { run, view, timeline, player } = stage;
  if (!run || !view || !stage.entered) return "";
  const step = player.position;
  const counts = stage.counts();
  if (step <= 0) return t("a11y.step.none", { total: stage.total() ?? timeline.length });
  const frontier = counts && counts.frontier !== null && counts.frontier !== undefined ? counts.frontier : null;
  const i = step - 1;
  if (i >= timeline.length) {
    // A huge board's run: no records, only counts.
    return counts ? t("a11y.step.counts", { step, expanded: counts.expanded, frontier: frontier ?? 0 }) : "";
  }
  const kind = timeline.kinds[i];
  const figures = [];
  let g = null;
  let h = null;
  if (CLOSING.has(kind)) {
    // The family's figures are the expanded state's: this record's.
    for (const f of view.playheadFigures()) {
      if (f.key === "g") g = f.value;
      if (f.key === "h") h = f.value;
    }
  }
  if (g === null && kind !== KIND.PATH) g = view.recordG(timeline.values[i], kind);
  if (g !== null && g !== undefined && Number.isFinite(g)) figures.push(t("a11y.figure.g", { value: number(g) }));
  if (h !== null && h !== undefined && Number.isFinite(h)) figures.push(t("a11y.figure.h", { value: number(h) }));
  const what = t(KIND_KEYS[kind] || "a11y.kind.other") + (BACKWARD.has(kind) ? t("a11y.kind.backward") : "");
  const params = { step, state: stateOf(view, timeline, i), what, figures: figures.length ? `, ${figures.join(", ")}` : "" };
  return frontier === null ? t("a11y.step.noFrontier", params) : t("a11y.step", { ...params, frontier, count: frontier });
}

/**
 * The run's result in words once the playhead is at its end ("" before): found or not, its cost,
 * and the verdict on optimality (`verdict`: the page's verdict line, ../figures.js).
 * @param {import("../stage/stage.js").Stage} stage
 * @param {string} verdict
 * @returns {string}
 */
export function verdictText(stage, verdict) {
  const run = stage.run;
  const result = run?.result;
  if (!result || !stage.player.atEnd) return "";
  if (!result.found) return t("a11y.verdict.none");
  return t("a11y.verdict.found", { cost: number(result.cost), verdict: verdict ? ` ${verdict}` : "" });
}

/**
 * The canvas's text alternative: the puzzle, its size, start and goal.
 * @param {import("../families/family_view.js").FamilyView | null} view
 * @param {any} info the puzzle's info
 * @returns {string}
 */
export function boardLabel(view, info) {
  if (!view || !info) return t("a11y.board.empty");
  const kind = t(/** @type {any} */ (view.constructor).kindKey || "a11y.puzzle.other"); // the view's own words
  const unit = /** @type {any} */ (view.constructor).sizeUnit === "tiles" ? "a11y.unit.tiles" : "a11y.unit.cells";
  const parts = [];
  const name = info.title || info.name || "";
  parts.push(name ? t("a11y.board.named", { kind, name }) : kind);
  if (Number.isFinite(info.width) && Number.isFinite(info.height)) {
    parts.push(t(unit, { width: info.width, height: info.height }));
  }
  const { start, goal } = view.boardFacts();
  if (start !== undefined) parts.push(start ? t("a11y.board.start", { start }) : t("a11y.board.noStart"));
  if (goal !== undefined) parts.push(goal ? t("a11y.board.goal", { goal }) : t("a11y.board.noGoal"));
  return parts.join(t("a11y.separator"));
}

/**
 * The state shown, for the board's description: the step's words, or that no run is shown.
 * @param {import("../stage/stage.js").Stage} stage
 */
export function shownText(stage) {
  if (!stage.run) return t("a11y.board.noRun");
  const total = stage.total() ?? stage.timeline.length;
  const step = stepText(stage);
  return t("a11y.board.shown", { step: stage.player.position, total, words: step });
}
