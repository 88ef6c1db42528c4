// The page shell: upload (picker, drag and drop), the gallery, the algorithm menu, the options form
// built from the puzzle family's schema, run/stop, status, progress and errors, the trace player's
// controls (buttons, pace, keyboard), presentation mode, and the figures every family shares, shown
// at the player's position. What a family draws and adds is its view's (static/js/families/): the
// shell picks the view class by the puzzle's `family` and talks to it only through the interface
// documented in families/index.js.

import * as api from "./api.js";
import { CompareView } from "./compare/compare_view.js";
import { el } from "./dom.js";
import { EditHistory } from "./edit/history.js";
import { EditSession } from "./edit/edit_session.js";
import { ExplainPanel } from "./explain/panel.js";
import { viewClassFor } from "./families/index.js";
import { Figures } from "./figures.js";
import { fileMessage, seconds, setNumber, sizeText, withCommas } from "./format.js";
import { Gallery } from "./gallery.js";
import { Live } from "./live.js";
import { GenerateDialog } from "./making/generate_dialog.js";
import { OptionsForm } from "./options_form.js";
import { PRESETS, Player, presetSpeed, sliderFromSpeed, speedFromSlider, speedLabel } from "./player.js";
import { ShareTools } from "./share/share_tools.js";
import { Tally } from "./tally.js";
import { Timeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const NARROW = "(max-width: 1050px)"; // the CSS breakpoint where the panels stack under each other

const app = {
  algorithms: [], // GET /api/algorithms
  families: new Map(), // family name -> its schema entry (GET /api/families)
  puzzle: null, // puzzle info from the API (plus title/description/galleryName from the gallery)
  view: null, // the family view showing the puzzle
  views: new Map(), // family name -> its view: made on first use, kept for the next puzzle
  menuChoice: new Map(), // family name -> the algorithm last selected for it
  formFamily: null, // the family the options form is built for
  loadToken: 0, // the latest puzzle load; older ones are dropped when they finish
  // The run on the board: {id, algorithm, options, signature, text, result, records, streamTotal, finished}.
  run: null,
  stale: false, // the algorithm or an option changed since the run on the board
  resolving: false, // an instant re-solve (after an edit) is under way
  resolveAgain: false, // the board changed again meanwhile: re-solve once more when it ends
  pendingRun: null, // that re-solve's run, gathered off-screen until it is complete
  resolveStarted: 0, // when it started, and when the first change not yet re-solved was made:
  editStamp: null, //   the editing benchmark's clock (document.body.dataset.resolveMs)
};

const timeline = new Timeline();
const tally = new Tally(timeline);
const player = new Player({ timeline, onChange: updatePlayerControls });
const live = new Live({ onConnection: connectionChanged });
const figures = new Figures({ $ });
// Explain mode: the algorithm's code beside the board, following the playhead (static/js/explain/).
const explain = new ExplainPanel({
  panel: $("explain-panel"),
  button: $("explain"),
  timeline,
  onToggle: () => requestAnimationFrame(() => app.view?.refit?.()),
});
const form = new OptionsForm({
  section: $("family-options"),
  title: $("family-options-title"),
  body: $("family-options-body"),
  shared: $("algorithm-options"),
  onChange: optionChanged,
});
const gallery = new Gallery({
  dialog: $("gallery-dialog"),
  list: $("gallery"),
  close: $("gallery-close"),
  onChoose: (entry) => openGalleryEntry(entry, true),
});
// "New…": a puzzle made by one of the server's generators (static/js/making/generate_dialog.js),
// its making animated by the view when asked (and the view can).
const generator = new GenerateDialog({
  dialog: $("generate-dialog"),
  form: $("generate-form"),
  openButton: $("open-generate"),
  closeButton: $("generate-close"),
  families: () => app.families,
  current: () => app.puzzle?.family || null,
  onGenerated: async (info, animate) => {
    await loadPuzzle(async () => info, "loading", "the generated board", true);
    if (animate && app.puzzle === info && !compare.active) app.view?.playMaking?.(info.generated);
  },
});
// Where a family view puts its own panels.
const hosts = {
  left: $("family-panel-left"), right: $("family-panel-right"), banner: $("family-banner"), boardTools: $("board-edit"),
};

// What a family view may ask of the page.
const shell = {
  option: (name) => form.get(name),
  setOption: (name, value) => form.set(name, value),
  showError,
  setBusy,
  setHover: (text) => {
    $("hover").textContent = text;
    $("hover").hidden = !text;
  },
  toolsWidth: () => $("board-tools").offsetWidth + 8, // CSS px the zoom (and editing) buttons cover
  optionsChanged: () => markStale(), // a view's own option (e.g. a clicked start) changed
  // The view's editor changed the board: the operations go to the server (docs/PROTOCOL.md, "Editing").
  edit: (ops, how = {}) => {
    app.editStamp ??= performance.now(); // the first change not yet re-solved: latency from here
    document.body.dataset.edits = "pending";
    edits.push(ops, how);
  },
  // A change the editor made: `redo` made it, `undo` takes it back (Undo, Redo, Ctrl+Z).
  remember: (redo, undo, reload = false) => history.remember(redo, undo, reload),
  historyButtons,
  textScale: () => (document.documentElement.classList.contains("large") ? 1.4 : 1),
};

// Undo and redo of the editor's changes, whatever the family (static/js/edit/history.js).
const historyControls = new Set(); // [undo, redo] button pairs, one in each editor's panel
const history = new EditHistory({
  onChange: () => {
    for (const [undo, redo] of historyControls) {
      undo.disabled = !history.canUndo;
      redo.disabled = !history.canRedo;
    }
  },
});

/** An Undo and a Redo button for an editor's panel (each editor asks once). */
function historyButtons() {
  const undo = el("button", { type: "button", testid: "undo", text: "Undo", title: "Undo the last change (Ctrl+Z)",
    disabled: true, on: { click: () => undoRedo(history.undo()) } });
  const redo = el("button", { type: "button", testid: "redo", text: "Redo", title: "Redo (Ctrl+Shift+Z)",
    disabled: true, on: { click: () => undoRedo(history.redo()) } });
  historyControls.add([undo, redo]);
  return [undo, redo];
}

/** Show an undo's or redo's operations on the board at once (where the view can) and send them. */
function undoRedo(step) {
  if (!step || !app.view) return;
  if (!step.reload) app.view.applyEdits?.(step.ops);
  shell.edit(step.ops, { reload: step.reload });
}

// Edits of the board on their way to the server; each confirmed one is a new puzzle, re-solved at once.
const edits = new EditSession({
  onEdited: puzzleEdited,
  onFailed: (message, lastGoodId) => {
    // The board drawn is ahead of the server's: show the server's again, then say why.
    loadPuzzle(() => api.getPuzzle(lastGoodId), "loading", "the board", false, { edited: true })
      .then(() => showError(`That change was refused: ${message}`));
    history.clear(); // its steps were made on a board the server did not take
  },
});

// The comparison view (static/js/compare/): 2–4 algorithms on the puzzle shown, one shared timeline.
const compare = new CompareView({
  host: $("compare"),
  openButton: $("compare-open"),
  live,
  borrowed: { maze: document.querySelector(".maze-buttons"), status: $("status").closest(".status"), error: $("error"), run: $("run") },
  page: {
    algorithms: () => app.algorithms,
    families: () => app.families,
    viewOptions: () => app.view?.viewOptions() || {},
    option: (name) => form.get(name),
    setStatus,
    showError,
    textScale: () => shell.textScale(),
    upload: (file) => uploadFile(file),
    beforeOpen: () => {
      player.pause();
      if (app.run && !app.run.finished) $("cancel").click(); // a client's runs are capped (4 slots)
    },
    afterClose: () => {
      setStatus(app.puzzle ? "ready" : "loading", "idle");
      requestAnimationFrame(() => app.view?.refit?.());
    },
  },
});

// Share links and exports (static/js/share/): what they read of the page, and how a link is opened.
const share = new ShareTools({
  host: $("share-tools"),
  page: {
    puzzle: () => app.puzzle,
    families: () => app.families,
    run: () => app.run,
    selection: () => {
      const algorithm = $("algorithm").value;
      return { algorithm, options: form.values(algorithm, app.view?.viewOptions() || {}) };
    },
    position: () => player.position,
    canvas: () => app.view?.canvas || null,
    showError,
    openGallery: (entry) => openGalleryEntry(entry),
    openInfo: (info) => loadPuzzle(async () => info, "loading", "the shared puzzle"),
    applyChoice,
    startRun,
    pause: () => player.pause(),
    seek: (step) => {
      player.pause();
      player.seek(step);
      return timeline.length;
    },
  },
});

// ---- status, errors, progress ------------------------------------------------------------------

/** The search's own state (data-testid="status" reads it bare: "done" = every record arrived). */
function setStatus(text, tone = "idle", detail = "") {
  $("status").textContent = text;
  $("status-detail").textContent = detail;
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
  compare.connectionChanged(connected);
  if (!connected && app.run && !app.run.finished) {
    finishRunWithError("Lost the connection to the server. Run the search again.");
  }
}

// ---- algorithm menu and options ----------------------------------------------------------------

function currentAlgorithm() {
  return app.algorithms.find((a) => a.name === $("algorithm").value) || null;
}

const algorithmLabel = (name) => app.algorithms.find((a) => a.name === name)?.label || name;

/** The menu for a family: `names` in order; the family's last choice, else the current one if offered. */
function fillAlgorithmMenu(family, names) {
  const select = $("algorithm");
  const previous = select.value;
  select.replaceChildren(...names.map((name) => new Option(algorithmLabel(name), name)));
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
  markStale();
}

function optionChanged(name, value) {
  app.view?.optionChanged(name, value, form);
  markStale();
}

/** A share link's algorithm and options (checked by the server) into the menu, the form and the view. */
function applyChoice(algorithm, options) {
  if (algorithm && [...$("algorithm").options].some((option) => option.value === algorithm)) {
    $("algorithm").value = algorithm;
    algorithmChanged();
  }
  const viewValues = {};
  for (const [name, value] of Object.entries(options)) {
    if (form.has(name)) form.set(name, value);
    else viewValues[name] = value;
  }
  if (Object.keys(viewValues).length) app.view?.useViewOptions?.(viewValues);
  markStale();
  updateLegend();
}

/** An algorithm and its options in words: "A* · Manhattan heuristic, weight 1 · 4 directions". */
function runText(algorithm, options) {
  const rest = app.view?.describeRun?.(algorithm, options) || "";
  return rest ? `${algorithmLabel(algorithm)} · ${rest}` : algorithmLabel(algorithm);
}

/** What a run with the form's present choices would be (compared with the run on the board). */
function selectionSignature() {
  if (!app.puzzle || !app.view) return "";
  const algorithm = $("algorithm").value;
  return JSON.stringify([app.puzzle.id, algorithm, form.values(algorithm, app.view.viewOptions())]);
}

/** The board and the panel say which run they show; a changed choice marks it as the previous run. */
function markStale() {
  app.stale = Boolean(app.run) && selectionSignature() !== app.run.signature;
  showRunCaption();
}

function showRunCaption() {
  const run = app.run;
  const caption = $("run-caption");
  const label = $("run-label");
  const badge = $("stale-badge");
  const stale = Boolean(run) && app.stale;
  if (!run) {
    caption.textContent = app.puzzle ? "Not searched yet: choose an algorithm and press Run." : "";
    label.textContent = "";
  } else if (stale) {
    const algorithm = $("algorithm").value;
    const next = runText(algorithm, form.values(algorithm, app.view?.viewOptions() || {}));
    caption.textContent = `Shown: the previous run, ${run.text}. Press Run for ${next}.`;
    label.textContent = `Previous run: ${run.text}`;
    badge.textContent = "Previous run: press Run for the new choice";
  } else {
    caption.textContent = `Shown: ${run.text}`;
    label.textContent = `Shown: ${run.text}`;
  }
  badge.hidden = !stale;
  for (const node of [caption, label, $("board"), $("now-stats"), $("optimal")]) node.classList.toggle("stale", stale);
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

/**
 * Load a puzzle (fetchInfo resolves to its info); `what` names it in error messages; `focusRun`:
 * the next key press should start the search (a choice from the gallery or the file picker).
 */
async function loadPuzzle(fetchInfo, label, what, focusRun = false, { edited = false } = {}) {
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
    if (edited) {
      data.edited = true; // the same board, changed: the view keeps its tool and history
      Object.assign(info, editedTitle(info));
    }
    showPuzzle(info, view, data);
    setStatus("ready", "idle");
    if (focusRun) $("run").focus();
  } catch (err) {
    if (token !== app.loadToken) return;
    const reason = err instanceof api.ApiError ? err.message : "something went wrong while loading it.";
    showError(fileMessage(what, reason));
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
  shell.setHover("");
  app.puzzle = info;
  app.view = view;
  app.run = null;
  app.stale = false;
  $("board").prepend(view.canvas);
  $("board-tools").classList.toggle("unused", typeof view.zoomBy !== "function");
  document.querySelector(".layout").classList.toggle("wide-right", Boolean(view.wideRight));
  useFamilyForm(app.families.get(info.family), view.constructor);
  form.applyPuzzle(info.options);
  fillAlgorithmMenu(info.family, info.algorithms || app.families.get(info.family).algorithms || []);
  algorithmChanged();
  timeline.reset();
  tally.reset();
  view.enter(info, data);
  const target = view.playerTarget();
  player.attach(target.state, target.renderer);
  showPuzzleInfo(info, view);
  updateLegend();
  showRunCaption();
  showPace();
  compare.puzzleShown(info, data);
  edits.start(info.id);
  if (!data?.edited) history.clear(); // another puzzle: the history was the old one's
  document.body.dataset.puzzleId = info.id; // tests read the puzzle shown
  document.body.dataset.edits = "idle";
}

// ---- editing -------------------------------------------------------------------------------------

/** An edited puzzle keeps its name, marked as edited (it is no longer the gallery's). */
function editedTitle(info) {
  const title = app.puzzle?.title || app.puzzle?.name || info.name;
  return { title: /\(edited\)$/.test(title) ? title : `${title} (edited)`, galleryName: null, description: "" };
}

/** The server confirmed an edit: the board is a new puzzle; a run on it is re-solved at once. */
function puzzleEdited(info, reload) {
  if (reload) {
    const hadRun = Boolean(app.run);
    loadPuzzle(async () => info, "loading", "the edited board", false, { edited: true }).then(() => {
      if (hadRun && app.puzzle?.id === info.id) startRun({ instant: true });
    });
    return;
  }
  app.puzzle = { ...info, ...editedTitle(info) };
  app.view.puzzleEdited(app.puzzle, edits.pending);
  $("puzzle-name").textContent = app.puzzle.title;
  gallery.markActive(null);
  compare.puzzleShown(app.puzzle, app.view.currentData?.() || null);
  document.body.dataset.puzzleId = info.id;
  document.body.dataset.edits = edits.pending ? "pending" : "idle";
  requestResolve();
}

/** After a change of the board, search it again with the choices on the form and show the end at once. */
function requestResolve() {
  if (!app.run || compare.active || !app.puzzle) return;
  if (app.resolving) {
    app.resolveAgain = true;
    return;
  }
  startRun({ instant: true });
}

function resolveEnded() {
  if (!app.resolving) return;
  app.resolving = false;
  if (app.resolveAgain) {
    app.resolveAgain = false;
    requestResolve();
  }
}

/** What every family shows of a new puzzle: title, notes, size, empty figures. */
function showPuzzleInfo(info, view) {
  $("empty").hidden = true;
  $("puzzle-name").textContent = info.title || info.name;
  document.title = `${info.title || info.name} · Maze search visualizer`;
  $("run").disabled = false;
  gallery.markActive(info.galleryName || null);
  // A note that says what the description says and more (a generator's) stands for it.
  const more = (info.notes || []).some((note) => info.description && note.startsWith(info.description));
  const notes = [more ? null : info.description, ...(info.notes || [])].filter(Boolean);
  $("notes").replaceChildren(...notes.map((note) => el("p", { text: note })));
  $("notes-box").hidden = !notes.length;
  $("notes-box").open = Boolean(info.description);
  $("maze-size").textContent = sizeText(info.width, info.height, view.constructor.sizeUnit || "");
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

function openGalleryEntry(entry, focusRun = false) {
  const fetchInfo = async () => ({
    ...(await api.loadGalleryPuzzle(entry.name)),
    galleryName: entry.name, title: entry.title, description: entry.description,
  });
  return loadPuzzle(fetchInfo, "loading", `“${entry.title}”`, focusRun);
}

function uploadFile(file) {
  if (!file) return;
  loadPuzzle(() => api.uploadPuzzle(file), "parsing…", file.name, true);
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
  // Touch screens have nothing to drop.
  if (window.matchMedia("(hover: none), (pointer: coarse)").matches) $("drop-hint").hidden = true;
}

/** The file picker offers what some family reads; a hint under it says what each expects. */
function describeUploads(families) {
  const accept = new Set(families.flatMap((family) => family.accept || []));
  $("upload").accept = [...accept].join(",");
  const expects = families.map((family) => family.expects).filter(Boolean);
  if (expects.length) $("upload-label").title = `Open ${expects.join("; or ")}`;
}

// ---- runs --------------------------------------------------------------------------------------

function resetStats() {
  figures.reset();
  for (const id of ["records"]) setNumber($(id), null);
  $("seconds").textContent = "—";
  $("seconds").classList.add("none");
}

function cancelRun() {
  if (app.run && !app.run.finished) live.cancel(app.run.id);
  if (app.pendingRun) {
    live.cancel(app.pendingRun.id);
    app.pendingRun = null;
    app.resolving = false;
    app.resolveAgain = false;
  }
  $("cancel").hidden = true;
}

/**
 * Start a search of the puzzle shown with the form's choices. `instant` (the editor's re-solve): the
 * trace is gathered off-screen and shown at its end in one go, with no busy spinner and no animation;
 * Play then animates it as usual.
 */
function startRun({ instant = false } = {}) {
  const view = app.view;
  if (!app.puzzle || !view) return;
  const algorithm = $("algorithm").value;
  const problem = form.problem(algorithm);
  if (problem) {
    // Never changed to fit: the user sees what is wrong and where.
    showError(problem.message);
    problem.input.focus();
    return;
  }
  const notReady = view.checkReady();
  if (notReady) {
    showError(notReady);
    return;
  }
  cancelRun();
  showError("");
  if (!instant) {
    app.resolving = false;
    app.resolveAgain = false;
    clearBoardForRun();
  }
  const options = form.values(algorithm, view.viewOptions());
  const run = {
    id: null, algorithm, options, signature: selectionSignature(), text: runText(algorithm, options),
    result: null, records: null, streamTotal: null, finished: false,
    instant, buffered: instant ? [] : null, // an instant run's frames until its end
  };
  if (instant) {
    app.resolving = true;
    app.resolveStarted = performance.now();
    app.pendingRun = run; // the board keeps the last run until this one is complete
  } else {
    app.run = run;
    app.pendingRun = null;
  }
  app.stale = false;
  run.id = live.start(
    { puzzle: app.puzzle.id, algorithm, options, instant },
    {
      onStatus: (msg) => run === app.run && runStatus(msg),
      onFrame: (frame, msg) => {
        if (run === app.pendingRun) run.buffered.push([frame, msg]);
        else if (run === app.run) runFrame(frame, msg);
      },
      onDone: (msg) => {
        if (run === app.pendingRun) showInstantRun(run, msg);
        else if (run === app.run) runDone(msg);
      },
      onError: (error) => {
        if (run === app.pendingRun) {
          app.pendingRun = null;
          resolveEnded();
          showError(error);
        } else if (run === app.run) finishRunWithError(error);
      },
    },
  );
  if (instant) {
    setStatus("re-solving…", "busy");
    return;
  }
  view.runStarted(run.id, { algorithm, options });
  updateLegend();
  showRunCaption();
  applyPace();
  setStatus("starting…", "busy");
  setBusy("starting…");
  setProgress("indeterminate");
  $("cancel").hidden = false;
  player.play();
  bringBoardIntoView();
}

/** A new run takes the board: no trace, no figures. */
function clearBoardForRun() {
  timeline.reset();
  tally.reset();
  player.rewind();
  resetStats();
}

/** An instant run is complete: swap it onto the board in one task (one redraw), at its end. */
function showInstantRun(run, msg) {
  app.pendingRun = null;
  if (!app.puzzle || compare.active) {
    resolveEnded();
    return;
  }
  app.run = run;
  clearBoardForRun();
  app.view.runStarted(run.id, { algorithm: run.algorithm, options: run.options, instant: true });
  for (const [frame, raw] of run.buffered) runFrame(frame, raw);
  run.buffered = null;
  runDone(msg);
  updateLegend();
  showRunCaption();
  player.last();
  // How long from the change (the pointer event) to the path drawn: measured after the next paint.
  const since = app.editStamp ?? app.resolveStarted;
  app.editStamp = null;
  requestAnimationFrame(() => {
    const body = document.body.dataset;
    body.resolveMs = String(Math.round(performance.now() - since)); // benchmarks
    body.resolveSearchMs = String(Math.round(run.result?.seconds * 1000 || 0));
    body.resolved = String(Number(body.resolved || 0) + 1);
  });
  resolveEnded();
}

/** After Run the next key press belongs to the player, and the board must be in sight (phones). */
function bringBoardIntoView() {
  const board = $("board");
  board.focus({ preventScroll: true });
  const rect = board.getBoundingClientRect();
  if (rect.top < 0 || rect.bottom > window.innerHeight) {
    const narrow = window.matchMedia(NARROW).matches;
    (narrow ? $("run-caption") : board).scrollIntoView({ block: "start", behavior: "smooth" });
  }
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
    if (Number.isInteger(msg.total) && app.run.streamTotal !== msg.total) {
      app.run.streamTotal = msg.total;
      applyPace();
    }
    setStatus(`streaming ${Math.floor(fraction * 100)}%`, "busy", ` · ${withCommas(msg.done)} of ${withCommas(msg.total)} steps received`);
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
  if (app.run.records === null && app.run.streamTotal === null) applyPace(); // a provisional pace
  app.view.frame(msg);
  if (app.run.records !== null) maybeFinish();
  if (!player.playing) updatePlayerControls(); // playing, the player updates them every frame
}

function runDone(msg) {
  app.run.result = msg.result;
  app.run.records = msg.records;
  timeline.expected = msg.records;
  setNumber($("records"), msg.records);
  $("seconds").textContent = seconds(msg.result.seconds);
  $("seconds").classList.remove("none");
  app.view.result(msg.result);
  applyPace();
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
  setStatus("done", "done", ` in ${seconds(run.result.seconds)}`);
  setBusy(null);
  setProgress(null);
  $("cancel").hidden = true;
  player.schedule(); // playback may have been waiting at the end for these records
  share.runEnded(true);
}

function finishRunWithError(message) {
  if (app.run) app.run.finished = true;
  share.runEnded(false);
  if (app.run && timeline.length === 0) {
    // Nothing of it arrived (e.g. the server refused an option): the board shows no run.
    app.run = null;
    app.stale = false;
    showRunCaption();
    updateLegend();
    updatePlayerControls();
  }
  player.pause(); // what arrived can still be stepped through and played again
  $("cancel").hidden = true;
  setStatus("error", "error");
  setBusy(null);
  setProgress(null);
  showError(message);
}

// ---- player controls and figures ---------------------------------------------------------------

let scrubbing = false;

function updatePlayerControls() {
  const scrub = $("scrub");
  scrub.max = String(timeline.length);
  if (document.activeElement !== scrub || !scrubbing) scrub.value = String(player.position);
  scrub.dataset.route = player.lastRoute; // how the board reached this step (tests, benchmarks)
  scrub.dataset.keyframes = String(player.keyframes.size);
  const run = app.run;
  const total = run ? run.records ?? run.streamTotal : null;
  $("position").textContent = `${withCommas(player.position)} / ${withCommas(total ?? timeline.length)}`;
  $("play").hidden = player.playing;
  $("pause").hidden = !player.playing;
  const nothing = !run && timeline.length === 0; // no trace to play yet
  for (const id of ["play", "step", "step-back", "first", "last", "scrub"]) $(id).disabled = nothing;
  explain.update({ view: app.view, run: app.run, position: player.position, playing: player.playing });
  figures.update({
    hasRun: Boolean(run),
    counts: run ? tally.at(player.position) : null,
    position: player.position,
    total: total ?? null,
    received: timeline.length,
    playing: player.playing,
    atEnd: Boolean(run?.result) && player.atEnd,
    viewFigures: run && app.view ? app.view.playheadFigures() : [],
    result: run?.result || null,
    runText: run?.text || "",
  });
}

/** A preset plays the whole run in its time: its speed follows the run's number of records. */
function applyPace() {
  if (player.preset) {
    const run = app.run;
    const total = run ? run.records ?? run.streamTotal ?? timeline.length : 0;
    player.setSpeed(presetSpeed(player.preset, Math.max(1, total)), player.preset);
  }
  showPace();
}

function showPace() {
  const speed = player.speed;
  $("speed").value = String(sliderFromSpeed(speed));
  const pressed = player.preset ?? (Number.isFinite(speed) ? "" : "instant");
  for (const button of document.querySelectorAll("#presets button")) {
    button.setAttribute("aria-pressed", String(button.dataset.preset === pressed));
  }
  const run = app.run;
  const total = run ? run.records ?? run.streamTotal : null;
  let text = speedLabel(speed);
  if (total && Number.isFinite(speed)) text += ` · whole run ≈ ${duration(total / speed)}`;
  else if (!total && player.preset && PRESETS[player.preset].seconds > 0) {
    text = `a run in ≈ ${duration(PRESETS[player.preset].seconds)}`; // steps/s once the run's size is known
  }
  $("speed-label").textContent = text;
}

/** "20 s", "2 min", "1.5 h". */
function duration(s) {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${+(s / 3600).toFixed(1)} h`;
}

function bindPlayer() {
  $("play").addEventListener("click", () => player.play());
  $("pause").addEventListener("click", () => player.pause());
  $("step").addEventListener("click", () => player.step(1));
  $("step-back").addEventListener("click", () => player.step(-1));
  $("first").addEventListener("click", () => player.first());
  $("last").addEventListener("click", () => player.last());
  const scrub = $("scrub");
  scrub.addEventListener("pointerdown", () => { scrubbing = true; });
  scrub.addEventListener("pointerup", () => { scrubbing = false; });
  scrub.addEventListener("input", () => player.seekSoon(Number(scrub.value)));
  const speed = $("speed");
  const speedChanged = () => {
    player.setSpeed(speedFromSlider(speed.value), null);
    showPace();
  };
  speed.addEventListener("input", speedChanged);
  speed.addEventListener("change", speedChanged);
  for (const button of document.querySelectorAll("#presets button")) {
    button.addEventListener("click", () => {
      player.setSpeed(player.speed, button.dataset.preset);
      applyPace();
    });
  }
  applyPace();
}

// ---- keyboard, presentation, text size ---------------------------------------------------------

const TEXT_INPUTS = new Set(["text", "number", "search", "email", "url", "tel", "password"]);

function bindKeys() {
  document.addEventListener("keydown", (event) => {
    if (editKey(event)) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (gallery.isOpen || $("keys-dialog").open) return; // a dialog has the keyboard (Esc closes it)
    const target = event.target;
    const tag = target?.tagName;
    if (tag === "TEXTAREA" || tag === "SELECT") return;
    if (tag === "INPUT" && (TEXT_INPUTS.has(target.type) || target.type === "checkbox" || target.type === "file")) return;
    const onSlider = tag === "INPUT" && target.type === "range"; // the arrows and Home/End move it
    const key = event.key;
    const ten = event.shiftKey ? 10 : 1;
    const keyPlayer = compare.active ? compare.clock : player; // the comparison's shared timeline
    let handled = true;
    if (key === " ") {
      // Play/pause everywhere, even on a focused button (whose default would press it again:
      // after clicking Run, space would restart the search). Enter still presses buttons.
      keyPlayer.toggle();
    } else if (key === "ArrowRight" && !onSlider) keyPlayer.step(ten);
    else if (key === "ArrowLeft" && !onSlider) keyPlayer.step(-ten);
    else if (key === "Home" && !onSlider) keyPlayer.first();
    else if (key === "End" && !onSlider) keyPlayer.last();
    else if (key === "f" || key === "F") setPresenting(!presenting());
    else if (key === "e" || key === "E") explain.toggle();
    else if (key === "?") openKeys();
    else if (key === "Escape" && presenting()) setPresenting(false);
    else handled = false;
    if (handled) event.preventDefault();
  });
}

/** Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo the editor's changes (outside text fields). */
function editKey(event) {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || !app.view || compare.active) return false;
  const tag = event.target?.tagName;
  if (tag === "TEXTAREA" || (tag === "INPUT" && TEXT_INPUTS.has(event.target.type))) return false;
  const key = event.key.toLowerCase();
  if (key !== "z" && key !== "y") return false;
  undoRedo(key === "y" || event.shiftKey ? history.redo() : history.undo());
  event.preventDefault();
  return true;
}

const presenting = () => document.documentElement.classList.contains("presenting");

/** Presentation mode: the side panels give way, the board fills the screen above a compact bar. */
function setPresenting(on) {
  document.documentElement.classList.toggle("presenting", on);
  const button = $("present");
  button.setAttribute("aria-pressed", String(on));
  button.textContent = on ? "Exit (F)" : "Present (F)";
  button.title = on ? "Back to the panels (F or Esc)" : "The board fills the screen (F)";
  requestAnimationFrame(() => app.view?.refit?.());
}

function openKeys() {
  const dialog = $("keys-dialog");
  if (!dialog.open) dialog.showModal();
}

function setLargeText(on) {
  document.documentElement.classList.toggle("large", on);
  $("large-text").setAttribute("aria-pressed", String(on));
  requestAnimationFrame(() => app.view?.refit?.());
  try { localStorage.setItem("largeText", on ? "1" : ""); } catch { /* private mode */ }
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
    if (app.run) app.run.finished = true;
    player.pause();
    setStatus("cancelled", "idle");
    setBusy(null);
    setProgress(null);
  });
  $("open-gallery").addEventListener("click", () => gallery.open());
  $("fit").addEventListener("click", () => app.view?.fit?.());
  $("zoom-in").addEventListener("click", () => app.view?.zoomBy?.(1.5));
  $("zoom-out").addEventListener("click", () => app.view?.zoomBy?.(1 / 1.5));
  $("large-text").addEventListener("click", () => setLargeText(!document.documentElement.classList.contains("large")));
  $("present").addEventListener("click", () => setPresenting(!presenting()));
  $("keys").addEventListener("click", openKeys);
  $("keys-close").addEventListener("click", () => $("keys-dialog").close());
  $("keys-dialog").addEventListener("click", (event) => {
    if (event.target === event.currentTarget) event.currentTarget.close();
  });
  try {
    if (localStorage.getItem("largeText")) setLargeText(true);
  } catch { /* private mode */ }
}

/** The families' titles in the plural and the unit of their sizes, for the gallery's groups. */
function galleryFamilies(families) {
  return new Map(families.map((family) => [family.name, {
    title: `${family.title || family.name}s`,
    unit: viewClassFor(family.name)?.sizeUnit || "",
  }]));
}

async function init() {
  bindPanels();
  bindPlayer();
  bindKeys();
  bindUpload();
  setStatus("loading", "busy");
  try {
    const [algorithms, families, entries] = await Promise.all([api.getAlgorithms(), api.getFamilies(), api.getGallery()]);
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
    gallery.fill(entries, galleryFamilies(families));
    $("open-gallery").title = `${entries.length} bundled mazes and boards, with what each shows`;
    setStatus("ready", "idle");
    if (share.openLink(window.location.search, entries)) return; // a share link opens what it names
    // Open on something to look at, unless the user has already chosen a maze.
    if (entries.length && app.loadToken === 0) openGalleryEntry(entries[0]);
  } catch (err) {
    setStatus("error", "error");
    showError(err instanceof api.ApiError ? err.message : "The page could not start.");
  }
}

init();
