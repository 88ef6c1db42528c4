// @ts-check
// A sliding-tile board drawn small (a canvas of 22 CSS px a tile), for the lists that name states by
// their boards: Predict's choices and explain mode's frontier (SlidingView.stateFigure). Tiles on
// their goal cell are tinted green, as on the big board; the canvas's label is the board in the
// family's notation (rows, "_" the blank), so a screen reader and a test read what is drawn.

const TILE_PX = 22;

/**
 * @param {ArrayLike<number>} tiles
 * @param {ArrayLike<number>} goal
 * @param {number} n
 * @param {string} label  the board in words (SlidingView.stateLabel)
 * @returns {HTMLCanvasElement}
 */
export function smallBoard(tiles, goal, n, label) {
  const px = TILE_PX * n; // CSS px
  const dpr = window.devicePixelRatio || 1;
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(px * dpr);
  canvas.height = Math.round(px * dpr);
  canvas.className = `sliding-mini sliding-mini-${n}`;
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", label);
  canvas.dataset.tiles = Array.from(tiles).join(",");
  const ctx = canvas.getContext("2d");
  if (!ctx) return canvas;
  ctx.scale(dpr, dpr);
  const unit = px / n;
  ctx.fillStyle = "#2b3037";
  ctx.fillRect(0, 0, px, px);
  ctx.font = `700 ${Math.round(unit * 0.6)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (let cell = 0; cell < n * n; cell++) {
    const t = tiles[cell];
    if (!t) continue;
    const x = (cell % n) * unit;
    const y = Math.floor(cell / n) * unit;
    ctx.fillStyle = goal[cell] === t ? "#bfe6cf" : "#f7f1e3";
    ctx.fillRect(x + 0.75, y + 0.75, unit - 1.5, unit - 1.5);
    ctx.fillStyle = "#15171b";
    ctx.fillText(String(t), x + unit / 2, y + unit / 2 + 0.5);
  }
  return canvas;
}

/**
 * A board in the family's notation: its rows, "_" for the blank: "7 2 4 / 5 _ 6 / 8 3 1" (the
 * server's SlidingFamily.json_text writes the same).
 * @param {ArrayLike<number>} tiles
 * @param {number} n
 * @returns {string}
 */
export function boardText(tiles, n) {
  const rows = [];
  for (let r = 0; r < n; r++) {
    const row = [];
    for (let c = 0; c < n; c++) row.push(tiles[r * n + c] ? String(tiles[r * n + c]) : "_");
    rows.push(row.join(" "));
  }
  return rows.join(" / ");
}
