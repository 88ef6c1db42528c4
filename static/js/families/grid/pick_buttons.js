// The "Pan / Set start / Set goal" buttons of a grid board (drawn whole or as tiles): what a click on
// the board does. One place for both grid views.

import { el } from "../../dom.js";

/**
 * The three buttons, each calling `choose(mode)` ("off", "start" or "goal"); "Pan" pressed at first.
 * @param {(mode: string) => void} choose
 * @returns {{off: HTMLElement, start: HTMLElement, goal: HTMLElement}}
 */
export function pickButtons(choose) {
  const button = (mode, testid, key) => el("button", {
    type: "button", testid, "aria-pressed": String(mode === "off"), t: key,
    on: { click: () => choose(mode) },
  });
  return {
    off: button("off", "pick-off", "fam.grid.pick_pan"),
    start: button("start", "pick-start", "fam.grid.pick_start"),
    goal: button("goal", "pick-goal", "fam.grid.pick_goal"),
  };
}
