// @ts-check
// Exercise mode (the header's Predict, single view only): while a run plays, the player stops before
// each expansion (each close record of the trace) that has a choice, and the panel beside the board
// (./panel.js) asks which state is expanded next. The student answers by clicking the state on the
// board (FamilyView.statesAt) or in the list of the states on the frontier; the answer is the trace's
// own next close record. Right: the player plays that expansion and stops before the next question.
// Wrong: the panel names the state expanded and why, with the rule's keys (./rules.js), and Continue
// plays on. Score: right / asked, and a final line at the end of the run (or once the chosen number
// of questions is asked). Moving the player past a question (→, End, the scrub) skips it: it counts
// as not answered, and says so. Home (the first step) or a new run starts over.
//
// The frontier at a question is explain mode's (../explain/frontier.js: rebuilt from the trace with
// each entry's g, h, f and the record it joined at), over the trace's state numbers where the view has
// them (FamilyView.stateIds, where several states share a cell), and each choice is drawn by its view
// (FamilyView.stateFigure: a small board). Where it cannot be rebuilt (a trace past the server's cap of
// named states, iterative deepening, bidirectional search) the states with pushes not yet matched by an
// expansion stand in for it, and the rule is said without keys.
//
// How the player is stopped: the clock's `hold` (../playback/clock.js) keeps playing from passing a
// question's position (seeks go through `show`, not the hold), and a listener of the clock notices
// seeks past a question. With Predict off the hold lets every step through.

import { frontierIndexOf } from "../explain/frontier.js";
import { listingFor } from "../explain/listings.js";
import { t } from "../i18n.js";
import { probe } from "../shell/probes.js";
import { KIND } from "../timeline.js";
import { ExercisePanel } from "./panel.js";
import { keysText, questionText, whyNotYours, whyShort } from "./rules.js";

/** @typedef {import("./rules.js").Candidate} Candidate */
/** @typedef {import("./rules.js").Rule} Rule */
/** @typedef {import("../families/family_view.js").FamilyView} FamilyView */

/**
 * A question: the expansion at record `at`.
 * @typedef {object} Question
 * @property {number} at          the close record's index (the player stops at this position)
 * @property {Candidate} answer   the state the trace expands there
 * @property {Candidate[]} list   the states on the frontier (one per cell), in the frontier's order when known
 * @property {number} total       states on the frontier
 * @property {Rule} rule
 * @property {number} number      the question's number in this run (1-based)
 */

const LIST_MAX = 2000; // frontier states taken from the rebuild at most
const SHOWN = 24; // buttons in the list at most
const NEAR = 9; // of which the states next in the frontier's order, when the list is cut
const CLICK_SLOP = 5; // CSS px a press may move and still be a click (not a pan)

const isClose = (kind) => kind === KIND.CLOSE || kind === KIND.CLOSE_B;
const isPush = (kind) => kind === KIND.OPEN || kind === KIND.UPDATE || kind === KIND.OPEN_B || kind === KIND.UPDATE_B;
/** How to write a catalog text (again, in the language chosen next). @param {string} key @param {Record<string, any>} [params] */
const words = (key, params = {}) => () => t(key, params);

export class Exercise {
  /**
   * @param {{button: HTMLElement, host: HTMLElement, board: HTMLElement,
   *          player: import("../playback/player.js").Player, timeline: import("../timeline.js").Timeline,
   *          tally: import("../tally.js").Tally, view: () => FamilyView | null, run: () => any,
   *          explain: {on: boolean, toggle: (on?: boolean) => void}, refit: () => void}} args
   *   button: the header's Predict; host: the panel beside the board; board: where the view's canvas
   *   is (clicks on it answer); player/timeline/tally: the single view's Stage's; view(), run(): the
   *   family view and the run on the board (null: none, or a checked solution); explain: explain mode
   *   (turned off with Predict on: its frontier list would give the answer away); refit: the board's
   *   room changed.
   */
  constructor({ button, host, board, player, timeline, tally, view, run, explain, refit }) {
    this.button = button;
    this.host = host;
    this.board = board;
    this.player = player;
    this.timeline = timeline;
    this.tally = tally;
    this.view = view;
    this.run = run;
    this.explain = explain;
    this.refit = refit;
    this.on = false;
    this.limit = 10; // questions a run asks (Infinity: every expansion with a choice)
    this.panel = new ExercisePanel({
      host,
      onAsk: (count) => this.setLimit(count),
      onChoose: (cell) => this.chooseCell(cell),
      onContinue: () => this.continueOn(),
    });
    this.panel.setAsk(this.limit);
    this.reset();
    button.addEventListener("click", () => this.toggle());

    // The player never plays past a question (its hold), and tells this mode when it moves.
    player.hold = {
      stopAt: (to) => {
        const at = this.gate(to);
        // Held at a question, also one right where the player arrived.
        return { at, held: at < to || this.pending?.at === at };
      },
      pressed: () => this.nudge(),
    };
    player.listen(() => this.playerChanged());
    // A click on the board (not the end of a pan) answers.
    /** @type {{x: number, y: number} | null} */
    this.press = null;
    board.addEventListener("pointerdown", (event) => {
      this.press = { x: event.clientX, y: event.clientY };
    });
    board.addEventListener("click", (event) => this.boardClick(event));
    this.publish();
  }

  // ---- on and off, a run's start ---------------------------------------------------------------

  /** Predict on or off. @param {boolean} [on] */
  toggle(on = !this.on) {
    if (on === this.on) return;
    this.on = on;
    this.button.setAttribute("aria-pressed", String(on));
    this.host.hidden = !on;
    if (on) {
      if (this.explain.on) this.explain.toggle(false); // its "next to expand" is the answer
      this.reset();
      const run = this.activeRun();
      const p = this.player.position;
      if (run && p > 0) {
        if (run.finished && p >= this.timeline.length) this.waiting = true; // Play starts it from the first step
        else this.resolvedTo = p; // from here on
      }
      this.playerChanged();
    } else {
      this.pending = null;
      this.answered = null;
      this.board.classList.remove("exercise-asking");
    }
    this.showState();
    this.refit();
  }

  /** A new run (or Home, or Predict turned on): no question asked yet. */
  reset() {
    this.generation = this.timeline.generation;
    this.runSeen = this.activeRun();
    this.resolvedTo = 0; // every close record before this position is done with (asked, skipped or without a choice)
    /** @type {Question | null} the question waiting for an answer */
    this.pending = null;
    /** @type {Question | null} answered wrong: Continue plays it */
    this.answered = null;
    this.asked = 0;
    this.right = 0;
    this.skipped = 0;
    this.over = false; // every question of this run is asked (or the run ended)
    this.endSaid = false; // the panel has said that the run ended after its last question
    this.waiting = false; // Predict turned on at the end of a run: Play (from the first step) starts it
    this.keyboard = false; // the last answer came from the keyboard: the next question's list takes the focus
    this.panel.clearFeedback();
    this.panel.setFinal("");
    this.panel.showChoices([]);
    this.panel.showContinue(false);
    this.board.classList.remove("exercise-asking");
  }

  /** The run the exercise is about (a checked solution is none). */
  activeRun() {
    return this.run() || null;
  }

  /** @param {number} count 0: every expansion */
  setLimit(count) {
    this.limit = count > 0 ? count : Infinity;
    if (!this.on) return;
    if (!this.over && this.asked >= this.limit) {
      this.pending = null;
      this.finish();
    } else if (this.over && this.asked < this.limit && !this.runEnded()) {
      this.over = false; // more questions: from the playhead on
      this.panel.setFinal("");
      this.resolvedTo = Math.max(this.resolvedTo, this.player.position);
    }
    this.showState();
  }

  // ---- following the player --------------------------------------------------------------------

  /**
   * Where playing towards `to` must stop: the next expansion with a choice (the question is asked
   * there), else `to`. Expansions without a choice are passed on the way.
   * @param {number} to
   * @returns {number}
   */
  gate(to) {
    if (!this.on || this.over || this.waiting || !this.activeRun() || this.timeline.generation !== this.generation) return to;
    const p = this.player.position;
    if (this.pending) return Math.min(to, Math.max(p, this.pending.at));
    const { kinds } = this.timeline;
    const end = Math.min(to + 1, this.timeline.length); // a question at `to` itself holds the player there
    for (let r = Math.max(p, this.resolvedTo); r < end; r++) {
      if (!isClose(kinds[r])) continue;
      const question = this.questionAt(r);
      if (question) {
        this.resolvedTo = r;
        this.ask(question);
        return r;
      }
    }
    this.resolvedTo = Math.max(this.resolvedTo, to);
    return to;
  }

  /** The player moved, played or paused (after the page followed it). */
  playerChanged() {
    if (!this.on) return;
    const run = this.activeRun();
    if (this.timeline.generation !== this.generation || run !== this.runSeen) {
      this.reset();
      this.waiting = Boolean(run?.instant); // the editor's re-solve is shown at its end: Play predicts it
      this.showState();
    }
    if (!run) return;
    const p = this.player.position;
    if (p === 0 && (this.resolvedTo > 0 || this.asked > 0 || this.over || this.waiting)) {
      this.reset(); // Home: start over
      this.showState();
      return;
    }
    if (this.over && !this.endSaid && this.runEnded()) {
      this.endSaid = true; // "the search plays on" no more
      this.showState();
    }
    if (this.waiting || this.over) return;
    if (this.answered && p > this.answered.at) {
      this.answered = null; // played on (Space) instead of Continue
      this.panel.showContinue(false);
    }
    if (p > this.resolvedTo) this.passed(p);
    if (this.over) return;
    // Landed on an expansion (stepping with →): ask it now.
    if (!this.pending && p === this.resolvedTo && p < this.timeline.length && isClose(this.timeline.kinds[p])) {
      const question = this.questionAt(p);
      if (question) this.ask(question);
    }
    if (!this.pending && this.runEnded()) this.finish();
  }

  /** The run has ended and the player is at the end of what arrived. */
  runEnded() {
    const run = this.activeRun();
    return Boolean(run?.finished) && this.timeline.length > 0 && this.player.position >= this.timeline.length;
  }

  /** The player was moved past expansions not yet asked (a seek): a waiting question is skipped. @param {number} p */
  passed(p) {
    const { kinds } = this.timeline;
    let withChoice = 0;
    for (let i = this.resolvedTo; i < p; i++) {
      if (isClose(kinds[i]) && i !== this.pending?.at && this.tally.at(i).frontier > 1) withChoice++;
    }
    const q = this.pending;
    if (q && q.at < p) {
      this.pending = null;
      this.asked++;
      this.skipped++;
      this.board.classList.remove("exercise-asking");
      this.panel.markAnswer(q.answer.cell, null);
      const name = this.label(q.answer.cell);
      this.panel.addFeedback("skipped", words("predict.skipped"), () => {
        const why = whyShort(q.rule, q.answer);
        return why ? t("predict.skipped_why", { name, why }) : t("predict.skipped_plain", { name });
      });
    }
    if (withChoice > 0) {
      this.panel.addFeedback("info", words("predict.moved_on"), words("predict.moved_on_text", { count: withChoice }));
    }
    this.resolvedTo = p;
    if (this.asked >= this.limit) this.finish();
    else this.showState();
  }

  /** Play was pressed while a question waits: say how to go on. */
  nudge() {
    const q = this.pending;
    if (!q) return;
    this.panel.say(() => this.questionLine(q), words("predict.nudge"));
    this.panel.note.classList.add("exercise-nudge");
  }

  // ---- questions -----------------------------------------------------------------------------

  /**
   * The question at close record `r`, or null when there is no choice to make (one state on the
   * frontier) or enough have been asked.
   * @param {number} r
   * @returns {Question | null}
   */
  questionAt(r) {
    if (this.asked >= this.limit) return null;
    if (this.tally.at(r).frontier <= 1) return null;
    const found = this.frontierAt(r);
    if (found.list.length <= 1) return null;
    return { at: r, ...found, number: this.asked + 1 };
  }

  /**
   * The states on the frontier before close record `r`, the answer among them, and the rule.
   * @param {number} r
   * @returns {{answer: Candidate, list: Candidate[], total: number, rule: Rule}}
   */
  frontierAt(r) {
    const run = this.activeRun();
    const view = this.view();
    const listing = listingFor(run.algorithm);
    const { values } = this.timeline;
    const cells = this.keys();
    /** @type {Rule} */
    const rule = {
      title: listing?.title || run.text || run.algorithm,
      discipline: listing?.frontier || "",
      mode: listing?.mode || "",
      weight: run.options?.weight ?? 1,
      keyed: false,
      byCell: !view.tracedStates,
      note: "",
    };
    const answerCell = cells[r];
    /** @type {Candidate[] | null} */
    let list = null;
    let total = 0;
    const index = this.indexFor(listing, view, run, rule);
    if (index) {
      const live = index.at(r, 1).live;
      if (index.mismatch >= 0 && index.mismatch < r) {
        rule.note = "predict.note_mismatch_from";
      } else {
        const ordered = rule.discipline !== "heap" || index.ordered;
        const withKeys = rule.discipline === "heap" && ordered;
        const { rows } = index.at(r, Math.max(1, Math.min(live, LIST_MAX)));
        const seen = new Set();
        list = [];
        for (const row of rows) {
          if (row.stale || seen.has(row.cell)) continue; // one per cell: a click names a cell
          seen.add(row.cell);
          list.push({
            cell: row.cell, g: row.g, h: withKeys ? row.h : null, f: withKeys ? row.f : null,
            joined: index.record.data[row.entry], rank: ordered ? list.length : -1,
          });
        }
        total = live;
        rule.keyed = ordered && list.length > 0 && list[0].cell === answerCell;
        if (!ordered) rule.note = "predict.note_no_h";
        else if (!rule.keyed) rule.note = "predict.note_mismatch";
      }
    }
    if (!list) {
      list = this.outstanding(r);
      total = rule.byCell ? this.tally.at(r).frontier : list.length; // states, at fewer places
    }
    let answer = list.find((c) => c.cell === answerCell);
    if (!answer) {
      answer = { cell: answerCell, g: values[r], h: null, f: null, joined: this.lastPush(answerCell, r), rank: -1 };
      list.push(answer);
      total++;
    }
    return { answer, list, total: Math.max(total, list.length), rule };
  }

  /** The frontier index of the run shown (explain mode's own: ../explain/frontier.js), or null (rule.note says why). */
  indexFor(listing, view, run, rule) {
    const discipline = listing?.frontier;
    if (discipline !== "fifo" && discipline !== "lifo" && discipline !== "heap") {
      rule.note = discipline === "path" || discipline === "both" ? "" : "predict.note_unknown";
      return null;
    }
    // A click names a cell: a queue's or a stack's order over cells will do.
    const { index, why } = frontierIndexOf({ timeline: this.timeline, run, view, cellsWillDo: true });
    if (!index) rule.note = why;
    return index;
  }

  /**
   * Without a rebuilt frontier: the cells with more pushes than expansions before record `r` (each
   * with its latest push), i.e. where a state may still wait.
   * @param {number} r
   * @returns {Candidate[]}
   */
  outstanding(r) {
    const { kinds, values } = this.timeline;
    const cells = this.keys();
    const count = new Map();
    const last = new Map();
    for (let i = 0; i < r; i++) {
      const kind = kinds[i];
      const cell = cells[i];
      if (isPush(kind)) {
        count.set(cell, (count.get(cell) || 0) + 1);
        last.set(cell, i);
      } else if (isClose(kind)) {
        count.set(cell, (count.get(cell) || 0) - 1);
      }
    }
    const list = [];
    for (const [cell, n] of count) {
      if (n > 0) list.push({ cell, g: values[last.get(cell)], h: null, f: null, joined: last.get(cell), rank: -1 });
    }
    return list;
  }

  /** What names each record's state: the view's state numbers (FamilyView.stateIds), else the cells. */
  keys() {
    return this.view()?.stateIds()?.data ?? this.timeline.cells;
  }

  /** The latest push of `cell` before record `r`, or -1. */
  lastPush(cell, r) {
    const { kinds } = this.timeline;
    const cells = this.keys();
    for (let i = r - 1; i >= 0; i--) if (cells[i] === cell && isPush(kinds[i])) return i;
    return -1;
  }

  /**
   * The states the list shows: all, or when there are many the answer, the next few in the frontier's
   * order and a fixed sample of the rest — in board order (by cell), which gives nothing away.
   * @param {Question} q
   * @returns {Candidate[]}
   */
  shownOf(q) {
    const byCell = (a, b) => a.cell - b.cell;
    if (q.list.length <= SHOWN) return [...q.list].sort(byCell);
    const keep = new Set([q.answer]);
    const ranked = q.list.filter((c) => c.rank >= 0).sort((a, b) => a.rank - b.rank);
    for (const c of ranked) {
      if (keep.size > NEAR) break;
      keep.add(c);
    }
    const mix = (c) => Math.imul(c.cell ^ q.at, 2654435761) >>> 0; // the same sample each time
    for (const c of [...q.list].sort((a, b) => mix(a) - mix(b))) {
      if (keep.size >= SHOWN) break;
      keep.add(c);
    }
    return [...keep].sort(byCell);
  }

  /** @param {Question} q */
  questionLine(q) {
    const params = { number: q.number, limit: this.limit, step: q.at, question: questionText(q.rule) };
    return t(Number.isFinite(this.limit) ? "predict.question_of" : "predict.question", params);
  }

  /** Put question `q` to the student (the player stops at q.at). @param {Question} q */
  ask(q) {
    this.pending = q;
    this.answered = null;
    this.host.scrollTop = 0; // the question in sight (the panel may have scrolled to the last answer)
    this.showQuestion(q, q.list.length > SHOWN ? this.shownOf(q) : [...q.list].sort((a, b) => a.cell - b.cell));
    this.board.classList.add("exercise-asking");
    this.showState();
  }

  /** @param {Question} q @param {Candidate[]} shown */
  showQuestion(q, shown) {
    const view = this.view();
    this.panel.showContinue(false);
    this.panel.showChoices(shown.map((c) => ({
      cell: c.cell, label: this.label(c.cell), keys: keysText(q.rule, c), figure: view && !q.rule.byCell ? view.stateFigure(c.cell) : null,
    })));
    const clickable = view && view.statesAt(0, 0) !== null; // null: the view cannot tell what a click names
    const note = () => t("predict.choose_note", {
      how: t(clickable ? "predict.how_click" : "predict.how_choose"),
      states: t("predict.n_states", { count: q.total }),
      places: q.rule.byCell ? ` ${t("predict.places", { count: q.list.length })}` : "",
      listed: shown.length < q.list.length ? `; ${t(clickable ? "predict.listed_click" : "predict.listed", { count: shown.length })}` : "",
    });
    this.panel.say(() => this.questionLine(q), note);
    this.panel.note.classList.remove("exercise-nudge");
    if (this.keyboard) this.panel.buttons.values().next().value?.focus({ preventScroll: true });
  }

  /** A state in words as explain mode names it, or where it stands when the trace names no state. @param {number} cell */
  label(cell) {
    const view = this.view();
    const text = !view ? t("predict.state", { cell }) : view.tracedStates ? view.stateLabel(cell) : view.cellLabel(cell);
    return text.length <= 24 ? text.replace(/ /g, "\u00a0") : text; // "(5, 1)" never split over two lines
  }

  // ---- answers -------------------------------------------------------------------------------

  /** A state of the list was chosen. @param {number} cell */
  chooseCell(cell) {
    const q = this.pending;
    if (!q) return;
    const chosen = q.list.find((c) => c.cell === cell);
    if (!chosen) return;
    this.keyboard = this.host.contains(document.activeElement) && document.activeElement !== document.body;
    this.judge(q, chosen);
  }

  /** A click on the board: the states at that cell on the frontier. @param {MouseEvent} event */
  boardClick(event) {
    const q = this.pending;
    const view = this.view();
    if (!this.on || !q || !view || event.target !== view.canvas) return;
    const press = this.press;
    this.press = null;
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > CLICK_SLOP) return; // a pan
    const states = view.statesAt(event.clientX, event.clientY);
    if (states === null) {
      this.panel.say(() => this.questionLine(q), words("predict.no_click"));
      return;
    }
    if (!states.length) return; // a wall, or off the board
    const at = new Set(states);
    const on = q.list.filter((c) => at.has(c.cell));
    if (!on.length) {
      this.panel.say(() => this.questionLine(q), () => this.notOnFrontier(states, q));
      this.panel.note.classList.add("exercise-nudge");
      return;
    }
    if (on.length > 1 && on.includes(q.answer)) {
      // Several states on the frontier stand there, and one of them is next: which one?
      this.showQuestion(q, [...on].sort((a, b) => a.cell - b.cell));
      this.panel.say(() => this.questionLine(q), words("predict.several_there", { count: on.length }));
      return;
    }
    const ranked = [...on].sort((a, b) => (a.rank < 0 ? Infinity : a.rank) - (b.rank < 0 ? Infinity : b.rank));
    this.keyboard = false;
    this.judge(q, ranked[0]);
  }

  /** Why a clicked state cannot be the answer (not counted: only frontier states are candidates). */
  notOnFrontier(states, q) {
    const { kinds } = this.timeline;
    const cells = this.keys();
    const at = new Set(states);
    let closedAt = -1;
    for (let i = q.at - 1; i >= 0; i--) {
      if (isClose(kinds[i]) && at.has(cells[i])) {
        closedAt = i;
        break;
      }
    }
    if (states.length > 1) return t("predict.none_there");
    const when = closedAt >= 0 ? t("predict.expanded_at", { step: closedAt + 1 }) : t("predict.not_reached");
    return t("predict.not_on_frontier", { name: this.label(states[0]), when });
  }

  /** @param {Question} q @param {Candidate} chosen */
  judge(q, chosen) {
    this.pending = null;
    this.asked++;
    const right = chosen.cell === q.answer.cell;
    if (right) this.right++;
    this.resolvedTo = Math.max(this.resolvedTo, q.at + 1);
    this.board.classList.remove("exercise-asking");
    this.panel.markAnswer(q.answer.cell, chosen.cell);
    const answer = this.label(q.answer.cell);
    if (right) {
      this.panel.addFeedback("right", words("predict.right"), () => {
        const why = whyShort(q.rule, q.answer);
        return why ? t("predict.right_why", { name: answer, why }) : t("predict.right_plain", { name: answer });
      });
    } else {
      const yours = this.label(chosen.cell);
      const label = (cell) => this.label(cell);
      this.panel.addFeedback("wrong", words("predict.wrong"),
        () => t("predict.wrong_text", { name: answer, chosen: yours, why: whyNotYours(q.rule, q.answer, chosen, label) }));
    }
    if (this.asked >= this.limit) this.finish();
    if (right) this.playOn(q.at);
    else {
      this.answered = q;
      this.panel.showContinue(true);
    }
    this.showState();
    this.panel.showLatest();
  }

  /** Play the expansion at `at` and on to the next question. @param {number} at */
  playOn(at) {
    if (this.player.position !== at) this.player.seek(at);
    this.player.play();
  }

  continueOn() {
    const q = this.answered;
    this.answered = null;
    this.panel.showContinue(false);
    this.showState();
    if (q) this.playOn(q.at);
    else this.player.play();
  }

  /** Every question of the run is asked, or the run ended: the final line. */
  finish() {
    if (this.over) return;
    this.over = true;
    this.pending = null;
    this.board.classList.remove("exercise-asking");
    const { asked, right, skipped } = this;
    const text = () => (asked
      ? t("predict.final", { right, count: asked, skipped: skipped ? ` (${t("predict.skipped_count", { count: skipped })})` : "" })
      : t("predict.final_none"));
    this.panel.setFinal(text);
    this.showState();
  }

  // ---- what the panel and the page show --------------------------------------------------------

  /** The question line and the score for the state the exercise is in; the probes. */
  showState() {
    this.panel.setScore(this.right, this.asked);
    if (this.on && !this.pending && !this.answered) {
      const run = this.activeRun();
      if (!run) {
        this.panel.say(words("predict.press_run"));
        this.panel.showChoices([]);
      } else if (this.waiting) {
        this.panel.say(words("predict.press_play"));
        this.panel.showChoices([]);
      } else if (this.over) {
        this.panel.say(words(this.runEnded() ? "predict.again" : "predict.last_question"));
      } else if (this.asked === 0) {
        this.panel.say(words("predict.watching"));
      }
    }
    this.publish();
  }

  /** What tests read on <body data-*> (../shell/probes.js): the state, the question's step and answer, the score. */
  publish() {
    const state = !this.on ? "off" : this.pending ? "asking" : this.answered ? "answered" : this.over ? "over"
      : this.waiting ? "waiting" : this.activeRun() ? "playing" : "idle";
    probe("exercise", state);
    probe("exerciseAt", this.pending ? String(this.pending.at) : "");
    probe("exerciseNext", this.pending ? String(this.pending.answer.cell) : ""); // the trace's next close record
    // Where that state stands on the board (the close record's cell; the same as exerciseNext where
    // a record's cell is its state, else what a click on the board must hit).
    probe("exerciseNextCell", this.pending ? String(this.timeline.cells[this.pending.at]) : "");
    probe("exerciseScore", `${this.right}/${this.asked}`);
  }
}
