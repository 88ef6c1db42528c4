// The step-cycle maze's data as the page sees it (docs/PROTOCOL.md, "Step-cycle mazes"):
// the board from the puzzle info, the cycle, the state index (cell, phase) <-> record cell, the A*
// estimate the server uses and a move in words. No drawing here.

export const BLANK = 0;
const MARKED = 1;
export const START = 2;
export const GOAL = 3;

import { t } from "../../i18n.js";

// Directions as the server names them, and their words (catalog keys).
const DIRECTIONS = [["N", "fam.step.north"], ["E", "fam.step.east"], ["S", "fam.step.south"], ["W", "fam.step.west"]];

/** The puzzle info's board: {rows, cols, kinds: Uint8Array (BLANK/MARKED/START/GOAL), start, goals}. */
export function boardOf(info) {
  const { rows, cols } = info;
  const kinds = new Uint8Array(rows * cols);
  const marks = Array.isArray(info.marks) ? info.marks : [];
  for (let r = 0; r < rows; r++) {
    const line = String(marks[r] ?? "");
    for (let c = 0; c < cols; c++) {
      const ch = line[c];
      kinds[r * cols + c] = ch === "S" ? START : ch === "Z" ? GOAL : ch === "X" ? MARKED : BLANK;
    }
  }
  const start = Array.isArray(info.start) ? info.start : null;
  const goals = Array.isArray(info.goals) ? info.goals : [];
  if (start) kinds[start[0] * cols + start[1]] = START;
  for (const [r, c] of goals) kinds[r * cols + c] = GOAL;
  return { rows, cols, kinds, start, goals };
}

/** A cycle is usable when it is 1..maxLength whole numbers from 1 to maxStep. */
export function cycleProblem(cycle, { maxLength = 16, maxStep = 1000 } = {}) {
  if (!Array.isArray(cycle) || !cycle.length) return t("fam.step.cycle_empty");
  if (cycle.length > maxLength) return t("fam.step.cycle_long", { length: cycle.length, max: maxLength });
  const bad = cycle.find((k) => !Number.isInteger(k) || k < 1 || k > maxStep);
  if (bad !== undefined) return t("fam.step.cycle_bad", { bad, max: maxStep });
  return null;
}

export const cycleText = (cycle) => cycle.join(",");

/** Record cell <-> state: index = (r * cols + c) * P + phase. */
export function decodeState(index, cols, P) {
  const cell = Math.floor(index / P);
  return { cell, phase: index - cell * P, r: Math.floor(cell / cols), c: cell % cols };
}

/**
 * server/puzzles/step/problem.py `heuristic`: "manhattan" is ceil(|rows apart| / longest step) +
 * ceil(|columns apart| / longest step) to the nearest goal; any other name is 0.
 */
export function estimate(board, name, r, c, longest) {
  if (name !== "manhattan" || !board.goals.length) return 0;
  let best = Infinity;
  for (const [gr, gc] of board.goals) {
    best = Math.min(best, Math.ceil(Math.abs(r - gr) / longest) + Math.ceil(Math.abs(c - gc) / longest));
  }
  return best;
}

/** "after 0, 3, 6, … moves": which move counts land in layer p of a cycle of P. */
export function layerMoves(p, P) {
  return t("fam.step.layer_moves", { list: `${p}, ${p + P}, ${p + 2 * P}, …` });
}

/** "N" -> "north". */
export const directionWord = (dir) => {
  const key = DIRECTIONS.find((d) => d[0] === dir)?.[1];
  return key ? t(key) : dir || "";
};

/** The move list's words for a move: the server's text, else built from its fields. */
export function moveText(move) {
  if (typeof move.text === "string" && move.text) return move.text;
  const word = directionWord(move.direction);
  const rc = (p) => `(${p[0]}, ${p[1]})`;
  return `${move.length} ${word}: ${rc(move.from)} → ${rc(move.to)}`;
}
