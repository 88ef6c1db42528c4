// The editor's undo and redo, one history for the page whatever the family: each entry is the
// operations that made a change and the operations that take it back (the family's editor knows
// both). Undo sends the second list as a new edit — the server answers with the puzzle as it was,
// under the same content hash as before.

const HISTORY_LIMIT = 200; // changes kept

export class EditHistory {
  /** @param {{onChange?: () => void}} hooks */
  constructor({ onChange = () => {} } = {}) {
    this.onChange = onChange;
    this.done = [];
    this.undone = [];
  }

  /** A change made: `redo` made it, `undo` takes it back; `reload`: the board's size may change. */
  remember(redo, undo, reload = false) {
    this.done.push({ redo, undo, reload });
    if (this.done.length > HISTORY_LIMIT) this.done.shift();
    this.undone = [];
    this.onChange();
  }

  /** The operations that take the last change back ({ops, reload}), or null. */
  undo() {
    return this.move(this.done, this.undone, "undo");
  }

  /** The operations that make the last change taken back again ({ops, reload}), or null. */
  redo() {
    return this.move(this.undone, this.done, "redo");
  }

  /** The last step of `from` onto `to`: its `way` operations ({ops, reload}), or null when `from` is empty. */
  move(from, to, way) {
    const step = from.pop();
    if (!step) return null;
    to.push(step);
    this.onChange();
    return { ops: step[way], reload: step.reload };
  }

  clear() {
    this.done = [];
    this.undone = [];
    this.onChange();
  }

  get canUndo() {
    return this.done.length > 0;
  }

  get canRedo() {
    return this.undone.length > 0;
  }
}
