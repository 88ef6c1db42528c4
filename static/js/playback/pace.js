// @ts-check
// The pace of playback, shared by every clock (the single view's Player, the comparison's shared
// clock) and by the families' animations: presets that play a whole run in a set time whatever its
// size (Normal: 20 s, to talk over), the speed slider's log scale, and the words for both (in the
// page's language: a preset's `label` is a catalog key).

import { fmt, t } from "../i18n.js";

export const DEFAULT_SPEED = 1500; // steps/s: the reference speed of a "custom" pace (and of animations)
/** @type {Record<string, {label: string, seconds: number}>} */
export const PRESETS = {
  slow: { label: "play.slow", seconds: 60 },
  normal: { label: "play.normal", seconds: 20 },
  fast: { label: "play.fast", seconds: 5 },
  instant: { label: "play.instant", seconds: 0 }, // as fast as the screen can draw
};
export const DEFAULT_PRESET = "normal";
// The families' animations (a push, a jump, a turn) last this much of their designed time at each preset.
/** @type {Record<string, number>} */
const PRESET_ANIMATION = { slow: 1.8, normal: 1, fast: 0.5, instant: 0.15 };
const MIN_PRESET_SPEED = 2; // steps/s: a tiny run still moves
const MAX_SPEED_EXPONENT = 6; // the slider's top below "max" is 10^6 steps/s

/**
 * How long a family's animations last (1 = as designed), from the player's pace: a preset's own
 * factor, else from the steps per second (slower steps, slower animations). One rule for every view.
 * @param {number} speed steps per second (Infinity: max)
 * @param {string | null} [preset]
 * @returns {number}
 */
export function animationScale(speed, preset = null) {
  if (preset && Object.hasOwn(PRESETS, preset)) return PRESET_ANIMATION[preset] ?? 1;
  if (!Number.isFinite(speed)) return 0.15;
  return Math.max(0.15, Math.min(4, Math.pow(DEFAULT_SPEED / Math.max(1, speed), 0.3)));
}

/**
 * Slider position (0..1000) -> steps per second; 1000 means "max" (Infinity).
 * @param {number | string} value
 * @returns {number}
 */
export function speedFromSlider(value) {
  const v = Number(value);
  if (v >= 1000) return Infinity;
  return Math.pow(10, (v / 1000) * MAX_SPEED_EXPONENT);
}

/** @param {number} speed @returns {number} the slider's position for a speed */
export function sliderFromSpeed(speed) {
  if (!Number.isFinite(speed)) return 1000;
  return Math.round((Math.log10(Math.max(1, speed)) / MAX_SPEED_EXPONENT) * 1000);
}

/**
 * The steps per second that play `steps` in a preset's time (Infinity: instant).
 * @param {string} preset
 * @param {number} steps
 * @returns {number}
 */
export function presetSpeed(preset, steps) {
  const seconds = PRESETS[preset]?.seconds ?? PRESETS[DEFAULT_PRESET].seconds;
  if (seconds <= 0) return Infinity;
  return Math.max(MIN_PRESET_SPEED, steps / seconds);
}

/** @param {number} speed @returns {string} "1.5 steps/s", "1,500 steps/s", "20k steps/s", "max" */
export function speedLabel(speed) {
  if (!Number.isFinite(speed)) return t("play.max");
  if (speed < 10) return t("play.per_second", { speed: speed.toFixed(1).replace(".", fmt(0.5, 1).charAt(1)) });
  if (speed < 1e4) return t("play.per_second", { speed: fmt(Math.round(speed)) });
  return t("play.per_second_k", { speed: fmt(Math.round(speed / 1000)) });
}

/** @param {number} s seconds @returns {string} "20 s", "2 min", "1.5 h" */
export function duration(s) {
  if (s < 90) return t("play.seconds", { n: Math.max(1, Math.round(s)) });
  if (s < 5400) return t("play.minutes", { n: Math.round(s / 60) });
  return t("play.hours", { n: fmt(+(s / 3600).toFixed(1), 1, false) });
}
