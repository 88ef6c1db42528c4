// prefers-reduced-motion (WCAG 2.3.3, issue 32): one question for every module that would move something
// by itself (an animation, a replay that starts on its own, a generation shown step by step). Under
// reduced motion such things jump to their end; what the user starts by hand (Play, a step) still plays.

const QUERY = "(prefers-reduced-motion:reduce)";

/** Whether the reader asked for reduced motion (asked again each time: the setting may change). */
export function reducedMotion() {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(QUERY).matches;
}
