// @ts-check
// ratelab: the backpressure governor visualization (week 4).
//
// Mounts into every <div data-viz="governor"> on the page. Through
// common.js, the lab's WebAssembly build (see wasm/doc.go) is loaded once
// per page, shared with the other visualizations; its ratelab.governor says
// which targets there are and names the actions. This file asks Go for the
// windows due on each animation frame: one call, one typed array back
// (lab/governor's EncodeStep). Go runs the target, the tries wrapper and
// the governor; this file only shows what they did.
//
// Attributes of the mount element, all optional:
//   data-preset     the target: "fragile" (default), "robust", "healthier", "degrades"
//                   (an id of ratelab.governor.targets)
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js, loaded only if `Go` is not defined
//                   (default /static/wasm_exec.js)
//   data-seed       seed of the target's noise (default 1)
//
// A native ES module, no build step, no network beyond the two files.

import { describe, h, helpers, niceStep, register, select, setOptions, sizeCanvas, staleHint, stoppedNote, Viz, writeHint } from "./common.js";

const { field, figure, key } = helpers("rgv");

const VISIBLE = 60; // windows on the charts
const HISTORY = 240; // windows kept for the charts
const MAX_LOG = 400; // movement lines kept in the log
const MAX_DT_MS = 250; // a frame never advances more than this much real time
const SPEEDS = ["1", "2", "4", "8", "20", "60"]; // windows per second

// The actions the charts and the log single out, by their words in
// ratelab.governor.actions (adaptive.Action's String).
const HOLD = "hold";
const BACK_OFF = "back off";

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  offer: "--rgv-offer",
  cap: "--rgv-cap",
  capFill: "--rgv-cap-fill",
  bad: "--viz-bad",
  fail: "--rgv-fail",
  ok: "--rgv-ok",
  grid: "--rgv-grid",
};

/**
 * num writes an offer or a capacity: at most two decimals, no trailing zeros.
 * @param {number} x
 */
function num(x) {
  return String(Math.round(x * 100) / 100);
}

/** @param {number} x */
function pct(x) {
  return (100 * x).toFixed(1) + "%";
}

/**
 * @typedef {object} Window one window the governor ran
 * @property {number} index
 * @property {number} offer
 * @property {number} slots
 * @property {number} capacity
 * @property {number} attempts
 * @property {number} failures
 * @property {number} retries
 * @property {number} ok
 * @property {number} failed
 * @property {string} action its words, such as "back off"
 * @property {number} next
 * @property {number} lastBad
 * @property {string} reason
 * @property {number} memory the congestion memory during the window
 */

/**
 * okFrac returns a window's request success fraction, 1 when none finished.
 * @param {Window} w
 */
function okFrac(w) {
  const done = w.ok + w.failed;
  return done ? w.ok / done : 1;
}

/**
 * stepPath begins a path that holds, over each window of ws, its value
 * (what value returns) as a level step, mapped by x (window index) and y
 * (value).
 * @param {CanvasRenderingContext2D} g
 * @param {Window[]} ws
 * @param {(index: number) => number} x
 * @param {(v: number) => number} y
 * @param {(w: Window) => number} value
 */
function stepPath(g, ws, x, y, value) {
  g.beginPath();
  for (let i = 0; i < ws.length; i++) {
    const py = y(value(ws[i]));
    if (i === 0) g.moveTo(x(ws[i].index), py);
    g.lineTo(x(ws[i].index), py);
    g.lineTo(x(ws[i].index + 1), py);
  }
}

// ---- one visualization ---------------------------------------------------------

/** @extends {Viz<lab.GovernorSim>} */
class GovernorViz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    this.code = "exercises/governor: Governor.Observe, Offer, LastBad";
    /** @type {lab.GovernorConfig} */
    this.cfg = {
      target: root.getAttribute("data-preset") || "", impl: "reference", fixed: false, tries: 3,
      seed: Number(root.getAttribute("data-seed") || 1),
    };
    this.speed = 4;
    this.paused = false;
    this.due = 0;
    /** @type {lab.GovernorInfo | null} */
    this.info = null;
    this.stopped = false;
    this.offer = 0;
    this.lastBad = 0;
    this.capacity = 0;
    /** @type {Window[]} the latest HISTORY windows, oldest first */
    this.windows = [];
    /** @type {Window | null} */
    this.lastWindow = null;
    this.logCount = 0;
    this.decoder = new TextDecoder();
    this.ui = this.build();
  }

  build() {
    const ui = {
      preset: select("preset", [], ""), // its options come with lab.wasm
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference"),
      mode: select("mode", [["governed", "On"], ["fixed", "Off: offer the ceiling"]], "governed"),
      tries: h("input", { type: "number", "data-testid": "tries", value: "3", min: "1", max: "10", step: "1", inputmode: "numeric" }),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + " windows/s"])), String(this.speed)),
      pause: h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" }),
      step: h("button", { type: "button", "data-testid": "step", text: "Step", title: "Run one window" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      window: h("strong", { "data-testid": "window", text: "0" }),
      floor: h("span", { "data-testid": "floor", text: "–" }),
      ceiling: h("span", { "data-testid": "ceiling", text: "–" }),
      band: h("span", { "data-testid": "band", text: "" }),
      offer: figure("offer", "Offer", "concurrent attempts, next window"),
      capacity: figure("capacity", "Capacity", "what the target serves now"),
      lastBad: figure("last-bad", "last_bad", "congestion memory"),
      attempt: figure("attempt-failure", "Attempt failure", "attempt plane: the truth"),
      ok: figure("ok-percent", "Requests ok", "request plane: the dashboard"),
      decision: h("p", { class: "rgv-decision", "data-testid": "decision" }),
      chart: h("canvas", { class: "rgv-chart", role: "img", "aria-label": "Offer per window against the target's capacity" }),
      planes: h("canvas", { class: "rgv-planes", role: "img", "aria-label": "Attempt failure and requests ok per window" }),
      log: h("ol", { class: "rgv-log", "data-testid": "log", "aria-label": "Movement log, newest first", reversed: "", tabindex: "0" }),
    };

    const controls = h("form", { class: "viz-controls", "aria-label": "Governor settings" }, [
      field("Target", ui.preset),
      field("Governor", ui.mode),
      field("Code", ui.impl),
      field("Tries", ui.tries),
      field("Speed", ui.speed),
      h("div", { class: "viz-buttons" }, [ui.pause, ui.step, ui.restart]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());

    const statusLine = h("div", { class: "viz-statusline" }, [
      this.status, h("span", { class: "viz-muted" }, ["window ", ui.window]),
      h("span", { class: "viz-muted" }, ["floor ", ui.floor, " · ceiling ", ui.ceiling, " · ", ui.band]),
      this.readyDot,
    ]);
    const figs = h("div", { class: "rgv-figs" }, [ui.offer.box, ui.capacity.box, ui.lastBad.box, ui.attempt.box, ui.ok.box]);
    const legend = h("p", { class: "viz-legend" }, [
      key("offer", "offer"), key("cap", "capacity"), key("bad", "last_bad (dashed: 75% of it)"),
      key("fail", "attempt failure"), key("ok", "requests ok"),
    ]);
    const logBox = h("details", { class: "rgv-logbox", open: "" }, [
      h("summary", {}, ["Movement log ", h("span", { class: "viz-muted", text: "(one line per window that moved the offer or the memory, newest first)" })]),
      ui.log,
    ]);

    this.el = h("div", { class: "viz-frame rgv" }, [controls, statusLine, figs, ui.decision, this.error, ui.chart, ui.planes, legend, logBox]);
    this.root.appendChild(this.el);

    for (const el of [ui.preset, ui.impl, ui.mode, ui.tries]) {
      el.addEventListener("change", () => { this.readControls(); this.restart(); });
    }
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 4; });
    ui.pause.addEventListener("click", () => this.setPaused(!this.paused));
    ui.step.addEventListener("click", () => {
      this.setPaused(true);
      this.serial(async () => { await this.advance(1); this.draw(); });
    });
    ui.restart.addEventListener("click", () => this.restart());
    return ui;
  }

  readControls() {
    const ui = this.ui;
    this.cfg.target = ui.preset.value;
    this.cfg.impl = ui.impl.value;
    this.cfg.fixed = ui.mode.value === "fixed";
    this.cfg.tries = Number(ui.tries.value);
  }

  /** @param {boolean} p */
  setPaused(p) {
    this.due = 0;
    super.setPaused(p);
  }

  /** makeRun makes a new run from the settings and clears the charts and the log. */
  async makeRun() {
    const api = this.api, make = api && api.newGovernorSim;
    if (!make) return;
    const s = await this.newRun(() => make(this.cfg), "Cannot run these settings: ");
    if (!s) return;
    const info = await s.info(); // first: a run of Yours answers later, and the page changes after
    this.windows = [];
    this.due = 0;
    this.ui.log.textContent = "";
    this.ui.decision.textContent = "";
    this.logCount = 0;
    this.lastWindow = null;
    this.updateInfo(info);
    this.draw();
  }

  /**
   * updateInfo refreshes what changes only at a restart or when the run stops.
   * @param {lab.GovernorInfo} info
   */
  updateInfo(info) {
    this.info = info;
    this.stopped = info.stopped;
    this.offer = info.offer;
    this.lastBad = info.lastBad;
    this.capacity = info.capacity;
    let status = info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = info.impl + ": not implemented yet. " + writeHint("governor");
    }
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", info.stopped);
    this.ui.floor.textContent = num(info.floor);
    this.ui.ceiling.textContent = num(info.ceiling);
    this.ui.band.textContent = "clean ≤ " + pct(info.low) + ", breach > " + pct(info.high);
  }

  /**
   * advance runs up to n windows in one call to Go and takes in what they did.
   * @param {number} n
   */
  async advance(n) {
    const G = this.api && this.api.governor, sim = this.sim;
    if (!G || !sim) return 0;
    const L = G.layout;
    n = Math.min(n, G.maxSteps);
    if (n <= 0 || this.stopped) return 0;
    const got = await sim.step(n, this.bytes);
    this.changed = true;
    const f = this.floats;
    const wasStopped = this.stopped;
    this.offer = f[L.offer];
    this.lastBad = f[L.lastBad];
    this.capacity = f[L.capacity];
    let textAt = 8 * (L.header + got * L.fields);
    for (let i = 0; i < got; i++) {
      const o = L.header + i * L.fields;
      const rb = f[o + L.reasonBytes], action = f[o + L.action];
      /** @type {Window} */
      const w = {
        index: f[o + L.index], offer: f[o + L.windowOffer], slots: f[o + L.slots],
        capacity: f[o + L.windowCapacity], attempts: f[o + L.attempts], failures: f[o + L.failures],
        retries: f[o + L.retries], ok: f[o + L.ok], failed: f[o + L.failed],
        action: G.actions[action] || "action " + action, next: f[o + L.next], lastBad: f[o + L.windowLastBad],
        reason: this.decoder.decode(this.bytes.subarray(textAt, textAt + rb)),
        memory: this.lastWindow ? this.lastWindow.lastBad : 0, // the memory during the window
      };
      textAt += rb;
      this.windows.push(w);
      if (w.action !== HOLD) this.logLine(w);
      this.lastWindow = w;
    }
    if (this.windows.length > HISTORY) this.windows.splice(0, this.windows.length - HISTORY);
    if (f[L.stopped] && !wasStopped) this.updateInfo(await sim.info());
    return got;
  }

  /**
   * logLine adds one movement to the log, newest first.
   * @param {Window} w
   */
  logLine(w) {
    const act = w.action;
    const cleared = w.memory > 0 && w.lastBad === 0 && act !== BACK_OFF;
    const li = h("li", {
      class: "rgv-line rgv-act-" + act.replace(" ", "-") + (cleared ? " rgv-cleared" : ""),
      "data-window": String(w.index), "data-action": act, "data-offer": String(w.offer),
      "data-next": String(w.next), "data-last-bad": String(w.lastBad), "data-capacity": String(w.capacity),
      "data-frac": String(w.attempts ? w.failures / w.attempts : 0),
    }, [
      h("span", { class: "rgv-line-w", text: "w" + w.index }),
      h("span", { class: "rgv-line-act", text: cleared ? "memory cleared" : act }),
      h("span", { class: "rgv-line-why", text: w.reason }),
    ]);
    const log = this.ui.log;
    log.insertBefore(li, log.firstChild);
    this.logCount++;
    if (this.logCount > MAX_LOG && log.lastChild) { log.removeChild(log.lastChild); this.logCount--; }
  }

  // ---- figures and charts -----------------------------------------------------------

  draw() {
    if (!this.info) return;
    this.changed = false;
    this.updateFigures(this.info);
    this.drawChart(this.info);
    this.drawPlanes();
    const ui = this.ui;
    describe(ui.chart, () => "window " + ui.window.textContent + ": offer " + ui.offer.value.textContent + ", capacity " + ui.capacity.value.textContent +
      ", last_bad " + ui.lastBad.value.textContent + (ui.decision.textContent ? ". " + ui.decision.textContent : ""));
    describe(ui.planes, () => "window " + ui.window.textContent + ": attempt failure " + ui.attempt.value.textContent + ", requests ok " + ui.ok.value.textContent);
  }

  /** @param {lab.GovernorInfo} info */
  updateFigures(info) {
    const ui = this.ui, w = this.lastWindow;
    ui.window.textContent = String(w ? w.index + 1 : 0);
    ui.offer.value.textContent = num(this.offer);
    ui.capacity.value.textContent = num(this.capacity);
    ui.lastBad.value.textContent = this.lastBad > 0 ? num(this.lastBad) : "none";
    ui.lastBad.note.textContent = this.lastBad > 0
      ? "x1.5 climbs stop at " + num(0.75 * this.lastBad)
      : info.fixed ? "no governor" : "unexplored: slow start doubles";
    if (!w) {
      ui.attempt.value.textContent = "–";
      ui.ok.value.textContent = "–";
    } else {
      const frac = w.attempts ? w.failures / w.attempts : 0;
      const ok = okFrac(w);
      ui.attempt.value.textContent = pct(frac);
      ui.ok.value.textContent = pct(ok);
      ui.attempt.box.classList.toggle("rgv-hot", frac > info.high);
      ui.attempt.box.classList.toggle("rgv-warm", frac > info.low && frac <= info.high);
      ui.ok.box.classList.toggle("rgv-green", ok >= 0.95);
      ui.ok.box.classList.toggle("rgv-red", ok < 0.8);
      ui.attempt.note.textContent = "attempt plane: the truth; " + w.retries + " retries";
      ui.decision.textContent = "Window " + w.index + ": " + w.reason;
    }
    this.showDot(this.stopped ? "stopped" : this.paused ? "paused" : "live");
  }

  /**
   * visible returns the windows on the charts and the index of the window
   * in the first slot.
   */
  visible() {
    const ws = this.windows.slice(-VISIBLE);
    return { ws, first: Math.max(0, (ws.length ? ws[ws.length - 1].index + 1 : 0) - VISIBLE) };
  }

  /** @param {lab.GovernorInfo} info */
  drawChart(info) {
    const c = sizeCanvas(this.ui.chart);
    if (!c) return;
    const g = c.g, C = this.colors;
    const left = 34, right = 8, top = 16, bottom = 18;
    const pw = c.w - left - right, ph = c.h - top - bottom;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    const v = this.visible(), ws = v.ws;
    // The scale follows what is on the chart, so a target far below the
    // ceiling is not squashed flat; the ceiling shows when it is in range.
    let ymax = Math.max(this.capacity, this.offer, 2 * info.floor);
    for (const w of ws) ymax = Math.max(ymax, w.capacity, w.offer, w.memory);
    ymax *= 1.15;
    if (info.ceiling <= ymax * 1.25) ymax = Math.max(ymax, info.ceiling * 1.1);
    const slot = pw / VISIBLE;
    /** @param {number} index */
    const x = (index) => left + (index - v.first) * slot;
    /** @param {number} val */
    const y = (val) => top + ph - (Math.min(val, ymax) / ymax) * ph;

    // Grid and axis labels.
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = C.text;
    g.strokeStyle = C.grid;
    g.lineWidth = 1;
    g.textBaseline = "middle";
    g.textAlign = "right";
    const stepY = niceStep(ymax / 4);
    g.beginPath();
    for (let yy = 0; yy <= ymax + 1e-9; yy += stepY) {
      const py = Math.round(y(yy)) + 0.5;
      g.moveTo(left, py);
      g.lineTo(c.w - right, py);
      g.fillText(String(yy), left - 4, py);
    }
    g.stroke();
    g.textAlign = "center";
    g.textBaseline = "top";
    for (let k = Math.ceil(v.first / 10) * 10; k < v.first + VISIBLE; k += 10) {
      g.fillText(String(k), x(k), top + ph + 4);
    }
    g.textAlign = "left";

    // The ceiling, or a note that it is above the chart.
    g.textBaseline = "bottom";
    if (info.ceiling <= ymax) {
      g.setLineDash([4, 4]);
      g.strokeStyle = C.text;
      g.beginPath();
      g.moveTo(left, Math.round(y(info.ceiling)) + 0.5);
      g.lineTo(c.w - right, Math.round(y(info.ceiling)) + 0.5);
      g.stroke();
      g.setLineDash([]);
      g.fillText("ceiling " + num(info.ceiling), left + 4, y(info.ceiling) - 2);
    } else {
      g.textAlign = "right";
      g.textBaseline = "top";
      g.fillText("ceiling " + num(info.ceiling) + ", above the chart ↑", c.w - right - 2, 0);
      g.textAlign = "left";
    }

    if (!ws.length) {
      this.drawStopped(g, info, left, top, ph);
      return;
    }

    // Capacity: the area the target can take.
    g.beginPath();
    g.moveTo(x(ws[0].index), y(0));
    for (const w of ws) {
      g.lineTo(x(w.index), y(w.capacity));
      g.lineTo(x(w.index + 1), y(w.capacity));
    }
    g.lineTo(x(ws[ws.length - 1].index + 1), y(0));
    g.closePath();
    g.fillStyle = C.capFill;
    g.fill();
    stepPath(g, ws, x, y, (w) => w.capacity);
    g.strokeStyle = C.cap;
    g.lineWidth = 1.5;
    g.stroke();

    // last_bad during each window, and 75% of it.
    g.lineWidth = 2;
    g.strokeStyle = C.bad;
    for (const w of ws) {
      const m = w.memory;
      if (!(m > 0)) continue;
      g.setLineDash([2, 3]);
      g.beginPath();
      g.moveTo(x(w.index), y(m));
      g.lineTo(x(w.index + 1), y(m));
      g.stroke();
      g.setLineDash([6, 4]);
      g.globalAlpha = 0.45;
      g.lineWidth = 1;
      g.beginPath();
      g.moveTo(x(w.index), y(0.75 * m));
      g.lineTo(x(w.index + 1), y(0.75 * m));
      g.stroke();
      g.globalAlpha = 1;
      g.lineWidth = 2;
    }
    g.setLineDash([]);

    // The offer, a step per window.
    stepPath(g, ws, x, y, (w) => w.offer);
    g.strokeStyle = C.offer;
    g.lineWidth = 2.5;
    g.stroke();
    g.lineWidth = 1;

    // Markers: a back-off, and a memory that cleared.
    for (const w of ws) {
      const cx = x(w.index + 0.5), cy = y(w.offer);
      if (w.action === BACK_OFF) {
        g.fillStyle = C.bad;
        g.beginPath();
        g.moveTo(cx - 5, cy - 11);
        g.lineTo(cx + 5, cy - 11);
        g.lineTo(cx, cy - 3);
        g.closePath();
        g.fill();
      } else if (w.memory > 0 && w.lastBad === 0) {
        g.fillStyle = C.cap;
        g.beginPath();
        g.arc(cx, cy - 8, 4, 0, 2 * Math.PI);
        g.fill();
      }
    }
    this.drawStopped(g, info, left, top, ph);
  }

  /**
   * drawStopped writes why the run stopped across the chart, if it did.
   * @param {CanvasRenderingContext2D} g
   * @param {lab.GovernorInfo} info
   * @param {number} left
   * @param {number} top
   * @param {number} ph
   */
  drawStopped(g, info, left, top, ph) {
    if (this.stopped) stoppedNote(g, this.colors.text, info.status, left + 10, top + ph / 2);
  }

  drawPlanes() {
    const c = sizeCanvas(this.ui.planes);
    if (!c) return;
    const g = c.g, C = this.colors;
    const left = 34, right = 8, top = 8, bottom = 6;
    const pw = c.w - left - right, ph = c.h - top - bottom;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    const v = this.visible(), ws = v.ws;
    const slot = pw / VISIBLE;
    /** @param {number} index */
    const x = (index) => left + (index - v.first) * slot;
    /** @param {number} f */
    const y = (f) => top + ph - f * ph;
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = C.text;
    g.strokeStyle = C.grid;
    g.textAlign = "right";
    g.textBaseline = "middle";
    g.beginPath();
    for (const f of [0, 0.5, 1]) {
      const py = Math.round(y(f)) + 0.5;
      g.moveTo(left, py);
      g.lineTo(c.w - right, py);
      g.fillText(100 * f + "%", left - 4, py);
    }
    g.stroke();
    g.textAlign = "left";
    if (!ws.length) return;
    g.fillStyle = C.fail;
    for (const w of ws) {
      const frac = w.attempts ? w.failures / w.attempts : 0;
      if (frac > 0) {
        const hgt = Math.max(1.5, frac * ph);
        g.fillRect(x(w.index) + 1, y(0) - hgt, Math.max(1, slot - 2), hgt);
      }
    }
    stepPath(g, ws, x, y, okFrac);
    g.strokeStyle = C.ok;
    g.lineWidth = 2;
    g.stroke();
    g.lineWidth = 1;
  }

  // ---- the frame loop ----------------------------------------------------------------

  /**
   * tick runs the windows due in dt real milliseconds (Viz calls it once a
   * frame) and draws if anything changed: at 4 windows a second, one frame
   * in 15 runs a window.
   * @param {number} dt
   */
  async tick(dt) {
    if (!this.paused && !this.stopped) {
      this.due += (dt / 1000) * this.speed;
      const n = Math.floor(this.due);
      if (n > 0) {
        this.due -= n;
        await this.advance(n);
      }
    }
    if (this.changed) this.draw();
  }

  /** idle reports whether the run is paused or stopped: nothing moves until a control is used. */
  idle() {
    return this.paused || this.stopped;
  }

  simNs() {
    return this.lastWindow && this.info ? (this.lastWindow.index + 1) * this.info.windowNs : 0;
  }

  /** @param {lab.API} api */
  start(api) {
    const G = api.governor;
    if (!G || !api.newGovernorSim) {
      this.fail(new Error(staleHint("week 4")));
      return;
    }
    this.api = api;
    // The targets are lab.wasm's; a preset it does not know starts on its first.
    const targets = G.targets;
    if (!targets.some((t) => t.id === this.cfg.target)) this.cfg.target = targets.length ? targets[0].id : "";
    setOptions(this.ui.preset, targets.map((t) => /** @type {[string, string]} */ ([t.id, t.title])), this.cfg.target);
    this.batchRoom(G.maxBytes);
    this.begin();
  }
}

// ---- mounting ----------------------------------------------------------------------

/** governor mounts the governor visualization: its mount(root) and mountAll(). */
export const governor = register("governor", GovernorViz);
export { GovernorViz };
