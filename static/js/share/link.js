// Share links, which are also the page's own address (../shell/address.js keeps the address bar on
// what the page shows): a puzzle, an algorithm, its options and a step of the trace
// (`/?gallery=seed-lee-example&algorithm=astar&heuristic=octile&at=120`, or `puzzle=<id>` for an
// upload, generated or edited board while the server still holds it), or with `exercise=1` the same
// puzzle, algorithm and options with exercise mode (Predict) on (no step: the student runs it);
// `compare=1` for the comparison (with `panels=bfs,astar`: its panels' algorithms),
// `drawer=lab|code|explain` for the panel beside the board; and reading one back. The page's own
// parameters (gallery, puzzle, at, exercise, compare, panels, drawer) are
// checked here; the algorithm and the options by the server, against the family's options schema
// (GET /api/puzzles/<id>/run-options), so a link is held to the same rules as a run. A share link also
// carries the page's language (`lang=de`), read by ../i18n.js initLanguage (here it is no option).

import { ApiError, json } from "../api.js";
import { t } from "../i18n.js";

// A family's option never takes one of these names (tests/test_export.py: a family has an option named `view`).
const PAGE_PARAMETERS = ["gallery", "puzzle", "at", "exercise", "compare", "panels", "drawer", "lang"];
const MAX_PANELS = 4; // the comparison's panels at most (../compare/compare_view.js)
export const DRAWERS = ["lab", "code", "explain"]; // `drawer`: the panel beside the board (Predict is `exercise=1`)
const MAX_PARAMETER = 500; // characters of one value (the server's own limit for a text option: a formula)

/** An option's value as the link's text: true/false, "3,4" for points and lists, numbers as written. */
function optionText(value) {
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}

/**
 * The link to `puzzle` (its gallery name when it has one, else its id) with `algorithm` and the
 * non-null `options`; `at` (the step shown) only when a run is on the board; `exercise`: it opens
 * with exercise mode on (then without a step); `compare`: the comparison (then no step), with
 * `panels` its panels' algorithms;
 * `drawer`: one of DRAWERS open beside the board; `lang`: the language the link opens in (none: the reader's).
 * @param {{puzzle: {galleryName?: string | null, id: string}, algorithm?: string | null, options?: object,
 *          at?: number | null, exercise?: boolean, compare?: boolean, panels?: string[], drawer?: string | null,
 *          lang?: string | null}} state
 * @param {{origin: string, pathname: string}} [base]
 */
export function shareUrl({ puzzle, algorithm, options = {}, at = null, exercise = false, compare = false, panels = [], drawer = null, lang = null },
  base = window.location) {
  const params = new URLSearchParams();
  if (puzzle.galleryName) params.set("gallery", puzzle.galleryName);
  else params.set("puzzle", puzzle.id);
  if (algorithm) params.set("algorithm", algorithm);
  for (const [name, value] of Object.entries(options)) {
    if (value === null || value === undefined || PAGE_PARAMETERS.includes(name) || name === "algorithm") continue;
    params.set(name, optionText(value));
  }
  if (compare) {
    params.set("compare", "1");
    if (panels.length) params.set("panels", panels.join(","));
  }
  else if (exercise) params.set("exercise", "1");
  else if (at !== null) params.set("at", String(at));
  if (drawer && !compare) params.set("drawer", drawer);
  if (lang) params.set("lang", lang);
  // Commas are fine in a query string and easier to read than %2C ("start=3,1").
  return `${base.origin}${base.pathname}?${params.toString().replace(/%2C/gi, ",")}`;
}

/** A problem with one of the link's parameters, shown in the page's error banner. */
export class LinkError extends Error {
  constructor(parameter, message) {
    super(t("share.link_parameter", { parameter, message }));
    this.parameter = parameter;
  }
}

/**
 * The share link in `search` (location.search): {gallery, puzzle, at, exercise, compare, panels, drawer, rest} with `rest` the
 * URLSearchParams of the algorithm and options (checked later, by the server); null when the
 * address carries no link. Throws LinkError for a bad page parameter.
 */
export function readLink(search) {
  const params = new URLSearchParams(search);
  params.delete("lang"); // the page's language (../i18n.js), not a part of what the link shows
  if ([...params.keys()].length === 0) return null;
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (values.length > 1) throw new LinkError(name, t("share.link_twice"));
    if (values[0].length > MAX_PARAMETER) throw new LinkError(name, t("share.link_too_long", { max: MAX_PARAMETER }));
  }
  const gallery = params.get("gallery");
  const puzzle = params.get("puzzle");
  if (gallery !== null && puzzle !== null) throw new LinkError("puzzle", t("share.link_both"));
  if (gallery === null && puzzle === null) throw new LinkError("gallery", t("share.link_no_puzzle"));
  if ((gallery ?? puzzle) === "") throw new LinkError(gallery !== null ? "gallery" : "puzzle", t("share.link_empty"));
  let at = null;
  if (params.has("at")) {
    const text = params.get("at").trim();
    if (!/^\d{1,12}$/.test(text)) throw new LinkError("at", t("share.link_at", { text }));
    at = Number(text);
  }
  const exercise = flag(params, "exercise", "share.link_exercise");
  const compare = flag(params, "compare", "share.link_compare");
  let panels = [];
  if (params.has("panels")) {
    panels = params.get("panels").split(",").map((name) => name.trim());
    if (panels.length < 2 || panels.length > MAX_PANELS || !panels.every((name) => /^[a-z0-9_-]{1,40}$/.test(name))) {
      throw new LinkError("panels", t("share.link_panels", { max: MAX_PANELS }));
    }
  }
  const drawer = params.get("drawer")?.trim() || null;
  if (drawer !== null && !DRAWERS.includes(drawer)) {
    throw new LinkError("drawer", t("share.link_drawer", { drawers: DRAWERS.join(", "), drawer }));
  }
  const rest = new URLSearchParams();
  for (const [name, value] of params) if (!PAGE_PARAMETERS.includes(name)) rest.set(name, value);
  return { gallery, puzzle, at, exercise, compare, panels, drawer, rest };
}

/** A 0/1 parameter: true for 1, false for 0 or when absent; else LinkError naming what 1 means (`meaning`: a key). */
function flag(params, name, meaning) {
  if (!params.has(name)) return false;
  const text = params.get(name).trim();
  if (text !== "1" && text !== "0") throw new LinkError(name, t("share.link_flag", { meaning: t(meaning), text }));
  return text === "1";
}

/**
 * The link's algorithm and options, typed and checked by the server against the puzzle's family:
 * {algorithm (null when the link gives none), options: {name: value}}. A bad one throws LinkError
 * naming it (the server's message starts "parameter 'NAME': …").
 */
export async function checkLinkOptions(puzzleId, rest) {
  if ([...rest.keys()].length === 0) return { algorithm: null, options: {} };
  try {
    return await json(`/api/puzzles/${encodeURIComponent(puzzleId)}/run-options?${rest}`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const match = /^parameter '([^']*)': (.*)$/s.exec(err.message);
    if (match) throw new LinkError(match[1], `${match[2]}.`);
    throw err;
  }
}
