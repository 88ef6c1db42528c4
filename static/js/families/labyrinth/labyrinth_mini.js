// @ts-check
// A labyrinth state drawn small (Predict's choices, explain mode's frontier: LabyrinthView.stateFigure)
// and written in the family's notation (LabyrinthView.stateLabel; the server's LabyrinthFamily writes
// the same): where the player is, the tile in hand and the board's rows as the tiles' shapes,
// "(2, 3) · hand ┼ · ┌┬┐ / ├┼┤ / └┴┘".

import { t } from "../../i18n.js";
import { openSides } from "./labyrinth_board.js";

const TILE_PX = 13;
// A tile's shape by its code, as the server writes it (server/puzzles/labyrinth/model.py SHAPES):
// "·" for the tile with no opening.
const SHAPES = "┌┐└┘┬┤┴├│─┼·";

/**
 * @param {{rows: number, cols: number, tiles: ArrayLike<number>, free: number,
 *          player: {r: number, c: number, on: string} | null, places?: number[][]}} state
 * @returns {string}
 */
export function labyrinthText(state) {
  const rows = [];
  for (let r = 0; r < state.rows; r++) {
    let line = "";
    for (let c = 0; c < state.cols; c++) line += SHAPES[state.tiles[r * state.cols + c]] || "?";
    rows.push(line);
  }
  return t("fam.labyrinth.state_text", { place: placeText(state), hand: SHAPES[state.free] || "?", rows: rows.join(" / ") });
}

/** Where the player is: "(2, 3)", "below (4, 0)", "out above", or the places of the merged view. */
function placeText(state) {
  const p = state.player;
  if (!p) {
    const places = state.places || [];
    return places.length
      ? t("fam.labyrinth.one_of", { places: places.map(([r, c]) => `(${r}, ${c})`).join(", ") })
      : t("fam.labyrinth.set_of_places");
  }
  if (p.on === "above") return t("fam.labyrinth.out_above");
  if (p.on === "below") return t("fam.labyrinth.below", { rc: `(${p.r}, ${p.c})` });
  return `(${p.r}, ${p.c})`;
}

/**
 * @param {{rows: number, cols: number, tiles: ArrayLike<number>, free: number,
 *          player: {r: number, c: number, on: string} | null, places?: number[][]}} state
 * @param {string} label
 * @returns {HTMLCanvasElement}
 */
export function labyrinthMini(state, label) {
  const { rows, cols } = state;
  const w = TILE_PX * (cols + 2);
  const h = TILE_PX * (rows + 2);
  const dpr = window.devicePixelRatio || 1;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  canvas.className = "labyrinth-mini";
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", label);
  const ctx = canvas.getContext("2d");
  if (!ctx) return canvas;
  ctx.scale(dpr, dpr);
  const u = TILE_PX;
  const tile = (code, x, y) => {
    ctx.fillStyle = "#2b3037";
    ctx.fillRect(x + 0.5, y + 0.5, u - 1, u - 1);
    const [left, top, right, bottom] = openSides(code);
    ctx.fillStyle = "#f4efe3";
    const m = u / 2;
    const t = Math.max(2, u * 0.34);
    ctx.fillRect(x + m - t / 2, y + m - t / 2, t, t);
    if (left) ctx.fillRect(x, y + m - t / 2, m, t);
    if (right) ctx.fillRect(x + m, y + m - t / 2, m, t);
    if (top) ctx.fillRect(x + m - t / 2, y, t, m);
    if (bottom) ctx.fillRect(x + m - t / 2, y + m, t, m);
  };
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) tile(state.tiles[r * cols + c], (c + 1) * u, (r + 1) * u);
  tile(state.free, (cols + 1) * u, 0); // the tile in hand, top right
  const dot = (r, c) => {
    ctx.fillStyle = "#e69f00";
    ctx.beginPath();
    ctx.arc((c + 1.5) * u, (r + 1.5) * u, u * 0.3, 0, 2 * Math.PI);
    ctx.fill();
  };
  if (state.player) dot(Math.max(-1, Math.min(rows, state.player.r)), state.player.c);
  else for (const [r, c] of state.places || []) dot(r, c);
  return canvas;
}
