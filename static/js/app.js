// The page controller: wires the panels (mazes, algorithm, start/goal picking, player, stats) to
// the API, the live connection, the timeline, the player and the renderer.

import * as api from "./api.js";
import { setNumber, seconds, withCommas } from "./format.js";
import { GridRenderer } from "./grid_renderer.js";
import { GridState } from "./grid_state.js";
import { LabyrinthView } from "./labyrinth_view.js";
import { renderLegend } from "./legend.js";
import { Live } from "./live.js";
import { Player, sliderFromSpeed, speedFromSlider, speedLabel } from "./player.js";
import { Timeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_SPEED = 1500; // steps/s: a 50 x 50 maze's BFS plays in a few seconds

const app = {
  algorithms: [],
  families: {},
  puzzle: null, // puzzle info from the API
  cells: null, // Uint8Array
  state: null, // GridState
  picked: { start: null, goal: null }, // flat cell indices chosen by clicking
  pickMode: "off", // "off" | "start" | "goal"
  loadToken: 0, // the latest puzzle load; older ones are dropped when they finish
  run: null, // {id, algorithm, result, records, finished}
};

const timeline = new Timeline();
const renderer = new GridRenderer($("canvas"));
renderer.toolsWidth = $("board-tools").offsetWidth + 8;
const player = new Player({ timeline, onChange: updatePlayerControls });
const live = new Live({ onConnection: connectionChanged });
const labyrinth = new LabyrinthView({ canvas: $("canvas"), socket: live.socket, timeline, player, speed: () => player.speed });
// One canvas, two renderers: the grid's stays quiet while a labyrinth has the board.
const drawGrid = renderer.drawNow.bind(renderer);
renderer.drawNow = () => {
  if (labyrinth.active) renderer.drawPending = false;
  else drawGrid();
};

// ---- status, errors, progress ------------------------------------------------------------------

function setStatus(text, tone = "idle") {
  $("status").textContent = text;
  $("status-dot").className = `status-dot tone-${tone}`;
}

function showError(message) {
  const el = $("error");
  el.textContent = message;
  el.hidden = !message;
}

/** The spinner over the board: text, or null to hide it. */
function setBusy(text) {
  $("busy").hidden = text === null;
  $("busy-text").textContent = text || "";
}

/** The bar under the board: a fraction in [0, 1], "indeterminate", or null to hide it. */
function setProgress(value) {
  const bar = $("progress");
  bar.hidden = value === null;
  bar.classList.toggle("indeterminate", value === "indeterminate");
  $("progress-bar").style.width = typeof value === "number" ? `${Math.round(value * 100)}%` : "";
}

function connectionChanged(connected) {
  if (!connected && app.run && !app.run.finished) {
    finishRunWithError("Lost the connection to the server. Run the search again.");
  }
}

// ---- algorithm panel ---------------------------------------------------------------------------

function currentAlgorithm() {
  return app.algorithms.find((a) => a.name === $("algorithm").value) || null;
}

function fillHeuristics() {
  const grid = app.families.grid || {};
  const names = $("diagonal").checked ? grid.heuristics_diagonal || grid.heuristics || [] : grid.heuristics || [];
  // The server lists the recommended heuristic first for each move rule (octile for diagonal moves;
  // manhattan would overestimate there), so a change of rule selects it.
  $("heuristic").replaceChildren(...names.map((name) => new Option(name, name)));
}

function algorithmChanged() {
  const algorithm = currentAlgorithm();
  $("algorithm-summary").textContent = algorithm ? algorithm.summary : "";
  $("opt-heuristic").hidden = !algorithm?.uses_heuristic;
  $("opt-weight").hidden = !algorithm?.uses_weight;
}

function runOptions() {
  const algorithm = currentAlgorithm();
  if (labyrinth.active) return labyrinth.runOptions(algorithm);
  const toRC = (cell) => (cell === null ? null : [Math.floor(cell / app.puzzle.width), cell % app.puzzle.width]);
  const weight = parseFloat($("weight").value);
  return {
    heuristic: algorithm?.uses_heuristic ? $("heuristic").value : "",
    weight: algorithm?.uses_weight && Number.isFinite(weight) ? weight : 1.0,
    diagonal: $("diagonal").checked,
    start: toRC(app.picked.start),
    goal: toRC(app.picked.goal),
  };
}

// ---- loading a puzzle --------------------------------------------------------------------------

/** Load a puzzle (fetchInfo resolves to its info); `what` names it in error messages. */
async function loadPuzzle(fetchInfo, label, what) {
  const token = ++app.loadToken;
  cancelRun();
  showError("");
  setStatus(label, "busy");
  setBusy(label);
  setProgress("indeterminate");
  try {
    const info = await fetchInfo();
    if (token !== app.loadToken) return;
    if (info.family === "labyrinth") {
      showLabyrinth(info);
      setStatus("ready", "idle");
      return;
    }
    if (info.family && info.family !== "grid") {
      throw new api.ApiError(`it is a ${info.family} puzzle, and this page draws grid mazes only.`);
    }
    setBusy("loading cells…");
    const cells = await api.getCells(info.id);
    if (token !== app.loadToken) return;
    if (cells.length !== info.width * info.height) throw new api.ApiError("The maze's cells did not arrive complete.");
    showPuzzle(info, cells);
    setStatus("ready", "idle");
  } catch (err) {
    if (token !== app.loadToken) return;
    const reason = err instanceof api.ApiError ? err.message : "something went wrong while loading it.";
    showError(`Could not open ${what}: ${reason}`);
    setStatus(app.puzzle ? "ready" : "error", app.puzzle ? "idle" : "error");
    if (!(err instanceof api.ApiError)) console.warn(err);
  } finally {
    if (token === app.loadToken) {
      setBusy(null);
      setProgress(null);
    }
  }
}

function showPuzzle(info, cells) {
  if (labyrinth.active) {
    labyrinth.leave();
    fillHeuristics();
    algorithmChanged();
  }
  app.puzzle = info;
  app.cells = cells;
  app.state = new GridState(info.width, info.height);
  app.picked = { start: null, goal: null };
  timeline.reset();
  renderer.setMaze(info.width, info.height, cells, app.state);
  player.attach(app.state, renderer);
  showPuzzleInfo(info);
  setPickMode(info.endpoint_problem ? "start" : "off");
  updateMarkers();
  updateLegend();
}

/** A labyrinth: its view takes the canvas, the options and the trace player. */
function showLabyrinth(info) {
  app.puzzle = info;
  app.cells = null;
  app.state = null;
  app.picked = { start: null, goal: null };
  timeline.reset();
  setPickMode("off");
  labyrinth.enter(info, app.algorithms);
  algorithmChanged();
  player.attach(labyrinth.search, labyrinth.traceView);
  showPuzzleInfo(info);
}

/** What every family shows of a new puzzle: name, notes, size, empty stats. */
function showPuzzleInfo(info) {
  $("empty").hidden = true;
  $("puzzle-name").textContent = info.name;
  $("run").disabled = false;
  for (const el of document.querySelectorAll("#gallery button")) {
    el.classList.toggle("active", el.dataset.name === info.galleryName);
  }
  $("notes").replaceChildren(...(info.notes || []).map((note) => {
    const p = document.createElement("p");
    p.textContent = note;
    return p;
  }));
  $("notes-box").hidden = !(info.notes || []).length;
  $("maze-size").textContent = `${info.width} × ${info.height}`;
  $("maze-size").title = info.weighted ? "some cells cost more than 1 to enter" : "every cell costs 1 to enter";
  resetStats();
}

function cellOf([r, c]) {
  return r * app.puzzle.width + c;
}

function updateMarkers() {
  if (!app.puzzle || labyrinth.active) return;
  const starts = app.picked.start !== null ? [app.picked.start] : app.puzzle.starts.map(cellOf);
  const goals = app.picked.goal !== null ? [app.picked.goal] : app.puzzle.goals.map(cellOf);
  renderer.setMarkers(starts, goals);
  const banner = $("endpoint-banner");
  const missing = endpointsMissing();
  banner.hidden = !app.puzzle.endpoint_problem || missing.length === 0;
  banner.textContent = app.puzzle.endpoint_problem
    ? `${sentence(app.puzzle.endpoint_problem)} Click a free cell on the maze for the ${missing.join(" and ")}` +
      " (shift-click sets the goal)."
    : "";
  const rc = (cell) => `(${Math.floor(cell / app.puzzle.width)}, ${cell % app.puzzle.width})`;
  const parts = [];
  if (app.picked.start !== null) parts.push(`start ${rc(app.picked.start)}`);
  if (app.picked.goal !== null) parts.push(`goal ${rc(app.picked.goal)}`);
  $("picked").textContent = parts.length ? `Chosen: ${parts.join(", ")}` : "";
  $("clear-picks").hidden = parts.length === 0;
}

/** The server's clause as a sentence: capital first letter, final full stop. */
function sentence(text) {
  const t = text.trim();
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

function endpointsMissing() {
  const missing = [];
  if (app.picked.start === null && !app.puzzle.starts.length) missing.push("start");
  if (app.picked.goal === null && !app.puzzle.goals.length) missing.push("goal");
  return missing;
}

function updateLegend() {
  if (labyrinth.active) return; // the labyrinth's legend is its own
  const algorithm = app.run ? app.run.algorithm : $("algorithm").value;
  renderLegend($("legend"), {
    weighted: Boolean(app.puzzle?.weighted),
    backward: algorithm === "bidirectional",
    scoreMax: timeline.maxValue,
    scoreName: algorithm === "bfs" ? "wave score" : "cost so far",
  });
}

// ---- gallery and upload ------------------------------------------------------------------------

function fillGallery(entries) {
  const list = $("gallery");
  list.replaceChildren(...entries.map((entry) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.name = entry.name;
    button.title = entry.description || entry.title;
    const title = document.createElement("span");
    title.textContent = entry.title;
    const size = document.createElement("small");
    // The protocol promises width and height; show them when the server sends them.
    size.textContent = entry.width && entry.height ? `${entry.width} × ${entry.height}` : "";
    button.append(title, size);
    button.addEventListener("click", () =>
      loadPuzzle(async () => ({ ...(await api.loadGalleryPuzzle(entry.name)), galleryName: entry.name }),
        "loading", `“${entry.title}”`));
    li.append(button);
    return li;
  }));
  if (!entries.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "No bundled mazes.";
    list.append(li);
  }
}

function uploadFile(file) {
  if (!file) return;
  loadPuzzle(() => api.uploadPuzzle(file), "parsing…", file.name);
}

function bindUpload() {
  const input = $("upload");
  input.addEventListener("change", () => {
    uploadFile(input.files[0]);
    input.value = ""; // choosing the same file again must fire `change` again
  });
  const board = $("board");
  const overlay = $("drop-overlay");
  let depth = 0; // dragenter/dragleave fire for every child element
  const hasFiles = (event) => Array.from(event.dataTransfer?.types || []).includes("Files");
  board.addEventListener("dragenter", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  board.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  board.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  board.addEventListener("drop", (event) => {
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    uploadFile(event.dataTransfer.files[0]);
  });
  // A file dropped elsewhere must not make the browser navigate away from the page.
  window.addEventListener("dragover", (event) => event.preventDefault());
  window.addEventListener("drop", (event) => event.preventDefault());
}

// ---- start/goal picking ------------------------------------------------------------------------

function setPickMode(mode) {
  app.pickMode = mode;
  for (const [id, value] of [["pick-off", "off"], ["pick-start", "start"], ["pick-goal", "goal"]]) {
    $(id).setAttribute("aria-pressed", String(mode === value));
  }
  $("canvas").classList.toggle("picking", mode !== "off");
}

function cellClicked(cell, event) {
  if (!app.puzzle || !app.cells) return;
  const which = event.shiftKey ? "goal" : app.pickMode;
  if (which === "off") return;
  if (app.cells[cell] === 0) {
    showError("That cell is a wall: pick a free (light) cell.");
    return;
  }
  showError("");
  app.picked[which] = cell;
  // Guide the user through both clicks when the file decided neither.
  if (which === "start" && app.pickMode === "start" && app.picked.goal === null && !app.puzzle.goals.length) {
    setPickMode("goal");
  }
  updateMarkers();
}

function cellHovered(cell) {
  const el = $("hover");
  if (cell < 0 || !app.puzzle || !app.cells) {
    el.textContent = "";
    return;
  }
  const W = app.puzzle.width;
  const weight = app.cells[cell];
  const parts = [`row ${Math.floor(cell / W)}, col ${cell % W}`, weight === 0 ? "wall" : `cost ${weight}`];
  const status = app.state.status[cell];
  if (status) parts.push(`score ${+app.state.score[cell].toFixed(3)}`);
  el.textContent = parts.join(" · ");
}

// ---- runs --------------------------------------------------------------------------------------

function resetStats() {
  for (const id of ["cost", "expanded", "generated", "max-frontier", "path-length", "records"]) setNumber($(id), null);
  $("seconds").textContent = "—";
  $("seconds").classList.add("none");
  const verdict = $("optimal");
  verdict.textContent = "";
  verdict.className = "verdict";
}

function cancelRun() {
  if (app.run && !app.run.finished) live.cancel(app.run.id);
  app.run = null;
  $("cancel").hidden = true;
}

function startRun() {
  if (!app.puzzle) return;
  const missing = labyrinth.active ? [] : endpointsMissing();
  if (missing.length) {
    showError(`Choose the ${missing.join(" and ")} first: click a free cell on the maze.`);
    setPickMode(missing[0]);
    return;
  }
  cancelRun();
  showError("");
  timeline.reset();
  renderer.setScoreMax(1);
  player.rewind();
  resetStats();
  const algorithm = $("algorithm").value;
  app.run = { id: null, algorithm, result: null, records: null, finished: false, rescaledAt: -Infinity };
  updateLegend();
  setStatus("starting…", "busy");
  setBusy("starting…");
  setProgress("indeterminate");
  $("cancel").hidden = false;
  const run = app.run;
  run.id = live.start(
    { puzzle: app.puzzle.id, algorithm, options: runOptions() },
    {
      onStatus: (msg) => run === app.run && runStatus(msg),
      onFrame: (frame) => run === app.run && runFrame(frame),
      onDone: (msg) => run === app.run && runDone(msg),
      onError: (error) => run === app.run && finishRunWithError(error),
    },
  );
  if (labyrinth.active) labyrinth.runStarted(run.id);
  player.play();
}

function runStatus(msg) {
  if (app.run.finished) return;
  if (msg.phase === "searching") {
    const text = `searching… ${withCommas(msg.done || 0)} expanded`;
    setStatus(text, "busy");
    setBusy(text);
    setProgress("indeterminate");
  } else if (msg.phase === "streaming") {
    const fraction = msg.total ? msg.done / msg.total : 0;
    setStatus(`streaming ${Math.floor(fraction * 100)}%`, "busy");
    setBusy(null);
    setProgress(fraction);
  } else {
    setStatus(msg.message || msg.phase || "working…", "busy");
  }
}

function runFrame(frame) {
  try {
    timeline.addFrame(frame.start, frame.kinds, frame.cells, frame.values);
  } catch (err) {
    console.warn(err);
    finishRunWithError("The search's trace arrived damaged. Run it again.");
    return;
  }
  if (!app.run.finished && app.run.records === null && $("busy").hidden === false) {
    setBusy(null); // the first frames are here: the board speaks for itself now
  }
  // Grow the colour scale with headroom and at most a few times a second: each change recolours
  // every closed cell. Until then, higher scores show in the ramp's top colour.
  const now = performance.now();
  if (timeline.maxValue > renderer.scoreMax && now - app.run.rescaledAt > 250) {
    renderer.setScoreMax(Math.ceil(timeline.maxValue * 1.25));
    app.run.rescaledAt = now;
  }
  if (app.run.records !== null) maybeFinish();
  if (!player.playing) updatePlayerControls(); // playing, the player updates them every frame
}

function runDone(msg) {
  app.run.result = msg.result;
  app.run.records = msg.records;
  timeline.expected = msg.records;
  showResult(msg.result, msg.records);
  if (labyrinth.active) labyrinth.showResult(msg.result);
  maybeFinish();
  updatePlayerControls();
}

/** "done" only once the whole trace is here, not merely computed. */
function maybeFinish() {
  const run = app.run;
  if (run.finished || timeline.length < run.records) return;
  run.finished = true;
  renderer.setScoreMax(timeline.maxValue);
  updateLegend();
  setStatus("done", "done");
  setBusy(null);
  setProgress(null);
  $("cancel").hidden = true;
  player.schedule(); // playback may have been waiting at the end for these records
}

function finishRunWithError(message) {
  if (app.run) app.run.finished = true;
  player.pause(); // what arrived can still be stepped through and played again
  $("cancel").hidden = true;
  setStatus("error", "error");
  setBusy(null);
  setProgress(null);
  showError(message);
}

function showResult(result, records) {
  setNumber($("cost"), result.found ? result.cost : null);
  setNumber($("expanded"), result.expanded);
  setNumber($("generated"), result.generated);
  setNumber($("max-frontier"), result.max_frontier);
  setNumber($("path-length"), result.found ? result.path.length : null);
  setNumber($("records"), records);
  $("seconds").textContent = seconds(result.seconds);
  $("seconds").classList.remove("none");
  const verdict = $("optimal");
  if (!result.found) {
    verdict.textContent = result.stopped ? `stopped: ${result.stopped}` : "no path exists";
    verdict.className = "verdict bad";
  } else if (result.optimal_guaranteed) {
    verdict.textContent = "optimal ✓";
    verdict.className = "verdict good";
  } else {
    verdict.textContent = "not guaranteed optimal ⚠";
    verdict.className = "verdict warn";
  }
  const used = result.options || {};
  const rule = labyrinth.active ? `${used.moves} moves` : used.diagonal ? "8 directions, no corner cutting" : "4 directions";
  verdict.title = `${rule}${used.heuristic ? `, heuristic ${used.heuristic}` : ""}` +
    `${used.weight && used.weight !== 1 ? `, weight ${used.weight}` : ""}`;
}

// ---- player controls ---------------------------------------------------------------------------

function updatePlayerControls() {
  const scrub = $("scrub");
  scrub.max = String(timeline.length);
  if (document.activeElement !== scrub || !scrubbing) scrub.value = String(player.position);
  const total = app.run?.records ?? timeline.length;
  $("position").textContent = `${withCommas(player.position)} / ${withCommas(total)}`;
  $("play").hidden = player.playing;
  $("pause").hidden = !player.playing;
  const nothing = !app.run && timeline.length === 0; // no trace to play yet
  for (const id of ["play", "step", "step-back", "scrub"]) $(id).disabled = nothing;
}

let scrubbing = false;

function bindPlayer() {
  $("play").addEventListener("click", () => player.play());
  $("pause").addEventListener("click", () => player.pause());
  $("step").addEventListener("click", () => player.step(1));
  $("step-back").addEventListener("click", () => player.step(-1));
  const scrub = $("scrub");
  scrub.addEventListener("pointerdown", () => { scrubbing = true; });
  scrub.addEventListener("pointerup", () => { scrubbing = false; });
  scrub.addEventListener("input", () => player.seekSoon(Number(scrub.value)));
  const speed = $("speed");
  const speedChanged = () => {
    const value = speedFromSlider(speed.value);
    player.setSpeed(value);
    $("speed-label").textContent = speedLabel(value);
  };
  speed.value = String(sliderFromSpeed(DEFAULT_SPEED));
  speed.addEventListener("input", speedChanged);
  speed.addEventListener("change", speedChanged);
  speedChanged();

  document.addEventListener("keydown", (event) => {
    const tag = document.activeElement?.tagName;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
    // Space is play/pause everywhere, even on a focused button (whose default would press it
    // again: after clicking Run, space would restart the search). Enter still presses buttons.
    if (event.key === " ") {
      event.preventDefault();
      player.toggle();
    } else if (tag === "BUTTON") {
      return;
    } else if (event.key === "ArrowRight") player.step(event.shiftKey ? 100 : 1);
    else if (event.key === "ArrowLeft") player.step(event.shiftKey ? -100 : -1);
  });
}

// ---- wiring ------------------------------------------------------------------------------------

function bindPanels() {
  $("algorithm").addEventListener("change", () => {
    algorithmChanged();
    if (!app.run) updateLegend();
  });
  $("diagonal").addEventListener("change", fillHeuristics);
  $("run").addEventListener("click", startRun);
  $("cancel").addEventListener("click", () => {
    cancelRun();
    player.pause();
    setStatus("cancelled", "idle");
    setBusy(null);
    setProgress(null);
  });
  $("pick-off").addEventListener("click", () => setPickMode("off"));
  $("pick-start").addEventListener("click", () => setPickMode("start"));
  $("pick-goal").addEventListener("click", () => setPickMode("goal"));
  $("clear-picks").addEventListener("click", () => {
    app.picked = { start: null, goal: null };
    updateMarkers();
  });
  $("fit").addEventListener("click", () => renderer.fit());
  $("zoom-in").addEventListener("click", () => renderer.zoomBy(1.5));
  $("zoom-out").addEventListener("click", () => renderer.zoomBy(1 / 1.5));
  $("large-text").addEventListener("click", (event) => {
    const on = document.documentElement.classList.toggle("large");
    event.currentTarget.setAttribute("aria-pressed", String(on));
    renderer.toolsWidth = $("board-tools").offsetWidth + 8;
    if (renderer.autoFit) renderer.fit();
    try { localStorage.setItem("largeText", on ? "1" : ""); } catch { /* private mode */ }
  });
  try {
    if (localStorage.getItem("largeText")) $("large-text").click();
  } catch { /* private mode */ }
  renderer.onCellClick = cellClicked;
  renderer.onHover = cellHovered;
}

async function init() {
  bindPanels();
  bindPlayer();
  bindUpload();
  updateLegend();
  setStatus("loading", "busy");
  try {
    const [algorithms, families, gallery] = await Promise.all([api.getAlgorithms(), api.getFamilies(), api.getGallery()]);
    app.algorithms = algorithms;
    app.families = families;
    // The grid menu; a puzzle of another family brings its own list (puzzle info `algorithms`).
    $("algorithm").replaceChildren(
      ...algorithms.filter((a) => a.families.includes("grid")).map((a) => new Option(a.label, a.name)),
    );
    fillHeuristics();
    algorithmChanged();
    fillGallery(gallery);
    setStatus("ready", "idle");
    // Open on something to look at, unless the user has already chosen a maze.
    if (gallery.length && app.loadToken === 0) $("gallery").querySelector("button")?.click();
  } catch (err) {
    setStatus("error", "error");
    showError(err instanceof api.ApiError ? err.message : "The page could not start.");
  }
}

init();
