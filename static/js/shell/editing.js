// @ts-check
// The editor's side of the page, whatever the family: edits sent to the server one request at a time
// (../edit/edit_session.js), one undo history (../edit/history.js) with its buttons and keys, and what
// follows a confirmed edit — the board becomes the new puzzle and a run on it is re-solved at once.
// A family view's editor reaches this through the shell it is given (edit, remember, historyButtons).

import * as api from "../api.js";
import { el } from "../dom.js";
import { EditHistory } from "../edit/history.js";
import { EditSession } from "../edit/edit_session.js";
import { probe, resolvedProbe } from "./probes.js";
import { showError } from "./status.js";
import { t } from "../i18n.js";

const TEXT_INPUTS = new Set(["text", "number", "search", "email", "url", "tel", "password"]);

export class Editing {
  /**
   * @param {{loader: import("./loading.js").PuzzleLoader, single: import("./single_view.js").SingleView,
   *          blocked: () => boolean, onEdited: (info) => void}} args
   *   blocked(): the comparison is open (the single view's board is not edited then);
   *   onEdited: the board is the edited puzzle now (without a reload).
   */
  constructor({ loader, single, blocked, onEdited }) {
    this.loader = loader;
    this.single = single;
    this.blocked = blocked;
    this.onEdited = onEdited;
    this.stamp = null; // when the first change not yet re-solved was made (the editing benchmark's clock)
    this.controls = new Set(); // [undo, redo] button pairs, one in each editor's panel
    this.history = new EditHistory({ onChange: () => this.historyChanged() });
    this.session = new EditSession({
      onEdited: (info, reload) => this.edited(info, reload),
      onFailed: (message, lastGoodId) => {
        // The board drawn is ahead of the server's: show the server's again, then say why.
        this.loader.load(() => api.getPuzzle(lastGoodId), t("status.loading"), t("shell.the_board"), { edited: true })
          .then(() => showError(t("shell.refused_change", { message })));
        this.history.clear(); // its steps were made on a board the server did not take
      },
    });
  }

  edit(ops, how = {}) {
    this.stamp ??= performance.now(); // the first change not yet re-solved: latency from here
    probe("edits", "pending");
    this.session.push(ops, how);
  }

  /** A puzzle is on the board: edits from now on apply to it. */
  puzzleShown(info, data) {
    this.session.start(info.id);
    if (!data?.edited) this.history.clear(); // another puzzle: the history was the old one's
    probe("edits", "idle");
  }

  /** An Undo and a Redo button for an editor's panel (each editor asks once). */
  historyButtons() {
    const undo = el("button", { type: "button", testid: "undo", t: "shell.undo", tattr: { title: "shell.undo_title" },
      disabled: true, on: { click: () => this.undoRedo(this.history.undo()) } });
    const redo = el("button", { type: "button", testid: "redo", t: "shell.redo", tattr: { title: "shell.redo_title" },
      disabled: true, on: { click: () => this.undoRedo(this.history.redo()) } });
    this.controls.add([undo, redo]);
    return [undo, redo];
  }

  historyChanged() {
    for (const [undo, redo] of this.controls) {
      undo.disabled = !this.history.canUndo;
      redo.disabled = !this.history.canRedo;
    }
  }

  /** Show an undo's or redo's operations on the board at once (where the view can) and send them. */
  undoRedo(step) {
    const view = this.single.view;
    if (!step || !view) return;
    if (!step.reload) view.applyEdits(step.ops);
    this.edit(step.ops, { reload: step.reload });
  }

  /** Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo the editor's changes (outside text fields). */
  key(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || !this.single.view || this.blocked()) return false;
    const tag = event.target?.tagName;
    if (tag === "TEXTAREA" || (tag === "INPUT" && TEXT_INPUTS.has(event.target.type))) return false;
    const key = event.key.toLowerCase();
    if (key !== "z" && key !== "y") return false;
    this.undoRedo(key === "y" || event.shiftKey ? this.history.redo() : this.history.undo());
    event.preventDefault();
    return true;
  }

  /** The server confirmed an edit: the board is a new puzzle; a run on it is re-solved at once. */
  edited(info, reload) {
    if (reload) {
      const hadRun = Boolean(this.single.run);
      this.loader.load(async () => info, t("status.loading"), t("shell.edited_board"), { edited: true }).then(() => {
        if (hadRun && this.loader.puzzle?.id === info.id) this.reSolve(true);
      });
      return;
    }
    const puzzle = this.loader.edited(info);
    this.single.view.puzzleEdited(puzzle, this.session.pending);
    probe("edits", this.session.pending ? "pending" : "idle");
    this.onEdited(puzzle);
    this.reSolve();
  }

  /**
   * After a change of the board, search it again with the form's choices and show the end at once;
   * `force`: even though the board shows no run (it was reloaded, after a run).
   */
  reSolve(force = false) {
    if (this.blocked()) return;
    this.single.reSolve(force);
  }

  /** A re-solve took the board: the benchmark's figure, from the first change it covers. */
  reSolved(run, started) {
    const since = this.stamp ?? started;
    this.stamp = null;
    resolvedProbe(since, run.result?.seconds);
  }
}
