// Where the step-cycle view puts its boards on the canvas: the maze with one mark per phase in each
// cell ("board"), and the state space as one small board per phase ("layers"), or both side by side.
// Pure geometry: sizes in CSS px, no drawing.

export const MODES = ["both", "board", "layers"];

const MAIN_MARGIN = 0.5; // cell units around the maze (the solution's jumps bulge into it)
const MAX_UNIT = 110; // the largest cell, px
const LAYER_RATIO = [0.45, 0.55, 0.65, 0.8, 1]; // layer cell / maze cell, tried in "both"

/**
 * @param {{width, height, top, rows, cols, P, mode, titleH}} args  the canvas (CSS px), the area's
 *   top (below the caption), the board's size, the number of phases, the mode and the height of a
 *   board's title (px).
 * @returns {{main: {x, y, u, titleY} | null, layers: [{x, y, u, titleY, p}], unit, layerUnit}}
 */
export function computeLayout({ width, height, top, rows, cols, P, mode, titleH }) {
  const pad = 10;
  const W = Math.max(1, width - 2 * pad);
  const H = Math.max(1, height - top - pad);
  const gap = 14;
  const candidates = [];

  const layerBlock = (nc, u2) => {
    const nr = Math.ceil(P / nc);
    return { nc, nr, w: nc * cols * u2 + (nc - 1) * gap, h: nr * (rows * u2 + titleH) + (nr - 1) * gap };
  };

  if (mode === "board" || P < 1) {
    const u = Math.min(MAX_UNIT, W / (cols + 2 * MAIN_MARGIN), mainFit(H, 0, rows, titleH));
    candidates.push({ u, u2: 0, side: null, nc: 0 });
  } else if (mode === "layers") {
    for (let nc = 1; nc <= P; nc++) {
      const nr = Math.ceil(P / nc);
      const u2 = Math.min(MAX_UNIT, (W - (nc - 1) * gap) / (nc * cols), (H - nr * titleH - (nr - 1) * gap) / (nr * rows));
      candidates.push({ u: 0, u2, side: null, nc, score: u2 });
    }
  } else {
    for (const side of ["right", "below"]) {
      for (let nc = 1; nc <= P; nc++) {
        const nr = Math.ceil(P / nc);
        for (const ratio of LAYER_RATIO) {
          // Both boards scale with u: solve the linear constraints for the largest u that fits.
          const mw = cols + 2 * MAIN_MARGIN;
          const lw = nc * cols * ratio;
          const lh = nr * rows * ratio;
          const fixedW = (nc - 1) * gap;
          const fixedH = nr * titleH + (nr - 1) * gap;
          let u;
          if (side === "right") {
            u = Math.min((W - gap - fixedW) / (mw + lw), mainFit(H, 0, rows, titleH), (H - fixedH) / lh);
          } else {
            u = Math.min(W / mw, (W - fixedW) / lw, mainFit(H - gap - fixedH, lh, rows, titleH));
          }
          u = Math.min(MAX_UNIT, u);
          if (!(u > 0)) continue;
          const u2 = u * ratio;
          // Both readable: the smaller of (maze cell, twice the layer cell) counts most.
          const score = Math.min(u, 1.8 * u2) + 0.15 * u + 0.1 * u2;
          candidates.push({ u, u2, side, nc, score });
        }
      }
    }
  }
  // No room at all (a canvas in a hidden or collapsed box): an empty layout, drawn as nothing.
  if (!candidates.length) candidates.push({ u: 0, u2: 0, side: "below", nc: 1, score: 0 });
  const best = candidates.reduce((a, b) => ((b.score ?? 0) > (a.score ?? 0) ? b : a), candidates[0]);
  const u = Math.max(0, best.u);
  const u2 = Math.max(0, best.u2);

  // Sizes of the two blocks, then centre them (together) in the area.
  // The maze's title sits in its top margin when that is tall enough.
  const mainTop = Math.max(titleH, MAIN_MARGIN * u);
  const main = mode === "layers" ? null : { w: (cols + 2 * MAIN_MARGIN) * u, h: mainTop + (rows + MAIN_MARGIN) * u };
  const block = mode === "board" ? null : layerBlock(best.nc, u2);
  let totalW, totalH;
  if (main && block) {
    totalW = best.side === "right" ? main.w + gap + block.w : Math.max(main.w, block.w);
    totalH = best.side === "right" ? Math.max(main.h, block.h) : main.h + gap + block.h;
  } else {
    const only = main || block;
    totalW = only.w;
    totalH = only.h;
  }
  const x0 = pad + Math.max(0, (W - totalW) / 2);
  const y0 = top + Math.max(0, (H - totalH) / 2);

  let mainOut = null;
  let bx = x0;
  let by = y0;
  if (main) {
    const my = block && best.side === "right" ? y0 + Math.max(0, (totalH - main.h) / 2) : y0;
    const mx = block && best.side !== "right" ? x0 + (totalW - main.w) / 2 : x0;
    mainOut = { x: mx + MAIN_MARGIN * u, y: my + mainTop, u, titleY: my };
    if (best.side === "right") bx = x0 + main.w + gap;
    else by = y0 + main.h + gap;
  }
  const layers = [];
  if (block) {
    const bw = block.w;
    const bh = block.h;
    if (main && best.side === "right") by = y0 + Math.max(0, (totalH - bh) / 2);
    if (main && best.side !== "right") bx = x0 + (totalW - bw) / 2;
    for (let p = 0; p < P; p++) {
      const col = p % block.nc;
      const row = Math.floor(p / block.nc);
      const lx = bx + col * (cols * u2 + gap);
      const ly = by + row * (rows * u2 + titleH + gap);
      layers.push({ x: lx, y: ly + titleH, u: u2, titleY: ly, p });
    }
  }
  return { main: mainOut, layers, unit: u, layerUnit: u2, margin: MAIN_MARGIN };
}

/**
 * The largest maze cell whose board (title or top margin, rows, bottom margin) and `extraRows` more
 * rows of cells fit a height H: max(titleH, M·u) + (rows + M + extraRows)·u <= H.
 */
function mainFit(H, extraRows, rows, titleH) {
  return Math.min((H - titleH) / (rows + MAIN_MARGIN + extraRows), H / (rows + 2 * MAIN_MARGIN + extraRows));
}

/**
 * The marks of P phases inside a cell of `u` px: rows and columns of small squares in the cell's
 * lower part, the start/goal letter above them. Returns {w, h, centres: [[dx, dy], …], badge: {cx, cy, size}}.
 */
export function markLayout(u, P) {
  const rowsN = P <= 4 ? 1 : Math.ceil(P / 4);
  const colsN = Math.ceil(P / rowsN);
  const pad = Math.max(1.5, u * 0.06);
  const gap = Math.max(1, u * (P <= 4 ? 0.045 : 0.035));
  const areaTop = rowsN === 1 ? u * 0.46 : u * 0.34;
  const areaH = u - pad - areaTop;
  const w = (u - 2 * pad - (colsN - 1) * gap) / colsN;
  const h = Math.min(w * 1.25, (areaH - (rowsN - 1) * gap) / rowsN);
  const usedH = rowsN * h + (rowsN - 1) * gap;
  const y0 = u - pad - usedH;
  const centres = [];
  for (let p = 0; p < P; p++) {
    const row = Math.floor(p / colsN);
    const col = p % colsN;
    centres.push([pad + col * (w + gap) + w / 2, y0 + row * (h + gap) + h / 2]);
  }
  const badgeSize = Math.max(6, Math.min(y0 - pad * 1.2, u * 0.42));
  return { w, h, centres, badge: { cx: u / 2, cy: pad * 0.6 + badgeSize / 2, size: badgeSize } };
}
