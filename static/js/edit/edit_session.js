// The editor's line to the server: a family view's editor changes its board locally at once and hands
// the edit operations here; they go to the server one request at a time (POST /api/puzzles/<id>/edit),
// each request carrying every operation queued while the previous one was out, so a fast stroke costs
// a few requests, not one per cell. Each answer is a new puzzle (its content hash as the id), handed
// to `onEdited`. An operation with a `key` (a start or goal being dragged) replaces the queued one with
// the same key: only where the pointer is now matters.

import * as api from "../api.js";
import { t } from "../i18n.js";

export class EditSession {
  /**
   * @param {{send?: (id: string, ops: object[]) => Promise<object>, onEdited: (info: object, reload: boolean) => void,
   *          onFailed: (message: string, lastGoodId: string) => void}} hooks
   */
  constructor({ send = api.editPuzzle, onEdited, onFailed }) {
    Object.assign(this, { send, onEdited, onFailed });
    this.baseId = null; // the puzzle the next request edits (the last one the server confirmed)
    this.queue = []; // [{op, key}] not sent yet
    this.reload = false; // an operation queued needs the board fetched again (its size changed)
    this.busy = false;
    this.generation = 0; // a new puzzle (start) drops answers about the old one
  }

  /** A new puzzle is shown: edits from now on apply to it. */
  start(id) {
    this.baseId = id;
    this.queue = [];
    this.reload = false;
    this.generation++;
    this.busy = false;
  }

  /** Queue operations (`key`: replace a queued operation with the same key) and send when free. */
  push(ops, { key = null, reload = false } = {}) {
    if (!this.baseId) return;
    if (key !== null) this.queue = this.queue.filter((item) => item.key !== key);
    for (const op of ops) this.queue.push({ op, key });
    this.reload ||= reload;
    this.flush();
  }

  get pending() {
    return this.busy || this.queue.length > 0;
  }

  async flush() {
    if (this.busy || !this.queue.length) return;
    const generation = this.generation;
    const ops = this.queue.map((item) => item.op);
    const reload = this.reload;
    this.queue = [];
    this.reload = false;
    this.busy = true;
    try {
      const info = await this.send(this.baseId, ops);
      if (generation !== this.generation) return;
      this.baseId = info.id;
      this.busy = false;
      this.onEdited(info, reload);
    } catch (err) {
      if (generation !== this.generation) return;
      this.busy = false;
      this.queue = [];
      this.onFailed(api.errorWords(err, t("edit.send_failed")), this.baseId);
    }
    this.flush();
  }
}
