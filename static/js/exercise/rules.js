// @ts-check
// Exercise mode's words: why the state the trace expands next is the one the algorithm takes, said with
// the keys of its rule and tie-break (server/search/algorithms/: breadth_first.py takes the oldest
// state on its queue, depth_first.py the newest on its stack, best_first.py the smallest
// (f, h, insertion order) on its heap — f = g for Dijkstra, h for greedy, g + w·h for A*).
// No state here: ./exercise.js asks for a line with the two candidates to compare.

import { number } from "../format.js";

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
 * @property {string} note        why the keys are not known, when they are not
 */

const step = (c) => `step ${(c.joined + 1).toLocaleString("en-US")}`;

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
  if (rule.discipline === "path") {
    return rule.byCell ? "Where does the pass finish (step back off) next?" : "Which state does the pass finish (step back off) next?";
  }
  return rule.byCell ? "Where does the next expansion stand?" : "Which state is expanded next?";
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
  if (rule.discipline === "fifo") return "the oldest state on the frontier";
  if (rule.discipline === "lifo") return "the newest state on the frontier";
  if (rule.discipline !== "heap") return "";
  if (rule.mode === "dijkstra") return `the smallest g, ${number(answer.g)}`;
  if (rule.mode === "greedy") return `the smallest h, ${number(answer.h)}`;
  return `the smallest f, ${number(answer.f)} (h = ${number(answer.h)})`;
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
  const { title } = rule;
  if (!rule.keyed) {
    if (rule.discipline === "path") {
      return `${title} keeps no frontier: each pass goes depth first within its bound, and steps back off ${a} next.`;
    }
    if (rule.discipline === "both") {
      return `${title} expands, on the side whose frontier is smaller, the state with the smallest g: ${a} (g = ${number(answer.g)}).`;
    }
    if (rule.discipline === "heap") {
      const f = rule.mode === "dijkstra" ? "g" : rule.mode === "greedy" ? "h" : fFormula(rule);
      return `${title} expands the smallest ${f}. ${rule.note} The trace expands ${a} (g = ${number(answer.g)}); yours has g = ${number(yours.g)}.`;
    }
    return `${rule.note} The trace expands ${a} next.`.trim();
  }
  if (rule.discipline === "fifo") {
    return `${title} expands the oldest state on the frontier: ${a} joined it at ${step(answer)}, yours at ${step(yours)}.`;
  }
  if (rule.discipline === "lifo") {
    return `${title} expands the newest state on the frontier: ${a} joined it at ${step(answer)}, yours at ${step(yours)}.`;
  }
  const older = `the tie goes to the state that joined the frontier first: ${a} at ${step(answer)}, yours at ${step(yours)}`;
  if (rule.mode === "dijkstra") {
    if (answer.g !== yours.g) return `${title} expands the smallest g (cost so far): ${a} has g = ${number(answer.g)}; yours has g = ${number(yours.g)}.`;
    return `${title} expands the smallest g; both have g = ${number(answer.g)}, so ${older}.`;
  }
  if (rule.mode === "greedy") {
    if (answer.h !== yours.h) return `${title} expands the smallest h (estimated cost to go): ${a} has h = ${number(answer.h)}; yours has h = ${number(yours.h)}.`;
    return `${title} expands the smallest h; both have h = ${number(answer.h)}, so ${older}.`;
  }
  const f = fFormula(rule);
  if (answer.f !== yours.f) {
    return `${title} expands the smallest ${f}: ${a} has f = ${number(answer.f)} and h = ${number(answer.h)}; yours has f = ${number(yours.f)}.`;
  }
  if (answer.h !== yours.h) {
    return `${title} expands the smallest ${f}, ties to the smaller h: both have f = ${number(answer.f)}; ${a} has h = ${number(answer.h)}, yours h = ${number(yours.h)}.`;
  }
  return `${title} expands the smallest ${f}, then the smaller h; both have f = ${number(answer.f)} and h = ${number(answer.h)}, so ${older}.`;
}
