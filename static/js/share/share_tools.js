// Share and export, in the page's header: "Share" copies a link to what the board shows (the puzzle,
// the algorithm and options of the run on the board, the step of the trace; ./link.js), and the
// "Export" menu saves the board as PNG (the family view's canvas, as shown), an animated GIF of the
// search (rendered by the server; ./gif_job.js), the run's result as JSON (the object `run.py solve
// --json` prints) or the puzzle itself as a file in each of its family's formats (GET
// /api/puzzles/<id>/file: what "Open file…" and run.py read again). A short status beside them says
// what happened; a GIF's progress shows there.
// The shell (../app.js) hands in what these read of the page; a link is opened as an address is
// (../shell/address.js: the address bar and a share link are one format).

import { errorWords, fileUrl, request } from "../api.js";
import { el } from "../dom.js";
import { fmt as number, lang, onLanguage, setAttr, setText, t } from "../i18n.js";
import { canvasPng, fileStem, saveBlob, saveUrl } from "./download.js";
import { GifJob, progressText } from "./gif_job.js";
import { shareUrl } from "./link.js";

const SAY_MS = 8000; // how long a status line stays (a GIF's progress stays until it is done)
const IMAGE_FORMATS = new Set(["png"]); // a board file that is a picture ("Board image (.png)")

export class ShareTools {
  /**
   * @param {{host: HTMLElement, page: object}} args  page: puzzle(), families() (name -> schema entry),
   *   run() (the run on the board: {algorithm, options, result, records, finished} or null),
   *   selection() ({algorithm, options} of the form now), position() (the player's step), canvas(),
   *   showError(message), exercise() (exercise mode is on: a link opens it).
   */
  constructor({ host, page }) {
    this.page = page;
    this.gif = null; // the GIF export in progress
    this.sayTimer = 0;
    this.dialog = null;
    this.build(host);
  }

  // ---- the controls ----------------------------------------------------------------------------

  build(host) {
    this.shareButton = el("button", {
      type: "button", class: "share-button", testid: "share", t: "share.share",
      tattr: { title: "share.share_help" },
      on: { click: () => this.share() },
    });
    // An item's title and detail: catalog keys with their params ([key, params]).
    const item = (testid, [title, titleParams], [detail, detailParams], action) => {
      const detailNode = el("span", { class: "export-detail", t: detail, params: detailParams });
      const button = el("button", {
        type: "button", role: "menuitem", testid, class: "export-item",
        on: { click: () => { if (button.getAttribute("aria-disabled") !== "true") { this.closeMenu(); action(); } } },
      }, el("span", { class: "export-title", t: title, params: titleParams }), detailNode);
      button.detailNode = detailNode;
      button.defaultDetail = [detail, detailParams];
      return button;
    };
    this.pngItem = item("export-png", ["share.png"], ["share.png_detail"], () => this.exportPng());
    this.gifItem = item("export-gif", ["share.gif"], ["share.gif_detail"], () => this.exportGif());
    this.jsonItem = item("export-json", ["share.json"], ["share.json_detail"], () => this.exportJson());
    this.menu = el("div", { class: "export-menu", id: "export-menu", role: "menu", tattr: { "aria-label": "share.export" }, hidden: true },
      this.pngItem, this.gifItem, this.jsonItem);
    this.makeItem = item; // the board file items follow the shown puzzle's family (boardItems)
    this.boardItems = [];
    this.boardFamily = null;
    this.menuButton = el("button", {
      type: "button", class: "export-button", testid: "export-menu", "aria-haspopup": "menu",
      "aria-expanded": "false", "aria-controls": "export-menu", tattr: { title: "share.export_help" }, t: "share.export_button",
      on: { click: () => (this.menu.hidden ? this.openMenu() : this.closeMenu()) },
    });
    this.status = el("span", { class: "share-status", testid: "share-status", role: "status", "aria-live": "polite" });
    this.cancelButton = el("button", {
      type: "button", class: "share-cancel", testid: "export-gif-cancel", hidden: true,
      tattr: { title: "share.gif_stop_help" }, t: "share.gif_stop", on: { click: () => this.gif?.cancel() },
    });
    host.replaceChildren(this.status, this.cancelButton, this.shareButton,
      el("span", { class: "export-wrap" }, this.menuButton, this.menu));
    this.menu.addEventListener("keydown", (event) => this.menuKey(event));
    document.addEventListener("pointerdown", (event) => {
      if (!this.menu.hidden && !this.menu.parentElement.contains(event.target)) this.closeMenu();
    });
    // The board file items and the reasons are written from the families' titles: again in a new language.
    onLanguage(() => {
      this.boardFamily = undefined;
      if (!this.menu.hidden) this.refresh();
    });
  }

  openMenu() {
    this.refresh();
    this.menu.hidden = false;
    this.menuButton.setAttribute("aria-expanded", "true");
    this.items().find((b) => b.getAttribute("aria-disabled") !== "true")?.focus();
  }

  closeMenu(focusButton = false) {
    if (this.menu.hidden) return;
    this.menu.hidden = true;
    this.menuButton.setAttribute("aria-expanded", "false");
    if (focusButton) this.menuButton.focus();
  }

  items() {
    return [this.pngItem, this.gifItem, this.jsonItem, ...this.boardItems];
  }

  /** One item per file format of the shown puzzle's family (the first: its default, keeping everything). */
  boardFileItems(family) {
    const name = family?.name || null;
    if (name === this.boardFamily) return;
    this.boardFamily = name;
    for (const button of this.boardItems) button.remove();
    const formats = family?.formats || [];
    this.boardItems = formats.map((fmt, index) => {
      const image = IMAGE_FORMATS.has(fmt);
      const title = [image ? "share.board_image" : "share.board_file", { fmt }];
      const detail = [index === 0 ? "share.board_detail_first" : "share.board_detail"];
      return this.makeItem(`download-board-${fmt}`, title, detail, () => this.downloadBoard(fmt));
    });
    if (this.boardItems.length) this.boardItems[0].classList.add("export-first-board");
    this.menu.append(...this.boardItems);
  }

  menuKey(event) {
    const items = this.items();
    const at = items.indexOf(document.activeElement);
    if (event.key === "Escape") this.closeMenu(true);
    else if (event.key === "ArrowDown") items[(at + 1) % items.length].focus();
    else if (event.key === "ArrowUp") items[(at - 1 + items.length) % items.length].focus();
    else if (event.key === "Tab") this.closeMenu();
    else return;
    if (event.key !== "Tab") event.preventDefault(); // the page's own keys (Esc leaves presentation) wait
  }

  /** Enable what the page can export now; a disabled item says why (in its line and its tooltip). */
  refresh() {
    const puzzle = this.page.puzzle();
    const run = this.page.run();
    const family = puzzle ? this.page.families().get(puzzle.family) : null;
    this.boardFileItems(family);
    // English writes a family's title in lower case in running text ("mazes"); German keeps a noun's capital.
    const english = lang() === "en";
    const named = (title) => (english ? String(title).toLowerCase() : String(title));
    const drawers = [...this.page.families().values()].filter((f) => f.animation)
      .map((f) => t("share.family_plural", { family: named(f.title) }));
    const why = {
      png: puzzle && this.page.canvas() ? null : ["share.open_first"],
      gif: !puzzle ? ["share.open_first"]
        : this.gif ? ["share.gif_busy"]
          : family && !family.animation
            ? ["share.gif_not_drawn", { family: named(family.title || puzzle.family),
              drawers: drawers.join(t("share.and")) || t("share.no_family") }]
            : null,
      json: run?.result ? null : run ? ["share.json_wait"] : ["share.run_first"],
    };
    for (const [button, reason] of [[this.pngItem, why.png], [this.gifItem, why.gif], [this.jsonItem, why.json]]) {
      button.setAttribute("aria-disabled", String(Boolean(reason)));
      if (reason) setAttr(button, "title", reason[0], reason[1]);
      else {
        button.removeAttribute("data-i18n-attr");
        button.title = "";
      }
      const [key, params] = reason || button.defaultDetail;
      setText(button.detailNode, key, params);
    }
  }

  /** A line beside the buttons (a text already written, "" for none); `url` goes in its tooltip; `stay`: until
   * replaced (progress). */
  say(text, { url = "", stay = false } = {}) {
    clearTimeout(this.sayTimer);
    delete this.status.dataset.i18n;
    this.status.textContent = text;
    this.status.title = url;
    this.status.dataset.url = url;
    if (text && !stay) this.sayTimer = setTimeout(() => this.say(""), SAY_MS);
  }

  /** The file name of an export: the puzzle's and the run's algorithm's names. */
  stem() {
    const puzzle = this.page.puzzle();
    const run = this.page.run();
    return fileStem(puzzle?.galleryName || puzzle?.name || "puzzle", run?.algorithm);
  }

  // ---- share -----------------------------------------------------------------------------------

  /**
   * What a link shows: the run on the board (its algorithm, options and step), else the form's
   * choice; with exercise mode on, the exercise on them (no step: the student runs it).
   */
  linkState() {
    const puzzle = this.page.puzzle();
    if (!puzzle) return null;
    const run = this.page.run();
    const { algorithm, options } = run || this.page.selection();
    const exercise = Boolean(this.page.exercise?.());
    return { puzzle, algorithm, options, at: run && !exercise ? this.page.position() : null, exercise };
  }

  async share() {
    const state = this.linkState();
    if (!state) {
      this.say(t("share.open_first_share"));
      return;
    }
    const url = shareUrl({ ...state, lang: lang() }); // the link opens in the page's language
    const upload = !state.puzzle.galleryName;
    if (navigator.clipboard?.writeText && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(url);
        const key = state.exercise
          ? (upload ? "share.exercise_copied_upload" : "share.exercise_copied")
          : (upload ? "share.link_copied_upload" : "share.link_copied");
        this.say(t(key), { url });
        return;
      } catch { /* no permission: the dialog below */ }
    }
    this.showLink(url, upload);
    this.say(t("share.copy_from_dialog"), { url });
  }

  /** The link in a small dialog, selected, for copying by hand (no clipboard access). */
  showLink(url, upload) {
    if (!this.dialog) {
      // A textarea shows the whole link, wrapped (an input would scroll it out of sight).
      this.linkInput = el("textarea", { readonly: true, rows: 3, spellcheck: "false", class: "share-url", testid: "share-url", tattr: { "aria-label": "share.link_title" } });
      this.uploadNote = el("p", { class: "muted share-note" });
      const close = el("button", { type: "button", class: "dialog-close", testid: "share-close", t: "share.close" });
      this.dialog = el("dialog", { class: "dialog share-dialog", testid: "share-dialog", "aria-labelledby": "share-title" },
        el("div", { class: "dialog-head" }, el("h2", { id: "share-title", t: "share.link_title" }), close),
        el("div", { class: "share-body" },
          el("p", { t: "share.link_selected" }),
          this.linkInput, this.uploadNote));
      close.addEventListener("click", () => this.dialog.close());
      this.dialog.addEventListener("click", (event) => { if (event.target === this.dialog) this.dialog.close(); });
      document.body.append(this.dialog);
    }
    this.linkInput.value = url;
    if (upload) setText(this.uploadNote, "share.upload_note");
    else this.uploadNote.textContent = "";
    this.uploadNote.hidden = !upload;
    if (!this.dialog.open) this.dialog.showModal();
    this.linkInput.focus();
    this.linkInput.select();
  }

  // ---- exports ---------------------------------------------------------------------------------

  async exportPng() {
    const canvas = this.page.canvas();
    if (!canvas) return;
    try {
      saveBlob(await canvasPng(canvas), `${this.stem()}.png`);
      this.say(t("share.png_saved"));
    } catch (err) {
      this.page.showError(t("share.png_error", { message: err.message }));
    }
  }

  /** The puzzle as a file of its family's format `fmt`; a format that cannot hold this board says why. */
  async downloadBoard(fmt) {
    const puzzle = this.page.puzzle();
    if (!puzzle) return;
    const stem = fileStem(puzzle.galleryName || puzzle.title || puzzle.name || "puzzle");
    try {
      const response = await request(fileUrl(puzzle.id, fmt, stem));
      saveBlob(await response.blob(), `${stem}.${fmt}`);
      this.say(t("share.board_saved", { name: `${stem}.${fmt}` }));
    } catch (err) {
      const why = errorWords(err, t("share.went_wrong")).replace(/^format: /, "").replace(/\.$/, "");
      this.page.showError(t("share.board_error", { fmt, why }));
    }
  }

  exportJson() {
    const result = this.page.run()?.result;
    if (!result) return;
    saveBlob(new Blob([`${JSON.stringify(result, null, 2)}\n`], { type: "application/json" }), `${this.stem()}.json`);
    this.say(t("share.json_saved"));
  }

  async exportGif() {
    const puzzle = this.page.puzzle();
    if (!puzzle || this.gif) return;
    const run = this.page.run();
    const { algorithm, options } = run || this.page.selection();
    const stem = fileStem(puzzle.galleryName || puzzle.name || "puzzle", algorithm);
    const job = new GifJob({
      puzzle: puzzle.id, algorithm, options,
      onProgress: (status) => this.say(progressText(status), { stay: true }),
    });
    this.gif = job;
    this.cancelButton.hidden = false;
    this.say(t("share.gif_starting"), { stay: true });
    try {
      const done = await job.run();
      saveUrl(done.url, `${stem}.gif`);
      this.say(t("share.gif_saved", { frames: done.frames, mb: number(done.bytes / 1e6, 2), seconds: number(done.seconds, 2) }));
    } catch (err) {
      if (job.cancelled || err.message === "cancelled") this.say(t("share.gif_cancelled"));
      else {
        this.say("");
        this.page.showError(t("share.gif_error", { message: errorWords(err, t("share.went_wrong")) }));
      }
    } finally {
      this.gif = null;
      this.cancelButton.hidden = true;
    }
  }
}
