// Zenji's data as the page sees it (docs/PROTOCOL.md, "Zenji pipes"): side codes, turning a
// tile, the trace's state index and its encoded g, and the water's route through a solution. No
// drawing and no state here.

import { t } from "../../i18n.js";

// Side codes of a tile's [N, E, S, W].
export const SIDE = { CLOSED: 0, INLET: 1, OUTLET: 2, SOURCE: 3, DRAIN: 4 };
const DIRECTIONS = ["N", "E", "S", "W"];

const mod4 = (k) => ((k % 4) + 4) % 4;

/** Side `d` (0 = N … 3 = W) of `tile` ([N, E, S, W]) turned `rot` quarter turns clockwise. */
export function sideAfter(tile, rot, d) {
  return tile[mod4(d - rot)];
}

/** The tile's [N, E, S, W] after `rot` clockwise quarter turns. */
function turnedTile(tile, rot) {
  return [0, 1, 2, 3].map((d) => sideAfter(tile, rot, d));
}

/** The side index of "N" | "E" | "S" | "W", or -1 (null: the source's entry, the drain's exit). */
function sideIndex(letter) {
  return letter ? DIRECTIONS.indexOf(letter) : -1;
}

/** The trace's cell of a state, (r * cols + c) * 4 + rot, as {tile, r, c, rot}. */
export function decodeState(cell, cols) {
  const tile = Math.floor(cell / 4);
  return { tile, r: Math.floor(tile / cols), c: tile % cols, rot: cell % 4 };
}

/**
 * A trace value, g = turns * scale + tiles, as {turns, tiles} (quarter turns so far, tiles the water
 * passes so far). The values arrive as float32: exact for any board the server accepts.
 */
export function decodeG(value, scale) {
  if (value === null || value === undefined || !Number.isFinite(value) || !(scale > 0)) return null;
  const g = Math.round(value);
  const turns = Math.floor(g / scale);
  return { turns, tiles: g - turns * scale };
}

/** The puzzle info's facts the view and the renderer need, in one object. */
export function boardOf(info) {
  const rows = info.rows;
  const cols = info.cols;
  const tiles = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) tiles.push(info.tiles[r][c].slice(0, 4));
  const flat = ([r, c]) => r * cols + c;
  // A rotation whose shape an earlier one already has (a straight pipe turned twice, an empty tile
  // turned at all) is never searched: the cheaper one stands for it.
  const repeats = tiles.map((tile) => {
    const seen = new Set();
    return [0, 1, 2, 3].map((rot) => {
      const key = turnedTile(tile, rot).join("");
      const repeat = seen.has(key);
      seen.add(key);
      return repeat;
    });
  });
  return {
    rows, cols, tiles, repeats,
    source: flat(info.source || [0, 0]),
    drain: flat(info.drain || [rows - 1, cols - 1]),
    scale: info.cost_scale || rows * cols + 1,
    flow: info.flow || "downhill",
  };
}

/** "(1, 2)" for a flat tile index. */
export function tileName(tile, cols) {
  return `(${Math.floor(tile / cols)}, ${tile % cols})`;
}

/** "once", "twice", "3 times". */
export function timesWord(k) {
  return k === 1 ? t("fam.zenji.once") : k === 2 ? t("fam.zenji.twice") : t("fam.zenji.times", { k });
}

/** The solution as the replay walks it: the turns in path order, and the water's route. */
export function solutionOf(result, board) {
  if (!result?.found) return null;
  const { cols } = board;
  const flat = ([r, c]) => r * cols + c;
  const moves = (Array.isArray(result.moves) ? result.moves : [])
    .map((move) => ({ tile: flat(move.tile), turns: move.turns | 0, text: move.text || "" }))
    .filter((move) => move.turns > 0);
  const water = (Array.isArray(result.water) ? result.water : []).map((step) => ({
    tile: flat(step.tile), rot: mod4(step.rot | 0), enter: sideIndex(step.enter), leave: sideIndex(step.leave),
  }));
  return {
    moves,
    water,
    cost: typeof result.cost === "number" ? result.cost : moves.reduce((sum, m) => sum + m.turns, 0),
    tiles: typeof result.tiles === "number" ? result.tiles : water.length,
  };
}

/** Each tile's rotation after the first `count` moves (tiles not turned yet: 0). */
export function rotationsAfter(moves, count, size) {
  const rotations = new Float32Array(size);
  for (let k = 0; k < Math.min(count, moves.length); k++) rotations[moves[k].tile] += moves[k].turns;
  return rotations;
}

// Where a side's midpoint is, from a tile's top-left corner, in tile units [dr, dc].
const SIDE_POINT = [[0, 0.5], [0.5, 1], [1, 0.5], [0.5, 0]];

/**
 * The water's route through the pipes as points [row, col] in tile units (fractions: a tile's
 * centre is (r + 0.5, c + 0.5)): from the source's hub, through each tile's entry side, hub and exit
 * side, to the drain's hub.
 */
export function waterRoute(water, cols) {
  const points = [];
  const add = (p) => {
    const last = points[points.length - 1];
    if (!last || Math.abs(last[0] - p[0]) > 1e-9 || Math.abs(last[1] - p[1]) > 1e-9) points.push(p);
  };
  for (const step of water) {
    const r = Math.floor(step.tile / cols);
    const c = step.tile % cols;
    if (step.enter >= 0) add([r + SIDE_POINT[step.enter][0], c + SIDE_POINT[step.enter][1]]);
    add([r + 0.5, c + 0.5]);
    if (step.leave >= 0) add([r + SIDE_POINT[step.leave][0], c + SIDE_POINT[step.leave][1]]);
  }
  return points;
}
