// @ts-check
// ratelab: the hierarchy leak visualization (week 3).
//
// Mounts into every <div data-viz="hierarchy"> on the page. A firm, an
// account and three sessions under sustained load, run twice on the same
// traffic by lab/hierarchy (through the lab's WebAssembly build, loaded once
// per page by common.js): charging as it goes (each level charged on the
// way up, nothing refunded when a later level refuses) and all or nothing
// (the hierarchy exercise's Tree: the reference, or yours). Each animation
// frame asks Go for one step: one call, one typed array back. Go decides
// every message; this file only shows what happened.
//
// Attributes of the mount element, all optional:
//   data-wasm       URL of the build the reference runs from: the week's (default /static/lab.wasm)
//   data-yours-wasm URL of the build Yours runs from (default /static/lab.wasm)
//   data-wasm-exec  URL of wasm_exec.js (default /static/wasm_exec.js)
//   data-seed       seed of the clients' intervals (default 1)
//
// A native ES module, no build step.

import { describe, grouped as int, h, helpers, niceStep, register, select, sizeCanvas, staleHint, stoppedNote, Viz, writeHint } from "./common.js";

const { field, figure, key } = helpers("rhv");

const MAX_DT_MS = 250; // a frame never advances more than this much real time
const SPEEDS = ["1", "2", "5", "10", "30"]; // virtual seconds per real second
const SIDES = ["leaky", "tree"]; // in the order of the encoding

/** @type {import("./common.js").ColorVars} */
const COLORS = {
  leaky: "--rhv-leaky",
  tree: "--rhv-tree",
  grid: "--rhv-grid",
  bad: "--viz-bad",
};

/**
 * @typedef {object} NodeView one bucket of the tree as drawn
 * @property {HTMLDivElement} box
 * @property {HTMLSpanElement} fill
 * @property {HTMLSpanElement} value
 * @property {number} capacity
 */

/**
 * @typedef {object} SessionRow one session's line of a side's table
 * @property {HTMLTableCellElement} rate accepted per second, of the budget
 * @property {HTMLTableCellElement} own refused by its own session bucket
 * @property {HTMLTableCellElement} above refused by the account or the firm
 * @property {HTMLTableCellElement} gaveUp
 * @property {HTMLTableCellElement} name
 * @property {HTMLTableRowElement} row
 */

/**
 * @typedef {object} SideView one hierarchy's panel
 * @property {HTMLElement} panel
 * @property {HTMLElement} title
 * @property {import("./common.js").Figure} lost
 * @property {import("./common.js").Figure} throttled
 * @property {NodeView[]} nodes firm, account, sessions
 * @property {SessionRow[]} rows
 * @property {HTMLParagraphElement} note
 */

/**
 * @typedef {object} Sample the run's totals at one moment, for the chart
 * @property {number} t seconds
 * @property {number[]} lost by side
 * @property {number[]} own session-level refusals by side
 */

// ---- one visualization ---------------------------------------------------------

/** @extends {Viz<lab.HierarchySim>} */
class HierarchyViz extends Viz {
  /** @param {HTMLElement} root */
  constructor(root) {
    super(root, COLORS, MAX_DT_MS);
    this.code = "exercises/hierarchy: Tree.Add, TryAcquire, Available";
    /** @type {lab.HierarchyConfig} */
    this.cfg = { impl: "reference", seed: Number(root.getAttribute("data-seed") || 1) };
    this.speed = 2;
    this.paused = false;
    this.tNs = 0;
    this.done = false;
    /** @type {lab.HierarchyInfo | null} */
    this.info = null;
    /** @type {Sample[]} */
    this.samples = [];
    /** @type {SideView[]} */
    this.sides = [];
    this.ui = this.build();
  }

  build() {
    const ui = {
      impl: select("impl", [["reference", "Reference"], ["yours", "Yours"]], "reference"),
      speed: select("speed", SPEEDS.map((s) => /** @type {[string, string]} */ ([s, s + "× real time"])), String(this.speed)),
      pause: h("button", { type: "button", "data-testid": "pause", "aria-pressed": "false", text: "Pause" }),
      restart: h("button", { type: "button", "data-testid": "restart", text: "Restart" }),
      clock: h("strong", { "data-testid": "clock", text: "t = 0.0 s" }),
      load: h("span", { class: "viz-muted", "data-testid": "load", text: "" }),
      verdict: h("p", { class: "rhv-verdict", "data-testid": "verdict", "aria-live": "polite" }),
      chart: h("canvas", { class: "rhv-chart", role: "img", "aria-label": "Tokens lost and refusals by a session's own bucket over time, for both hierarchies" }),
    };
    const controls = h("form", { class: "viz-controls", "aria-label": "Hierarchy leak settings" }, [
      field("All or nothing: code", ui.impl),
      field("Speed", ui.speed),
      h("div", { class: "viz-buttons" }, [ui.pause, ui.restart]),
    ]);
    controls.addEventListener("submit", (e) => e.preventDefault());
    const statusLine = h("div", { class: "viz-statusline" }, [this.status, ui.clock, ui.load, this.readyDot]);
    const panels = h("div", { class: "rhv-panels" });
    for (const side of SIDES) {
      const v = this.buildSide(side);
      this.sides.push(v);
      panels.appendChild(v.panel);
    }
    const legend = h("p", { class: "viz-legend" }, [
      key("leaky", "charge as you go"), key("tree", "all or nothing"),
      key("lost", "solid: tokens lost"), key("own", "dashed: refused by the session's own bucket"),
    ]);
    this.el = h("div", { class: "viz-frame rhv" }, [controls, statusLine, this.error, panels, ui.verdict, ui.chart, legend]);
    this.root.appendChild(this.el);

    ui.impl.addEventListener("change", () => { this.cfg.impl = ui.impl.value; this.restart(); });
    ui.speed.addEventListener("change", () => { this.speed = Number(ui.speed.value) || 1; });
    ui.pause.addEventListener("click", () => this.setPaused(!this.paused));
    ui.restart.addEventListener("click", () => this.restart());
    return ui;
  }

  /**
   * buildSide makes one hierarchy's panel: its figures, the tree of
   * buckets, the sessions' table.
   * @param {string} side "leaky" or "tree"
   * @returns {SideView}
   */
  buildSide(side) {
    const title = h("h3", { class: "rhv-title", "data-testid": side + "-title", text: side === "leaky" ? "Charge as you go" : "All or nothing" });
    const lost = figure(side + "-lost", "Tokens lost", side === "leaky" ? "taken for messages never sent" : "missing against what it accepted");
    const throttled = figure(side + "-own", "Own-bucket refusals", "a session refused by its own bucket");
    /** @type {NodeView[]} */
    const nodes = [];
    /**
     * @param {string} name
     * @param {string} cls
     */
    const node = (name, cls) => {
      const fill = h("span", { class: "rhv-fill" });
      const value = h("span", { class: "rhv-node-value", text: "–" });
      const box = h("div", { class: "rhv-node " + cls }, [
        h("span", { class: "rhv-node-name", text: name }), h("span", { class: "rhv-bar" }, [fill]), value,
      ]);
      nodes.push({ box, fill, value, capacity: 1 });
      return box;
    };
    const tree = h("div", { class: "rhv-tree", role: "group", "aria-label": "Tokens available at each level" }, [
      h("div", { class: "rhv-row" }, [node("firm", "rhv-firm")]),
      h("div", { class: "rhv-row" }, [node("account", "rhv-account")]),
      h("div", { class: "rhv-row rhv-sessions" }, [node("session 1", "rhv-s"), node("session 2", "rhv-s"), node("session 3", "rhv-s")]),
    ]);
    /** @type {SessionRow[]} */
    const rows = [];
    const body = h("tbody");
    for (let i = 0; i < 3; i++) {
      /** @param {string} id */
      const cell = (id) => h("td", { "data-testid": side + "-s" + i + "-" + id, text: "–" });
      const r = {
        name: h("th", { scope: "row", class: "rhv-sname", text: "session " + (i + 1) }),
        rate: cell("rate"), own: cell("own"), above: cell("above"), gaveUp: cell("gaveup"), row: h("tr"),
      };
      r.row.append(r.name, r.rate, r.own, r.above, r.gaveUp);
      rows.push(r);
      body.appendChild(r.row);
    }
    const table = h("table", { class: "rhv-table" }, [
      h("thead", {}, [h("tr", {}, [
        h("th", { scope: "col", text: "session" }), h("th", { scope: "col", text: "accepted / budget" }),
        h("th", { scope: "col", text: "refused: own" }), h("th", { scope: "col", text: "above" }), h("th", { scope: "col", text: "gave up" }),
      ])]),
      body,
    ]);
    const note = h("p", { class: "rhv-note", "data-testid": side + "-note" });
    const panel = h("section", { class: "rhv-panel rhv-" + side, "data-testid": side + "-panel" }, [
      title, h("div", { class: "rhv-figs" }, [lost.box, throttled.box]), tree, table, note,
    ]);
    return { panel, title, lost, throttled, nodes, rows, note };
  }

  /** @param {boolean} p */
  setPaused(p) {
    super.setPaused(p);
    this.showDot(p ? "paused" : this.done ? "done" : "live");
  }

  /** makeRun makes a new run from the settings and shows it at t = 0. */
  async makeRun() {
    const api = this.api, make = api && api.newHierarchySim, N = api && api.hierarchy;
    if (!make || !N) {
      if (api) this.showError(staleHint("the hierarchy leak"));
      return;
    }
    const s = await this.newRun(() => make(this.cfg), "Cannot run: ");
    if (!s) return;
    this.batchRoom(N.bytes);
    this.tNs = 0;
    this.done = false;
    this.samples = [];
    const sessions = N.sessions;
    this.ui.load.textContent = "firm " + N.firm.rate + "/s · account " + N.account.rate + "/s · sessions " +
      sessions.map((x) => x.rate + "/s").join(", ") + ", their clients sending " +
      sessions.map((x) => x.ordersPerSec).join(", ") + " orders/s and resending a refused one " +
      Math.round(N.retryNs / 1e6) + " ms later (at most " + N.maxAttempts + " tries)";
    for (const v of this.sides) {
      const caps = [N.firm.capacity, N.account.capacity, ...sessions.map((x) => x.capacity)];
      v.nodes.forEach((n, i) => { n.capacity = caps[i]; });
      v.rows.forEach((r, i) => { r.name.textContent = sessions[i].name; });
      v.nodes.slice(2).forEach((n, i) => { n.box.firstChild && (n.box.firstChild.textContent = sessions[i].name); });
    }
    this.info = await s.info();
    await this.advance(0);
    // The status last: a run of Yours answers later, and the page shows
    // the new run's status only beside its figures.
    this.showInfo();
    this.setPaused(this.paused);
  }

  showInfo() {
    const info = this.info;
    if (!info) return;
    let status = "All or nothing: " + info.implStatus;
    if (info.stopped && info.status === "not implemented yet") {
      status = "All or nothing: " + info.impl + ": not implemented yet. " + writeHint("hierarchy");
    }
    this.status.textContent = status;
    this.status.classList.toggle("viz-bad", info.stopped);
    this.sides[1].title.textContent = "All or nothing: " + info.impl;
  }

  /** @param {number} dt */
  async tick(dt) {
    if (!this.paused && !this.done) await this.advance(dt * this.speed * 1e6);
  }

  simNs() {
    return this.tNs;
  }

  /**
   * advance moves virtual time by dNs, asks Go for the state there, and
   * shows it.
   * @param {number} dNs
   */
  async advance(dNs) {
    const N = this.api && this.api.hierarchy, sim = this.sim;
    if (!N || !sim) return;
    const L = N.layout;
    const until = Math.min(this.tNs + dNs, N.durationNs);
    await sim.step(until, this.bytes);
    this.tNs = until;
    const f = this.floats;
    const wasStopped = this.info ? this.info.stopped : false;
    if (f[L.header + L.sideFields + L.stopped] && !wasStopped) {
      this.info = await sim.info();
      this.showInfo();
    }
    const tSec = f[L.now] / 1e9;
    this.ui.clock.textContent = "t = " + tSec.toFixed(1) + " s";
    /** @type {Sample} */
    const sample = { t: tSec, lost: [], own: [] };
    /** @type {{name: string, rate: number, budget: number, own: number}[][]} */
    const perSide = [];
    this.sides.forEach((v, si) => {
      const o = L.header + si * L.sideFields;
      const stopped = f[o + L.stopped] === 1;
      v.panel.classList.toggle("rhv-stopped", stopped);
      const lost = f[o + L.lost];
      let own = 0;
      const rows = [];
      for (let i = 0; i < v.rows.length; i++) {
        const so = o + L.sessions + i * L.sessionFields;
        const r = v.rows[i], S = N.sessions[i];
        const rate = tSec > 0 ? f[so + L.accepted] / tSec : 0;
        const ownN = f[so + L.refused], above = f[so + L.refused + 1] + f[so + L.refused + 2];
        own += ownN;
        r.rate.textContent = stopped ? "–" : rate.toFixed(1) + " / " + S.rate + "/s";
        r.own.textContent = stopped ? "–" : int(ownN);
        r.above.textContent = stopped ? "–" : int(above);
        r.gaveUp.textContent = stopped ? "–" : int(f[so + L.gaveUp]);
        r.own.classList.toggle("rhv-hot", !stopped && ownN > 0);
        rows.push({ name: S.name, rate, budget: S.rate, own: ownN });
      }
      perSide.push(rows);
      for (let i = 0; i < v.nodes.length; i++) {
        const n = v.nodes[i], a = f[o + L.available + i];
        n.value.textContent = stopped ? "–" : a + " / " + n.capacity;
        n.fill.style.width = stopped ? "0" : Math.min(100, (100 * a) / n.capacity) + "%";
        n.box.classList.toggle("rhv-empty", !stopped && a < 1);
      }
      v.lost.value.textContent = stopped ? "–" : int(lost);
      v.lost.box.classList.toggle("rhv-hot", lost > 0);
      v.lost.box.classList.toggle("rhv-green", !stopped && lost === 0 && tSec > 0);
      v.throttled.value.textContent = stopped ? "–" : int(own);
      v.throttled.box.classList.toggle("rhv-hot", own > 0);
      sample.lost.push(stopped ? NaN : lost);
      sample.own.push(stopped ? NaN : own);
    });
    this.notes(perSide);
    this.samples.push(sample);
    if (f[L.done] && !this.done) {
      this.done = true;
      this.showDot("done");
    }
    this.draw();
  }

  /**
   * notes writes, under each panel, the session it treated worst, and the
   * verdict under both.
   * @param {{name: string, rate: number, budget: number, own: number}[][]} perSide
   */
  notes(perSide) {
    const info = this.info;
    perSide.forEach((rows, si) => {
      const v = this.sides[si];
      if (si === 1 && info && info.stopped) {
        v.note.textContent = "Stopped: " + info.status + ".";
        return;
      }
      const worst = rows.reduce((a, b) => (b.own > a.own ? b : a));
      v.note.textContent = worst.own > 0
        ? worst.name + ": refused " + int(worst.own) + " times by its own bucket while only " + worst.rate.toFixed(1) + " of its " + worst.budget + " a second got through."
        : "No session was refused by its own bucket: each sends below its budget and a refusal above costs it nothing.";
    });
    const leaky = perSide[0];
    const w = leaky.reduce((a, b) => (b.own > a.own ? b : a));
    if (w.own > 0) {
      this.ui.verdict.textContent = "The unexplained throttle: charging as it goes, " + w.name + " is told it is over its own limit " + int(w.own) +
        " times while getting " + w.rate.toFixed(1) + " a second accepted of a budget of " + w.budget + ". Every message the account refused took a token from the session anyway.";
    } else {
      this.ui.verdict.textContent = "";
    }
  }

  // ---- the chart ------------------------------------------------------------------

  draw() {
    const N = this.api && this.api.hierarchy;
    const c = sizeCanvas(this.ui.chart);
    if (!c || !N) return;
    describe(this.ui.chart, () => this.ui.clock.textContent + ": " + this.sides.map((v) => v.title.textContent + ", " +
      v.lost.value.textContent + " tokens lost and " + v.throttled.value.textContent + " refusals by a session's own bucket").join("; "));
    const { g, w, h: H } = c, C = this.colors;
    g.clearRect(0, 0, w, H);
    const padL = 48, padR = 12, padT = 12, padB = 24;
    const tMax = N.durationNs / 1e9;
    let yMax = 10;
    for (const s of this.samples) for (const v of [...s.lost, ...s.own]) if (v > yMax) yMax = v;
    const step = niceStep(yMax / 4);
    yMax = Math.ceil(yMax / step) * step;
    /** @param {number} t */
    const x = (t) => padL + ((w - padL - padR) * t) / tMax;
    /** @param {number} v */
    const y = (v) => H - padB - ((H - padT - padB) * v) / yMax;
    g.font = "12px system-ui, sans-serif";
    g.strokeStyle = C.grid;
    g.fillStyle = C.text;
    g.lineWidth = 1;
    g.textBaseline = "middle";
    g.textAlign = "right";
    for (let v = 0; v <= yMax + 1e-9; v += step) {
      g.beginPath(); g.moveTo(padL, y(v)); g.lineTo(w - padR, y(v)); g.stroke();
      g.fillText(int(v), padL - 6, y(v));
    }
    g.textAlign = "center";
    g.textBaseline = "top";
    const tStep = niceStep(tMax / 6);
    for (let t = 0; t <= tMax + 1e-9; t += tStep) g.fillText(t + " s", x(t), H - padB + 6);
    g.textAlign = "left";
    const sides = [C.leaky, C.tree];
    for (const [field, dash] of /** @type {[("lost" | "own"), number[]][]} */ ([["lost", []], ["own", [5, 4]]])) {
      for (let si = 0; si < 2; si++) {
        g.strokeStyle = sides[si];
        g.lineWidth = 2;
        g.setLineDash(dash);
        g.beginPath();
        let started = false;
        for (const s of this.samples) {
          const v = s[field][si];
          if (Number.isNaN(v)) continue;
          if (!started) { g.moveTo(x(s.t), y(v)); started = true; } else g.lineTo(x(s.t), y(v));
        }
        g.stroke();
      }
    }
    g.setLineDash([]);
    const info = this.info;
    if (info && info.stopped) stoppedNote(g, C.bad, "all or nothing: " + info.status, padL + 8, padT + 10);
  }
}

export const hierarchy = register("hierarchy", HierarchyViz);
