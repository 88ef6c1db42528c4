// The solution's replay, one control for every family that replays a solution beside the board: the
// ordered list of its steps (the current one highlighted, the ones before it marked done), and
// prev / play / next with a position read-out, in one or more sets of buttons that drive it alike.
// Stepping while a step still animates first lands it, so the board never lags behind the list. A
// family's replay extends MoveReplay with what its steps are (count, the list's items), how the board
// looks after a step (draw) and how one step is animated (animateStep); solutionPanel() builds the
// panel it lives in.

import { el } from "../dom.js";
import { setText } from "../i18n.js";
import { clearText } from "./words.js";

// A list longer than this shows its first LIST_MAX steps and says how many more there are: a student's
// run may return a path of 70,000 moves, and that many list items cost seconds of layout at every step.
// The board and the buttons still walk every step.
export const LIST_MAX = 1000;

const WAIT_TEXT = "fam.view.solution_wait"; // a catalog key, as every text argument below

export class MoveReplay {
  /**
   * @param {object} args
   * @param {{show?: Function, finishAnimation: () => void}} args.renderer  the family's renderer
   * @param {HTMLOListElement} args.list  the list of steps
   * @param {ReplayButtons[]} args.controls  sets of buttons that drive the replay alike
   * @param {() => number} args.speedScale  how long animations last (1 = as designed)
   * @param {() => void} [args.onActivate]  a control was used: the view takes the canvas from the search trace
   * @param {number} args.pauseMs  play: a breath between steps, at speed factor 1
   * @param {boolean} [args.pauseFirst]  play from the start: a breath before the first step too
   * @param {boolean} [args.pauseLast]  play: a breath after the last step before it stops
   * @param {{play: string, pause: string}} [args.labels]  the play button's text, paused and playing (keys)
   */
  constructor({
    renderer, list, controls, speedScale, onActivate = () => {}, pauseMs, pauseFirst = false, pauseLast = false,
    labels = { play: "fam.view.play_moves", pause: "fam.view.pause_moves" },
  }) {
    Object.assign(this, { renderer, list, controls, speedScale, onActivate, pauseMs, pauseFirst, pauseLast, labels });
    this.moves = []; // the solution's moves
    this.marked = null; // the step whose marks the list shows (updateControls)
    this.step = 0; // steps done
    this.overview = false; // every step drawn alike, none current (a family's first view of its solution)
    this.playing = false;
    this.playToken = 0;
    for (const { prev, next, play } of controls) {
      prev.addEventListener("click", () => this.userStep(-1));
      next.addEventListener("click", () => this.userStep(1));
      play.addEventListener("click", () => this.togglePlay());
    }
  }

  /** Steps in all (0: no solution loaded): one a move. */
  get count() {
    return this.moves.length;
  }

  get loaded() {
    return this.count > 0;
  }

  /** Forget the solution. */
  clear() {
    this.stop();
    this.forget();
    this.step = 0;
    this.overview = false;
    this.list.replaceChildren();
    this.marked = null;
    this.updateControls();
  }

  /** Forget the solution's data (count becomes 0). */
  forget() {
    this.moves = [];
  }

  /**
   * Fill the list with the items of steps 1 … `count` (`itemOf(step)`), the first LIST_MAX of them and
   * then one line that says how many more the board plays.
   * @param {number} count
   * @param {(step: number) => HTMLElement} itemOf
   */
  fillList(count, itemOf) {
    const shown = Math.min(count, LIST_MAX);
    const items = Array.from({ length: shown }, (_, k) => itemOf(k + 1));
    if (count > shown) {
      items.push(el("li", { class: "muted list-more", testid: "moves-more", t: "fam.view.list_more", params: { rest: count - shown } }));
    }
    this.list.replaceChildren(...items);
    this.marked = null; // the list's marks start afresh (updateControls)
  }

  /**
   * A list item for `step` (its click shows the board after it): `text` the step in its notation or
   * already in words, or [key, params] of the catalog (kept in the current language); `titleKey` a key.
   */
  item(step, text, titleKey) {
    const li = el("li", Array.isArray(text)
      ? { testid: "move", t: text[0], params: text[1], tattr: { title: titleKey } }
      : { testid: "move", text, tattr: { title: titleKey } });
    li.addEventListener("click", () => {
      this.stop();
      this.onActivate();
      this.show(step);
    });
    return li;
  }

  /** Show the board after `step` steps, at rest; `overview`: every step drawn alike. */
  show(step, overview = false) {
    if (!this.loaded) return;
    this.step = Math.max(0, Math.min(this.count, step));
    this.overview = overview;
    this.draw(this.step);
    this.updateControls();
  }

  /** The family draws the board after `step` steps, at rest. */
  draw(_step) {}

  /** The family animates step `step` (1-based; this.step is it now); resolves when it has ended. */
  animateStep(_step) {
    return Promise.resolve();
  }

  userStep(delta) {
    this.stop();
    this.onActivate();
    if (delta > 0) this.advance();
    else this.show(this.overview ? this.count - 1 : this.step - 1); // from the overview: the last step
  }

  /** Animate the next step; resolves when it has ended (or was cut short). */
  advance() {
    if (!this.loaded) return Promise.resolve();
    this.renderer.finishAnimation(); // a step still running lands first
    if (this.overview) {
      // From the overview, Next starts the walk-through at the first step.
      this.step = 0;
      this.overview = false;
    }
    if (this.step >= this.count) {
      this.show(this.step);
      return Promise.resolve();
    }
    this.step += 1;
    this.updateControls();
    return this.animateStep(this.step);
  }

  togglePlay() {
    if (this.playing) {
      this.stop();
      return;
    }
    this.onActivate();
    this.play();
  }

  /** Play from the current step (from the start when at the end or in the overview) to the last. */
  async play() {
    if (!this.loaded) return;
    if (this.overview || this.step >= this.count) this.show(0);
    this.playing = true;
    const token = ++this.playToken;
    this.updateControls();
    if (this.pauseFirst && this.step === 0) await this.pause(token);
    while (this.playing && token === this.playToken && this.step < this.count) {
      await this.advance();
      if (token !== this.playToken) return;
      if (this.pauseLast || this.step < this.count) await this.pause(token);
    }
    if (token === this.playToken) this.stop();
  }

  pause(token) {
    return new Promise((resolve) => setTimeout(resolve, token === this.playToken ? this.pauseMs * this.speedScale() : 0));
  }

  stop() {
    this.playing = false;
    this.playToken++;
    this.updateControls();
  }

  updateControls() {
    const n = this.count;
    const walking = !this.overview;
    const items = this.list.children;
    // Only the items whose marks change are touched: those between the step marked last and this one
    // (all of them after a new list or a switch to or from the overview).
    const last = this.marked;
    const whole = !last || last.first !== items[0] || last.items !== items.length || last.walking !== walking;
    const from = whole ? 0 : Math.max(0, Math.min(last.step, this.step) - 1);
    const to = whole ? items.length : Math.min(items.length, Math.max(last.step, this.step));
    for (let k = from; k < to; k++) {
      const current = walking && k === this.step - 1;
      items[k].classList.toggle("current", current);
      items[k].classList.toggle("done", walking && k < this.step - 1);
      if (current) items[k].setAttribute("aria-current", "step");
      else items[k].removeAttribute("aria-current");
    }
    this.marked = { step: this.step, walking, items: items.length, first: items[0] };
    if (walking) items[this.step - 1]?.scrollIntoView?.({ block: "nearest" });
    for (const { prev, next, play, position } of this.controls) {
      prev.disabled = !n || (walking && this.step === 0);
      next.disabled = !n || (walking && this.step >= n);
      play.disabled = !n;
      setText(play, this.playing ? this.labels.pause : this.labels.play);
      play.setAttribute("aria-pressed", String(this.playing));
      if (n && !walking) setText(position, "fam.view.replay_all", { n });
      else {
        clearText(position);
        position.textContent = n ? `${this.step} / ${n}` : "";
      }
    }
  }
}

/**
 * @typedef {{prev: HTMLButtonElement, play: HTMLButtonElement, next: HTMLButtonElement, position: HTMLElement}} ReplayButtons
 */

/**
 * Prev / play / next and the position read-out; `testid`: their data-testid prefix ("replay" or
 * "bar-replay"), `what`: what a step is, in the buttons' titles ("move": "Previous move", "Next move";
 * the keys fam.view.prev_<what>, fam.view.next_<what>).
 * @returns {ReplayButtons}
 */
function replayButtons(testid = "replay", what = "move") {
  return {
    prev: el("button", { type: "button", testid: `${testid}-prev`, tattr: { title: `fam.view.prev_${what}` }, t: "fam.view.prev" }),
    play: el("button", { type: "button", class: "replay-play", testid: `${testid}-play`, t: "fam.view.play_moves" }),
    next: el("button", { type: "button", testid: `${testid}-next`, tattr: { title: `fam.view.next_${what}` }, t: "fam.view.next" }),
    position: el("span", { class: "replay-position", testid: `${testid}-position` }),
  };
}

/**
 * The same replay's buttons in a bar above the board, for presentation mode (which hides the side
 * panels): `bar` the buttons, `banner` the bar that holds them (hidden until the view shows it).
 * @returns {{bar: ReplayButtons, banner: HTMLElement}}
 */
export function replayBar() {
  const bar = replayButtons("bar-replay");
  const banner = el("div", { class: "replay", role: "group", tattr: { "aria-label": "fam.view.solution_replay" }, testid: "bar-replay", hidden: true },
    el("strong", { t: "fam.view.solution_replay" }), bar.prev, bar.play, bar.next, bar.position);
  return { bar, banner };
}

/**
 * The solution's panel beside the board: its title, a notice when none was found (`message`), a hint
 * until the search trace reaches its end (`wait`), and the solution (`body`, hidden until then): the
 * replay's buttons, its list of steps and the family's figures (`stats`: {key: {testid, label, def}},
 * each value a <dd> in `figures`, "—" until set). Every text is a catalog key.
 * @param {object} args
 * @param {string} args.title  the panel's heading
 * @param {string} args.titleId  the heading's id (the replay's buttons are labelled by it)
 * @param {string} args.messageTestid
 * @param {string} [args.waitText]  the hint while the trace has not reached its end
 * @param {string} args.listLabel  the list's aria-label
 * @param {string} [args.what]  the word in the buttons' titles
 * @param {Object<string, {testid: string, label: string, def: string}>} [args.stats]
 */
export function solutionPanel({ title, titleId, messageTestid, waitText = WAIT_TEXT, listLabel, what = "move", stats = {} }) {
  const buttons = replayButtons("replay", what);
  const figures = Object.fromEntries(Object.entries(stats).map(([key, { testid }]) => [key, el("dd", { testid, class: "none", text: "—" })]));
  const parts = {
    ...buttons,
    buttons,
    figures,
    message: el("p", { class: "notice", testid: messageTestid, role: "status", hidden: true }),
    wait: el("p", { class: "hint", testid: "solution-wait", hidden: true, t: waitText }),
    moves: el("ol", { class: "moves", testid: "moves", tattr: { "aria-label": listLabel }, tabindex: "0" }),
  };
  parts.body = el("div", { class: "solution-body", hidden: true },
    el("div", { class: "replay", role: "group", "aria-labelledby": titleId },
      buttons.prev, buttons.play, buttons.next, buttons.position),
    parts.moves,
    ...(Object.keys(stats).length ? [el("dl", { class: "stats" },
      ...Object.entries(stats).map(([key, { label, def }]) => el("div", { class: "stat" },
        el("dt", { t: label }), figures[key], el("dd", { class: "def", t: def }))))] : []),
  );
  parts.root = el("section", { class: "family-result" },
    el("h3", { id: titleId, testid: "replay-title", t: title }),
    parts.message,
    parts.wait,
    parts.body,
  );
  return parts;
}
