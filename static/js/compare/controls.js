// The comparison's one timeline bar: start, −10, −1, play/pause, +1, +10, end, the range of shared
// steps (data-testid="timeline"), where it is, and the pace (the single view's presets and speed
// slider, ../player.js). The keys of the single view (space, ←/→, Shift for ten, Home/End) drive the
// same clock (app.js routes them here while the comparison is open).

import { el } from "../dom.js";
import { withCommas } from "../format.js";
import { PRESETS, sliderFromSpeed, speedFromSlider, speedLabel } from "../player.js";

const ICONS = {
  first: "M1.5 3h2v10h-2zM9 3v10L4 8zM14.5 3v10L9.5 8z",
  back: "M10 3v10L3 8zM11.5 3h2v10h-2z",
  play: "M4 2.5v11L13.5 8z",
  pause: "M3.5 3h3v10h-3zM9.5 3h3v10h-3z",
  step: "M2.5 3h2v10h-2zM6 3v10l7-5z",
  last: "M1.5 3v10l5-5zM7 3v10l5-5zM12.5 3h2v10h-2z",
};

function icon(name) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

export class TimelineBar {
  /** @param {{clock: import("./clock.js").SharedClock, onPace: () => void}} args */
  constructor({ clock, onPace }) {
    this.clock = clock;
    this.onPace = onPace;
    const button = (testid, title, label, ...content) => el("button", { type: "button", testid, title, "aria-label": label }, ...content);
    this.buttons = {
      first: button("compare-first", "First step (Home)", "First step", icon("first")),
      back10: button("compare-back10", "Ten steps back (Shift+←)", "Ten steps back", "−10"),
      back: button("compare-back", "One step back (←)", "One step back", icon("back")),
      play: button("compare-play", "Play (space)", "Play", icon("play"), " Play"),
      pause: button("compare-pause", "Pause (space)", "Pause", icon("pause"), " Pause"),
      step: button("compare-step", "One step forward (→)", "One step forward", icon("step")),
      step10: button("compare-step10", "Ten steps forward (Shift+→)", "Ten steps forward", "+10"),
      last: button("compare-last", "The end (End): every search finished, the table", "Jump to the end", icon("last")),
    };
    this.buttons.play.classList.add("cmp-play");
    this.buttons.pause.classList.add("cmp-play");
    this.buttons.pause.hidden = true;
    this.range = el("input", {
      type: "range", class: "cmp-range", testid: "timeline", min: "0", max: "0", value: "0", step: "1",
      "aria-label": "Step of the comparison: every panel at its k-th expansion",
    });
    this.position = el("span", { class: "position cmp-position", testid: "compare-position", title: "step shown / steps of the longest search (a step = one expansion in every panel)" });
    this.presets = Object.entries(PRESETS).map(([name, preset]) => el("button", {
      type: "button", "data-preset": name, testid: `compare-preset-${name}`, text: preset.label,
      title: preset.seconds ? `The whole comparison in about ${preset.seconds} seconds` : "As fast as the screen can draw",
    }));
    this.speed = el("input", { type: "range", testid: "compare-speed", min: "0", max: "1000", step: "1", "aria-label": "Speed in steps per second" });
    this.speedLabel = el("span", { class: "speed-label", testid: "compare-speed-label" });
    const b = this.buttons;
    this.root = el("div", { class: "bar cmp-bar" },
      el("div", { class: "player", role: "group", "aria-label": "The comparison's timeline" },
        b.first, b.back10, b.back, b.play, b.pause, b.step, b.step10, b.last, this.range, this.position),
      el("div", { class: "pace" },
        el("span", { class: "pace-label", text: "Speed" }),
        el("div", { class: "segmented presets", role: "group", "aria-label": "Speed presets" }, ...this.presets),
        this.speed, this.speedLabel),
    );
    this.bind();
  }

  bind() {
    const { clock, buttons: b } = this;
    b.first.addEventListener("click", () => clock.first());
    b.back10.addEventListener("click", () => clock.step(-10));
    b.back.addEventListener("click", () => clock.step(-1));
    b.play.addEventListener("click", () => clock.play());
    b.pause.addEventListener("click", () => clock.pause());
    b.step.addEventListener("click", () => clock.step(1));
    b.step10.addEventListener("click", () => clock.step(10));
    b.last.addEventListener("click", () => clock.last());
    this.range.addEventListener("input", () => clock.seekSoon(Number(this.range.value)));
    const speedChanged = () => {
      clock.setSpeed(speedFromSlider(this.speed.value), null);
      this.onPace();
    };
    this.speed.addEventListener("input", speedChanged);
    this.speed.addEventListener("change", speedChanged);
    for (const button of this.presets) {
      button.addEventListener("click", () => {
        clock.setSpeed(clock.speed, button.dataset.preset);
        this.onPace();
      });
    }
  }

  /** Where the clock is: `total` the steps of the comparison once known (else those received). */
  update({ total, hasRun }) {
    const { clock, range } = this;
    const length = clock.length;
    range.max = String(length);
    if (document.activeElement !== range || clock.pendingSeek === null) range.value = String(clock.position);
    this.position.textContent = `step ${withCommas(clock.position)} / ${withCommas(total ?? length)}`;
    this.buttons.play.hidden = clock.playing;
    this.buttons.pause.hidden = !clock.playing;
    for (const control of [...Object.values(this.buttons), range]) control.disabled = !hasRun;
  }

  /** The pace's read-out: the slider, the pressed preset, steps per second and the whole run's time. */
  showPace(total) {
    const { clock } = this;
    this.speed.value = String(sliderFromSpeed(clock.speed));
    const pressed = clock.preset ?? (Number.isFinite(clock.speed) ? "" : "instant");
    for (const button of this.presets) button.setAttribute("aria-pressed", String(button.dataset.preset === pressed));
    let text = speedLabel(clock.speed);
    if (total && Number.isFinite(clock.speed)) text += ` · all ≈ ${duration(total / clock.speed)}`;
    this.speedLabel.textContent = text;
  }
}

/** "20 s", "2 min", "1.5 h". */
function duration(s) {
  if (s < 90) return `${Math.max(1, Math.round(s))} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${+(s / 3600).toFixed(1)} h`;
}
