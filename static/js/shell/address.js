// @ts-check
// The address bar follows the page, in the share link's own format (../share/link.js): the puzzle
// (its gallery name, else its id: a content hash the server's store and archive keep), the algorithm
// and options of the form, the step of the run on the board (when it is a run of those choices), the
// comparison (`compare=1`, its panels' algorithms `panels=bfs,astar`) and the panel beside the board
// (`drawer=lab|code|explain`, Predict as
// `exercise=1`). A place the user opens (another puzzle, the comparison, back to the single view) is
// a new history entry (pushState); a small change (an algorithm, an option, the step, a drawer, an
// edit of the board) rewrites the entry (replaceState, at most every WRITE_MS). Back and Forward
// (popstate) and a reload go to what the address names: the puzzle is loaded again (an upload is
// asked of the server by its id; one it no longer holds is said in words, and a reload then opens
// the default puzzle), the choices are set, and a step is shown by running the search again and
// stopping there (as a share link does). The comparison reopens with its panels' algorithms (their
// own options are the defaults), not run: each panel says "press Run" and Run all has the focus.

import { ApiError, errorWords, getPuzzle } from "../api.js";
import { withCommas } from "../format.js";
import { lang, t } from "../i18n.js";
import { LinkError, checkLinkOptions, readLink, shareUrl } from "../share/link.js";

const WRITE_MS = 400; // small changes (the playhead while playing) rewrite the address at most this often

/**
 * What the address reads of the page, and how it takes the page to a place.
 * @typedef {object} AddressPage
 * @property {() => any} puzzle  the puzzle shown ({id, galleryName}) or null
 * @property {() => {algorithm: string, options: object}} choice  the form's algorithm and options
 * @property {() => number | null} step  the playhead, when the board shows a run of the form's choice
 * @property {() => boolean} comparing  the comparison is open
 * @property {() => string[]} panels  the comparison's panels' algorithms
 * @property {() => string | null} drawer  "lab", "code", "explain", "predict" or null
 * @property {(entry: any) => Promise<void>} openGallery  load a gallery entry (resolves when done)
 * @property {(info: any) => Promise<void>} openInfo  load a puzzle from its info
 * @property {() => Promise<void>} openDefault  the page's default puzzle (unless the user chose one)
 * @property {(algorithm: string | null, options: object) => void} applyChoice  set the menu, form and view
 * @property {(on: boolean) => void} setComparing  open or close the comparison
 * @property {(names: string[]) => string[]} setPanels  the comparison's panels' algorithms; those not offered are returned
 * @property {(name: string | null) => void} setDrawer  open that panel beside the board (null: none)
 * @property {() => void} startRun
 * @property {() => any} run  the run on the board ({finished}) or null
 * @property {() => void} pause
 * @property {(step: number) => number} seek  pause at `step`; the run's steps in all
 * @property {(message: string) => void} showError
 */

export class AddressBar {
  /** @param {{page: AddressPage}} args */
  constructor({ page }) {
    this.page = page;
    this.entries = null; // the gallery's entries, once known (Back and Forward wait for them)
    this.restoring = 0; // going to an address: the page's changes do not write it meanwhile
    this.going = 0; // the latest go(): an older one stops at its next await
    this.entered = false; // the page has written its first address (that one replaces the entry it opened on)
    this.timer = 0;
    this.runWaiter = null; // resolves when the run started for an address's step has ended
    window.addEventListener("popstate", () => {
      if (this.entries) this.open(window.location.search);
    });
  }

  // ---- writing ---------------------------------------------------------------------------------

  /** The address of what the page shows, or null before a puzzle is shown. */
  url() {
    const puzzle = this.page.puzzle();
    if (!puzzle) return null;
    const { algorithm, options } = this.page.choice();
    const drawer = this.page.drawer();
    const compare = this.page.comparing();
    const url = shareUrl({
      puzzle, algorithm, options, compare,
      panels: compare ? this.page.panels() : [],
      exercise: drawer === "predict",
      drawer: drawer === "predict" ? null : drawer,
      at: compare || drawer === "predict" ? null : this.page.step(),
    });
    // The page's language, last: a reload (or the address copied) opens the page in it (i18n.js reads `lang`).
    return `${url}${url.includes("?") ? "&" : "?"}lang=${lang()}`;
  }

  /** A place the user opened (a puzzle, the comparison or the single view): a new history entry. */
  placeChanged() {
    this.write(true);
  }

  /** A small change (a choice, the step, a drawer, an edit): the entry is rewritten, soon. */
  changed() {
    if (this.restoring || this.timer) return;
    this.timer = window.setTimeout(() => this.write(false), WRITE_MS);
  }

  /** Write the address now: a new entry when `push` and it names another puzzle or view than the entry's. */
  write(push) {
    clearTimeout(this.timer);
    this.timer = 0;
    if (this.restoring) return; // the place being restored writes itself at the end
    const url = this.url();
    if (!url) return;
    const first = !this.entered; // the entry the page opened on: it becomes this page's, not a new one
    this.entered = true;
    if (url === window.location.href) return;
    const another = placeOf(new URL(url).search) !== placeOf(window.location.search);
    if (push && another && !first) window.history.pushState(null, "", url);
    else window.history.replaceState(null, "", url);
  }

  // ---- going to an address ---------------------------------------------------------------------

  /**
   * The page has started (`entries`: the gallery's): open what the address names, unless `go` is
   * false (the user chose a puzzle meanwhile). False when it opens nothing (the page opens its
   * default, and the address follows it).
   */
  start(entries, go = true) {
    this.entries = entries;
    return go && this.open(window.location.search, { first: true });
  }

  /** Go to the address `search` (a reload, a link, Back or Forward); false when it names no puzzle. */
  open(search, { first = false } = {}) {
    let link;
    try {
      link = readLink(withoutLanguage(search));
    } catch (err) {
      this.failed(err, first);
      return true;
    }
    if (!link) return false;
    this.go(link).catch((err) => this.failed(err, first));
    return true;
  }

  /**
   * An address that could not be opened: said in the banner (naming the parameter at fault); the page
   * opened on it shows its default puzzle if it shows none, and the entry then names what is shown.
   */
  async failed(err, first) {
    const message = err instanceof LinkError || err instanceof ApiError ? err.message : errorWords(err, t("address.could_not_open"));
    let instead = "";
    if (first && !this.page.puzzle()) {
      await this.page.openDefault(); // before the words: a load clears the banner
      if (this.page.puzzle()) instead = t("address.default_instead");
    }
    this.page.showError(message + instead);
    this.write(false);
  }

  /** Take the page to `link`'s place. */
  async go(link) {
    const token = ++this.going;
    const page = this.page;
    this.restoring++;
    let restoring = true;
    const done = () => {
      if (!restoring) return;
      restoring = false;
      this.restoring--;
    };
    try {
      if (!this.shows(link)) {
        await this.load(link);
        if (token !== this.going) return; // superseded by a newer address
        if (!this.shows(link)) { // loading failed (its own error shows): the entry names what is shown
          done();
          this.write(false);
          return;
        }
      }
      const step = link.at !== null && !link.compare && !link.exercise; // a run to show: Predict's student presses Run
      const drawer = link.exercise ? "predict" : link.drawer;
      // The panel beside the board at once (with the puzzle, before the page says "ready"), unless a
      // run is to be shown first (Run closes the lab's heuristic tab: its heat map would hide the run).
      if (!step) page.setDrawer(drawer);
      const puzzleId = page.puzzle().id;
      // The algorithm and options, checked by the server against the family's schema.
      const choice = await checkLinkOptions(puzzleId, link.rest);
      if (token !== this.going || page.puzzle()?.id !== puzzleId) return;
      const now = page.choice();
      if (choice.algorithm && (choice.algorithm !== now.algorithm || !sameOptions(choice.options, now.options))) {
        page.applyChoice(choice.algorithm, choice.options);
      } else if (!choice.algorithm && Object.keys(choice.options).length) page.applyChoice(null, choice.options);
      if (page.comparing() !== link.compare) page.setComparing(link.compare);
      const refused = link.compare && link.panels.length ? page.setPanels(link.panels) : [];
      done();
      if (refused.length) {
        this.write(false);
        const names = refused.map((name) => t("shell.quote", { name })).join(", ");
        throw new LinkError("panels", t("address.no_algorithm", { names }));
      }
      if (!step) {
        this.write(false);
        return;
      }
      try {
        await this.showStep(link.at);
      } finally {
        if (token === this.going) {
          page.setDrawer(drawer);
          this.write(false);
        }
      }
    } finally {
      done();
    }
  }

  /** True when the page shows `link`'s puzzle. */
  shows(link) {
    const puzzle = this.page.puzzle();
    if (!puzzle) return false;
    return link.gallery !== null ? puzzle.galleryName === link.gallery : puzzle.id === link.puzzle;
  }

  /** Load `link`'s puzzle (an upload the server no longer holds: ApiError in words). */
  async load(link) {
    if (link.gallery !== null) {
      const entry = this.entries.find((e) => e.name === link.gallery);
      if (!entry) throw new LinkError("gallery", t("address.no_gallery", { name: link.gallery }));
      await this.page.openGallery(entry);
      return;
    }
    let info;
    try {
      info = await getPuzzle(link.puzzle);
    } catch (err) {
      // The server's words are in the reader's language: its 404 says it holds no such puzzle.
      if (err instanceof ApiError && (err.status === 404 || /^no puzzle with id/.test(err.message))) {
        throw new ApiError(t("address.upload_gone"));
      }
      throw err;
    }
    await this.page.openInfo(info);
  }

  /** The run of the present choice at `at`: the one on the board, else the search run again and stopped there. */
  async showStep(at) {
    const page = this.page;
    let run = page.step() !== null ? page.run() : null;
    if (!run) {
      const ended = new Promise((resolve) => { this.runWaiter = resolve; });
      page.startRun();
      run = page.run();
      if (!run || run.finished) {
        this.runWaiter = null;
        return; // refused before it started (its reason shows)
      }
      page.pause();
      const ok = await ended;
      if (!ok || page.run() !== run) return;
    } else if (!run.finished) return; // it is still coming: the playhead stays where the user has it
    const length = page.seek(at);
    if (at > length) {
      throw new LinkError("at", t("address.past_end", { at: withCommas(at), length: withCommas(length) }));
    }
  }

  /** The shell: the run on the board has ended (`ok`: its whole trace arrived). */
  runEnded(ok) {
    const resolve = this.runWaiter;
    this.runWaiter = null;
    resolve?.(ok);
  }
}

/**
 * An address without its `lang` (the page's language, read by i18n.js, not a part of the link).
 * @param {string} search
 */
function withoutLanguage(search) {
  const params = new URLSearchParams(search);
  if (!params.has("lang")) return search;
  params.delete("lang");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}

/** The place an address names: its puzzle and view (what a new history entry is for). */
function placeOf(search) {
  const params = new URLSearchParams(search);
  return JSON.stringify([params.get("gallery"), params.get("puzzle"), params.get("compare") === "1"]);
}

/** Options as a link gives them (typed by the server) against the form's: the same values? */
function sameOptions(given, now) {
  return Object.entries(given).every(([name, value]) => JSON.stringify(value) === JSON.stringify(now[name]));
}
