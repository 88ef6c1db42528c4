// The page shell: upload (picker, drag and drop), the gallery, the algorithm menu, the options form
// built from the puzzle family's schema, run/stop, status, progress and errors, the trace player's
// controls and the stats every family shares. What a family draws and adds is its view's
// (static/js/families/): the shell picks the view class by the puzzle's `family` and talks to it
// only through the interface documented in families/index.js.

import * as api from "./api.js";
import { el } from "./dom.js";
import { viewClassFor } from "./families/index.js";
import { setNumber, seconds, withCommas } from "./format.js";
import { Live } from "./live.js";
import { OptionsForm } from "./options_form.js";
import { DEFAULT_SPEED, Player, sliderFromSpeed, speedFromSlider, speedLabel } from "./player.js";
import { Timeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);

const app = {
  algorithms: [], // GET /api/algorithms
  families: new Map(), // family name -> its schema entry (GET /api/families)
  puzzle: null, // puzzle info from the API
  view: null, // the family view showing the puzzle
  views: new Map(), // family name -> its view: made on first use, kept for the next puzzle
  menuChoice: new Map(), // family name -> the algorithm last selected for it
  formFamily: null, // the family the options form is built for
  loadToken: 0, // the latest puzzle load; older ones are dropped when they finish
  run: null, // {id, algorithm, result, records, finished}
};

const timeline = new Timeline();
const player = new Player({ timeline, onChange: updatePlayerControls });
const live = new Live({ onConnection: connectionChanged });
const form = new OptionsForm({
  section: $("family-options"),
  title: $("family-options-title"),
  body: $("family-options-body"),
  shared: $("algorithm-options"),
  onChange: optionChanged,
});
// Where a family view puts its own panels.
const hosts = { left: $("family-panel-left"), right: $("family-panel-right"), banner: $("family-banner") };

// What a family view may ask of the page.
const shell = {
  option: (name) => form.get(name),
  setOption: (name, value) => form.set(name, value),
  showError,
  setBusy,
  setHover: (text) => { $("hover").textContent = text; },
  toolsWidth: () => $("board-tools").offsetWidth + 8, // CSS px the zoom buttons cover
};

// ---- status, errors, progress ------------------------------------------------------------------

function setStatus(text, tone = "idle") {
  $("status").textContent = text;
  $("status-dot").className = `status-dot tone-${tone}`;
}

function showError(message) {
  const banner = $("error");
  banner.textContent = message;
  banner.hidden = !message;
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

// ---- algorithm menu and options ----------------------------------------------------------------

function currentAlgorithm() {
  return app.algorithms.find((a) => a.name === $("algorithm").value) || null;
}

/** The menu for a family: `names` in order; the family's last choice, else the current one if offered. */
function fillAlgorithmMenu(family, names) {
  const select = $("algorithm");
  const previous = select.value;
  const labels = new Map(app.algorithms.map((a) => [a.name, a.label]));
  select.replaceChildren(...names.map((name) => new Option(labels.get(name) || name, name)));
  const remembered = app.menuChoice.get(family);
  select.value = names.includes(remembered) ? remembered : names.includes(previous) ? previous : names[0] || "";
}

/** The options form for a family (rebuilt only when the family changes: choices survive puzzles). */
function useFamilyForm(family, View) {
  if (app.formFamily === family.name) return;
  form.build(family, View?.formLayout);
  app.formFamily = family.name;
}

function algorithmChanged() {
  const algorithm = currentAlgorithm();
  $("algorithm-summary").textContent = algorithm ? algorithm.summary : "";
  form.showFor($("algorithm").value);
  if (app.puzzle) app.menuChoice.set(app.puzzle.family, $("algorithm").value);
}

function optionChanged(name, value) {
  app.view?.optionChanged(name, value, form);
}

// ---- loading a puzzle --------------------------------------------------------------------------

/** The view for a family: one instance each, with its own canvas; null for a family we cannot show. */
function viewFor(family) {
  if (app.views.has(family)) return app.views.get(family);
  const View = viewClassFor(family);
  if (!View || !app.families.has(family)) return null;
  const canvas = el("canvas", { testid: "canvas", "aria-label": "Maze board" });
  const view = new View({ canvas, hosts, timeline, player, shell });
  app.views.set(family, view);
  return view;
}

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
    const view = viewFor(info.family);
    if (!view) throw new api.ApiError(`it is a ${info.family} puzzle, which this page cannot show.`);
    const data = await view.prepare(info);
    if (token !== app.loadToken) return;
    showPuzzle(info, view, data);
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

/** Hand the board to `view` for a new puzzle: the old view leaves first (and stops drawing). */
function showPuzzle(info, view, data) {
  if (app.view) {
    app.view.leave();
    app.view.canvas.remove();
  }
  $("hover").textContent = "";
  app.puzzle = info;
  app.view = view;
  $("board").prepend(view.canvas);
  $("board-tools").classList.toggle("unused", typeof view.zoomBy !== "function");
  document.querySelector(".layout").classList.toggle("wide-right", Boolean(view.wideRight));
  useFamilyForm(app.families.get(info.family), view.constructor);
  form.applyPuzzle(info.options);
  fillAlgorithmMenu(info.family, info.algorithms || app.families.get(info.family).algorithms || []);
  algorithmChanged();
  timeline.reset();
  view.enter(info, data);
  const target = view.playerTarget();
  player.attach(target.state, target.renderer);
  showPuzzleInfo(info);
  updateLegend();
}

/** What every family shows of a new puzzle: name, notes, size, empty stats. */
function showPuzzleInfo(info) {
  $("empty").hidden = true;
  $("puzzle-name").textContent = info.name;
  $("run").disabled = false;
  for (const button of document.querySelectorAll("#gallery button")) {
    button.classList.toggle("active", button.dataset.name === info.galleryName);
  }
  $("notes").replaceChildren(...(info.notes || []).map((note) => el("p", { text: note })));
  $("notes-box").hidden = !(info.notes || []).length;
  $("maze-size").textContent = `${info.width} × ${info.height}`;
  if ("weighted" in info) {
    $("maze-size").title = info.weighted ? "some cells cost more than 1 to enter" : "every cell costs 1 to enter";
  } else $("maze-size").removeAttribute("title");
  resetStats();
}

function updateLegend() {
  if (!app.view) return;
  app.view.legend($("legend"), { algorithm: app.run ? app.run.algorithm : $("algorithm").value });
}

// ---- gallery and upload ------------------------------------------------------------------------

function fillGallery(entries) {
  const list = $("gallery");
  list.replaceChildren(...entries.map((entry) => {
    // The protocol promises width and height; show them when the server sends them.
    const size = entry.width && entry.height ? `${entry.width} × ${entry.height}` : "";
    const button = el("button", {
      type: "button", "data-name": entry.name, title: entry.description || entry.title,
      on: {
        click: () => loadPuzzle(async () => ({ ...(await api.loadGalleryPuzzle(entry.name)), galleryName: entry.name }),
          "loading", `“${entry.title}”`),
      },
    }, el("span", { text: entry.title }), el("small", { text: size }));
    return el("li", {}, button);
  }));
  if (!entries.length) list.append(el("li", { class: "muted", text: "No bundled mazes." }));
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

/** The file picker offers what some family reads; the button's tooltip says what each expects. */
function describeUploads(families) {
  const accept = new Set(families.flatMap((family) => family.accept || []));
  $("upload").accept = [...accept].join(",");
  const expects = families.map((family) => family.expects).filter(Boolean);
  if (expects.length) $("upload-label").title = `Open ${expects.join("; or ")}`;
}

// ---- runs --------------------------------------------------------------------------------------

function resetStats() {
  for (const id of ["cost", "expanded", "generated", "max-frontier", "path-length", "records"]) setNumber($(id), null);
  $("seconds").textContent = "—";
  $("seconds").classList.add("none");
  const verdict = $("optimal");
  verdict.textContent = "";
  verdict.className = "verdict";
  verdict.removeAttribute("title");
}

function cancelRun() {
  if (app.run && !app.run.finished) live.cancel(app.run.id);
  app.run = null;
  $("cancel").hidden = true;
}

function startRun() {
  const view = app.view;
  if (!app.puzzle || !view) return;
  const notReady = view.checkReady();
  if (notReady) {
    showError(notReady);
    return;
  }
  cancelRun();
  showError("");
  timeline.reset();
  player.rewind();
  resetStats();
  const algorithm = $("algorithm").value;
  const options = form.values(algorithm, view.viewOptions());
  app.run = { id: null, algorithm, result: null, records: null, finished: false };
  const run = app.run;
  run.id = live.start(
    { puzzle: app.puzzle.id, algorithm, options },
    {
      onStatus: (msg) => run === app.run && runStatus(msg),
      onFrame: (frame, msg) => run === app.run && runFrame(frame, msg),
      onDone: (msg) => run === app.run && runDone(msg),
      onError: (error) => run === app.run && finishRunWithError(error),
    },
  );
  view.runStarted(run.id);
  updateLegend();
  setStatus("starting…", "busy");
  setBusy("starting…");
  setProgress("indeterminate");
  $("cancel").hidden = false;
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

function runFrame(frame, msg) {
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
  app.view.frame(msg);
  if (app.run.records !== null) maybeFinish();
  if (!player.playing) updatePlayerControls(); // playing, the player updates them every frame
}

function runDone(msg) {
  app.run.result = msg.result;
  app.run.records = msg.records;
  timeline.expected = msg.records;
  showResult(msg.result, msg.records);
  app.view.result(msg.result);
  maybeFinish();
  updatePlayerControls();
}

/** "done" only once the whole trace is here, not merely computed. */
function maybeFinish() {
  const run = app.run;
  if (run.finished || timeline.length < run.records) return;
  run.finished = true;
  app.view.traceComplete();
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
  verdict.title = `${app.view.describeRule(used)}${used.heuristic ? `, heuristic ${used.heuristic}` : ""}` +
    `${used.weight && used.weight !== 1 ? `, weight ${used.weight}` : ""}`;
}

// ---- player controls ---------------------------------------------------------------------------

let scrubbing = false;

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
  $("run").addEventListener("click", startRun);
  $("cancel").addEventListener("click", () => {
    cancelRun();
    player.pause();
    setStatus("cancelled", "idle");
    setBusy(null);
    setProgress(null);
  });
  $("fit").addEventListener("click", () => app.view?.fit?.());
  $("zoom-in").addEventListener("click", () => app.view?.zoomBy?.(1.5));
  $("zoom-out").addEventListener("click", () => app.view?.zoomBy?.(1 / 1.5));
  $("large-text").addEventListener("click", (event) => {
    const on = document.documentElement.classList.toggle("large");
    event.currentTarget.setAttribute("aria-pressed", String(on));
    app.view?.refit?.();
    try { localStorage.setItem("largeText", on ? "1" : ""); } catch { /* private mode */ }
  });
  try {
    if (localStorage.getItem("largeText")) $("large-text").click();
  } catch { /* private mode */ }
}

async function init() {
  bindPanels();
  bindPlayer();
  bindUpload();
  setStatus("loading", "busy");
  try {
    const [algorithms, families, gallery] = await Promise.all([api.getAlgorithms(), api.getFamilies(), api.getGallery()]);
    if (!Array.isArray(families)) throw new api.ApiError("The server sent its puzzle families in a form this page does not read.");
    app.algorithms = algorithms;
    app.families = new Map(families.map((family) => [family.name, family]));
    describeUploads(families);
    // Until a puzzle is open, the menu and the form are the first family's.
    const first = families[0];
    if (first) {
      useFamilyForm(first, viewClassFor(first.name));
      fillAlgorithmMenu(first.name, first.algorithms || []);
    }
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
