// @ts-check
// Loading a puzzle onto the page: from the gallery, a file, a share link, a generator or the editor.
// Each load is numbered and only the newest is shown; a load asked for before the page's set-up is
// done (a file chosen the moment the page shows) waits for it and is then opened, never replaced by
// the gallery's default. The board's family view is switched here (the Stage keeps one per family).

import * as api from "../api.js";
import { byId, el } from "../dom.js";
import { fileMessage, sizeText } from "../format.js";
import { probe } from "./probes.js";
import { idle, progressing, sayStatus, showError, working } from "./status.js";
import { t } from "../i18n.js";

const $ = byId;

export class PuzzleLoader {
  /**
   * @param {{single: import("./single_view.js").SingleView, selection: import("./selection.js").Selection,
   *          setHover: (text: string) => void, onShown: (info, data) => void}} args
   *   onShown: a puzzle is on the board (the comparison, the editor, the gallery follow).
   */
  constructor({ single, selection, setHover, onShown }) {
    this.single = single;
    this.selection = selection;
    this.setHover = setHover;
    this.onShown = onShown;
    this.puzzle = null; // the puzzle shown: its info (plus title/description/galleryName from the gallery)
    this.original = null; // the puzzle as opened, before any edit: an undo back to its content is it again
    this.token = 0; // the latest load; older ones are dropped when they finish
    /** @type {AbortController | null} the latest load's: a newer load or its Cancel button aborts it */
    this.controller = null;
    this.asked = false; // a load was asked for (by the user or a link): no default puzzle then
    this.whenReady = new Promise((resolve) => { this.setReady = resolve; });
  }

  /** The page's set-up is done (algorithms and families known): waiting loads go on. */
  ready() {
    this.setReady();
  }

  /**
   * Load a puzzle (fetchInfo resolves to its info); `label` the status meanwhile; `what` names it in
   * error messages; `focusRun`: the next key press should start the search; `edited`: the same board,
   * changed by the editor; `fallback`: the page's own default (dropped when anything else was asked);
   * `cancellable`: a Cancel button over the board while it loads (an upload).
   * fetchInfo is called with `{report, signal}`: `report(text, fraction)` says how far it is (status
   * line, the text over the board, the bar; fraction null: not known), `signal` aborts when the user
   * cancels or a newer load starts (an aborted fetchInfo rejects with api.UploadCancelled).
   * @param {(args: {report: (text: string, fraction: number | null) => void, signal: AbortSignal}) => Promise<any>} fetchInfo
   * @param {string} label
   * @param {string} what
   * @param {{focusRun?: boolean, edited?: boolean, fallback?: boolean, cancellable?: boolean}} [options]
   */
  async load(fetchInfo, label, what, { focusRun = false, edited = false, fallback = false, cancellable = false } = {}) {
    if (fallback && this.asked) return;
    if (!fallback) this.asked = true;
    const token = ++this.token;
    this.single.cancel();
    this.controller?.abort(); // an upload in flight is not wanted any more
    const controller = new AbortController();
    this.controller = controller;
    const cancel = cancellable ? () => controller.abort() : null;
    showError("");
    working(label, cancel);
    try {
      await this.whenReady;
      if (token !== this.token) return;
      const report = (text, fraction) => {
        if (token === this.token && !controller.signal.aborted) progressing(text, fraction, cancel);
      };
      const info = await fetchInfo({ report, signal: controller.signal });
      if (token !== this.token) return;
      if (cancellable) working(t("shell.loading_board")); // the view fetches the board's cells next
      const view = this.single.stage.viewFor(info.family, info);
      if (!view || !this.selection.families.has(info.family)) {
        throw new api.ApiError(t("shell.cannot_show", { family: info.family }));
      }
      const data = await view.prepare(info);
      if (token !== this.token) return;
      if (edited) {
        data.edited = true; // the same board, changed: the view keeps its tool and history
        Object.assign(info, this.editedTitle(info));
      } else this.original = info;
      this.show(info, view, data);
      sayStatus("status.ready", "idle");
      if (focusRun) $("run").focus();
    } catch (err) {
      if (token !== this.token) return;
      if (err instanceof api.UploadCancelled) {
        sayStatus(this.puzzle ? "status.ready" : "status.cancelled", "idle", "shell.upload_cancelled_detail");
        return;
      }
      showError(fileMessage(what, api.errorWords(err, t("shell.load_failed"))));
      sayStatus(this.puzzle ? "status.ready" : "status.error", this.puzzle ? "idle" : "error");
    } finally {
      if (token === this.token) {
        idle();
        this.controller = null;
      }
    }
  }

  /** Hand the board to `view` for a new puzzle. */
  show(info, view, data) {
    this.setHover("");
    this.single.stage.forgetRun();
    this.puzzle = info;
    this.selection.forPuzzle(info, view.constructor);
    this.single.show(info, data, view);
    this.showInfo(info, view);
    this.single.shown();
    probe("puzzleId", info.id); // tests read the puzzle shown
    this.onShown(info, data);
  }

  /** What every family shows of a new puzzle: title, notes, size. */
  showInfo(info, view) {
    $("empty").hidden = true;
    this.showTitle(info);
    $("run").disabled = false;
    // A note that says what the description says and more (a generator's) stands for it.
    const more = (info.notes || []).some((note) => info.description && note.startsWith(info.description));
    const notes = [more ? null : info.description, ...(info.notes || [])].filter(Boolean);
    $("notes").replaceChildren(...notes.map((note) => el("p", { text: note })));
    $("notes-box").hidden = !notes.length;
    $("notes-box").open = Boolean(info.description);
    $("maze-size").textContent = sizeText(info.width, info.height, view.constructor.sizeUnit || "");
    if ("weighted" in info) {
      $("maze-size").title = info.weighted ? t("shell.weighted") : t("shell.unweighted");
    } else $("maze-size").removeAttribute("title");
  }

  showTitle(info) {
    $("puzzle-name").textContent = info.title || info.name;
    document.title = t("shell.page_title", { name: info.title || info.name });
  }

  /** The editor's change was confirmed without reloading: the board is this puzzle now. */
  edited(info) {
    this.puzzle = { ...info, ...this.editedTitle(info) };
    this.single.stage.info = this.puzzle;
    this.showTitle(this.puzzle);
    probe("puzzleId", info.id);
    return this.puzzle;
  }

  /**
   * An edited puzzle keeps its name, marked as edited (it is no longer the gallery's); edited back to
   * the puzzle as opened (the same content, so the same id: an undo), it is that puzzle again.
   */
  editedTitle(info) {
    const original = this.original;
    if (original && info.id === original.id) {
      return { title: original.title || original.name, galleryName: original.galleryName || null, description: original.description || "" };
    }
    const title = this.puzzle?.title || this.puzzle?.name || info.name;
    const edited = t("shell.edited", { title: "" }).trim(); // "(edited)", "(bearbeitet)"
    return { title: title.endsWith(edited) ? title : t("shell.edited", { title }), galleryName: null, description: "" };
  }
}
