// The front end's puzzle families: which view class shows a puzzle of each `info.family` (the view
// interface, with its defaults and documentation, is FamilyView in ./family_view.js).

import { GridView } from "./grid/grid_view.js";
import { TiledGridView } from "./grid/tiled_grid_view.js";
import { LabyrinthView } from "./labyrinth/labyrinth_view.js";
import { SlidingView } from "./sliding/sliding_view.js";
import { StepView } from "./step/step_view.js";
import { ZenjiView } from "./zenji/zenji_view.js";

const FAMILY_VIEWS = { grid: GridView, labyrinth: LabyrinthView, sliding: SlidingView, step: StepView, zenji: ZenjiView };

// A board too big to draw cell by cell (the puzzle's info has `tiles`): the family's tiled view.
const TILED_VIEWS = { grid: TiledGridView };

/**
 * The view class for a puzzle family's name, or null when this page cannot show that family.
 * `tiled`: the puzzle is a huge board drawn as tiles (info.deep_zoom).
 */
export function viewClassFor(family, { tiled = false } = {}) {
  const views = tiled ? TILED_VIEWS : FAMILY_VIEWS;
  return Object.hasOwn(views, family) ? views[family] : null;
}
