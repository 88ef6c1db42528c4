// @ts-check
// Exercise mode's words: why the state the trace expands next is the one the algorithm takes, said with
// the keys of its rule and tie-break (server/search/algorithms/: breadth_first.py takes the oldest
// state on its queue, depth_first.py the newest on its stack, best_first.py the smallest
// (f, h, insertion order) on its heap — f = g for Dijkstra, h for greedy, g + w·h for A*).
// No state here: ./exercise.js asks for a line with the two candidates to compare.

import { number } from "../format.js";
import { t } from "../i18n.js";

/**
 * A state on the frontier as the exercise knows it.
 * @typedef {object} Candidate
 * @property {number} cell   the trace's name for the state (its record cell)
 * @property {number} g      its g (BFS: steps from the start)
 * @property {number | null} h  its h, when the rule orders by it and the page can compute it
 * @property {number | null} f  its priority f, likewise
 * @property {number} joined the record that put it on the frontier (shown as step joined + 1)
 * @property {number} rank   its place in the order the frontier is taken (0: next), -1 when unknown
 */

/**
 * What the exercise knows of the run's rule.
 * @typedef {object} Rule
 * @property {string} title       the algorithm's name ("Breadth-first search")
 * @property {string} discipline  "fifo" | "lifo" | "heap" | "path" | "both" | "" (unknown)
 * @property {string} mode        "dijkstra" | "greedy" | "astar" | "" (a heap's key)
 * @property {number} weight      A*'s w in f = g + w·h
 * @property {boolean} keyed      the candidates' keys are known (a heap's f and h; a queue's order)
 * @property {boolean} byCell     the trace names states only by their cell: the question is where
 * @property {string} note        why the keys are not known, when they are not (a catalog key, or text)
 */

const step = (c) => t("predict.step", { step: c.joined + 1 });

/** "f = g + h" or "f = g + 1.5·h". @param {Rule} rule */
function fFormula(rule) {
  return rule.weight === 1 ? "f = g + h" : `f = g + ${number(rule.weight)}·h`;
}

/**
 * The question, in words.
 * @param {Rule} rule
 * @returns {string}
 */
export function questionText(rule) {
  if (rule.discipline === "path") return t(rule.byCell ? "predict.q_pass_cell" : "predict.q_pass");
  return t(rule.byCell ? "predict.q_cell" : "predict.q_state");
}

/**
 * The keys a candidate shows in the list: what the algorithm orders the frontier by, with g (A*: "f 12 =
 * g 5 + h 7"); for the queue and the stack, whose order is when a state joined (which the student
 * follows on the board), g alone (the depth), and nothing where the trace names places only.
 * @param {Rule} rule
 * @param {Candidate} c
 * @returns {string}
 */
export function keysText(rule, c) {
  if (rule.discipline !== "heap") return rule.byCell ? "" : `g ${number(c.g)}`;
  if (!rule.keyed || rule.mode === "dijkstra" || c.h === null) return `g ${number(c.g)}`;
  if (rule.mode === "greedy") return `h ${number(c.h)} · g ${number(c.g)}`;
  const times = rule.weight === 1 ? "" : `${number(rule.weight)}·`;
  return `f ${number(c.f)} = g ${number(c.g)} + ${times}h ${number(c.h)}`;
}

/**
 * Why the answer is taken, short (after "Right: …").
 * @param {Rule} rule
 * @param {Candidate} answer
 * @returns {string}
 */
export function whyShort(rule, answer) {
  if (!rule.keyed) return "";
  if (rule.discipline === "fifo") return t("predict.why_fifo");
  if (rule.discipline === "lifo") return t("predict.why_lifo");
  if (rule.discipline !== "heap") return "";
  if (rule.mode === "dijkstra") return t("predict.why_dijkstra", { g: number(answer.g) });
  if (rule.mode === "greedy") return t("predict.why_greedy", { h: number(answer.h) });
  return t("predict.why_astar", { f: number(answer.f), h: number(answer.h) });
}

/**
 * The rule and its tie-break with both states' keys: why `answer` is expanded next and not `yours`.
 * `label` names a state as explain mode does.
 * @param {Rule} rule
 * @param {Candidate} answer
 * @param {Candidate} yours
 * @param {(cell: number) => string} label
 * @returns {string}
 */
export function whyNotYours(rule, answer, yours, label) {
  const a = label(answer.cell);
  const title = t(rule.title);
  const note = rule.note ? t(rule.note) : "";
  if (!rule.keyed) {
    if (rule.discipline === "path") return t("predict.not_path", { title, a });
    if (rule.discipline === "both") return t("predict.not_both", { title, a, g: number(answer.g) });
    if (rule.discipline === "heap") {
      const f = rule.mode === "dijkstra" ? "g" : rule.mode === "greedy" ? "h" : fFormula(rule);
      return t("predict.not_heap", { title, f, note, a, g: number(answer.g), yours: number(yours.g) });
    }
    return t("predict.not_other", { note, a }).trim();
  }
  const steps = { a, step: step(answer), yours: step(yours) };
  if (rule.discipline === "fifo") return t("predict.not_fifo", { title, ...steps });
  if (rule.discipline === "lifo") return t("predict.not_lifo", { title, ...steps });
  const older = t("predict.tie", steps);
  if (rule.mode === "dijkstra") {
    if (answer.g !== yours.g) return t("predict.not_dijkstra", { title, a, g: number(answer.g), yours: number(yours.g) });
    return t("predict.not_dijkstra_tie", { title, g: number(answer.g), older });
  }
  if (rule.mode === "greedy") {
    if (answer.h !== yours.h) return t("predict.not_greedy", { title, a, h: number(answer.h), yours: number(yours.h) });
    return t("predict.not_greedy_tie", { title, h: number(answer.h), older });
  }
  const formula = fFormula(rule);
  const keys = { title, formula, a, f: number(answer.f), h: number(answer.h), older };
  if (answer.f !== yours.f) return t("predict.not_astar", { ...keys, yours: number(yours.f) });
  if (answer.h !== yours.h) return t("predict.not_astar_h", { ...keys, yours: number(yours.h) });
  return t("predict.not_astar_tie", keys);
}
