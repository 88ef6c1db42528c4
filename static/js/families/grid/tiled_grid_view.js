// A grid maze too big to draw cell by cell in the page (info.deep_zoom: more cells than the server's
// tile_min_cells, e.g. a 15001 × 15001 image): the board is a pyramid of PNG tiles the server draws
// (server/web/tiles.py), shown by the deep-zoom TileViewer (../../tiles/tile_viewer.js). A run sends
// no records: run_done's `tiles` names it, the Player counts its steps (Player.useSteps) and each step
// is the board after that many expansions, asked of the server as the visible tiles at that step.
// The frontier at the playhead comes from the run's samples (every `sample_every` steps, and the end).

import { el } from "../../dom.js";
import { onLanguage, setText, t } from "../../i18n.js";
import { num } from "../words.js";
import { COLORS } from "../../colors.js";
import { FamilyView } from "../family_view.js";
import { TileViewer } from "../../tiles/tile_viewer.js";
import { GridView } from "./grid_view.js";
import { pickButtons } from "./pick_buttons.js";
import { renderGridLegend } from "./grid_legend.js";

const HOVER_MS = 120; // the hover read-out asks the server at most this often

export class TiledGridView extends FamilyView {
  static formLayout = GridView.formLayout;
  static kindKey = GridView.kindKey;

  /** @param {import("../family_view.js").FamilyViewArgs} args */
  constructor(args) {
    super(args);
    /** @type {TileViewer | null} */
    this.viewer = null;
    this.tiles = null; // run_done's `tiles` of the run shown, or null (the board alone)
    this.frontier = null; // Int32Array: the frontier every `sample_every` steps
    this.step = null; // the step the board shows (null: no run)
    this.picked = { start: null, goal: null }; // [row, col] typed, or null: the file's
    this.buildPanel();
    onLanguage(() => {
      if (this.info) this.writeBanner();
    });
    // What the Player drives: no per-cell state here, the step goes to the viewer.
    const view = this;
    this.boardState = {
      status: { length: 0 },
      reset() {
        view.showStep(view.tiles ? 0 : null);
      },
      apply() {},
      seek(step) {
        view.showStep(step);
      },
      get settled() {
        return view.isSettled();
      },
    };
    this.boardRenderer = {
      repaintAll: () => this.viewer?.requestDraw(),
      requestDraw: () => this.viewer?.requestDraw(),
      drawNow: () => this.viewer?.requestDraw(),
    };
  }

  buildPanel() {
    const field = (which, labelKey) => {
      const input = el("input", {
        type: "text", id: `${which}-rc-tiled`, testid: `${which}-rc`, inputmode: "numeric", autocomplete: "off",
        spellcheck: "false", tattr: { placeholder: "fam.grid.placeholder_files" },
      });
      input.addEventListener("change", () => this.typed(which, input));
      return { input, wrap: el("div", { class: "option" }, el("label", { for: `${which}-rc-tiled`, t: labelKey }), input) };
    };
    this.fields = { start: field("start", "fam.grid.start_rc"), goal: field("goal", "fam.grid.goal_rc") };
    this.fieldError = el("span", { class: "field-error", testid: "endpoint-error", role: "status", hidden: true });
    this.about = el("p", { class: "hint", testid: "tiled-note" });
    // A click on the board sets the start or the goal, as on a board drawn whole (Shift+click: the goal).
    this.pickButtons = pickButtons((mode) => this.setPickMode(mode));
    this.pickMode = "off";
    this.panel = el("section", {},
      el("h2", { t: "fam.grid.huge_board" }),
      this.about,
      el("h2", { t: "fam.grid.endpoints" }),
      el("div", { class: "segmented", role: "group", tattr: { "aria-label": "fam.grid.click_sets" } },
        this.pickButtons.off, this.pickButtons.start, this.pickButtons.goal),
      el("p", { class: "hint", t: "fam.grid.hint_tiled" }),
      el("div", { class: "option-row" }, this.fields.start.wrap, this.fields.goal.wrap),
      this.fieldError,
    );
    this.canvas.addEventListener("click", (event) => this.clicked(event));
    // The hover read-out: the cell under the pointer, asked of the server (at most every HOVER_MS).
    this.hoverAt = 0;
    this.hoverTimer = 0;
    this.canvas.addEventListener("pointermove", (event) => this.hovered(event));
    this.canvas.addEventListener("pointerleave", () => this.shell.setHover(""));
    this.banner = el("div", { class: "banner warn", testid: "endpoint-problem", role: "alert", hidden: true });
  }

  // ---- entering and leaving ------------------------------------------------------------------------

  /** Nothing to fetch: the tiles come as the viewer asks for them. */
  async prepare(_info) {
    return {};
  }

  enter(info) {
    this.info = info;
    this.tiles = null;
    this.frontier = null;
    this.step = null;
    this.picked = { start: null, goal: null };
    for (const which of ["start", "goal"]) this.fields[which].input.value = "";
    this.fieldError.hidden = true;
    this.setPickMode(info.endpoint_problem ? "start" : "off");
    const { width, height, tile } = info.deep_zoom;
    setText(this.about, "fam.grid.tiled_about", { w: width, h: height, cells: width * height });
    this.writeBanner();
    this.banner.hidden = !info.endpoint_problem;
    this.place(this.hosts.left, this.panel);
    this.place(this.hosts.banner, this.banner);
    this.viewer?.destroy();
    this.canvas.tabIndex = 0;
    // The board's box sizes the canvas (a canvas keeps its intrinsic size under `inset: 0` alone).
    this.canvas.style.width = "100%";
    this.canvas.style.height = "100%";
    this.viewer = new TileViewer({
      canvas: this.canvas, width, height, tileSize: tile,
      url: (z, x, y, t) => this.tileUrl(z, x, y, t),
      drawOverlay: (ctx, view) => this.drawOverlay(ctx, view),
      // The step whose visible tiles have all arrived, on the canvas as the other views' probes are
      // (tests and benchmarks wait for it).
      onSettled: (t) => {
        this.canvas.dataset.tilesSettled = String(t ?? "board");
      },
    });
    this.viewer.fit();
  }

  writeBanner() {
    const problem = this.info.endpoint_problem;
    this.banner.textContent = problem ? t("fam.grid.tiled_banner", { problem }) : "";
  }

  leave() {
    this.viewer?.destroy();
    this.viewer = null;
    this.unplace();
  }


  playerTarget() {
    return { state: this.boardState, renderer: this.boardRenderer };
  }

  get zoomable() {
    return true;
  }

  fit() {
    this.viewer?.fit();
  }

  zoomBy(factor) {
    const view = this.viewer?.getView();
    if (view) this.viewer.setView({ zoom: view.zoom * factor });
  }

  refit() {
    this.viewer?.requestDraw();
  }

  // ---- tiles and steps -----------------------------------------------------------------------------

  tileUrl(z, x, y, t) {
    const id = encodeURIComponent(this.info.id);
    if (this.tiles && t !== null) return `/api/puzzles/${id}/runs/${this.tiles.key}/tiles/${z}/${x}/${y}.png?t=${t}`;
    return `/api/puzzles/${id}/tiles/${z}/${x}/${y}.png`;
  }

  /** The board after `step` steps of the run (null: the board alone). */
  showStep(step) {
    this.step = step;
    this.viewer?.setStep(step);
  }

  isSettled() {
    return !this.viewer || this.viewer.isSettled();
  }

  // ---- options -------------------------------------------------------------------------------------

  viewOptions() {
    return { start: this.picked.start, goal: this.picked.goal };
  }

  useViewOptions({ start = null, goal = null } = {}) {
    this.picked = { start, goal };
    this.viewer?.requestDraw();
  }

  typed(which, input) {
    const text = input.value.trim();
    this.fieldError.hidden = true;
    if (!text) {
      this.picked[which] = null;
      this.viewer?.requestDraw();
      return;
    }
    const match = /^\(?\s*(\d+)\s*[,\s]\s*(\d+)\s*\)?$/.exec(text);
    const { width, height } = this.info;
    const rc = match ? [Number(match[1]), Number(match[2])] : null;
    if (!rc || rc[0] >= height || rc[1] >= width) {
      setText(this.fieldError, `fam.grid.tiled_typed_${which}`, { h: height, w: width });
      this.fieldError.hidden = false;
      return;
    }
    this.picked[which] = rc;
    this.viewer?.zoomTo({ col: rc[1] + 0.5, row: rc[0] + 0.5 }, 8);
  }

  /** Ask for the cell under the pointer, at most every HOVER_MS (the last position wins). */
  hovered(event) {
    if (!this.viewer || event.buttons) return;
    const { clientX, clientY } = event;
    clearTimeout(this.hoverTimer);
    const wait = Math.max(0, this.hoverAt + HOVER_MS - performance.now());
    this.hoverTimer = setTimeout(() => this.describeCell(clientX, clientY), wait);
  }

  async describeCell(clientX, clientY) {
    this.hoverAt = performance.now();
    const cell = this.viewer?.cellAt(clientX, clientY);
    if (!cell) {
      this.shell.setHover("");
      return;
    }
    const id = encodeURIComponent(this.info.id);
    const run = this.tiles ? `&run=${this.tiles.key}` : "";
    try {
      const answer = await fetch(`/api/puzzles/${id}/cell?row=${cell.row}&col=${cell.col}${run}`);
      if (!answer.ok) return;
      const c = await answer.json();
      const parts = [t("fam.view.hover_rc", { r: c.row, c: c.col }),
        c.weight === 0 ? t("fam.grid.hover_wall") : t("fam.grid.hover_weight", { w: c.weight })];
      if (this.tiles && c.weight !== 0) {
        const at = this.step ?? 0;
        if (c.expanded_at !== null && at >= c.expanded_at) parts.push(t("fam.grid.tile_expanded_at", { step: num(c.expanded_at) }));
        else if (c.reached_at !== null && at >= c.reached_at) parts.push(t("fam.grid.tile_frontier_since", { step: num(c.reached_at) }));
        else parts.push(c.reached_at === null ? t("fam.grid.tile_never") : t("fam.grid.tile_reached_at", { step: num(c.reached_at) }));
      }
      this.shell.setHover(parts.join(" · "));
    } catch {
      // the read-out is a courtesy: a failed request leaves it as it was
    }
  }

  /** What a click on the board does: "off" (nothing: drag to pan), "start" or "goal". */
  setPickMode(mode) {
    this.pickMode = mode;
    for (const [value, button] of Object.entries(this.pickButtons)) button.setAttribute("aria-pressed", String(value === mode));
    this.canvas.classList.toggle("picking", mode !== "off");
  }

  /** A click (not a drag) in a pick mode, or with Shift, sets that end at the cell under the pointer. */
  clicked(event) {
    if (!this.viewer || this.viewer.wasDrag()) return;
    const which = event.shiftKey ? "goal" : this.pickMode;
    if (which === "off") return;
    const cell = this.viewer.cellAt(event.clientX, event.clientY);
    if (!cell) return;
    this.picked[which] = [cell.row, cell.col];
    this.fields[which].input.value = `${cell.row}, ${cell.col}`;
    this.fieldError.hidden = true;
    if (which === "start" && this.info.endpoint_problem && !this.picked.goal && !this.info.goals?.length) {
      this.setPickMode("goal"); // the next click sets the other missing end
    }
    this.viewer.requestDraw();
  }

  checkReady() {
    if (!this.fieldError.hidden) return this.fieldError.textContent;
    if (!this.info.endpoint_problem) return null;
    const missing = ["start", "goal"].filter((w) => !this.picked[w] && !this.info[`${w}s`]?.length);
    if (missing.length) this.setPickMode(missing[0]);
    if (!missing.length) return null;
    return t(missing.length > 1 ? "fam.grid.tiled_choose_both" : `fam.grid.tiled_choose_${missing[0]}`);
  }

  // ---- a run ---------------------------------------------------------------------------------------

  runStarted() {
    this.tiles = null;
    this.frontier = null;
    this.showStep(null);
  }

  tiledRun(tiles) {
    this.tiles = tiles;
    this.frontier = null;
    this.showStep(0);
    const id = encodeURIComponent(this.info.id);
    fetch(`/api/puzzles/${id}/runs/${tiles.key}/frontier`)
      .then((r) => (r.ok ? r.arrayBuffer() : null))
      .then((buffer) => {
        if (buffer && this.tiles === tiles) this.frontier = new Int32Array(buffer);
      })
      .catch(() => {});
  }

  tileCounts(step) {
    const tiles = this.tiles;
    if (!tiles) return null;
    const expanded = Math.min(step, tiles.expanded);
    let frontier = null;
    const samples = this.frontier; // every sample_every steps, and last the frontier after the last expansion
    if (samples) frontier = step >= tiles.expanded ? samples[samples.length - 1] : samples[Math.min(samples.length - 2, Math.floor(step / tiles.sample_every))];
    return { expanded, generated: null, frontier, maxFrontier: null };
  }

  playheadFigures() {
    return [];
  }

  legend(container, { algorithm } = {}) {
    renderGridLegend(container, {
      weighted: Boolean(this.info?.weighted),
      backward: algorithm === "bidirectional",
      scoreMax: this.tiles ? this.tiles.expanded : 0,
      scoreKey: "fam.grid.legend_by_order",
      tiled: true,
    });
  }

  describeRun(algorithm, options) {
    return GridView.prototype.describeRun.call(this, algorithm, options);
  }

  // ---- drawing on top of the tiles -----------------------------------------------------------------

  drawOverlay(ctx, view) {
    const info = this.info;
    if (!info) return;
    const ends = [
      ["start", this.picked.start ? [this.picked.start] : info.starts || []],
      ["goal", this.picked.goal ? [this.picked.goal] : info.goals || []],
    ];
    const radius = Math.max(5 * view.dpr, view.scale * 0.45);
    ctx.save();
    for (const [kind, cells] of ends) {
      for (const [r, c] of cells.slice(0, 64)) {
        const { x, y } = view.toScreen(c + 0.5, r + 0.5);
        ctx.beginPath();
        ctx.arc(x, y, radius, 0, 2 * Math.PI);
        ctx.fillStyle = kind === "start" ? COLORS.start : COLORS.goal;
        ctx.fill();
        ctx.lineWidth = Math.max(1.5, radius * 0.25);
        ctx.strokeStyle = "#fff";
        ctx.stroke();
      }
    }
    ctx.restore();
  }
}
