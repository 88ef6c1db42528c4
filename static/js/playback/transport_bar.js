// @ts-check
// The transport bar for any playback clock (./clock.js): first, −10, back, play/pause, step, +10, last,
// the scrub range, where it is, and the pace (presets, the speed slider, the speed in words). The
// single view's Player and the comparison's shared clock each get one; the keys (space, ←/→, Shift
// for ten, Home/End) drive whichever clock is in front through `transportKey`.
//
// A new control: one entry in CONTROLS (and a key in KEYS if it has one): both bars and the keys
// pick it up. Its test id is its key, or `prefix + key` (the comparison's bar).

import { el } from "../dom.js";
import { withCommas } from "../format.js";
import { has, onLanguage, setAttr, t } from "../i18n.js";
import { PRESETS, duration, sliderFromSpeed, speedFromSlider, speedLabel } from "./pace.js";

/** @typedef {import("./clock.js").ClockLike} ClockLike */

/** SVG paths of the buttons' icons (16 × 16). */
const ICONS = {
  first: "M1.5 3h2v10h-2zM9 3v10L4 8zM14.5 3v10L9.5 8z",
  back: "M10 3v10L3 8zM11.5 3h2v10h-2z",
  play: "M4 2.5v11L13.5 8z",
  pause: "M3.5 3h3v10h-3zM9.5 3h3v10h-3z",
  step: "M2.5 3h2v10h-2zM6 3v10l7-5z",
  last: "M1.5 3v10l5-5zM7 3v10l5-5zM12.5 3h2v10h-2z",
};

/**
 * @typedef {object} Control
 * @property {string} key        its name (and test id)
 * @property {keyof ICONS} [icon]
 * @property {string} [text]     shown after the icon (or alone)
 * @property {string} [textKey]  a catalog key: words shown after the icon (in the page's language)
 * @property {string} title      the tooltip, with its key (a catalog key)
 * @property {string} [label]    for screen readers (a catalog key), when the button shows no text: a
 *   button that shows text ("−10", "Play") is named by it (WCAG 2.5.3), its title explains it
 * @property {(clock: ClockLike) => void} act
 * @property {(clock: ClockLike) => boolean} [shown]  default: always
 * @property {string} [className]
 */

/** @type {Control[]} the buttons, in order */
const CONTROLS = [
  { key: "first", icon: "first", title: "play.first_title", label: "play.first", act: (c) => c.first() },
  { key: "back10", text: "−10", title: "play.back10_title", label: "play.back10", act: (c) => c.step(-10), className: "ten" },
  { key: "back", icon: "back", title: "play.back_title", label: "play.back", act: (c) => c.step(-1) },
  { key: "play", icon: "play", textKey: "play.play", title: "play.play_title", act: (c) => c.play(), shown: (c) => !c.playing, className: "play-button" },
  { key: "pause", icon: "pause", textKey: "play.pause", title: "play.pause_title", act: (c) => c.pause(), shown: (c) => c.playing, className: "play-button" },
  { key: "step", icon: "step", title: "play.step_title", label: "play.step", act: (c) => c.step(1) },
  { key: "step10", text: "+10", title: "play.step10_title", label: "play.step10", act: (c) => c.step(10), className: "ten" },
  { key: "last", icon: "last", title: "play.last_title", label: "play.last", act: (c) => c.last() },
];

/**
 * The keys of any clock: `key` as in KeyboardEvent.key, `shift` when Shift changes it. Arrows and
 * Home/End are left to a focused range input (they move it).
 * @type {{key: string, act: (clock: ClockLike, shift: boolean) => void, notOnSlider?: boolean}[]}
 */
const KEYS = [
  // Play/pause everywhere, even on a focused button (whose default would press it again: after
  // clicking Run, space would restart the search). Enter still presses buttons.
  { key: " ", act: (c) => c.toggle() },
  { key: "ArrowRight", act: (c, shift) => c.step(shift ? 10 : 1), notOnSlider: true },
  { key: "ArrowLeft", act: (c, shift) => c.step(shift ? -10 : -1), notOnSlider: true },
  { key: "Home", act: (c) => c.first(), notOnSlider: true },
  { key: "End", act: (c) => c.last(), notOnSlider: true },
];

/**
 * Drive `clock` from a key press; true when the key was one of the transport's.
 * @param {KeyboardEvent} event
 * @param {ClockLike} clock
 * @returns {boolean}
 */
export function transportKey(event, clock) {
  const target = /** @type {HTMLElement | null} */ (event.target);
  const onSlider = target?.tagName === "INPUT" && /** @type {HTMLInputElement} */ (target).type === "range";
  const binding = KEYS.find((k) => k.key === event.key);
  if (!binding || (binding.notOnSlider && onSlider)) return false;
  binding.act(clock, event.shiftKey);
  return true;
}

/** @param {keyof ICONS} name @returns {SVGSVGElement} */
function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

/** "about a minute", "about 20 seconds" @param {number} s */
const about = (s) => (s === 60 ? t("play.about_minute") : t("play.about_seconds", { s }));

/** A word given as a catalog key, else as it is (t() of a non-key is the text itself). @param {string} word */
const say = (word) => t(word);

export class TransportBar {
  /**
   * @param {{clock: ClockLike, onPace?: () => void, prefix?: string, testids?: Record<string, string>,
   *          label?: string, what?: string, positionPrefix?: string, positionTitle?: string,
   *          rangeLabel?: string, titles?: Record<string, string>, className?: string, allWord?: string}} args
   *   Every word is a catalog key (a plain text is shown as it is, untranslated).
   *   prefix: before every test id ("compare-"); testids: a control's own test id instead (the
   *   single view's "step-back", "scrub"); label: the bar's caption ("play.trace"); what: what a
   *   preset plays in its time ("run", "comparison": the keys play.what.<what>); positionPrefix:
   *   before "k / n"; titles: a control's own tooltip; allWord: the whole run in the speed's
   *   read-out (default "whole run"; "all" is play.all); onPace: the pace was changed by the user.
   */
  constructor({
    clock, onPace = () => {}, prefix = "", testids = {}, label = "", what = "run", positionPrefix = "",
    positionTitle = "play.position_title", rangeLabel = "play.range", titles = {}, className = "", allWord = "",
  }) {
    this.clock = clock;
    this.onPace = onPace;
    this.positionPrefix = positionPrefix;
    this.dragging = false; // the scrub range is held: the clock does not move it meanwhile
    const testid = (key) => testids[key] || `${prefix}${key}`;
    /** @type {Map<Control, HTMLButtonElement>} */
    this.buttons = new Map();
    for (const control of CONTROLS) {
      // A button's words: its text ("−10", "Play") names it, the title explains it; an icon alone is
      // named by its label. "−10 Ten steps back" contains what it shows (WCAG 2.5.3).
      const words = control.textKey ? el("span", { class: "button-text", t: control.textKey }) : null;
      const content = [control.icon ? icon(control.icon) : null, control.text || null, words ? " " : null, words]
        .filter((c) => c !== null);
      const button = /** @type {HTMLButtonElement} */ (el("button", {
        type: "button", testid: testid(control.key), class: control.className || null, on: { click: () => control.act(this.clock) },
      }, ...content));
      const title = titles[control.key] || control.title;
      if (has(title)) setAttr(button, "title", title);
      else button.title = title;
      if (control.label) setAttr(button, "aria-label", control.label);
      this.buttons.set(control, button);
    }
    this.range = /** @type {HTMLInputElement} */ (el("input", {
      type: "range", class: "scrub", testid: testid("range"), min: "0", max: "0", value: "0", step: "1",
    }));
    this.words = { label, rangeLabel, positionTitle, what, allWord };
    this.range.addEventListener("pointerdown", () => { this.dragging = true; });
    this.range.addEventListener("pointerup", () => { this.dragging = false; });
    this.range.addEventListener("input", () => this.clock.seekSoon(Number(this.range.value)));
    this.position = el("span", { class: "position", testid: testid("position"), text: "0 / 0" });
    this.presets = Object.entries(PRESETS).map(([name, preset]) => el("button", {
      type: "button", "data-preset": name, testid: testid(`preset-${name}`), t: preset.label,
      on: { click: () => this.choosePreset(name) },
    }));
    this.speed = /** @type {HTMLInputElement} */ (el("input", {
      type: "range", class: "speed", testid: testid("speed"), min: "0", max: "1000", step: "1",
      tattr: { "aria-label": "play.speed_slider" },
    }));
    const speedChanged = () => {
      this.clock.setSpeed(speedFromSlider(this.speed.value), null);
      this.onPace();
    };
    this.speed.addEventListener("input", speedChanged);
    this.speed.addEventListener("change", speedChanged);
    this.speedLabel = el("span", { class: "speed-label", testid: testid("speed-label") });
    this.caption = label ? el("span", { class: "player-label", testid: testid("player-label") }) : null;
    this.group = el("div", { class: "player", role: "group" },
      ...[this.caption].filter(Boolean), ...this.buttons.values(), this.range, this.position);
    this.root = el("div", { class: `bar ${className}`.trim() },
      this.group,
      el("div", { class: "pace" },
        el("span", { class: "pace-label", t: "play.speed" }),
        el("div", { class: "segmented presets", role: "group", tattr: { "aria-label": "play.presets" } }, ...this.presets),
        this.speed, this.speedLabel),
    );
    this.lastTotal = null; // the total the pace's read-out last showed (written again in another language)
    this.lastUpdate = null;
    this.relabel();
    onLanguage(() => {
      this.relabel();
      if (this.lastUpdate) this.update(this.lastUpdate);
      this.showPace(this.lastTotal);
    });
  }

  /** The words given as keys (or texts) and the presets' tooltips, in the page's language. */
  relabel() {
    const { label, rangeLabel, positionTitle, what } = this.words;
    if (this.caption) this.caption.textContent = say(label);
    this.group.setAttribute("aria-label", label ? say(label) : t("play.group"));
    this.range.setAttribute("aria-label", say(rangeLabel));
    this.position.title = say(positionTitle);
    for (const button of this.presets) {
      const preset = PRESETS[button.dataset.preset || ""];
      button.title = preset.seconds
        ? t("play.preset_title", { what: this.whatWord(what), about: about(preset.seconds) })
        : t("play.preset_instant_title");
    }
  }

  /** "run", "comparison" in the page's language (play.what.<what>, else the word given). @param {string} what */
  whatWord(what) {
    return has(`play.what.${what}`) ? t(`play.what.${what}`) : say(what);
  }

  /** The whole run in the speed's read-out: "whole run", "all". */
  allText() {
    const { allWord, what } = this.words;
    if (!allWord) return t("play.whole", { what: this.whatWord(what) });
    return has(`play.${allWord}`) ? t(`play.${allWord}`) : say(allWord);
  }

  /** @param {string} name a preset: its speed follows the run's size (the owner re-paces in onPace) */
  choosePreset(name) {
    this.clock.setSpeed(this.clock.speed, name);
    this.onPace();
  }

  /**
   * Where the clock is.
   * @param {{total?: number | null, enabled: boolean}} args  total: the steps in all once known (else
   *   those arrived); enabled: there is something to play.
   */
  update({ total = null, enabled }) {
    const { clock, range } = this;
    const length = clock.length;
    range.max = String(length);
    if (document.activeElement !== range || !this.dragging) range.value = String(clock.position);
    this.lastUpdate = { total, enabled };
    this.position.textContent = `${this.positionPrefix ? say(this.positionPrefix) : ""}${withCommas(clock.position)} / ${withCommas(total ?? length)}`;
    for (const [control, button] of this.buttons) {
      button.hidden = control.shown ? !control.shown(clock) : false;
      button.disabled = !enabled;
    }
    range.disabled = !enabled;
  }

  /**
   * The pace's read-out: the slider, the pressed preset, steps per second and the whole run's time.
   * @param {number | null} total the steps in all (null or 0: not known yet)
   */
  showPace(total) {
    const { clock } = this;
    this.lastTotal = total;
    const speed = clock.speed;
    this.speed.value = String(sliderFromSpeed(speed));
    const pressed = clock.preset ?? (Number.isFinite(speed) ? "" : "instant");
    for (const button of this.presets) button.setAttribute("aria-pressed", String(button.dataset.preset === pressed));
    let text = speedLabel(speed);
    if (total && Number.isFinite(speed)) text += ` · ${t("play.all_in", { all: this.allText(), time: duration(total / speed) })}`;
    else if (!total && clock.preset && PRESETS[clock.preset].seconds > 0) {
      // steps/s once its size is known
      text = t("play.a_what_in", { what: this.whatWord(this.words.what), time: duration(PRESETS[clock.preset].seconds) });
    }
    this.speedLabel.textContent = text;
  }
}
