// @ts-check
// The sliding-tile puzzle's board as the page knows it (docs/SLIDING.md): n × n cells row-major, one
// tile number a cell, 0 the blank; a move named by where the blank goes (U D L R). Pure functions:
// the puzzle info read into a board, permutation ranks (the server's snapshot "rank" for n = 3), the
// heuristics every course teaches (misplaced tiles h1, Manhattan distance h2, linear conflict) computed
// from a board, and moves in words.

import { t } from "../../i18n.js";

/**
 * @typedef {object} SlidingBoard
 * @property {number} n  3, 4 or 5
 * @property {Uint8Array} tiles  n² numbers, 0 the blank
 * @property {Uint8Array} goal  n² numbers
 * @property {string} name
 */

/** The word for the way a tile slides when the blank goes `dir` (the tile goes the other way). */
const TILE_WORD = { U: "fam.sliding.down", D: "fam.sliding.up", L: "fam.sliding.right", R: "fam.sliding.left" }; // catalog keys

/**
 * The board from the puzzle info (`n`, `tiles`, `goal`: lists of n² ints, or n rows of n).
 * @param {any} info
 * @returns {SlidingBoard}
 */
export function boardOf(info) {
  const flat = (v) => (Array.isArray(v) ? v.flat(2).map(Number) : []);
  const tiles = flat(info.tiles);
  const n = Number(info.n) || Math.round(Math.sqrt(tiles.length)) || 3;
  const given = flat(info.goal);
  const goal = given.length === n * n ? Uint8Array.from(given) : defaultGoal(n);
  return { n, tiles: Uint8Array.from(tiles), goal, name: info.name || "" };
}

/** 1 … n²−1 then the blank. @param {number} n */
export function defaultGoal(n) {
  const goal = new Uint8Array(n * n);
  for (let i = 0; i < n * n - 1; i++) goal[i] = i + 1;
  return goal;
}

/** @param {ArrayLike<number>} a @param {ArrayLike<number>} b */
export function sameBoard(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** @param {ArrayLike<number>} tiles */
export function blankOf(tiles) {
  for (let i = 0; i < tiles.length; i++) if (tiles[i] === 0) return i;
  return -1;
}

/**
 * `tiles` with the blank moved to `cell`, a cell next to it (a child's board: the trace names a
 * child by where its blank went); the same board when the blank is there; null for any other cell.
 * @template {Uint8Array | number[]} T
 * @param {T} tiles
 * @param {number} cell
 * @param {number} n
 * @returns {T | null}
 */
export function blankMovedTo(tiles, cell, n) {
  const blank = blankOf(tiles);
  if (cell === blank) return tiles;
  const next = Math.abs(cell - blank) === n || (Math.abs(cell - blank) === 1 && Math.floor(cell / n) === Math.floor(blank / n));
  if (!next || cell < 0 || cell >= tiles.length) return null;
  const child = /** @type {T} */ (tiles.slice());
  child[blank] = child[cell];
  child[cell] = 0;
  return child;
}

const FACT = [1, 1, 2, 6, 24, 120, 720, 5040, 40320, 362880];

/**
 * The lexicographic rank of a permutation of 0..8 (0 … 9! − 1), the server's snapshot "rank".
 * @param {ArrayLike<number>} p
 */
export function rankOf(p) {
  let rank = 0;
  for (let i = 0; i < 8; i++) {
    let smaller = 0;
    const v = p[i];
    for (let j = i + 1; j < 9; j++) if (p[j] < v) smaller++;
    rank += smaller * FACT[8 - i];
  }
  return rank;
}

/**
 * The permutation of rank `rank` written into `out` (9 numbers).
 * @param {number} rank
 * @param {Uint8Array} out
 * @param {Uint8Array} used  9 bytes of scratch
 */
export function unrankInto(rank, out, used) {
  used.fill(0);
  for (let i = 0; i < 9; i++) {
    const f = FACT[8 - i];
    let d = Math.floor(rank / f);
    rank -= d * f;
    for (let v = 0; v < 9; v++) {
      if (used[v]) continue;
      if (d === 0) {
        out[i] = v;
        used[v] = 1;
        break;
      }
      d--;
    }
  }
  return out;
}

/**
 * Where each tile stands in the goal: goalPos[tile] = its cell.
 * @param {ArrayLike<number>} goal
 */
export function goalPositions(goal) {
  const pos = new Int32Array(goal.length);
  for (let i = 0; i < goal.length; i++) pos[goal[i]] = i;
  return pos;
}

/** Tiles (not the blank) off their goal cell: h1. */
function misplaced(tiles, goal) {
  let h = 0;
  for (let i = 0; i < tiles.length; i++) if (tiles[i] !== 0 && tiles[i] !== goal[i]) h++;
  return h;
}

/** The tiles' Manhattan distances to their goal cells (the blank not counted): h2. */
export function manhattan(tiles, goalPos, n) {
  let h = 0;
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i];
    if (t === 0) continue;
    const g = goalPos[t];
    h += Math.abs(((i / n) | 0) - ((g / n) | 0)) + Math.abs((i % n) - (g % n));
  }
  return h;
}

/**
 * Manhattan plus 2 for each tile that must leave its goal line to let another pass (Hansson et al.:
 * per row and column, the fewest tiles to remove so the rest are in goal order).
 */
function linearConflict(tiles, goalPos, n) {
  let extra = 0;
  const line = [];
  for (let dim = 0; dim < 2; dim++) {
    for (let k = 0; k < n; k++) {
      line.length = 0;
      for (let j = 0; j < n; j++) {
        const cell = dim === 0 ? k * n + j : j * n + k;
        const t = tiles[cell];
        if (t === 0) continue;
        const g = goalPos[t];
        const inLine = dim === 0 ? ((g / n) | 0) === k : g % n === k;
        if (inLine) line.push(dim === 0 ? g % n : (g / n) | 0);
      }
      if (line.length > 1) extra += 2 * (line.length - longestIncreasing(line));
    }
  }
  return manhattan(tiles, goalPos, n) + extra;
}

/** The length of the longest strictly increasing subsequence (a line holds at most 5 numbers). */
function longestIncreasing(xs) {
  const best = xs.map(() => 1);
  let top = 1;
  for (let i = 1; i < xs.length; i++) {
    for (let j = 0; j < i; j++) if (xs[j] < xs[i] && best[j] + 1 > best[i]) best[i] = best[j] + 1;
    if (best[i] > top) top = best[i];
  }
  return top;
}

/** The heuristics the page computes itself (pattern databases and "yours" are the server's). */
export const PAGE_HEURISTICS = ["misplaced", "manhattan", "linear_conflict"];

/**
 * h of a board under a heuristic's name, or null when the page cannot compute it.
 * @param {string} name
 * @param {ArrayLike<number>} tiles
 * @param {ArrayLike<number>} goal
 * @param {Int32Array} goalPos
 * @param {number} n
 * @returns {number | null}
 */
export function heuristicValue(name, tiles, goal, goalPos, n) {
  if (name === "misplaced") return misplaced(tiles, goal);
  if (name === "manhattan") return manhattan(tiles, goalPos, n);
  if (name === "linear_conflict") return linearConflict(tiles, goalPos, n);
  if (name === "zero" || name === "none") return 0;
  return null;
}

/**
 * The one slide that turns board `a` into board `b`: {tile, from, to} (cells), or null when they
 * differ otherwise.
 */
export function slideBetween(a, b) {
  if (!a || !b || a.length !== b.length) return null;
  const diff = [];
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      diff.push(i);
      if (diff.length > 2) return null;
    }
  }
  if (diff.length !== 2) return null;
  const [i, j] = diff;
  const n = Math.round(Math.sqrt(a.length));
  const adjacent = Math.abs(i - j) === n || (Math.abs(i - j) === 1 && ((i / n) | 0) === ((j / n) | 0));
  if (!adjacent) return null;
  if (a[i] === 0 && b[j] === 0 && a[j] === b[i]) return { tile: a[j], from: j, to: i };
  if (a[j] === 0 && b[i] === 0 && a[i] === b[j]) return { tile: a[i], from: i, to: j };
  return null;
}

/** "(row, col)" of a cell, 0-based. */
export function cellName(cell, n) {
  return `(${(cell / n) | 0}, ${cell % n})`;
}

/** A move in words when the server gave none: "slide 7 down". */
export function moveText(move) {
  if (move?.text) return String(move.text);
  const key = TILE_WORD[move?.blank];
  if (move?.tile === undefined) return t("fam.sliding.blank_move", { move: move?.blank || "?" });
  return key ? t("fam.sliding.slide", { tile: move.tile, way: t(key) }) : t("fam.sliding.slide_tile", { tile: move.tile });
}

/** The move list from a result: its `moves`, else derived from its `path` of boards. */
export function movesOf(result, n) {
  const path = Array.isArray(result?.path) ? result.path.map((b) => Uint8Array.from(b.flat ? b.flat() : b)) : [];
  if (Array.isArray(result?.moves) && result.moves.length === Math.max(0, path.length - 1)) {
    return { path, moves: result.moves.map((m) => (typeof m === "string" ? { blank: m } : m)) };
  }
  const moves = [];
  for (let k = 1; k < path.length; k++) {
    const s = slideBetween(path[k - 1], path[k]);
    const dir = s ? dirOf(s.to, s.from, n) : "?";
    moves.push({ blank: dir, tile: s ? s.tile : undefined });
  }
  return { path, moves };
}

/** The way the blank went from cell `from` to cell `to`. */
function dirOf(from, to, n) {
  if (to === from - n) return "U";
  if (to === from + n) return "D";
  if (to === from - 1) return "L";
  if (to === from + 1) return "R";
  return "?";
}
