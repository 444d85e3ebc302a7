// @ts-check
// ratelab: the Gradient2 visualization (week 4).
//
// Mounts into every <div data-viz="gradient2"> on the page. Through
// common.js, the lab's WebAssembly build (see wasm/doc.go) is loaded once
// per page, shared with the other visualizations. This file asks Go for the
// bins of virtual time due on each animation frame: one call, one
// Float64Array back (lab/gradient2's EncodeStep). Go runs the server, the
// arrivals and the limit; this file only shows them.
//
// Attributes of the mount element, all optional:
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js, loaded only if `Go` is not defined
//                   (default /static/wasm_exec.js)
//   data-seed       seed of the arrivals and service times (default 1)
//
// A native ES module, no build step, no network beyond the two files.

import { describe, h, helpers, niceStep, register, select, sizeCanvas, staleHint, stoppedNote, Viz, writeHint } from "./common.js";

const { field, figure, key } = helpers("rg2");

const VISIBLE_NS = 30e9; // the charts show the last 30 s
const MAX_DT_MS = 100; // a frame never advances more than this much real time
const MAX_STEPS_SHOWN = 8; // rows of the per-step table
const SPEEDS = ["0.5", "1", "2", "5", "10", "20"]; // virtual seconds per second

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  limit: "--rg2-limit",
  inflight: "--rg2-inflight",
  short: "--rg2-short",
  long: "--rg2-long",
  grid: "--rg2-grid",
  band: "--rg2-band",
};

/** @param {number} ns */
function ms(ns) {
  if (!(ns > 0)) return "–";
  const m = ns / 1e6;
  return (m < 10 ? m.toFixed(1) : Math.round(m)) + " ms";
}

/** @param {number} load */
function loadText(load) {
  return +load.toFixed(2) + "×";
}

/**
 * @typedef {object} Bin one bin of virtual time
 * @property {number} start
 * @property {number} load
 * @property {number} limit
 * @property {number} short
 * @property {number} long
 * @property {number} inflight
 * @property {number} arrived
 * @property {number} rejected
 * @property {number} samples
 * @property {number} appLimited
 */

/** @typedef {{start: number, end: number, load: number}} Step a load step, in the period of the schedule */

/**
 * @typedef {object} StepRow the summary of one occurrence of a load step
 * @property {number} n the occurrence number
 * @property {number} load
 * @property {number} min
 * @property {number} max
 * @property {number} rttSum
 * @property {number} samples
 * @property {number} arrived
 * @property {number} rejected
 * @property {number} app
 * @property {boolean} dirty
 * @property {HTMLTableRowElement} el
 */

/** @typedef {{start: number, end: number, x: (t: number) => number}} Axis */

/** @extends {Viz<lab.Gradient2Sim>} */
class Gradient2Viz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    this.code = "exercises/gradient2: Limit.Update, Limit";
    /** @type {lab.Gradient2Config} */
    this.cfg = { impl: "reference", seed: Number(root.getAttribute("data-seed") || 1) };
    this.speed = 2;
    this.paused = false;
    /** @type {lab.Gradient2Info | null} */
    this.info = null;
    this.stopped = false;
    /** @type {Bin[]} */
    this.bins = [];
    this.now = 0;
    this.wanted = 0;
    /** @type {StepRow[]} */
    this.stepRows = [];
    this.state = { limit: 0, short: 0, long: 0, inflight: 0 };
    /** @type {Step[]} */
    this.schedule = [];
    this.period = 0;
    this.ui = this.build();
  }

  build() {
    const ui = {
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference"),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + "×"])), String(this.speed)),
      pause: h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      clock: h("span", { class: "rg2-clock", "data-testid": "clock", text: "t = 0.0 s" }),
      load: h("strong", { "data-testid": "load", text: "–" }),
      limit: figure("limit", "Limit", "requests allowed in flight"),
      inflight: figure("inflight", "In flight", "now"),
      short: figure("rtt-short", "Short RTT", "the latest sample"),
      long: figure("rtt-long", "Long RTT", "slow average, the baseline"),
      gradient: figure("gradient", "Gradient", "tolerance × long / short, in [0.5, 1]"),
      limitChart: h("canvas", { class: "rg2-chart", role: "img", "aria-label": "The limit and the requests in flight over time, with the load steps" }),
      rttChart: h("canvas", { class: "rg2-rtt", role: "img", "aria-label": "Short and long RTT over time" }),
      steps: h("tbody", {}),
    };
    const controls = h("form", { class: "viz-controls", "aria-label": "Gradient2 settings" }, [
      field("Code", ui.impl), field("Speed", ui.speed), h("div", { class: "viz-buttons" }, [ui.pause, ui.restart]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());

    const statusLine = h("div", { class: "viz-statusline" }, [
      this.status, ui.clock, h("span", {}, ["load ", ui.load, h("span", { class: "viz-muted", text: " of what the server can do" })]), this.readyDot,
    ]);
    const figs = h("div", { class: "rg2-figs" }, [ui.limit.box, ui.inflight.box, ui.short.box, ui.long.box, ui.gradient.box]);
    const legend = h("p", { class: "viz-legend" }, [
      key("limit", "limit"), key("inflight", "in flight"), key("short", "short RTT (mean per 50 ms)"),
      key("long", "long RTT (dashed: × tolerance)"), key("band", "load over capacity"),
    ]);
    const table = h("div", { class: "rg2-table scroll-cue", role: "region", "aria-label": "Load steps", tabindex: "0" }, [h("table", { "data-testid": "steps" }, [
      h("caption", { text: "Per load step, oldest first: what the limit did and what it cost." }),
      h("thead", {}, [h("tr", {}, ["Step", "Load", "Limit", "Mean RTT", "Rejected", "App-limited"].map((t) => h("th", { scope: "col", text: t })))]),
      ui.steps,
    ])]);

    this.el = h("div", { class: "viz-frame rg2" }, [controls, statusLine, figs, this.error, ui.limitChart, ui.rttChart, legend, table]);
    this.root.appendChild(this.el);

    ui.impl.addEventListener("change", () => { this.cfg.impl = ui.impl.value; this.restart(); });
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 2; });
    ui.pause.addEventListener("click", () => this.setPaused(!this.paused));
    ui.restart.addEventListener("click", () => this.restart());
    return ui;
  }

  /** makeRun makes a new run from the settings and clears the charts. */
  async makeRun() {
    const api = this.api, make = api && api.newGradient2Sim;
    if (!make) return;
    const s = await this.newRun(() => make(this.cfg), "Cannot run: ");
    if (!s) return;
    const fresh = await s.info(); // first: a run of Yours answers later, and the page changes after
    this.bins = [];
    this.now = 0;
    this.wanted = 0;
    this.stepRows = [];
    this.ui.steps.textContent = "";
    this.state = { limit: 0, short: 0, long: 0, inflight: 0 };
    const info = this.updateInfo(fresh);
    this.state.limit = info.limit.initial;
    this.draw();
  }

  /** @param {lab.Gradient2Info} info */
  updateInfo(info) {
    this.info = info;
    this.stopped = info.stopped;
    this.changed = true;
    let status = info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = info.impl + ": not implemented yet. " + writeHint("gradient2");
    }
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", info.stopped);
    let period = 0;
    this.schedule = info.steps.map((s) => { const r = { start: period, end: period + s.durationNs, load: s.load }; period += s.durationNs; return r; });
    this.period = period;
    return info;
  }

  /**
   * stepAt returns the occurrence number of the load step holding time t
   * and that step.
   * @param {number} t
   * @returns {{n: number, step: Step}}
   */
  stepAt(t) {
    const cycle = Math.floor(t / this.period), in_ = t - cycle * this.period;
    for (let i = 0; i < this.schedule.length; i++) {
      if (in_ < this.schedule[i].end) return { n: cycle * this.schedule.length + i, step: this.schedule[i] };
    }
    return { n: 0, step: this.schedule[0] };
  }

  /** @param {number} untilNs */
  async advance(untilNs) {
    const G = this.api && this.api.gradient2, sim = this.sim;
    if (!G || !sim) return;
    const L = G.layout;
    const n = await sim.step(untilNs, G.maxBins, this.bytes);
    if (n > 0) this.changed = true; // Go runs whole bins: none, nothing moved
    const f = this.floats;
    this.now = f[L.now];
    this.state = { limit: f[L.limit], short: f[L.short], long: f[L.long], inflight: f[L.inflight] };
    for (let i = 0; i < n; i++) {
      const o = L.header + i * L.fields;
      /** @type {Bin} */
      const b = {
        start: f[o + L.start], load: f[o + L.load], limit: f[o + L.binLimit], short: f[o + L.binShort],
        long: f[o + L.binLong], inflight: f[o + L.binInflight], arrived: f[o + L.arrived],
        rejected: f[o + L.rejected], samples: f[o + L.samples], appLimited: f[o + L.appLimited],
      };
      this.bins.push(b);
      this.account(b);
    }
    const keep = Math.ceil(VISIBLE_NS / G.binNs) + 2;
    if (this.bins.length > keep * 2) this.bins.splice(0, this.bins.length - keep);
    if (f[L.stopped] && !this.stopped) this.updateInfo(await sim.info());
  }

  /**
   * account adds a bin to the summary of its load step.
   * @param {Bin} b
   */
  account(b) {
    const at = this.stepAt(b.start);
    let row = this.stepRows[this.stepRows.length - 1];
    if (!row || row.n !== at.n) {
      row = {
        n: at.n, load: at.step.load, min: b.limit, max: b.limit, rttSum: 0, samples: 0, arrived: 0, rejected: 0, app: 0,
        dirty: false, el: this.addRow(at.n, at.step.load),
      };
      this.stepRows.push(row);
      if (this.stepRows.length > 64) this.stepRows.shift();
    }
    row.min = Math.min(row.min, b.limit);
    row.max = Math.max(row.max, b.limit);
    row.rttSum += b.short * b.samples;
    row.samples += b.samples;
    row.arrived += b.arrived;
    row.rejected += b.rejected;
    row.app += b.appLimited;
    row.dirty = true;
  }

  /**
   * addRow adds the table row of occurrence n of a load step.
   * @param {number} n
   * @param {number} load
   */
  addRow(n, load) {
    const tr = h("tr", { "data-testid": "step-row", "data-step": String(n), "data-load": String(load) });
    const steps = this.ui.steps;
    steps.appendChild(tr);
    while (steps.children.length > MAX_STEPS_SHOWN && steps.firstChild) steps.removeChild(steps.firstChild);
    return tr;
  }

  updateRows() {
    for (let i = Math.max(0, this.stepRows.length - MAX_STEPS_SHOWN); i < this.stepRows.length; i++) {
      const r = this.stepRows[i];
      if (!r.dirty) continue;
      r.dirty = false;
      r.el.setAttribute("data-limit-min", String(r.min));
      r.el.setAttribute("data-limit-max", String(r.max));
      r.el.setAttribute("data-rejected", String(r.arrived ? r.rejected / r.arrived : 0));
      r.el.setAttribute("data-rtt", String(r.samples ? r.rttSum / r.samples : 0));
      r.el.textContent = "";
      const cells = [
        String(r.n + 1), loadText(r.load), r.min === r.max ? String(r.min) : r.min + "–" + r.max,
        ms(r.samples ? r.rttSum / r.samples : 0),
        r.arrived ? (100 * r.rejected / r.arrived).toFixed(1) + "%" : "–",
        r.samples ? (100 * r.app / r.samples).toFixed(0) + "%" : "–",
      ];
      cells.forEach((text, k) => r.el.appendChild(k === 0 ? h("th", { scope: "row", text }) : h("td", { text })));
    }
  }

  draw() {
    const info = this.info;
    if (!info) return;
    this.changed = false;
    const ui = this.ui, s = this.state, L = info.limit;
    ui.clock.textContent = "t = " + (this.now / 1e9).toFixed(1) + " s";
    ui.load.textContent = loadText(this.stepAt(this.now).step.load);
    ui.limit.value.textContent = String(s.limit);
    ui.inflight.value.textContent = String(s.inflight);
    ui.short.value.textContent = ms(s.short);
    ui.long.value.textContent = ms(s.long);
    const grad = s.short > 0 && s.long > 0 ? Math.max(0.5, Math.min(1, L.tolerance * s.long / s.short)) : 1;
    ui.gradient.value.textContent = grad.toFixed(2);
    ui.gradient.box.classList.toggle("rg2-hot", grad < 1);
    this.showDot(this.stopped ? "stopped" : this.paused ? "paused" : "live");
    this.updateRows();
    this.drawLimit(info);
    this.drawRTT(info);
    describe(ui.limitChart, () => ui.clock.textContent + ": limit " + ui.limit.value.textContent + ", in flight " + ui.inflight.value.textContent +
      ", load " + ui.load.textContent + " of what the server can do");
    describe(ui.rttChart, () => ui.clock.textContent + ": short RTT " + ui.short.value.textContent + ", long RTT " + ui.long.value.textContent +
      ", gradient " + ui.gradient.value.textContent);
  }

  /**
   * axis returns the time axis of the charts: the last VISIBLE_NS.
   * @param {{w: number}} c
   * @param {number} left
   * @param {number} right
   * @returns {Axis}
   */
  axis(c, left, right) {
    const end = Math.max(this.now, VISIBLE_NS), start = end - VISIBLE_NS;
    const pw = c.w - left - right;
    return { start, end, x: (t) => left + ((t - start) / VISIBLE_NS) * pw };
  }

  /**
   * drawBands shades the load steps over capacity and labels each step.
   * @param {CanvasRenderingContext2D} g
   * @param {Axis} ax
   * @param {number} top
   * @param {number} bottom
   */
  drawBands(g, ax, top, bottom) {
    const C = this.colors;
    g.font = "11px system-ui, sans-serif";
    g.textBaseline = "top";
    let t = ax.start;
    while (t < ax.end) {
      const at = this.stepAt(t);
      const stepStart = Math.floor(t / this.period) * this.period + at.step.start;
      const stepEnd = stepStart + (at.step.end - at.step.start);
      const x0 = ax.x(Math.max(stepStart, ax.start)), x1 = ax.x(Math.min(stepEnd, ax.end));
      if (at.step.load > 1) {
        g.fillStyle = C.band;
        g.globalAlpha = Math.min(1, at.step.load / 1.3);
        g.fillRect(x0, top, x1 - x0, bottom - top);
        g.globalAlpha = 1;
      }
      g.strokeStyle = C.grid;
      g.beginPath();
      g.moveTo(Math.round(ax.x(stepStart)) + 0.5, top);
      g.lineTo(Math.round(ax.x(stepStart)) + 0.5, bottom);
      g.stroke();
      const label = "load " + loadText(at.step.load);
      if (x1 - x0 > g.measureText(label).width + 8) {
        g.fillStyle = C.text;
        g.fillText(label, x0 + 4, top + 2);
      }
      t = stepEnd;
    }
  }

  /**
   * yAxis draws the horizontal grid and its labels, written by fmt.
   * @param {CanvasRenderingContext2D} g
   * @param {{w: number}} c
   * @param {number} left
   * @param {number} right
   * @param {number} top
   * @param {number} bottom
   * @param {number} ymax
   * @param {(v: number) => string} fmt
   */
  yAxis(g, c, left, right, top, bottom, ymax, fmt) {
    const C = this.colors;
    g.strokeStyle = C.grid;
    g.fillStyle = C.text;
    g.font = "11px system-ui, sans-serif";
    g.textAlign = "right";
    g.textBaseline = "middle";
    const step = niceStep(ymax / 4);
    g.beginPath();
    for (let v = 0; v <= ymax + 1e-9; v += step) {
      const y = Math.round(bottom - (v / ymax) * (bottom - top)) + 0.5;
      g.moveTo(left, y);
      g.lineTo(c.w - right, y);
      g.fillText(fmt(v), left - 4, y);
    }
    g.stroke();
    g.textAlign = "left";
  }

  /** @param {lab.Gradient2Info} info */
  drawLimit(info) {
    const c = sizeCanvas(this.ui.limitChart);
    if (!c) return;
    const g = c.g, C = this.colors, left = 36, right = 8, top = 8, bottom = c.h - 16;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    const ax = this.axis(c, left, right);
    this.drawBands(g, ax, top, bottom);
    const ymax = info.limit.max * 1.1;
    this.yAxis(g, c, left, right, top, bottom, ymax, String);
    /** @param {number} v */
    const y = (v) => bottom - (Math.min(v, ymax) / ymax) * (bottom - top);
    // Seconds along the bottom.
    g.fillStyle = C.text;
    g.textBaseline = "top";
    g.textAlign = "center";
    for (let s = Math.ceil(ax.start / 5e9) * 5; s * 1e9 <= ax.end; s += 5) {
      const tx = ax.x(s * 1e9), tl = s + " s", half = g.measureText(tl).width / 2;
      if (tx - half >= left && tx + half <= c.w) g.fillText(tl, tx, bottom + 3);
    }
    g.textAlign = "left";
    const bins = this.bins, binNs = info.binNs;
    let first = 0;
    while (first < bins.length && bins[first].start + binNs < ax.start) first++;
    if (first >= bins.length) { this.drawStopped(g, info, left, top, bottom); return; }
    g.beginPath();
    g.moveTo(ax.x(bins[first].start), y(0));
    for (let i = first; i < bins.length; i++) g.lineTo(ax.x(bins[i].start + binNs), y(bins[i].inflight));
    g.lineTo(ax.x(bins[bins.length - 1].start + binNs), y(0));
    g.closePath();
    g.fillStyle = C.inflight;
    g.fill();
    g.beginPath();
    for (let i = first; i < bins.length; i++) {
      const yy = y(bins[i].limit);
      if (i === first) g.moveTo(ax.x(bins[i].start), yy);
      g.lineTo(ax.x(bins[i].start + binNs), yy);
    }
    g.strokeStyle = C.limit;
    g.lineWidth = 2.5;
    g.stroke();
    g.lineWidth = 1;
    this.drawStopped(g, info, left, top, bottom);
  }

  /**
   * drawStopped writes why the run stopped across the chart, if it did.
   * @param {CanvasRenderingContext2D} g
   * @param {lab.Gradient2Info} info
   * @param {number} left
   * @param {number} top
   * @param {number} bottom
   */
  drawStopped(g, info, left, top, bottom) {
    if (this.stopped) stoppedNote(g, this.colors.text, info.status, left + 10, (top + bottom) / 2);
  }

  /** @param {lab.Gradient2Info} info */
  drawRTT(info) {
    const c = sizeCanvas(this.ui.rttChart);
    if (!c) return;
    const g = c.g, C = this.colors, left = 36, right = 8, top = 6, bottom = c.h - 6;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    const ax = this.axis(c, left, right);
    const bins = this.bins, binNs = info.binNs, tol = info.limit.tolerance;
    let first = 0;
    while (first < bins.length && bins[first].start + binNs < ax.start) first++;
    let ymax = 2 * info.serviceNs;
    for (let i = first; i < bins.length; i++) ymax = Math.max(ymax, bins[i].short, bins[i].long * tol);
    ymax *= 1.1;
    this.yAxis(g, c, left, right, top, bottom, ymax, (v) => Math.round(v / 1e6) + "");
    g.fillStyle = C.text;
    g.textBaseline = "top";
    g.fillText("RTT, ms", left + 4, top + 2);
    /** @param {number} v */
    const y = (v) => bottom - (Math.min(v, ymax) / ymax) * (bottom - top);
    if (first >= bins.length) return;
    // Short RTT: the mean of each bin's samples.
    g.beginPath();
    let on = false;
    for (let i = first; i < bins.length; i++) {
      if (!bins[i].samples) { on = false; continue; }
      const xx = ax.x(bins[i].start + binNs / 2), yy = y(bins[i].short);
      if (!on) g.moveTo(xx, yy); else g.lineTo(xx, yy);
      on = true;
    }
    g.strokeStyle = C.short;
    g.lineWidth = 1.2;
    g.stroke();
    // Long RTT, and the tolerance above it: a short RTT over the dashed line
    // pulls the limit down.
    g.beginPath();
    for (let i = first; i < bins.length; i++) {
      if (i === first) g.moveTo(ax.x(bins[i].start + binNs), y(bins[i].long));
      g.lineTo(ax.x(bins[i].start + binNs), y(bins[i].long));
    }
    g.strokeStyle = C.long;
    g.lineWidth = 2;
    g.stroke();
    g.beginPath();
    for (let i = first; i < bins.length; i++) {
      if (i === first) g.moveTo(ax.x(bins[i].start + binNs), y(tol * bins[i].long));
      g.lineTo(ax.x(bins[i].start + binNs), y(tol * bins[i].long));
    }
    g.setLineDash([4, 4]);
    g.lineWidth = 1;
    g.stroke();
    g.setLineDash([]);
  }

  /**
   * tick runs the virtual time due in dt real milliseconds (Viz calls it
   * once a frame) and draws if anything changed: a bin is 50 ms of virtual
   * time, more than a frame's at the slower speeds.
   * @param {number} dt
   */
  async tick(dt) {
    // Go runs whole bins only, so the time asked for is kept here: adding
    // each frame's share to Go's bin-aligned clock would stall whenever a
    // frame is shorter than a bin.
    if (!this.paused && !this.stopped) {
      this.wanted += dt * this.speed * 1e6;
      await this.advance(this.wanted);
    }
    if (this.changed) this.draw();
  }

  /** idle reports whether the run is paused or stopped: nothing moves until a control is used. */
  idle() {
    return this.paused || this.stopped;
  }

  simNs() {
    return this.now;
  }

  /** @param {lab.API} api */
  start(api) {
    if (!api.gradient2 || !api.newGradient2Sim) {
      this.fail(new Error(staleHint("week 4")));
      return;
    }
    this.api = api;
    this.batchRoom(api.gradient2.maxBytes);
    this.begin();
  }
}

/** gradient2 mounts the Gradient2 visualization: its mount(root) and mountAll(). */
export const gradient2 = register("gradient2", Gradient2Viz);
export { Gradient2Viz };
