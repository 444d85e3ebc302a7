// @ts-check
// ratelab: contention at the engine (week 3): one FIFO, round robin and
// deficit round robin side by side.
//
// Mounts into every <div data-viz="fairqueue"> on the page. Through
// common.js, the lab's WebAssembly build (see wasm/fairqueue_js.go) is
// loaded once per page, shared with the other visualizations. This file
// asks Go for the bins of virtual time due on each animation frame: one
// call, one Float64Array back (lab/fairqueue's EncodeStep). Go runs the
// arrivals, the three schedulers and their engines, and measures; this
// file only shows what it measured.
//
// Attributes of the mount element, all optional:
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js, loaded only if `Go` is not defined
//                   (default /static/wasm_exec.js)
//   data-seed       seed of the arrivals (default 1)
//
// A native ES module, no build step, no network beyond the two files.

import { describe, grouped as count, h, helpers, register, select, sizeCanvas, staleHint, stoppedNote, Viz, writeHint } from "./common.js";

const { field, figure, key } = helpers("rfq");

const VISIBLE_NS = 20e9; // the charts show the last 20 s
const MAX_DT_MS = 100; // a frame never advances more than this much real time
const SMOOTH = 5; // the charts show shares over 5 bins (500 ms)
const SPEEDS = ["0.5", "1", "2", "5", "10", "20"]; // virtual seconds per second
const QUANTA = ["1", "2", "5", "10", "20", "50", "100"];
const RATES = ["1", "2", "4", "8", "16", "32"];
const COSTS = ["1", "2", "5", "10", "20"];

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  s0: "--rfq-s0",
  s1: "--rfq-s1",
  s2: "--rfq-s2",
  s3: "--rfq-s3",
  s4: "--rfq-s4",
  s5: "--rfq-s5",
  grid: "--rfq-grid",
  band: "--rfq-band",
};

/** @param {number} ns */
function ms(ns) {
  if (!(ns >= 0)) return "–";
  const m = ns / 1e6;
  if (m >= 1000) return (m / 1000).toFixed(m >= 10000 ? 0 : 1) + " s";
  return (m < 10 ? m.toFixed(1) : Math.round(m)) + " ms";
}

/** @param {number} f */
function pct(f) { return Math.round(100 * f) + "%"; }

/**
 * @typedef {object} SessionStats one session in one lane
 * @property {number} arrived
 * @property {number} served cost
 * @property {number} waiting
 * @property {number} p50
 * @property {number} p99
 * @property {number} share
 * @property {number} peak
 */

/**
 * @typedef {object} LaneStats one lane, as the latest step wrote it
 * @property {boolean} stopped
 * @property {number} served
 * @property {number} waiting
 * @property {number} outOfOrder
 * @property {number} worstGap
 * @property {number} worstA
 * @property {number} worstB
 * @property {number} jointNs
 * @property {SessionStats[]} sessions
 */

/**
 * @typedef {object} LaneUI the panel of one lane
 * @property {HTMLElement} box
 * @property {HTMLElement} title
 * @property {import("./common.js").Figure} ooo
 * @property {import("./common.js").Figure} gap
 * @property {import("./common.js").Figure} peak
 * @property {HTMLCanvasElement} chart
 */

/** @extends {Viz<lab.FairqueueSim>} */
class FairqueueViz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    this.code = "exercises/fairqueue: Queue.Push, Pop, Len";
    /** @type {lab.FairqueueConfig} */
    this.cfg = { impl: "reference", quantum: 5, burstRate: 8, heavyCost: 5, seed: Number(root.getAttribute("data-seed") || 1) };
    this.speed = 2;
    this.paused = false;
    /** @type {lab.FairqueueInfo | null} */
    this.info = null;
    this.stopped = false;
    /** @type {Float64Array[]} each bin: start, then busy ns by lane and session */
    this.bins = [];
    this.now = 0;
    this.wanted = 0;
    this.bound = 0;
    /** @type {LaneStats[]} */
    this.lanes = [];
    this.laneIDs = ["fifo", "rr", "drr"];
    this.sessionIDs = ["A", "B", "C", "D", "E", "F"];
    this.ui = this.build();
  }

  build() {
    const laneNames = ["One FIFO", "Round robin", "Deficit round robin"];
    const ui = {
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference"),
      quantum: select("quantum", QUANTA.map((q) => /** @type {[string, string]} */ ([q, q])), String(this.cfg.quantum)),
      rate: select("burst-rate", RATES.map((r) => /** @type {[string, string]} */ ([r, r + "× its share"])), String(this.cfg.burstRate)),
      cost: select("heavy-cost", COSTS.map((c) => /** @type {[string, string]} */ ([c, c])), String(this.cfg.heavyCost)),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + "×"])), String(this.speed)),
      pause: h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      clock: h("span", { class: "rfq-clock", "data-testid": "clock", text: "t = 0.0 s" }),
      bound: h("strong", { "data-testid": "bound", text: "–" }),
      boundText: h("span", { class: "viz-muted", text: "" }),
      /** @type {LaneUI[]} */
      lanes: [],
      /** @type {HTMLTableCellElement[][]} [session][lane * 3 + column] */
      cells: [],
      costCells: /** @type {HTMLElement[]} */ ([]),
      table: h("tbody", {}),
    };
    const controls = h("form", { class: "viz-controls", "aria-label": "Contention settings" }, [
      field("DRR code", ui.impl), field("Quantum", ui.quantum), field("A bursts at", ui.rate), field("B's cost", ui.cost),
      field("Speed", ui.speed), h("div", { class: "viz-buttons" }, [ui.pause, ui.restart]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());

    const statusLine = h("div", { class: "viz-statusline" }, [
      this.status, ui.clock, h("span", {}, ["DRR's bound ", ui.bound, " ", ui.boundText]), this.readyDot,
    ]);

    const panels = h("div", { class: "rfq-lanes" });
    this.laneIDs.forEach((id, i) => {
      const title = h("h3", { class: "rfq-lane-title", text: laneNames[i] });
      const ooo = figure("ooo-" + id, "Out of order", "of 0 served");
      const gap = figure("gap-" + id, "Worst gap", "cost, two sessions backlogged");
      const peak = figure("peak-" + id, "A's peak", "of the engine, over 1 s");
      const chart = h("canvas", { class: "rfq-chart", role: "img", "aria-label": laneNames[i] + ": each session's share of the engine over time" });
      const box = h("section", { class: "rfq-lane", "data-testid": "lane-" + id, "data-lane": id }, [
        h("div", { class: "rfq-lane-head" }, [title, h("div", { class: "rfq-figs" }, [ooo.box, gap.box, peak.box])]), chart,
      ]);
      panels.appendChild(box);
      ui.lanes.push({ box, title, ooo, gap, peak, chart });
    });

    const legend = h("p", { class: "viz-legend" }, [
      ...this.sessionIDs.map((s, i) => key("s" + i, i === 0 ? "A, the burster" : i === 1 ? "B, dear commands" : s)),
      key("band", "A is sending a burst (the strip on top)"),
      h("span", { class: "viz-muted", text: "Height: each session's share of the engine's time, over 500 ms." }),
    ]);

    const head1 = h("tr", {}, [h("th", { scope: "col", rowspan: "2", text: "Session" }), h("th", { scope: "col", rowspan: "2", text: "Cost" })]);
    const head2 = h("tr", {});
    laneNames.forEach((name, i) => {
      head1.appendChild(h("th", { scope: "colgroup", colspan: "3", class: "rfq-group", text: ["FIFO", "Round robin", "DRR"][i] }));
      for (const t of ["share", "p50", "p99"]) head2.appendChild(h("th", { scope: "col", class: t === "share" ? "rfq-group" : "", text: t }));
    });
    this.sessionIDs.forEach((s, i) => {
      const costCell = h("td", { text: "1" });
      ui.costCells.push(costCell);
      const tr = h("tr", { "data-session": s }, [
        h("th", { scope: "row" }, [h("span", { class: "rfq-swatch rfq-sw-s" + i }), " " + s + (i === 0 ? " burster" : "")]), costCell,
      ]);
      /** @type {HTMLTableCellElement[]} */
      const row = [];
      for (let l = 0; l < 3; l++) {
        for (const k of ["share", "p50", "p99"]) {
          const td = h("td", { class: k === "share" ? "rfq-group" : "", "data-lane": this.laneIDs[l], "data-col": k, text: "–" });
          row.push(td);
          tr.appendChild(td);
        }
      }
      ui.cells.push(row);
      ui.table.appendChild(tr);
    });
    const table = h("div", { class: "rfq-table scroll-cue", role: "region", "aria-label": "Sessions", tabindex: "0" }, [h("table", { "data-testid": "sessions" }, [
      h("caption", { text: "Per session and scheduler: share of the engine over the last second, and the queueing delay since the start (p50, p99), from arrival to service." }),
      h("thead", {}, [head1, head2]), ui.table,
    ])]);

    this.el = h("div", { class: "viz-frame rfq" }, [controls, statusLine, this.error, panels, legend, table]);
    this.root.appendChild(this.el);

    ui.impl.addEventListener("change", () => { this.cfg.impl = ui.impl.value; this.restart(); });
    ui.quantum.addEventListener("change", () => { this.cfg.quantum = Number(ui.quantum.value); this.restart(); });
    ui.rate.addEventListener("change", () => { this.cfg.burstRate = Number(ui.rate.value); this.restart(); });
    ui.cost.addEventListener("change", () => { this.cfg.heavyCost = Number(ui.cost.value); this.restart(); });
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 2; });
    ui.pause.addEventListener("click", () => this.setPaused(!this.paused));
    ui.restart.addEventListener("click", () => this.restart());
    return ui;
  }

  /** makeRun makes a new run from the settings and clears the charts. */
  async makeRun() {
    const F = this.api && this.api.fairqueue;
    if (!F) return;
    const s = await this.newRun(() => F.newSim(this.cfg), "Cannot run: ");
    if (!s) return;
    // The page changes once the new run has answered (a run of Yours
    // answers later): never the new status beside the old figures.
    this.info = await s.info();
    this.stopped = this.info.stopped;
    this.bound = this.info.bound;
    this.bins = [];
    this.now = 0;
    this.wanted = 0;
    this.lanes = [];
    await this.advance(0);
    const info = this.updateInfo(this.info);
    this.ui.bound.textContent = String(info.bound);
    this.ui.boundText.textContent = "= 2 × quantum " + info.quantum + " + largest cost " + Math.max(1, info.heavyCost);
    this.ui.costCells.forEach((c, i) => { c.textContent = String(i === 1 ? info.heavyCost : 1); });
    this.draw();
  }

  /** @param {lab.FairqueueInfo} info */
  updateInfo(info) {
    this.info = info;
    this.stopped = info.stopped;
    this.changed = true;
    let status = info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = info.impl + ": not implemented yet. " + writeHint("fairqueue") + " FIFO and round robin go on.";
    } else if (info.stopped) {
      status += ". FIFO and round robin go on.";
    }
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", info.stopped);
    this.ui.lanes[2].title.textContent = "DRR (" + info.impl + ")";
    this.ui.lanes[2].box.classList.toggle("rfq-stopped", info.stopped);
    return info;
  }

  /** @param {number} untilNs */
  async advance(untilNs) {
    const F = this.api && this.api.fairqueue, sim = this.sim;
    if (!F || !sim) return;
    const L = F.layout;
    const n = await sim.step(untilNs, F.maxBins, this.bytes);
    if (n > 0) this.changed = true; // Go runs whole bins: none, nothing moved
    const f = this.floats;
    this.now = f[L.now];
    this.bound = f[L.bound];
    /** @type {LaneStats[]} */
    const lanes = [];
    for (let l = 0; l < this.laneIDs.length; l++) {
      const o = L.header + l * L.laneFields;
      /** @type {SessionStats[]} */
      const sessions = [];
      for (let s = 0; s < this.sessionIDs.length; s++) {
        const p = o + L.laneHead + s * L.sessionFields;
        sessions.push({
          arrived: f[p + L.arrived], served: f[p + L.served], waiting: f[p + L.waiting],
          p50: f[p + L.p50], p99: f[p + L.p99], share: f[p + L.share], peak: f[p + L.peak],
        });
      }
      lanes.push({
        stopped: f[o + L.laneStopped] === 1, served: f[o + L.laneServed], waiting: f[o + L.laneWaiting],
        outOfOrder: f[o + L.outOfOrder], worstGap: f[o + L.worstGap], worstA: f[o + L.worstA], worstB: f[o + L.worstB],
        jointNs: f[o + L.jointNs], sessions,
      });
    }
    this.lanes = lanes;
    const start = L.header + this.laneIDs.length * L.laneFields;
    for (let i = 0; i < n; i++) {
      const o = start + i * L.binFields;
      this.bins.push(f.slice(o, o + L.binFields));
    }
    const keep = Math.ceil(VISIBLE_NS / F.binNs) + 2;
    if (this.bins.length > keep * 2) this.bins.splice(0, this.bins.length - keep);
    if (f[L.stopped] && !this.stopped) this.updateInfo(await sim.info());
  }

  draw() {
    const info = this.info;
    if (!info) return;
    this.changed = false;
    const ui = this.ui;
    ui.clock.textContent = "t = " + (this.now / 1e9).toFixed(1) + " s";
    this.el.dataset.now = String(this.now);
    this.showDot(this.paused ? "paused" : "live");
    this.lanes.forEach((st, l) => {
      const lu = ui.lanes[l], id = this.laneIDs[l];
      const stopped = st.stopped;
      lu.ooo.value.textContent = stopped ? "–" : count(st.outOfOrder);
      lu.ooo.note.textContent = stopped ? "stopped" : "of " + count(st.served) + " served";
      lu.gap.value.textContent = stopped ? "–" : count(st.worstGap);
      const within = st.worstGap < this.bound;
      lu.gap.note.textContent = st.worstA < 0 ? "no two sessions backlogged yet"
        : (within ? "below" : "past") + " the bound " + this.bound + " (" + this.sessionIDs[st.worstA] + " and " + this.sessionIDs[st.worstB] + ")";
      lu.gap.box.classList.toggle("rfq-hot", !stopped && st.worstA >= 0 && !within);
      lu.gap.box.classList.toggle("rfq-ok", !stopped && st.worstA >= 0 && within);
      const a = st.sessions[0];
      lu.peak.value.textContent = stopped ? "–" : pct(a.peak);
      lu.peak.box.classList.toggle("rfq-hot", !stopped && a.peak > 0.5);
      const d = lu.box.dataset;
      d.stopped = String(stopped);
      d.outOfOrder = String(st.outOfOrder);
      d.worstGap = String(st.worstGap);
      d.worstPair = st.worstA < 0 ? "" : this.sessionIDs[st.worstA] + this.sessionIDs[st.worstB];
      d.bound = String(this.bound);
      d.jointNs = String(st.jointNs);
      d.served = String(st.served);
      d.burstPeak = String(a.peak);
      for (let s = 0; s < st.sessions.length; s++) {
        const ss = st.sessions[s], row = ui.cells[s];
        const cells = [row[l * 3], row[l * 3 + 1], row[l * 3 + 2]];
        const texts = stopped ? ["–", "–", "–"] : [pct(ss.share), ms(ss.p50), ms(ss.p99)];
        cells.forEach((c, k) => { if (c.textContent !== texts[k]) c.textContent = texts[k]; });
        const cd = cells[0].dataset;
        cd.share = String(ss.share);
        cd.peak = String(ss.peak);
        cd.p50 = String(ss.p50);
        cd.p99 = String(ss.p99);
        cd.served = String(ss.served);
        cd.waiting = String(ss.waiting);
        cells[0].setAttribute("data-testid", "share-" + id + "-" + this.sessionIDs[s]);
      }
      this.drawLane(l, info);
      describe(lu.chart, () => ui.clock.textContent + ": share of the engine over the last second " +
        this.sessionIDs.map((sid, s) => sid + " " + ui.cells[s][l * 3].textContent).join(", ") + "; worst gap " + lu.gap.value.textContent + ", " +
        lu.gap.note.textContent + "; " + lu.ooo.value.textContent + " out of order, " + lu.ooo.note.textContent);
    });
  }

  /**
   * bursting reports the stretches of [start, end) in which A sends a burst.
   * @param {lab.FairqueueInfo} info
   * @param {number} start
   * @param {number} end
   * @returns {[number, number][]}
   */
  bursts(info, start, end) {
    const share = info.capacity / this.sessionIDs.length;
    const len = info.burstSize / (info.burstRate * share) * 1e9;
    /** @type {[number, number][]} */
    const out = [];
    // Bursts longer than the period run back to back.
    const period = Math.max(info.periodNs, len);
    let k = Math.max(0, Math.floor((start - info.firstBurstNs) / period));
    for (; ; k++) {
      const b = info.firstBurstNs + k * period;
      if (b >= end) break;
      if (b + len > start) out.push([Math.max(b, start), Math.min(b + len, end)]);
    }
    return out;
  }

  /**
   * drawLane draws lane l's shares of the engine over time, stacked.
   * @param {number} l
   * @param {lab.FairqueueInfo} info
   */
  drawLane(l, info) {
    const F = this.api && this.api.fairqueue;
    const c = sizeCanvas(this.ui.lanes[l].chart);
    if (!c || !F) return;
    const g = c.g, C = this.colors, left = 34, right = 6, top = 9, bottom = c.h - 15;
    g.fillStyle = C.bg;
    g.fillRect(0, 0, c.w, c.h);
    const end = Math.max(this.now, VISIBLE_NS), start = end - VISIBLE_NS, pw = c.w - left - right;
    /** @param {number} t */
    const x = (t) => left + ((t - start) / VISIBLE_NS) * pw;
    /** @param {number} v */
    const y = (v) => bottom - v * (bottom - top);
    // A's bursts: a strip above the chart, up to now.
    g.fillStyle = C.band;
    for (const [b0, b1] of this.bursts(info, start, Math.min(end, this.now))) g.fillRect(x(b0), 1, Math.max(1, x(b1) - x(b0)), 5);
    g.strokeStyle = C.grid;
    g.fillStyle = C.text;
    g.font = "11px system-ui, sans-serif";
    g.textAlign = "right";
    g.textBaseline = "middle";
    g.beginPath();
    for (const v of [0, 0.5, 1]) {
      const yy = Math.round(y(v)) + 0.5;
      g.moveTo(left, yy);
      g.lineTo(c.w - right, yy);
      g.fillText(v * 100 + "%", left - 4, yy);
    }
    g.stroke();
    g.textAlign = "center";
    g.textBaseline = "top";
    for (let s = Math.ceil(start / 5e9) * 5; s * 1e9 <= end; s += 5) {
      const tx = x(s * 1e9), tl = s + " s", half = g.measureText(tl).width / 2;
      if (tx - half >= left && tx + half <= c.w) g.fillText(tl, tx, bottom + 2);
    }
    g.textAlign = "left";
    const bins = this.bins, binNs = F.binNs, n = this.sessionIDs.length;
    let first = 0;
    while (first < bins.length && bins[first][0] + binNs <= start) first++;
    if (first < bins.length) {
      // Each bar is the mean of its bin and the SMOOTH - 1 before it.
      const base = F.layout.binBusy + l * n;
      for (let i = first; i < bins.length; i++) {
        const b = bins[i], x0 = x(b[0]), x1 = x(b[0] + binNs), w = Math.max(x1 - x0, 0.5);
        const from = Math.max(0, i - SMOOTH + 1);
        let acc = 0;
        for (let s = 0; s < n; s++) {
          let sum = 0;
          for (let k = from; k <= i; k++) sum += bins[k][base + s];
          const v = sum / ((i - from + 1) * binNs);
          if (v <= 0) continue;
          g.fillStyle = C["s" + s];
          g.fillRect(x0, y(acc + v), w + 0.4, y(acc) - y(acc + v));
          acc += v;
        }
      }
    }
    if (l === 2 && this.stopped) stoppedNote(g, C.text, info.status, left + 10, (top + bottom) / 2);
  }

  /**
   * tick runs the virtual time due in dt real milliseconds (Viz calls it
   * once a frame) and draws if anything changed: a bin is 100 ms of
   * virtual time, more than a frame's at the slower speeds.
   * @param {number} dt
   */
  async tick(dt) {
    if (!this.paused) {
      this.wanted += dt * this.speed * 1e6;
      await this.advance(this.wanted);
    }
    if (this.changed) this.draw();
  }

  /** idle reports whether the run is paused: nothing moves until Play. */
  idle() {
    return this.paused;
  }

  simNs() {
    return this.now;
  }

  /** @param {lab.API} api */
  start(api) {
    if (!api.fairqueue) {
      this.fail(new Error(staleHint("week 3's contention lab")));
      return;
    }
    this.api = api;
    this.batchRoom(api.fairqueue.maxBytes);
    this.begin();
  }
}

/** fairqueue mounts the contention visualization: its mount(root) and mountAll(). */
export const fairqueue = register("fairqueue", FairqueueViz);
export { FairqueueViz };
