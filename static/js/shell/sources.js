// @ts-check
// Where puzzles come from in the single view: the gallery dialog, the file picker, and a file dropped
// on the board. A file chosen before this module was bound (the page had just shown) is opened too.

import * as api from "../api.js";
import { viewClassFor } from "../families/index.js";
import { Gallery } from "../gallery.js";
import { byId } from "../dom.js";
import { decimal, number } from "../format.js";
import { lang, t } from "../i18n.js";

const $ = byId;

export class Sources {
  /** @param {{loader: import("./loading.js").PuzzleLoader}} args */
  constructor({ loader }) {
    this.loader = loader;
    this.gallery = new Gallery({
      dialog: $("gallery-dialog"),
      list: $("gallery"),
      close: $("gallery-close"),
      onChoose: (entry) => this.openEntry(entry, { focusRun: true }),
    });
    $("open-gallery").addEventListener("click", () => this.gallery.open());
    this.bindUpload();
  }

  /** The families known: the picker's file types and hint, the gallery's groups and entries. */
  setCatalog(families, entries) {
    const accept = new Set(families.flatMap((family) => family.accept || []));
    $("upload").accept = [...accept].join(",");
    const expects = families.map((family) => family.expects).filter(Boolean);
    if (expects.length) $("upload-label").title = t("shell.open_kinds", { kinds: expects.join(t("shell.or")) });
    // The families' titles in the plural and the unit of their sizes, for the gallery's groups.
    const groups = new Map(families.map((family) => [family.name, {
      title: plural(family.title || family.name),
      unit: viewClassFor(family.name)?.sizeUnit || "",
    }]));
    this.gallery.fill(entries, groups);
    $("open-gallery").title = t("shell.gallery_title", { count: entries.length });
  }

  /** Open a gallery entry; `fallback`: the page's default, only when nothing else was asked for. */
  openEntry(entry, { focusRun = false, fallback = false } = {}) {
    const fetchInfo = async () => ({
      ...(await api.loadGalleryPuzzle(entry.name)),
      galleryName: entry.name, title: entry.title, description: entry.description,
    });
    return this.loader.load(fetchInfo, t("status.loading"), t("shell.quote", { name: entry.title }), { focusRun, fallback });
  }

  /**
   * Upload a file and show it, saying how far it is: the bytes sent, then the server's phases
   * (decoding, reading cells, looking for a lattice); a Cancel button meanwhile.
   * @param {File | undefined} file
   */
  upload(file) {
    if (!file) return;
    const name = file.name;
    const fetchInfo = ({ report, signal }) => api.uploadPuzzle(file, {
      signal, onProgress: (progress) => report(uploadText(name, progress), progress.fraction),
    });
    // "parsing…" until the first bytes go (tests/e2e/test_browser_startup.py reads it while set-up waits)
    this.loader.load(fetchInfo, t("status.parsing"), name, { focusRun: true, cancellable: true });
  }

  bindUpload() {
    const input = $("upload");
    const choose = () => {
      this.upload(input.files[0]);
      input.value = ""; // choosing the same file again must fire `change` again
    };
    input.addEventListener("change", choose);
    if (input.files?.length) choose(); // chosen before this listener existed
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
      this.upload(event.dataTransfer.files[0]);
    });
    // A file dropped elsewhere must not make the browser navigate away from the page.
    window.addEventListener("dragover", (event) => event.preventDefault());
    window.addEventListener("drop", (event) => event.preventDefault());
    // Touch screens have nothing to drop.
    const touch = ["(hover: none)", "(pointer: coarse)"].join(", ");
    if (window.matchMedia(touch).matches) $("drop-hint").hidden = true;
  }
}

/**
 * An upload's progress in words: "Uploading maze.png: 11.2 of 25.5 MB", "Decoding the image… 40 %",
 * "Looking for a lattice…".
 * @param {string} name
 * @param {import("../api.js").UploadProgress} progress
 */
function uploadText(name, { phase, fraction, message, loaded = 0, total = 0 }) {
  if (phase === "upload") return t("shell.uploading", { name, amount: amount(loaded, total) });
  const percent = fraction === null ? "" : ` ${Math.floor(fraction * 100)} %`;
  return `${message || phase}…${percent}`;
}

/** "11.2 of 25.5 MB", "120 of 480 KB". @param {number} done @param {number} total */
function amount(done, total) {
  if (total >= 1e6) return t("shell.amount_mb", { done: decimal(done / 1e6, 1), total: decimal(total / 1e6, 1) });
  return t("shell.amount_kb", { done: number(Math.round(done / 1e3)), total: number(Math.max(1, Math.round(total / 1e3))) });
}

/** "Grid maze" → "Grid mazes"; a title already in the plural (ending in "s") stays as it is. In
 * another language than English the family's title stays as it is (a heading, not a count). */
function plural(title) {
  if (lang() !== "en") return title;
  return title.endsWith("s") ? title : `${title}s`;
}
