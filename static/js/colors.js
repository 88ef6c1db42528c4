// The board's colours, in one place for the renderer and the legend: the Okabe–Ito palette
// (distinguishable with the common colour-vision deficiencies) and the viridis ramp for scores.

/** Every board's background, the canvas's and the tiled viewer's (app.css paints the board's box the same): switching families does not flash. */
export const BOARD_BACKGROUND = "#e4e1d9";

export const OKABE_ITO = {
  black: "#000000",
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
};

export const COLORS = {
  wall: "#1f2328",
  free: "#f6f4ef",
  heavy: "#b3aa98", // a free cell of weight 9; lighter weights in between
  open: OKABE_ITO.reddishPurple, // frontier
  update: OKABE_ITO.orange, // a frontier cell that got a cheaper g
  openBack: OKABE_ITO.blue, // dark against the light back-expanded cells and the ramp's green end
  closedBack: OKABE_ITO.skyBlue,
  path: OKABE_ITO.vermillion,
  current: OKABE_ITO.black,
  start: OKABE_ITO.blue,
  goal: OKABE_ITO.vermillion,
  // A state-space chart: a bin with no state expanded. Light enough that the palest lit
  // bin (orange) is darker in a greyscale picture too (WCAG 1.4.1), dark enough to show on the board.
  spaceUnlit: "#cdc7ba",
};

// viridis sampled at 0, 0.1, …, 1 (matplotlib's table).
const VIRIDIS = [
  "#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c",
  "#22a884", "#44bf70", "#7ad151", "#bddf26", "#fde725",
];
// The dark purple end is left out: next to dark walls it would hide the corridors.
const RAMP_FROM = 0.25;

export function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Pack an RGB triple as one ImageData pixel seen through a Uint32Array (little-endian: ABGR). */
function packRgb([r, g, b]) {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

export const packHex = (hex) => packRgb(hexToRgb(hex));

export function mix(a, b, t) {
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * t));
}

/** The score ramp at t in [0, 1] (0 = near the start), as RGB. */
export function rampRgb(t) {
  const x = (RAMP_FROM + (1 - RAMP_FROM) * Math.min(1, Math.max(0, t))) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  return mix(hexToRgb(VIRIDIS[i]), hexToRgb(VIRIDIS[i + 1]), x - i);
}

export const rampCss = (t) => `rgb(${rampRgb(t).join(",")})`;

/** A 256-entry lookup table of packed ramp colours. */
export function rampTable() {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) table[i] = packRgb(rampRgb(i / 255));
  return table;
}

/** Packed colours of the ten cell bytes: 0 = wall, 1..9 = free, shaded darker by weight. */
export function baseTable() {
  const table = new Uint32Array(10);
  table[0] = packHex(COLORS.wall);
  const free = hexToRgb(COLORS.free);
  const heavy = hexToRgb(COLORS.heavy);
  for (let w = 1; w <= 9; w++) table[w] = packRgb(mix(free, heavy, (w - 1) / 8));
  return table;
}

/** Relative luminance of a packed colour, to choose black or white text on it. */
export function luminance(packed) {
  const r = packed & 255, g = (packed >> 8) & 255, b = (packed >> 16) & 255;
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}
