// @ts-check
// The page's composition root: it makes the shell's parts (./shell/) and wires them together, and
// holds no state of its own. Each part has one job:
//   shell/status.js       the status line, error banner, spinner and progress bar
//   shell/selection.js    the algorithm menu and the options form
//   shell/single_view.js  the single view: one Stage on the board, its transport bar, figures, Run/Stop
//   shell/loading.js      loading a puzzle (numbered loads; waits for set-up; switches the view)
//   shell/sources.js      the gallery, the file picker, files dropped on the board
//   shell/editing.js      the editor's requests, undo/redo, re-solving after an edit
//   shell/keys.js         the keys, presentation mode, large text
//   shell/probes.js       what tests and benchmarks read on <body data-*>
//   shell/address.js      the address bar follows the page; a reload, Back and Forward go where it says
// Around it: compare/ (2–4 Stages under one shared clock), share/ (links and exports),
// making/ (New…), lab/ (the teacher's lab beside the board: a heuristic judged, a solution checked),
// exercise/ (Predict: the student predicts each expansion of a run),
// code/ (a student's own search in Python, a tab of the lab's drawer opened by "Your code"),
// and the family views (families/family_view.js) that every Stage draws with.
// Languages (i18n.js): the page's catalog is loaded first (`initLanguage`), then the page is
// composed; the header's menu (language_menu.js) switches it without a reload: every part writes
// its own words again (onLanguage), and what the server wrote (the families' and algorithms'
// words, the gallery) is fetched again in the new language, the user's choices, puzzle and run kept.

import * as api from "./api.js";
import { MakeDialog } from "./assignment/make_dialog.js";
import { BoardAccess } from "./board/board_access.js";
import { CodeTab } from "./code/code_tab.js";
import { CompareView } from "./compare/compare_view.js";
import { Exercise } from "./exercise/exercise.js";
import { viewClassFor } from "./families/index.js";
import { Live } from "./live.js";
import { CheckPanel } from "./lab/check_panel.js";
import { LabDrawer } from "./lab/drawer.js";
import { LabPanel } from "./lab/lab_panel.js";
import { GenerateDialog } from "./making/generate_dialog.js";
import { ShareTools } from "./share/share_tools.js";
import { Editing } from "./shell/editing.js";
import { Keys } from "./shell/keys.js";
import { PuzzleLoader } from "./shell/loading.js";
import { AddressBar } from "./shell/address.js";
import { HugeBoardGuard } from "./shell/huge_board.js";
import { Selection } from "./shell/selection.js";
import { SingleView } from "./shell/single_view.js";
import { Sources } from "./shell/sources.js";
import { sayStatus, setStatus, showError, setBusy } from "./shell/status.js";
import { byId } from "./dom.js";
import { announceServerWords, initLanguage, lang, setLanguage, t } from "./i18n.js";
import { mountLanguageMenu } from "./language_menu.js";

// The catalog before anything writes a word (a catalog that cannot be fetched leaves the page working,
// in English if that one comes, else showing its keys: better than no page).
try {
  await initLanguage();
} catch (err) {
  console.warn(err);
  await setLanguage("en", { remember: false }).catch(() => {});
}

const $ = byId;
const textScale = () => (document.documentElement.classList.contains("large") ? 1.4 : 1);
const setHover = (text) => {
  $("hover").textContent = text;
  $("hover").hidden = !text;
};

const live = new Live({
  onConnection: (connected) => {
    compare.connectionChanged(connected);
    if (!connected) single.connectionLost();
  },
});

const selection = new Selection({
  view: () => single.view,
  onChange: () => {
    single.choicesChanged();
    if (!single.run) single.legend();
    address.changed();
  },
});

// What a family view may ask of the page (families/family_view.js, `Shell`).
const shell = {
  option: (name) => selection.form.get(name),
  setOption: (name, value) => selection.form.set(name, value),
  showError,
  setBusy,
  setHover,
  toolsWidth: () => $("board-tools").offsetWidth + 8, // CSS px the zoom (and editing) buttons cover
  optionsChanged: () => single.choicesChanged(), // a view's own option (e.g. a clicked start) changed
  textScale,
  edit: (ops, how) => editing.edit(ops, how),
  remember: (redo, undo, reload) => editing.history.remember(redo, undo, reload),
  historyButtons: () => editing.historyButtons(),
  reread: (options, what) => loader.load(() => api.rereadPuzzle(loader.puzzle.id, options), t("shell.reading_again"), what),
};

// Where a family view puts its own panels.
const hosts = {
  left: $("family-panel-left"), right: $("family-panel-right"), banner: $("family-banner"), boardTools: $("board-edit"),
};

const single = new SingleView({
  live, selection, hosts, shell,
  puzzle: () => loader.puzzle,
  onRunEnded: (ok) => address.runEnded(ok),
  onPlayerChange: () => {
    address.changed();
    boardAccess.playerChanged(); // A2: the live region says the step, the canvas's description follows
  },
  onRunStarted: () => labs.runStarted(), // the run takes the board: the lab's heat map would hide it
  onReSolved: (run, started) => editing.reSolved(run, started),
});

// The board for a screen reader and a keyboard (board/): the live region, the canvas's text
// alternative, the cell cursor (arrows and Enter on the focused board).
const boardAccess = new BoardAccess({ board: $("board"), stage: () => single.stage, puzzle: () => loader.puzzle });

const loader = new PuzzleLoader({
  single, selection, setHover,
  onShown: (info, data) => {
    sources.gallery.markActive(info.galleryName || null);
    hugeBoard.puzzleShown(info); // first: a huge board closes the comparison before it is handed the board
    compare.puzzleShown(info, data);
    editing.puzzleShown(info, data);
    labs.puzzleShown(info);
    if (data?.edited) address.changed(); // the same board, changed: the entry follows it
    else address.placeChanged(); // another puzzle: a new entry (Back returns to the one before)
  },
});

const editing = new Editing({
  loader, single,
  blocked: () => compare.active,
  onEdited: (info) => {
    sources.gallery.markActive(info.galleryName || null); // an undo back to a gallery puzzle is it again
    compare.puzzleShown(info, single.view.currentData());
    labs.puzzleShown(info); // another board: the heat map and the checked solution were the old one's
    address.changed();
  },
});

const sources = new Sources({ loader });

// A student's own search (code/): run in the browser, judged by the server, played on the board as
// the algorithm "code" (the menu keeps the algorithm it is compared with).
const code = new CodeTab({
  opener: $("code"),
  page: {
    puzzle: () => loader.puzzle,
    options: (algorithm) => selection.values(algorithm),
    algorithm: () => selection.algorithm,
    label: (name) => selection.label(name),
    stateForm: (info) => selection.families.get(info.family)?.state_form || "",
    signature: (puzzleId) => selection.signature(puzzleId),
    animate: (args) => {
      if (!compare.active) single.startWith(args);
    },
  },
});

// The teacher's lab (lab/): beside the board, a heuristic judged (its heat map on the board) and a
// solution checked (replayed on the board); the student's code as a third tab.
const labs = new LabDrawer({
  panel: $("lab-panel"),
  button: $("lab"),
  explain: single.explain,
  refit: () => requestAnimationFrame(() => single.view?.refit()),
  parts: (root) => [
    new LabPanel({
      root,
      page: {
        puzzle: () => loader.puzzle,
        view: () => single.view,
        families: () => selection.families,
        options: () => selection.values(),
        algorithms: () => loader.puzzle?.algorithms || [],
        algorithm: () => selection.algorithm,
        useHeuristic: (algorithm, options) => selection.apply(algorithm, options),
      },
    }),
    new CheckPanel({
      root,
      page: {
        puzzle: () => loader.puzzle,
        options: () => selection.values(),
        replay: (args) => single.showChecked(args),
      },
    }),
    // A student's search in Python (code/): loaded, with Python, only when its tab is first opened.
    code.mount(root),
  ],
});

// The comparison view (compare/): 2–4 algorithms on the puzzle shown, one shared timeline.
const compare = new CompareView({
  host: $("compare"),
  openButton: $("compare-open"),
  live,
  borrowed: { maze: document.querySelector(".maze-buttons"), status: $("status").closest(".status"), error: $("error"), run: $("run") },
  page: {
    algorithms: () => selection.algorithms,
    families: () => selection.families,
    viewOptions: () => single.view?.viewOptions() || {},
    option: (name) => selection.form.get(name),
    setStatus,
    showError,
    textScale,
    codeRun: () => code.codeRun(loader.puzzle?.id),
    upload: (file) => sources.upload(file),
    beforeOpen: () => {
      exercise.toggle(false); // exercise mode is the single view's
      single.player.pause();
      single.cancel(); // its run and a re-solve in flight: a client's runs are capped (4 slots)
    },
    opened: () => address.placeChanged(), // the comparison is a place of its own: Back leaves it
    panelsChanged: () => address.changed(),
    afterClose: () => {
      sayStatus(loader.puzzle ? "status.ready" : "status.loading", "idle");
      requestAnimationFrame(() => single.view?.refit());
      address.placeChanged();
    },
  },
});

// "New…": a puzzle made by one of the server's generators, its making animated when asked.
new GenerateDialog({
  dialog: $("generate-dialog"),
  form: $("generate-form"),
  openButton: $("open-generate"),
  closeButton: $("generate-close"),
  families: () => selection.families,
  current: () => loader.puzzle?.family || null,
  onGenerated: async (info, animate) => {
    await loader.load(async () => info, t("status.loading"), t("shell.generated_board"), { focusRun: true });
    if (animate && loader.puzzle === info && !compare.active) single.view.playMaking(info.generated);
  },
});

// Share links and exports (share/): what they read of the page, and how a link is opened.
new ShareTools({
  host: $("share-tools"),
  page: {
    puzzle: () => loader.puzzle,
    families: () => selection.families,
    run: () => (single.showsChecked ? null : single.run), // a checked solution is no run to link to
    selection: () => ({ algorithm: selection.algorithm, options: selection.values() }),
    position: () => single.player.position,
    canvas: () => single.view?.canvas || null,
    showError,
    exercise: () => exercise.on,
  },
});

// "Make an assignment…" (assignment/): the puzzle, the form's choice and the playhead's expansions.
new MakeDialog({
  openButton: $("assign"),
  page: {
    puzzle: () => loader.puzzle,
    choice: () => ({ algorithm: selection.algorithm, options: selection.values() }),
    expanded: () => {
      const run = single.run;
      const ours = run && !single.showsChecked && !single.stale && run.algorithm === selection.algorithm;
      return ours ? single.stage.counts()?.expanded || 0 : 0;
    },
    families: () => selection.families,
    label: (name) => selection.label(name),
  },
});

// Exercise mode (exercise/, the header's Predict): the player stops before each expansion and the
// student predicts which state is expanded next, on the board or in the frontier's list.
const exercise = new Exercise({
  button: $("predict"),
  host: $("exercise-panel"),
  board: $("board"),
  player: single.player,
  timeline: single.stage.timeline,
  tally: single.stage.tally,
  view: () => single.view,
  run: () => (single.showsChecked ? null : single.run),
  explain: single.explain,
  refit: () => requestAnimationFrame(() => single.view?.refit()),
});
// A huge board drawn as tiles: no comparison, lab, student code, explain mode or Predict (shell/huge_board.js).
const hugeBoard = new HugeBoardGuard({
  close: () => {
    if (compare.active) compare.close();
    if (exercise.on) exercise.toggle(false);
    if (single.explain.on) single.explain.toggle(false);
    if (labs.on) labs.toggle(false);
  },
});
// One panel beside the board: Predict, explain mode and the lab's drawer (Lab, Your code) close each
// other (their own listeners ran first); explain mode would give Predict's answer away.
$("predict").addEventListener("click", () => {
  if (exercise.on && labs.on) labs.toggle(false);
});
$("explain").addEventListener("click", () => {
  if (single.explain.on && exercise.on) exercise.toggle(false);
});
for (const id of ["lab", "code"]) {
  $(id).addEventListener("click", () => {
    if (labs.on && exercise.on) exercise.toggle(false);
  });
}

new Keys({
  clock: () => (compare.active ? compare.clock : single.player),
  dialogOpen: () => sources.gallery.isOpen,
  // As the buttons do: each closes the other panels beside the board (above).
  explain: { toggle: () => $("explain").click() },
  predict: { toggle: () => compare.active || $("predict").click() },
  editKey: (event) => editing.key(event),
  refit: () => single.view?.refit(),
});

// The panels beside the board, as their header buttons say (aria-pressed); Predict first (it is
// `exercise=1` in a link).
const DRAWER_BUTTONS = ["predict", "explain", "code", "lab"];
const pressed = (id) => $(id).getAttribute("aria-pressed") === "true";

// The address bar follows the page (shell/address.js), in the share links' format; a reload, Back
// and Forward take the page where it says.
let galleryEntries = [];
const address = new AddressBar({
  page: {
    puzzle: () => loader.puzzle,
    choice: () => ({ algorithm: selection.algorithm, options: selection.values() }),
    // The playhead, when the board shows a search of the form's choice (not a checked solution,
    // a student's code or the previous run).
    step: () => {
      const run = single.run;
      if (!run || single.showsChecked || single.stale || run.algorithm !== selection.algorithm) return null;
      return single.player.position;
    },
    comparing: () => compare.active,
    panels: () => compare.algorithmsShown(),
    drawer: () => DRAWER_BUTTONS.find(pressed) || null,
    openGallery: (entry) => sources.openEntry(entry),
    openInfo: (info) => loader.load(async () => info, t("status.loading"), t("shell.the_puzzle")),
    openDefault: async () => {
      if (galleryEntries.length) await sources.openEntry(galleryEntries[0], { fallback: true });
    },
    applyChoice: (algorithm, options) => selection.apply(algorithm, options),
    setComparing: (on) => (on ? compare.open() : compare.close()),
    setPanels: (names) => compare.usePanels(names),
    setDrawer: (name) => {
      if (name === null) {
        if (exercise.on) exercise.toggle(false);
        if (single.explain.on) single.explain.toggle(false);
        if (labs.on) labs.toggle(false);
      } else if (!pressed(name)) $(name).click(); // as the user would: it closes the others
    },
    startRun: () => single.start(),
    run: () => single.run,
    pause: () => single.player.pause(),
    seek: (step) => {
      single.player.pause();
      single.player.seek(step);
      return single.player.length; // its steps: records, or a tiled run's expansions
    },
    showError,
  },
});
// A panel opened or closed beside the board (by a button, a key or the page) is a small change.
const drawerWatch = new MutationObserver(() => address.changed());
for (const id of DRAWER_BUTTONS) drawerWatch.observe($(id), { attributes: true, attributeFilter: ["aria-pressed"] });

$("fit").addEventListener("click", () => single.view?.fit());
$("zoom-in").addEventListener("click", () => single.view?.zoomBy(1.5));
$("zoom-out").addEventListener("click", () => single.view?.zoomBy(1 / 1.5));

/** Ask the server what it offers, then open what the link names, else the gallery's first entry. */
async function init() {
  if (!loader.asked) sayStatus("status.loading", "busy"); // else it says what it is opening
  try {
    const [algorithms, families, entries] = await Promise.all([api.getAlgorithms(), api.getFamilies(), api.getGallery()]);
    if (!Array.isArray(families)) throw new api.ApiError(t("shell.bad_families"));
    selection.setCatalog(algorithms, families);
    // Until a puzzle is open, the menu and the form are the first family's.
    if (families[0]) selection.useFamily(families[0].name, viewClassFor(families[0].name));
    sources.setCatalog(families, entries);
    if (!loader.asked) sayStatus("status.ready", "idle");
    loader.ready(); // a file chosen meanwhile opens now
    galleryEntries = entries;
    if (address.start(entries, !loader.asked)) return; // the address (a reload, a share link) opens what it names
    // Open on something to look at, unless the user has already chosen a puzzle.
    if (entries.length) sources.openEntry(entries[0], { fallback: true });
  } catch (err) {
    sayStatus("status.error", "error");
    showError(api.errorWords(err, t("shell.could_not_start")));
  }
}

/**
 * The language was switched (the header's menu): the elements made with keys and every part that
 * listens (onLanguage) have written their words again; here what the server wrote in the old language
 * is fetched again — the algorithms' and families' words (the menu, its summary, the options form,
 * every choice and typed value kept), the gallery (its entries' titles and descriptions, the puzzle's
 * own title) — and the address and the page's title follow.
 */
async function languageChanged() {
  if (loader.puzzle) loader.showTitle(loader.puzzle);
  else document.title = t("shell.title");
  address.changed(); // `lang=` in the address
  const asked = lang();
  try {
    const [algorithms, families, entries] = await Promise.all([api.getAlgorithms(), api.getFamilies(), api.getGallery()]);
    if (!Array.isArray(families) || lang() !== asked) return; // switched again meanwhile: that switch fetches its own
    selection.relabel(algorithms, families);
    announceServerWords(); // the comparison's and the lab's forms and menus (i18n.onServerWords)
    sources.setCatalog(families, entries);
    galleryEntries = entries;
    const puzzle = loader.puzzle;
    if (puzzle) {
      // Its title and description (a gallery entry's) and the server's notes on it, in the new language.
      const entry = puzzle.galleryName ? entries.find((e) => e.name === puzzle.galleryName) : null;
      if (entry) Object.assign(puzzle, { title: entry.title, description: entry.description });
      const fresh = await api.getPuzzle(puzzle.id).catch(() => null);
      // Another puzzle opened meanwhile is in the new language already; another switch fetches its own.
      if (loader.puzzle !== puzzle || lang() !== asked) return;
      if (Array.isArray(fresh?.notes)) puzzle.notes = fresh.notes;
      if (single.view) loader.showInfo(puzzle, single.view);
    }
    single.languageChanged(); // the run's words (its algorithm's label) in the new language
  } catch (err) {
    showError(api.errorWords(err, t("shell.could_not_start")));
  }
}

mountLanguageMenu($("language-host"), () => languageChanged());

init();
