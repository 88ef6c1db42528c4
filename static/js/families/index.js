// The front end's puzzle families: which view class shows a puzzle of each `info.family`. This is the
// one place outside a family's own folder that names families; the shell (../app.js) knows only the
// interface below. A new family: a folder here with its view class, and a line in FAMILY_VIEWS.
//
// A family view is a class with no module-level mutable state: the shell may hold several instances
// (a comparison shows 2–4 of one family side by side), each with its own canvas, Timeline and Player.
//
//   static formLayout      {title?, own: [[name, ...], ...], notes?: {name: "(note)"}}: options shown in a
//                          section of the family's own (titled `title`, else the family's title; a row
//                          of names sits side by side); every other form option goes under the
//                          algorithm menu; a note follows an option's label, muted.
//   static sizeUnit        the unit of the puzzle's width × height ("cells", "tiles"): the gallery and
//                          the Size figure write every size as "W × H unit".
//   constructor({canvas, hosts, timeline, player, shell})
//                          canvas: this view's own <canvas>, put in the board by the shell before
//                          enter() and taken out after leave(); hosts: {left, right, banner}, containers
//                          for the family's panels (left column under the algorithm, right column under
//                          the stats, centre above the board); shell: see app.js (`option(name)`,
//                          `setOption`, `showError`, `setBusy`, `setHover`, `toolsWidth`,
//                          `optionsChanged()` — call it when a view option (viewOptions) changed, so the
//                          shown run is marked as the previous one — and `textScale()`: 1, or more with
//                          the page's large text, for numbers drawn on the canvas).
//   wideRight              true: the right column widens (long panels there).
//   async prepare(info)    fetch what enter() needs (grid: the cells) without changing the page;
//                          resolves to data handed to enter(); an ApiError says what went wrong.
//   enter(info, data)      show the puzzle: start drawing, put the panels into the hosts.
//   leave()                stop drawing (no frame after this), take the panels away.
//   playerTarget()         {state, renderer} for the Player: state.reset/apply/status.length,
//                          renderer.paint/repaintAll/requestDraw/drawNow. Optional, for fast scrubbing
//                          on long traces (../player.js chooses the cheapest way to any step):
//                          state.snapshot() → a keyframe (copies), state.restore(keyframe) (into the
//                          same arrays), state.snapshotBytes (one keyframe's size: the Player keeps
//                          at most its budget of them, 160 MB by default); state.undo(timeline, from,
//                          to, paint) takes records [from, to) back, newest first (reversible records).
//                          Without them a step back replays from record 0. The grid has all four
//                          (5 bytes a cell a keyframe, 5 bytes a record of undo log); the step-cycle
//                          and labyrinth searches have snapshot/restore; Zenji's replays.
//   viewOptions()          values of the schema options whose control is "view" (grid: start, goal).
//   useViewOptions(values) optional: take such values chosen in another view of the puzzle (the
//                          comparison's panels show and run with the single view's start and goal).
//   optionChanged(name, value, form)   a form control changed; form.get/set adjust others.
//   checkReady()           null when a run can start, else the message to show.
//   The shell a view is given (app.js `shell`; a comparison panel's in compare/panel.js) also offers,
//   for an editor: edit(ops, {reload, key}) (send edit operations: ../edit/edit_session.js),
//   remember(redo, undo, reload) and historyButtons() (Undo/Redo: ../edit/history.js); a view's
//   optional applyEdits(ops) shows an undo's operations at once (the grid's).
//   runStarted(runId, {algorithm, options, instant})   a run began (the timeline and player were just
//                          reset); `instant`: the editor's re-solve, to be shown at its end, not replayed.
//   frame(msg)             a raw run_frame, after its records went into the timeline.
//   result(result)         run_done's result (show what it found only at the end of the trace: the
//                          player's position reaching timeline.length with timeline.complete).
//   traceComplete()        every record of the run has arrived.
//   playheadFigures()      the family's figures of the state at the player's position, as
//                          [{key, label, value (number or null), def (one line)}]: the grid's g, h, f,
//                          the labyrinth's g. The shell counts expanded/generated/frontier itself.
//   legend(container, {algorithm})     fill the legend under the board.
//   describeRun(algorithm, options)    a run's options in words ("manhattan heuristic, weight 1 ·
//                          4 directions"), after the algorithm's name on the board, the panel and the
//                          verdict's tooltip.
//   fit(), zoomBy(factor)  optional: the board's zoom buttons show only when present.
//   refit()                optional: the page's text size or layout changed (large text, presentation).
//   Optional, for explain mode (../explain/panel.js: the code beside the board, the frontier rebuilt
//   from the trace at the playhead):
//   stateLabel(cell)       a record's state in words: "(3, 4)", "(3, 4) phase 1"; else "state N".
//   heuristicOf(cell)      h of that state under the shown run's heuristic, or null: greedy and A*
//                          order their frontier by (f, h, insertion order), so without it the
//                          frontier is listed by g only, and the panel says so. Grid and step views.
//   stepCost(from, to)     the cost of a move as the server computes it (float64): g is then summed
//                          along the expansions exactly, where the trace's float32 g could tie two f
//                          the server tells apart (the grid's √2 diagonals); checked against the trace.
//   tracedStates           false when a record's cell does not name its state (the labyrinth's
//                          player cell, Zenji under free flow): the frontier cannot be rebuilt then.

import { GridView } from "./grid/grid_view.js";
import { LabyrinthView } from "./labyrinth/labyrinth_view.js";
import { StepView } from "./step/step_view.js";
import { ZenjiView } from "./zenji/zenji_view.js";

export const FAMILY_VIEWS = { grid: GridView, labyrinth: LabyrinthView, step: StepView, zenji: ZenjiView };

/** The view class for a puzzle family's name, or null when this page cannot show that family. */
export function viewClassFor(family) {
  return Object.hasOwn(FAMILY_VIEWS, family) ? FAMILY_VIEWS[family] : null;
}
