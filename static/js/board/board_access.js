// @ts-check
// The board for a screen reader and a keyboard (issue 32, "The board speaks", "The board by
// keyboard"): the live region (./live_region.js) says what the step at the playhead did — in full
// when stepping, at most every few seconds while playing — and the run's verdict at its end; the
// canvas has a text alternative (role img, its label: the puzzle, its size, start and goal) and
// the board a description of the state shown (aria-describedby); the cell cursor (./cell_cursor.js)
// walks the board's cells. app.js makes one for the single view and tells it when the playhead or
// the puzzle changed.

import { byId, el } from "../dom.js";
import { onLanguage } from "../i18n.js";
import { boardLabel, shownText, stepText, verdictText } from "./board_text.js";
import { CellCursor } from "./cell_cursor.js";
import { LiveRegion } from "./live_region.js";

const DESCRIBE_MS = 1000; // while playing, the board's description is rewritten at most once a second

export class BoardAccess {
  /**
   * @param {{board: HTMLElement, stage: () => import("../stage/stage.js").Stage,
   *          puzzle: () => any, verdict?: () => string}} args
   *   board: the focusable board; stage(): the single view's Stage; puzzle(): its info;
   *   verdict(): the verdict line's words (../figures.js writes it into #optimal).
   */
  constructor({ board, stage, puzzle, verdict = () => byId("optimal")?.textContent || "" }) {
    this.board = board;
    this.stage = stage;
    this.puzzle = puzzle;
    this.verdict = verdict;
    const host = board.parentElement || document.body;
    this.live = new LiveRegion({ host });
    this.description = el("p", { id: "board-description", class: "board-sr-only", testid: "board-description" });
    this.keysHint = el("span", { id: "board-keys-hint", class: "board-sr-only", t: "a11y.board.keys" });
    host.append(this.description, this.keysHint);
    const describedBy = new Set((board.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean));
    describedBy.add("board-description");
    describedBy.add("board-keys-hint");
    board.setAttribute("aria-describedby", [...describedBy].join(" "));
    this.cursor = new CellCursor({
      board,
      view: () => this.stage().view,
      say: (text) => this.live.say(text),
      step: (delta) => {
        const player = this.stage().player;
        player.pause();
        player.step(delta);
      },
      hasRun: () => Boolean(this.stage().run),
      onAct: () => {
        this.label();
        this.describe(true);
      },
    });
    this.said = ""; // the run and step last said ("id@position")
    this.verdictSaid = null; // the run whose verdict was said
    this.described = 0; // performance.now() of the last description
    onLanguage(() => {
      this.label();
      this.describe(true);
    });
  }

  /** A puzzle was shown (or edited): the canvas's text alternative follows. */
  puzzleShown() {
    this.label();
    this.describe(true);
  }

  /** The canvas's label: the puzzle, its size, start and goal. */
  label() {
    const stage = this.stage();
    const view = stage.view;
    if (!view) return;
    const canvas = view.canvas;
    const text = boardLabel(view, this.puzzle());
    if (canvas.getAttribute("role") !== "img") canvas.setAttribute("role", "img");
    if (canvas.getAttribute("aria-label") !== text) canvas.setAttribute("aria-label", text);
  }

  /** The board's description: the canvas's label and the state shown. @param {boolean} [now] */
  describe(now = false) {
    const stage = this.stage();
    if (!now && stage.player.playing && performance.now() - this.described < DESCRIBE_MS) return;
    this.described = performance.now();
    const text = `${boardLabel(stage.view, this.puzzle())}. ${shownText(stage)}`;
    if (this.description.textContent !== text) this.description.textContent = text;
  }

  /** The playhead moved, the player played or paused, or a run started: say what the step did. */
  playerChanged() {
    const stage = this.stage();
    const run = stage.run;
    this.label();
    this.describe();
    if (!run) {
      this.said = "";
      return;
    }
    const key = `${run.id}@${stage.player.position}`;
    const verdict = verdictText(stage, this.verdict());
    // The verdict: when the playhead arrives at the end, and when the result comes while it is there.
    const verdictDue = Boolean(verdict) && (key !== this.said || this.verdictSaid !== run);
    if (key === this.said && !verdictDue) return; // a pause, a play: the same step
    this.said = key;
    if (verdictDue) {
      // The end of the trace: the last step and the verdict, at once.
      this.verdictSaid = run;
      this.live.say([stepText(stage), verdict].filter(Boolean).join(" "));
    } else if (stage.player.playing) this.live.throttle(() => stepText(this.stage()));
    else this.live.say(stepText(stage));
  }

  /** The words the live region holds now. */
  get text() {
    return this.live.text;
  }
}
