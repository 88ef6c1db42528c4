// The shifting-tile labyrinth's data, as the page sees it: tile codes and their open sides, and the
// board states that arrive in three shapes (puzzle info, frame snapshots, result path) turned into one:
// {rows, cols, tiles: Uint8Array row-major, free, player: {r, c, on}}. No drawing here.

// Open sides [left, top, right, bottom] of codes 0..11 (PUZZLES.md §3; 10 all open, 11 none).
const SIDES = [
  [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0],
  [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0], [0, 1, 1, 1],
  [0, 1, 0, 1], [1, 0, 1, 0], [1, 1, 1, 1], [0, 0, 0, 0],
];

export const SHAPES = "┌┐└┘┬┤┴├│─┼ ";

export const openSides = (code) => SIDES[code] || SIDES[11];

/** "below" under the board (row = rows), "above" over it (row = -1), else "board". */
function placeOf(r, rows) {
  if (r >= rows) return "below";
  if (r < 0) return "above";
  return "board";
}

/** The puzzle info's starting board: the player waits below the start column. */
export function initialState(info) {
  const tiles = Uint8Array.from(info.board.flat());
  return {
    rows: info.rows, cols: info.cols, tiles, free: info.free_tile,
    player: { r: info.rows, c: info.start_col, on: "below" },
  };
}

/**
 * A frame snapshot {board: bytes, free, player: [r, c] | null, on}. The merged view ("sets") sends no
 * player (on: "set"): the state is a set of places, which the snapshot does not list.
 */
export function snapshotState(snap, rows, cols) {
  if (!Array.isArray(snap.player)) return { rows, cols, tiles: snap.board, free: snap.free, player: null };
  const [r, c] = snap.player;
  return { rows, cols, tiles: snap.board, free: snap.free, player: { r, c, on: snap.on || placeOf(r, rows) } };
}

/** A result path entry {player: [r, c], on, free, board: "2847/4561/…"} (one digit per tile). */
export function pathState(entry) {
  const lines = entry.board.split("/");
  const rows = lines.length;
  const cols = lines[0].length;
  const tiles = new Uint8Array(rows * cols);
  lines.forEach((line, r) => {
    for (let c = 0; c < cols; c++) tiles[r * cols + c] = line.charCodeAt(c) - 48;
  });
  const [r, c] = entry.player;
  return { rows, cols, tiles, free: entry.free, player: { r, c, on: entry.on || placeOf(r, rows) } };
}

/** The cells of one line (row or column) in push order: index 0 is where the tile goes in. */
export function lineCells(push, rows, cols) {
  const cells = [];
  if (push.axis === "row") {
    for (let k = 0; k < cols; k++) cells.push([push.index, push.side === "left" ? k : cols - 1 - k]);
  } else {
    for (let k = 0; k < rows; k++) cells.push([push.side === "top" ? k : rows - 1 - k, push.index]);
  }
  return cells;
}

/** The unit step a push moves its line by, as [dr, dc]. */
export function pushDirection(push) {
  return {
    left: [0, 1], right: [0, -1], top: [1, 0], bottom: [-1, 0],
  }[push.side] || [0, 0];
}

/** Where the player stands once `move`'s push is done (the walk starts there). */
export function placeAfterPush(move, after) {
  if (move.walk && move.walk.length) {
    const [r, c] = move.walk[0];
    return { r, c, on: placeOf(r, after.rows) };
  }
  return { ...after.player };
}
