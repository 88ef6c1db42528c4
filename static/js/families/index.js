// The front end's puzzle families: which view class shows a puzzle of each `info.family` (the view
// interface, with its defaults and documentation, is FamilyView in ./family_view.js).

import { GridView } from "./grid/grid_view.js";
import { LabyrinthView } from "./labyrinth/labyrinth_view.js";
import { SlidingView } from "./sliding/sliding_view.js";
import { StepView } from "./step/step_view.js";
import { ZenjiView } from "./zenji/zenji_view.js";

export const FAMILY_VIEWS = { grid: GridView, labyrinth: LabyrinthView, sliding: SlidingView, step: StepView, zenji: ZenjiView };

/** The view class for a puzzle family's name, or null when this page cannot show that family. */
export function viewClassFor(family) {
  return Object.hasOwn(FAMILY_VIEWS, family) ? FAMILY_VIEWS[family] : null;
}
