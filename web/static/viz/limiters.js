// @ts-check
// ratelab: the limiters visualization.
//
// Mounts into every <div data-viz="limiters"> on the page. Through
// common.js, the lab's WebAssembly build (/static/lab.wasm, or the mount's
// data-wasm) is loaded once per page, shared with the other visualizations;
// it defines the global `ratelab` (see wasm/doc.go), whose lanes and traffic
// scenarios this file shows. Once per animation frame this file asks Go to
// decide a batch of messages (one call, typed arrays back) and draws: Go
// decides and measures, this file only shows. A run of Yours answers from
// a Web Worker (see common.js): every run call is awaited.
//
// Attributes of the mount element, all optional:
//   data-preset     "edge-attack", "naive-refill" or absent
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js, loaded only if `Go` is not defined
//                   (default /static/wasm_exec.js)
//   data-seed       seed of the random scenarios (default 1)
//
// A native ES module, no build step, no network beyond the two files.

import { describe, grouped as count, h, helpers, register, select, setOptions, sizeCanvas, stoppedNote, Viz } from "./common.js";

const { field } = helpers("rlv");

const MAX_PER_FRAME = 20000; // messages decided per frame at most
const BINS_PER_WINDOW = 300; // timeline resolution: bins per window W
const VISIBLE_WINDOWS = 2; // the timeline shows the last 2W
const RING = 1024; // bins kept (3W of history, a power of two)
const MAX_DT_MS = 100; // a frame never advances more than this much real time

/**
 * @typedef {object} LaneView what the page says of a lane
 * @property {boolean} lab its limiter is the lab's own, whatever the Code switch says
 * @property {boolean} naiveLab under naive refill, its limiter is the lab's (limiters.NaiveBucket)
 * @property {boolean} bucket it promises b + r·W in any W (a bucket), not N (a window)
 * @property {"window" | "buckets" | "tokens" | "log" | "tat" | ""} state what its state line shows
 */

/**
 * LANE_VIEWS is what the page says of each lane lab.wasm runs
 * (ratelab.lanes), by the lane's id.
 * @type {Record<string, LaneView>}
 */
const LANE_VIEWS = {
  fixed: { lab: true, naiveLab: false, bucket: false, state: "window" },
  sliding: { lab: false, naiveLab: false, bucket: false, state: "buckets" },
  tokenbucket: { lab: false, naiveLab: true, bucket: true, state: "tokens" },
  slidinglog: { lab: true, naiveLab: false, bucket: false, state: "log" },
  gcra: { lab: false, naiveLab: false, bucket: true, state: "tat" },
};

/** OTHER_LANE is the view of a lane LANE_VIEWS does not know. @type {LaneView} */
const OTHER_LANE = { lab: false, naiveLab: false, bucket: false, state: "" };

/**
 * TRAFFIC_TITLES names, for people, the traffic scenarios lab.wasm offers
 * (ratelab.traffics, which decides which there are and their order); a
 * scenario missing here shows its name.
 * @type {Record<string, string>}
 */
const TRAFFIC_TITLES = {
  steady: "Steady",
  bursty: "Bursty",
  random: "Random (Poisson)",
  edge: "Edge attack",
  "naive-demo": "Naive demo (every 100 µs)",
};

const SPEEDS = ["0.1", "0.25", "0.5", "1", "2", "5", "10", "30"];

/**
 * @typedef {object} Preset the settings a mount starts with
 * @property {string} traffic
 * @property {number} limit
 * @property {number} windowMs
 * @property {number} buckets
 * @property {number} burst
 * @property {string} refill
 * @property {string[]} show the ids of the lanes shown
 */

/** PRESETS are the mounts' starting settings, by data-preset. @type {Record<string, Preset>} */
const PRESETS = {
  "edge-attack": {
    traffic: "edge", limit: 100, windowMs: 1000, buckets: 10, burst: 0,
    refill: "exact", show: ["fixed", "sliding", "tokenbucket"],
  },
  "naive-refill": {
    traffic: "naive-demo", limit: 1000, windowMs: 1000, buckets: 10, burst: 10,
    refill: "naive", show: ["tokenbucket", "gcra"],
  },
  "": {
    traffic: "bursty", limit: 100, windowMs: 1000, buckets: 10, burst: 0,
    refill: "exact", show: ["fixed", "sliding", "tokenbucket"],
  },
};

// The naive demo's numbers: 1,000 tokens/s, a burst of 10, and the lanes
// it is about.
const NAIVE_DEMO = { limit: 1000, windowMs: 1000, burst: 10, refill: "naive", show: ["tokenbucket", "gcra"] };

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  acc: "--rlv-acc",
  ref: "--rlv-ref",
  cnt: "--rlv-cnt",
  cntFill: "--rlv-cnt-fill",
  over: "--rlv-over",
  grid: "--rlv-grid",
  faint: "--rlv-faint",
};

// ---- small DOM helpers -------------------------------------------------

/**
 * @param {string} testid
 * @param {number | string} value
 * @param {number} min
 * @param {number} max
 * @param {number | string} [step]
 */
function numberInput(testid, value, min, max, step) {
  return h("input", {
    type: "number", "data-testid": testid, value: String(value),
    min: String(min), max: String(max), step: String(step || 1), inputmode: "decimal",
  });
}

/** @param {number} ns */
function formatSeconds(ns) {
  const s = ns / 1e9;
  if (s < 10) return s.toFixed(3) + " s";
  if (s < 100) return s.toFixed(2) + " s";
  return s.toFixed(1) + " s";
}

/** @param {number} ns */
function formatWindow(ns) {
  if (ns >= 1e9 && ns % 1e8 === 0) return ns / 1e9 + " s";
  if (ns >= 1e6) return +(ns / 1e6).toFixed(3) + " ms";
  return +(ns / 1e3).toFixed(3) + " µs";
}

/**
 * formatCredit writes whole tokens plus billionths exactly: "999.9".
 * @param {number} whole
 * @param {number} units
 */
function formatCredit(whole, units) {
  if (!units) return String(whole);
  const frac = String(units + 1e9).slice(1).replace(/0+$/, "");
  return whole + "." + frac;
}

// ---- one visualization -------------------------------------------------

/**
 * @typedef {object} LaneUI the elements of one lane
 * @property {HTMLInputElement} show its Show checkbox
 * @property {HTMLSpanElement} accepted
 * @property {HTMLSpanElement} refused
 * @property {HTMLSpanElement} max
 * @property {HTMLSpanElement} flag
 * @property {HTMLSpanElement} vs
 * @property {HTMLSpanElement} note
 * @property {HTMLParagraphElement} status
 * @property {HTMLSpanElement} stateText
 * @property {HTMLDivElement} meter
 * @property {HTMLDivElement} meterFill
 * @property {HTMLDivElement} bucketBars
 * @property {HTMLCanvasElement} canvas
 * @property {HTMLElement} el
 */

/**
 * @typedef {object} Lane one lane of the simulation, as shown
 * @property {string} id sim.Lane's id
 * @property {string} name
 * @property {number} bit its bit in the batch's accept masks, and its place in the state
 * @property {LaneView} view
 * @property {Uint32Array} acc accepted per bin, a ring of RING bins
 * @property {Uint32Array} ref refused per bin
 * @property {LaneUI} ui
 */

/** @extends {Viz<lab.Sim>} */
class LimitersViz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    const preset = PRESETS[root.getAttribute("data-preset") || ""] || PRESETS[""];
    /** @type {lab.SimConfig} */
    this.cfg = {
      traffic: preset.traffic, limit: preset.limit, windowMs: preset.windowMs,
      buckets: preset.buckets, burst: preset.burst, refill: preset.refill,
      impl: "reference", seed: Number(root.getAttribute("data-seed") || 1),
    };
    /** @type {Record<string, boolean>} whether each lane is shown, by id */
    this.show = {};
    for (const id of preset.show) this.show[id] = true;
    /** @type {Lane[]} the lanes in bit order, once lab.wasm says which there are */
    this.lanes = [];
    /** @type {Map<string, Lane>} the lanes by id */
    this.laneByID = new Map();
    this.speed = 1;
    this.paused = false;
    /** @type {lab.SimInfo | null} */
    this.info = null;
    this.stopped = -1; // bit mask of the lanes the run stopped; -1 before the first state
    /**
     * After a run of Yours hung, the lanes that ran the learner's code, by
     * id, with their figures and status as they stopped: the visualization
     * goes on with the lab's own lanes on a run of the reference, and shows
     * these stopped (see hung). Empty otherwise.
     * @type {Map<string, {accepted: number, refused: number, max: number, why: string}>}
     */
    this.frozen = new Map();
    this.slowed = false;
    this.now = 0;
    this.windowNs = 0;
    this.binNs = 1;
    this.lastBin = -1;
    this.batch = new Uint8Array(new ArrayBuffer(9 * MAX_PER_FRAME));
    this.times = new Float64Array(this.batch.buffer, 0, MAX_PER_FRAME);
    this.stateBytes = new Uint8Array(0);
    this.state = new Float64Array(0);
    /** @type {HTMLSpanElement[]} the fills of the sliding window's bucket bars */
    this.bars = [];
    /** @type {Float32Array | null} reused by every lane and frame */
    this.pts = null;
    this.ui = this.build();
    this.readColors();
  }

  build() {
    const c = this.cfg;
    const ui = {
      traffic: select("traffic", [], c.traffic), // its options come with lab.wasm
      limit: numberInput("limit", c.limit, 1, 100000),
      window: numberInput("window", c.windowMs, 0.001, 60000, "any"),
      buckets: numberInput("buckets", c.buckets, 1, 10000),
      burst: numberInput("burst", c.burst || "", 0, 1000000),
      refill: select("refill", [["exact", "Exact"], ["naive", "Naive"]], c.refill),
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], c.impl),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + "×"])), "1"),
      pause: h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" }),
      step: h("button", { type: "button", "data-testid": "step", text: "Step", title: "Decide the next message" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      showBox: h("fieldset", { class: "rlv-show" }, [h("legend", { text: "Show" })]), // the lanes' checkboxes come with lab.wasm
      clock: h("span", { class: "rlv-clock", "data-testid": "clock", text: "t = 0.000 s" }),
      messages: h("span", { class: "viz-muted", "data-testid": "messages", text: "0" }),
      last: h("span", { class: "rlv-last", "data-testid": "last-message" }),
      keyText: h("p", { class: "rlv-key-text" }),
      keyFig: h("p", { class: "rlv-key-fig", "data-testid": "key-figure" }),
      lost: h("span", { class: "rlv-lost-value", "data-testid": "lost-credit", text: "0" }),
      lostNote: h("span", { class: "viz-muted" }),
      lostLine: h("p", { class: "rlv-lost" }),
      note: h("p", { class: "rlv-note" }),
      lanesBox: h("div", { class: "rlv-lanes" }), // the lanes come with lab.wasm
    };
    ui.burst.placeholder = "= N";
    ui.lostLine.append("Credit lost to rounding: ", ui.lost, " tokens ", ui.lostNote);

    const controls = h("form", { class: "viz-controls", "aria-label": "Simulation settings" }, [
      h("div", { class: "rlv-row" }, [
        field("Traffic", ui.traffic),
        field("N per window", ui.limit),
        field("W (ms)", ui.window),
        field("K buckets", ui.buckets),
        field("b burst", ui.burst),
        field("Refill", ui.refill),
        field("Code", ui.impl),
      ]),
      h("div", { class: "rlv-row" }, [
        field("Speed", ui.speed),
        h("div", { class: "viz-buttons" }, [ui.pause, ui.step, ui.restart]),
        ui.showBox,
      ]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());

    const statusLine = h("div", { class: "viz-statusline" }, [
      this.status, ui.clock, h("span", { class: "viz-muted" }, [ui.messages, " messages"]), ui.last, this.readyDot,
    ]);
    const key = h("div", { class: "rlv-key" }, [ui.keyText, ui.keyFig, ui.lostLine, ui.note, this.error]);
    const legend = h("p", { class: "viz-legend" }, [
      h("span", { class: "rlv-swatch rlv-sw-acc" }), " accepted ",
      h("span", { class: "rlv-swatch rlv-sw-ref" }), " refused ",
      h("span", { class: "rlv-swatch rlv-sw-cnt" }), " accepted in the trailing W (dashed: N) ",
      h("span", { class: "viz-muted", text: "· vertical lines: window boundaries" }),
    ]);

    this.el = h("div", { class: "viz-frame rlv" }, [controls, statusLine, key, legend, ui.lanesBox]);
    this.root.appendChild(this.el);

    // Yours runs the exercise the learner writes, whose bucket refills
    // exactly: under Naive refill the token bucket lane would be the
    // lab's, and Yours only the GCRA. The refill follows the Code switch.
    // Back on the reference, the refill is what it was.
    /** @type {string} the refill before Code = Yours set it, "" if it did not */
    let refillBefore = "";
    ui.impl.addEventListener("change", () => {
      if (ui.impl.value === "yours") {
        refillBefore = ui.refill.value;
        ui.refill.value = "exact";
      } else if (refillBefore) {
        ui.refill.value = refillBefore;
        refillBefore = "";
      }
    });
    ui.refill.addEventListener("change", () => { refillBefore = ""; }); // chosen by hand: it stays
    // Any setting restarts the run.
    for (const el of [ui.limit, ui.window, ui.buckets, ui.burst, ui.refill, ui.impl]) {
      el.addEventListener("change", () => { this.readControls(); this.restart(); });
    }
    ui.traffic.addEventListener("change", () => {
      if (ui.traffic.value === "naive-demo") {
        ui.limit.value = String(NAIVE_DEMO.limit);
        ui.window.value = String(NAIVE_DEMO.windowMs);
        ui.burst.value = String(NAIVE_DEMO.burst);
        ui.refill.value = NAIVE_DEMO.refill;
        for (const id of NAIVE_DEMO.show) {
          this.show[id] = true;
          const lane = this.laneByID.get(id);
          if (lane) lane.ui.show.checked = true;
        }
        this.layoutLanes();
      }
      this.readControls();
      this.restart();
    });
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 1; });
    ui.pause.addEventListener("click", () => this.setPaused(!this.paused));
    ui.step.addEventListener("click", () => {
      this.setPaused(true);
      this.serial(() => this.advance(1, 1e30));
    });
    ui.restart.addEventListener("click", () => this.restart());
    return ui;
  }

  /**
   * buildLanes makes the traffic options and a panel per lane, as lab.wasm
   * lists them.
   * @param {lab.API} api
   */
  buildLanes(api) {
    const ui = this.ui;
    setOptions(ui.traffic, api.traffics.map((t) => /** @type {[string, string]} */ ([t, TRAFFIC_TITLES[t] || t])), this.cfg.traffic);
    this.lanes = api.lanes.map((lane, bit) => {
      const L = this.buildLane(lane);
      ui.showBox.appendChild(h("label", { class: "rlv-check" }, [L.show, " " + lane.name]));
      ui.lanesBox.appendChild(L.el);
      return {
        id: lane.id, name: lane.name, bit, view: LANE_VIEWS[lane.id] || OTHER_LANE,
        acc: new Uint32Array(RING), ref: new Uint32Array(RING), ui: L,
      };
    });
    this.laneByID = new Map(this.lanes.map((l) => [l.id, l]));
    this.layoutLanes();
  }

  /**
   * buildLane makes one lane's panel, timeline and Show checkbox.
   * @param {lab.Lane} lane
   * @returns {LaneUI}
   */
  buildLane(lane) {
    const show = h("input", { type: "checkbox", "data-testid": "show-" + lane.id });
    show.checked = !!this.show[lane.id];
    show.addEventListener("change", () => {
      this.show[lane.id] = show.checked;
      this.layoutLanes();
      if (this.info) this.updateInfo(this.info); // the status names the shown lanes only
      this.invalidate();
    });
    const L = {
      show,
      accepted: h("span", { "data-testid": "accepted-" + lane.id, text: "0" }),
      refused: h("span", { "data-testid": "refused-" + lane.id, text: "0" }),
      max: h("span", { class: "rlv-max", "data-testid": "max-in-window-" + lane.id, text: "0" }),
      flag: h("span", { class: "rlv-flag" }),
      vs: h("span", { class: "viz-muted" }),
      note: h("span", { class: "rlv-lane-note" }),
      status: h("p", { class: "rlv-lane-status", "data-testid": "status-" + lane.id }),
      stateText: h("span", { class: "rlv-state-text", "data-testid": "state-" + lane.id }),
      meter: h("div", { class: "rlv-meter" }),
      meterFill: h("div", { class: "rlv-meter-fill" }),
      bucketBars: h("div", { class: "rlv-bucketbars", "aria-hidden": "true" }),
      canvas: h("canvas", { class: "rlv-canvas", role: "img", "aria-label": lane.name + " timeline" }),
      el: h("section"),
    };
    L.meter.appendChild(L.meterFill);
    const panel = h("div", { class: "rlv-panel" }, [
      h("div", { class: "rlv-lane-head" }, [h("strong", { text: lane.name }), L.note]),
      L.status,
      h("p", { class: "rlv-figs" }, [
        h("span", {}, ["accepted ", L.accepted]), " · ",
        h("span", {}, ["refused ", L.refused]),
      ]),
      h("p", { class: "rlv-figs" }, ["max in any W: ", L.max, L.flag, " ", L.vs]),
      h("div", { class: "rlv-state" }, [L.stateText, L.meter, L.bucketBars]),
    ]);
    L.el = h("section", { class: "rlv-lane", "data-lane": lane.id, "aria-label": lane.name }, [panel, h("div", { class: "rlv-canvas-box" }, [L.canvas])]);
    return L;
  }

  readControls() {
    const ui = this.ui;
    this.cfg.traffic = ui.traffic.value;
    this.cfg.limit = Number(ui.limit.value);
    this.cfg.windowMs = Number(ui.window.value);
    this.cfg.buckets = Number(ui.buckets.value);
    this.cfg.burst = ui.burst.value === "" ? 0 : Number(ui.burst.value);
    this.cfg.refill = ui.refill.value;
    this.cfg.impl = ui.impl.value;
  }

  layoutLanes() {
    for (const lane of this.lanes) lane.ui.el.hidden = !this.show[lane.id];
  }

  /**
   * stoppedMask is the bit mask of the lanes stopped: by the run (a panic,
   * a stub) or because Yours hung.
   */
  stoppedMask() {
    return (this.stopped < 0 ? 0 : this.stopped) | this.hungMask();
  }

  /** hungMask is the bit mask of the lanes frozen after a hang. */
  hungMask() {
    let m = 0;
    for (const lane of this.lanes) if (this.frozen.has(lane.id)) m |= 1 << lane.bit;
    return m;
  }

  /** @param {Lane} lane */
  isStopped(lane) {
    return ((this.stoppedMask() >> lane.bit) & 1) === 1;
  }

  /**
   * runsYours reports whether the lane runs the learner's code when Code is
   * Yours: not the lab's own limiters, nor the token bucket under naive
   * refill.
   * @param {Lane} lane
   * @param {string} refill
   */
  runsYours(lane, refill) {
    return !lane.view.lab && !(lane.view.naiveLab && refill === "naive");
  }

  /**
   * laneStatus says why a lane stopped, or "" if it runs.
   * @param {Lane} lane
   * @param {lab.SimInfo} info
   */
  laneStatus(lane, info) {
    const frozen = this.frozen.get(lane.id);
    if (frozen) return frozen.why;
    const li = info.lanes.find((l) => l.id === lane.id);
    return li && li.stopped ? li.status : "";
  }

  /**
   * implStatus sums up how the shown lanes that run the Code switch's
   * limiters go: the implementation's name while they run ("Yours"), the
   * name and one status when they all stopped for one reason ("Yours: not
   * implemented yet"), else the name and each stopped lane with its status.
   * A hidden lane is not named: the page does not show it.
   * @param {lab.SimInfo} info
   */
  implStatus(info) {
    const impl = this.frozen.size ? "Yours" : info.impl;
    const mine = this.lanes.filter((l) => this.show[l.id] && this.runsYours(l, info.refill));
    const stopped = mine.map((l) => ({ name: l.name, why: this.laneStatus(l, info) })).filter((st) => st.why);
    if (!stopped.length) return impl;
    if (stopped.length === mine.length && stopped.every((st) => st.why === stopped[0].why)) return impl + ": " + stopped[0].why;
    return impl + ": " + stopped.map((st) => st.name + ": " + st.why).join("; ");
  }

  yoursCode() {
    const refill = this.info ? this.info.refill : this.cfg.refill;
    /** @type {Record<string, string>} */
    const dirs = { sliding: "exercises/slidingwindow", tokenbucket: "exercises/tokenbucket", gcra: "exercises/gcra" };
    const mine = this.lanes.filter((l) => this.runsYours(l, refill)).map((l) => dirs[l.id] || l.name);
    return "TryAcquire in " + (mine.length > 1 ? mine.slice(0, -1).join(", ") + " or " + mine[mine.length - 1] : mine.join(""));
  }

  /**
   * hung goes on after a run of Yours did not return: the lanes of the
   * lab's own limiters run on, on a run of the reference brought to the
   * same message (the traffic is the same for a seed), and the lanes that
   * ran the learner's code show why they stopped, with their figures as
   * they were. A setting or Restart makes a new run of Yours.
   * @param {string} why
   */
  hung(why) {
    const api = this.api, info = this.info;
    if (!api || !info || !this.state.length) { this.stop(why); return; }
    const done = this.state[api.layout.messages];
    /** @type {Map<string, {accepted: number, refused: number, max: number, why: string}>} */
    const frozen = new Map();
    for (const lane of this.lanes) {
      if (!this.runsYours(lane, info.refill)) continue;
      // A lane the run had stopped before (a stub) keeps its own reason.
      const why = this.laneStatus(lane, info) || "did not return (an endless loop?)";
      frozen.set(lane.id, { accepted: this.laneField(lane, "accepted"), refused: this.laneField(lane, "refused"), max: this.laneField(lane, "max"), why });
    }
    this.serial(async () => {
      const sim = await this.newRun(() => api.newSim({ ...this.cfg, impl: "reference" }), "Cannot run these settings: ");
      if (!sim) return;
      for (let left = done; left > 0;) {
        const n = await sim.step(Math.min(MAX_PER_FRAME, left), 1e30, this.batch);
        if (n === 0) break;
        left -= n;
      }
      this.frozen = frozen;
      await this.readState();
      this.info = await sim.info();
      this.updateInfo(this.info);
      this.showError(why);
      this.invalidate();
    });
  }

  /** makeRun makes a new simulation from the settings and clears the timeline. */
  async makeRun() {
    const api = this.api;
    if (!api) return;
    const s = await this.newRun(() => api.newSim(this.cfg), "Cannot run these settings: ");
    if (!s) return;
    // The page changes only once the new run has answered (a run of Yours
    // answers later): never the new status beside the old figures.
    const info = await s.info();
    const K = info.buckets;
    const stateBytes = new Uint8Array(8 * (api.layout.header + this.lanes.length * api.layout.laneFields + K));
    await s.state(stateBytes);
    this.stopped = -1;
    this.frozen = new Map();
    this.now = 0;
    this.slowed = false;
    this.ui.last.textContent = "";
    this.info = info;
    this.windowNs = info.windowNs;
    this.binNs = info.windowNs / BINS_PER_WINDOW;
    this.lastBin = -1;
    for (const lane of this.lanes) { lane.acc.fill(0); lane.ref.fill(0); }
    this.stateBytes = stateBytes;
    this.state = new Float64Array(stateBytes.buffer);
    this.buildBucketBars(K);
    this.takeState(info);
    this.drawAll();
  }

  /**
   * buildBucketBars makes a bar per bucket in the panel of the lane that
   * shows its buckets (the sliding window's), if there are at most 60.
   * @param {number} K
   */
  buildBucketBars(K) {
    this.bars = [];
    const lane = this.lanes.find((l) => l.view.state === "buckets");
    if (!lane) return;
    const box = lane.ui.bucketBars;
    box.textContent = "";
    if (K > 60) { box.hidden = true; return; }
    box.hidden = false;
    for (let i = 0; i < K; i++) {
      const fill = h("span", { class: "rlv-bucket-fill" });
      box.appendChild(h("span", { class: "rlv-bucket" }, [fill]));
      this.bars.push(fill);
    }
  }

  /**
   * updateInfo refreshes what changes only when a lane stops.
   * @param {lab.SimInfo} info
   */
  updateInfo(info) {
    const ui = this.ui;
    const status = this.implStatus(info);
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", status.indexOf(":") >= 0);
    const N = info.limit;
    for (const lane of this.lanes) {
      const L = lane.ui, v = lane.view;
      let note = "";
      if (v.lab) note = "lab";
      else if (v.naiveLab && info.refill === "naive") note = "naive refill (lab)";
      else note = this.frozen.size ? "yours" : info.impl.toLowerCase();
      L.note.textContent = note;
      const why = this.laneStatus(lane, info);
      const stopped = why !== "";
      L.status.textContent = stopped ? "Stopped: " + why : "";
      L.status.hidden = !stopped;
      L.el.classList.toggle("rlv-stopped", stopped);
      L.vs.textContent = v.bucket ? "(N " + N + ", b + r·W " + info.bound + ")" : "(N " + N + ")";
    }
    const w = formatWindow(info.windowNs);
    ui.keyText.textContent = "";
    ui.keyText.appendChild(document.createTextNode("Every limiter has the same long-run limit: N = " + N +
      " per W = " + w + " (token bucket and GCRA: r = " + info.rate + "/s, b = " + info.burst + "). " +
      "The figure to watch is max in any W: the most messages a limiter accepted in any interval of length W."));
    // The figure is the token bucket lane's (lab/sim State.Lost): the
    // lab's naive bucket's loss, or what the exact lane, yours or the
    // reference, is short of an exact bucket that took the same messages.
    ui.lostNote.textContent = info.refill === "naive"
      ? "(naive refill rounds every refill down to whole tokens)"
      : info.impl === "Reference"
        ? "(exact refill keeps every fraction; switch Refill to Naive)"
        : "(what your token bucket holds less than an exact one that accepted the same messages)";
    ui.lostLine.classList.toggle("rlv-active", info.refill === "naive");
    let note = "";
    if (info.traffic === "edge") note = "Edge attack: N messages in the last 50 ms before a window boundary and N more in the 50 ms after it, every other window.";
    else if (info.traffic === "naive-demo") note = "Naive demo: a call every 100 µs, " + info.rate + " tokens/s, so each call earns " + +(info.rate / 1e4).toFixed(4) + " token. The GCRA decides exactly as an exact token bucket would.";
    ui.note.textContent = note;
    ui.note.hidden = !note;
  }

  /**
   * advance decides up to max messages up to virtual time untilNs.
   * @param {number} max
   * @param {number} untilNs
   */
  async advance(max, untilNs) {
    if (!this.sim) return;
    const n = await this.sim.step(max, untilNs, this.batch);
    this.changed = true; // the clock moved, if nothing else
    this.slowed = n === max && max > 1;
    const times = this.times, masks = this.batch, off = 8 * n, lanes = this.lanes;
    const stopped = this.stoppedMask(), hung = this.hungMask();
    for (let i = 0; i < n; i++) {
      const bin = Math.floor(times[i] / this.binNs);
      this.advanceBins(bin);
      const slot = bin & (RING - 1), m = masks[off + i];
      for (const lane of lanes) {
        if ((hung >> lane.bit) & 1) continue; // the reference decides it now: not shown
        if ((m >> lane.bit) & 1) lane.acc[slot]++;
        else if (!((stopped >> lane.bit) & 1)) lane.ref[slot]++;
      }
    }
    if (n > 0) this.showLast(times[n - 1], masks[off + n - 1]);
    await this.readState();
  }

  /**
   * showLast describes the latest message decided: its time to the
   * microsecond and each shown lane's answer.
   * @param {number} t
   * @param {number} mask
   */
  showLast(t, mask) {
    const parts = [];
    for (const lane of this.lanes) {
      if (!this.show[lane.id] || this.isStopped(lane)) continue;
      parts.push(lane.name + ((mask >> lane.bit) & 1 ? " ✓" : " ✗"));
    }
    this.ui.last.textContent = "last message at " + (t / 1e9).toFixed(6) + " s: " + parts.join(", ");
  }

  /**
   * advanceBins clears the ring up to bin.
   * @param {number} bin
   */
  advanceBins(bin) {
    if (bin <= this.lastBin) return;
    if (bin - this.lastBin >= RING) {
      for (const lane of this.lanes) { lane.acc.fill(0); lane.ref.fill(0); }
    } else {
      for (let b = this.lastBin + 1; b <= bin; b++) {
        const slot = b & (RING - 1);
        for (const lane of this.lanes) { lane.acc[slot] = 0; lane.ref[slot] = 0; }
      }
    }
    this.lastBin = bin;
  }

  async readState() {
    const sim = this.sim;
    if (!sim || !this.api) return;
    await sim.state(this.stateBytes);
    const stopped = this.state[this.api.layout.stopped];
    this.takeState(stopped !== this.stopped ? await sim.info() : null);
  }

  /**
   * takeState takes in the state read into this.state, and info, the
   * run's info if it was read again (when a lane stopped).
   * @param {lab.SimInfo | null} info
   */
  takeState(info) {
    if (!this.api) return;
    const s = this.state, lay = this.api.layout;
    this.now = s[lay.now];
    this.stopped = s[lay.stopped];
    if (info) {
      this.info = info;
      this.updateInfo(info);
    }
  }

  /**
   * laneField returns one field of a lane's state (a name of the layout).
   * @param {Lane} lane
   * @param {"accepted" | "refused" | "max" | "tokens" | "count"} name
   */
  laneField(lane, name) {
    const lay = /** @type {lab.API} */ (this.api).layout;
    return this.state[lay.header + lane.bit * lay.laneFields + lay[name]];
  }

  /** updateFigures writes the numbers of the latest state into the page. */
  updateFigures() {
    const info = this.info, api = this.api;
    if (!info || !api) return;
    const s = this.state, lay = api.layout, ui = this.ui;
    const N = info.limit;
    ui.clock.textContent = "t = " + formatSeconds(this.now) + (this.slowed ? " (slowed: too many messages per frame)" : "");
    ui.messages.textContent = count(s[lay.messages]);
    ui.lost.textContent = formatCredit(s[lay.lostWhole], s[lay.lostUnits]);
    const parts = [];
    for (const lane of this.lanes) {
      const L = lane.ui, fig = this.frozen.get(lane.id);
      const max = fig ? fig.max : this.laneField(lane, "max");
      L.accepted.textContent = count(fig ? fig.accepted : this.laneField(lane, "accepted"));
      L.refused.textContent = count(fig ? fig.refused : this.laneField(lane, "refused"));
      L.max.textContent = count(max);
      // A window limiter promises N per W; a bucket promises b + r·W.
      const bucket = lane.view.bucket;
      const over = max > (bucket ? info.bound : N);
      L.max.classList.toggle("rlv-over", over);
      L.flag.textContent = over ? (bucket ? " > b + r·W" : " > N") : "";
      if (this.show[lane.id] && !this.isStopped(lane)) {
        parts.push(lane.name + " " + max + (N ? " (" + (max / N).toFixed(2) + " N)" : ""));
      }
      this.updateLaneState(lane, info);
    }
    this.showDot(this.paused ? "paused" : "live");
    ui.keyFig.textContent = parts.length ? "Max in any W so far: " + parts.join(" · ") : "";
  }

  /**
   * updateLaneState writes the state line of a lane: what its limiter
   * holds now.
   * @param {Lane} lane
   * @param {lab.SimInfo} info
   */
  updateLaneState(lane, info) {
    const L = lane.ui, N = info.limit, state = lane.view.state, stopped = this.isStopped(lane);
    const tokens = this.laneField(lane, "tokens"), count = this.laneField(lane, "count");
    let text = "", frac = -1;
    if (stopped) {
      text = "";
    } else if (state === "tokens" && tokens >= 0) {
      text = "tokens " + tokens + " / " + info.burst;
      frac = tokens / info.burst;
    } else if (state === "buckets" && count >= 0) {
      text = "window count " + count + " / " + N + " (per bucket, oldest first)";
      frac = -1;
      this.drawBucketBars(N);
    } else if (state === "window" && count >= 0) {
      text = "this window " + count + " / " + N;
      frac = count / N;
    } else if (state === "log" && count >= 0) {
      text = "in the last W " + count + " / " + N;
      frac = count / N;
    } else if (state === "tat") {
      text = "state: one timestamp (the theoretical arrival time)";
    }
    L.stateText.textContent = text;
    L.bucketBars.hidden = state !== "buckets" || stopped || !this.bars.length;
    L.meter.hidden = frac < 0;
    if (frac >= 0) L.meterFill.style.width = Math.min(100, frac * 100).toFixed(1) + "%";
  }

  /** @param {number} N */
  drawBucketBars(N) {
    if (!this.bars.length || !this.api) return;
    const lay = this.api.layout, s = this.state;
    const K = s[lay.buckets];
    const base = lay.header + this.lanes.length * lay.laneFields;
    for (let i = 0; i < this.bars.length; i++) {
      const c = i < K ? s[base + i] : 0;
      const bar = this.bars[i];
      bar.style.height = Math.min(100, (c / N) * 100 * 2).toFixed(1) + "%";
      if (bar.parentElement) bar.parentElement.title = "bucket " + (i - this.bars.length + 1) + ": " + c;
    }
  }

  // ---- drawing -------------------------------------------------------------

  drawAll() {
    if (!this.info) return;
    this.changed = false;
    this.updateFigures();
    const nowBin = Math.floor(this.now / this.binNs);
    this.advanceBins(nowBin);
    let first = true;
    for (const lane of this.lanes) {
      if (!this.show[lane.id]) continue;
      this.drawLane(lane, this.info, nowBin, first);
      const L = lane.ui;
      describe(L.canvas, () => this.ui.clock.textContent + ": " + L.accepted.textContent + " accepted, " + L.refused.textContent + " refused, at most " +
        L.max.textContent + L.flag.textContent + " in any window" + (L.stateText.textContent ? "; " + L.stateText.textContent : "") + (L.status.textContent ? "; " + L.status.textContent : ""));
      first = false;
    }
  }

  /**
   * drawLane draws a lane's timeline up to nowBin, with the window
   * boundaries' times if labels.
   * @param {Lane} lane
   * @param {lab.SimInfo} info
   * @param {number} nowBin
   * @param {boolean} labels
   */
  drawLane(lane, info, nowBin, labels) {
    const c = sizeCanvas(lane.ui.canvas);
    if (!c) return;
    const g = c.g, cw = c.w, ch = c.h;
    const C = this.colors;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, cw, ch);

    const VB = BINS_PER_WINDOW * VISIBLE_WINDOWS;
    const start = nowBin - VB + 1;
    const bw = cw / VB;
    const N = info.limit;
    const plotTop = 14, plotBottom = Math.round(ch * 0.62);
    const stripTop = plotBottom + 6, stripBottom = ch - 2;
    const stripMid = (stripTop + stripBottom) / 2, half = (stripBottom - stripTop) / 2;

    // Bucket boundaries for the sliding window, faint.
    const K = info.buckets;
    if (lane.view.state === "buckets" && K > 1 && K <= 100) {
      g.strokeStyle = C.faint;
      g.lineWidth = 1;
      g.beginPath();
      const bucketBins = BINS_PER_WINDOW / K;
      const firstBucket = Math.ceil(start / bucketBins);
      for (let bk = firstBucket; bk * bucketBins <= nowBin; bk++) {
        const xb = Math.round((bk * bucketBins - start) * bw) + 0.5;
        g.moveTo(xb, plotTop);
        g.lineTo(xb, stripBottom);
      }
      g.stroke();
    }

    // Window boundaries, with labels on the first lane.
    g.strokeStyle = C.grid;
    g.fillStyle = C.text;
    g.font = "11px system-ui, sans-serif";
    g.textBaseline = "top";
    g.beginPath();
    const firstW = Math.ceil(start / BINS_PER_WINDOW);
    for (let w = Math.max(firstW, 0); w * BINS_PER_WINDOW <= nowBin; w++) {
      const xw = Math.round((w * BINS_PER_WINDOW - start) * bw) + 0.5;
      g.moveTo(xw, labels ? 0 : plotTop);
      g.lineTo(xw, stripBottom);
      if (labels) {
        const label = formatSeconds(w * this.windowNs).replace(/\.?0+ s$/, " s");
        const lw = g.measureText(label).width;
        // Near the right edge, write the label to the left of its line.
        g.fillText(label, xw + 3 + lw > cw ? xw - 3 - lw : xw + 3, 1);
      }
    }
    g.stroke();

    if (this.isStopped(lane)) {
      stoppedNote(g, C.text, this.laneStatus(lane, info), 8, ch / 2);
      return;
    }

    // Accepted in the trailing window, per bin: a running sum over W.
    const acc = lane.acc, ref = lane.ref, mask = RING - 1;
    let sum = 0;
    const oldest = this.lastBin - RING + 1; // bins before this are gone
    for (let b = start - BINS_PER_WINDOW + 1; b < start; b++) if (b >= 0 && b >= oldest) sum += acc[b & mask];
    const top = 2 * N;
    const scale = (plotBottom - plotTop) / top;
    const yN = plotBottom - N * scale;
    const promise = lane.view.bucket ? info.bound : N;
    const yP = plotBottom - Math.min(promise, top) * scale;
    const pts = this.pts || (this.pts = new Float32Array(VB));
    let over = false;
    for (let j = 0; j < VB; j++) {
      const bin = start + j;
      if (bin >= 0 && bin >= oldest) sum += acc[bin & mask];
      const out = bin - BINS_PER_WINDOW;
      if (out >= 0 && out >= oldest) sum -= acc[out & mask];
      pts[j] = sum;
      if (sum > promise) over = true;
    }
    /**
     * fillCount fills the area under the count.
     * @param {string} color
     */
    const fillCount = (color) => {
      g.beginPath();
      g.moveTo(0, plotBottom);
      for (let k = 0; k < VB; k++) g.lineTo((k + 1) * bw, plotBottom - Math.min(pts[k], top) * scale);
      g.lineTo(cw, plotBottom);
      g.closePath();
      g.fillStyle = color;
      g.fill();
    };
    fillCount(C.cntFill);
    if (over) { // again, clipped to above the promise
      g.save();
      g.beginPath();
      g.rect(0, plotTop - 2, cw, yP - plotTop + 2);
      g.clip();
      fillCount(C.over);
      g.restore();
    }
    g.beginPath();
    for (let j = 0; j < VB; j++) {
      const y = plotBottom - Math.min(pts[j], top) * scale;
      if (j === 0) g.moveTo(0, y);
      g.lineTo((j + 1) * bw, y);
    }
    g.strokeStyle = C.cnt;
    g.lineWidth = 1.5;
    g.stroke();
    g.lineWidth = 1;

    // N, dashed, and b + r·W for the buckets (token bucket and GCRA).
    g.setLineDash([4, 3]);
    g.strokeStyle = C.text;
    g.beginPath();
    g.moveTo(0, Math.round(yN) + 0.5);
    g.lineTo(cw, Math.round(yN) + 0.5);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = C.text;
    g.textBaseline = "bottom";
    g.fillText("N = " + N, 4, yN - 1);
    if (lane.view.bucket && info.bound <= top) {
      const yB = plotBottom - info.bound * scale;
      g.setLineDash([1, 3]);
      g.beginPath();
      g.moveTo(0, Math.round(yB) + 0.5);
      g.lineTo(cw, Math.round(yB) + 0.5);
      g.stroke();
      g.setLineDash([]);
      g.textBaseline = "bottom";
      g.textAlign = "right";
      g.fillText("b + r·W = " + info.bound, cw - 4, yB - 1);
      g.textAlign = "left";
    }

    // Messages: accepted up, refused down, on a log scale per bin.
    let maxC = 1;
    for (let j = 0; j < VB; j++) {
      const bin = start + j;
      if (bin < 0 || bin < oldest) continue;
      maxC = Math.max(maxC, acc[bin & mask], ref[bin & mask]);
    }
    const lmax = Math.log(1 + maxC);
    const wbar = Math.max(1, bw);
    g.fillStyle = C.acc;
    for (let j = 0; j < VB; j++) {
      const bin = start + j;
      if (bin < 0 || bin < oldest) continue;
      const a = acc[bin & mask];
      if (a) {
        const ha = Math.max(1.5, (Math.log(1 + a) / lmax) * half);
        g.fillRect(j * bw, stripMid - ha, wbar, ha);
      }
    }
    g.fillStyle = C.ref;
    for (let j = 0; j < VB; j++) {
      const bin = start + j;
      if (bin < 0 || bin < oldest) continue;
      const r = ref[bin & mask];
      if (r) {
        const hr = Math.max(1.5, (Math.log(1 + r) / lmax) * half);
        g.fillRect(j * bw, stripMid, wbar, hr);
      }
    }
    g.fillStyle = C.grid;
    g.fillRect(0, Math.round(stripMid), cw, 1);
  }

  // ---- the frame loop --------------------------------------------------------

  /**
   * tick decides the messages due in dt real milliseconds (Viz calls it
   * once a frame) and draws if anything changed: while paused, nothing
   * does but a Step, a setting or the size.
   * @param {number} dt
   */
  async tick(dt) {
    if (!this.paused) await this.advance(MAX_PER_FRAME, this.now + dt * this.speed * 1e6);
    if (this.changed) this.drawAll();
  }

  /** idle reports whether the run is paused: nothing moves until Play or Step. */
  idle() {
    return this.paused;
  }

  simNs() {
    return this.now;
  }

  /** @param {lab.API} api */
  start(api) {
    this.api = api;
    this.buildLanes(api);
    this.begin();
  }
}

// ---- mounting --------------------------------------------------------------

/** limiters mounts the limiters visualization: its mount(root) and mountAll(). */
export const limiters = register("limiters", LimitersViz);
export { LimitersViz };
