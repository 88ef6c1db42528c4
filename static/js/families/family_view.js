// @ts-check
// The interface between the page and a puzzle family's view, as a base class: every member the page
// shell (../app.js), a comparison panel (../compare/panel.js), explain mode (../explain/panel.js),
// exercise mode (../exercise/exercise.js), share and export, an editor (../edit/click_editor.js) or
// the generator dialog (../making/generate_dialog.js) calls on a view, each with its default. A
// family's view extends FamilyView and overrides what it does differently; the shell knows only this
// interface and the name → class map in ./index.js, the one place outside a family's own folder that
// names families.
// A new family: a folder here with its view class, and a line in FAMILY_VIEWS.

import { t } from "../i18n.js";

/**
 * Containers for the family's panels.
 * @typedef {object} ViewHosts
 * @property {HTMLElement} left  the left column, under the algorithm
 * @property {HTMLElement} right  the right column, under the stats
 * @property {HTMLElement} banner  the centre, above the board
 * @property {HTMLElement | null} [boardTools]  the buttons over the board (the single view's only)
 */

/**
 * What a view may ask of the page: the shell (app.js `shell`; a comparison panel's is
 * compare/panel.js `viewShell()`, whose editing calls do nothing).
 * @typedef {object} ViewShell
 * @property {(name: string) => any} option  a form option's value
 * @property {(name: string, value: any) => void} setOption  set a form option
 * @property {(message: string) => void} showError  show an error ("" clears it)
 * @property {(text: string) => void} setBusy  say what the page is waiting for
 * @property {(text: string) => void} setHover  the hover read-out under the board ("" hides it)
 * @property {() => number} toolsWidth  CSS px the buttons over the board cover on its right
 * @property {() => void} optionsChanged  a view option (viewOptions) changed: the shown run is
 *   marked as the previous one
 * @property {(ops: object[], how?: {reload?: boolean, key?: string}) => void} edit  send edit
 *   operations to the server (../edit/edit_session.js)
 * @property {(redo: object[], undo: object[], reload?: boolean) => void} remember  an edit for
 *   Undo/Redo (../edit/history.js)
 * @property {() => HTMLButtonElement[]} historyButtons  an Undo and a Redo button for an editor's panel
 * @property {() => number} textScale  1, or more with the page's large text (numbers drawn on the canvas)
 * @property {(options: object, what: string) => void} reread  read the puzzle's file again with other
 *   load options (e.g. {lattice: "off"}): a new puzzle, shown when it is read
 */

/**
 * The trace player a view is given (../playback/player.js, or a comparison's clock facade).
 * @typedef {object} ViewPlayer
 * @property {boolean} playing
 * @property {number} speed  steps a second (Infinity: as fast as it goes)
 * @property {string | null} preset  the pace preset's name, or null for a fixed speed
 * @property {() => void} pause
 */

/**
 * The constructor's argument.
 * @typedef {object} FamilyViewArgs
 * @property {HTMLCanvasElement} canvas  this view's own canvas, put in the board by the shell before
 *   enter() and taken out after leave()
 * @property {ViewHosts} hosts
 * @property {import("../timeline.js").Timeline} timeline  the run's records
 * @property {ViewPlayer} player
 * @property {ViewShell} shell
 */

/**
 * What the Player drives (../playback/player.js chooses the cheapest way to any step). A state may offer
 * snapshot, restore and undo (the fastest scrubbing), only snapshot/restore (keyframes), or none (a step
 * back replays from record 0); each family's view says which of these it has.
 * @typedef {object} PlayerTarget
 * @property {{reset(): void, apply(timeline: any, from: number, to: number, paint?: Function | null): void,
 *   status: {length: number}, snapshot?(): any, restore?(keyframe: any): void, snapshotBytes?: number,
 *   undo?(timeline: any, from: number, to: number, paint: Function | null): void}} state
 *   reset/apply/status.length; optional, for fast scrubbing on long traces: snapshot() → a keyframe
 *   (copies), restore(keyframe) (into the same arrays), snapshotBytes (one keyframe's size: the
 *   Player keeps at most its budget of them, 160 MB by default), undo(timeline, from, to, paint)
 *   takes records [from, to) back, newest first. Without them a step back replays from record 0.
 * @property {{paint: ((cell: number) => void) | null, repaintAll(): void, requestDraw(): void,
 *   drawNow(): void}} renderer  paint/repaintAll/requestDraw/drawNow (paint null: the view redraws
 *   its whole scene)
 */

/**
 * A figure of the state at the playhead.
 * @typedef {{key: string, label: string, value: number | null, def: string}} PlayheadFigure
 */

/**
 * Where the shell puts the family's option controls: `own` rows in a section of the family's own
 * (titled `title`, else the family's title; a row of names sits side by side), `shared` rows side by
 * side under the algorithm menu (every other option goes there too, in schema order); a note
 * follows an option's label, muted.
 * @typedef {{title?: string, own: string[][], shared?: string[][], notes?: Object<string, string>}} FormLayout
 */

/**
 * A puzzle family's view. No module-level mutable state: the shell may hold several instances (a
 * comparison shows 2–4 of one family side by side), each with its own canvas, Timeline and Player.
 */
export class FamilyView {
  /** @type {FormLayout} */
  static formLayout = { own: [], shared: [], notes: {} };

  /** The unit of the puzzle's width × height ("cells", "tiles"): sizes read "W × H unit". */
  static sizeUnit = "cells";
  /** The catalog key of what the board is, in words ("Maze", "Schiebepuzzle"): the board's text
   * alternative (../board/board_text.js) names it. */
  static kindKey = "a11y.puzzle.other";

  /**
   * True when the view replays how a generated board was made (playMaking): the generator dialog
   * offers it then.
   */
  static playsMaking = false;

  /** @type {HTMLCanvasElement} */ canvas;
  /** @type {ViewHosts} */ hosts;
  /** @type {import("../timeline.js").Timeline} */ timeline;
  /** @type {ViewPlayer} */ player;
  /** @type {ViewShell} */ shell;

  /** @param {FamilyViewArgs} args */
  constructor({ canvas, hosts, timeline, player, shell }) {
    Object.assign(this, { canvas, hosts, timeline, player, shell });
    /** @type {any} the puzzle shown (its info from the API), null when none */
    this.info = null;
    /** @type {Element[]} the panels put into the hosts (place), taken away by leave() */
    this.placed = [];
  }

  /** A puzzle is shown (entered and not left): an editor acts only then. */
  get active() {
    return this.info !== null;
  }

  /** True: the right column widens (long panels there). */
  get wideRight() {
    return false;
  }

  /** True: the board's zoom buttons apply (fit, zoomBy). */
  get zoomable() {
    return false;
  }

  // ---- entering and leaving ----------------------------------------------------------------------

  /**
   * Fetch what enter() needs without changing the page; an ApiError says what went wrong.
   * @param {any} _info  the puzzle's info
   * @returns {Promise<object>} data handed to enter()
   */
  async prepare(_info) {
    return {};
  }

  /**
   * Show the puzzle: start drawing, put the panels into the hosts.
   * @param {any} info  the puzzle's info
   * @param {any} _data  what prepare() gave, with `edited: true` for the same board after an edit
   */
  enter(info, _data) {
    this.info = info;
  }

  /** Stop drawing (no frame after this), take the panels away. */
  leave() {
    this.info = null;
    this.unplace();
  }

  /**
   * Put the view's panels into a host (enter()); unplace() takes them away again.
   * @param {HTMLElement} host
   * @param {...Element} nodes
   */
  place(host, ...nodes) {
    host.append(...nodes);
    this.placed.push(...nodes);
  }

  /** Take away every panel placed. */
  unplace() {
    for (const node of this.placed) node.remove();
    this.placed = [];
  }

  /**
   * What the trace Player drives.
   * @returns {PlayerTarget}
   */
  playerTarget() {
    // A programming error (a view without the method), not a sentence for people.
    throw new Error(`${this.constructor.name}.playerTarget()`);
  }

  // ---- the board's tools and the page's layout ---------------------------------------------------

  /** Fit the board to its box (the zoom buttons; when zoomable). */
  fit() {}

  /**
   * Zoom the board by `factor` about its centre (the zoom buttons; when zoomable).
   * @param {number} _factor
   */
  zoomBy(_factor) {}

  /** The page's text size or layout changed (large text, presentation mode). */
  refit() {}

  // ---- options -----------------------------------------------------------------------------------

  /**
   * Values of the schema options whose control is "view", i.e. the board (grid: start, goal).
   * @returns {Object<string, any>}
   */
  viewOptions() {
    return {};
  }

  /**
   * Take such values chosen in another view of the puzzle (the comparison's panels show and run with
   * the single view's start and goal).
   * @param {Object<string, any>} _values
   */
  useViewOptions(_values) {}

  /**
   * A form control changed; form.get/set adjust others.
   * @param {string} _name
   * @param {any} _value
   * @param {{get(name: string): any, set(name: string, value: any): void}} _form
   */
  optionChanged(_name, _value, _form) {}

  /**
   * @returns {string | null} null when a run can start, else the message to show
   */
  checkReady() {
    return null;
  }

  // ---- a run -------------------------------------------------------------------------------------

  /**
   * A run began (the timeline and player were just reset).
   * @param {any} _runId
   * @param {{algorithm?: string, options?: Object<string, any>, instant?: boolean}} _run  `instant`:
   *   the editor's re-solve, to be shown at its end, not replayed
   */
  runStarted(_runId, _run) {}

  /**
   * A raw run_frame, after its records went into the timeline.
   * @param {any} _msg
   */
  frame(_msg) {}

  /**
   * A huge board's run is done (run_done's `tiles`: its key, steps and sampling): the board at any
   * step is now drawn from tiles (the tiled views; Player.useSteps). The default ignores it.
   * @param {any} _tiles
   */
  tiledRun(_tiles) {}

  /**
   * A tiled run's counts at `step` (Stage.counts: no records to tally), or null.
   * @param {number} _step
   * @returns {{expanded: number, generated: number | null, frontier: number | null, maxFrontier: number | null} | null}
   */
  tileCounts(_step) {
    return null;
  }

  /**
   * run_done's result (show what it found only at the end of the trace: the player's position
   * reaching timeline.length with timeline.complete).
   * @param {any} _result
   */
  result(_result) {}

  /** Every record of the run has arrived. */
  traceComplete() {}

  /**
   * The family's figures of the state at the player's position (e.g. g, h, f). The shell counts
   * expanded/generated/frontier itself.
   * @returns {PlayheadFigure[]}
   */
  playheadFigures() {
    return [];
  }

  /**
   * Fill the legend under the board.
   * @param {HTMLElement} container
   * @param {{algorithm?: string}} _run
   */
  legend(container, _run) {
    container.replaceChildren();
  }

  /**
   * A run's options in words ("manhattan heuristic, weight 1 · 4 directions"), after the algorithm's
   * name on the board, the panel and the verdict's tooltip.
   * @param {string} _algorithm
   * @param {Object<string, any>} _options
   * @returns {string}
   */
  describeRun(_algorithm, _options) {
    return "";
  }

  // ---- editing and generating --------------------------------------------------------------------

  /**
   * The server confirmed an edit that was not reloaded: the new puzzle's info (its id); what is drawn
   * is already ahead of it when `pending` (more edits on the way).
   * @param {any} _info
   * @param {boolean} _pending
   */
  puzzleEdited(_info, _pending) {}

  /**
   * What enter() needs to show the board as it is now (the comparison's panels), or null: prepare().
   * @returns {object | null}
   */
  currentData() {
    return null;
  }

  /**
   * Show an undo's or redo's operations at once (the shell sends them too).
   * @param {object[]} _ops
   */
  applyEdits(_ops) {}

  /**
   * Replay how a generated board was made (when the class's playsMaking).
   * @param {any} _generated  the generator's record of its steps
   */
  playMaking(_generated) {}

  // ---- the teacher's lab (../lab/): a heuristic's heat map, a checked solution's replay ------------

  /**
   * Draw the heuristic lab's heat map over the board (./heat.js: a colour per cell for h/h*,
   * overestimating cells hatched, dead ends grey, inconsistent moves as arrows between cell centres),
   * in the view's own geometry; null removes it. A view that cannot draw one keeps `drawsHeat`
   * false (the lab then gives the verdict in words only). Cleared by the view on a new puzzle.
   * @param {import("./heat.js").Heat | null} _heat
   */
  showHeat(_heat) {}

  /** True when showHeat draws on the board. */
  get drawsHeat() {
    return false;
  }

  /**
   * A checked solution (../lab/check_panel.js) is replayed as a run whose result is `result` (the
   * server's `replay`, shaped like the family's run result): the trace records it plays first, in
   * the timeline's columns (grid: the path's cells one by one), or null for none (the view then
   * shows the result at once, as at the end of a run: its own solution replay).
   * @param {any} _result
   * @returns {{kinds: Uint8Array, cells: Int32Array, values: Float32Array} | null}
   */
  replayRecords(_result) {
    return null;
  }

  /**
   * Mark the checked solution's first illegal move on the board, or nothing (null): `move` is its
   * number (1-based), `reason` the rule it breaks in words, `cell` where the walk stopped (the last
   * legal state's cell, -1 when unknown) and `target` the cell the move tried to enter (-1: unknown).
   * @param {{move: number, reason: string, cell: number, target: number} | null} _illegal
   */
  markIllegal(_illegal) {}

  // ---- explain mode (../explain/panel.js: the frontier rebuilt from the trace at the playhead) ----
  // A "state" below is what names it in the trace: the record's cell, or where stateIds() gives a
  // column, the record's state number (the frames' `named`, ./named_states.js).

  /** False when the trace names no state (a cell shared by several, no numbers): the frontier cannot be rebuilt then. */
  get tracedStates() {
    return true;
  }

  /**
   * The trace's state numbers, one a record (data[0..length)), when the run's frames name its states
   * by number (docs/PROTOCOL.md, `named`); null when a record's cell is its state (the default).
   * @returns {{data: Int32Array | Float64Array, length: number} | null}
   */
  stateIds() {
    return null;
  }

  /**
   * Where the view itself shows the frontier when the trace cannot name it (explain mode says so
   * instead of "cannot be rebuilt"), or null.
   * @returns {string | null}
   */
  get frontierShownBy() {
    return null;
  }

  /**
   * A state in words: the family's one notation, the same the server writes (Family.state_text:
   * the lab's and the checker's sentences): grid "(3, 4)", step "(3, 4) phase 1", tile puzzles their
   * rows "7 2 4 / 5 _ 6 / 8 3 1". Explain mode, Predict and the lab ask this method only.
   * @param {number} cell
   * @returns {string}
   */
  stateLabel(cell) {
    return `state ${cell}`;
  }

  /**
   * The state drawn small, as the family draws it (a tile puzzle's board), for Predict's choices and
   * explain mode's frontier; null when the words of stateLabel are the whole picture (a cell).
   * @param {number} _state
   * @returns {HTMLElement | null}
   */
  stateFigure(_state) {
    return null;
  }

  /**
   * h of a state under the shown run's heuristic, or null when the view cannot tell: greedy and A*
   * order their frontier by (f, h, insertion order), so without it the frontier is listed by g only,
   * and the panel says so (the grid and step views tell).
   * @param {number} _cell
   * @returns {number | null}
   */
  heuristicOf(_cell) {
    return null;
  }

  /**
   * The cost of a move as the server computes it (float64), or null when the view cannot tell: g is
   * then summed along the expansions exactly, where the trace's float32 g could tie two f the server
   * tells apart (the grid's √2 diagonals); checked against the trace.
   * @param {number} _from
   * @param {number} _to
   * @returns {number | null}
   */
  stepCost(_from, _to) {
    return null;
  }

  // ---- exercise mode (../exercise/: the student predicts the next expansion) ---------------------

  /**
   * The states (record cells, as the trace names them) a click at this page point names on the
   * board, for an answer given by clicking: one cell may hold several states (a phase, a rotation:
   * all of them); [] when the point holds none (a wall, off the board); null when the view cannot
   * tell (the default: the student chooses from the exercise panel's list instead).
   * @param {number} _clientX
   * @param {number} _clientY
   * @returns {number[] | null}
   */
  statesAt(_clientX, _clientY) {
    return null;
  }

  /**
   * A record's cell in words where it names no state (tracedStates false): where on the board the
   * state stands ("the blank at (2, 1)"), alike for every state there; by default stateLabel.
   * @param {number} cell
   * @returns {string}
   */
  cellLabel(cell) {
    return this.stateLabel(cell);
  }

  // ---- the board by keyboard and in words (../board/: the cell cursor, the live region) ---------
  // The cell cursor walks a grid of cells over the canvas and acts on a cell by dispatching the
  // pointer and mouse events a click at the cell's centre makes (pointerdown, mousedown, pointerup,
  // mouseup, click) and a pointermove/mousemove there (the hover read-out follows it): a view
  // handles them as it handles a click, with nothing of its own for the keyboard. A view tells the
  // cursor its geometry with the three methods below; the defaults offer no cursor.

  /**
   * The cells the keyboard's cell cursor walks: `columns` × `rows` (the board's, as drawn), and
   * `home`, where the cursor starts on a new puzzle; null when the board has none (the default: the
   * cursor is not shown, the arrows step the player).
   * @returns {{columns: number, rows: number, home?: {column: number, row: number}} | null}
   */
  cursorGrid() {
    return null;
  }

  /**
   * Where cell (column, row) of cursorGrid() is drawn now (after zoom and pan): its rectangle in CSS
   * px from the canvas's top-left corner, or null when it is not drawn.
   * @param {number} _column
   * @param {number} _row
   * @returns {{x: number, y: number, width: number, height: number} | null}
   */
  cursorRect(_column, _row) {
    return null;
  }

  /**
   * The cursor's cell in words, said by the live region when the cursor moves onto it: the
   * family's notation and what is there ("(3, 4): wall"), in the page's language (i18n.js t()).
   * By default its coordinates, "(row, column)".
   * @param {number} column
   * @param {number} row
   * @returns {string}
   */
  cursorLabel(column, row) {
    return `(${row}, ${column})`;
  }

  /**
   * The puzzle's start and goal in words for the canvas's text alternative (../board/board_text.js:
   * "the puzzle, its size, start, goal and the state shown"): each null when it is not chosen yet,
   * undefined when the puzzle has none to tell (the state is the whole board). By default the view
   * options `start` and `goal` ([row, col]) where the view has them.
   * @returns {{start: string | null | undefined, goal: string | null | undefined}}
   */
  boardFacts() {
    const options = this.info ? this.viewOptions() : {};
    const words = (p) => (Array.isArray(p) && p.length === 2 ? `(${p[0]}, ${p[1]})` : null);
    return {
      start: "start" in options ? words(options.start) : undefined,
      goal: "goal" in options ? words(options.goal) : undefined,
    };
  }

  /**
   * The g a trace record carries, as a number the live region says ("g 12"): the record's value
   * by default (docs/PROTOCOL.md: `values` = g); a view whose records encode more than g decodes
   * it here; null when the record's value is not its g.
   * @param {number} value  the record's value (float32)
   * @param {number} _kind  the record's kind (../timeline.js KIND)
   * @returns {number | null}
   */
  recordG(value, _kind) {
    return Number.isFinite(value) ? value : null;
  }

  /**
   * A sentence of the page's catalog in the current language (../i18n.js t()), for the methods
   * above (cursorLabel: the `a11y.cell.*` words).
   * @param {string} key
   * @param {Record<string, any>} [params]
   * @returns {string}
   */
  a11yWords(key, params) {
    return t(key, params);
  }
}
